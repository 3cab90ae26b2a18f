#!/usr/bin/env python3
"""torch's own compatibility verdicts on pairs of schemas, for `tensoralias diff`.

For each pair (OLD, NEW) it asks torch (1.13.1: Debian's python3-torch, run with
/usr/bin/python3)
    bc = parse_schema(NEW).is_backward_compatible_with(parse_schema(OLD))
    fc = parse_schema(NEW).check_forward_compatible_with(parse_schema(OLD))[0]
(1.13.1's Python has no is_forward_compatible_with; check_forward_compatible_with is
the same C++ function with its reason) and writes one line
    bc <TAB> fc <TAB> OLD <TAB> NEW
with bc and fc each "yes", "no" or "raises" (torch throws IndexError instead of
answering). Pairs torch cannot parse are left out (counted on stderr). Lines starting
with "# " name the section the pairs below come from.

usage:
  diff_truth.py yaml OLD.yaml NEW.yaml   every overload in both whose func changed
  diff_truth.py mutate FILE [--seed N] [--per K]
                                         K mutated copies of each schema of FILE (a
                                         native_functions.yaml, or a list, one schema a
                                         line): arguments added with and without defaults,
                                         defaults removed, added or changed, '!' added or
                                         removed, alias sets added to or removed from
                                         returns, sets renamed, arguments renamed, retyped,
                                         swapped, moved past '*', returns added, removed or
                                         renamed, out= arguments added, removed or moved,
                                         fixed list sizes changed
  diff_truth.py types                    every pair of a matrix of types, as an argument
                                         and as a return (torch's subtyping)
  diff_truth.py pairs FILE               the pairs of FILE (OLD <TAB> NEW a line)
  diff_truth.py records FILE.jsonl [--name NAME]
                                         the changed overloads of `tensoralias diff
                                         --format json` (a yaml's autogen-derived
                                         functions included, as torch registers them); a
                                         schema without a namespace is aten's

The suite does not run this: tests/data/diff/torch-verdicts.tsv.xz holds its output
(see tests/data/README.md) and tests/unit/test_diff_torch.c checks tensoralias against it.
"""
import argparse
import random
import sys


def worker():
    """Answers pairs read from stdin, one "OLD<TAB>NEW" a line, with "bc<TAB>fc" or "unparsed"."""
    import torch
    for line in sys.stdin:
        old, new = line.rstrip("\n").split("\t")
        try:
            o = torch._C.parse_schema(old)
            n = torch._C.parse_schema(new)
        except Exception:
            print("unparsed", flush=True)
            continue
        out = []
        for ask in (lambda: n.is_backward_compatible_with(o),
                    lambda: n.check_forward_compatible_with(o)[0]):
            try:
                out.append("yes" if ask() else "no")
            except IndexError:
                out.append("raises")
        print("\t".join(out), flush=True)


class Torch:
    """torch in a child process: 1.13.1's parser crashes the process on some schemas
    (a double free); such a pair is left out and the child started again."""

    def __init__(self):
        self.child = None
        self.crashed = 0

    def ask(self, old, new):
        import subprocess
        if self.child is None:
            self.child = subprocess.Popen([sys.executable, __file__, "worker"], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.child.stdin.write(old + "\t" + new + "\n")
        self.child.stdin.flush()
        answer = self.child.stdout.readline().strip()
        if not answer:
            self.child.wait()
            self.child = None
            self.crashed += 1
            return None
        return None if answer == "unparsed" else answer.split("\t")


class Writer:
    def __init__(self):
        self.kept = self.unparsed = 0
        self.seen = set()
        self.torch = Torch()

    def section(self, name):
        print("# " + name)

    def pair(self, old, new):
        if (old, new) in self.seen:
            return
        self.seen.add((old, new))
        v = self.torch.ask(old, new)
        if v is None:
            self.unparsed += 1
            return
        self.kept += 1
        print("\t".join(v + [old, new]))


def yaml_funcs(path):
    import yaml
    funcs = {}
    with open(path) as fh:
        for e in yaml.load(fh, Loader=yaml.CSafeLoader):
            f = e.get("func")
            if not isinstance(f, str):
                continue
            name = f[:f.index("(")].strip()
            funcs.setdefault(name if "::" in name else "aten::" + name,
                             f if "::" in name else "aten::" + f)
    return funcs


def read_schemas(path):
    if path.endswith(".yaml"):
        return list(yaml_funcs(path).values())
    with open(path) as fh:
        return [l.strip() for l in fh if l.strip() and not l.lstrip().startswith("#")]


# ---- a small textual model of a schema, enough to mutate one -----------------------

def split_top(s):
    """Splits s at commas outside brackets and quotes."""
    parts, depth, cur, quote = [], 0, [], None
    for ch in s:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def close_paren(s, i):
    depth = 0
    for k in range(i, len(s)):
        if s[k] == "(":
            depth += 1
        elif s[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    raise ValueError(s)


class Schema:
    def __init__(self, text):
        i = text.index("(")
        self.name = text[:i]
        j = close_paren(text, i)
        self.args = split_top(text[i + 1:j])
        rets = text[j + 1:].strip()
        assert rets.startswith("->")
        rets = rets[2:].strip()
        self.paren = rets.startswith("(") and close_paren(rets, 0) == len(rets) - 1
        self.rets = split_top(rets[1:-1]) if self.paren else [rets]

    def text(self):
        rets = self.rets
        r = "(" + ", ".join(rets) + ")" if self.paren or len(rets) != 1 else rets[0]
        return "%s(%s) -> %s" % (self.name, ", ".join(self.args), r)


def arg_parts(a):
    """'Tensor(a!) self=None' -> ('Tensor(a!)', 'self', 'None')."""
    if a in ("*", "..."):
        return None
    head, eq, default = a.partition("=")
    t, _, name = head.strip().rpartition(" ")
    return t, name, default if eq else None


def join_arg(t, name, default):
    return "%s %s%s" % (t, name, "" if default is None else "=" + default)


NEW_ARGS = [("int", "0"), ("bool", "False"), ("float", "1.0"), ("Scalar", "1"), ("Tensor?", "None"),
            ("int[]", "[]"), ("int[2]", "1"), ("str", "'x'"), ("SymInt", "3"), ("int?", "None"),
            ("float[]", "[0.5]"), ("Device?", "None"), ("ScalarType?", "None"), ("Tensor", None),
            ("int", None), ("Tensor(a!)", None), ("Tensor(z!)", None), ("bool[3]", "True")]
RETYPES = {"int": ["SymInt", "Scalar", "int?", "float", "bool", "int[]", "Layout"],
           "SymInt": ["int", "SymInt?", "Scalar"], "float": ["Scalar", "float?", "int", "complex"],
           "Scalar": ["float", "int", "Scalar?", "Tensor"], "bool": ["bool?", "int", "Scalar"],
           "Tensor": ["Tensor?", "Tensor[]", "Scalar", "Any"], "Tensor?": ["Tensor", "Tensor?[]"],
           "int[]": ["int[1]", "int[]?", "SymInt[]", "Scalar[]", "int?[]", "float[]"],
           "int[1]": ["int[]", "int[2]", "int"], "int[2]": ["int[]", "int[3]", "int[1]"],
           "SymInt[]": ["int[]", "SymInt[1]", "SymInt[]?"], "int?": ["int", "Scalar?", "SymInt?"],
           "float?": ["float", "Scalar?", "int?"], "str": ["str?", "Dimname", "int"],
           "Tensor[]": ["Tensor?[]", "Tensor", "Tensor[]?"], "ScalarType?": ["ScalarType", "int?"],
           "t": ["Any", "t?", "t1", "Tensor"], "Any": ["t", "Any?"], "Scalar?": ["Scalar", "float?"],
           "Generator?": ["Generator"], "Dimname": ["str", "Dimname?"], "Device?": ["Device", "str?"]}


def positional_defaults_ok(args):
    """torch 1.13.1 crashes (SIGSEGV) parsing a positional argument without a default
    after one with a default: such mutations are not made."""
    seen_default = False
    for a in args:
        if a in ("*", "..."):
            break
        p = arg_parts(a)
        if p[2] is not None:
            seen_default = True
        elif seen_default:
            return False
    return True


def new_default(t, d):
    """A different default for an argument of type t, or None."""
    base = t.split("(")[0]
    if d == "None":
        return {"int?": "0", "float?": "0.5", "bool?": "True", "str?": "'a'",
                "Scalar?": "1", "SymInt?": "2"}.get(base)
    if d in ("True", "False"):
        return "False" if d == "True" else "True"
    if d.startswith("["):
        return "[]" if d != "[]" else ("[0]" if "int" in base else None)
    if d.startswith(("'", '"')):
        return "'other'"
    try:
        int(d)
        return str(int(d) + 1)
    except ValueError:
        pass
    try:
        return repr(float(d) * 2)
    except ValueError:
        return {"Mean": "0", "contiguous_format": "1"}.get(d)


def annotate_write(t):
    if "(" in t and "!" not in t.split("(", 1)[1]:
        return t.replace(")", "!)", 1)
    if t.startswith("Tensor") and "(" not in t:
        return t.replace("Tensor", "Tensor(z!)", 1)
    return None


def mutations(s, rng):
    """Every (kind, mutated text) this schema allows; the caller picks some."""
    out = []
    args = [a for a in s.args]
    star = args.index("*") if "*" in args else len(args)
    outs = [i for i, a in enumerate(args) if a not in ("*", "...") and "!" in a and i > star]
    first_out = outs[0] if outs else len(args)

    def emit(kind, **kw):
        m = Schema(s.text())
        m.__dict__.update(kw)
        if positional_defaults_ok(m.args):
            out.append((kind, m.text()))

    for t, d in NEW_ARGS:
        name = "new_arg"
        pos = rng.randrange(0, first_out + 1)
        a = args[:pos] + [join_arg(t, name, d)] + args[pos:]
        emit("arg-added" + ("" if d else "-no-default"), args=a)
        a = args[:first_out] + ([] if "*" in args else ["*"]) + [join_arg(t, name, d)] + args[first_out:]
        emit("kwarg-added", args=a)
    for i, a in enumerate(args):
        p = arg_parts(a)
        if not p:
            continue
        t, name, d = p
        def set_arg(text, i=i):
            return args[:i] + [text] + args[i + 1:]
        if d is not None:
            emit("default-removed", args=set_arg(join_arg(t, name, None)))
            nd = new_default(t, d)
            if nd is not None:
                emit("default-changed", args=set_arg(join_arg(t, name, nd)))
        elif "?" in t:
            emit("default-added", args=set_arg(join_arg(t, name, "None")))
        w = annotate_write(t)
        if w:
            emit("write-added", args=set_arg(join_arg(w, name, d)))
        if "!" in t:
            emit("write-removed", args=set_arg(join_arg(t.replace("!", "", 1), name, d)))
            emit("alias-removed", args=set_arg(join_arg(t[:t.index("(")] + t[t.index(")") + 1:], name, d)))
        if "(a" in t:
            emit("set-renamed", args=set_arg(join_arg(t.replace("(a", "(q", 1), name, d)),
                 rets=[r.replace("(a", "(q", 1) for r in s.rets])
        emit("arg-renamed", args=set_arg(join_arg(t, name + "_x", d)))
        base = t.split("(")[0]
        for nt in RETYPES.get(base, []):
            ann = t[len(base):] if "(" in t else ""
            emit("retyped", args=set_arg(join_arg(nt + ann if nt.startswith("Tensor") else nt, name, d)))
        if i + 1 < len(args) and arg_parts(args[i + 1]):
            emit("swapped", args=args[:i] + [args[i + 1], args[i]] + args[i + 2:])
        if i == star - 1 and "*" in args:
            emit("kwarg-only-move", args=args[:i] + ["*", args[i]] + args[i + 2:])
        if i == star + 1 and "*" in args:
            emit("positional-move", args=args[:star] + [args[i], "*"] + args[i + 1:])
        if i in outs:
            emit("out-removed", args=args[:i] + args[i + 1:])
            emit("out-moved", args=args[:star] + [a] + args[star:i] + args[i + 1:])
    if args:
        emit("arg-removed", args=args[:-1])
    if outs:
        # where torch 1.13.1 throws: out= arguments gone, as many defaulted ones added
        # (backward), or a positional one gone and an out= set renamed (forward)
        pre = [a for a in args[:first_out] if a != "*"]
        emit("outs-to-defaults", args=pre + [join_arg("int", "d%d" % k, "0") for k in range(len(outs) + 1)])
        k = next((k for k in range(first_out) if arg_parts(args[k])), None)
        if k is not None:
            last = args[-1].replace("(", "(r", 1) if "(" in args[-1] else args[-1]
            emit("positional-removed-out-renamed", args=args[:k] + args[k + 1:-1] + [last])
    emit("out-added", args=args + ([] if "*" in args else ["*"]) + ["Tensor(o!) out_new"])
    for k, r in enumerate(s.rets):
        def set_ret(text, k=k):
            return s.rets[:k] + [text] + s.rets[k + 1:]
        if r.startswith("Tensor") and not r.startswith("Tensor("):
            emit("return-alias-added", rets=set_ret(r.replace("Tensor", "Tensor(a)", 1)))
            emit("return-write-added", rets=set_ret(r.replace("Tensor", "Tensor(a!)", 1)))
        if r.startswith("Tensor("):
            emit("return-alias-removed", rets=set_ret("Tensor" + r[r.index(")") + 1:]))
        emit("return-renamed", rets=set_ret(r.split(" ")[0] + " renamed"))
        if " " in r and "(" not in r.split(" ")[-1]:
            emit("return-name-dropped", rets=set_ret(r.rsplit(" ", 1)[0]))
    emit("return-added", rets=[r for r in s.rets if r != "()"] + ["Tensor"], paren=True)
    if len(s.rets) > 1:
        emit("return-removed", rets=s.rets[:-1])
    emit("overload-renamed", name=s.name + ("_x" if "." in s.name else ".x"))
    emit("vararg", args=args + ["..."])
    return out


def cmd_yaml(w, a):
    old, new = yaml_funcs(a.old), yaml_funcs(a.new)
    w.section("yaml %s -> %s" % (a.old_name or a.old, a.new_name or a.new))
    both = [n for n in new if n in old]
    for n in both:
        if old[n] != new[n]:
            w.pair(old[n], new[n])
    sys.stderr.write("%d in both, %d with the func changed\n" % (len(both), w.kept + w.unparsed))


def cmd_mutate(w, a):
    rng = random.Random(a.seed)
    w.section("mutations of %s (seed %d, %d each)" % (a.name or a.file, a.seed, a.per))
    for text in read_schemas(a.file):
        try:
            s = Schema(text)
        except (ValueError, AssertionError):
            continue
        ms = mutations(s, rng)
        by_kind = {}
        for kind, t in ms:
            by_kind.setdefault(kind, []).append(t)
        kinds = sorted(k for k in by_kind if not a.kinds or k in a.kinds.split(","))
        rng.shuffle(kinds)
        for kind in kinds[:a.per]:
            w.pair(text, rng.choice(by_kind[kind]))


TYPES = ["Tensor", "Tensor?", "Tensor[]", "Tensor?[]", "Tensor[]?", "int", "int?", "SymInt", "SymInt?",
         "int[]", "int[2]", "int[]?", "SymInt[]", "float", "float?", "complex", "bool", "bool?", "str",
         "str?", "Dimname", "Scalar", "Scalar?", "Scalar[]", "ScalarType", "ScalarType?", "Layout",
         "MemoryFormat", "Device", "Device?", "Generator?", "Storage", "Stream", "Any", "Any?", "t", "t?",
         "t1", "t[]", "None", "NoneType", "Dict(str, Tensor)", "Dict(str, t)", "Dict(int, t)",
         "Future(t)", "Future(Tensor)", "Future(Any)", "RRef(t)", "(int, int)", "(Scalar, int)",
         "(Tensor, Tensor)", "(Tensor, Any)", "Union(int, str)", "Union(str, int)",
         "Union(int, float, complex)", "Union(int, None)", "Union(int, float, complex, None)",
         "Union(Tensor, int)", "float[]", "int?[]", "Union(int, None)[]", "Capsule", "AnyEnumType"]


def cmd_types(w, a):
    w.section("types: every pair, as an argument and as a return")
    for old in TYPES:
        for new in TYPES:
            w.pair("aten::f(%s x) -> ()" % old, "aten::f(%s x) -> ()" % new)
            w.pair("aten::f(Tensor x) -> %s" % old, "aten::f(Tensor x) -> %s" % new)


def cmd_pairs(w, a):
    w.section("pairs of %s" % a.file)
    with open(a.file) as fh:
        for line in fh:
            if line.strip() and not line.startswith("#"):
                old, new = line.rstrip("\n").split("\t")[-2:]
                w.pair(old, new)


def with_ns(schema):
    return schema if "::" in schema[:schema.index("(")] else "aten::" + schema


def cmd_records(w, a):
    import json
    w.section("records %s" % (a.name or a.file))
    with open(a.file) as fh:
        for line in fh:
            r = json.loads(line)
            if r["change"] == "changed":
                w.pair(with_ns(r["old"]), with_ns(r["new"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    y = sub.add_parser("yaml")
    y.add_argument("old")
    y.add_argument("new")
    y.add_argument("--old-name")
    y.add_argument("--new-name")
    m = sub.add_parser("mutate")
    m.add_argument("file")
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--per", type=int, default=3)
    m.add_argument("--name")
    m.add_argument("--kinds", help="only these kinds of mutation (comma-separated)")
    sub.add_parser("types")
    sub.add_parser("worker")
    p = sub.add_parser("pairs")
    p.add_argument("file")
    r = sub.add_parser("records")
    r.add_argument("file")
    r.add_argument("--name")
    a = ap.parse_args()
    if a.cmd == "worker":
        return worker()
    w = Writer()
    {"yaml": cmd_yaml, "mutate": cmd_mutate, "types": cmd_types, "pairs": cmd_pairs,
     "records": cmd_records}[a.cmd](w, a)
    sys.stderr.write("%d pairs judged, %d left out (torch cannot parse one side; %d of them crash it)\n"
                     % (w.kept, w.unparsed, w.torch.crashed))


if __name__ == "__main__":
    main()
