/* pickykernels.c - kernels that reject every case until it has the shape,
 * dtype, layout or values they want, each saying why the way real kernels
 * do (c10's templates, a TORCH_CHECK's quoted condition, words, a message
 * with only a source line), and one per kind of demand input discovery
 * must meet (tests/cli/verify_discovery.sh). Without discovery none is
 * exercised; with it every one is, and picky::hidden_write then shows the
 * write its schema does not declare, as torchaudio's core loops did. */
#include <stdio.h>
#include <string.h>

#include <tensoralias/kernel.h>

#include "picky_common.h"

static bool is_f32(const DLTensor *t) { return t->dtype.code == kDLFloat && t->dtype.bits == 32; }

static ta_status none(ta_stack *st)
{
    ta_stack_clear(st);
    return TA_OK;
}

/* c10's check of a dimension index against a tensor's rank. */
static ta_status dim_out_of_range(ta_kernel_ctx *ctx, const DLTensor *t, int dim)
{
    int lo = t->ndim ? -t->ndim : -1, hi = t->ndim ? t->ndim - 1 : 0;
    if (!t->ndim && (dim > 0 || dim < -1))
        return ta_kernel_error(ctx, "Dimension specified as %d but tensor has no dimensions", dim);
    return ta_kernel_error(ctx, "Dimension out of range (expected to be in range of [%d, %d], but got %d)", lo, hi, dim);
}

/* picky::boxes(Tensor input, Tensor rois) -> Tensor: input [N, C, H, W],
 * rois [K, 5], both float32 (torchvision's roi ops, in miniature). */
static ta_status boxes(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *input = ta_stack_tensor(st, 0), *rois = ta_stack_tensor(st, 1);
    if (rois->ndim != 2 || rois->shape[1] != 5) return ta_kernel_error(ctx, "rois must have shape as Tensor[K, 5]");
    if (!is_f32(input) || !is_f32(rois)) return ta_kernel_error(ctx, "\"boxes_cpu\" not implemented for '%s'",
                                                                 is_f32(input) ? ta_dtype_name(rois->dtype) : ta_dtype_name(input->dtype));
    if (input->ndim < 4) return dim_out_of_range(ctx, input, input->ndim);
    if (input->ndim > 4) return ta_kernel_error(ctx, "Expected input.dim() == 4 to be true, but got false.");
    return fresh(ctx, st, rois);
}

/* picky::pair(Tensor a, Tensor b) -> Tensor: a and b of one length,
 * a check without words (TORCH_CHECK quoting its condition). */
static ta_status pair(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *a = ta_stack_tensor(st, 0), *b = ta_stack_tensor(st, 1);
    if (a->ndim != 1) return ta_kernel_error(ctx, "Expected a.dim() == 1 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)");
    if (b->ndim != 2) return ta_kernel_error(ctx, "Expected b.dim() == 2 to be true, but got false.");
    if (a->shape[0] + 1 != b->shape[1])
        return ta_kernel_error(ctx, "Expected a.size(0) + 1 == b.size(1) to be true, but got false.");
    return fresh(ctx, st, a);
}

/* picky::gather_rows(Tensor src, Tensor rows) -> Tensor: int64 indices in
 * range of src's first dimension (an index that is not would be read past
 * src: this kernel checks, as index_select does), the argument's name not
 * one synthesis knows for an index. */
static ta_status gather_rows(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *src = ta_stack_tensor(st, 0), *rows = ta_stack_tensor(st, 1);
    if (rows->dtype.code != kDLInt || rows->dtype.bits != 64)
        return ta_kernel_error(ctx, "Expected tensor for argument #2 'rows' to have scalar type Long; but got CPU%sType instead (while checking arguments for gather_rows)",
                               is_f32(rows) ? "Float" : "Other");
    if (src->ndim < 1) return dim_out_of_range(ctx, src, 0);
    for (int64_t i = 0, n = ta_numel(rows); i < n; i++) {
        int64_t v = *(const int64_t *)ta_elem_ptr(rows, i);
        if (v < 0 || v >= src->shape[0])
            return ta_kernel_error(ctx, "index %lld is out of bounds for dimension 0 with size %lld", (long long)v,
                                   (long long)src->shape[0]);
    }
    return fresh(ctx, st, rows);
}

/* picky::accessors(Tensor w, Tensor v, Tensor s) -> (): w [C, T], v [C],
 * s [C, T], each asked for through a TensorAccessor of its rank, the
 * last argument first (as C++ evaluates a call's arguments here). */
static ta_status accessors(ta_kernel_ctx *ctx, ta_stack *st)
{
    static const int want[3] = {2, 1, 2};
    for (int i = 2; i >= 0; i--) {
        const DLTensor *t = ta_stack_tensor(st, (size_t)i);
        if (t->ndim != want[i])
            return ta_kernel_error(ctx, "TensorAccessor expected %d dims but tensor has %d", want[i], t->ndim);
    }
    return none(st);
}

/* picky::hidden_write(Tensor x, Tensor y) -> (): once x is contiguous, 1-D
 * and not empty, and y is [x.size(0), 4] float32, it writes y, whose
 * schema says nothing of it (no '!'). */
static ta_status hidden_write(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *x = ta_stack_tensor(st, 0);
    DLTensor *y = ta_stack_tensor(st, 1);
    if (!ta_is_contiguous(x)) return ta_kernel_error(ctx, "x must be contiguous");
    if (x->ndim != 1) return ta_kernel_error(ctx, "x should be a 1d tensor, got %dD", x->ndim);
    if (x->shape[0] == 0) return ta_kernel_error(ctx, "x cannot be empty");
    if (y->ndim != 2 || y->shape[0] != x->shape[0])
        return ta_kernel_error(ctx, "Expected y.dim() == 2 && y.size(0) == x.size(0) to be true, but got false.");
    if (y->shape[1] != 4) return ta_kernel_error(ctx, "y should have 4 elements in dimension 1, got %lld", (long long)y->shape[1]);
    if (!is_f32(y)) return ta_kernel_error(ctx, "expected scalar type Float but found %s", y->dtype.bits == 64 ? "Double" : "Long");
    *(float *)ta_elem_ptr(y, 0) = 1.0f;
    return none(st);
}

/* picky::quiet(Tensor x) -> Tensor: x 4-D int32, said only by where the
 * check is (a stable-ABI check without a message). */
static ta_status quiet(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *x = ta_stack_tensor(st, 0);
    if (x->ndim != 4) return ta_kernel_error(ctx, "quiet_kernel, /src/quiet_kernel.cpp:42, ");
    if (x->dtype.code != kDLInt || x->dtype.bits != 32) return ta_kernel_error(ctx, "quiet_kernel, /src/quiet_kernel.cpp:43, ");
    return fresh(ctx, st, x);
}

/* picky::never(Tensor x) -> Tensor: rejects everything, the same way:
 * discovery must give up within its bounds. */
static ta_status never(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)st;
    return ta_kernel_error(ctx, "never: this kernel accepts nothing");
}

/* picky::screened(Tensor x) -> Tensor: wants x [N, 7], and says nothing
 * useful when refusing; its screen (a shape function, as a Meta kernel
 * is) says what it wants, so only a screened discovery gets there. */
static ta_status screened(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *x = ta_stack_tensor(st, 0);
    if (x->ndim != 2 || x->shape[1] != 7) return ta_kernel_error(ctx, "screened: refused");
    return fresh(ctx, st, x);
}

static ta_status screened_meta(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *x = ta_stack_tensor(st, 0);
    if (x->ndim != 2) return ta_kernel_error(ctx, "Expected x.dim() == 2 to be true, but got false.");
    if (x->shape[1] != 7)
        return ta_kernel_error(ctx, "x should have 7 elements in dimension 1, got %lld", (long long)x->shape[1]);
    return TA_OK;
}

/* picky::roi_backward(grad, rois, argmax, channels, batch_size): torchvision
 * 0.29's roi backward checks in miniature: rois [K, 5] whose first column
 * is a batch index in [0, batch_size), grad of a shape spelled with the
 * schema's own names ([K, channels]), argmax of grad's shape. */
static ta_status roi_backward(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *grad = ta_stack_tensor(st, 0), *rois = ta_stack_tensor(st, 1), *argmax = ta_stack_tensor(st, 2);
    int64_t channels = ta_stack_int(st, 3, -1), batch = ta_stack_int(st, 4, -1);
    if (rois->ndim != 2 || rois->shape[1] != 5) return ta_kernel_error(ctx, "rois must have shape as Tensor[K, 5]");
    if (grad->ndim != 2 || grad->shape[0] != rois->shape[0] || grad->shape[1] != channels)
        return ta_kernel_error(ctx, "roi_backward, roi_kernel.cpp:225, grad should have shape [K, channels]");
    if (argmax->ndim != grad->ndim || argmax->shape[0] != grad->shape[0] || argmax->shape[1] != grad->shape[1])
        return ta_kernel_error(ctx, "argmax should have the same shape as grad");
    if (!is_f32(grad) || !is_f32(rois)) return ta_kernel_error(ctx, "\"roi_backward\" not implemented for '%s'",
                                                               ta_dtype_name(is_f32(grad) ? rois->dtype : grad->dtype));
    for (int64_t k = 0; k < rois->shape[0]; k++) {
        float b = *(const float *)ta_elem_ptr(rois, k * 5);
        if (!(b >= 0 && b < (float)batch)) return ta_kernel_error(ctx, "rois batch index must be in [0, batch_size)");
    }
    return fresh(ctx, st, grad);
}

/* picky::pooled_grad(grad, mapping, rois, channels, pooled_height,
 * pooled_width): torchvision 0.29's ps_roi_pool backward in miniature: a
 * shape whose sizes are expressions of the schema's ints, K that the
 * message leaves to be one of two tensors' first size (rois'; mapping's
 * is any), the message the same until every size is right. */
static ta_status pooled_grad(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *grad = ta_stack_tensor(st, 0), *rois = ta_stack_tensor(st, 2);
    int64_t channels = ta_stack_int(st, 3, -1), ph = ta_stack_int(st, 4, -1), pw = ta_stack_int(st, 5, -1);
    if (ph <= 0 || pw <= 0) return ta_kernel_error(ctx, "pooled_height and pooled_width must be > 0");
    if (rois->ndim != 2 || rois->shape[1] != 5) return ta_kernel_error(ctx, "rois must have shape as Tensor[K, 5]");
    if (grad->ndim != 4 || grad->shape[0] != rois->shape[0] || grad->shape[1] != channels / (ph * pw) ||
        grad->shape[2] != ph || grad->shape[3] != pw)
        return ta_kernel_error(ctx, "pooled_grad, pool_kernel.cpp:264, grad should have shape "
                                    "[K, channels / (pooled_height * pooled_width), pooled_height, pooled_width]");
    return fresh(ctx, st, grad);
}

/* picky::jagged_rows(Tensor values, Tensor x_offsets, Tensor y) -> Tensor:
 * FBGEMM's jagged checks in miniature. T = x_offsets.numel() - 1 rows, at
 * least one (a glog CHECK_GT of a local); as many as y has (a message that
 * spells each side and its value); x_offsets int64 and offsets indeed:
 * never decreasing, from 0, within values' rows (which FBGEMM reads
 * unchecked: here a refusal that says nothing of what it wants). */
static ta_status jagged_rows(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *values = ta_stack_tensor(st, 0), *off = ta_stack_tensor(st, 1), *y = ta_stack_tensor(st, 2);
    if (off->ndim != 1) return ta_kernel_error(ctx, "TensorAccessor expected 1 dims but tensor has %d", off->ndim);
    int64_t T = off->shape[0] - 1;
    if (T <= 0) return ta_kernel_error(ctx, "[F1128 10:00:00.000 jagged.cpp:40] Check failed: T > 0 (%lld vs. 0). ", (long long)T);
    if (y->ndim < 1) return dim_out_of_range(ctx, y, 0);
    if (y->shape[0] != T)
        return ta_kernel_error(ctx, "outer_dense_size, %lld != x_offsets.numel() - 1, %lld", (long long)y->shape[0], (long long)T);
    if (off->dtype.code != kDLInt || off->dtype.bits != 64)
        return ta_kernel_error(ctx, "expected scalar type Long but found %s", ta_dtype_name(off->dtype));
    if (values->ndim < 1) return dim_out_of_range(ctx, values, 0);
    int64_t prev = 0;
    for (int64_t i = 0; i <= T; i++) {
        int64_t v = *(const int64_t *)ta_elem_ptr(off, i);
        if ((i == 0 && v != 0) || v < prev || v > values->shape[0]) return ta_kernel_error(ctx, "jagged_rows: refused");
        prev = v;
    }
    return fresh(ctx, st, y);
}

ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version)
{
    static const struct {
        const char *schema;
        ta_kernel_fn fn;
    } ops[] = {
        {"picky::boxes(Tensor input, Tensor rois) -> Tensor", boxes},
        {"picky::pair(Tensor a, Tensor b) -> Tensor", pair},
        {"picky::gather_rows(Tensor src, Tensor rows) -> Tensor", gather_rows},
        {"picky::accessors(Tensor w, Tensor v, Tensor(a!) s) -> ()", accessors},
        {"picky::hidden_write(Tensor x, Tensor y) -> ()", hidden_write},
        {"picky::quiet(Tensor x) -> Tensor", quiet},
        {"picky::never(Tensor x) -> Tensor", never},
        {"picky::screened(Tensor x) -> Tensor", screened},
        {"picky::roi_backward(Tensor grad, Tensor rois, Tensor argmax, int channels, int batch_size) -> Tensor", roi_backward},
        {"picky::jagged_rows(Tensor values, Tensor x_offsets, Tensor y) -> Tensor", jagged_rows},
        {"picky::pooled_grad(Tensor grad, Tensor mapping, Tensor rois, int channels, int pooled_height, "
         "int pooled_width) -> Tensor", pooled_grad},
    };
    if (abi_version != TA_KERNEL_ABI_VERSION) return TA_ERR_UNSUPPORTED;
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        ta_status s = ta_register_op(reg, ops[i].schema, TA_KEY_CPU, ops[i].fn, NULL);
        if (s != TA_OK) return s;
    }
    return ta_register_screen(reg, "picky::screened", screened_meta, NULL);
}
