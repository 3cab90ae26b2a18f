#!/usr/bin/python3
"""Times torch 1.13.1 on the benchmark graphs: torch._C.parse_ir reading the
text and building its AliasDb (graph.alias_db()), best of several runs in
process CPU time: the figures bench_aliasdb's read and build are compared
with. Also may_contain_alias from Python on random value pairs.

With --command TENSORALIAS, in the same sitting, the whole `tensoralias
graph-alias GRAPH --queries Q` process (Q: one has_writers query), start-up,
reading, operator set, analysis and exit included, over --runs runs: mean
CPU time (user + system, the child's own accounting) and median wall time,
and their ratio to torch's parse_ir + AliasDb build (the goal is >= 10x).
With --bench BENCH_ALIASDB, that program's in-process read and build times
(best of several runs, thread CPU time) next to torch's, the same sitting.

Usage: tools/torch/aliasdb_speed.py [DIR] [--command TENSORALIAS] [--runs N]
                                   [--bench BENCH_ALIASDB]
(DIR default build/data/golden/aliasdb-1.13.1/speed)
Needs /usr/bin/python3 with torch 1.13.1."""
import argparse
import os
import random
import re
import statistics
import subprocess
import tempfile
import time

import torch


def timed(fn):
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def process_times(argv, runs):
    """Mean CPU and median wall seconds of argv run as a whole process, after
    one run not counted (the file in the page cache, the command loaded). A
    child's CPU time may be counted in scheduler ticks: a mean over many runs
    converges on it where a median of ticks would not."""
    cpu, wall = [], []
    quiet = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0), (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
    for i in range(runs + 1):
        # posix_spawn (a vfork in glibc): a fork would copy this process's
        # page tables, torch's included, and count that as the child's time
        t0 = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=quiet)
        _, status, ru = os.wait4(pid, 0)
        elapsed = time.perf_counter() - t0
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{' '.join(argv)} exited {os.waitstatus_to_exitcode(status)}")
        if i:
            cpu.append(ru.ru_utime + ru.ru_stime)
            wall.append(elapsed)
    return statistics.mean(cpu), statistics.median(wall)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", nargs="?", default="build/data/golden/aliasdb-1.13.1/speed")
    ap.add_argument("--command", help="the tensoralias command, timed as a whole process")
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--bench", help="build/bench/bench_aliasdb, for the in-process read and build")
    args = ap.parse_args()
    ours = {}
    if args.bench:  # bench_aliasdb finds the graphs under its BUILD argument
        build = os.path.normpath(os.path.join(args.dir, "../../../.."))
        out = subprocess.run([args.bench, build], capture_output=True, text=True, check=True).stdout
        for m in re.finditer(r"^(aliasdb_\d+)\s.*?read\s+([\d.]+) ms.*?build\s+([\d.]+) ms", out, re.M):
            ours[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    query = None
    if args.command:
        query = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False)
        query.write('{"q": "has_writers", "a": "%x0"}\n')
        query.close()
    try:
        for n in (1000, 10000, 50000):
            path = f"{args.dir}/aliasdb_{n}.ir"
            text = open(path).read()
            read = min(timed(lambda: torch._C.parse_ir(text)) for _ in range(3))
            g = torch._C.parse_ir(text)
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
            if f"aliasdb_{n}" in ours:
                r, b = ours[f"aliasdb_{n}"]
                print(f"  bench_aliasdb in process: read {r:.2f} ms, build {b:.2f} ms: build {best * 1e3 / b:.1f}x "
                      f"torch's, read + build {(read + best) * 1e3 / (r + b):.1f}x")
            if args.command:
                cpu, wall = process_times([args.command, "graph-alias", path, "--queries", query.name], args.runs)
                torch_ms = (read + best) * 1e3
                print(f"  graph-alias whole process: {cpu * 1e3:.1f} ms CPU, {wall * 1e3:.1f} ms wall ({args.runs} runs: "
                      f"mean, median); torch parse_ir + build {torch_ms:.1f} ms: {torch_ms / (cpu * 1e3):.1f}x CPU, "
                      f"{torch_ms / (wall * 1e3):.1f}x wall")
    finally:
        if query:
            os.unlink(query.name)


if __name__ == "__main__":
    main()
