#!/usr/bin/python3
"""Checks `tensoralias functionalize` against torch 1.13.1 on TorchScript graphs.

For each graph: functionalizes it with the tensoralias command, reads both
graphs with torch._C.parse_ir, runs both (torch._C._create_function_from_graph)
on the same random inputs (Tensor inputs 4x4 floats, bool inputs both True and
False, ROUNDS draws each) and compares every output and every graph input
after the call: bit for bit, else within float tolerance, else a mismatch.
It also counts the mutating nodes (a '!' in the node's schema) before and
after, and what torch's own _jit_pass_remove_mutation leaves of them.

usage: functionalize_check.py [--tensoralias PATH] [--rounds N] [--random N] [--json] GRAPH.ir...
  --random N   also N random graphs made by this script (see random_graph)
Prints one line per graph; exit 1 when any run differs or fails.
"""
import argparse
import json
import random
import subprocess
import sys

import torch

# The graphs run as written: torch 1.13.1's optimizing executor itself changes
# what some originals compute (an alias through a loop that runs zero times
# is lost), so it is off unless --optimize asks for it.
torch._C._set_graph_executor_optimize(False)


def mutating(block):
    n = 0
    for node in block.nodes():
        for b in node.blocks():
            n += mutating(b)
        try:
            s = str(node.schema())
        except Exception:
            s = ""
        args = s.split("->")[0]
        n += "!" in args
    return n


def torch_remove_mutation(text):
    g = torch._C.parse_ir(text)
    before = mutating(g)
    torch._C._jit_pass_remove_mutation(g)
    return before, mutating(g)


def make_inputs(graph, rng, cond):
    vals = []
    for inp in graph.inputs():
        t = str(inp.type())
        if t == "bool":
            vals.append(cond)
        elif t == "int":
            vals.append(rng.randint(0, 3))
        elif t.startswith("Tensor") or t.startswith("Float"):
            g = torch.Generator().manual_seed(rng.randint(0, 2**31))
            vals.append(torch.randn(4, 4, generator=g))
        else:
            return None
    return vals


def flatten(v):
    if isinstance(v, (tuple, list)):
        out = []
        for e in v:
            out.extend(flatten(e))
        return out
    return [v]


def same(a, b):
    """'exact', 'close' or 'differ'."""
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        if a.shape != b.shape or a.dtype != b.dtype:
            return "differ"
        if torch.equal(a, b) or (a.isnan() == b.isnan()).all() and torch.equal(a.nan_to_num(), b.nan_to_num()):
            return "exact"
        return "close" if torch.allclose(a, b, rtol=1e-4, atol=1e-5, equal_nan=True) else "differ"
    return "exact" if a == b else "differ"


def run_pair(orig, func, extra, rounds, seed):
    fo = torch._C._create_function_from_graph("orig", orig)
    ff = torch._C._create_function_from_graph("func", func)
    rng = random.Random(seed)
    res = {"runs": 0, "exact": 0, "close": 0, "differ": 0, "error": 0, "original_fails": 0}
    has_bool = any(str(i.type()) == "bool" for i in orig.inputs())
    for cond in ([True, False] if has_bool else [True]):
        for _ in range(rounds):
            ins = make_inputs(orig, rng, cond)
            if ins is None:
                return None
            a = [x.clone() if isinstance(x, torch.Tensor) else x for x in ins]
            b = [x.clone() if isinstance(x, torch.Tensor) else x for x in ins]
            res["runs"] += 1
            try:
                ra = flatten(fo(*a))
            except Exception:
                ra = None
            try:
                rb = flatten(ff(*b))
            except Exception as e:
                if ra is not None:
                    res["error"] += 1
                    res.setdefault("first_error", str(e).splitlines()[0])
                    continue
                rb = None
            if ra is None:  # torch refuses the original (a write from overlapping memory)
                res["original_fails"] += 1
                continue
            if extra:  # --no-copy-back: the new values of written inputs come last
                rb, newvals = rb[: len(rb) - extra], rb[len(rb) - extra:]
            got = [same(x, y) for x, y in zip(ra + a, rb + b)] if len(ra) == len(rb) else ["differ"]
            verdict = "differ" if "differ" in got else "close" if "close" in got else "exact"
            res[verdict] += 1
    return res


def functionalize(ta, path, extra_args=()):
    p = subprocess.run([ta, "functionalize", path, *extra_args], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise RuntimeError(p.stderr.strip())
    summary = p.stderr.strip().splitlines()[-1]
    return p.stdout, summary


def counts_of(summary):
    # "<file>: N mutating nodes before, M after (K copy-backs, J kept); ..."
    import re
    m = re.search(r"(\d+) mutating nodes before, (\d+) after \((\d+) copy-backs", summary)
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def check(ta, path, rounds, seed):
    import re
    # torch prints a node without outputs as "= kind(...)", parse_ir reads it without "= "
    text = re.sub(r"^(\s*)= ", r"\1", open(path).read(), flags=re.M)
    out, summary = functionalize(ta, path)
    before, after, copies = counts_of(summary)
    row = {"graph": path, "before": before, "after": after, "copy_backs": copies}
    try:
        row["torch_remove_mutation"] = list(torch_remove_mutation(text))
    except RuntimeError as e:  # parse_ir reads no module class types (__torch__.torchvision...)
        row["torch_remove_mutation"] = None
        row["check"] = None
        row["not_run"] = str(e).strip().splitlines()[0]
        return row
    func = torch._C.parse_ir(out)
    row["after_torch_count"] = mutating(func)
    row["check"] = run_pair(torch._C.parse_ir(text), func, 0, rounds, seed)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tensoralias", default="build/tensoralias")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--random", type=int, default=0)
    ap.add_argument("--keep", default=None, help="directory to write the random graphs into")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--optimize", action="store_true", help="run with torch's optimizing graph executor")
    ap.add_argument("graphs", nargs="*")
    a = ap.parse_args()
    torch._C._set_graph_executor_optimize(a.optimize)
    paths = list(a.graphs)
    if a.random:
        import os
        import random_ir
        d = a.keep or "/tmp/functionalize_random"
        os.makedirs(d, exist_ok=True)
        for s in range(a.random):
            p = os.path.join(d, "rand_%d.ir" % s)
            with open(p, "w") as f:
                f.write(random_ir.graph_text(s, 40 + 10 * (s % 5)))
            paths.append(p)
    bad = 0
    for i, p in enumerate(paths):
        row = check(a.tensoralias, p, a.rounds, i)
        c = row["check"]
        bad += c is not None and (c["differ"] > 0 or c["error"] > 0)
        if a.json:
            print(json.dumps(row))
        else:
            tb, ta_ = row["torch_remove_mutation"] or ("-", "-")
            chk = "not run (%s)" % row.get("not_run", "inputs it cannot make") if c is None else \
                "%d runs: %d bit-exact, %d within tolerance, %d differ, %d errors, %d refused by torch as written" % (
                    c["runs"], c["exact"], c["close"], c["differ"], c["error"], c["original_fails"])
            print("%s: mutating %d -> %d (%d copy-backs); torch remove_mutation %s -> %s; %s" % (
                p, row["before"], row["after"], row["copy_backs"], tb, ta_, chk))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
