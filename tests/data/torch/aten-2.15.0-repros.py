"""Minimal reproductions, against torch 2.15.0, of the real ATen findings of `verify --kernels torch`
that are still there in 2.15.0 (docs/aten-findings.md; judged in aten-2.15.0-findings.tsv, joined with
1.13.1's in aten-1.13.1-to-2.15.0.tsv, whose "still present" rows name these ids).

    python3 tests/data/torch/aten-2.15.0-repros.py [ID...] [--list] [--markdown]

Each reproduction is a few lines of plain torch, run in a child process of its own (forked after
`import torch`, one thread): "asserts" ones end in an assert that holds while the bug is there,
"dies" ones kill the process with a signal (SIGSEGV, SIGFPE, or glibc's abort on a heap it
corrupted). `at_page_end(t)` gives a copy of t whose storage ends where an inaccessible page
begins, so that a read one element past the end faults at once instead of reading a neighbour's
bytes (as AddressSanitizer would show it). Prints one line per reproduction; exits 1 when one no
longer reproduces (the bug was fixed: move its row of the join to "fixed upstream"). Written for
this project; the inputs are the findings' cases, shrunk by hand.
"""
import ctypes
import multiprocessing as mp
import sys

import torch

PRELUDE = '''
import torch
nan, inf = float("nan"), float("inf")
def shares(a, b):  # one storage (the same StorageImpl: empty ones too), or the same bytes
    sa, sb = a.untyped_storage(), b.untyped_storage()
    return sa._cdata == sb._cdata or (sa.data_ptr() != 0 and sa.data_ptr() == sb.data_ptr())
'''

# id: (ops it covers, "asserts" | "dies", code)
REPROS = {
    "batch_norm_update_stats": (
        ["aten::batch_norm_update_stats", "aten::batch_norm_update_stats.out"], "asserts", '''
# Schema: batch_norm_update_stats(Tensor input, Tensor? running_mean, Tensor? running_var, float momentum)
# declares no write (no '!'), but the kernel updates the running statistics in place.
x = torch.arange(8.).reshape(4, 2)
rm, rv = torch.zeros(2), torch.ones(2)
torch.ops.aten.batch_norm_update_stats(x, rm, rv, 0.5)
assert rm.tolist() != [0.0, 0.0] and rv.tolist() != [1.0, 1.0], (rm, rv)
'''),
    "saturate_weight_to_fp16": (
        ["aten::_saturate_weight_to_fp16"], "asserts", '''
# Schema: _saturate_weight_to_fp16(Tensor weight) -> Tensor: a fresh result, weight read-only.
# The kernel clamps weight in place and returns weight itself.
w = torch.tensor([[inf, 1.0]])
r = torch.ops.aten._saturate_weight_to_fp16(w)
assert w[0, 0].item() == 65504.0 and shares(r, w), w
'''),
    "fbgemm_pack_gemm_matrix_fp16": (
        ["aten::fbgemm_pack_gemm_matrix_fp16"], "asserts", '''
# Schema: fbgemm_pack_gemm_matrix_fp16(Tensor input) -> Tensor: input read-only. Packing clamps
# input itself to the fp16 range first (through _saturate_weight_to_fp16, above).
w = torch.tensor([[-inf, 1.0], [2.0, 3.0]])
torch.ops.aten.fbgemm_pack_gemm_matrix_fp16(w)
assert w[0, 0].item() == -65504.0, w
'''),
    "cov_zeroes_input": (
        ["aten::cov"], "asserts", '''
# Schema: cov(Tensor self, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None) -> Tensor.
# With one observation and exactly one of fweights / aweights, cov zeroes a view of its input
# (Correlation.cpp: `in.zero_()` on `self.view({1, -1})` or on self itself).
x = torch.tensor([[3.0], [5.0]])
torch.cov(x, fweights=torch.tensor([2]))
assert x.tolist() == [[0.0], [0.0]], x
'''),
    "rrelu_with_noise_strided_noise": (
        ["aten::rrelu_with_noise"], "asserts", '''
# Schema: rrelu_with_noise(Tensor self, Tensor(b!) noise, ...): noise is written, but through its
# view only. The kernel writes a non-contiguous noise as if it were contiguous.
base = torch.zeros(8)
noise = base[1::2][:3]                  # elements 1, 3, 5 of base
torch.ops.aten.rrelu_with_noise(torch.full((3,), -1.0), noise, training=True)
assert base[2].item() != 0.0, base      # base[1:4] written: element 2 lies between noise's elements
'''),
    "fused_sgd_strided_param": (
        ["aten::_fused_sgd_", "aten::_fused_sgd", "aten::_fused_sgd_.tensor_lr"], "asserts", '''
# Schema: _fused_sgd_(Tensor(a!)[] self, Tensor(b!)[] grads, Tensor(c!)[] momentum_buffer_list, ...):
# each param is written through its view only. The CPU kernel walks a non-contiguous param as if
# it were contiguous: it writes elements between the param's own and leaves half of its own alone.
base = torch.zeros(8)
p = base[::2]                           # elements 0, 2, 4, 6
torch.ops.aten._fused_sgd_([p], [torch.ones(4)], [], weight_decay=0.0, momentum=0.0, lr=1.0,
                           dampening=0.0, nesterov=False, maximize=False, is_first_step=True)
assert base.tolist() == [-1.0] * 4 + [0.0] * 4, base  # base[0:4] written, not p's elements
# The same for a momentum buffer (here with a tensor lr): elements 1, 3, 5 of mbase are the buffer's,
# elements 1, 2, 3 are written.
mbase = torch.zeros(8)
torch.ops.aten._fused_sgd_([torch.zeros(3)], [torch.ones(3)], [mbase[1::2][:3]], weight_decay=0.0,
                           momentum=0.5, lr=torch.tensor(0.5), dampening=0.0, nesterov=False,
                           maximize=False, is_first_step=False)
assert mbase[2].item() != 0.0 and mbase[5].item() == 0.0, mbase
'''),
    "fused_adagrad_strided_state": (
        ["aten::_fused_adagrad_"], "asserts", '''
# Schema: _fused_adagrad_(Tensor(a!)[] self, Tensor(b!)[] grads, Tensor(c!)[] state_sums, ...): each
# state_sum is written through its view only. As the fused SGD, the CPU kernel walks a non-contiguous
# one as if it were contiguous: elements 1, 3, 5 of base are state_sums[0]'s, elements 1, 2, 3 are written.
base = torch.zeros(8)
torch.ops.aten._fused_adagrad_([torch.zeros(3)], [torch.ones(3)], [base[1::2][:3]], [torch.zeros(())],
                               lr=0.5, lr_decay=0.0, weight_decay=0.0, eps=1e-10, maximize=False)
assert base[2].item() != 0.0 and base[5].item() == 0.0, base
'''),
    "set_source_storage_offset": (
        ["aten::set_.source_Tensor_storage_offset"], "asserts", '''
# Schema: set_.source_Tensor_storage_offset(Tensor(a!) self, Tensor source, SymInt storage_offset,
# SymInt[] size, SymInt[] stride=[]): source is not written, but set_ grows the storage self now
# shares with source, so source ends up over other memory (its data pointer changes).
src = torch.zeros(4, 4)
before = src.data_ptr()
torch.empty(4, 4).t().set_(src, 1, (4, 4), (4, 1))
assert src.data_ptr() != before
'''),
    "slow_conv_transpose2d_unbatched": (
        ["aten::slow_conv_transpose2d", "aten::slow_conv_transpose2d.out"], "asserts", '''
# Schema: slow_conv_transpose2d(Tensor self, Tensor weight, ...) -> Tensor: self is read-only.
# Given an unbatched (3-d) input the kernel makes self itself 4-d (an in-place unsqueeze); the out=
# variant too.
x = torch.randn(1, 3, 5)
torch.ops.aten.slow_conv_transpose2d(x, torch.randn(1, 1, 2, 2), [2, 2])
assert x.dim() == 4, x.shape
x = torch.randn(1, 3, 5)
torch.ops.aten.slow_conv_transpose2d.out(x, torch.randn(1, 1, 2, 2), [2, 2], out=torch.empty(0))
assert x.dim() == 4, x.shape
'''),
    "results_view_one_buffer": (
        ["aten::where", "aten::nonzero_numpy"], "asserts", '''
# Schemas: where(Tensor condition) -> Tensor[] and nonzero_numpy(Tensor self) -> Tensor[]: fresh
# results, no alias between them. Each result is a view of one nonzero() buffer.
r = torch.ops.aten.where(torch.ones(2, 2) > 0)
assert shares(r[0], r[1])
r = torch.ops.aten.nonzero_numpy(torch.ones(2, 2))
assert shares(r[0], r[1])
'''),
    "returns_input": (
        ["aten::_cast_Double", "aten::_cast_Float", "aten::_cast_Int", "aten::_cast_Long", "aten::data",
         "aten::dropout", "aten::feature_dropout", "aten::alpha_dropout", "aten::feature_alpha_dropout",
         "aten::native_dropout", "aten::conj_physical", "aten::atleast_1d", "aten::atleast_2d",
         "aten::atleast_3d", "aten::type_as", "aten::sum_to_size", "aten::to_dense", "aten::lift",
         "aten::cartesian_prod", "aten::cumprod_backward", "aten::cummaxmin_backward", "aten::dequantize.self",
         "aten::to_mkldnn_backward", "aten::to_dense_backward",
         "aten::fake_quantize_per_tensor_affine_cachemask_backward",
         "aten::fake_quantize_per_channel_affine_cachemask_backward", "aten::_remove_batch_dim",
         "aten::set.source_Tensor", "aten::_foobar", "aten::_test_optional_intlist",
         "aten::_test_optional_filled_intlist", "aten::_test_optional_floatlist",
         "aten::_test_parallel_materialize", "aten::_nested_compute_contiguous_strides_offsets",
         "aten::_reshape_from_tensor", "aten::channel_shuffle", "aten::native_channel_shuffle"], "asserts", '''
# Each schema declares a fresh result (a plain `-> Tensor`), and each of these calls returns its
# input itself (or a view of it): a consumer that trusts the schema (functionalization, AliasDb,
# an in-place rewrite) may write the result and so the input.
a = torch.ops.aten
x, e, d, i, l = torch.randn(2, 3), torch.empty(0, 3), torch.randn(2, 3).double(), torch.ones(2, 3).int(), torch.ones(2, 3).long()
g = torch.ones(1)
calls = {  # name: (result, the input it shares storage with)
    "_cast_Float": (a._cast_Float(x), x), "_cast_Double": (a._cast_Double(d), d),
    "_cast_Int": (a._cast_Int(i), i), "_cast_Long": (a._cast_Long(l), l),
    "data": (a.data(x), x), "dropout": (a.dropout(x, 0.5, False), x),
    "feature_dropout": (a.feature_dropout(x, 0.5, False), x),
    "alpha_dropout": (a.alpha_dropout(x, 0.5, False), x),
    "feature_alpha_dropout": (a.feature_alpha_dropout(x, 0.5, False), x),
    "native_dropout": (a.native_dropout(e, 0.5, None)[0], e),
    "conj_physical": (a.conj_physical(x), x), "atleast_1d": (a.atleast_1d(x), x),
    "atleast_2d": (a.atleast_2d(x), x), "atleast_3d": (a.atleast_3d(x.view(1, 2, 3)), x),
    "type_as": (a.type_as(x, x), x), "sum_to_size": (a.sum_to_size(x, [2, 3]), x),
    "to_dense": (a.to_dense(x), x), "lift": (a.lift(x), x),
    "cartesian_prod": (a.cartesian_prod([x[0]]), x),
    "cumprod_backward": (a.cumprod_backward(g, g, 0, g), g),
    "cummaxmin_backward": (a.cummaxmin_backward(e, e, e.long(), 0), e),
    "dequantize.self": (a.dequantize.self(x), x), "to_mkldnn_backward": (a.to_mkldnn_backward(x, x), x),
    "to_dense_backward": (a.to_dense_backward(x, x), x),
    "fake_quantize_per_tensor_affine_cachemask_backward":
        (a.fake_quantize_per_tensor_affine_cachemask_backward(e, e.bool()), e),
    "fake_quantize_per_channel_affine_cachemask_backward":
        (a.fake_quantize_per_channel_affine_cachemask_backward(e, e.bool()), e),
    "_remove_batch_dim": (a._remove_batch_dim(x[:1], 1, 1, 0), x),
    "set.source_Tensor": (a.set.source_Tensor(torch.empty(2, 3), x), x),
    "_foobar": (a._foobar(x), x), "_test_optional_intlist": (a._test_optional_intlist(x, None), x),
    "_test_optional_filled_intlist": (a._test_optional_filled_intlist(x, None), x),
    "_test_optional_floatlist": (a._test_optional_floatlist(x, None), x),
    "_test_parallel_materialize": (a._test_parallel_materialize(x, 1, True), x),
    "_nested_compute_contiguous_strides_offsets": (a._nested_compute_contiguous_strides_offsets(d[0, 0])[0], d),
    "_reshape_from_tensor": (a._reshape_from_tensor(x, torch.tensor([6])), x),  # reshape's view
    "channel_shuffle": (a.channel_shuffle(e.view(3, 0, 1), 1), e),  # an empty input only
    "native_channel_shuffle": (a.native_channel_shuffle(e.view(3, 0, 1), 1), e),
}
fresh = [n for n, (r, inp) in calls.items() if not shares(r, inp)]
assert not fresh, "these now return a fresh tensor: %s" % fresh
'''),
    "softmax_out_noncontiguous": (
        ["aten::_softmax.out", "aten::_log_softmax.out", "aten::_softmax_backward_data.out",
         "aten::_log_softmax_backward_data.out"], "asserts", '''
# The out= variants of the softmaxes write a non-contiguous out as if it were contiguous: bytes
# between out's elements change, and some of out's own elements are never written.
base = torch.full((10,), nan)
out = base[1::2]                        # elements 1, 3, 5, 7, 9
torch.ops.aten._softmax.out(torch.zeros(5), -1, False, out=out)
assert not torch.isnan(base[2]) and torch.isnan(out).any(), base
base = torch.full((10,), nan)
torch.ops.aten._log_softmax.out(torch.zeros(5), -1, False, out=base[1::2])
assert not torch.isnan(base[2]), base
'''),
    "logcumsumexp_out_other_dtype": (
        ["aten::_logcumsumexp.out"], "asserts", '''
# _logcumsumexp.out with an out= of another dtype writes out as if it were contiguous and of
# self's dtype: bytes outside out's view change and part of out is never written.
base = torch.full((14,), -7, dtype=torch.int64)
out = base[1::2]
torch.ops.aten._logcumsumexp.out(torch.zeros(7), -1, out=out)
assert base[2].item() != -7 or (out == -7).any(), base
'''),
    "adaptive_max_pool3d_out_noncontiguous": (
        ["aten::adaptive_max_pool3d.out"], "asserts", '''
# adaptive_max_pool3d.out writes a non-contiguous out as if it were contiguous.
base = torch.full((2 * 27,), nan)
out = base[::2].view(1, 3, 3, 3)
torch.ops.aten.adaptive_max_pool3d.out(torch.randn(1, 3, 3, 3), [3, 3, 3],
                                      out=out, indices=torch.empty(0, dtype=torch.long))
assert not torch.isnan(base[1]) or torch.isnan(out).any(), base
'''),
    "upsample_bicubic2d_backward_noncontiguous": (
        ["aten::upsample_bicubic2d_backward.grad_input"], "asserts", '''
# upsample_bicubic2d_backward.grad_input writes a non-contiguous grad_input as if it were
# contiguous: bytes between its elements change.
base = torch.full((10,), 7.0)
gi = base[::2].view(1, 1, 1, 5)         # elements 0, 2, 4, 6, 8
torch.ops.aten.upsample_bicubic2d_backward.grad_input(torch.ones(1, 1, 1, 7), [1, 7], [1, 1, 1, 5],
                                                      False, None, 0.5, grad_input=gi)
assert base[1].item() != 7.0, base      # element 1 lies between grad_input's elements
'''),
    "gelu_out_noncontiguous": (
        ["aten::gelu.out", "aten::gelu_backward.grad_input"], "asserts", '''
# gelu.out leaves a non-contiguous out unwritten.
base = torch.full((10,), nan)
out = base[1::2]
torch.ops.aten.gelu.out(torch.zeros(5), out=out)
assert torch.isnan(out).any(), out
'''),
    "add_relu_out_other_dtype": (
        ["aten::_add_relu.out"], "asserts", '''
# _add_relu.out with an out= of another dtype returns a new tensor, not out.
out = torch.empty(0, dtype=torch.float64)
r = torch.ops.aten._add_relu.out(torch.ones(2, 3), torch.ones(2, 3), out=out)
assert r is not out and r.dtype != out.dtype, (r.dtype, out.dtype)
'''),
    "chunk_cat_zero_dim": (
        ["aten::_chunk_cat"], "dies", '''
# _chunk_cat on 0-dim tensors: SIGSEGV (no check that the tensors have a dimension).
torch.ops.aten._chunk_cat([torch.tensor(1.0) for _ in range(3)], -1, 1)
'''),
    "rrelu_with_noise_out_empty_out": (
        ["aten::rrelu_with_noise.out"], "dies", '''
# rrelu_with_noise.out in training mode writes out without resizing it: an empty out= (the usual
# way to let an out= variant size its result) is written past its end (SIGSEGV, or a heap glibc
# later finds corrupted). With out of the right shape it runs clean.
torch.ops.aten.rrelu_with_noise.out(torch.randn(2, 3, 4), torch.zeros(2, 3, 4), training=True, out=torch.empty(0))
'''),
    "cummax_helper_negative_dim": (
        ["aten::_cummax_helper", "aten::_cummin_helper"], "dies", '''
# _cummax_helper / _cummin_helper do not wrap a negative dim (torch.cummax does before calling
# them): with dim=-1 and well-formed values and indices they write past indices and corrupt the
# heap (dim=1 runs clean).
x = torch.randn(2, 3)
torch.ops.aten._cummax_helper(x, torch.empty(2, 3), torch.zeros(2, 3, dtype=torch.long), -1)
torch.ops.aten._cummin_helper(x, torch.empty(2, 3), torch.zeros(2, 3, dtype=torch.long), -1)
'''),
    "cdist_backward_unchecked_shapes": (
        ["aten::_cdist_backward", "aten::_cdist_backward.out"], "dies", '''
# _cdist_backward does not check that grad_output has cdist's shape ([3, 3] here): it reads past
# a [3, 1] grad_output (its storage ends at an inaccessible page; of the right shape: clean).
x = torch.randn(3, 1)
torch.ops.aten._cdist_backward(at_page_end(torch.ones(3, 1)), x, x, 0.5, torch.ones(3, 3))
'''),
    "pdist_backward_unchecked_shapes": (
        ["aten::_pdist_backward"], "dies", '''
# _pdist_backward does not check grad_output's size (6 = 4*3/2 here): it reads past a shorter one.
x = torch.randn(4, 4, dtype=torch.float64)
torch.ops.aten._pdist_backward(at_page_end(torch.ones(2, dtype=torch.float64)), x, 0.5,
                               torch.ones(6, dtype=torch.float64))
'''),
    "masked_softmax_empty": (
        ["aten::_masked_softmax", "aten::_masked_softmax.out"], "dies", '''
# _masked_softmax of an empty input with dim=None reads its first element anyway.
torch.ops.aten._masked_softmax(at_page_end(torch.empty(0)), torch.empty(0, dtype=torch.bool), None, 1)
'''),
    "compute_linear_combination_unchecked_shapes": (
        ["aten::_compute_linear_combination", "aten::_compute_linear_combination.out"], "dies", '''
# _compute_linear_combination(input [n, ...], coefficients [m, n]) does not check that input has
# coefficients.size(1) rows: with 2 rows and coefficients [2, 3] it reads a third row past input.
torch.ops.aten._compute_linear_combination(at_page_end(torch.randn(2, 3)), torch.randn(2, 3))
'''),
    "fused_adam_empty_found_inf": (
        ["aten::_fused_adam", "aten::_fused_adam_", "aten::_fused_adamw", "aten::_fused_adamw_",
         "aten::_fused_adamw.out", "aten::_fused_adagrad", "aten::_fused_adam.out", "aten::_fused_adam.tensor_lr",
         "aten::_fused_adam.tensor_lr_out", "aten::_fused_adamw_.tensor_lr", "aten::_fused_adagrad_",
         "aten::_fused_adagrad.out", "aten::_fused_adagrad.tensor_lr", "aten::_fused_adagrad.tensor_lr_out",
         "aten::_fused_sgd_", "aten::_fused_sgd_.tensor_lr", "aten::_fused_sgd.out", "aten::_fused_sgd.tensor_lr",
         "aten::_fused_sgd.tensor_lr_out", "aten::_fused_adam_.tensor_lr"], "dies", '''
# The fused optimizers (Adam, AdamW, Adagrad, SGD) read found_inf[0] (and grad_scale[0]) whenever its
# data pointer is not null, without checking that it has an element. torch's own empty tensors have
# a null data pointer, which hides it; a zero-element slice at the end of a storage has one.
p = [torch.zeros(2)]
torch.ops.aten._fused_adam_(p, [torch.ones(2)], [torch.zeros(2)], [torch.zeros(2)], [], [torch.ones(())],
                            lr=0.5, beta1=0.5, beta2=0.5, weight_decay=0.0, eps=0.5, amsgrad=False,
                            maximize=False, grad_scale=None, found_inf=at_page_end(torch.ones(1))[1:])
'''),
    "batch_norm_out_eval_save_stats": (
        ["aten::native_batch_norm.out", "aten::_native_batch_norm_legit.out", "aten::_batch_norm_with_update.out"],
        "asserts", '''
# In eval mode native_batch_norm returns empty save_mean / save_invstd ([0]); its out= variant, on
# an input that is not contiguous, neither resizes the save_mean / save_invstd it is given to that
# nor writes them: it returns them as they were (with a contiguous input it raises instead).
x = torch.randn(4, 3).t()
sm, sv = torch.full((3, 4), 7.0), torch.full((3, 4), 7.0)
r = torch.ops.aten.native_batch_norm.out(x, None, None, torch.zeros(4), torch.ones(4), False, 0.5, 0.5,
                                         out=torch.empty(0), save_mean=sm, save_invstd=sv)
f = torch.ops.aten.native_batch_norm(x, None, None, torch.zeros(4), torch.ones(4), False, 0.5, 0.5)
assert r[1] is sm and sm.shape != f[1].shape and (sm == 7.0).all(), (sm.shape, f[1].shape)
'''),
    "lstm_cell_backward_shared_results": (
        ["aten::_thnn_differentiable_lstm_cell_backward"], "asserts", '''
# Schema: _thnn_differentiable_lstm_cell_backward(...) -> (Tensor, Tensor, Tensor, Tensor, Tensor):
# five fresh results. The gradients of the input and hidden gates are one tensor, and so are those
# of the two biases: results 0 and 1 share storage, and so do results 3 and 4.
g = torch.randn(2, 3)
r = torch.ops.aten._thnn_differentiable_lstm_cell_backward(g, g, torch.randn(2, 12), torch.randn(2, 12),
                                                           torch.randn(12), torch.randn(12), g, g)
assert shares(r[0], r[1]) and shares(r[3], r[4])
'''),
    "upsample_aa_scales_disagree": (
        ["aten::_upsample_bilinear2d_aa", "aten::_upsample_bilinear2d_aa.out", "aten::_upsample_bicubic2d_aa",
         "aten::_upsample_bicubic2d_aa.out", "aten::_upsample_lanczos2d_aa", "aten::_upsample_lanczos2d_aa.out"],
        "dies", '''
# The antialiased upsamplings take a scale that disagrees with output_size (width 3 -> 6 is a
# scale of 2, 0.5 is given) unchecked, and read past self (with scales None: clean).
torch.ops.aten._upsample_bilinear2d_aa(at_page_end(torch.randn(1, 3, 4, 3)), [7, 6], False, None, 0.5)
'''),
    "coo_to_csr_negative_index": (
        ["aten::_convert_indices_from_coo_to_csr", "aten::_convert_indices_from_coo_to_csr.out"], "dies", '''
# _convert_indices_from_coo_to_csr writes result[i] from i = input[last] + 1 on, unchecked: a
# negative COO index writes before the result it allocates (glibc then finds its heap corrupted).
torch.ops.aten._convert_indices_from_coo_to_csr(torch.tensor([-2], dtype=torch.int32), 1, out_int32=True)
'''),
    "fractional_max_pool3d_backward_unchecked_indices": (
        ["aten::fractional_max_pool3d_backward.grad_input", "aten::fractional_max_pool3d_backward"], "dies", '''
# fractional_max_pool3d_backward does not check that indices has grad_output's shape: it reads a
# 2-element indices (its storage ends at an inaccessible page) as one index an output element.
torch.ops.aten.fractional_max_pool3d_backward.grad_input(
    torch.randn(2, 2, 3, 3, 5), torch.randn(2, 2, 3, 3, 5), [1, 2, 1], [3, 3, 5],
    at_page_end(torch.zeros(2, dtype=torch.long)), grad_input=torch.empty(0))
'''),
    "native_batch_norm_backward_no_invstd": (
        ["aten::native_batch_norm_backward", "aten::native_batch_norm_backward.out"], "dies", '''
# native_batch_norm_backward in training mode with save_invstd=None (the schema allows None):
# the kernel reads it without a check (SIGSEGV).
d = torch.float64
torch.ops.aten.native_batch_norm_backward(torch.randn(1, 3, dtype=d), torch.randn(1, 3, dtype=d), None,
                                          torch.zeros(3, dtype=d), torch.ones(3, dtype=d), torch.zeros(3, dtype=d),
                                          None, True, 0.5, [True, True, True])
'''),
    "batch_norm_backward_no_save_stats": (
        ["aten::batch_norm_backward"], "dies", '''
# batch_norm_backward with update=True and save_mean / save_var None (the schema allows None): SIGSEGV.
d = torch.float64
torch.ops.aten.batch_norm_backward(torch.randn(2, 3, dtype=d), torch.randn(2, 3, dtype=d), torch.ones(3, dtype=d),
                                   torch.zeros(3, dtype=d), torch.ones(3, dtype=d), None, None, True, 0.5,
                                   [True, True, True], torch.empty(0, dtype=torch.uint8))
'''),
    "batch_norm_no_stats_out_empty_save": (
        ["aten::_native_batch_norm_legit.no_stats_out"], "dies", '''
# _native_batch_norm_legit.no_stats_out in eval mode, given empty save_mean / save_invstd: SIGSEGV.
d = torch.float64
torch.ops.aten._native_batch_norm_legit.no_stats_out(torch.randn(2, 3, dtype=d), None, torch.zeros(3, dtype=d), False,
                                                     0.5, 0.5, out=torch.empty(2, 3, dtype=d),
                                                     save_mean=torch.empty(0, dtype=d), save_invstd=torch.empty(0, dtype=d))
'''),
    "gru_cell_backward_unchecked_shapes": (
        ["aten::_thnn_differentiable_gru_cell_backward"], "dies", '''
# _thnn_differentiable_gru_cell_backward does not check that the gates have 3 * hidden columns: with
# [4, 4] gates and a [4, 4] hidden state it dies (SIGSEGV).
x = torch.randn(4, 4, dtype=torch.float64)
torch.ops.aten._thnn_differentiable_gru_cell_backward(x, x, x, x, None, None)
'''),
    "cholesky_solve_helper_unchecked_shapes": (
        ["aten::_cholesky_solve_helper", "aten::_cholesky_solve_helper.out"], "dies", '''
# _cholesky_solve_helper(self, A, upper) does not check that A is square: an [n, 1] A is copied to an
# n-element buffer that LAPACK reads as n x n (past the buffer; with a large n, SIGSEGV).
n = 20000
torch.ops.aten._cholesky_solve_helper(torch.randn(n, 1, dtype=torch.float64), torch.randn(n, 1, dtype=torch.float64), False)
'''),
    "csr_to_coo_unchecked_offsets": (
        ["aten::_convert_indices_from_csr_to_coo", "aten::_convert_indices_from_csr_to_coo.out"], "dies", '''
# _convert_indices_from_csr_to_coo sizes its result from col_indices and fills row i at positions
# crow_indices[i] .. crow_indices[i + 1], unchecked: offsets past col_indices' size write past it.
torch.ops.aten._convert_indices_from_csr_to_coo(torch.tensor([0, 1 << 20]), torch.zeros(1, dtype=torch.long))
'''),
    "ctc_loss_unchecked_targets": (
        ["aten::ctc_loss.IntList", "aten::ctc_loss.Tensor", "aten::_ctc_loss"], "dies", '''
# ctc_loss does not check that targets are class indices of log_probs: a target far past the 3
# classes is read from log_probs (whose storage ends at an inaccessible page).
torch.ops.aten.ctc_loss.IntList(at_page_end(torch.randn(1, 3, dtype=torch.float64)),
                                torch.full((1, 3), 1 << 40, dtype=torch.long), [1], [1], 0, 1, False)
'''),
    "transform_bias_rescale_qkv_shared_results": (
        ["aten::_transform_bias_rescale_qkv"], "asserts", '''
# Schema: _transform_bias_rescale_qkv(Tensor qkv, Tensor qkv_bias, int num_heads) -> (Tensor, Tensor,
# Tensor): three fresh results. q, k and v are views of one buffer.
q, k, v = torch.ops.aten._transform_bias_rescale_qkv(torch.randn(2, 1, 3), torch.randn(3), 1)
assert shares(q, k) and shares(q, v)
'''),
    "convolution_double_backward_returns_ggb": (
        ["aten::_convolution_double_backward"], "asserts", '''
# Schema: _convolution_double_backward(Tensor? ggI, Tensor? ggW, Tensor? ggb, ...) -> (Tensor, Tensor,
# Tensor): fresh results. With only ggb given, the first result (ggO) is a view of ggb.
ggb = torch.ones(2)
r = torch.ops.aten._convolution_double_backward(None, None, ggb, torch.randn(1, 2, 3, 3), torch.randn(2, 1, 1, 1),
                                               torch.randn(1, 1, 3, 3), [1, 1], [0, 0], [1, 1], False, [0, 0], 1,
                                               [True, True, True])
assert shares(r[0], ggb)
'''),
    "unflatten_dense_tensors_views": (
        ["aten::unflatten_dense_tensors"], "asserts", '''
# Schema: unflatten_dense_tensors(Tensor flat, Tensor[] tensors) -> Tensor[]: fresh results. Each
# result is a view of flat (and so shares storage with the others).
flat = torch.arange(3.0)
r = torch.ops.aten.unflatten_dense_tensors(flat, [torch.empty(()), torch.empty(()), torch.empty(())])
assert all(shares(t, flat) for t in r) and shares(r[0], r[1])
'''),
    "binary_cross_entropy_out_empty": (
        ["aten::binary_cross_entropy.out"], "asserts", '''
# binary_cross_entropy.out with an empty input and reduction 'mean' (or 'sum') leaves out as it was,
# where the functional returns nan (0): the loss goes to a squeezed alias of out, which the iterator
# resizes away from out, and then out's old contents are reduced into out.
o = torch.full((), 7.0)
torch.ops.aten.binary_cross_entropy.out(torch.empty(0), torch.empty(0), None, 1, out=o)
f = torch.ops.aten.binary_cross_entropy(torch.empty(0), torch.empty(0), None, 1)
assert o.item() == 7.0 and f.isnan(), (o, f)
'''),
    "linalg_lstsq_out_residuals": (
        ["aten::linalg_lstsq.out"], "asserts", '''
# linalg_lstsq returns empty residuals for a square system; its out= variant neither resizes the
# residuals it is given to that nor writes them.
rs = torch.full((), 7.0)
torch.ops.aten.linalg_lstsq.out(torch.randn(2, 2), torch.randn(2), None, driver=None, solution=torch.empty(0),
                               residuals=rs, rank=torch.empty(0, dtype=torch.long), singular_values=torch.empty(0))
f = torch.linalg.lstsq(torch.randn(2, 2), torch.randn(2, 1))
assert rs.shape != f.residuals.shape and rs.item() == 7.0, (rs, f.residuals.shape)
'''),
    "adaptive_max_pool2d_backward_unchecked_indices": (
        ["aten::adaptive_max_pool2d_backward.grad_input", "aten::adaptive_max_pool2d_backward"], "asserts", '''
# adaptive_max_pool2d_backward does not check that self has grad_output's planes: with an input of
# width 0, grad_input (0 elements) is written at the indices anyway, outside its view.
base = torch.full((8,), 7.0, dtype=torch.float64)
gi = base[2:2].view(4, 0)
torch.ops.aten.adaptive_max_pool2d_backward.grad_input(torch.randn(3, 3, 3, dtype=torch.float64),
                                                       torch.randn(3, 4, 0, dtype=torch.float64),
                                                       torch.zeros(3, 3, 3, dtype=torch.long), grad_input=gi)
assert base[2].item() != 7.0 and gi.numel() == 0, base
'''),
    "fused_sgd_grad_shape": (
        ["aten::_fused_sgd.out", "aten::_fused_sgd.tensor_lr_out"], "dies", '''
# The fused SGD step reads each grad (and momentum buffer) over its param's numel, without
# checking their shapes: a 0-dim grad of a 2-element param is read past.
torch.ops.aten._fused_sgd_([torch.zeros(2)], [at_page_end(torch.ones(()))], [torch.zeros(())], weight_decay=0.5,
                           momentum=0.5, lr=0.5, dampening=0.5, nesterov=False, maximize=True, is_first_step=False)
'''),
    "fused_adagrad_grad_shape": (
        ["aten::_fused_adagrad.out", "aten::_fused_adagrad_"], "dies", '''
# The fused Adagrad step, as the fused SGD one, reads each grad over its param's numel without
# checking their shapes: a 0-dim grad of a 2-element param is read past.
torch.ops.aten._fused_adagrad_([torch.zeros(2)], [at_page_end(torch.ones(()))], [torch.zeros(2)], [torch.zeros(())],
                               lr=0.5, lr_decay=0.5, weight_decay=0.5, eps=0.5, maximize=True)
'''),
    "transform_bias_rescale_qkv_zero_heads": (
        ["aten::_transform_bias_rescale_qkv", "aten::_transform_bias_rescale_qkv.out"], "dies", '''
# _transform_bias_rescale_qkv divides by num_heads unchecked: num_heads=0 is SIGFPE.
torch.ops.aten._transform_bias_rescale_qkv(torch.randn(2, 2, 6), torch.randn(6), 0)
'''),
    "sdpa_flash_cpu_head_mismatch": (
        ["aten::_scaled_dot_product_flash_attention_for_cpu"], "dies", '''
# _scaled_dot_product_flash_attention_for_cpu does not check that key / value have query's number of
# heads (scaled_dot_product_attention refuses the same call): with fewer it reads past key.
torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(torch.randn(2, 3, 3, 1), at_page_end(torch.randn(2, 2, 3, 1)),
                                                           torch.randn(2, 2, 3, 1))
'''),
    "sdpa_flash_cpu_backward_unchecked_shapes": (
        ["aten::_scaled_dot_product_flash_attention_for_cpu_backward"], "dies", '''
# The backward of the CPU flash attention does not check logsumexp's shape: an empty one is read.
q = torch.empty(2, 2, 4, 0)
torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward(q, q, q, torch.empty(2, 2, 2, 0), q,
                                                                    torch.empty(2, 4, 0), 0.5, True)
'''),
    "batch_norm_no_update_short_stats": (
        ["aten::_batch_norm_no_update.out", "aten::_batch_norm_no_update"], "dies", '''
# _batch_norm_no_update (eval-mode batch norm) does not check that running_mean / running_var /
# weight / bias have one element a channel: a 1-element running_mean for 3 channels is read past.
torch.ops.aten._batch_norm_no_update(torch.randn(2, 3, 1), None, None, at_page_end(torch.zeros(1)), torch.ones(1),
                                     0.5, 0.5)
'''),
    "native_batch_norm_backward_grad_out_shape": (
        ["aten::native_batch_norm_backward.out", "aten::native_batch_norm_backward"], "dies", '''
# native_batch_norm_backward does not check that grad_out has input's shape: an empty grad_out is read
# as a [1, 3] one (torch's empty storage has no memory at all: SIGSEGV).
torch.ops.aten.native_batch_norm_backward(torch.empty(0, 3), torch.randn(1, 3), torch.ones(3), torch.zeros(3),
                                          torch.ones(3), None, torch.ones(3), False, 0.5, [True, True, True])
'''),
    "reflection_pad_backward_unchecked_padding": (
        ["aten::reflection_pad1d_backward", "aten::reflection_pad2d_backward.grad_input",
         "aten::reflection_pad3d_backward", "aten::reflection_pad3d_backward.grad_input"], "dies", '''
# The reflection pad backwards skip the forward's check that each pad is less than the input's size:
# padding 1 of a height-1 input (which reflection_pad2d refuses) reflects to indices outside it and
# corrupts the heap.
torch.ops.aten.reflection_pad2d_backward(torch.randn(2, 3, 5), torch.randn(2, 1, 3), [1, 1, 1, 1])
'''),
    "ctc_loss_backward_unchecked_lengths": (
        ["aten::_ctc_loss_backward", "aten::_ctc_loss_backward.out", "aten::_ctc_loss_backward.Tensor"], "dies", '''
# _ctc_loss_backward checks nothing ("We don't do much checking and assume that the forward did"):
# input_lengths / target_lengths of 1 element for a batch of 3 are read past, and the garbage lengths
# index log_probs.
d = torch.float64
torch.ops.aten._ctc_loss_backward(torch.ones(4, dtype=d), at_page_end(torch.randn(2, 3, 4, dtype=d)),
                                  torch.ones(4, dtype=torch.int), [1], [1], torch.ones(4, dtype=d),
                                  torch.randn(2, 3, 4, dtype=d), 1, False)
'''),
    "sobol_engine_scramble_unchecked_shapes": (
        ["aten::_sobol_engine_scramble_"], "dies", '''
# _sobol_engine_scramble_ does not check that self is [dimension, 30] and ltm [dimension, 30, 30]: it
# reads 30 columns of a 3-column self (and 30 of what it computes from a smaller ltm).
torch.ops.aten._sobol_engine_scramble_(at_page_end(torch.zeros(1, 3, dtype=torch.long)),
                                       torch.zeros(1, 30, 30, dtype=torch.long), 1)
'''),
    "fft_ihfftn_out_never_written": (
        ["aten::fft_ihfftn.out"], "asserts", '''
# fft_ihfftn's out= path over ONE dimension calls at::conj_physical_out(tmp, out) with its arguments
# swapped (out= comes first): out is read, tmp written, and out keeps its old values.
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
out = torch.full((2, 2), complex(9, 9), dtype=torch.complex64)
r = torch.fft.ihfftn(x, dim=[1], out=out)
assert r is out and out[0, 0].item() == complex(9, 9), (out, torch.fft.ihfftn(x, dim=[1]))
'''),
    "replication_pad1d_backward_batch": (
        ["aten::replication_pad1d_backward", "aten::replication_pad1d_backward.grad_input"], "asserts", '''
# replication_pad1d_backward does not check grad_output's batch size against self's: with self
# [2, 3, 4] and grad_output [1, 3, 6] it reads a second batch past grad_output (here the 7s that
# follow grad_output's view in its storage).
big = torch.zeros(2, 3, 6)
big[1] = 7.0
r = torch.ops.aten.replication_pad1d_backward(big[0:1], torch.randn(2, 3, 4), [1, 1])
assert r.shape == (2, 3, 4) and r[1].abs().sum().item() > 0, r
'''),
    "adaptive_max_pool3d_backward_empty_self": (
        ["aten::adaptive_max_pool3d_backward", "aten::adaptive_max_pool3d_backward.grad_input"], "dies", '''
# adaptive_max_pool3d_backward takes a self of width 0 and a grad_output / indices of another shape
# unchecked, and writes grad_input through the indices (SIGSEGV).
go = torch.randn(600, dtype=torch.float64).as_strided((4, 4, 4, 4), (144, 36, 9, 2), 1)
s = torch.randn(200, dtype=torch.float64).as_strided((4, 4, 4, 0), (16, 4, 1, 2), 1)
torch.ops.aten.adaptive_max_pool3d_backward(go, s, torch.zeros(4, 4, 4, 4, dtype=torch.long))
'''),
    "reflection_pad1d_backward_4d_self": (
        ["aten::reflection_pad1d_backward", "aten::reflection_pad1d_backward.grad_input"], "dies", '''
# reflection_pad1d_backward takes a 4-d self (1.13.1 refused this grad_output: "grad_output width
# unexpected") and writes before the grad_input it allocates: glibc aborts on the heap it corrupted.
go, s = torch.randn(1, 6, 1, 6), torch.randn(40).as_strided((1, 2, 1, 4), (18, 9, 9, 2), 1)
for _ in range(200):
    torch.ops.aten.reflection_pad1d_backward(go, s, [1, 1])
'''),
    "pad_packed_sequence_negative_batch_sizes": (
        ["aten::_pad_packed_sequence"], "dies", '''
# _pad_packed_sequence trusts batch_sizes' values (only PackedSequence's own are meant): a negative
# one makes it write before the output it allocates; glibc aborts on the heap it corrupted.
for _ in range(300):
    torch.ops.aten._pad_packed_sequence(torch.arange(4, dtype=torch.int32), torch.tensor([1, -2, 5]), False, 2, 3)
'''),
    "fbgemm_pack_empty_3d": (
        ["aten::fbgemm_pack_gemm_matrix_fp16", "aten::fbgemm_pack_quantized_matrix",
         "aten::fbgemm_pack_quantized_matrix.KN"], "dies", '''
# The fbgemm packing operators take a 3-d input unchecked and read an empty one (SIGSEGV).
torch.ops.aten.fbgemm_pack_gemm_matrix_fp16(torch.empty(2, 4, 0))
'''),
    "dyn_quant_matmul_4bit_unchecked_weights": (
        ["aten::_dyn_quant_matmul_4bit"], "dies", '''
# _dyn_quant_matmul_4bit does not check packed_weights' size against in_features / out_features.
torch.ops.aten._dyn_quant_matmul_4bit(torch.randn(2, 5), torch.zeros(2, dtype=torch.int32), 1, 1, 1)
'''),
    "nested_view_from_buffer_copy_empty": (
        ["aten::_nested_view_from_buffer_copy.out"], "dies", '''
# _nested_view_from_buffer_copy with an empty nested_size ([0, 1]) reads its first element (SIGSEGV).
e = torch.empty(0, 1, dtype=torch.long)
torch.ops.aten._nested_view_from_buffer_copy(torch.empty(0, dtype=torch.long), e, e, e)
'''),
    "nested_from_padded_empty_example": (
        ["aten::_nested_from_padded"], "dies", '''
# _nested_from_padded reads cpu_nested_shape_example as a [batch, dims] matrix of sizes without
# checking its shape: a 4-d example with no elements is read at [0] (SIGSEGV).
e = torch.empty(2, 2, 4, 0, dtype=torch.long)
torch.ops.aten._nested_from_padded(e, e, True)
'''),
    "embedding_bag_2d_indices_offsets": (
        ["aten::embedding_bag", "aten::embedding_bag.padding_idx", "aten::_embedding_bag", "aten::_embedding_bag.out",
         "aten::_embedding_bag_forward_only"], "dies", '''
# embedding_bag checks that offsets is 1-d only when indices is ("offsets has to be a 1D Tensor"):
# with 2-d indices, an offsets of another rank and no elements is read at [0] (SIGSEGV).
torch.embedding_bag(torch.randn(2, 4), torch.tensor([[0], [1]]), torch.empty(1, 0, dtype=torch.long),
                    False, 0, False, None, False)
'''),
    "segment_reduce_backward_unchecked_lengths": (
        ["aten::_segment_reduce_backward", "aten::_segment_reduce_backward.out"], "dies", '''
# _segment_reduce_backward does not check lengths against grad's size along axis: lengths of 3
# for segments of a size-4 axis read past grad.
g = torch.randn(2, 3, 4)
torch.ops.aten._segment_reduce_backward(at_page_end(g), g, g, "sum", lengths=torch.full((3, 4), 3), axis=-1)
'''),
    "adaptive_avg_pool_backward_unchecked_shapes": (
        ["aten::_adaptive_avg_pool2d_backward", "aten::_adaptive_avg_pool3d_backward"], "dies", '''
# _adaptive_avg_pool3d_backward does not check that grad_output has self's batch and channels:
# a [2, 4, 3, 4] grad_output for a [4, 4, 4, 4] self is read past.
torch.ops.aten._adaptive_avg_pool3d_backward(at_page_end(torch.randn(2, 4, 3, 4)), torch.randn(4, 4, 4, 4))
'''),
    "slow_conv_transpose2d_2d_weight": (
        ["aten::slow_conv_transpose2d", "aten::slow_conv_transpose2d.out"], "dies", '''
# slow_conv_transpose2d accepts a 2-d weight without checking it holds kernel_size's elements a plane.
torch.ops.aten.slow_conv_transpose2d(torch.randn(2, 3, 3), at_page_end(torch.randn(2, 1)), [2, 1], None, [2, 2], [1, 0])
'''),
    "embedding_backward_unchecked_indices": (
        ["aten::embedding_dense_backward.out", "aten::_embedding_bag_dense_backward",
         "aten::_embedding_bag_dense_backward.out"], "dies", '''
# embedding_dense_backward (and _embedding_bag_dense_backward) do not check indices against
# num_weights: with scale_grad_by_freq the per-weight count of each index is written at the index
# (SIGSEGV, or a heap glibc later finds corrupted).
# (Indices 2**40 away: 2**20 could land in memory the forked child has mapped, and not fault.)
torch.ops.aten.embedding_dense_backward(torch.randn(2, 4), torch.tensor([1 << 40, -(1 << 40)]), 1, 1, True)
'''),
    "segment_reduce_unchecked_offsets": (
        ["aten::segment_reduce.out"], "dies", '''
# segment_reduce checks lengths against data's size when unsafe=False, but never offsets: offsets
# past data's end (here [0, 5, 9] for 1 row) are read past data even with unsafe=False.
torch.ops.aten.segment_reduce(at_page_end(torch.ones(1, 3)), "sum", offsets=torch.tensor([0, 5, 9]), axis=0, unsafe=False)
'''),
}


def at_page_end(t):
    """A copy of t whose storage's last byte is followed by an inaccessible page."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                          ctypes.c_long]
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    n = t.numel() * t.element_size()
    body = max(4096, (n + 4095) // 4096 * 4096)
    addr = libc.mmap(None, body + 4096, 3, 0x22, -1, 0)
    libc.mprotect(addr + body, 4096, 0)
    buf = (ctypes.c_char * max(n, 1)).from_address(addr + body - max(n, 1))
    src = t.contiguous()
    ctypes.memmove(buf, src.data_ptr(), n)
    at_page_end.keep.append(buf)
    return torch.frombuffer(buf, dtype=torch.uint8)[:n].view(t.dtype).view(t.shape)


at_page_end.keep = []


def child(code):
    torch.set_num_threads(1)
    import warnings
    warnings.simplefilter("ignore")
    env = {"at_page_end": at_page_end}
    exec(PRELUDE + code, env)


def run(rid):
    ops, expect, code = REPROS[rid]
    p = mp.get_context("fork").Process(target=child, args=(code,))
    p.start()
    p.join(60)
    if p.is_alive():
        p.kill()
        p.join()
        return False, "timeout"
    if expect == "dies":
        return p.exitcode < 0, "died of signal %d" % -p.exitcode if p.exitcode < 0 else "exit %d" % p.exitcode
    return p.exitcode == 0, "the assert holds" if p.exitcode == 0 else "exit %d (see above)" % p.exitcode


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if "--list" in sys.argv:
        for rid, (ops, expect, _) in REPROS.items():
            print("%s\t%s\t%s" % (rid, expect, " ".join(ops)))
        return 0
    if "--markdown" in sys.argv:  # each (or each named) as a report body, with the helpers it uses
        for rid in args or REPROS:
            ops, expect, code = REPROS[rid]
            helpers = PRELUDE.split("\n", 2)[2] if "shares(" in code or "nan" in code or "inf" in code else ""
            print("#### `%s` (%s)\n\n```python\nimport torch\n%s%s```\n" % (rid, ", ".join("`%s`" % o for o in ops),
                                                                         helpers, code))
        return 0
    bad = 0
    print("torch", torch.__version__)
    for rid in args or REPROS:
        ok, what = run(rid)
        bad += not ok
        print("%s: %s (%s)" % (rid, "reproduces" if ok else "DOES NOT reproduce", what), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
