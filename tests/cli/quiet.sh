#!/bin/sh
# A quiet, useful default (issue 15): errors and warnings by default, notes
# with --notes/-v, verify's ok lines with -v, summaries counted in the
# singular when there is one, colour only when asked or on a terminal,
# carets under the right character after UTF-8, binary files named as
# such, and an exit status in every --help.
. "$(dirname "$0")/lib.sh"

# verify: findings and one summary line; the ok lines with -v.
"$TA" verify --ops 'aten::abs*' --cases 3 >"$tmp/v.txt" 2>"$tmp/v.err" || fail "verify abs clean"
[ "$(wc -l <"$tmp/v.txt")" -eq 1 ] || { cat "$tmp/v.txt"; fail "one summary line by default"; }
grep -q '^[0-9]* operators\( ([0-9]* exercised)\)\?, [0-9]* cases\( ([0-9]* not accepted)\)\? in [0-9.]* s: [0-9]* ok, [0-9]* no-kernel$' "$tmp/v.txt" ||
    { cat "$tmp/v.txt"; fail "summary"; }
[ ! -s "$tmp/v.err" ] || { cat "$tmp/v.err"; fail "nothing on stderr off a terminal"; }
"$TA" verify --ops 'aten::abs.out' --cases 1 -v >"$tmp/v1.txt" || fail "verify -v"
grep -q '^aten::abs.out: ok (1 case, 1 exercised)$' "$tmp/v1.txt" || { cat "$tmp/v1.txt"; fail "-v shows ok lines, singular"; }
grep -q '^1 operator, 1 case in ' "$tmp/v1.txt" || { cat "$tmp/v1.txt"; fail "singular summary"; }
# A finding is shown without -v.
PLUGIN=$BUILD/tests/plugins/libwrongkernels.so
"$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops 'mylib::writes_input' --cases 2 >"$tmp/w.txt"
[ $? -eq 1 ] || fail "a finding fails the run"
grep -q '^mylib::writes_input: undeclared-mutation' "$tmp/w.txt" || { cat "$tmp/w.txt"; fail "finding shown"; }

# A finding describes the arguments as they were before the call, not as a
# restriding kernel left them.
"$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops 'mylib::restrides' --cases 3 >"$tmp/r.txt"
# the sizes before '->' are the case's own (the kernel leaves sizes [1])
line=$(grep -m1 'metadata changed: sizes \[' "$tmp/r.txt")
before=$(printf '%s\n' "$line" | sed -n 's/.*metadata changed: sizes \[\([0-9, ]*\)\].* -> sizes \[1\].*/\1/p' | tr -d ' ')
shown=$(printf '%s\n' "$line" | sed -n 's/.*\[case: self=[a-z0-9]*\[\([0-9,]*\)\].*/\1/p')
[ -n "$before" ] && [ "$before" = "$shown" ] && [ "$before" != 1 ] ||
    { cat "$tmp/r.txt"; fail "the case as it was before the call"; }

# Colour: never when piped (auto), always when asked, NO_COLOR honoured.
printf -- '- func: abs(Tensor self) -> Tensor\n  dispach: x\n' >"$tmp/bad.yaml"
"$TA" check "$tmp/bad.yaml" 2>"$tmp/plain.err"
! grep -q "$(printf '\033')" "$tmp/plain.err" || fail "no colour when piped"
"$TA" check --color=always "$tmp/bad.yaml" 2>"$tmp/color.err"
grep -q "$(printf '\033\\[1;31m')error:" "$tmp/color.err" || { cat -v "$tmp/color.err"; fail "--color=always"; }
"$TA" --color=always check "$tmp/bad.yaml" 2>"$tmp/color2.err"
cmp -s "$tmp/color.err" "$tmp/color2.err" || fail "--color before the command"
NO_COLOR=1 "$TA" check --color=auto "$tmp/bad.yaml" 2>"$tmp/nc.err"
! grep -q "$(printf '\033')" "$tmp/nc.err" || fail "NO_COLOR"
"$TA" check --color=never "$tmp/bad.yaml" 2>"$tmp/never.err"
cmp -s "$tmp/plain.err" "$tmp/never.err" || fail "--color=never"
"$TA" check --color=sometimes "$tmp/bad.yaml" 2>/dev/null; [ $? -eq 2 ] || fail "a bad --color is a usage error"
if command -v script >/dev/null 2>&1; then
    script -qec "\"$TA\" check \"$tmp/bad.yaml\"" /dev/null >"$tmp/tty.out" 2>&1
    grep -q "$(printf '\033')" "$tmp/tty.out" || echo "note: no colour seen through script(1); skipped"
fi

# The caret lands under the character after multibyte UTF-8 (columns are bytes).
"$TA" parse 'mylib::f(str s="é", Tensor(a! self) -> Tensor' 2>"$tmp/u.err"; [ $? -eq 1 ] || fail "bad schema exit 1"
grep -q '^<arg 1>:1:32: error:' "$tmp/u.err" || { cat "$tmp/u.err"; fail "byte column"; }
grep -q '^'"$(printf '%32s' '')"'\^~~~$' "$tmp/u.err" || { cat "$tmp/u.err"; fail "caret under self, not a column right of it"; }

# A binary file is reported as binary, not printed.
printf 'abc\0\001\377\n' >"$tmp/bin.yaml"
"$TA" check "$tmp/bin.yaml" 2>"$tmp/bin.err"; [ $? -eq 1 ] || fail "binary file: exit 1"
grep -q 'bin.yaml: error: a binary file, not yaml \[yaml-binary\]' "$tmp/bin.err" || { cat "$tmp/bin.err"; fail "binary"; }
[ "$(wc -l <"$tmp/bin.err")" -eq 2 ] || { cat -v "$tmp/bin.err"; fail "only the diagnostic and the summary"; }

# Control bytes and bytes that are no UTF-8 are shown as '?' in a quoted
# source line, one column each, so the caret still lines up.
printf 'a::b(Tensor \377\001x) -> Tensor\n' | "$TA" parse - >/dev/null 2>"$tmp/ctl.err"
grep -q '^  a::b(Tensor ??x) -> Tensor$' "$tmp/ctl.err" || { cat -v "$tmp/ctl.err"; fail "bytes shown as ?"; }
grep -q '^              \^$' "$tmp/ctl.err" || { cat -v "$tmp/ctl.err"; fail "caret under the first of them"; }

# autogen: its notes (autogen-ignored) only with --notes.
"$TA" autogen >/dev/null 2>"$tmp/ag.err"
! grep -q ': note: ' "$tmp/ag.err" || fail "autogen: no notes by default"
"$TA" autogen --notes >/dev/null 2>"$tmp/ag.err"
grep -q ': note: .*\[autogen-ignored\]' "$tmp/ag.err" || fail "autogen --notes"

# Every --help states the exit statuses.
for c in parse check list graph verify groups autogen extract graph-alias; do
    "$TA" $c --help | grep -q 'Exit status' || fail "$c --help states the exit statuses"
done
"$TA" --help | grep -q 'Exit status' || fail "--help states the exit statuses"
echo "quiet: ok"
