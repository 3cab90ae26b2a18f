#!/bin/sh
# verify --isolate=batch gives the report --isolate=operator gives: wrong
# kernels (findings, a segfault, an abort, an endless loop) among clean ones,
# kernels that change the process state before kernels that look at it, in
# batches of several sizes with one job and two; a crash in a batch loses
# none of the operators after it, which go on in a batch, not alone; and
# the same for a TORCH_LIBRARY extension through the libtorch bridge.
. "$(dirname "$0")/lib.sh"
WRONG=$BUILD/tests/plugins/libwrongkernels.so
STATE=$BUILD/tests/plugins/libstatekernels.so

run() { # name isolate jobs: the plugins' report in $tmp/name.json, stderr in $tmp/name.err
    "$TA" verify --no-default-kernels --kernels "$WRONG" --kernels "$STATE" --ops 'mylib::*' \
        --ops 'state::*' --cases 12 --timeout 1 --jobs "$3" --isolate="$2" -v --format json \
        >"$tmp/$1.json" 2>"$tmp/$1.err"
    [ $? -eq 1 ] || { cat "$tmp/$1.err"; fail "$2, --jobs $3: exit 1"; }
}
run operator operator 1
grep -q '"op":"state::b_needs_nearest","verdict":"ok"' "$tmp/operator.json" || fail "needs_nearest: ok alone"
grep -q '"op":"state::f_needs_clean","verdict":"ok"' "$tmp/operator.json" || fail "needs_clean: ok alone"
grep -q '"op":"state::h_one_thread","verdict":"ok"' "$tmp/operator.json" || fail "one_thread: ok alone"
for iso in batch:2 batch:64; do
    for j in 1 2; do
        run "$iso-$j" "$iso" "$j"
        cmp -s "$tmp/operator.json" "$tmp/$iso-$j.json" ||
            { diff "$tmp/operator.json" "$tmp/$iso-$j.json"; fail "$iso, --jobs $j: another report"; }
    done
done
# One batch of all: the operators with a finding (mylib::aborts, the first,
# crashes) ran again alone, and only they; the hang timed out in the batch;
# the library that could not put its state back and the thread left running
# ended a batch each.
bad=$(grep -cv '"verdict":"\(ok\|not-exercised\|no-kernel\)"' "$tmp/operator.json")
grep -q "isolation: batch:64, [0-9]* child processes, $bad operators run again alone (1 timed out in a batch), 2 batches ended early" \
    "$tmp/batch:64-1.err" || { cat "$tmp/batch:64-1.err"; fail "batch:64: $bad operators run again alone"; }
grep -q '^{"op":"mylib::aborts","verdict":"crash"' "$tmp/operator.json" || fail "aborts: crash"

# Bad values.
for v in batch:0 batch: batchx thread; do
    "$TA" verify --isolate "$v" >"$tmp/o" 2>&1
    [ $? -eq 2 ] || fail "--isolate $v: exit 2"
    grep -q "is operator, batch or batch:N" "$tmp/o" || { cat "$tmp/o"; fail "--isolate $v: the reason"; }
done

# The libtorch bridge: libtorch's generator put back between operators, a
# changed thread count ending the batch; the same report either way.
EXT=$BUILD/tests/torchext/libtaext.so
if [ ! -f "$BUILD/libtensoralias_torch.so" ] || [ ! -f "$EXT" ]; then
    echo "skipped the libtorch part: the libtorch bridge is not built (no libtorch-dev)"; exit 0
fi
for iso in operator batch; do
    "$TA" verify --torch-library "$EXT" --cases 12 --timeout 5 --isolate "$iso" -v --format json \
        >"$tmp/t-$iso.json" 2>"$tmp/t-$iso.err"
    [ $? -eq 1 ] || { cat "$tmp/t-$iso.err"; fail "torch, $iso: exit 1"; }
done
cmp -s "$tmp/t-operator.json" "$tmp/t-batch.json" ||
    { diff "$tmp/t-operator.json" "$tmp/t-batch.json"; fail "torch: batch gives another report"; }
grep -q '^{"op":"taext::fresh_generator","verdict":"ok","severity":"none","cases":12,"exercised":1,' \
    "$tmp/t-batch.json" || { grep fresh_generator "$tmp/t-batch.json"; fail "fresh_generator: one case"; }
grep -q '^{"op":"taext::threads_one","verdict":"ok"' "$tmp/t-batch.json" || fail "threads_one: ok"
grep -q 'batches ended early' "$tmp/t-batch.err" && ! grep -q ' 0 batches ended early' "$tmp/t-batch.err" ||
    { cat "$tmp/t-batch.err"; fail "torch: sets_threads ends its batch"; }
exit 0
