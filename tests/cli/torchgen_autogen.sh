#!/bin/sh
# `tensoralias autogen`: on the 1.13.1 yaml the derived schemas are torchgen
# 1.13.1's 459, in its order; JSON rows carry func/kind/from/line; the yaml
# form loads back; the bundled (main) yaml derives without errors; an
# autogen entry under the wrong name is an error (exit 1).
set -u
Y=$BUILD/data/corpus/pytorch-1.13.1/native_functions.yaml
F=$BUILD/data/golden/torch-1.13.1/torchgen-functions.jsonl
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# golden: "func" of every generated row (no quotes occur in those schemas)
sed -n 's/.*"func": "\([^"]*\)", "generated": true.*/\1/p' "$F" >"$t/want.txt"
[ "$(wc -l <"$t/want.txt")" -eq 459 ] || fail "golden extraction"

"$TA" autogen "$Y" >"$t/text" 2>"$t/err" || { cat "$t/err"; fail "autogen exit $?"; }
cut -f1 "$t/text" >"$t/got.txt"
diff "$t/want.txt" "$t/got.txt" >"$t/diff" || { head "$t/diff"; fail "derived schemas differ"; }
grep -q "$(printf '^add.Scalar_out(.*\tfrom add_.Scalar (line [0-9]*)$')" "$t/text" || fail "text form"

"$TA" autogen --format json "$Y" >"$t/json" 2>/dev/null || fail "json"
[ "$(wc -l <"$t/json")" -eq 459 ] || fail "json rows"
[ "$(grep -c '^{"func": ".*"kind": "\(out\|functional\)", "from": ".*"line": [0-9]' "$t/json")" -eq 459 ] ||
    fail "json fields"
grep -q '"name": "_fused_moving_avg_obs_fq_helper_functional", "kind": "functional", "from": "_fused_moving_avg_obs_fq_helper"' "$t/json" ||
    fail "mutable base naming"

"$TA" autogen --format yaml "$Y" >"$t/derived.yaml" 2>/dev/null || fail "yaml"
[ "$(grep -c '^- func: ' "$t/derived.yaml")" -eq 459 ] || fail "yaml entries"
# loads back cleanly (nothing there asks for autogen)
"$TA" autogen "$t/derived.yaml" >"$t/again" 2>"$t/err2" || { head "$t/err2"; fail "derived yaml does not load"; }
[ -s "$t/again" ] && fail "derived entries derive nothing more"

"$TA" autogen >"$t/main" 2>"$t/err" || { grep error: "$t/err" | head; fail "bundled yaml has errors"; }
[ "$(wc -l <"$t/main")" -gt 459 ] || fail "bundled yaml derivations"

printf -- '- func: w_(Tensor(a!) self) -> Tensor(a!)\n  dispatch:\n    CPU: w_\n  autogen: w, w.bad_out\n' >"$t/bad.yaml"
"$TA" autogen "$t/bad.yaml" >/dev/null 2>"$t/err"
[ $? -eq 1 ] || fail "a wrong autogen name should exit 1"
grep -q "bad.yaml:4:15: error: autogen names 'w.bad_out', but torchgen derives 'w.out'" "$t/err" || { cat "$t/err"; fail "diagnostic"; }
# check runs the same derivation as a rule pass
"$TA" check "$t/bad.yaml" >"$t/out" 2>&1
[ $? -eq 1 ] || fail "check should report the wrong autogen name"
grep -q "bad.yaml:4:15: error: autogen names 'w.bad_out', but torchgen derives 'w.out' for 'w_' \[autogen-name-mismatch\]" "$t/out" ||
    { cat "$t/out"; fail "check diagnostic"; }
"$TA" check --format sarif "$t/bad.yaml" | grep -q '"id": "autogen-name-mismatch"' || fail "sarif rule catalogue"
"$TA" autogen --format csv "$Y" >/dev/null 2>&1
[ $? -eq 2 ] || fail "bad format should exit 2"
echo ok
