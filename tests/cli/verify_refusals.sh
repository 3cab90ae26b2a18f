#!/bin/sh
# Refusals and crashes that say more (tests/plugins/refusekernels.c): an
# operator every case of which is refused as no input could run it is
# not-runnable (a note: skipped in JUnit, counted apart in the summary), one
# with a single case refused otherwise is not-exercised; a crash while the
# operator's screen (its Meta kernel) runs is reported as the Meta kernel's.
. "$(dirname "$0")/lib.sh"
PLUGIN=$BUILD/tests/plugins/librefusekernels.so
run() { # format options...
    f=$1; shift
    "$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops 'refuse::*' --cases 8 --format "$f" "$@" \
        >"$tmp/r.$f" 2>"$tmp/err"
}
run json
grep -q '^{"op":"refuse::cuda_only","verdict":"not-runnable","severity":"info","cases":8,"exercised":0' "$tmp/r.json" ||
    { cat "$tmp/r.json" "$tmp/err"; fail "cuda_only: not-runnable"; }
grep 'refuse::cuda_only' "$tmp/r.json" | grep -q 'no input can run it here (all 8 cases refused so): calls refuse::_cuda_impl, which has no CPU kernel' ||
    { grep cuda_only "$tmp/r.json"; fail "cuda_only: the reason"; }
grep -q '^{"op":"refuse::sometimes","verdict":"not-exercised"' "$tmp/r.json" ||
    { grep sometimes "$tmp/r.json"; fail "sometimes: not-exercised (an input of another dtype might run)"; }
grep 'refuse::meta_crash' "$tmp/r.json" | grep -q '"kind":"crash".*"message":"the Meta kernel of refuse::meta_crash (the screen run before its kernel) died of SIGSEGV' ||
    { grep meta_crash "$tmp/r.json"; fail "meta_crash: the crash is the Meta kernel's"; }

run text
tail -n 1 "$tmp/r.text" | grep -q '^3 operators (0 exercised: 0.0% of the 3 with a kernel, 0.0% of the 2 that can run), ' ||
    { cat "$tmp/r.text"; fail "the summary: exercised of those with a kernel and of those that can run"; }
grep -q 'refuse::cuda_only' "$tmp/r.text" && { cat "$tmp/r.text"; fail "a note is not listed without -v"; }

run junit
grep -q 'tests="3" failures="1" errors="0" skipped="2"' "$tmp/r.junit" ||
    { cat "$tmp/r.junit"; fail "JUnit: not-runnable and not-exercised skipped, the crash a failure"; }
run sarif
grep -q '"id": *"not-runnable"' "$tmp/r.sarif" || { head -c 2000 "$tmp/r.sarif"; fail "SARIF: the not-runnable rule"; }
exit 0
