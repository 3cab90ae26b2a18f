#!/bin/sh
# The pytest plugin under Debian's torch: `pytest --tensoralias-import pyops`
# makes a test item per operator of tests/python/pyops.py (a clean one
# passes, a broken one fails with its finding, seed and replay command);
# --tensoralias-ops selects, -k deselects, a baseline's findings pass; and inside a test file, the
# tensoralias_verify fixture and the tensoralias marker
# (tests/python/test_in_file.py, every test of which must pass).
. "$(dirname "$0")/lib.sh"
need_python_torch
"$PY" -c 'import pytest' 2>/dev/null || { echo "skipped: $PY has no pytest (apt-get install python3-pytest)"; exit 77; }
cd tests/python
PLUGIN="-p tensoralias.pytest_plugin -p no:cacheprovider"

"$PY" -m pytest $PLUGIN -q --tensoralias-import pyops --junitxml "$tmp/ops.xml" "$tmp" >"$tmp/ops.txt" 2>&1
rc=$?
[ $rc -eq 1 ] || { cat "$tmp/ops.txt"; fail "pytest --tensoralias-import pyops: exit status $rc, expected 1"; }
"$PY" check_junit.py pyops "$tmp/ops.xml" || fail "pytest: the operators' items"

# Selected by pattern, and by -k among them: one clean item passes.
"$PY" -m pytest $PLUGIN -q --tensoralias-import pyops --tensoralias-ops 'tapy::*' -k add_one --tensoralias-cases 8 \
    "$tmp" >"$tmp/k.txt" 2>&1 || { cat "$tmp/k.txt"; fail "pytest -k add_one: exit status $?"; }
grep -q '^1 passed, 10 deselected' "$tmp/k.txt" || { cat "$tmp/k.txt"; fail "pytest -k: one item"; }
"$PY" -m pytest $PLUGIN -q --tensoralias-ops 'nope::*' "$tmp" >"$tmp/n.txt" 2>&1
[ $? -eq 4 ] && grep -q 'no operator matches nope::\*' "$tmp/n.txt" || { cat "$tmp/n.txt"; fail "no match: a usage error"; }

# A broken operator whose findings a baseline holds passes.
"$PY" -m tensoralias verify --import pyops --ops 'tapy::sneaky' --cases 8 --format json >"$tmp/sneaky.json" 2>/dev/null
"$PY" -m pytest $PLUGIN -q --tensoralias-import pyops --tensoralias-ops 'tapy::sneaky' --tensoralias-cases 8 \
    --tensoralias-baseline "$tmp/sneaky.json" "$tmp" >"$tmp/b.txt" 2>&1 || { cat "$tmp/b.txt"; fail "baseline: exit status $?"; }
grep -q '^1 passed' "$tmp/b.txt" || { cat "$tmp/b.txt"; fail "baseline: the item passes"; }

"$PY" -m pytest $PLUGIN -q test_in_file.py >"$tmp/in.txt" 2>&1 || { cat "$tmp/in.txt"; fail "test_in_file.py"; }
grep -q '^4 passed, 2 xfailed' "$tmp/in.txt" || { cat "$tmp/in.txt"; fail "test_in_file.py: 4 passed, 2 xfailed"; }
echo "pytest plugin as expected"
