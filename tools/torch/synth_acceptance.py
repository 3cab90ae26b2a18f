#!/usr/bin/python3
"""synth_acceptance.py - how many synthesized cases ATen's own kernels accept.

Reads the cases build/bench/bench_synth --dump wrote (the engine's synthesized inputs as a
samples file, every value included), builds each in torch exactly as the engine would
(samplelib.build_call) and calls its operator: a case ATen raises on is one it rejects. Prints
per-operator and overall acceptance and the commonest reasons for rejection, the figure that
says whether the synthesizer makes inputs real kernels take.

    build/bench/bench_synth build/data/corpus/pytorch-1.13.1/native_functions.yaml --cases 20 \\
        --dump /tmp/synth.json
    /usr/bin/python3 tools/torch/synth_acceptance.py /tmp/synth.json [--json out.json]

Each operator runs in a child process (some kernels crash on inputs they do not check),
and after a crash each of its cases in a child of its own; a crash counts as a rejection. Needs torch 1.13.1 (Debian's python3-torch).
"""
import argparse
import collections
import json
import os
import pickle
import re
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("GLOG_minloglevel", "2")

import torch  # noqa: E402

import samplelib  # noqa: E402


def reason(e):
    """A rejection message without its numbers, to group alike ones."""
    msg = str(e).strip().split("\n")[0]
    return re.sub(r"-?\d+", "N", msg)[:120]


def run_op(name, samples):
    op = samplelib.overload(name)
    accepted, reasons = 0, collections.Counter()
    for s in samples:
        try:
            args, kwargs = samplelib.build_call(op, s)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                op(*args, **kwargs)
            accepted += 1
        except Exception as e:  # noqa: BLE001 - any rejection counts
            reasons[reason(e)] += 1
    return accepted, reasons


def run_forked(name, samples):
    """run_op in a child process; None when the child died."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        torch.set_num_threads(1)
        with os.fdopen(wfd, "wb") as f:
            pickle.dump(run_op(name, samples), f)
        os._exit(0)
    os.close(wfd)
    with os.fdopen(rfd, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    return pickle.loads(data) if data else None


def run_isolated(name, samples):
    """An operator's cases in one child; after a crash, each case in its own."""
    result = run_forked(name, samples)
    if result is not None:
        return result
    accepted, reasons = 0, collections.Counter()
    for s in samples:
        one = run_forked(name, [s])
        if one is None:
            reasons["crashed"] += 1
        else:
            accepted += one[0]
            reasons.update(one[1])
    return accepted, reasons


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dump", help="bench_synth --dump output")
    ap.add_argument("--json", help="write per-operator figures here")
    ap.add_argument("--show", type=int, default=25, help="rejection reasons to print")
    args = ap.parse_args()
    with open(args.dump) as f:
        data = json.load(f)
    per_op, reasons = {}, collections.Counter()
    missing = 0
    for i, (name, samples) in enumerate(sorted(data.items())):
        try:
            samplelib.overload(name)
        except (AttributeError, RuntimeError):
            missing += 1
            continue
        acc, why = run_isolated(name, samples)
        per_op[name] = {"cases": len(samples), "accepted": acc, "reasons": dict(why)}
        for r in why:
            reasons[r] += 1  # operators, not cases
        print("\r[%d/%d] %-50s" % (i + 1, len(data), name[:50]), end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    cases = sum(v["cases"] for v in per_op.values())
    acc = sum(v["accepted"] for v in per_op.values())
    ops_ok = sum(1 for v in per_op.values() if v["accepted"])
    print("%d operators run (%d not in torch), %d with at least one accepted case (%.1f%%); "
          "%d of %d cases accepted (%.1f%%)" % (len(per_op), missing, ops_ok, 100.0 * ops_ok / max(len(per_op), 1),
                                               acc, cases, 100.0 * acc / max(cases, 1)))
    print("commonest rejections (operators):")
    for r, n in reasons.most_common(args.show):
        print("  %5d  %s" % (n, r))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(per_op, f, indent=0, sort_keys=True)


if __name__ == "__main__":
    main()
