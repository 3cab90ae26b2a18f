#!/bin/sh
# Input discovery on tests/plugins/pickykernels.c, kernels that reject
# every case until it has the shape, dtype, layout or values they want,
# each saying why as real kernels do: none is exercised without discovery,
# every one with it (picky::never excepted, within its bounds); the write
# picky::hidden_write's schema does not declare is found only then; a
# discovered case replays from its seed and its discovery path; the run is
# the same twice and in either isolation; a screen is asked before the
# kernel.
. "$(dirname "$0")/lib.sh"
PLUGIN=$BUILD/tests/plugins/libpickykernels.so
run() { out=$1; shift; verify_plugin "$out" "$PLUGIN" 'picky::*' "$@"; } # out-file options...

run "$tmp/off.json" --no-discovery
[ "$(grep -c '"verdict":"not-exercised"' "$tmp/off.json")" -eq 11 ] ||
    { cat "$tmp/off.json" "$tmp/err"; fail "without discovery: all 11 not exercised"; }
grep -q '"discovery"' "$tmp/off.json" && fail "without discovery: no discovery counts"

run "$tmp/on.json"
for op in boxes pair gather_rows accessors hidden_write quiet screened roi_backward jagged_rows pooled_grad; do
    n=$(op_field "picky::$op" exercised "$tmp/on.json")
    [ "${n:-0}" -gt 0 ] || { grep "picky::$op\"" "$tmp/on.json"; cat "$tmp/err"; fail "picky::$op: exercised with discovery"; }
done
grep '"op":"picky::never"' "$tmp/on.json" | grep -q '"verdict":"not-exercised"' || fail "picky::never: not exercised"
calls=$(grep '"op":"picky::never"' "$tmp/on.json" | sed -n 's/.*"calls":\([0-9]*\).*/\1/p')
[ "${calls:-0}" -gt 0 ] && [ "$calls" -le 400 ] || fail "picky::never: discovery tried, within its bound ($calls calls)"
grep '"op":"picky::hidden_write"' "$tmp/on.json" | grep -q '"verdict":"undeclared-mutation"' ||
    { grep hidden_write "$tmp/on.json"; fail "picky::hidden_write: the undeclared write found"; }
screened=$(grep '"op":"picky::screened"' "$tmp/on.json" | sed -n 's/.*"screened":\([0-9]*\).*/\1/p')
[ "${screened:-0}" -gt 0 ] || { grep screened "$tmp/on.json"; fail "picky::screened: its screen refused cases"; }
grep '"op":"picky::boxes"' "$tmp/on.json" | grep -q '"found":[1-9]' || fail "picky::boxes: cases found by discovery"
# Sizes a shape spells with the schema's names ([K, channels]), "the same
# shape as", values "in [0, batch_size)": read, not guessed (blind guesses
# get 1 case of 16 in 400 calls).
n=$(op_field picky::roi_backward exercised "$tmp/on.json")
calls=$(grep '"op":"picky::roi_backward"' "$tmp/on.json" | sed -n 's/.*"calls":\([0-9]*\).*/\1/p')
[ "${n:-0}" -ge 4 ] && [ "${calls:-999}" -le 100 ] || { grep roi_backward "$tmp/on.json"; fail "picky::roi_backward: its demands read"; }
# A local's value read as the case's quantity (T = x_offsets.numel() - 1),
# and offsets made offsets: found in a few calls (251 calls for 5 cases of
# 16 when offsets are drawn as any other index).
calls=$(grep '"op":"picky::jagged_rows"' "$tmp/on.json" | sed -n 's/.*"calls":\([0-9]*\).*/\1/p')
[ "${calls:-999}" -le 60 ] || { grep jagged_rows "$tmp/on.json"; fail "picky::jagged_rows: its offsets made offsets"; }
# Sizes spelled as expressions of the schema's ints ("channels /
# (pooled_height * pooled_width)"): read, not guessed (215 calls blind).
calls=$(grep '"op":"picky::pooled_grad"' "$tmp/on.json" | sed -n 's/.*"calls":\([0-9]*\).*/\1/p')
[ "${calls:-999}" -le 60 ] || { grep pooled_grad "$tmp/on.json"; fail "picky::pooled_grad: its expression sizes read"; }
# -v prints discovery's cost per operator that searched.
run "$tmp/v.json" -v
grep -q '^discovery per operator that searched: [0-9.]* calls, [0-9.]* ms; the costliest: picky::[a-z_]* ([0-9]* calls, [0-9]* ms)$' "$tmp/err" ||
    { cat "$tmp/err"; fail "-v: discovery's cost per operator"; }

# The finding carries its discovery path; its seed and path replay it.
line=$(grep '"op":"picky::hidden_write"' "$tmp/on.json")
seed=$(echo "$line" | sed -n 's/.*"kind":"undeclared-mutation","severity":"error","argument":"y","seed":"\([0-9a-fx]*\)".*/\1/p')
path=$(echo "$line" | sed -n 's/.*{found: \([^}]*\)}.*/\1/p')
[ -n "$seed" ] && [ -n "$path" ] || { echo "$line"; fail "hidden_write: a seed and a discovery path"; }
"$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops picky::hidden_write --case-seed "$seed" --found "$path" \
    --format json >"$tmp/replay.json" 2>"$tmp/err"
grep -q '"kind":"undeclared-mutation","severity":"error","argument":"y"' "$tmp/replay.json" ||
    { cat "$tmp/replay.json" "$tmp/err"; fail "the discovered case replays"; }
"$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops picky::hidden_write --found "$path" >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q 'case-seed' "$tmp/o" || { cat "$tmp/o"; fail "--found without --case-seed: a usage error"; }

# Deterministic: the same report again, and with batch isolation.
run "$tmp/again.json"
cmp -s "$tmp/on.json" "$tmp/again.json" || { diff "$tmp/on.json" "$tmp/again.json"; fail "another report the second time"; }
run "$tmp/batch.json" --isolate batch:4 --jobs 2
cmp -s "$tmp/on.json" "$tmp/batch.json" || { diff "$tmp/on.json" "$tmp/batch.json"; fail "another report in batches"; }
exit 0
