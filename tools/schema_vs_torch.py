#!/usr/bin/python3
"""schema_vs_torch.py - compare tensoralias's schema parser with torch's.

    tools/schema_vs_torch.py [--mutate N] [--seed S] [TENSORALIAS] < schemas.txt

Reads schemas, one per line (with --mutate N: N random mutations of them,
each a truncation, deletion or insertion of a schema token), asks torch's
own parser (torch._C.parse_schema, each call in a forked child because it
crashes on some inputs) and `tensoralias parse --json -` whether each schema
parses, and prints every schema on which they disagree, with a summary.
Needs PyTorch (Debian's python3-torch); the test suite does not.
This is how the parser was checked against torch 1.13.1: over 17,000
mutated and generated schemas, the only disagreements left are custom class
types that torch has not registered (torch checks its class registry; we
cannot) and `Await(t)`, which torch 1.13.1 predates.
"""
import argparse
import collections
import json
import os
import random
import subprocess
import sys

import torch

TOKENS = ['(', ')', '[', ']', ',', '=', '*', '!', '?', '|', '.', ':', '-', ' ', '->',
          '...', 'a', 'Tensor', 'int', 'None', '1', '1.5', "'s'", '[]', '(a!)',
          '(a -> *)', 'x', 'if', '[2]', '#', 'Mean', 'True']


def torch_verdict(schema):
    """'OK', 'ERR' or 'CRASH' for torch's parser, run in a child process."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            torch._C.parse_schema(schema)
            os.write(w, b'OK')
        except Exception:  # torch raises RuntimeError and others
            os.write(w, b'ERR')
        os._exit(0)
    os.close(w)
    out = os.read(r, 8).decode()
    os.close(r)
    os.waitpid(pid, 0)
    return out or 'CRASH'


def mutate(line, rng):
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(0, len(line) + 1)
        op = rng.random()
        if op < 0.33:
            line = line[:k] + line[k + 1:]
        elif op < 0.66:
            line = line[:k] + rng.choice(TOKENS) + line[k:]
        else:
            j = rng.randrange(0, len(line) + 1)
            line = line[:k] + line[j:] if j > k else line
    return line


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    ap.add_argument('tensoralias', nargs='?', default='build/tensoralias')
    ap.add_argument('--mutate', type=int, default=0)
    ap.add_argument('--seed', type=int, default=1)
    args = ap.parse_args()
    schemas = [l for l in sys.stdin.read().split('\n') if l and '\\' not in l]
    if args.mutate:
        rng = random.Random(args.seed)
        schemas = [mutate(rng.choice(schemas), rng) for _ in range(args.mutate)]
    # One schema per line: drop what a line cannot hold.
    schemas = [s.replace('\n', ' ') for s in schemas]
    ours = subprocess.run([args.tensoralias, 'parse', '--json', '-'],
                          input='\n'.join(schemas) + '\n', capture_output=True, text=True)
    results = [json.loads(l) for l in ours.stdout.split('\n') if l]
    assert len(results) == len(schemas), 'output not aligned with input'
    counts = collections.Counter()
    for s, r in zip(schemas, results):
        t = torch_verdict(s)
        o = 'ERR' if 'error' in r else 'OK'
        counts[(t, o)] += 1
        if (t == 'OK') != (o == 'OK'):
            why = r['error']['message'] if 'error' in r else ''
            print('torch %-5s ours %-3s  %s%s' % (t, o, s, '  ## ' + why if why else ''))
    for (t, o), n in sorted(counts.items()):
        print('# torch %s, tensoralias %s: %d' % (t, o, n))
    return 1 if any((t == 'OK') != (o == 'OK') for t, o in counts) else 0


if __name__ == '__main__':
    sys.exit(main())
