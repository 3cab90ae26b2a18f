#!/bin/sh
# Refusals and crashes that say more (tests/plugins/refusekernels.c): an
# operator every case of which is refused as no input could run it is
# not-runnable (a note: skipped in JUnit, counted apart in the summary; once
# a search met only such refusals, its later cases are not searched), one
# with a single case refused otherwise is not-exercised; a crash while the
# operator's screen (its Meta kernel) runs is reported as the Meta kernel's;
# the children that go on after one that died share one discovery budget.
. "$(dirname "$0")/lib.sh"
PLUGIN=$BUILD/tests/plugins/librefusekernels.so
run() { # format options...
    f=$1; shift
    "$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops 'refuse::[cms]*' --cases 8 --format "$f" "$@" \
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

# after one search that met only such refusals, later cases are not searched
calls() { "$TA" verify -v --no-default-kernels --kernels "$PLUGIN" --ops 'refuse::cuda_only' --cases "$1" 2>&1 >/dev/null |
    sed -n 's/^discovery: \([0-9]*\) calls.*/\1/p'; }
c8=$(calls 8) c24=$(calls 24)
[ -n "$c8" ] && [ "$c8" = "$c24" ] || fail "cuda_only: discovery calls grow with the cases ($c8 for 8, $c24 for 24)"

# An operator whose children die one after another: the children that go
# on after each share one discovery budget (400 calls; 733 when each child
# had its own).
late=$("$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops 'refuse::late_crash' --cases 40 --format json 2>"$tmp/err")
echo "$late" | grep -q '"verdict":"crash"' || { echo "$late"; cat "$tmp/err"; fail "late_crash: its crash found"; }
n=$(echo "$late" | sed -n 's/.*"calls":\([0-9]*\).*/\1/p')
[ -n "$n" ] && [ "$n" -le 400 ] && [ "$n" -ge 300 ] || { echo "$late"; fail "late_crash: one discovery budget across its children ($n calls)"; }

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
