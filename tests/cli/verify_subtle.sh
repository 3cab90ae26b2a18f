#!/bin/sh
# verify catches the subtle bugs of tests/plugins/subtlekernels.c (issue 16),
# each with the verdict that names it, by default (write-then-restore: with
# --trap-writes), and passes the correct kernel of the same shape next to
# each; every finding's seed replays it.
. "$(dirname "$0")/lib.sh"
PLUGIN=$BUILD/tests/plugins/libsubtlekernels.so
run() { # output-file extra-options...
    out=$1; shift
    "$TA" verify --no-default-kernels --kernels "$PLUGIN" --timeout 2 --jobs 2 --format json "$@" \
        >"$tmp/$out" 2>"$tmp/err"
}
expect() { # file op verdict
    line=$(grep "^{\"op\":\"$2\"," "$tmp/$1")
    echo "$line" | grep -q "^{\"op\":\"$2\",\"verdict\":\"$3\"" ||
        { echo "$line"; fail "$2: expected verdict $3"; }
    seed=$(echo "$line" | sed -n 's/^[^[]*"findings":\[{[^}]*"seed":"\(0x[0-9a-f]*\)".*/\1/p')
    echo "$2: $3${seed:+ (seed $seed)}"
}

run all.json --ops 'mylib::*'
[ $? -eq 1 ] || { cat "$tmp/err"; fail "exit status, expected 1"; }

# Exemptions by name hold for aten's operators only.
expect all.json 'mylib::to' view-returned-copy
expect all.json 'mylib::to_view' ok
expect all.json 'mylib::empty_mask.out' out-not-written
expect all.json 'mylib::empty_mask_good.out' ok

# Several findings: the verdict is the most specific; all are listed.
expect all.json 'mylib::out_aliases.out' out-not-returned
line=$(grep '"op":"mylib::out_aliases.out"' "$tmp/all.json")
echo "$line" | grep -q '"kind":"undeclared-alias"' || fail "out_aliases: the alias is listed too"
echo "$line" | grep -q '"kind":"out-not-written"' || fail "out_aliases: the unwritten out is listed too"
expect all.json 'mylib::out_good.out' ok

# Writes outside a written argument's view: the gaps of a sliced self, the
# bytes before an out= that is a view into a larger storage.
expect all.json 'mylib::scale_' undeclared-mutation
grep '"op":"mylib::scale_"' "$tmp/all.json" | grep -q 'outside its view' || fail "scale_: names the view"
expect all.json 'mylib::scale_good_' ok
expect all.json 'mylib::fill_out.out' undeclared-mutation
grep '"op":"mylib::fill_out.out"' "$tmp/all.json" | grep -q "argument 'out' is declared written, but" ||
    fail "fill_out: names out"
expect all.json 'mylib::fill_good.out' ok

# Before a storage's start: a write before an output's first element, a
# read before an input's first, named as such, in the case that did it.
expect all.json 'mylib::smooth' out-of-bounds
grep '"op":"mylib::smooth"' "$tmp/all.json" | grep -q 'before the start of a tensor the kernel allocated' ||
    fail "smooth: names the write before the start"
grep '"op":"mylib::smooth"' "$tmp/all.json" | grep -q '\[case: \]' && fail "smooth: a case without arguments"
expect all.json 'mylib::smooth_good' ok
expect all.json 'mylib::diff' out-of-bounds
grep '"op":"mylib::diff"' "$tmp/all.json" | grep -q "read at byte [0-9]* before the start of argument 'self'" ||
    fail "diff: names the read before the start"

# Sizes and values small cases never had: from 1,024 elements, above
# 32,768, NaN.
expect all.json 'mylib::blocked_copy' undeclared-mutation
expect all.json 'mylib::blocked_copy_good' ok
expect all.json 'mylib::parallel_copy' undeclared-mutation
expect all.json 'mylib::nan_clean' undeclared-mutation
# (a small run traps writes to read-only inputs: the write itself is named)
grep '"op":"mylib::nan_clean"' "$tmp/all.json" | grep -q "trapped write: argument 'self'" ||
    fail "nan_clean: the trapped write"
expect all.json 'mylib::nan_clean_good' ok

# Bugs behind a bool, a ScalarType, the input's dtype, an enum: caught
# whatever --cases is, down to the covering design's six rows.
for cases in 40 6; do
    run cover$cases.json --ops 'mylib::normalize*' --ops 'mylib::cast*' --ops 'mylib::int_sum*' \
        --ops 'mylib::loss*' --cases $cases
    echo "--cases $cases:"
    expect cover$cases.json 'mylib::normalize' undeclared-mutation
    expect cover$cases.json 'mylib::normalize_good' ok
    expect cover$cases.json 'mylib::cast' undeclared-alias
    expect cover$cases.json 'mylib::cast_good' ok
    expect cover$cases.json 'mylib::int_sum' undeclared-mutation
    expect cover$cases.json 'mylib::int_sum_good' ok
    expect cover$cases.json 'mylib::loss' undeclared-alias
    expect cover$cases.json 'mylib::loss_good' ok
done

# Write then restore: no trace in a snapshot; read-only pages see it, by
# default in a small run, and with --trap-writes in a large one.
expect all.json 'mylib::peek' undeclared-mutation
expect all.json 'mylib::peek_good' ok
# A large run pages only inputs of 64 KB and more (the first is case 31's,
# whose seed's low byte is 0x1f); with --trap-writes, case 0 is caught.
# After the first trapped write the operator's cases go on without pages.
run peek.json --ops 'mylib::peek' --cases 20001
grep -q '"seed":"0x[0-9a-f]*1f","message":"trapped write' "$tmp/peek.json" ||
    { cat "$tmp/peek.json"; fail "peek: a large run without --trap-writes sees only large inputs"; }
run peek.json --ops 'mylib::peek' --cases 20001 --trap-writes
grep -q '"seed":"0x[0-9a-f]*00","message":"trapped write' "$tmp/peek.json" ||
    { cat "$tmp/peek.json"; fail "peek: caught in case 0 with --trap-writes"; }

# Scalar[]: synthesized, one scalar per tensor of the list, and shown in
# the finding's case.
expect all.json 'mylib::shift_each' undeclared-mutation
grep '"op":"mylib::shift_each"' "$tmp/all.json" | grep -q 'scalars=\[-\{0,1\}[0-9.]*, -\{0,1\}[0-9.]*' ||
    fail "shift_each: the case shows the scalars"
seed=$(grep '"op":"mylib::shift_each"' "$tmp/all.json" | sed 's/^[^[]*"findings":\[{[^}]*"seed":"\(0x[0-9a-f]*\)".*/\1/')
scalars=$(grep '"op":"mylib::shift_each"' "$tmp/all.json" | sed 's/^[^[]*"findings":\[{[^}]*\(scalars=\[[^]]*\]\).*/\1/')
case $scalars in "scalars=["*"]") ;; *) fail "shift_each: no scalars in the finding";; esac
run replay_list.json --ops 'mylib::shift_each' --case-seed "$seed"
grep -qF "$scalars" "$tmp/replay_list.json" || { cat "$tmp/replay_list.json"; fail "shift_each: the seed replays its scalars ($scalars)"; }
expect all.json 'mylib::shift_each_good_' ok
grep '"op":"mylib::shift_each_good_"' "$tmp/all.json" | grep -q '"exercised":0,' && fail "shift_each_good_: exercised"

# Only the correct kernels: a clean run.
"$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops 'mylib::*_good*' --ops 'mylib::to_view' \
    >"$tmp/good.txt" 2>&1 || { cat "$tmp/good.txt"; fail "correct kernels must pass"; }

# A seed replays its finding.
seed=$(grep '"op":"mylib::empty_mask.out"' "$tmp/all.json" | sed 's/.*"seed":"\(0x[0-9a-f]*\)".*/\1/')
run replay.json --ops 'mylib::empty_mask.out' --case-seed "$seed"
grep -q '"verdict":"out-not-written"' "$tmp/replay.json" || { cat "$tmp/replay.json"; fail "replay"; }
echo "verify_subtle: all caught"
