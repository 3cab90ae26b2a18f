#!/bin/sh
# Every reproduction of tests/data/torch/aten-2.15.0-repros.py still reproduces its ATen bug in torch
# 2.15.0 (docs/aten-findings.md), where a Python with torch 2.15.0 is found ($TA_TORCH_PYTHON, else
# python3 or /usr/bin/python3); skipped with the reason otherwise (it needs `pip install
# torch==2.15.0`, 3 GB with its CUDA wheels: not in CI).
. "$(dirname "$0")/lib.sh"
D=tests/data/torch
for py in ${TA_TORCH_PYTHON:-} python3 /usr/bin/python3; do
    v=$("$py" -c 'import torch; print(torch.__version__)' 2>/dev/null) || continue
    case $v in 2.15.0*) ;; *) continue ;; esac
    "$py" -W ignore "$D/aten-2.15.0-repros.py" >"$tmp/repros.txt" 2>"$tmp/repros.err" ||
        { cat "$tmp/repros.txt"; fail "a reproduction no longer reproduces in torch $v"; }
    grep -c ': reproduces' "$tmp/repros.txt"
    exit 0
done
echo "skipped: the reproductions need torch 2.15.0 (set TA_TORCH_PYTHON to a Python with pip install torch==2.15.0)"
exit 77
