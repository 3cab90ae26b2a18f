#!/bin/sh
# cuda.sh - `tensoralias verify --device cuda`: without a GPU it must stop at
# once with exit status 2 and say plainly that no CUDA device is available
# (the message comes from the CUDA library's `available`). With a GPU the run
# must get past that point. Then the same command on the library's host
# emulation, with its kernels loaded: all of them verify clean.
. "$(dirname "$0")/lib.sh"
lib="$BUILD/libtensoralias_cuda.so"
if [ ! -f "$lib" ]; then
    echo "$lib was not built (no nvcc, or make CUDA=0)"
    exit 77
fi
if ! "$TA" verify --help >/dev/null 2>&1; then
    echo "this tensoralias has no verify command yet"
    exit 77
fi
out=$tmp/out
unset TA_CUDA_EMULATE
"$TA" verify --device cuda >"$out" 2>&1
rc=$?
cat "$out"
if grep -q "no CUDA device is available" "$out"; then
    [ $rc -eq 2 ] || fail "no device, but exit status $rc instead of 2"
    grep -q "cudaGetDeviceCount" "$out" || fail "the message does not say what CUDA answered"
else
    # A machine with a GPU: the run may find things (1) but must not fail to start.
    [ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "verify --device cuda exited $rc"
fi

# The whole command path with the CUDA reference kernels, on the library's
# host emulation (TA_CUDA_EMULATE=1): every one of them must verify clean.
TA_CUDA_EMULATE=1 "$TA" verify --device cuda --no-default-kernels --kernels "$lib" --ops 'aten::*' \
    --cases 30 --jobs 2 >"$out" 2>&1
rc=$?
tail -n 1 "$out"
[ $rc -eq 0 ] || { echo "FAIL: emulated verify --device cuda exited $rc"; grep -v no-kernel "$out" | head -40; exit 1; }
ok=$(tail -n 1 "$out" | grep -Eo '[0-9]+ ok' | cut -d' ' -f1)
[ "${ok:-0}" -ge 91 ] || fail "only ${ok:-0} operators verified ok, expected the 91 CUDA kernels"
if tail -n 1 "$out" | grep -Eq 'error|crash|warning'; then
    fail "findings in the emulated run"
fi

# Without --kernels, --device cuda loads the CUDA reference kernels from the
# device library itself: the same operators verify ok.
TA_CUDA_EMULATE=1 "$TA" verify --device cuda --cases 10 --jobs 2 >"$out" 2>&1
rc=$?
tail -n 1 "$out"
[ $rc -eq 0 ] || fail "emulated verify --device cuda (default kernels) exited $rc"
ok=$(tail -n 1 "$out" | grep -Eo '[0-9]+ ok' | cut -d' ' -f1)
[ "${ok:-0}" -ge 91 ] || fail "default kernels on cuda: only ${ok:-0} ok, expected the CUDA kernels"
exit 0
