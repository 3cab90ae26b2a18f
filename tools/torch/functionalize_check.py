#!/usr/bin/python3
"""Checks `tensoralias functionalize` against torch 1.13.1 on TorchScript graphs.

For each graph: functionalizes it with the tensoralias command and runs both
graphs in torch (graph_runner.compare: the interpreter on the graph as it is
gives the meaning; both executor settings are run too, and where they change
what the original computes that is torch's, counted apart) on ROUNDS random
draws for every value of the bool inputs, comparing every output and every
graph input after the call bit for bit. It also counts the mutating nodes (a
'!' in the node's schema) before and after, and what torch's own
_jit_pass_remove_mutation leaves of them.

usage: functionalize_check.py [--tensoralias PATH] [--rounds N] [--random N] [--json] GRAPH.ir...
  --random N   also N random graphs (random_ir.graph_text)
Prints one line per graph; exit 1 when any run differs or fails.
"""
import argparse
import json
import os
import subprocess
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import graph_runner as gr  # noqa: E402


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
    text = re.sub(r"^(\s*?) ?= ", r"\1", open(path).read(), flags=re.M)
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
    sets = gr.make_input_sets(gr.input_kinds(text), seed, rounds)
    row["check"] = gr.compare(text, out, sets) if sets is not None else None
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tensoralias", default="build/tensoralias")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--random", type=int, default=0)
    ap.add_argument("--keep", default=None, help="directory to write the random graphs into")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("graphs", nargs="*")
    a = ap.parse_args()
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
        bad += c is not None and c["ours"] > 0
        if a.json:
            print(json.dumps(row))
        else:
            tb, ta_ = row["torch_remove_mutation"] or ("-", "-")
            chk = "not run (%s)" % row.get("not_run", "inputs it cannot make") if c is None else \
                "%d input sets: %d differ, %d the interpreter refuses as written; torch's executors change %d " \
                "original results and %d rewrite results" % (c["inputs"], c["ours"], c["refused"], c["torch_orig"],
                                                            c["torch_func"])
            print("%s: mutating %d -> %d (%d copy-backs); torch remove_mutation %s -> %s; %s" % (
                p, row["before"], row["after"], row["copy_backs"], tb, ta_, chk))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
