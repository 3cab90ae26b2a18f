#!/bin/sh
# tensoralias check and list from the command line: exit codes (0 clean, 1
# findings, 2 usage or I/O), the text format's caret and summary, JSON lines,
# SARIF basics (its full structure is checked in test_cli_report), list rows.
. "$(dirname "$0")/lib.sh"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
expect_rc() { # expected-code description command...
    want=$1; what=$2; shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq "$want" ] || { bad "$what: exit $rc, want $want"; sed 's/^/    /' "$tmp/err" | head -5; }
}
Y113=$BUILD/data/corpus/pytorch-1.13.1/native_functions.yaml
T113=tests/data/corpus/pytorch-1.13.1/tags.yaml
YMAIN=$BUILD/data/corpus/pytorch-main/native_functions.yaml
TMAIN=tests/data/corpus/pytorch-main/tags.yaml
BROKEN=tests/data/broken-yaml

# -- check: exit codes
expect_rc 0 "check bundled" "$TA" check
# (the alias pass reports a few warnings on PyTorch's own yaml; see tests/cli/check_alias.sh)
# Text diagnostics go to stderr, as a compiler's; notes only with --notes.
grep -q '^0 errors, [0-9]* warnings in .*native_functions.yaml$' "$tmp/err" || bad "bundled summary line"
[ ! -s "$tmp/out" ] || bad "check text writes nothing to stdout"
! grep -q ': note: ' "$tmp/err" || bad "no notes by default"
expect_rc 0 "check --notes" "$TA" check --notes
grep -q ': note: .*\[alias-autogen-implicit-composite\]' "$tmp/err" || bad "--notes shows notes"
grep -q '^0 errors, [0-9]* warnings, [0-9]* notes in .*native_functions.yaml$' "$tmp/err" || bad "--notes summary counts them"
expect_rc 0 "check 1.13.1" "$TA" check --tags "$T113" "$Y113"
expect_rc 0 "check main" "$TA" check --tags="$TMAIN" "$YMAIN"
expect_rc 1 "check broken" "$TA" check --tags "$TMAIN" "$BROKEN/dispatch-unknown-key.yaml"
printf -- '- func: f(Tensor(a) self, Tensor other) -> Tensor\n' >"$tmp/warn.yaml"
expect_rc 0 "check warnings only" "$TA" check "$tmp/warn.yaml"
grep -q '^0 errors, 1 warning in ' "$tmp/err" || bad "warning-only summary"
# What torchgen asserts against is an error: a key written twice, two overloads
# of one kind in one signature group.
expect_rc 1 "check duplicate key" "$TA" check "$BROKEN/entry-duplicate-key.yaml"
# A yaml longer than check's window of 4,096 entries: a delegate named before
# its target (structured, then not) and one naming nothing, and a name written
# again past the first window, reported as a whole-file check reports them.
{
    printf -- '- func: late(Tensor self) -> Tensor\n  structured_delegate: late.out\n'
    printf -- '- func: lost(Tensor self) -> Tensor\n  structured_delegate: nowhere.out\n'
    printf -- '- func: flat(Tensor self) -> Tensor\n  structured_delegate: flat.out\n'
    awk 'BEGIN { for (i = 0; i < 4100; i++) printf "- func: op_%d(Tensor self) -> Tensor\n  dispatch:\n    CPU: op_%d\n", i, i }'
    printf -- '- func: late.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n  structured: True\n'
    printf -- '  dispatch:\n    CPU: late_out\n'
    printf -- '- func: flat.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n  dispatch:\n    CPU: flat_out\n'
    printf -- '- func: op_0(Tensor self) -> Tensor\n  dispatch:\n    CPU: op_0b\n'
} >"$tmp/windows.yaml"
expect_rc 1 "check past one window" "$TA" check --format json "$tmp/windows.yaml"
[ "$(grep -c '"rule":"delegate-unknown"' "$tmp/out")" = 1 ] || bad "past one window: one unknown delegate"
grep -q '"line":4,"col":24,.*"rule":"delegate-unknown"' "$tmp/out" || bad "past one window: the unknown delegate's place"
grep -q '"line":6,"col":24,.*"rule":"delegate-not-structured"' "$tmp/out" || bad "past one window: a delegate not structured"
grep -q '"line":12314,"col":9,.*"rule":"overload-empty-twice".*first is on line 7;' "$tmp/out" ||
    bad "past one window: the name written again, with its first line"
[ "$(wc -l <"$tmp/out")" -eq 5 ] || bad "past one window: 5 findings (the group-duplicate pair too)"
printf -- '- func: foo.a(Tensor self) -> Tensor\n- func: foo.b(Tensor self) -> Tensor\n' >"$tmp/dupkind.yaml"
expect_rc 1 "check same kind twice in a group" "$TA" check "$tmp/dupkind.yaml"
grep -q "dupkind.yaml:2:3: error: 'foo.b' has the same signature and kind (functional) as 'foo.a'; torchgen stops at an assertion \[group-duplicate-kind\]" \
    "$tmp/err" || bad "group-duplicate-kind is an error"
expect_rc 2 "check missing file" "$TA" check "$tmp/nope.yaml"
grep -q 'nope.yaml' "$tmp/err" || bad "missing file not named on stderr"
expect_rc 2 "check missing tags" "$TA" check --tags "$tmp/nope-tags.yaml" "$Y113"
expect_rc 2 "check bad option" "$TA" check --frobnicate
expect_rc 2 "check bad format" "$TA" check --format xml "$Y113"
expect_rc 2 "check --tags without value" "$TA" check --tags
expect_rc 0 "check --help" "$TA" check --help
grep -q 'usage: tensoralias check' "$tmp/out" || bad "check --help text"

# -- check: text format with a caret under the bad key, and a hint
"$TA" check --tags "$TMAIN" "$BROKEN/dispatch-unknown-key.yaml" 2>"$tmp/out"
grep -q "dispatch-unknown-key.yaml:5:10: error: unknown dispatch key 'CUDAA' \[dispatch-unknown-key\]" "$tmp/out" ||
    bad "text diagnostic line"
grep -q '^           ^~~~~$' "$tmp/out" || bad "caret under CUDAA"
grep -q "hint: did you mean 'CUDA'?" "$tmp/out" || bad "hint"
grep -q '^1 error, 0 warnings in ' "$tmp/out" || bad "summary"

# -- tags.yaml beside the file is used when --tags is not given
mkdir "$tmp/beside"
cp "$BROKEN/tag-unknown.yaml" "$tmp/beside/native_functions.yaml"
expect_rc 0 "no tags.yaml: tags unchecked" "$TA" check "$tmp/beside/native_functions.yaml"
cp "$TMAIN" "$tmp/beside/tags.yaml"
expect_rc 1 "tags.yaml beside" "$TA" check "$tmp/beside/native_functions.yaml"
[ "$(grep -c '\[tag-unknown\]' "$tmp/err")" -eq 2 ] || bad "two tag-unknown with tags.yaml beside"

# -- stdin
"$TA" check - <"$BROKEN/overload-duplicate.yaml" 2>"$tmp/out"
[ $? -eq 1 ] || bad "check - exit"
grep -q '^<stdin>:7:9: error: .*\[overload-duplicate\]' "$tmp/out" || bad "check - diagnostics"

# -- JSON lines: one object per diagnostic
expect_rc 1 "check json" "$TA" check --format json --tags "$TMAIN" "$BROKEN/structured-misc.yaml"
[ "$(wc -l <"$tmp/out")" -eq 3 ] || bad "json: 3 lines"
n=$(grep -c '^{"file":"tests/data/broken-yaml/structured-misc.yaml","line":[0-9]*,"col":[0-9]*,"severity":"error","rule":"[a-z-]*","message":".*","hint":.*}$' "$tmp/out")
[ "$n" -eq 3 ] || bad "json: object shape ($n of 3)"

# -- SARIF
expect_rc 1 "check sarif" "$TA" check --format sarif --tags "$TMAIN" "$BROKEN/tag-unknown.yaml"
grep -q '"version": "2.1.0"' "$tmp/out" || bad "sarif version"
[ "$(grep -c '"ruleId": "tag-unknown"' "$tmp/out")" -eq 2 ] || bad "sarif results"
grep -q '"startLine": 7' "$tmp/out" || bad "sarif region"
expect_rc 0 "check sarif clean" "$TA" check --format sarif --tags "$T113" "$Y113"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]["results"]; sys.exit(any(x.get("level") == "error" for x in r))' "$tmp/out" || bad "sarif clean results"

# -- list
expect_rc 0 "list 1.13.1 json" "$TA" list --format json "$Y113"
# the yaml's 2493 functions, then the 459 torchgen derives for autogen:
[ "$(wc -l <"$tmp/out")" -eq 2952 ] || bad "list json: 2952 rows"
head -n 1 "$tmp/out" | grep -q '^{"func": "_cast_Byte(Tensor self, bool non_blocking=False) -> Tensor", "name": "_cast_Byte", "line": 9, ' ||
    bad "list json first row"
grep -q '"name": "abs.out", "line": 308, ' "$tmp/out" || bad "list json abs.out"
expect_rc 0 "list bundled text" "$TA" list
# main's 2675 functions and the 520 derived ones
[ "$(wc -l <"$tmp/out")" -eq 3195 ] || bad "list text: 3195 rows of main"
grep -q "^[0-9]*	abs.out	abs.out(Tensor self, \*, Tensor(a!) out) -> Tensor(a!)	" "$tmp/out" || bad "list text row"
expect_rc 1 "list broken" "$TA" list "$BROKEN/entry-no-func.yaml"
[ "$(wc -l <"$tmp/out")" -eq 1 ] || bad "list broken: the readable entry is listed"
grep -q 'entry-no-func' "$tmp/err" || bad "list broken: diagnostic on stderr"
expect_rc 2 "list missing" "$TA" list "$tmp/nope.yaml"
expect_rc 2 "list bad format" "$TA" list --format sarif "$Y113"
expect_rc 0 "list --help" "$TA" list --help

exit $fail
