#!/bin/sh
# cuda.sh - `tensoralias verify --device cuda`: without a GPU it must stop at
# once with exit status 2 and say plainly that no CUDA device is available
# (the message comes from the CUDA library's `available`). With a GPU the run
# must get past that point.
set -u
lib="$BUILD/libtensoralias_cuda.so"
if [ ! -f "$lib" ]; then
    echo "$lib was not built (no nvcc, or make CUDA=0)"
    exit 77
fi
if ! "$TA" verify --help >/dev/null 2>&1; then
    echo "this tensoralias has no verify command yet"
    exit 77
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$TA" verify --device cuda >"$out" 2>&1
rc=$?
cat "$out"
if grep -q "no CUDA device is available" "$out"; then
    [ $rc -eq 2 ] || { echo "FAIL: no device, but exit status $rc instead of 2"; exit 1; }
    grep -q "cudaGetDeviceCount" "$out" || { echo "FAIL: the message does not say what CUDA answered"; exit 1; }
    exit 0
fi
# A machine with a GPU: the run may find things (1) but must not fail to start.
[ $rc -eq 0 ] || [ $rc -eq 1 ] || { echo "FAIL: verify --device cuda exited $rc"; exit 1; }
exit 0
