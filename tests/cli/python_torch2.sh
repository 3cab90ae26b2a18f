#!/bin/sh
# The Python package under a torch 2.x (a venv named by $TA_TORCH_VENV, e.g.
# one made with `python3 -m venv V && V/bin/pip install torch pytest`, whose
# bridge `make TORCH=<its torch folder>` has built): the operators of
# tests/python/pyops_custom.py, defined with torch.library.custom_op and
# register_fake, verified through `python -m tensoralias`, the Python API
# and the pytest plugin, each verdict as expected; and pyops.py's
# torch.library.Library operators through `python -m tensoralias`.
. "$(dirname "$0")/lib.sh"
[ -n "${TA_TORCH_VENV:-}" ] || { echo "skipped: TA_TORCH_VENV names no venv with torch 2.x"; exit 77; }
[ -z "${SAN:-}" ] || { echo "skipped: a sanitizer build's library cannot be loaded into Python"; exit 77; }
PY=$TA_TORCH_VENV/bin/python
dir=$("$PY" -c 'import os, torch; assert hasattr(torch.library, "custom_op"); print(os.path.dirname(torch.__file__))' 2>/dev/null) ||
    { echo "skipped: $PY has no torch with torch.library.custom_op (2.4 and later)"; exit 77; }
key=$(sh tools/torch-config.sh "$dir" key) || fail "torch-config.sh $dir"
[ -f "$BUILD/torch/$key/libtensoralias_torch.so" ] ||
    { echo "skipped: no bridge for $key in $BUILD (make TORCH=$dir)"; exit 77; }
case $BUILD in /*) TENSORALIAS_BUILD=$BUILD ;; *) TENSORALIAS_BUILD=$(pwd)/$BUILD ;; esac
PYTHONPATH=$(pwd)/python:$(pwd)/tests/python
export TENSORALIAS_BUILD PYTHONPATH PYTHONWARNINGS=ignore
cd tests/python

"$PY" -m tensoralias verify --import pyops_custom --format json >"$tmp/c.json" 2>"$tmp/err"
[ $? -eq 1 ] || { cat "$tmp/err"; fail "custom_op: exit status, expected 1"; }
"$PY" check_verdicts.py pyops_custom "$tmp/c.json" || fail "custom_op: python -m tensoralias verify"
grep '"tapy2::leaky_view"' "$tmp/c.json" | grep -q 'must not also be an input\|view size is not compatible' ||
    fail "leaky_view: torch's own refusal as the reason"
"$PY" check_verdicts.py pyops_custom --api || fail "custom_op: tensoralias.verify()"
"$PY" -m tensoralias verify --import pyops --format json >"$tmp/l.json" 2>"$tmp/err"
"$PY" check_verdicts.py pyops "$tmp/l.json" || fail "torch.library.Library on torch 2.x"
if "$PY" -c 'import pytest' 2>/dev/null; then
    "$PY" -m pytest -p tensoralias.pytest_plugin -p no:cacheprovider -q --tensoralias-import pyops_custom \
        --junitxml "$tmp/c.xml" "$tmp" >"$tmp/p.txt" 2>&1
    "$PY" check_junit.py pyops_custom "$tmp/c.xml" || { cat "$tmp/p.txt"; fail "custom_op: the pytest plugin"; }
else
    echo "note: $PY has no pytest: the plugin's part is not run"
fi
echo "torch $("$PY" -c 'import torch; print(torch.__version__)'): as expected"
