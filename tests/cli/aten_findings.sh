#!/bin/sh
# The judged findings of `verify --kernels torch` on ATen and of `--torch-library` on fbgemm-gpu-cpu
# (tests/data/torch/*-findings.tsv, docs/aten-findings.md): every finding of each file judged (real, intended or tool error; none UNJUDGED, none twice), the
# 1.13.1 -> 2.15.0 join naming each 1.13.1 finding once with one outcome, each real one still
# present with a reproduction in aten-2.15.0-repros.py that covers its operator (or "none yet",
# counted). tests/cli/aten_repros.sh runs the reproductions.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "skipped: no python3 to read the tsv files"; exit 77; }
D=tests/data/torch
python3 - "$D" <<'EOF' || fail "the judged findings are inconsistent"
import glob, os, re, sys
d = sys.argv[1]
bad = []
def rows(path, n):
    out = []
    for i, line in enumerate(open(path), 1):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        if len(f) != n:
            bad.append("%s:%d: %d fields, not %d" % (path, i, len(f), n))
        else:
            out.append(f)
    return out
judged = {}
for path in sorted(glob.glob(os.path.join(d, "*-findings.tsv"))):
    version = os.path.basename(path)[:-len("-findings.tsv")].replace("aten-", "")
    rs = rows(path, 7)
    keys = [tuple(r[:4]) for r in rs]
    if len(set(keys)) != len(keys):
        bad.append("%s: a finding twice" % path)
    for r in rs:
        if not re.match(r"(real|intended|tool error)\b", r[4]):
            bad.append("%s: %s %s %s judged %r" % (path, r[0], r[1], r[2], r[4][:40]))
    judged[version] = {tuple(r[:4]): r[4] for r in rs}
    print("%s: %d findings judged" % (os.path.basename(path), len(rs)))
for v in ("1.13.1", "2.15.0"):
    if v not in judged or not judged[v]:
        bad.append("no judged findings of %s" % v)
src = open(os.path.join(d, "aten-2.15.0-repros.py")).read()
repros = {}
for m in re.finditer(r'^    "([a-z0-9_]+)": \(\n        (\[[^\]]*\])', src, re.M):
    repros[m.group(1)] = set(re.findall(r'"(aten::[^"]+)"', m.group(2)))
join = rows(os.path.join(d, "aten-1.13.1-to-2.15.0.tsv"), 7)
outcomes = {"removed upstream", "fixed upstream: schema", "fixed upstream: kernel", "still present",
            "not checkable"}
keys = [tuple(r[:4]) for r in join]
if sorted(keys) != sorted(judged.get("1.13.1", {})):
    bad.append("the join does not name each 1.13.1 finding exactly once")
for r in join:
    op, outcome, repro = r[0], r[4], r[6]
    if outcome not in outcomes:
        bad.append("join: %s: outcome %r" % (op, outcome))
    real = judged.get("1.13.1", {}).get(tuple(r[:4]), "").startswith("real")
    if outcome == "still present" and real and repro != "none yet" and (repro not in repros or op not in repros[repro]):
        bad.append("join: %s is still present and real, but reproduction %r does not cover it" % (op, repro))
    if repro != "-" and not (outcome == "still present" and real):
        bad.append("join: %s has a reproduction but is not a real finding still present" % op)
print("join: %d findings, %d still present, %d of them real with a reproduction, %d real with none yet" % (
    len(join), sum(r[4] == "still present" for r in join), sum(r[6] in repros for r in join),
    sum(r[6] == "none yet" for r in join)))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF

exit 0
