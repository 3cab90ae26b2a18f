#!/bin/sh
# The Python package under Debian's torch: Python operators registered with
# torch.library (tests/python/pyops.py: correct ones and broken ones, each a
# different breach) verified through `python -m tensoralias verify` and
# tensoralias.verify(), each verdict as expected; a crash and a hang as
# verdicts (pyops_isolation.py); `--format json` the very bytes the command
# prints for the same operators (a TORCH_LIBRARY extension both load, and
# ATen operators), with the same exit status, and the same text report; SARIF
# and JUnit too; a baseline; replay by seed; the exit statuses of input errors;
# the ctypes structures laid out as the headers lay them out; parse() and
# check_sources().
. "$(dirname "$0")/lib.sh"
need_python_torch
cd tests/python

"$PY" -m tensoralias verify --import pyops --format json >"$tmp/r.json" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || { cat "$tmp/err"; fail "python -m: exit status $rc, expected 1"; }
"$PY" check_verdicts.py pyops "$tmp/r.json" || fail "python -m tensoralias verify: verdicts"
"$PY" check_verdicts.py pyops --api || fail "tensoralias.verify(): verdicts"

# A kernel that crashes and one that hangs are verdicts; the run goes on.
"$PY" -m tensoralias verify --import pyops_isolation --timeout 0.5 --format json >"$tmp/iso.json" 2>"$tmp/err"
[ $? -eq 1 ] || { cat "$tmp/err"; fail "crash and hang: exit status, expected 1"; }
"$PY" check_verdicts.py pyops_isolation "$tmp/iso.json" || fail "crash and hang: verdicts"

# Text: the operators with findings, then the command's summary line.
"$PY" -m tensoralias verify --import pyops --cases 8 >"$tmp/r.txt" 2>&1
tail -n 1 "$tmp/r.txt" | grep -q '^11 operators, 88 cases.* in .* s: [0-9]* ok, ' || { cat "$tmp/r.txt"; fail "text summary"; }
grep -q '^  error: undeclared-alias (x): .*\[seed 0x' "$tmp/r.txt" || fail "text: a finding with its seed"

# A finding replays by its seed: one case, the same finding.
seed=$(grep '"tapy::sneaky"' "$tmp/r.json" | sed 's/.*"seed":"\(0x[0-9a-f]*\)".*/\1/')
"$PY" -m tensoralias verify --import pyops --ops tapy::sneaky --case-seed "$seed" --format json >"$tmp/one.json"
grep -q "\"cases\":1,.*\"kind\":\"undeclared-mutation\",.*\"seed\":\"$seed\"" "$tmp/one.json" ||
    { cat "$tmp/one.json"; fail "replay of $seed"; }

# Clean operators only: exit 0. Input errors: exit 2.
"$PY" -m tensoralias verify --import pyops --ops 'tapy::add_one' --ops 'tapy::twice.out' --cases 8 >/dev/null 2>&1 ||
    fail "clean operators: exit status $?"
"$PY" -m tensoralias verify --import pyops --ops 'nope::*' >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no operator matching nope::\*" "$tmp/err" || { cat "$tmp/err"; fail "no match: exit 2"; }
"$PY" -m tensoralias verify --ops 'tapy::*' >/dev/null 2>&1
[ $? -eq 2 ] || fail "nothing registered: exit 2"
"$PY" -m tensoralias verify --import pyops --isolate sometimes >/dev/null 2>&1
[ $? -eq 2 ] || fail "bad --isolate: exit 2"
"$PY" -m tensoralias verify --import no_such_module >/dev/null 2>&1
[ $? -eq 2 ] || fail "a module that does not import: exit 2"

# The same objects as the command: the test extension loaded by both.
"$TA" verify --torch-library "$TORCH_EXT" --cases 12 --timeout 5 --format json >"$tmp/cli.json" 2>/dev/null
crc=$?
"$PY" -m tensoralias verify --load-library "$TORCH_EXT" --cases 12 --timeout 5 --format json >"$tmp/py.json" 2>/dev/null
prc=$?
[ $crc -eq $prc ] || fail "exit status: the command $crc, python -m $prc"
[ -s "$tmp/cli.json" ] && cmp "$tmp/cli.json" "$tmp/py.json" || { diff "$tmp/cli.json" "$tmp/py.json"; fail "--format json differs"; }
# SARIF and JUnit as the command writes them; a baseline of the first run
# makes the same findings pass (exit 0, each marked) in both.
for f in sarif junit; do
    "$TA" verify --torch-library "$TORCH_EXT" --cases 12 --timeout 5 --format $f >"$tmp/cli.$f" 2>/dev/null
    "$PY" -m tensoralias verify --load-library "$TORCH_EXT" --cases 12 --timeout 5 --format $f >"$tmp/py.$f" 2>/dev/null
    sed -i 's/time="[0-9.]*"//g' "$tmp/cli.$f" "$tmp/py.$f"
    [ -s "$tmp/cli.$f" ] && cmp "$tmp/cli.$f" "$tmp/py.$f" || { diff "$tmp/cli.$f" "$tmp/py.$f"; fail "--format $f differs"; }
done
if [ $crc -eq 1 ]; then
    "$PY" -m tensoralias verify --load-library "$TORCH_EXT" --cases 12 --timeout 5 --baseline "$tmp/cli.json" \
        --format json >"$tmp/base.json" 2>"$tmp/err" || { cat "$tmp/err"; fail "--baseline: exit status $?, expected 0"; }
    grep -q '"baseline":true' "$tmp/base.json" || fail "--baseline: no finding marked"
    "$PY" -m tensoralias verify --load-library "$TORCH_EXT" --cases 12 --baseline "$tmp/nope.json" >/dev/null 2>"$tmp/err"
    [ $? -eq 2 ] && grep -q "nope.json" "$tmp/err" || { cat "$tmp/err"; fail "unreadable --baseline: exit 2 naming it"; }
fi

# And ATen's own operators through the bridge: the command verifies them
# against the yaml, the package against the schemas its dispatcher holds
# (the same for Debian's torch and the bundled yaml); one has a finding.
# The text reports are the same but for the seconds.
aten="--ops aten::_cast_Float --ops aten::abs --ops aten::abs_ --cases 6 --timeout 5"
"$TA" verify --kernels torch --no-default-samples $aten --format json >"$tmp/cli.json" 2>/dev/null
crc=$?
"$PY" -m tensoralias verify $aten --format json >"$tmp/py.json" 2>/dev/null
prc=$?
[ $crc -eq 1 ] && [ $prc -eq 1 ] || fail "aten: exit status: the command $crc, python -m $prc, expected 1"
grep -q '"op":"aten::_cast_Float","verdict":"undeclared-alias"' "$tmp/cli.json" || { cat "$tmp/cli.json"; fail "aten: the finding"; }
cmp "$tmp/cli.json" "$tmp/py.json" || { diff "$tmp/cli.json" "$tmp/py.json"; fail "aten: --format json differs"; }
"$TA" verify --kernels torch --no-default-samples $aten -v 2>/dev/null | sed 's/ in [0-9.]* s:/ in S s:/' >"$tmp/cli.txt"
"$PY" -m tensoralias verify $aten -v 2>/dev/null | sed 's/ in [0-9.]* s:/ in S s:/' >"$tmp/py.txt"
cmp "$tmp/cli.txt" "$tmp/py.txt" || { diff "$tmp/cli.txt" "$tmp/py.txt"; fail "aten: the text report differs"; }

# The ctypes structures agree with the headers.
cd ../..
${CC:-cc} -std=c17 -Iinclude $(pkg-config --cflags igraph) tests/python/layout.c -o "$tmp/layout" || fail "layout.c"
"$tmp/layout" | "$PY" tests/python/check_layout.py || fail "ctypes layout"

# parse(): SchemaInfo's answers; check_sources(): the extracted schemas' diagnostics.
"$PY" - <<'PY' || fail "parse, check_sources"
import tensoralias as t
s = t.parse("mylib::op.out(Tensor(a) x, Tensor y, *, Tensor(b!) out) -> Tensor(b!)")
assert s.name == "mylib::op.out" and s.arguments == ["x", "y", "out"], (s.name, s.arguments)
assert s.is_mutable() and s.is_mutable("out") and not s.is_mutable("x") and s.mutable_arguments == ["out"]
assert s.may_alias("out", ("output", 0)) and not s.may_alias("y", ("output", 0)) and not s.is_view
assert [d.rule for d in s.diagnostics] == ["custom-set-once"], s.diagnostics
assert t.parse("mylib::v(Tensor(a) x) -> Tensor(a)").is_view
try:
    t.parse("mylib::op(Tensor x -> Tensor")
    raise AssertionError("parsed")
except t.SchemaError as e:
    assert e.diagnostics[0].rule == "schema-syntax" and e.diagnostics[0].col > 0, e
found = t.check_sources(["tests/torchext/taext.cpp"])
assert all(isinstance(d, t.Diagnostic) and d.file for d in found), found
print("parse and check_sources as expected")
PY
