#!/bin/sh
# Every reproduction of tests/data/torch/aten-2.15.0-repros.py still reproduces its ATen bug in torch
# 2.15.0 (docs/aten-findings.md), where a Python with torch 2.15.0 is found ($TA_TORCH_PYTHON, else
# python3 or /usr/bin/python3); and every one of extensions-2.14.1-repros.py its fbgemm-gpu-cpu 1.9.0
# or torchvision 0.29.2 bug in torch 2.14.1, where $TA_TORCH_EXT_PYTHON imports that torch, fbgemm_gpu
# and torchvision. Each part is skipped with the reason otherwise (they need `pip install`s of 1-3 GB:
# not in CI).
. "$(dirname "$0")/lib.sh"
D=tests/data/torch
ran=0
# run PYTHON VERSION SCRIPT: the script's reproductions, if PYTHON imports torch VERSION
run() {
    v=$("$1" -c 'import torch; print(torch.__version__)' 2>/dev/null) || return 1
    case $v in "$2"*) ;; *) return 1 ;; esac
    "$1" -W ignore "$D/$3" >"$tmp/repros.txt" 2>"$tmp/repros.err" ||
        { cat "$tmp/repros.txt"; fail "a reproduction of $3 no longer reproduces in torch $v"; }
    echo "$3: $(grep -c ': reproduces' "$tmp/repros.txt") reproduce in torch $v"
    ran=1
}
for py in ${TA_TORCH_PYTHON:-} python3 /usr/bin/python3; do
    run "$py" 2.15.0 aten-2.15.0-repros.py && break
done
[ $ran = 1 ] || echo "aten-2.15.0-repros.py: skipped: it needs torch 2.15.0 (set TA_TORCH_PYTHON to a Python with pip install torch==2.15.0)"
if [ -n "${TA_TORCH_EXT_PYTHON:-}" ] && run "$TA_TORCH_EXT_PYTHON" 2.14.1 extensions-2.14.1-repros.py; then :; else
    echo "extensions-2.14.1-repros.py: skipped: it needs TA_TORCH_EXT_PYTHON, a Python with torch 2.14.1, fbgemm_gpu 1.9.0 and torchvision 0.29.2"
fi
[ $ran = 1 ] || exit 77
exit 0
