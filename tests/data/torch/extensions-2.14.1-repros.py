"""Reproductions, in torch 2.14.1 (the torch both were built for), of findings of `verify --torch-library`
on fbgemm-gpu-cpu 1.9.0 and torchvision 0.29.2 (judged in fbgemm-gpu-cpu-1.9.0-findings.tsv and
torchvision-0.29.2-findings.tsv).

    python3 tests/data/torch/extensions-2.14.1-repros.py [ID...] [--list] [--markdown]

Runs as aten-2.15.0-repros.py does (its runner: one child process per reproduction; "asserts" ones end
in an assert that holds while the bug is there, "dies" ones die of a signal). Needs a Python that
imports torch 2.14.1, fbgemm_gpu and torchvision 0.29.2 (its _C is loaded as a library: importing
torchvision needs numpy; docs/aten-findings.md says how one was set up here). Written for
this project; the inputs are the findings' cases, shrunk by hand.
"""
import glob
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("aten_repros", os.path.join(HERE, "aten-2.15.0-repros.py"))
runner = importlib.util.module_from_spec(spec)
spec.loader.exec_module(runner)
import fbgemm_gpu  # noqa: E402,F401  (registers torch.ops.fbgemm)

TV_C = glob.glob(os.path.join(os.path.dirname(importlib.util.find_spec("torchvision").origin), "_C*.so"))[0]
runner.PRELUDE += "import fbgemm_gpu\nfb = torch.ops.fbgemm\ntorch.ops.load_library(%r)\ntv = torch.ops.torchvision\n" % TV_C

# id: (ops it covers, "asserts" | "dies", code)
runner.REPROS = {
    "quantized_out_writes_output": (
        ["fbgemm::FloatToFused8BitRowwiseQuantizedOut", "fbgemm::Fused8BitRowwiseQuantizedToFloatOut"], "asserts", '''
# Schema: FloatToFused8BitRowwiseQuantizedOut(Tensor output, Tensor input) -> Tensor declares no write
# and a fresh result; the kernel resizes and fills output and returns it.
out = torch.empty(0, dtype=torch.uint8)
r = fb.FloatToFused8BitRowwiseQuantizedOut(out, torch.randn(2, 4))
assert out.shape == (2, 12) and shares(r, out), out.shape
back = torch.empty(0)
fb.Fused8BitRowwiseQuantizedToFloatOut(back, out)
assert back.shape == (2, 4), back.shape
'''),
    "lengths_range_out_writes_output": (
        ["fbgemm::lengths_range_out"], "asserts", '''
# Schema: lengths_range_out(Tensor output, Tensor t_in, SymInt[]? shape=None) -> Tensor declares no
# write and a fresh result; the kernel resizes and fills output and returns it.
out = torch.empty(0, dtype=torch.long)
r = fb.lengths_range_out(out, torch.tensor([2, 3]))
assert out.tolist() == [0, 1, 0, 1, 2] and shares(r, out), out
'''),
    "jagged_returns_offsets": (
        ["fbgemm::jagged_dense_bmm", "fbgemm::jagged_softmax"], "asserts", '''
# Schemas: jagged_dense_bmm(...) -> (Tensor, Tensor) and jagged_softmax(...) -> (Tensor, Tensor):
# fresh results; each returns its x_offsets argument itself as the second one.
offs = torch.tensor([0, 2, 3])
r = fb.jagged_dense_bmm(torch.randn(3, 4), offs, torch.randn(2, 4, 5), 2)
assert shares(r[1], offs)
r = fb.jagged_softmax(torch.randn(3, 4), offs, 2)
assert shares(r[1], offs)
'''),
    "offsets_range_past_range_size": (
        ["fbgemm::offsets_range"], "dies", '''
# offsets_range(offsets, range_size) allocates range_size elements and fills one range per offset
# pair up to the last offset, unchecked: a last offset far past range_size writes far past it.
fb.offsets_range(torch.tensor([0, 1 << 24]), 1)
'''),
    "bounds_check_indices_no_tables": (
        ["fbgemm::bounds_check_indices", "fb::bounds_check_indices"], "dies", '''
# bounds_check_indices divides by the table count, taken from rows_per_table's size: empty, SIGFPE.
fb.bounds_check_indices(torch.empty(0, dtype=torch.long), torch.zeros(2, dtype=torch.long),
                        torch.empty(0, dtype=torch.long), 1, torch.zeros(1, dtype=torch.long))
'''),
    "generate_indices_heavy_hitters": (
        ["fbgemm::tbe_generate_indices_from_distribution"], "dies", '''
# More heavy hitters (3) than max_index (1): the Zipf range max_index - 3 is negative, and the
# generator writes its per-index metadata past the max_index + 1 entries it has.
fb.tbe_generate_indices_from_distribution(torch.tensor([0.5, 0.2, 0.2]), 0.5, 0.5, 1, 1000)
'''),
    "fp8_meta_zero_dim": (
        ["fbgemm::FloatToFP8RowwiseQuantized", "fbgemm::FP8RowwiseQuantizedToFloat"], "dies", '''
# The Meta kernels (quantize_ops_meta.cpp) read input_sizes[input.dim() - 1]: past the sizes of a 0-dim input.
fb.FloatToFP8RowwiseQuantized(torch.tensor(1.0, device="meta"), True)
'''),
    "rowwise_prune_returns_weight": (
        ["fbgemm::embedding_bag_rowwise_prune"], "asserts", '''
# Schema: embedding_bag_rowwise_prune(Tensor weight, ...) -> (Tensor, Tensor): fresh results. When
# pruning would not save enough (min_save_ratio, 1.0 by default) it returns weight itself.
w = torch.randn(2, 2)
r = fb.embedding_bag_rowwise_prune(w, torch.ones(2), 0.5, torch.int32, False, 2, 1.0)
assert r[0] is w and shares(r[0], w)
'''),
    "jagged_empty_offsets_list": (
        ["fbgemm::dense_to_jagged", "fbgemm::jagged_dense_elementwise_add_jagged_output",
         "fbgemm::jagged_dense_dense_elementwise_add_jagged_output", "fbgemm::jagged_dense_elementwise_mul_forward"],
        "dies", '''
# These take x_offsets.back() (dense_to_jagged_forward) without checking that the list has an element.
fb.jagged_dense_elementwise_add_jagged_output(torch.zeros(2, 3), [], torch.zeros(2, 3))
'''),
    "pack_segments_backward_meta_zero_dim": (
        ["fbgemm::pack_segments_backward"], "dies", '''
# The Meta kernel (sparse_ops_meta.cpp) erases the first of data's sizes and sets shape[0] unchecked:
# a 0-dim data leaves it working past an empty size vector.
fb.pack_segments_backward(torch.tensor(1.0, device="meta"), torch.ones(4, device="meta"), 1, 1)
'''),
    "permute_preallocated_out_ignores_strides": (
        ["fbgemm::permute_2D_sparse_preallocated_out"], "asserts", '''
# permute_2D_sparse_preallocated_out(..., Tensor(a!)? permuted_lengths_out, ...) writes the T * B
# permuted lengths contiguously from permuted_lengths_out's data pointer, whatever its strides: a
# strided view gets elements of its storage outside the view written and its own second row left alone.
buf = torch.full((2, 4), -1, dtype=torch.long)
out = buf[:, ::2]
r = fb.permute_2D_sparse_preallocated_out(torch.tensor([1, 0], dtype=torch.int32),
                                          torch.tensor([[1, 2], [3, 4]]), torch.arange(10),
                                          None, None, out, None, None)
assert buf[0].tolist() == [3, 4, 1, 2] and out.tolist() == [[3, 1], [-1, -1]], buf
'''),
    "jagged_dispatch_empty_offsets_list": (
        ["fbgemm::jagged_dense_elementwise_mul_backward"], "dies", '''
# JAGGED_TENSOR_DISPATCH_DIMS (jagged_tensor_ops/common.h) reads x_offsets[0].scalar_type() before
# the kernels check x_offsets.size(): an empty list is read past its end.
fb.jagged_dense_elementwise_mul_backward(torch.zeros(0), [], torch.zeros(2, 0), torch.zeros(2, 0))
'''),
    "roi_align_empty_input": (
        ["torchvision::roi_align"], "dies", '''
# roi_align (ps_roi_align below) on an input of width 0 (its storage empty) with a well-formed box: they
# interpolate from input's data anyway (SIGSEGV); no check that input is non-empty.
rois = torch.tensor([[0.0, 0.0, 0.0, 1.0, 1.0]])
tv.roi_align(torch.randn(1, 2, 2, 0), rois, 0.5, 1, 1, 1, True)
'''),
    "ps_roi_align_empty_input": (
        ["torchvision::ps_roi_align"], "dies", '''
tv.ps_roi_align(torch.randn(1, 2, 2, 0), torch.tensor([[0.0, 0.0, 0.0, 1.0, 1.0]]), 0.5, 1, 1, 1)
'''),
}

if __name__ == "__main__":
    sys.exit(runner.main())
