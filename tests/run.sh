#!/bin/sh
# Runs every test of the suite and closes with one line: "N passed, N failed, N skipped".
#   build/tests/test_*   cmocka unit and golden tests (a test that cannot run prints why and exits 77)
#   tests/cli/*.sh       command-line tests; they get $TA (the command) and $BUILD
#                        (tests/cli/lib.sh is their shared preamble, not a test)
# T=PATTERN (make test T=...) runs only the tests whose name, the file name
# without .sh, matches the shell pattern: T=gates, T='test_alias_*'.
BUILD=${BUILD:-build}
TA=$(pwd)/$BUILD/tensoralias
export BUILD TA
pass=0; fail=0; skip=0; failed=""
run() {
    name=$1; shift
    case $(basename "$name" .sh) in ${T:-*}) ;; *) return ;; esac
    log=$BUILD/tests/log/$(basename "$name").log
    mkdir -p "$BUILD/tests/log"
    "$@" >"$log" 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then pass=$((pass+1)); echo "PASS  $name"
    elif [ $rc -eq 77 ]; then skip=$((skip+1)); echo "SKIP  $name: $(tail -n 1 "$log")"
    else fail=$((fail+1)); failed="$failed $name"; echo "FAIL  $name (exit $rc)"; tail -n 30 "$log" | sed 's/^/    /'
    fi
}
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    run "$t" "$t"
done
for t in tests/cli/*.sh; do
    [ -f "$t" ] && [ "$t" != tests/cli/lib.sh ] || continue
    run "$t" sh "$t"
done
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $((pass + fail + skip)) -gt 0 ] || { echo "no test is named like '${T:-}'"; exit 1; }
[ $fail -eq 0 ]
