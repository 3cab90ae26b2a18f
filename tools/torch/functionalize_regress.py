#!/usr/bin/python3
"""Functionalization regressions: graphs kept with torch's results.

record(dir, name, text, seed, draws) writes dir/NAME.ir (the graph) and
dir/NAME.json: for every input set graph_runner makes from (seed, draws), the
inputs and what torch 1.13.1's interpreter computes with the original, no
pass run on it (every output, then every graph input after the call), floats
as exact hex.

Run as a script, it checks those: each NAME.ir is functionalized by the
command, the rewrite is run on the recorded inputs by the interpreter and
under both executor settings, and every value is compared bit for bit with
the recorded one (a rewrite is mutation-free but for its copy-backs, so the
executors have no alias to lose on it).

usage: functionalize_regress.py [--tensoralias PATH] DIR...
Exit 1 when a rewrite computes something else; 77 when torch is missing.
"""
import json
import os
import subprocess
import sys

try:
    import torch
except ImportError:
    print("skipped: no torch in %s (Debian's python3-torch runs these)" % sys.executable)
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import graph_runner as gr  # noqa: E402


def encode(v):
    if isinstance(v, torch.Tensor):
        return {"shape": list(v.shape), "dtype": str(v.dtype), "hex": [float(x).hex() for x in v.flatten().tolist()]}
    return v


def decode(v):
    if isinstance(v, dict):
        flat = [float.fromhex(x) for x in v["hex"]]
        return torch.tensor(flat, dtype=getattr(torch, v["dtype"].split(".")[1])).reshape(v["shape"])
    return v


def record(dirname, name, text, seed, draws, note=""):
    sets = gr.make_input_sets(gr.input_kinds(text), seed, draws)
    ref = gr.run_graph(text, gr.INTERPRETER, 1, sets)
    cases = []
    for ins, res in zip(sets, ref):
        if res[0][0] == "ok":
            cases.append({"inputs": [encode(x) for x in ins], "expected": [encode(x) for x in res[0][1]]})
    os.makedirs(dirname, exist_ok=True)
    with open(os.path.join(dirname, name + ".ir"), "w") as f:
        f.write(text)
    with open(os.path.join(dirname, name + ".json"), "w") as f:
        json.dump({"note": note, "made_by": "tools/torch/functionalize_regress.py record: torch %s's "
                   "interpreter on the original graph" % torch.__version__, "cases": cases}, f, indent=1)
        f.write("\n")


def check_one(ta, path):
    """None when the rewrite agrees with every recorded case, else why not."""
    p = subprocess.run([ta, "functionalize", path], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return "tensoralias functionalize exited %d: %s" % (p.returncode, p.stderr.strip()[-300:])
    with open(path[:-3] + ".json") as f:
        cases = json.load(f)["cases"]
    sets = [[decode(x) for x in c["inputs"]] for c in cases]
    for name, setting, repeats in (("the interpreter", gr.INTERPRETER, 1),) + gr.SETTINGS:
        runs = gr.run_graph(p.stdout, setting, repeats, sets)
        for c, per in zip(cases, runs):
            want = ("ok", [decode(x) for x in c["expected"]])
            for got in per:
                if not gr.same_result(want, got):
                    return "%s, bools %s: %s" % (name, gr.bools_of(sets[cases.index(c)]), gr.describe(want, got))
    return None


def main(argv):
    ta = "build/tensoralias"
    if argv[:1] == ["--tensoralias"]:
        ta, argv = argv[1], argv[2:]
    bad = total = 0
    for d in argv:
        for f in sorted(os.listdir(d)) if os.path.isdir(d) else [d]:
            if not f.endswith(".ir"):
                continue
            total += 1
            why = check_one(ta, os.path.join(d, f) if os.path.isdir(d) else f)
            print("%s: %s" % (f, "same results" if why is None else "DIFFERS: " + why))
            bad += why is not None
    print("%d regression graphs, %d differ" % (total, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
