#!/usr/bin/python3
"""Makes TorchScript graphs and torch 1.13.1's AliasDb answers on them, in the
format of tests/data/golden/aliasdb-1.13.1 (see its README), for
`tensoralias graph-alias --queries` to be compared with.

For each graph NAME it writes NAME.ir (str(graph)), NAME.classes when the graph
holds class objects (each class's attribute types, for --classes), and
NAME.truth.jsonl:
  has_writers        for every value (graph inputs, node outputs, block parameters)
  may_contain_alias  for up to 3,000 random pairs of values of types that can alias
  move_after/before  for up to 300 random pairs of top-level nodes, each asked on a
                     fresh copy of the graph (torch moves when it answers true)
  schema             for every top-level node: the overload TorchScript resolved
                     (node.schema(); null for "(no schema)")
  may_alias          for the pairs above, when the graph has no class types: Python
                     cannot ask AliasDb::mayAlias, so a few lines of C++ built against
                     libtorch ask it on the same text read with torch::jit::parseIR

Graphs:
  model_*   torchvision models, scripted in eval mode, inlined_graph
  func_*    TorchScript functions and modules written here to reach dicts,
            optionals, tuples, attributes (GetAttr/SetAttr), CallFunction and
            CallMethod (graphs not inlined), RaiseException, Uninitialized, lists
            appended to, out= overloads, views, conservative operators
  ir_*      graphs written as IR here: the special node kinds (ConstantChunk,
            BroadcastingChunk, profile, TypeCheck, unchecked_cast, AutogradZero,
            AutogradAdd, isinstance, Uninitialized, wait) and unions, optionals,
            futures, Any, tuples and dicts of lists
  rand_*    random graphs (fixed seeds) over views, in-place and out= ops, lists,
            dicts, tuples, optionals, prim::If and prim::Loop, built as IR text,
            read with torch._C.parse_ir and printed
  sound_*   torchvision models whose classes have attributes the graph never
            reads, asked only where that matters (class_truth): has_writers
            for every value, may_contain_alias of class objects against
            values of the other types that can alias

Usage: tools/torch/aliasdb_truth.py OUTDIR [--only PREFIX] [--no-models]
Needs /usr/bin/python3 with torch 1.13.1 and torchvision 0.14.1; g++ and
libtorch-dev for the may_alias answers (skipped without them).
"""
import argparse
import ctypes
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import zlib
from typing import Dict, List, Optional, Tuple

import torch
from torch import Tensor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_classes import class_lines  # noqa: E402

MUTABLE_KINDS = {"TensorType", "ListType", "TupleType", "DictType", "OptionalType", "ClassType"}

# ---------------------------------------------------------------------------
# may_alias through libtorch (Python has no binding for AliasDb::mayAlias)

MAY_ALIAS_CPP = r'''
#include <torch/csrc/jit/ir/alias_analysis.h>
#include <torch/csrc/jit/ir/irparser.h>
#include <cstring>
#include <sstream>
#include <string>
#include <unordered_map>
extern "C" int tensoralias_may_alias(const char *ir, const char *pairs, char *out, size_t cap) {
  try {
    auto g = std::make_shared<torch::jit::Graph>();
    std::unordered_map<std::string, torch::jit::Value *> vmap;
    torch::jit::parseIR(ir, g.get(), vmap);
    torch::jit::AliasDb db(g);
    std::istringstream in(pairs);
    std::string a, b;
    size_t n = 0;
    while (in >> a >> b) {
      if (n + 1 >= cap) return -2;
      auto ia = vmap.find(a), ib = vmap.find(b);
      if (ia == vmap.end() || ib == vmap.end()) return -3;
      out[n++] = db.mayAlias(ia->second, ib->second) ? '1' : '0';
    }
    out[n] = 0;
    return 0;
  } catch (...) {
    return -1;
  }
}
'''


def may_alias_lib(tmp):
    src, lib = os.path.join(tmp, "may_alias.cpp"), os.path.join(tmp, "may_alias.so")
    with open(src, "w") as f:
        f.write(MAY_ALIAS_CPP)
    try:
        subprocess.run(["g++", "-std=c++17", "-shared", "-fPIC", "-O0", src, "-o", lib,
                        "-ltorch", "-ltorch_cpu", "-lc10"], check=True, capture_output=True)
        return ctypes.CDLL(lib)
    except (OSError, subprocess.CalledProcessError) as e:
        print("may_alias answers skipped: cannot build the libtorch helper:", e, file=sys.stderr)
        return None


def may_alias_answers(lib, text, pairs):
    if lib is None or "__torch__" in text:
        return None
    # torch prints a node without outputs as "= kind(...)" but reads "kind(...)",
    # and prints Future[T] but reads Future(T)
    text = "\n".join(l.replace(" = ", "", 1) if l.lstrip().startswith("= ") else l for l in text.split("\n"))
    text = re.sub(r"(Future|RRef)\[([^\[\]]*)\]", r"\1(\2)", text)
    buf = ctypes.create_string_buffer(len(pairs) + 16)
    q = "\n".join(f"{a[1:]} {b[1:]}" for a, b in pairs).encode()
    rc = lib.tensoralias_may_alias(text.encode(), q, buf, ctypes.c_size_t(len(buf)))
    if rc != 0:
        return None
    return [c == "1" for c in buf.value.decode()]


# ---------------------------------------------------------------------------
# truth for one graph

def all_values(graph):
    vals = list(graph.inputs())

    def walk(block):
        for n in block.nodes():
            vals.extend(n.outputs())
            for b in n.blocks():
                vals.extend(b.inputs())
                walk(b)
    walk(graph)
    return vals


def top_nodes(graph):
    return list(graph.nodes())


def truth(graph, lib, rng, npairs=3000, nmoves=300):
    # Source comments name this script by its path relative to the repository,
    # not by where the checkout happens to be.
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    text = str(graph).replace(root + os.sep, "")
    db = graph.alias_db()
    vals = all_values(graph)
    lines = []
    for v in vals:
        lines.append({"q": "has_writers", "a": "%" + v.debugName(), "answer": db.has_writers(v)})
    mut = [v for v in vals if v.type().kind() in MUTABLE_KINDS]
    pairs = []
    if len(mut) >= 2:
        for _ in range(npairs):
            a, b = rng.choice(mut), rng.choice(mut)
            pairs.append((a, b))
    for a, b in pairs:
        lines.append({"q": "may_contain_alias", "a": "%" + a.debugName(), "b": "%" + b.debugName(),
                      "answer": db.may_contain_alias(a, b)})
    names = [("%" + a.debugName(), "%" + b.debugName()) for a, b in pairs]
    answers = may_alias_answers(lib, text, names)
    if answers is not None:
        for (a, b), yes in zip(names, answers):
            lines.append({"q": "may_alias", "a": a, "b": b, "answer": yes})
    nodes = top_nodes(graph)
    for i, n in enumerate(nodes):
        s = n.schema()
        lines.append({"q": "schema", "n": i, "answer": None if s == "(no schema)" else s})
    if len(nodes) >= 2:
        for _ in range(min(nmoves, len(nodes) * 2)):
            i, j = rng.randrange(len(nodes)), rng.randrange(len(nodes))
            for kind in ("move_after", "move_before"):
                g2 = graph.copy()
                ns = top_nodes(g2)
                db2 = g2.alias_db()
                fn = db2.move_after_topologically_valid if kind == "move_after" else db2.move_before_topologically_valid
                lines.append({"q": kind, "n": i, "m": j, "answer": fn(ns[i], ns[j])})
    return text, lines


def class_truth(graph, rng, npairs=2000):
    """The answers a class's unread attributes decide: has_writers for every
    value, and may_contain_alias of a class object and a value of another
    type that can alias, in either order (a Conv2d object against an int[]
    another module holds, say)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    text = str(graph).replace(root + os.sep, "")
    db = graph.alias_db()
    vals = all_values(graph)
    lines = [{"q": "has_writers", "a": "%" + v.debugName(), "answer": db.has_writers(v)} for v in vals]
    objects = [v for v in vals if v.type().kind() == "ClassType"]
    others = [v for v in vals if v.type().kind() in MUTABLE_KINDS - {"ClassType"}]
    for _ in range(npairs if objects and others else 0):
        a, b = rng.choice(objects), rng.choice(others)
        if rng.random() < 0.5:
            a, b = b, a
        lines.append({"q": "may_contain_alias", "a": "%" + a.debugName(), "b": "%" + b.debugName(),
                      "answer": db.may_contain_alias(a, b)})
    return text, lines


def write(outdir, name, graph, lib, seed):
    rng = random.Random(seed)
    text, lines = class_truth(graph, rng) if name.startswith("sound_") else truth(graph, lib, rng)
    with open(os.path.join(outdir, name + ".ir"), "w") as f:
        f.write(text)
    classes = class_lines(graph)
    if classes:
        with open(os.path.join(outdir, name + ".classes"), "w") as f:
            f.write("\n".join(classes) + "\n")
    with open(os.path.join(outdir, name + ".truth.jsonl"), "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    print(f"{name}: {sum(1 for _ in graph.nodes())} top-level nodes, {len(lines)} answers", file=sys.stderr)


# ---------------------------------------------------------------------------
# torchvision models

MODELS = ["squeezenet1_0", "shufflenet_v2_x0_5", "mnasnet0_5", "googlenet", "densenet121",
          "efficientnet_b0", "regnet_x_400mf", "convnext_tiny", "alexnet"]


def models(names=MODELS, prefix="model_"):
    import torchvision
    for name in names:
        try:
            kwargs = {"aux_logits": False, "init_weights": False} if name == "googlenet" else {}
            m = getattr(torchvision.models, name)(weights=None, **kwargs).eval()
            yield prefix + name, torch.jit.script(m).inlined_graph
        except Exception as e:  # a model torch cannot script is skipped, said so
            print(f"model {name} skipped: {e}", file=sys.stderr)


# ---------------------------------------------------------------------------
# functions written to reach the node kinds models do not have

def f_dict(x: Tensor, d: Dict[str, Tensor]) -> Dict[str, Tensor]:
    d["a"] = x
    y = d["a"]
    y.add_(1)
    out = {"b": x.relu(), "c": x}
    for k in d.keys():
        out[k] = d[k] * 2
    z = out.get("b")
    if z is not None:
        z.mul_(3)
    return out


def f_optional(x: Tensor, y: Optional[Tensor], c: bool) -> Tensor:
    if y is None:
        z = x.clone()
    else:
        z = y
    z.add_(1)
    w: Optional[Tensor] = None
    if c:
        w = x.transpose(0, 1)
    if w is not None:
        w.relu_()
    return z


def f_tuple(x: Tensor, t: Tuple[Tensor, Tensor]) -> Tuple[Tensor, Tensor]:
    a, b = t
    a.add_(x)
    u = (x, b.t())
    v = u[1]
    v.mul_(2)
    m, i = torch.max(x, 0)
    return (m, a)


def f_list(x: Tensor, n: int) -> List[Tensor]:
    xs: List[Tensor] = []
    for i in range(n):
        xs.append(x[i])
    xs[0].add_(1)
    ys = xs[1:]
    ys.append(x.clone())
    zs = torch.chunk(x, 2, 0)
    zs[1].zero_()
    parts = x.split(2)
    parts[0].mul_(2)
    return xs + [torch.cat(ys), torch.stack(list(torch.unbind(x)))]


def f_views(x: Tensor, y: Tensor) -> Tensor:
    a = x.view(-1)
    b = a[2:6]
    b.add_(1)
    c = y.unsqueeze(0).expand(3, 4, 4)
    d = c.select(0, 1)
    x.transpose_(0, 1)
    e = torch.empty_like(x)
    torch.add(x, y, out=e)
    torch.mul(e, 2, out=e)
    y[0] = x[1]
    f = y.detach().t().contiguous()
    f.sigmoid_()
    return e + d


def f_raise(x: Tensor, c: bool) -> Tensor:
    if c:
        y = x + 1
    else:
        raise RuntimeError("no")
    if x.sum() > 100:
        raise ValueError("too big")
    for i in range(3):
        if i == 2:
            break
        y.add_(i)
    return y


def f_helper(x: Tensor, y: Tensor) -> Tensor:
    x.add_(y)
    return x.relu()


def f_calls(x: Tensor, y: Tensor) -> Tensor:
    z = f_helper(x, y)
    w = f_helper(z, x)
    print(w)
    return w + z


class Counter(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("total", torch.zeros(4))
        self.last = torch.zeros(4)
        self.calls = 0
        self.inner = torch.nn.Linear(4, 4)

    def forward(self, x: Tensor) -> Tensor:
        self.total.add_(x.sum(0))
        self.last = x.mean(0)
        self.calls += 1
        y = self.inner(x)
        return y + self.total


class Norms(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = torch.nn.BatchNorm1d(4)
        self.inorm = torch.nn.InstanceNorm1d(4, track_running_stats=True)

    def forward(self, x: Tensor, flag: bool) -> Tensor:
        y = self.bn(x)
        z = torch.batch_norm(x, None, None, self.bn.running_mean, self.bn.running_var, flag, 0.1, 1e-5, False)
        w = self.inorm(x.unsqueeze(0))
        torch.dropout_(y, 0.5, flag)
        return y + z + w.squeeze(0)


def functions():
    for fn in (f_dict, f_optional, f_tuple, f_list, f_views, f_raise):
        yield "func_" + fn.__name__[2:], torch.jit.script(fn).graph
    calls = torch.jit.script(f_calls)
    yield "func_calls", calls.graph
    counter = torch.jit.script(Counter())
    yield "func_counter", counter.graph
    yield "func_counter_inlined", counter.inlined_graph
    yield "func_norms", torch.jit.script(Norms().train()).inlined_graph


# ---------------------------------------------------------------------------
# graphs written as IR, for the node kinds and types the rest do not reach

SPECIAL_KINDS = """graph(%x : Tensor, %y : Tensor, %c : bool, %u : Union(Tensor, int), %o : Tensor?, %a : Any, %f : Future(Tensor), %t : (Tensor, int), %lo : Tensor[]?):
  %one : int = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %c1 : Tensor = aten::relu(%x)
  %c2 : Tensor = aten::relu(%y)
  %k1 : Tensor, %k2 : Tensor = prim::ConstantChunk[chunks=2, dim=0](%c1)
  %b1 : Tensor, %b2 : Tensor, %b3 : Tensor, %b4 : Tensor = prim::BroadcastingChunk[chunks=2, dim=0](%c1, %c2)
  %p : Tensor = prim::profile[profiled_type=Tensor](%c2)
  %tc1 : Tensor, %tc2 : Tensor, %ok : bool = prim::TypeCheck[types=[Tensor, Tensor]](%c1, %c2)
  %cast : Tensor = prim::unchecked_cast(%o)
  %tu : Tensor = prim::TupleIndex(%t, %zero)
  %z : Tensor = prim::AutogradZero()
  %az : Tensor = prim::AutogradAdd(%z, %c1)
  %isit : bool = prim::isinstance[types=[Tensor]](%a)
  %un : Tensor = prim::Uninitialized()
  %opt : Tensor? = prim::If(%c)
    block0():
      -> (%c2)
    block1():
      -> (%none)
  %ou : Union(Tensor, int) = prim::If(%c)
    block0():
      -> (%c1)
    block1():
      -> (%u)
  %tl : Tensor[] = prim::ListConstruct(%c1, %c2)
  %tup : (Tensor, Tensor[]) = prim::TupleConstruct(%k1, %tl)
  %tups : (Tensor, Tensor[])[] = prim::ListConstruct(%tup)
  %g0 : (Tensor, Tensor[]) = aten::__getitem__(%tups, %zero)
  %ka : str = prim::Constant[value="a"]()
  %d : Dict(str, Tensor[]) = prim::DictConstruct(%ka, %tl)
  %w : Tensor = aten::wait(%f)
  %n : Tensor = aten::relu_(%b3)
  %m : Tensor = aten::add_(%cast, %k2, %one)
  return (%w, %p, %n, %opt, %ou, %g0, %d, %az, %un)
"""


def special_graphs():
    yield "ir_special_kinds", torch._C.parse_ir(SPECIAL_KINDS)


# ---------------------------------------------------------------------------
# random graphs, as IR text

class RandomGraph:
    """Random straight-line code over tensors, lists, dicts, tuples and
    optionals, with nested prim::If and prim::Loop blocks."""

    def __init__(self, seed, size):
        self.rng = random.Random(seed)
        self.size = size
        self.lines = []
        self.n = 0
        self.consts = ['%one : int = prim::Constant[value=1]()', '%zero : int = prim::Constant[value=0]()',
                       '%two : int = prim::Constant[value=2]()', '%neg : int = prim::Constant[value=-1]()',
                       '%false : bool = prim::Constant[value=0]()', '%true : bool = prim::Constant[value=1]()',
                       '%none : NoneType = prim::Constant()', '%half : float = prim::Constant[value=0.5]()',
                       '%ka : str = prim::Constant[value="a"]()', '%kb : str = prim::Constant[value="b"]()',
                       '%msg : str = prim::Constant[value="boom"]()',
                       '%shape : int[] = prim::ListConstruct(%two, %two, %two, %two)']

    def fresh(self):
        self.n += 1
        return f"%v{self.n}"

    def pick(self, scope, kind):
        pool = scope[kind]
        return self.rng.choice(pool[-8:]) if pool else None

    def emit(self, indent, text):
        self.lines.append("  " * indent + text)

    def define(self, scope, indent, kind, typ, rhs):
        v = self.fresh()
        self.emit(indent, f"{v} : {typ} = {rhs}")
        scope[kind].append(v)
        return v

    def tensor_op(self, scope, ind):
        T = lambda: self.pick(scope, "T")
        r = self.rng.random()
        ops = [
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::add({T()}, {T()}, %one)"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::mul({T()}, {T()})"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::add_({T()}, {T()}, %one)"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::mul_({T()}, {T()})"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::relu_({T()})"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::sigmoid({T()})"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::clone({T()}, %none)"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::copy_({T()}, {T()}, %false)"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::zero_({T()})"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::transpose({T()}, %zero, %one)"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::select({T()}, %zero, %one)"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::view({T()}, %shape)"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::reshape({T()}, %shape)"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::slice({T()}, %zero, %zero, %two, %one)"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::unsqueeze({T()}, %zero)"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::t({T()})"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::detach({T()})"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::contiguous({T()}, %zero)"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::expand_as({T()}, {T()})"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::transpose_({T()}, %zero, %one)"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::add({T()}, {T()}, %one, {T()})"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::mul({T()}, {T()}, {T()})"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::dropout_({T()}, %half, %true)"),
            lambda: self.define(scope, ind, "T", "Tensor", f"aten::to({T()}, %two, %false, %false, %none)"),
            lambda: self.define(scope, ind, "L", "Tensor[]", f"aten::chunk({T()}, %two, %zero)"),
            lambda: self.define(scope, ind, "L", "Tensor[]", f"aten::split({T()}, %two, %zero)"),
            lambda: self.define(scope, ind, "L", "Tensor[]", f"aten::unbind({T()}, %zero)"),
            lambda: self.max_op(scope, ind),
        ]
        self.rng.choice(ops)()

    def max_op(self, scope, ind):
        a, b = self.fresh(), self.fresh()
        self.emit(ind, f"{a} : Tensor, {b} : Tensor = aten::max({self.pick(scope, 'T')}, %zero, %false)")
        scope["T"].extend([a, b])

    def container_op(self, scope, ind):
        T = lambda: self.pick(scope, "T")
        L, D, P = self.pick(scope, "L"), self.pick(scope, "D"), self.pick(scope, "P")
        ops = [lambda: self.define(scope, ind, "L", "Tensor[]", f"prim::ListConstruct({T()}, {T()})"),
               lambda: self.define(scope, ind, "D", "Dict(str, Tensor)", f"prim::DictConstruct(%ka, {T()}, %kb, {T()})"),
               lambda: self.define(scope, ind, "P", "(Tensor, Tensor)", f"prim::TupleConstruct({T()}, {T()})"),
               lambda: self.define(scope, ind, "T", "Tensor", f"aten::cat(prim_list, %zero)".replace(
                   "prim_list", self.define(scope, ind, "L", "Tensor[]", f"prim::ListConstruct({T()}, {T()})")))]
        if L:
            ops += [lambda: self.define(scope, ind, "L", "Tensor[]", f"aten::append({L}, {T()})"),
                    lambda: self.define(scope, ind, "T", "Tensor", f"aten::__getitem__({L}, %zero)"),
                    lambda: self.define(scope, ind, "L", "Tensor[]", f"aten::_set_item({L}, %zero, {T()})"),
                    lambda: self.define(scope, ind, "T", "Tensor", f"aten::stack({L}, %zero)"),
                    lambda: self.define(scope, ind, "L", "Tensor[]", f"aten::list({L})"),
                    lambda: self.define(scope, ind, "T", "Tensor", f"aten::pop({L}, %neg)"),
                    lambda: self.define(scope, ind, "L", "Tensor[]", f"aten::add({L}, {L})"),
                    lambda: self.define(scope, ind, "L", "Tensor[]", f"aten::slice({L}, %zero, %two, %one)")]
        if D:
            ops += [lambda: self.define(scope, ind, "T", "Tensor", f"aten::__getitem__({D}, %ka)"),
                    lambda: self.emit(ind, f"aten::_set_item({D}, %kb, {T()})"),
                    lambda: self.define(scope, ind, "L", "Tensor[]", f"aten::values({D})"),
                    lambda: self.define(scope, ind, "D", "Dict(str, Tensor)", f"aten::copy({D})")]
        if P:
            ops += [lambda: self.define(scope, ind, "T", "Tensor", f"prim::TupleIndex({P}, %one)"),
                    lambda: self.unpack(scope, ind, P)]
        self.rng.choice(ops)()

    def unpack(self, scope, ind, p):
        a, b = self.fresh(), self.fresh()
        self.emit(ind, f"{a} : Tensor, {b} : Tensor = prim::TupleUnpack({p})")
        scope["T"].extend([a, b])

    def optional_op(self, scope, ind):
        t = self.pick(scope, "T")
        o = self.fresh()
        self.emit(ind, f"{o} : Tensor? = prim::If(%c)")
        self.emit(ind + 1, "block0():")
        self.emit(ind + 2, f"-> ({t})")
        self.emit(ind + 1, "block1():")
        self.emit(ind + 2, "-> (%none)")
        ok = self.fresh()
        self.emit(ind, f"{ok} : bool = aten::__isnot__({o}, %none)")
        u = self.fresh()
        self.emit(ind, f"{u} : Tensor = prim::If({ok})")
        self.emit(ind + 1, "block0():")
        cast = self.fresh()
        self.emit(ind + 2, f"{cast} : Tensor = prim::unchecked_cast({o})")
        self.emit(ind + 2, f"-> ({cast})")
        self.emit(ind + 1, "block1():")
        un = self.fresh()
        self.emit(ind + 2, f"{un} : Tensor = prim::Uninitialized()")
        self.emit(ind + 2, "prim::RaiseException(%msg, %none)")
        self.emit(ind + 2, f"-> ({un})")
        scope["T"].append(u)

    def misc_op(self, scope, ind):
        t = self.pick(scope, "T")
        ops = [lambda: self.emit(ind, f"prim::Print({t})"),
               lambda: self.emit(ind, "aten::warn(%msg, %two)"),
               lambda: self.emit(ind, f"aten::backward({t}, %none, %none, %false)"),
               lambda: self.define(scope, ind, "B", "bool", "aten::is_grad_enabled()"),
               lambda: self.define(scope, ind, "T", "Tensor",
                                   f"aten::batch_norm({t}, %none, %none, {self.pick(scope, 'T')}, "
                                   f"{self.pick(scope, 'T')}, {self.rng.choice(['%true', '%false', '%c'])}, "
                                   "%half, %half, %false)")]
        self.rng.choice(ops)()

    def block(self, scope, ind, budget, depth):
        while budget > 0:
            budget -= 1
            r = self.rng.random()
            if r < 0.50:
                self.tensor_op(scope, ind)
            elif r < 0.72:
                self.container_op(scope, ind)
            elif r < 0.78:
                self.optional_op(scope, ind)
            elif r < 0.83:
                self.misc_op(scope, ind)
            elif r < 0.92 and depth < 3:
                budget -= self.if_node(scope, ind, budget, depth)
            elif depth < 3:
                budget -= self.loop_node(scope, ind, budget, depth)

    def child(self, scope):
        return {k: list(v) for k, v in scope.items()}

    def if_node(self, scope, ind, budget, depth):
        n = self.rng.randint(1, max(1, min(8, budget)))
        outs = [self.fresh() for _ in range(self.rng.randint(0, 2))]
        kinds = [self.rng.choice(["T", "T", "L"]) for _ in outs]
        types = {"T": "Tensor", "L": "Tensor[]"}
        decl = ", ".join(f"{o} : {types[k]}" for o, k in zip(outs, kinds))
        self.emit(ind, f"{decl} = prim::If(%c)" if outs else "prim::If(%c)")
        for b in range(2):
            self.emit(ind + 1, f"block{b}():")
            inner = self.child(scope)
            self.block(inner, ind + 2, n, depth + 1)
            rets = [self.pick(inner, k) or self.pick(scope, "T") for k in kinds]
            rets = [r if k == "T" or r in inner["L"] else self.list_of(inner, ind + 2) for r, k in zip(rets, kinds)]
            self.emit(ind + 2, f"-> ({', '.join(rets)})")
        for o, k in zip(outs, kinds):
            scope[k].append(o)
        return n

    def list_of(self, scope, ind):
        return self.define(scope, ind, "L", "Tensor[]", f"prim::ListConstruct({self.pick(scope, 'T')})")

    def loop_node(self, scope, ind, budget, depth):
        n = self.rng.randint(1, max(1, min(8, budget)))
        carried = [self.pick(scope, "T")]
        if scope["L"] and self.rng.random() < 0.5:
            carried.append(self.pick(scope, "L"))
        outs = [self.fresh() for _ in carried]
        types = ["Tensor" if c in scope["T"] else "Tensor[]" for c in carried]
        decl = ", ".join(f"{o} : {t}" for o, t in zip(outs, types))
        self.emit(ind, f"{decl} = prim::Loop(%two, %c, {', '.join(carried)})")
        i = self.fresh()
        params = [self.fresh() for _ in carried]
        self.emit(ind + 1, f"block0({i} : int, " + ", ".join(f"{p} : {t}" for p, t in zip(params, types)) + "):")
        inner = self.child(scope)
        for p, t in zip(params, types):
            inner["T" if t == "Tensor" else "L"].append(p)
        self.block(inner, ind + 2, n, depth + 1)
        rets = [self.pick(inner, "T" if t == "Tensor" else "L") for t in types]
        self.emit(ind + 2, f"-> (%c, {', '.join(rets)})")
        for o, t in zip(outs, types):
            scope["T" if t == "Tensor" else "L"].append(o)
        return n

    def text(self):
        scope = {"T": ["%x0", "%x1", "%x2"], "L": [], "D": [], "P": [], "B": []}
        self.block(scope, 1, self.size, 0)
        outs = [self.pick(scope, "T")]
        if scope["L"]:
            outs.append(self.pick(scope, "L"))
        head = "graph(%x0 : Tensor, %x1 : Tensor, %x2 : Tensor, %c : bool):"
        body = ["  " + c for c in self.consts] + self.lines
        return "\n".join([head] + body + [f"  return ({', '.join(outs)})", ""])


def random_graphs(count):
    made, seed = 0, 1
    while made < count and seed < count * 20:
        size = [40, 80, 150, 250][made % 4]
        text = RandomGraph(seed, size).text()
        seed += 1
        try:
            g = torch._C.parse_ir(text)
            g.alias_db()  # torch refuses graphs with an operator it cannot resolve
        except RuntimeError as e:
            print(f"random graph {seed - 1} skipped: {str(e).splitlines()[0]}", file=sys.stderr)
            continue
        made += 1
        yield f"rand_{seed - 1}_{size}", g


# ---------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--only", default="", help="make only the graphs whose name starts so")
    ap.add_argument("--no-models", action="store_true")
    ap.add_argument("--random", type=int, default=12, help="how many random graphs")
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        lib = may_alias_lib(tmp)
        sources = [functions(), special_graphs(), random_graphs(args.random)]
        if not args.no_models:
            sources.insert(0, models())
            sources.append(models(["convnext_tiny"], "sound_"))
        for source in sources:
            for name, graph in source:
                if name.startswith(args.only):
                    # the sample of queries depends on the graph's name only
                    write(args.outdir, name, graph, lib, zlib.crc32(name.encode()))


if __name__ == "__main__":
    main()
