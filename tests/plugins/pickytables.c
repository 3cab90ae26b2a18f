/* pickytables.c - kernels with many tensor arguments that check them the
 * way FBGEMM's table-batched embedding kernels do: through accessors and
 * typed data pointers whose messages name no tensor ("TensorAccessor
 * expected 1 dims but tensor has 2", "expected scalar type Int but found
 * Float"), each check met again for the next tensor after other checks in
 * between. tests/cli/verify_discovery_tables.sh checks what discovery
 * costs on them: the order of an unnamed demand's candidates by the
 * arguments' names (learn_prior.c) and a check met again for another
 * tensor taken as a step forward (search.c). */
#include <stdio.h>
#include <string.h>

#include <tensoralias/kernel.h>

#include "picky_common.h"

static bool is_int(const DLTensor *t, int bits) { return t->dtype.code == kDLInt && t->dtype.bits == bits; }

static const char *dtype_word(const DLTensor *t) { return ta_dtype_name(t->dtype); }

/* c10's accessor check: rank first, then dtype, neither naming the tensor. */
static ta_status accessor(ta_kernel_ctx *ctx, const DLTensor *t, int bits, bool *ok)
{
    *ok = false;
    if (t->ndim != 1) return ta_kernel_error(ctx, "TensorAccessor expected 1 dims but tensor has %d", t->ndim);
    if (!is_int(t, bits))
        return ta_kernel_error(ctx, "expected scalar type %s but found %s", bits == 32 ? "Int" : "Long", dtype_word(t));
    *ok = true;
    return TA_OK;
}

/* pickytables::lookup(Tensor grad_output, Tensor host_weights, Tensor
 * momentum, Tensor lxu_cache_weights, Tensor uvm_weights, Tensor
 * D_offsets, Tensor weights_offsets, Tensor hash_size_cumsum, Tensor
 * indices) -> Tensor: five float tensors the kernel does not look at, then
 * four integer ones read through accessors (D_offsets int32, the others
 * int64, all 1-D); grad_output 2-D, said by name in between. */
static ta_status lookup(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *grad = ta_stack_tensor(st, 0);
    bool ok;
    ta_status s = accessor(ctx, ta_stack_tensor(st, 5), 32, &ok);
    if (!ok) return s;
    if (grad->ndim != 2)
        return ta_kernel_error(ctx, "Expected grad_output.dim() == 2 to be true, but got false.");
    for (int i = 6; i <= 8; i++)
        if (s = accessor(ctx, ta_stack_tensor(st, i), 64, &ok), !ok) return s;
    return fresh(ctx, st, grad);
}

/* pickytables::padding(Tensor input, bool scale_bias_last, bool
 * quant_padding_float_type) -> Tensor: combinations of settings refused
 * in words that spell them (FBGEMM's 8-bit dequantization); one of the
 * four runs. */
static ta_status padding(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *input = ta_stack_tensor(st, 0);
    bool last = ta_stack_int(st, 1, 0) != 0, padded = ta_stack_int(st, 2, 0) != 0;
    if (last)
        return ta_kernel_error(ctx, "%d-byte padding (quant_padding_float_type=%s) only works with scale_bias_last=false",
                               padded ? 4 : 2, padded ? "true" : "false");
    if (!padded) return ta_kernel_error(ctx, "scale_bias_last=false only works with quant_padding_float_type=true");
    return fresh(ctx, st, input);
}

/* pickytables::jagged(Tensor values, Tensor[] x_offsets, Tensor y) ->
 * Tensor: the rows of y viewed as one (a local of value 1, which no size of
 * the case has when y's first size is not 1) must be x_offsets[0]'s count,
 * said with each side's value (FBGEMM's jagged checks). */
static ta_status jagged(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *y = ta_stack_tensor(st, 2);
    const ta_value *offs = ta_stack_at(st, 1);
    if (!offs || offs->tag != TA_VAL_TENSOR_LIST || offs->u.tensors.n < 1 || !offs->u.tensors.items[0])
        return ta_kernel_error(ctx, "x_offsets must not be empty");
    const DLTensor *first = offs->u.tensors.items[0];
    int64_t rows = first->ndim ? ta_numel(first) - 1 : 0;
    if (rows != 1) return ta_kernel_error(ctx, "outer_dense_size, 1 != x_offsets[0].numel() - 1, %lld", (long long)rows);
    return fresh(ctx, st, y);
}

ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version)
{
    if (abi_version != TA_KERNEL_ABI_VERSION) return TA_ERR_UNSUPPORTED;
    ta_status s = ta_register_op(reg,
                                 "pickytables::lookup(Tensor grad_output, Tensor host_weights, Tensor momentum, "
                                 "Tensor lxu_cache_weights, Tensor uvm_weights, Tensor D_offsets, "
                                 "Tensor weights_offsets, Tensor hash_size_cumsum, Tensor indices) -> Tensor",
                                 TA_KEY_CPU, lookup, NULL);
    if (s == TA_OK)
        s = ta_register_op(reg, "pickytables::padding(Tensor input, bool scale_bias_last=True, bool quant_padding_float_type=False) -> Tensor",
                           TA_KEY_CPU, padding, NULL);
    if (s == TA_OK)
        s = ta_register_op(reg, "pickytables::jagged(Tensor values, Tensor[] x_offsets, Tensor y) -> Tensor", TA_KEY_CPU,
                           jagged, NULL);
    return s;
}
