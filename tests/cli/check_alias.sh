#!/bin/sh
# tensoralias check runs the alias rules: zero errors on both PyTorch corpora,
# and exactly the alias warnings judged in the alias engineer's report
# (1.13.1: _amp_update_scale_; main: _amp_update_scale_, rrelu_with_noise_,
# two fbgemm *.out with positional outputs, _flash_attention_..._inplace).
# A yaml with a broken annotation fails with exit 1 and the rule id.
. "$(dirname "$0")/lib.sh"
for c in pytorch-1.13.1:1 pytorch-main:5; do
    name=${c%:*}; want=${c#*:}
    y=$BUILD/data/corpus/$name/native_functions.yaml
    "$TA" check "$y" > "$tmp/out" 2>&1
    grep -q "^0 errors" "$tmp/out" || { tail -5 "$tmp/out"; fail "$name: errors reported"; }
    got=$(grep -c 'warning: .*\[alias-' "$tmp/out")
    [ "$got" -eq "$want" ] || { grep 'warning: .*\[alias-' "$tmp/out"; fail "$name: $got alias warnings, want $want"; }
done
printf -- '- func: abs_(Tensor self) -> Tensor\n  dispatch:\n    CPU: abs_\n' > "$tmp/bad.yaml"
"$TA" check "$tmp/bad.yaml" > "$tmp/out" 2>&1; rc=$?
[ $rc -eq 1 ] || fail "bad yaml exited $rc"
grep -q 'bad.yaml:1:14: error: .*\[alias-inplace-self\]' "$tmp/out" || { cat "$tmp/out"; fail "no positioned alias-inplace-self"; }
"$TA" check --format sarif "$tmp/bad.yaml" > "$tmp/sarif" 2>&1
grep -q '"alias-inplace-self"' "$tmp/sarif" || fail "sarif lacks the rule"
echo ok
