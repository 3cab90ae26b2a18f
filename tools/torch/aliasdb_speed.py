#!/usr/bin/python3
"""Times torch 1.13.1 building its AliasDb (graph.alias_db()) on the
benchmark graphs, best of several runs, the graph already read with
torch._C.parse_ir: the figure bench_aliasdb's analysis build is compared
with. Also may_contain_alias from Python on random value pairs.

Usage: tools/torch/aliasdb_speed.py [DIR]   (default build/data/golden/aliasdb-1.13.1/speed)
Needs /usr/bin/python3 with torch 1.13.1."""
import random
import sys
import time

import torch


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "build/data/golden/aliasdb-1.13.1/speed"
    for n in (1000, 10000, 50000):
        text = open(f"{d}/aliasdb_{n}.ir").read()
        t0 = time.process_time()
        g = torch._C.parse_ir(text)
        read = time.process_time() - t0
        best = min(timed(lambda: g.alias_db()) for _ in range(5))
        db = g.alias_db()
        vals = [v for node in g.nodes() for v in node.outputs()]
        rng = random.Random(1)
        pairs = [(rng.choice(vals), rng.choice(vals)) for _ in range(100000)]
        t0 = time.process_time()
        for a, b in pairs:
            db.may_contain_alias(a, b)
        q = len(pairs) / (time.process_time() - t0)
        print(f"aliasdb_{n}: torch parse_ir {read * 1e3:.1f} ms, AliasDb build {best * 1e3:.1f} ms, "
              f"may_contain_alias from Python {q / 1e6:.2f} M/s")


def timed(fn):
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


if __name__ == "__main__":
    main()
