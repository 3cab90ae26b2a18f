/* subtlekernels.c - kernels with subtle memory bugs, each next to a correct
 * kernel of the same shape, one group per class of bug the verifier once
 * missed (issue 16). tests/cli/verify_subtle.sh checks that every buggy one
 * is caught, with the verdict it names, and every correct one is ok. Each
 * kernel takes float32 or float64 inputs of any layout and rejects others,
 * except where the class is about dtypes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tensoralias/kernel.h>

static bool is_float(const DLTensor *x)
{
    return x && x->dtype.code == kDLFloat && (x->dtype.bits == 32 || x->dtype.bits == 64);
}

static double get(const DLTensor *x, int64_t i)
{
    void *p = ta_elem_ptr(x, i);
    return x->dtype.bits == 32 ? (double)*(float *)p : *(double *)p;
}

static void put(const DLTensor *x, int64_t i, double v)
{
    void *p = ta_elem_ptr(x, i);
    if (x->dtype.bits == 32) *(float *)p = (float)v;
    else *(double *)p = v;
}

static ta_status ret1(ta_stack *st, DLTensor *t)
{
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, t);
}

/* A new contiguous tensor like x holding f(x). */
static DLTensor *map_new(ta_kernel_ctx *ctx, const DLTensor *x, double (*f)(double))
{
    DLTensor *y = ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape);
    if (!y) return NULL;
    for (int64_t i = 0, n = ta_numel(x); i < n; i++) put(y, i, f(get(x, i)));
    return y;
}

static double ident(double v) { return v; }
static double twice(double v) { return 2 * v; }

/* out = f(self), resized as torch's out= kernels do. */
static ta_status map_out(ta_kernel_ctx *ctx, ta_stack *st, double (*f)(double), bool write)
{
    DLTensor *x = ta_stack_tensor(st, 0), *out = ta_stack_tensor(st, 1);
    if (!is_float(x) || !out || !ta_dtype_eq(x->dtype, out->dtype))
        return ta_kernel_error(ctx, "expected float tensors of one dtype");
    if (ta_kernel_resize(ctx, out, x->ndim, x->shape) != TA_OK) return ta_kernel_error(ctx, "resize");
    for (int64_t i = 0, n = ta_numel(x); write && i < n; i++) put(out, i, f(get(x, i)));
    return ret1(st, out);
}

/* ---- names: exemptions are aten's, not every namespace's --------------- */

/* mylib::to(Tensor(a) self, ScalarType dtype) -> Tensor(a): declared a
 * view, returns a copy (aten::to may; mylib::to may not). */
static ta_status to_copies(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!is_float(x)) return ta_kernel_error(ctx, "float only");
    DLTensor *y = map_new(ctx, x, ident);
    return y ? ret1(st, y) : ta_kernel_error(ctx, "out of memory");
}

/* Correct: mylib::to_view(Tensor(a) self, ScalarType dtype) -> Tensor(a) returns a view. */
static ta_status to_view(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!is_float(x)) return ta_kernel_error(ctx, "float only");
    int64_t strides[8];
    ta_strides_of(x, strides);
    DLTensor *y = ta_kernel_view(ctx, x, x->ndim, x->shape, strides, x->byte_offset);
    return y ? ret1(st, y) : ta_kernel_error(ctx, "cannot view");
}

/* mylib::empty_mask.out(Tensor self, *, Tensor(a!) out): sizes out and never
 * writes it (aten::empty.out may; this is not an empty). */
static ta_status empty_mask_out(ta_kernel_ctx *ctx, ta_stack *st) { return map_out(ctx, st, ident, false); }
/* Correct: mylib::empty_mask_good.out writes every element. */
static ta_status empty_mask_good_out(ta_kernel_ctx *ctx, ta_stack *st) { return map_out(ctx, st, ident, true); }

/* ---- one verdict: the most specific of several findings ---------------- */

/* mylib::out_aliases.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!):
 * returns a view of self instead of out, and leaves out unwritten. */
static ta_status out_aliases(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!is_float(x)) return ta_kernel_error(ctx, "float only");
    int64_t strides[8];
    ta_strides_of(x, strides);
    DLTensor *y = ta_kernel_view(ctx, x, x->ndim, x->shape, strides, x->byte_offset);
    return y ? ret1(st, y) : ta_kernel_error(ctx, "cannot view");
}

/* Correct: mylib::out_good.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!). */
static ta_status out_good(ta_kernel_ctx *ctx, ta_stack *st) { return map_out(ctx, st, twice, true); }

/* ---- writes outside a written argument's view -------------------------- */

/* mylib::scale_(Tensor(a!) self) -> Tensor(a!): doubles numel elements laid
 * end to end from the view's first one, as if self were contiguous; on a
 * sliced self it writes the gaps between its elements. */
static ta_status scale_(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!is_float(x)) return ta_kernel_error(ctx, "float only");
    DLTensor flat = *x;
    int64_t n = ta_numel(x);
    flat.ndim = 1;
    flat.shape = &n;
    flat.strides = NULL;
    for (int64_t i = 0; i < n; i++) put(&flat, i, 2 * get(&flat, i));
    return ret1(st, x);
}

/* Correct: mylib::scale_good_(Tensor(a!) self) -> Tensor(a!) goes through the strides. */
static ta_status scale_good_(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!is_float(x)) return ta_kernel_error(ctx, "float only");
    for (int64_t i = 0, n = ta_numel(x); i < n; i++) put(x, i, 2 * get(x, i));
    return ret1(st, x);
}

/* mylib::fill_out.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!): writes
 * out from the start of its storage, ignoring its offset; on an out that is
 * a view into a larger storage it writes bytes before the view. */
static ta_status fill_out(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0), *out = ta_stack_tensor(st, 1);
    if (!is_float(x) || !out || !ta_dtype_eq(x->dtype, out->dtype))
        return ta_kernel_error(ctx, "expected float tensors of one dtype");
    if (ta_kernel_resize(ctx, out, x->ndim, x->shape) != TA_OK) return ta_kernel_error(ctx, "resize");
    DLTensor at0 = *out;
    at0.byte_offset = 0;
    for (int64_t i = 0, n = ta_numel(x); i < n; i++) put(&at0, i, get(x, i));
    return ret1(st, out);
}

/* Correct: mylib::fill_good.out, the same through the offset. */
static ta_status fill_good(ta_kernel_ctx *ctx, ta_stack *st) { return map_out(ctx, st, ident, true); }

/* ---- before a storage's start ------------------------------------------ */

/* y[i] = (x[i] + x[i + 1]) / 2 over the flattened elements, the last one kept. */
static ta_status smooth_into(ta_kernel_ctx *ctx, ta_stack *st, bool write_before)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!is_float(x)) return ta_kernel_error(ctx, "float only");
    DLTensor *y = ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape);
    if (!y) return ta_kernel_error(ctx, "out of memory");
    int64_t n = ta_numel(x);
    for (int64_t i = 0; i < n; i++) put(y, i, i + 1 < n ? (get(x, i) + get(x, i + 1)) / 2 : get(x, i));
    /* The bug: a stencil's "previous" slot, written for element 0 too. */
    if (write_before && n > 0) {
        DLTensor prev = *y;
        prev.byte_offset -= ta_dtype_size(y->dtype);
        put(&prev, 0, 0.0);
    }
    return ret1(st, y);
}

/* mylib::smooth(Tensor self) -> Tensor: writes the element before its
 * output's first. */
static ta_status smooth(ta_kernel_ctx *ctx, ta_stack *st) { return smooth_into(ctx, st, true); }
/* Correct: mylib::smooth_good(Tensor self) -> Tensor. */
static ta_status smooth_good(ta_kernel_ctx *ctx, ta_stack *st) { return smooth_into(ctx, st, false); }

/* mylib::diff(Tensor self) -> Tensor: y[i] = x[i] - x[i - 1], reading the
 * element before x's first for i = 0. */
static ta_status diff(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!is_float(x) || !ta_is_contiguous(x)) return ta_kernel_error(ctx, "contiguous float only");
    DLTensor *y = ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape);
    if (!y) return ta_kernel_error(ctx, "out of memory");
    DLTensor prev = *x;
    prev.byte_offset -= ta_dtype_size(x->dtype);
    volatile double sink = 0;
    for (int64_t i = 0, n = ta_numel(x); i < n; i++) {
        double before = get(&prev, i); /* the bug: i = 0 reads before x */
        sink = before;
        put(y, i, get(x, i) - (i ? before : 0.0));
    }
    (void)sink;
    return ret1(st, y);
}

ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version);
ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version)
{
    if (abi_version != TA_KERNEL_ABI_VERSION) return TA_ERR_UNSUPPORTED;
    static const struct {
        const char *schema;
        ta_kernel_fn fn;
    } ops[] = {
        {"mylib::to(Tensor(a) self, ScalarType dtype) -> Tensor(a)", to_copies},
        {"mylib::to_view(Tensor(a) self, ScalarType dtype) -> Tensor(a)", to_view},
        {"mylib::empty_mask.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", empty_mask_out},
        {"mylib::empty_mask_good.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", empty_mask_good_out},
        {"mylib::out_aliases.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_aliases},
        {"mylib::out_good.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_good},
        {"mylib::scale_(Tensor(a!) self) -> Tensor(a!)", scale_},
        {"mylib::scale_good_(Tensor(a!) self) -> Tensor(a!)", scale_good_},
        {"mylib::fill_out.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", fill_out},
        {"mylib::fill_good.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", fill_good},
        {"mylib::smooth(Tensor self) -> Tensor", smooth},
        {"mylib::smooth_good(Tensor self) -> Tensor", smooth_good},
        {"mylib::diff(Tensor self) -> Tensor", diff},
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        ta_status s = ta_register_op(reg, ops[i].schema, TA_KEY_CPU, ops[i].fn, NULL);
        if (s != TA_OK) return s;
    }
    return TA_OK;
}
