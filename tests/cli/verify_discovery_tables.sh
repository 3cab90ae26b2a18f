#!/bin/sh
# Input discovery on tests/plugins/pickytables.c, kernels with many tensor
# arguments checked through accessors whose messages name no tensor, as
# FBGEMM's table-batched embeddings are: the candidates of such a demand
# ordered by the arguments' names (an integer dtype or one dimension for
# D_offsets, indices, hash_size_cumsum first: learn_prior.c), and the same
# check failing again for another tensor after a step the kernel asked for
# taken as progress (search.c). Each alone costs more than both together
# (pickytables::lookup, 16 cases: 112 calls before them, 148 with the order
# alone, 108 with the step alone, 51 with both); settings spelled
# name=value and a local's value no quantity has (pickytables::padding,
# ::jagged); the run is deterministic.
. "$(dirname "$0")/lib.sh"
PLUGIN=$BUILD/tests/plugins/libpickytables.so
run() { out=$1; shift; verify_plugin "$out" "$PLUGIN" 'pickytables::*' "$@"; } # out-file options...

run "$tmp/off.json" --no-discovery
for op in lookup jagged; do
    grep "\"op\":\"pickytables::$op\"" "$tmp/off.json" | grep -q '"verdict":"not-exercised"' ||
        { cat "$tmp/off.json" "$tmp/err"; fail "without discovery: pickytables::$op not exercised"; }
done

run "$tmp/on.json"
n=$(op_field pickytables::lookup exercised "$tmp/on.json")
calls=$(op_field pickytables::lookup calls "$tmp/on.json")
[ "${n:-0}" -ge 8 ] && [ "${calls:-999}" -le 70 ] ||
    { cat "$tmp/on.json" "$tmp/err"; fail "pickytables::lookup: 8 cases in at most 70 calls (got ${n:-0} in ${calls:-?})"; }

# Settings a message spells name=value (learn_settings.c): found by
# discovery (none without the rule: 5 of 16 cases as synthesized).
found=$(op_field pickytables::padding found "$tmp/on.json")
[ "${found:-0}" -ge 1 ] || { grep padding "$tmp/on.json"; fail "pickytables::padding: cases found by discovery"; }
# A local's value no quantity of the case has, read as the value itself
# (learn_locals.c): 8 cases of 16 in 8 calls (70 without it).
n=$(op_field pickytables::jagged exercised "$tmp/on.json")
calls=$(op_field pickytables::jagged calls "$tmp/on.json")
[ "${n:-0}" -ge 8 ] && [ "${calls:-999}" -le 20 ] ||
    { grep jagged "$tmp/on.json"; fail "pickytables::jagged: 8 cases in at most 20 calls (got ${n:-0} in ${calls:-?})"; }

run "$tmp/again.json"
cmp -s "$tmp/on.json" "$tmp/again.json" || { diff "$tmp/on.json" "$tmp/again.json"; fail "another report the second time"; }
run "$tmp/batch.json" --isolate batch:4 --jobs 2
cmp -s "$tmp/on.json" "$tmp/batch.json" || { diff "$tmp/on.json" "$tmp/batch.json"; fail "another report in batches"; }
exit 0
