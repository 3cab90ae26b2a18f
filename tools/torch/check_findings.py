#!/usr/bin/python3
"""check_findings.py - check every error finding of a `verify --kernels torch` report in torch itself.

    /usr/bin/python3 tools/torch/check_findings.py REPORT.json YAML [--tensoralias build/tensoralias]

For each error finding, its case is run again by the command with the bridge recording the call
(TA_TORCH_DUMP, src/torch/dump.cpp), the call is replayed in torch by replay_case.py, and
what torch did is set against what the finding says (with glibc's MALLOC_PERTURB_ filling fresh
allocations with the engine's marker byte, so uninitialized memory looks alike on both sides):
  crash                         the replay dies of a signal
  timeout                       the replay does not finish within 20 s
  undeclared-alias (A)          a result shares A's storage
  undeclared-output-alias       the two results share storage
  undeclared-mutation (A)       A's storage changed (outside A's view when the finding says so)
  undeclared-metadata-mutation  A's sizes, strides, offset or storage changed
  out-not-written (A)           elements of out= A still hold the marker
  out-not-returned (A)          no result is A itself
  out-of-bounds past/before argument A
                                the replay dies of SIGSEGV with an inaccessible page right after
                                (before) every input storage (without, it may too: an empty
                                storage in torch has no memory at all)
Out-of-bounds accesses of memory the kernel allocated itself cannot be set up so in torch (its own
allocator serves them): they are confirmed when the plain replay dies of a signal, or, with
--valgrind, when valgrind's memcheck sees an invalid read or write in the replay; otherwise they
print "not checkable" and are judged by reading the kernel. One
tab-separated line per finding: op, kind, argument, seed, "confirmed"/"NOT confirmed"/"not
checkable", and what the replay saw. With --tsv FILE (the project's judged record,
tests/data/torch/aten-1.13.1-findings.tsv) it prints that file instead, brought up to this report:
its comment lines, then one row per error finding, sorted by operator, kind and argument, with
the judgement the file has for the same operator, kind, argument and seed (else for the same
operator, kind and argument, else "UNJUDGED"), the check as "in torch", and the finding's message.
With --tsv and --no-replay nothing is run: a finding the file has a row for keeps that row's "in
torch" too (a new one reads "not replayed"), for reports no replay can serve (--torch-library ones,
whose calls check_findings.py cannot record). Run it with the Python of the torch the report was made with: /usr/bin/python3 for Debian's
1.13.1; for another, `--torch DIR` (as given to verify) and a Python that imports that torch (a venv
with `pip install torch==VERSION`). Not run by the suite.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def dump_case(ta, yaml, op, seed, path, torch_dir=None):
    if os.path.exists(path):
        os.unlink(path)
    env = dict(os.environ, TA_TORCH_DUMP=path)
    cmd = [ta, "verify", yaml, "--kernels", "torch", "--ops", op, "--case-seed", seed, "--timeout", "3"]
    subprocess.run(cmd + (["--torch", torch_dir] if torch_dir else []), env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return os.path.exists(path)


def replay(path, guard=None, outs=False):
    cmd = [sys.executable, os.path.join(HERE, "replay_case.py"), path]
    if guard:
        cmd += ["--guard", guard] + (["--guard-outs"] if outs else [])
    # glibc fills fresh allocations with ~0x5a = 0xa5, the engine's marker: memory a kernel
    # allocates and never computes reads as unwritten in torch as in the engine.
    env = dict(os.environ, MALLOC_PERTURB_="90")
    out = subprocess.run(cmd, capture_output=True, text=True, env=env).stdout.strip().splitlines()
    return json.loads(out[-1]) if out else {"outcome": "no replay"}


def valgrind(path):
    """The first invalid read or write valgrind's memcheck sees in the replay, with its frame, or None."""
    logs = tempfile.mkdtemp()
    cmd = ["valgrind", "--log-file=" + os.path.join(logs, "vg.%p"), sys.executable,
           os.path.join(HERE, "replay_case.py"), path, "--no-room", "--timeout", "900"]
    subprocess.run(cmd, capture_output=True, text=True)
    for name in sorted(os.listdir(logs)):
        with open(os.path.join(logs, name)) as fh:
            lines = [re.sub(r"^==\d+== ?", "", line.rstrip("\n")) for line in fh]
        records = "\n".join(lines).split("\n\n")  # memcheck separates its reports by an empty line
        for r in records:
            m = re.match(r"(Invalid (read|write) of size \d+)", r.strip())
            # only the kernel's: a frame in libtorch, LAPACK or BLAS (not the interpreter's start-up)
            if m and re.search(r"libtorch|liblapack|libblas", r):
                stack, _, where = r.partition(" Address ")
                frames = re.findall(r"(?:at|by) 0x[0-9A-F]+: (\S+) \(in (\S+)\)", stack)
                named = [f for f, lib in frames if f != "???"]
                inside = " < ".join(named[:2]) if named else os.path.basename(frames[0][1]) if frames else "?"
                block = re.match(r"0x[0-9A-Fa-f]+ is (\d+ bytes (?:after|before|inside) a block of size \d+)", where)
                return "%s in %s%s" % (m.group(1), inside, " (%s)" % block.group(1) if block else "")
    return None


def judge(f, path):
    kind, arg, msg = f["kind"], f["argument"], f["message"]
    r = replay(path)
    seen = r.get("outcome", "")
    if kind == "crash":
        return seen.startswith("signal"), seen
    if kind == "timeout":
        return seen == "timeout", seen
    if kind == "out-of-bounds":
        m = re.search(r"(past the end|before the start) of argument '([^']+)'", msg)
        if not m:
            return None, seen
        where = "after" if m.group(1) == "past the end" else "before"
        g = replay(path, where)
        if g.get("outcome") != "signal 11":  # an out= argument the kernel did not resize?
            g = replay(path, where, outs=True)
        return g.get("outcome") == "signal 11", "plain: %s; guarded: %s" % (seen, g.get("outcome"))
    if seen.startswith("signal") or seen == "timeout":
        return False, seen
    if "changed" not in r:  # the replay itself failed
        return None, seen
    if kind == "undeclared-alias":
        hit = [s for s in r["shares"] if s[1] == arg]
        return bool(hit), "%s; shares %s" % (seen, r["shares"])
    if kind == "undeclared-output-alias":
        first = re.match(r"(return \d+(\[\d+\])?) and (return \d+(\[\d+\])?)", msg)
        pair = [first.group(1), first.group(3)] if first else None
        return pair in r["shares"] or (pair and pair[::-1] in r["shares"]), "%s; shares %s" % (seen, r["shares"])
    if kind == "undeclared-mutation":
        c = r["changed"].get(arg, {"outside": [], "inside": 0})
        if "outside its view" in msg:
            return bool(c["outside"]), "%s; %s changed outside its view at elements %s" % (seen, arg, c["outside"])
        return bool(c["outside"] or c["inside"]), "%s; %s changed: %s" % (seen, arg, c)
    if kind == "undeclared-metadata-mutation":
        return arg in r["metadata"], "%s; metadata changed: %s" % (seen, r["metadata"])
    if kind == "out-not-written":
        u = r["unwritten"].get(arg)
        return bool(u and u[0]), "%s; %s unwritten %s" % (seen, arg, u)
    if kind == "out-not-returned":
        return r["returned_out"].get(arg) is False, "%s; returned %s" % (seen, r["returned_out"])
    return None, seen


def read_judged(path):
    """The comment lines of a judged tsv, its judgements by (op, kind, argument, seed) and by
    (op, kind, argument): a finding whose case changed (another seed) keeps its judgement; and its
    "in torch" column the same way."""
    head, judged, checked = [], {}, {}
    with open(path) as fh:
        for line in fh:
            line = line.rstrip("\n")
            if line.startswith("#"):
                head.append(line)
            elif line:
                f = line.split("\t")
                if len(f) != 7:
                    sys.exit("%s: a row of %d fields, not 7: %s" % (path, len(f), line[:80]))
                judged[tuple(f[:4])] = f[4]
                judged.setdefault(tuple(f[:3]), f[4])
                checked[tuple(f[:4])] = f[5]
                checked.setdefault(tuple(f[:3]), f[5])
    return head, judged, checked


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("report")
    ap.add_argument("yaml")
    ap.add_argument("--tensoralias", default="build/tensoralias")
    ap.add_argument("--torch", help="the torch folder the report was made with (verify --torch DIR); "
                    "run this script with that torch's Python")
    ap.add_argument("--ops", help="only findings of operators matching this regex")
    ap.add_argument("--valgrind", action="store_true",
                    help="check accesses past memory the kernel allocated under valgrind (a minute each)")
    ap.add_argument("--tsv", help="print this judged tsv brought up to the report, judgements kept")
    ap.add_argument("--no-replay", action="store_true",
                    help="with --tsv: run nothing; a finding keeps the file's 'in torch', a new one reads 'not replayed'")
    o = ap.parse_args()
    if o.no_replay and not o.tsv:
        ap.error("--no-replay goes with --tsv")
    head, judged, checked = read_judged(o.tsv) if o.tsv else ([], None, None)
    out = []
    tmp = tempfile.mkdtemp()
    with open(o.report) as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    for row in rows:
        if o.ops and not re.search(o.ops, row["op"]):
            continue
        for f in row["findings"]:
            if f["severity"] != "error":
                continue
            key = (row["op"], f["kind"], f["argument"], f["seed"])
            if o.no_replay:
                out.append(list(key) + [judged.get(key, judged.get(key[:3], "UNJUDGED")),
                                        checked.get(key, checked.get(key[:3], "not replayed")),
                                        f["message"].replace("\t", " ").replace("\n", " ")])
                continue
            path = os.path.join(tmp, "call.jsonl")
            if not dump_case(o.tensoralias, o.yaml, row["op"], f["seed"], path, o.torch):
                ok, seen = None, "no call recorded"
            elif "a tensor the kernel allocated" in f["message"]:
                seen = replay(path).get("outcome")
                if seen.startswith("signal"):
                    ok = True
                elif o.valgrind:
                    bad = valgrind(path)
                    ok, seen = bool(bad), "%s; valgrind: %s" % (seen, bad)
                else:
                    ok = None
            else:
                ok, seen = judge(f, path)
            verdict = "not checkable" if ok is None else "confirmed" if ok else "NOT confirmed"
            key = (row["op"], f["kind"], f["argument"], f["seed"])
            if judged is None:
                print("\t".join(list(key) + [verdict, str(seen)]), flush=True)
            else:
                out.append(list(key) + [judged.get(key, judged.get(key[:3], "UNJUDGED")), "%s: %s" % (verdict, seen),
                                        f["message"].replace("\t", " ").replace("\n", " ")])
    if judged is not None:
        print("\n".join(head))
        for r in sorted(out, key=lambda r: (r[0], r[1], r[2])):
            print("\t".join(r))


if __name__ == "__main__":
    main()
