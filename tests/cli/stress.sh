#!/bin/sh
# tests/cli/stress.sh - the command on hostile inputs at sizes that run in
# about a second, each checking the bound that keeps it in time and memory
# (the full-size runs, with time and peak memory, are tools/stress.sh).
# Needs $TA (the command) and $BUILD.
. "$(dirname "$0")/lib.sh"

# 1. parse --json of a schema with 600 arguments in one alias set: 180,000
#    may_alias pairs, cut at --max-pairs (default 10,000) with
#    "pairs_truncated" and a warning; --max-pairs 0 lists them all.
python3 -c '
print("foo(" + ", ".join("Tensor(a) a%d" % i for i in range(600)) + ") -> Tensor(a)")' > "$tmp/wide.txt" \
    || fail "python3 could not write the input"
"$TA" parse --json - < "$tmp/wide.txt" > "$tmp/out" 2> "$tmp/err" || fail "parse --json exited $?"
[ "$(grep -o '\["in",' "$tmp/out" | wc -l)" -eq 20000 ] || fail "expected 10,000 pairs in each list"
grep -q '"pairs_truncated":true}$' "$tmp/out" || fail "no pairs_truncated on a cut list"
grep -q 'warning: may_alias lists cut at 10000 pairs' "$tmp/err" || fail "no warning for a cut list: $(cat "$tmp/err")"
"$TA" parse --json --max-pairs 0 - < "$tmp/wide.txt" > "$tmp/out" 2> "$tmp/err" || fail "--max-pairs 0 exited $?"
# 600 inputs and one output in one set: every pair of the 601 slots
[ "$(grep -o '\["in",' "$tmp/out" | wc -l)" -eq $((601 * 600)) ] || fail "--max-pairs 0 did not list every pair"
grep -q 'pairs_truncated' "$tmp/out" && fail "pairs_truncated without a cut"
[ -s "$tmp/err" ] && fail "a warning without a cut: $(cat "$tmp/err")"
python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' < "$tmp/out" || fail "not JSON"
"$TA" parse --json --max-pairs -3 'a() -> ()' > /dev/null 2>&1
[ $? -eq 2 ] || fail "--max-pairs -3 is not a usage error"

# 2. Endless input stops at the input limit with an "io" error, exit 2.
"$TA" check /dev/zero > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] || fail "check /dev/zero: expected exit 2"
grep -q 'larger than 64 MiB' "$tmp/out" "$tmp/err" || fail "check /dev/zero: no limit error"
"$TA" check - < /dev/zero > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] || fail "check - < /dev/zero: expected exit 2"
grep -q 'cannot read standard input: File too large' "$tmp/out" "$tmp/err" || fail "check - < /dev/zero: no limit error"

# 3. 100,000 levels of '[': one yaml-too-deep, and the line shown is an
#    excerpt around the column.
python3 -c 'print("[" * 100000)' > "$tmp/deep.yaml"
"$TA" check "$tmp/deep.yaml" > "$tmp/out" 2> "$tmp/err"
[ $? -eq 1 ] || fail "deep yaml: expected exit 1"
[ "$(grep -c 'error:' "$tmp/out" "$tmp/err" | awk -F: '{s+=$2} END {print s}')" -eq 1 ] || fail "deep yaml: not exactly one error"
grep -q 'yaml-too-deep' "$tmp/out" "$tmp/err" || fail "deep yaml: no yaml-too-deep"
[ "$(cat "$tmp/out" "$tmp/err" | wc -c)" -lt 1000 ] || fail "deep yaml: the output is not bounded"

exit 0
