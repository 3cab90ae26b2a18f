#!/bin/sh
# verify --kernels torch: findings that were the bridge's own doing, each
# pinned down so it stays gone, and findings that are ATen's, each pinned
# down so the tool keeps seeing them (their judgement is in
# tests/data/torch/aten-1.13.1-findings.tsv).
. "$(dirname "$0")/lib.sh"
if [ -n "${TA_TORCH:-}" ]; then
    echo "skipped: these are ATen 1.13.1's findings (Debian's torch), not $TA_TORCH's"; exit 77
fi
if [ ! -f "$BUILD/libtensoralias_torch.so" ]; then
    echo "skipped: the libtorch bridge is not built (no libtorch-dev)"; exit 77
fi
YAML=$BUILD/data/corpus/pytorch-1.13.1/native_functions.yaml
run() { # samples-file op...: verify the ops on those samples alone, JSON in $tmp/r.json
    s=$1; shift
    ops=""
    for o in "$@"; do ops="$ops --ops $o"; done
    # shellcheck disable=SC2086
    "$TA" verify "$YAML" --kernels torch --no-default-samples --samples "$s" --cases 0 \
        --format json $ops >"$tmp/r.json" 2>"$tmp/err"
}
found() { # pattern what: the last run's report holds pattern (grep's basic regex), or fail
    grep -q "$1" "$tmp/r.json" || { cat "$tmp/r.json" "$tmp/err"; fail "$2"; }
}

# to_mkldnn makes its result with ideep, which takes memory through c10's
# raw_allocate and gives it back through whatever CPU allocator is current
# when the result dies: the engine's allocator must still be the current one
# then, or glibc's free() reads before an engine storage (out-of-bounds) and
# aborts (crash). Its result is no strided tensor: the bridge rejects the
# case (a sample of ours that is rejected is a kernel-error).
cat >"$tmp/mkldnn.json" <<'JSON'
{"aten::to_mkldnn": [{"self": {"shape": [7]}, "dtype": null},
                     {"self": {"shape": [3, 1]}, "dtype": "float32"}]}
JSON
run "$tmp/mkldnn.json" aten::to_mkldnn
grep -q '"verdict":"kernel-error"' "$tmp/r.json" || { cat "$tmp/r.json" "$tmp/err"; fail "to_mkldnn: rejected"; }
grep -Eq '"kind":"(crash|out-of-bounds)"' "$tmp/r.json" && { cat "$tmp/r.json"; fail "to_mkldnn: crash or out-of-bounds"; }
grep -q 'not a strided CPU tensor' "$tmp/r.json" || { cat "$tmp/r.json"; fail "to_mkldnn: the reason"; }
grep -q 'invalid pointer' "$tmp/err" && { cat "$tmp/err"; fail "to_mkldnn: free() of engine memory"; }

# _convert_indices_from_coo_to_csr writes out[i] from i = self[last] + 1 on,
# unchecked: a COO index of -2 writes the element before out's view, in the
# storage out was given (torch 1.13.1 changes the same element 1 of a 5-element
# storage: tests/data/torch/aten-1.13.1-findings.tsv).
cat >"$tmp/coo.json" <<'JSON'
{"aten::_convert_indices_from_coo_to_csr.out": [
  {"self": {"shape": [], "dtype": "int32", "offset": 2, "values": [-2]}, "size": 1, "out_int32": true,
   "out": {"shape": [], "dtype": "int32", "offset": 2, "storage_bytes": 20}}]}
JSON
run "$tmp/coo.json" aten::_convert_indices_from_coo_to_csr.out
found 'changed byte 4 of its storage (storage element 1), which is outside its view' \
    "coo_to_csr: the write before out's view"

# set_.source_Tensor_storage_offset gives self source's storage and grows it
# to fit the view it is given (offset 1 + 16 elements): source, declared
# read-only, ends up viewing another, larger storage (torch 1.13.1 changes
# source's data pointer too). Its geometry is the same, so the finding must
# say what did change.
cat >"$tmp/set.json" <<'JSON'
{"aten::set_.source_Tensor_storage_offset": [
  {"self": {"shape": [4, 4], "strides": [9, 2], "offset": 1}, "source": {"shape": [4, 4]}, "storage_offset": 1,
   "size": [4, 4], "stride": [4, 1]}]}
JSON
run "$tmp/set.json" aten::set_.source_Tensor_storage_offset
found 'in a storage of 64 bytes -> sizes \[4, 4\] strides \[4, 1\] offset 0 in another storage of 68 bytes' \
    "set_: source's storage grown"

# The same call when self already has the sizes and strides it is given:
# ATen's resize_impl_cpu_ returns early and never grows the storage, so self
# is left viewing bytes [4, 68) of source's 64-byte storage (torch 1.13.1
# does the same: indexing it raises "setStorage: ... out of bounds"). A
# finding on self, not a rejected case.
cat >"$tmp/set_same.json" <<'JSON'
{"aten::set_.source_Tensor_storage_offset": [
  {"self": {"shape": [4, 4]}, "source": {"shape": [4, 4]}, "storage_offset": 1,
   "size": [4, 4], "stride": [4, 1]}]}
JSON
run "$tmp/set_same.json" aten::set_.source_Tensor_storage_offset
found '"kind":"out-of-bounds","severity":"error","argument":"self","seed":"0x0","message":"the kernel left the argument viewing bytes \[4, 68) of a storage of 64 bytes: sizes \[4, 4\] strides \[4, 1\] storage offset 1' \
    "set_: self left past its storage's end"

# flatten with an out_dim erases self's names [start_dim, end_dim + 1)
# before it wraps or checks the dims: negative ones corrupt the heap (torch
# 1.13.1 dies of SIGSEGV too). The Dimname comes from the sample, and self's
# dimensions are named by the bridge.
cat >"$tmp/flatten.json" <<'JSON'
{"aten::flatten.named_out_dim": [{"self": {"shape": [2, 3], "dtype": "int64"}, "start_dim": -1, "end_dim": -2,
                                  "out_dim": "out"},
                                 {"self": {"shape": [2, 3]}, "start_dim": 0, "end_dim": 1, "out_dim": "out"}]}
JSON
TA_TORCH_DUMP="$tmp/named.jsonl" run "$tmp/flatten.json" aten::flatten.named_out_dim
grep -q '"names": \["g", "h"\]}, -1, -2, "dimname::out"\]' "$tmp/named.jsonl" ||
    { cat "$tmp/named.jsonl"; fail "dump: the names and the Dimname"; }
found '"kind":"crash".*start_dim=-1, end_dim=-2, out_dim=.out.' "flatten.named_out_dim: the crash"
found '"cases":2,"exercised":1,' "flatten.named_out_dim: the valid sample runs"

# torch's CPU allocator gives an allocation of 0 bytes a null pointer, and
# ATen takes a non-null output as one the caller asked for: with M = 1 and
# N = 0, layer_norm_backward_cpu computes dX (reading rstd[0]) only when dX's
# pointer is not null. The bridge's allocator gives 0 bytes a null pointer
# too, so the empty rstd is not read: no out-of-bounds, which torch never
# does.
cat >"$tmp/layer_norm.json" <<'JSON'
{"aten::native_layer_norm_backward": [
  {"grad_out": {"shape": [0]}, "input": {"shape": [0]}, "normalized_shape": [0], "mean": {"shape": [0]},
   "rstd": {"shape": [0]}, "weight": {"shape": [0]}, "bias": {"shape": [0]}, "output_mask": [true, true, true]}]}
JSON
TA_TORCH_DUMP="$tmp/layer_norm.jsonl" run "$tmp/layer_norm.json" aten::native_layer_norm_backward
found '"verdict":"ok","severity":"none","cases":1,"exercised":1' "layer_norm_backward, M = 1, N = 0: ok (no read of the empty rstd)"

# replay_case.py --guard replays that call's empty storages as torch makes
# them (no bytes, a null pointer), not as bytes inside the guard page, so
# the guarded replay runs as the call did.
if /usr/bin/python3 -c 'import torch' >/dev/null 2>&1; then
    for g in after before; do
        /usr/bin/python3 tools/torch/replay_case.py "$tmp/layer_norm.jsonl" --guard $g >"$tmp/replay.json" 2>&1 ||
            { cat "$tmp/replay.json"; fail "replay_case.py --guard $g"; }
        grep -q '"outcome": "ok"' "$tmp/replay.json" || { cat "$tmp/replay.json"; fail "replay --guard $g of empty storages: ok"; }
    done
else
    echo "replay_case.py not checked: /usr/bin/python3 does not import torch"
fi

# TA_TORCH_DUMP: the call as torch gets it, each storage's bytes whole
# (tools/torch/replay_case.py replays it in torch).
cat >"$tmp/abs.json" <<'JSON'
{"aten::abs.out": [{"self": {"shape": [2], "values": [1, -2]}, "out": {"shape": [0]}}]}
JSON
TA_TORCH_DUMP="$tmp/calls.jsonl" run "$tmp/abs.json" aten::abs.out
grep -q '"verdict":"ok"' "$tmp/r.json" || { cat "$tmp/r.json" "$tmp/err"; fail "abs.out with a dump: ok"; }
[ "$(wc -l <"$tmp/calls.jsonl")" -eq 1 ] || { cat "$tmp/calls.jsonl"; fail "dump: one call"; }
grep -q '^{"op": "aten::abs.out", "args": \[{"dtype": "Float", "shape": \[2\], "strides": \[1\], "offset": 0, "storage": 0}, {"dtype": "Float", "shape": \[0\], "strides": \[1\], "offset": 0, "storage": 1}\], "storages": {"0": "0000803f000000c0", "1": ""}}$' "$tmp/calls.jsonl" ||
    { cat "$tmp/calls.jsonl"; fail "dump: the call"; }
exit 0
