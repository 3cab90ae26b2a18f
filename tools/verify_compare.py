#!/usr/bin/python3
"""verify_compare.py - two `tensoralias verify --format json` reports, operator by operator.

Prints every operator whose verdict, findings (kind, argument, case seed) or case counts
(cases, exercised) differ between the two reports, and the operators only one of them has;
then one summary line. Exit status 0 when the reports agree, 1 when they differ.

    tools/verify_compare.py operator.json batch.json [--ignore-counts OP]...

--ignore-counts OP leaves out OP's case counts (an operator known to run a varying number of
cases from run to run); its verdict and findings are still compared.
"""
import argparse
import json
import sys


def load(path):
    out = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            r = json.loads(line)
            out[r["op"]] = r
    return out


def key(r, counts):
    findings = sorted((f["kind"], f["argument"], f["seed"]) for f in r.get("findings", []))
    k = {"verdict": r["verdict"], "findings": findings}
    if counts:
        k["cases"], k["exercised"] = r["cases"], r["exercised"]
    return k


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--ignore-counts", action="append", default=[])
    args = ap.parse_args()
    a, b = load(args.a), load(args.b)
    differ = 0
    for op in sorted(set(a) | set(b)):
        if op not in a or op not in b:
            print("%s: only in %s" % (op, args.a if op in a else args.b))
            differ += 1
            continue
        counts = op not in args.ignore_counts
        ka, kb = key(a[op], counts), key(b[op], counts)
        if ka != kb:
            print("%s:\n  %s\n  %s" % (op, ka, kb))
            differ += 1
    same = len(set(a) & set(b)) - sum(1 for op in set(a) & set(b)
                                       if key(a[op], op not in args.ignore_counts)
                                       != key(b[op], op not in args.ignore_counts))
    print("%d operators agree, %d differ (%d and %d operators; %d and %d cases)"
          % (same, differ, len(a), len(b), sum(r["cases"] for r in a.values()),
             sum(r["cases"] for r in b.values())))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
