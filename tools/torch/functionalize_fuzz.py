#!/usr/bin/python3
"""Differential fuzzer for `tensoralias functionalize` (torch 1.13.1).

Each graph (random_ir.py's, from seeds, or files given) is functionalized by
ta_functionalize (in-process, tensoralias_lib.py: the command's operator set)
and run against its original in torch under both executor
settings (graph_runner.py: the plain interpreter's result is the program's
meaning; torch's default executor is checked against it). Every output and
every graph input after the call is compared, for every value of the bool
inputs and --draws random tensor draws each.

Counted apart: inputs torch refuses to run the original on, torch's default
executor changing what an original computes (torch's miscompilation, never
ours) or what a rewrite computes where the plain interpreter agrees.

A failure of ours is minimized (ir_reduce.py: delta debugging over nodes and
blocks) and, with --regress DIR, kept there as NAME.ir with NAME.json, torch's
results for fixed inputs (functionalize_regress.py checks them).

usage: functionalize_fuzz.py [--build DIR] [--graphs N] [--seed S] [--draws D]
                             [--minimize] [--regress DIR] [--keep DIR] [--quiet] [GRAPH.ir...]
Exit 1 when any rewrite computes something else than its original.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import graph_runner as gr  # noqa: E402
import random_ir  # noqa: E402
import tensoralias_lib  # noqa: E402


class Functionalizer:
    """The rewrite of a graph: (text or None, summary or why not)."""

    def __init__(self, build):
        self.lib = tensoralias_lib.Functionalizer(build)

    def __call__(self, text):
        out, counts, kept = self.lib.functionalize(text)
        if out is None:
            return None, counts
        self.last = (counts, kept)
        return out, "%(mutating_before)d mutating nodes before, %(mutating_after)d after " \
                    "(%(copy_backs)d copy-backs, %(kept)d kept)" % counts


def check(fz, text, seed, draws):
    """The verdict on one graph (graph_runner.compare's, plus 'kept')."""
    kinds = gr.input_kinds(text)
    sets = gr.make_input_sets(kinds, seed, draws)
    func, msg = fz(text)
    if func is None:
        return {"inputs": 0, "refused": 0, "torch_orig": 0, "torch_func": 0, "ours": 1, "first": msg}
    try:
        r = gr.compare(text, func, sets)
    except RuntimeError as e:  # parse_ir refuses the rewrite
        return {"inputs": 0, "refused": 0, "torch_orig": 0, "torch_func": 0, "ours": 1,
                "first": "torch cannot read the rewrite: " + str(e).strip().splitlines()[0]}
    r["summary"] = msg
    return r


def failure_kind(r):
    """What kind of failure of ours r shows: the minimizer keeps to it."""
    first = r["first"] or ""
    for k in ("cannot read the rewrite", "the rewrite fails", "differ", "tensoralias", "ta_functionalize"):
        if k in first:
            return k
    return first


def fails_ours(fz, seed, draws, kind):
    def pred(text):
        try:
            r = check(fz, text, seed, draws)
        except RuntimeError:  # the candidate itself does not parse
            return False
        return r["ours"] > 0 and r["refused"] == 0 and failure_kind(r) == kind
    return pred


def shows(fz, seed, draws, key):
    """Whether a candidate still shows r[key] (a change by torch's executor)."""
    def pred(text):
        try:
            r = check(fz, text, seed, draws)
        except RuntimeError:
            return False
        return r[key] > 0 and r["ours"] == 0 and r["refused"] == 0
    return pred


def minimize_torch(fz, name, text, i, draws, key):
    import ir_reduce
    small = ir_reduce.reduce(text, shows(fz, i, draws, key))
    func, _ = fz(small)
    print("  %s minimized to %d nodes:\n%s  its rewrite:\n%s" % (name, ir_reduce.count_nodes(small), small, func),
          flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build", help="where libtensoralias.so and share/ are")
    ap.add_argument("--graphs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--draws", type=int, default=1)
    ap.add_argument("--minimize", action="store_true")
    ap.add_argument("--regress", default=None)
    ap.add_argument("--minimize-torch", action="store_true",
                    help="also minimize the first change torch's executors make to an original, and each to a rewrite")
    ap.add_argument("--keep", default=None, help="write failing graphs here")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--input-seed", type=int, default=None,
                    help="the seed of the tensors for every graph (default: the graph's index in the run)")
    ap.add_argument("--progress", type=int, default=0, help="a line every N graphs")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    fz = Functionalizer(a.build)
    items = [(p, open(p).read()) for p in a.files]
    if not a.files:
        items = ((("seed %d" % s), random_ir.fuzz_graph(s)) for s in range(a.seed, a.seed + a.graphs))
    t0 = time.time()
    tot = {"graphs": 0, "inputs": 0, "refused": 0, "torch_orig": 0, "torch_func": 0, "ours": 0,
           "graphs_ours": 0, "graphs_torch_orig": 0}
    torch_example = None
    for i, (name, text) in enumerate(items):
        if a.input_seed is not None:
            i = a.input_seed
        r = check(fz, text, i, a.draws)
        tot["graphs"] += 1
        for k in ("inputs", "refused", "torch_orig", "torch_func", "ours"):
            tot[k] += r[k]
        tot["graphs_torch_orig"] += r["torch_orig"] > 0
        if r["torch_orig"] and torch_example is None:
            torch_example = name
            if a.minimize_torch and not r["ours"]:
                print("%s: torch's executor changes what the original computes" % name)
                minimize_torch(fz, name, text, i, a.draws, "torch_orig")
        if r.get("first_torch_func"):
            print("%s: torch's executor changes the rewrite: %s" % (name, r["first_torch_func"]), flush=True)
            if a.minimize_torch and not r["ours"]:
                minimize_torch(fz, name, text, i, a.draws, "torch_func")
        if r["ours"]:
            tot["graphs_ours"] += 1
            print("%s: DIFFERS: %s" % (name, r["first"]), flush=True)
            if a.keep:
                os.makedirs(a.keep, exist_ok=True)
                with open(os.path.join(a.keep, name.replace(" ", "_") + ".ir"), "w") as f:
                    f.write(text)
            if a.minimize:
                import ir_reduce
                small = ir_reduce.reduce(text, fails_ours(fz, i, a.draws, failure_kind(r)))
                r2 = check(fz, small, i, a.draws)
                print("  minimized to %d nodes (%s):\n%s" % (ir_reduce.count_nodes(small), r2["first"], small),
                      flush=True)
                if a.regress:
                    import functionalize_regress
                    base = os.path.basename(name).replace(" ", "_").replace(".ir", "")
                    functionalize_regress.record(a.regress, base, small, i, a.draws,
                                                 "minimized from %s: %s" % (name, r2["first"]))
        elif not a.quiet:
            print("%s: same (%s)" % (name, r.get("summary", "")), flush=True)
        if a.progress and tot["graphs"] % a.progress == 0:
            print("... %d graphs, %d differ, %.0f s" % (tot["graphs"], tot["graphs_ours"], time.time() - t0), flush=True)
    secs = time.time() - t0
    print("%d graphs, %d input sets each run under both settings: %d differ (%d graphs), %d sets torch refuses as "
          "written; torch's default executor changes %d original results (%d graphs%s) and %d rewrite results; %.1f s"
          % (tot["graphs"], tot["inputs"], tot["ours"], tot["graphs_ours"], tot["refused"], tot["torch_orig"],
             tot["graphs_torch_orig"], ", first: " + torch_example if torch_example else "", tot["torch_func"], secs))
    return 1 if tot["ours"] else 0


if __name__ == "__main__":
    sys.exit(main())
