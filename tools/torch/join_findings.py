#!/usr/bin/env python3
"""join_findings.py - which findings of one torch are still there in another, and which upstream fixed.

    TORCH_PY=/work/cache/venvs/torch-2.15.0/bin/python
    $TORCH_PY tools/torch/join_findings.py OLD.tsv NEW.tsv DUMPS/ [--old-python /usr/bin/python3]

OLD.tsv and NEW.tsv are judged findings files (tests/data/torch/aten-VERSION-findings.tsv; NEW may
also be the `verify --format json` report it was made from); run with the Python of the NEW torch. DUMPS holds each OLD finding's call as the OLD torch's bridge recorded
it (TA_TORCH_DUMP), one file per operator and seed, named OP-SEED.jsonl with ':' as '_'
(`--dump` makes them: `--tensoralias build/tensoralias --yaml OLD_YAML`). Each OLD finding is
looked at three ways:
  schema     the operator's schema in the OLD torch (--old-python) and in this one: "gone" when this
             torch has no such overload, "same", "same contract" (the same alias annotations in
             the same places: an argument renamed, an int now a SymInt), or "changed" (both printed)
  behaviour  the OLD call replayed in this torch (replay_case.py, judged as check_findings.py
             judges a finding): does it still do what the finding says? (Only for findings NEW
             does not have, unless --replay-all: a replay takes seconds.)
  report     whether NEW.tsv has a finding of the same operator, kind and argument
and given one of: "removed upstream" (the overload is gone), "still present" (NEW has it, or the
call still does it and the alias annotations are the same), "fixed upstream: schema" (the call still
does it, NEW has no such finding, and the annotations changed: this torch's schema declares it),
"fixed upstream: kernel" (the call no longer does it: the kernel refuses it now, or does it right),
or "not checkable" (by a replay: a read past memory the kernel allocated, say, and not in
NEW: the finding's row in the join says why, by hand). One tab-separated
line per OLD finding: op, kind, argument, seed, outcome, schema, behaviour, report. Not run by the
suite (it needs two torches).
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_findings  # noqa: E402  (judge(): the same reading of a replay as for a report)

SCHEMAS = r"""
import json, sys, torch
out = {}
for name in json.load(sys.stdin):
    ns, rest = name.split("::")
    op, _, ov = rest.partition(".")
    try:
        out[name] = str(getattr(getattr(getattr(torch.ops, ns), op), ov or "default")._schema)
    except Exception:
        out[name] = None
print(json.dumps(out))
"""


def read_tsv(path):
    """The rows of a judged findings file, or the error findings of a JSON report."""
    if path.endswith(".json"):
        with open(path) as fh:
            ops = [json.loads(line) for line in fh if line.strip()]
        return [dict(op=o["op"], kind=f["kind"], argument=f["argument"], seed=f["seed"], judgement="",
                     message=f["message"]) for o in ops for f in o["findings"] if f["severity"] == "error"]
    rows = []
    with open(path) as fh:
        for line in fh:
            if line.strip() and not line.startswith("#"):
                f = line.rstrip("\n").split("\t")
                rows.append(dict(op=f[0], kind=f[1], argument=f[2], seed=f[3], judgement=f[4], message=f[6]))
    return rows


def schemas(python, names):
    r = subprocess.run([python, "-c", SCHEMAS], input=json.dumps(sorted(set(names))),
                       capture_output=True, text=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def dump_path(dumps, op, seed):
    return os.path.join(dumps, "%s-%s.jsonl" % (op.replace(":", "_"), seed))


def contract(schema):
    """A schema's alias annotations in order, arguments' then returns': what the join compares
    (a renamed argument or an int become SymInt changes no alias contract)."""
    args, _, rets = schema.rpartition(") -> ")
    ann = lambda part: re.findall(r"Tensor(?:\(([^)]*)\))?", part)
    return ann(args), ann(rets)


def arg_names(schema):
    args = schema[schema.index("(") + 1:schema.rindex(") -> ")]
    return [a.split("=")[0].split()[-1] for a in args.split(", ") if a and a != "*"]


def renamed(old_schema, new_schema, arg):
    """The argument's name in the new schema (by position: grad became grad_output)."""
    base, _, rest = arg.partition("[")
    try:
        i = arg_names(old_schema).index(base)
        return arg_names(new_schema)[i] + (_ + rest if _ else "")
    except (ValueError, IndexError, AttributeError):
        return arg


def outcome(old_schema, new_schema, confirmed, in_report):
    if new_schema is None:
        return "removed upstream"
    if in_report:  # this torch's own run finds it again
        return "still present"
    if old_schema is not None and contract(old_schema) != contract(new_schema) and confirmed:
        return "fixed upstream: schema"
    if confirmed:
        return "still present"
    if confirmed is False:
        return "fixed upstream: kernel"
    return "not checkable"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("dumps")
    ap.add_argument("--old-python", default="/usr/bin/python3")
    ap.add_argument("--dump", action="store_true", help="record the OLD calls first (missing ones)")
    ap.add_argument("--tensoralias", default="build/tensoralias")
    ap.add_argument("--yaml", help="the OLD yaml, with --dump")
    ap.add_argument("--replay-all", action="store_true",
                    help="replay the findings NEW has too (by default only the others are replayed)")
    o = ap.parse_args()
    old, new = read_tsv(o.old), read_tsv(o.new)
    present = {(r["op"], r["kind"], r["argument"]) for r in new}
    names = [r["op"] for r in old]
    s_old, s_new = schemas(o.old_python, names), schemas(sys.executable, names)
    os.makedirs(o.dumps, exist_ok=True)
    for r in old:
        path = dump_path(o.dumps, r["op"], r["seed"])
        if o.dump and not os.path.exists(path):
            check_findings.dump_case(o.tensoralias, o.yaml, r["op"], r["seed"], path)
        a, b = s_old.get(r["op"]), s_new.get(r["op"])
        in_report = (r["op"], r["kind"], r["argument"]) in present or \
            bool(a and b and (r["op"], r["kind"], renamed(a, b, r["argument"])) in present)
        if b is None:
            ok, seen = None, "not replayed: no such overload"
        elif in_report and not o.replay_all:
            ok, seen = None, "not replayed: NEW has it"
        elif not os.path.exists(path):
            ok, seen = None, "no call recorded"
        elif "a tensor the kernel allocated" in r["message"]:
            seen = check_findings.replay(path).get("outcome", "")
            ok = True if seen.startswith("signal") else None
        else:
            ok, seen = check_findings.judge(r, path)
        behaviour = ("confirmed" if ok else "not checkable" if ok is None else "NOT confirmed") + ": " + str(seen)
        schema = ("gone" if b is None else "same" if a == b else
                  "same contract" if a and contract(a) == contract(b) else "changed: %s -> %s" % (a, b))
        print("\t".join([r["op"], r["kind"], r["argument"], r["seed"], outcome(a, b, ok, in_report),
                         schema, behaviour, "in report" if in_report else "not in report"]), flush=True)


if __name__ == "__main__":
    main()
