#!/bin/sh
# `tensoralias groups`: on the 1.13.1 yaml its JSON equals torchgen 1.13.1's
# groups byte for byte; the text form has one "kinds"/"view" line per group;
# the bundled yaml groups without errors; bad usage exits 2.
. "$(dirname "$0")/lib.sh"
Y=$BUILD/data/corpus/pytorch-1.13.1/native_functions.yaml
G=$BUILD/data/golden/torch-1.13.1/torchgen-groups.jsonl

"$TA" groups --format json "$Y" >"$tmp/g.jsonl" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || { cat "$tmp/err"; fail "groups --format json exit $rc"; }
cmp "$G" "$tmp/g.jsonl" || { diff "$G" "$tmp/g.jsonl" | head; fail "groups differ from torchgen"; }

"$TA" groups "$Y" >"$tmp/g.txt" 2>/dev/null || fail "groups (text) failed"
[ "$(wc -l <"$tmp/g.txt")" -eq 1190 ] || fail "want one line per group"
[ "$(grep -c "$(printf '^kinds\t')" "$tmp/g.txt")" -eq 1090 ] || fail "want 1090 kinds groups"
[ "$(grep -c "$(printf '^view\t')" "$tmp/g.txt")" -eq 100 ] || fail "want 100 view groups"
grep -qx "$(printf 'kinds\tabs(Tensor self) -> Tensor\tfunctional=abs inplace=abs_ out=abs.out')" "$tmp/g.txt" ||
    fail "abs group"
grep -qx "$(printf 'view\tas_strided\tview=as_strided view_copy=as_strided_copy view_inplace=as_strided_')" "$tmp/g.txt" ||
    fail "as_strided view group"

"$TA" groups --format json >"$tmp/main.jsonl" 2>"$tmp/err" || { cat "$tmp/err"; fail "bundled yaml"; }
[ -s "$tmp/main.jsonl" ] || fail "no groups for the bundled yaml"
grep -c 'error:' "$tmp/err" | grep -qx 0 || fail "errors on the bundled yaml"

"$TA" groups --help | grep -q 'usage: tensoralias groups' || fail "--help"
"$TA" groups --format xml "$Y" >/dev/null 2>&1
[ $? -eq 2 ] || fail "bad format should exit 2"
"$TA" groups "$tmp/missing.yaml" >/dev/null 2>&1
[ $? -eq 2 ] || fail "missing file should exit 2"
echo ok
