#!/bin/sh
# `tensoralias autogen`: on the 1.13.1 yaml the derived schemas are torchgen
# 1.13.1's 459, in its order; JSON rows carry func/kind/from/line; the yaml
# form loads back; the bundled (main) yaml derives without errors; an
# autogen entry under the wrong name is an error (exit 1).
. "$(dirname "$0")/lib.sh"
Y=$BUILD/data/corpus/pytorch-1.13.1/native_functions.yaml
F=$BUILD/data/golden/torch-1.13.1/torchgen-functions.jsonl

# golden: "func" of every generated row (no quotes occur in those schemas)
sed -n 's/.*"func": "\([^"]*\)", "generated": true.*/\1/p' "$F" >"$tmp/want.txt"
[ "$(wc -l <"$tmp/want.txt")" -eq 459 ] || fail "golden extraction"

"$TA" autogen "$Y" >"$tmp/text" 2>"$tmp/err" || { cat "$tmp/err"; fail "autogen exit $?"; }
cut -f1 "$tmp/text" >"$tmp/got.txt"
diff "$tmp/want.txt" "$tmp/got.txt" >"$tmp/diff" || { head "$tmp/diff"; fail "derived schemas differ"; }
grep -q "$(printf '^add.Scalar_out(.*\tfrom add_.Scalar (line [0-9]*)$')" "$tmp/text" || fail "text form"

"$TA" autogen --format json "$Y" >"$tmp/json" 2>/dev/null || fail "json"
[ "$(wc -l <"$tmp/json")" -eq 459 ] || fail "json rows"
[ "$(grep -c '^{"func": ".*"kind": "\(out\|functional\)", "from": ".*"line": [0-9]' "$tmp/json")" -eq 459 ] ||
    fail "json fields"
grep -q '"name": "_fused_moving_avg_obs_fq_helper_functional", "kind": "functional", "from": "_fused_moving_avg_obs_fq_helper"' "$tmp/json" ||
    fail "mutable base naming"

"$TA" autogen --format yaml "$Y" >"$tmp/derived.yaml" 2>/dev/null || fail "yaml"
[ "$(grep -c '^- func: ' "$tmp/derived.yaml")" -eq 459 ] || fail "yaml entries"
# loads back cleanly (nothing there asks for autogen)
"$TA" autogen "$tmp/derived.yaml" >"$tmp/again" 2>"$tmp/err2" || { head "$tmp/err2"; fail "derived yaml does not load"; }
[ -s "$tmp/again" ] && fail "derived entries derive nothing more"

"$TA" autogen >"$tmp/main" 2>"$tmp/err" || { grep error: "$tmp/err" | head; fail "bundled yaml has errors"; }
[ "$(wc -l <"$tmp/main")" -gt 459 ] || fail "bundled yaml derivations"

printf -- '- func: w_(Tensor(a!) self) -> Tensor(a!)\n  dispatch:\n    CPU: w_\n  autogen: w, w.bad_out\n' >"$tmp/bad.yaml"
"$TA" autogen "$tmp/bad.yaml" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || fail "a wrong autogen name should exit 1"
grep -q "bad.yaml:4:15: error: autogen names 'w.bad_out', but torchgen derives 'w.out'" "$tmp/err" || { cat "$tmp/err"; fail "diagnostic"; }
# check runs the same derivation as a rule pass
"$TA" check "$tmp/bad.yaml" >"$tmp/out" 2>&1
[ $? -eq 1 ] || fail "check should report the wrong autogen name"
grep -q "bad.yaml:4:15: error: autogen names 'w.bad_out', but torchgen derives 'w.out' for 'w_' \[autogen-name-mismatch\]" "$tmp/out" ||
    { cat "$tmp/out"; fail "check diagnostic"; }
"$TA" check --format sarif "$tmp/bad.yaml" | grep -q '"id": "autogen-name-mismatch"' || fail "sarif rule catalogue"
"$TA" autogen --format csv "$Y" >/dev/null 2>&1
[ $? -eq 2 ] || fail "bad format should exit 2"
echo ok
