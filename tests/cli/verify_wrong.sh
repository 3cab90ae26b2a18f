#!/bin/sh
# verify catches every deliberately wrong kernel of tests/plugins/wrongkernels.c
# with the right verdict, passes the correct ones, and completes the run with
# every result despite a segfault, an abort and an endless loop.
. "$(dirname "$0")/lib.sh"
PLUGIN=$BUILD/tests/plugins/libwrongkernels.so

"$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops 'mylib::*' --cases 12 \
    --timeout 0.5 --jobs 2 --format json >"$tmp/r.json" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || { cat "$tmp/err"; fail "exit status $rc, expected 1"; }

expect() { # op verdict
    grep -q "^{\"op\":\"$1\",\"verdict\":\"$2\"" "$tmp/r.json" ||
        { grep "\"$1\"" "$tmp/r.json"; fail "$1: expected verdict $2"; }
}
expect 'mylib::good' ok
expect 'mylib::good_out.out' ok
expect 'mylib::writes_input' undeclared-mutation
expect 'mylib::returns_input' undeclared-alias
expect 'mylib::view_copy' view-returned-copy
expect 'mylib::out_new.out' out-not-returned
expect 'mylib::out_unwritten.out' out-not-written
expect 'mylib::inplace_new_' inplace-not-self
expect 'mylib::restrides' undeclared-metadata-mutation
expect 'mylib::segfault' crash
expect 'mylib::aborts' crash
expect 'mylib::hang' timeout
expect 'mylib::past_end' out-of-bounds
grep 'mylib::past_end' "$tmp/r.json" | grep -q '"message":"write at byte 0 past the end' || fail "past_end: a write"
grep 'mylib::left_past_end_' "$tmp/r.json" | grep -q '"kind":"out-of-bounds","severity":"error","argument":"self","seed":"0x[0-9a-f]*","message":"left_past_end: self now ends 4 bytes past its storage' ||
    { grep 'mylib::left_past_end_' "$tmp/r.json"; fail "left_past_end_: a finding on self, not a rejected case"; }
expect 'mylib::two_same' undeclared-output-alias
expect 'mylib::no_return' kernel-error
expect 'mylib::rejects' not-exercised
expect 'mylib::no_kernel' no-kernel
expect 'mylib::double_free' crash
# Every operator has its result: 19 lines.
[ "$(wc -l <"$tmp/r.json")" -eq 19 ] || fail "expected 19 results, got $(wc -l <"$tmp/r.json")"
grep -q '"argument":"self"' "$tmp/r.json" || fail "findings name their argument"
grep 'mylib::segfault' "$tmp/r.json" | grep -q 'SIGSEGV' || fail "the segfault names its signal"
grep 'mylib::aborts' "$tmp/r.json" | grep -q 'SIGABRT' || fail "the abort names its signal"
# What kernels print stays off the terminal; a crash's finding quotes its last lines.
grep -q 'rejects: a backtrace\|aborts: the heap' "$tmp/err" && { cat "$tmp/err"; fail "a kernel's output on verify's stderr"; }
grep 'mylib::aborts' "$tmp/r.json" | grep -q 'SIGABRT (abort) in case 0; it printed last: frame #0: somewhere | aborts: the heap is corrupt \[case:' ||
    { grep 'mylib::aborts' "$tmp/r.json"; fail "the abort's finding quotes what the kernel printed last"; }

# glibc's own fatal message goes to /dev/tty unless LIBC_FATAL_STDERR_ is
# set (Debian's glibc writes it to stderr either way): the child sets it
# (the kernel prints it), so on a terminal (script(1) gives the run one)
# nothing reaches it, and the finding quotes the message.
if command -v script >/dev/null 2>&1; then
    TA="$TA" PLUGIN="$PLUGIN" OUT="$tmp/df.json" script -qec \
        '"$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops mylib::double_free --cases 2 --format json >"$OUT" 2>/dev/null' \
        "$tmp/tty.log" >/dev/null 2>&1 </dev/null
    grep -q 'double free' "$tmp/tty.log" && { cat "$tmp/tty.log"; fail "glibc's message reached the terminal"; }
    grep -q 'SIGABRT (abort) in case 0; it printed last: LIBC_FATAL_STDERR_=1 | free(): double free detected' "$tmp/df.json" ||
        { cat "$tmp/df.json"; fail "double_free: the finding quotes glibc's message"; }
else
    echo "glibc's message on a terminal not checked: no script(1)"
fi

# A baseline holding these findings makes the run pass.
"$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops 'mylib::*' --cases 12 \
    --timeout 0.5 --jobs 2 --baseline "$tmp/r.json" >"$tmp/r.txt" 2>&1
rc=$?
[ $rc -eq 0 ] || { cat "$tmp/r.txt"; fail "with the baseline: exit $rc, expected 0"; }
grep -q 'in baseline' "$tmp/r.txt" || fail "text report marks baseline findings"

# Only the correct kernels: exit 0.
"$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops 'mylib::good*' >"$tmp/good.txt" 2>&1 ||
    { cat "$tmp/good.txt"; fail "correct kernels must pass"; }

# Trapped writes name the argument and element.
"$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops 'mylib::writes_input' --trap-writes \
    --format json >"$tmp/trap.json" 2>&1
grep -q 'trapped write' "$tmp/trap.json" || { cat "$tmp/trap.json"; fail "--trap-writes reports the trapped write"; }
grep -q '"verdict":"undeclared-mutation"' "$tmp/trap.json" || fail "trapped write verdict"

# A finding's seed replays the case.
seed=$(grep 'mylib::writes_input' "$tmp/r.json" | sed 's/.*"seed":"\(0x[0-9a-f]*\)".*/\1/')
"$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops 'mylib::writes_input' --case-seed "$seed" \
    --format json >"$tmp/replay.json" 2>&1
grep -q "\"seed\":\"$seed\"" "$tmp/replay.json" || { cat "$tmp/replay.json"; fail "replay by --case-seed"; }
grep -q '"cases":1,' "$tmp/replay.json" || fail "replay runs one case"

# SARIF and JUnit.
"$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops 'mylib::[rw]*' --format sarif >"$tmp/r.sarif"
grep -q '"version": "2.1.0"' "$tmp/r.sarif" || fail "SARIF version"
grep -q '"ruleId": "undeclared-mutation"' "$tmp/r.sarif" || fail "SARIF result"
"$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops 'mylib::[rw]*' --format junit >"$tmp/r.xml"
grep -q '<testcase classname="mylib" name="mylib::writes_input">' "$tmp/r.xml" || fail "JUnit testcase"
grep -q '<failure type="undeclared-mutation"' "$tmp/r.xml" || fail "JUnit failure"
grep -q '<skipped' "$tmp/r.xml" || fail "JUnit skipped (rejects)"

# Usage errors: exit 2.
"$TA" verify --format nope >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad --format exits 2"
"$TA" verify --kernels /nonexistent/lib.so >/dev/null 2>&1; [ $? -eq 2 ] || fail "missing plugin exits 2"
echo "verify_wrong: all verdicts caught"
