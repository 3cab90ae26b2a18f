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

/* Element i of any of the dtypes the verifier makes, as a double, and back. */
static double getg(const DLTensor *x, int64_t i)
{
    const void *p = ta_elem_ptr(x, i);
    switch (x->dtype.code) {
    case kDLFloat: return x->dtype.bits == 32 ? (double)*(const float *)p : *(const double *)p;
    case kDLInt: return x->dtype.bits == 64 ? (double)*(const int64_t *)p : (double)*(const int32_t *)p;
    default: return (double)*(const uint8_t *)p;
    }
}

static void putg(const DLTensor *x, int64_t i, double v)
{
    void *p = ta_elem_ptr(x, i);
    switch (x->dtype.code) {
    case kDLFloat:
        if (x->dtype.bits == 32) *(float *)p = (float)v;
        else *(double *)p = v;
        break;
    case kDLInt:
        if (x->dtype.bits == 64) *(int64_t *)p = (int64_t)v;
        else *(int32_t *)p = (int32_t)v;
        break;
    default: *(uint8_t *)p = v != 0; break;
    }
}

static bool is_known(const DLTensor *x)
{
    if (!x) return false;
    DLDataType d = x->dtype;
    return (d.code == kDLFloat && (d.bits == 32 || d.bits == 64)) ||
           (d.code == kDLInt && (d.bits == 32 || d.bits == 64)) || (d.code == TA_DL_BOOL && d.bits == 8);
}

/* A new contiguous copy of x (any known dtype). */
static DLTensor *copy_new(ta_kernel_ctx *ctx, const DLTensor *x)
{
    DLTensor *y;
    if (ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape, &y) != TA_OK) return NULL;
    size_t es = ta_dtype_size(x->dtype);
    for (int64_t i = 0, n = ta_numel(x); i < n; i++) memcpy(ta_elem_ptr(y, i), ta_elem_ptr(x, i), es);
    return y;
}

static ta_status ret1(ta_stack *st, DLTensor *t)
{
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, t);
}

/* A new contiguous tensor like x holding f(x). */
static DLTensor *map_new(ta_kernel_ctx *ctx, const DLTensor *x, double (*f)(double))
{
    DLTensor *y;
    if (ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape, &y) != TA_OK) return NULL;
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
    DLTensor *y;
    if (ta_kernel_view(ctx, x, x->ndim, x->shape, strides, x->byte_offset, &y) != TA_OK)
        return ta_kernel_error(ctx, "cannot view");
    return ret1(st, y);
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
    DLTensor *y;
    if (ta_kernel_view(ctx, x, x->ndim, x->shape, strides, x->byte_offset, &y) != TA_OK)
        return ta_kernel_error(ctx, "cannot view");
    return ret1(st, y);
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
    DLTensor *y;
    if (ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape, &y) != TA_OK)
        return ta_kernel_error(ctx, "out of memory");
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
    DLTensor *y;
    if (ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape, &y) != TA_OK)
        return ta_kernel_error(ctx, "out of memory");
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

/* ---- sizes and values small cases never have -------------------------- */

/* mylib::blocked_copy(Tensor self) -> Tensor: from 1,024 elements on, a
 * "blocked" path that clears its source's last element after copying. */
static ta_status blocked_copy_into(ta_kernel_ctx *ctx, ta_stack *st, bool bug)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!is_known(x)) return ta_kernel_error(ctx, "unknown dtype");
    DLTensor *y = copy_new(ctx, x);
    if (!y) return ta_kernel_error(ctx, "out of memory");
    int64_t n = ta_numel(x);
    if (bug && n >= 1024) memset(ta_elem_ptr(x, n - 1), 0, ta_dtype_size(x->dtype));
    return ret1(st, y);
}
static ta_status blocked_copy(ta_kernel_ctx *ctx, ta_stack *st) { return blocked_copy_into(ctx, st, true); }
/* Correct: mylib::blocked_copy_good(Tensor self) -> Tensor. */
static ta_status blocked_copy_good(ta_kernel_ctx *ctx, ta_stack *st) { return blocked_copy_into(ctx, st, false); }

/* mylib::parallel_copy(Tensor self) -> Tensor: above 32,768 elements (ATen's
 * grain size) a "parallel" path that uses its source's first element as a
 * flag. */
static ta_status parallel_copy(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!is_known(x)) return ta_kernel_error(ctx, "unknown dtype");
    DLTensor *y = copy_new(ctx, x);
    if (!y) return ta_kernel_error(ctx, "out of memory");
    if (ta_numel(x) > 32768) memset(ta_elem_ptr(x, 0), 0xff, ta_dtype_size(x->dtype));
    return ret1(st, y);
}

/* mylib::nan_clean(Tensor self) -> Tensor: NaN becomes 0, and the kernel
 * "cleans" its input as well. */
static ta_status nan_clean_into(ta_kernel_ctx *ctx, ta_stack *st, bool bug)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!is_float(x)) return ta_kernel_error(ctx, "float only");
    DLTensor *y = map_new(ctx, x, ident);
    if (!y) return ta_kernel_error(ctx, "out of memory");
    for (int64_t i = 0, n = ta_numel(x); i < n; i++)
        if (isnan(get(x, i))) {
            put(y, i, 0.0);
            if (bug) put(x, i, 0.0);
        }
    return ret1(st, y);
}
static ta_status nan_clean(ta_kernel_ctx *ctx, ta_stack *st) { return nan_clean_into(ctx, st, true); }
/* Correct: mylib::nan_clean_good(Tensor self) -> Tensor. */
static ta_status nan_clean_good(ta_kernel_ctx *ctx, ta_stack *st) { return nan_clean_into(ctx, st, false); }

/* ---- bugs behind a flag, an enum or a dtype ---------------------------- */

/* mylib::normalize(Tensor self, bool inplace=False) -> Tensor: with
 * inplace=True it also writes the result into self, which the schema does
 * not declare. */
static ta_status normalize_into(ta_kernel_ctx *ctx, ta_stack *st, bool bug)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!is_known(x)) return ta_kernel_error(ctx, "unknown dtype");
    bool inplace = ta_stack_int(st, 1, 0) != 0;
    DLTensor *y = copy_new(ctx, x);
    if (!y) return ta_kernel_error(ctx, "out of memory");
    for (int64_t i = 0, n = ta_numel(x); bug && inplace && i < n; i++) putg(x, i, 0.0);
    return ret1(st, y);
}
static ta_status normalize(ta_kernel_ctx *ctx, ta_stack *st) { return normalize_into(ctx, st, true); }
/* Correct: mylib::normalize_good(Tensor self, bool inplace=False) -> Tensor. */
static ta_status normalize_good(ta_kernel_ctx *ctx, ta_stack *st) { return normalize_into(ctx, st, false); }

/* mylib::cast(Tensor self, ScalarType dtype) -> Tensor: asked for int64
 * (ScalarType 4), it returns self itself, whatever self's dtype. */
static ta_status cast_into(ta_kernel_ctx *ctx, ta_stack *st, bool bug)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    DLDataType dt;
    if (!is_known(x) || !ta_dtype_from_scalar_type(ta_stack_int(st, 1, -1), &dt))
        return ta_kernel_error(ctx, "unknown dtype");
    if (bug && dt.code == kDLInt && dt.bits == 64) return ret1(st, x);
    DLTensor *y;
    if (ta_kernel_empty(ctx, dt, x->ndim, x->shape, &y) != TA_OK || !is_known(y))
        return ta_kernel_error(ctx, "cannot make the result");
    for (int64_t i = 0, n = ta_numel(x); i < n; i++) putg(y, i, getg(x, i));
    return ret1(st, y);
}
static ta_status cast(ta_kernel_ctx *ctx, ta_stack *st) { return cast_into(ctx, st, true); }
/* Correct: mylib::cast_good(Tensor self, ScalarType dtype) -> Tensor. */
static ta_status cast_good(ta_kernel_ctx *ctx, ta_stack *st) { return cast_into(ctx, st, false); }

/* mylib::int_sum(Tensor self) -> Tensor: on int32 inputs it keeps a running
 * total (plus one) in self's first element. */
static ta_status int_sum_into(ta_kernel_ctx *ctx, ta_stack *st, bool bug)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!is_known(x)) return ta_kernel_error(ctx, "unknown dtype");
    DLTensor *y;
    if (ta_kernel_empty(ctx, TA_DTYPE_F64, 0, NULL, &y) != TA_OK)
        return ta_kernel_error(ctx, "out of memory");
    double sum = 0;
    int64_t n = ta_numel(x);
    for (int64_t i = 0; i < n; i++) sum += getg(x, i);
    if (bug && x->dtype.code == kDLInt && x->dtype.bits == 32 && n > 0) putg(x, 0, sum + 1);
    *(double *)y->data = sum;
    return ret1(st, y);
}
static ta_status int_sum(ta_kernel_ctx *ctx, ta_stack *st) { return int_sum_into(ctx, st, true); }
/* Correct: mylib::int_sum_good(Tensor self) -> Tensor. */
static ta_status int_sum_good(ta_kernel_ctx *ctx, ta_stack *st) { return int_sum_into(ctx, st, false); }

/* mylib::loss(Tensor self, int reduction=1) -> Tensor: with reduction=0
 * (None) it returns self itself instead of a copy. */
static ta_status loss_into(ta_kernel_ctx *ctx, ta_stack *st, bool bug)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!is_known(x)) return ta_kernel_error(ctx, "unknown dtype");
    int64_t reduction = ta_stack_int(st, 1, 1);
    if (reduction < 0 || reduction > 2) return ta_kernel_error(ctx, "reduction out of range");
    if (bug && reduction == 0) return ret1(st, x);
    DLTensor *y = copy_new(ctx, x);
    return y ? ret1(st, y) : ta_kernel_error(ctx, "out of memory");
}
static ta_status loss(ta_kernel_ctx *ctx, ta_stack *st) { return loss_into(ctx, st, true); }
/* Correct: mylib::loss_good(Tensor self, int reduction=1) -> Tensor. */
static ta_status loss_good(ta_kernel_ctx *ctx, ta_stack *st) { return loss_into(ctx, st, false); }

/* ---- write then restore ------------------------------------------------ */

/* mylib::peek(Tensor self) -> Tensor: uses self's first element as scratch
 * and puts the old bytes back before returning: nothing to see afterwards. */
static ta_status peek_into(ta_kernel_ctx *ctx, ta_stack *st, bool bug)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!is_known(x)) return ta_kernel_error(ctx, "unknown dtype");
    DLTensor *y = copy_new(ctx, x);
    if (!y) return ta_kernel_error(ctx, "out of memory");
    if (bug && ta_numel(x) > 0) {
        unsigned char saved[8];
        size_t es = ta_dtype_size(x->dtype);
        memcpy(saved, ta_elem_ptr(x, 0), es);
        memset(ta_elem_ptr(x, 0), 0, es);
        memcpy(ta_elem_ptr(x, 0), saved, es);
    }
    return ret1(st, y);
}
static ta_status peek(ta_kernel_ctx *ctx, ta_stack *st) { return peek_into(ctx, st, true); }
/* Correct: mylib::peek_good(Tensor self) -> Tensor. */
static ta_status peek_good(ta_kernel_ctx *ctx, ta_stack *st) { return peek_into(ctx, st, false); }

/* ---- Scalar[]: values the kernel reads from a list of scalars ---------- */

/* Adds scalars[i] to every element of self[i] (float32/float64 tensors;
 * one scalar of any kind per tensor, else a rejected case). */
static ta_status shift_each(ta_kernel_ctx *ctx, ta_stack *st)
{
    const ta_value *l = ta_stack_at(st, 0), *sc = ta_stack_at(st, 1);
    if (!l || l->tag != TA_VAL_TENSOR_LIST || !sc || sc->tag != TA_VAL_SCALAR_LIST)
        return ta_kernel_error(ctx, "shift: expected a tensor list and a scalar list");
    if (sc->u.scalars.n != l->u.tensors.n) return ta_kernel_error(ctx, "shift: one scalar per tensor");
    for (size_t k = 0; k < l->u.tensors.n; k++)
        if (!is_float(l->u.tensors.items[k])) return ta_kernel_error(ctx, "shift: float tensors only");
    for (size_t k = 0; k < l->u.tensors.n; k++) {
        const ta_scalar *s = &sc->u.scalars.items[k];
        double by = s->kind == TA_SCALAR_FLOAT ? s->u.f : s->kind == TA_SCALAR_INT ? (double)s->u.i : s->u.b;
        const DLTensor *x = l->u.tensors.items[k];
        for (int64_t i = 0; i < ta_numel(x); i++) put(x, i, get(x, i) + by);
    }
    ta_stack_clear(st);
    return TA_OK;
}
/* Wrong: mylib::shift_each(Tensor[] self, Scalar[] scalars) -> () writes self. */
/* Correct: mylib::shift_each_good_(Tensor(a!)[] self, Scalar[] scalars) -> (). */

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
        {"mylib::blocked_copy(Tensor self) -> Tensor", blocked_copy},
        {"mylib::blocked_copy_good(Tensor self) -> Tensor", blocked_copy_good},
        {"mylib::parallel_copy(Tensor self) -> Tensor", parallel_copy},
        {"mylib::nan_clean(Tensor self) -> Tensor", nan_clean},
        {"mylib::nan_clean_good(Tensor self) -> Tensor", nan_clean_good},
        {"mylib::normalize(Tensor self, bool inplace=False) -> Tensor", normalize},
        {"mylib::normalize_good(Tensor self, bool inplace=False) -> Tensor", normalize_good},
        {"mylib::cast(Tensor self, ScalarType dtype) -> Tensor", cast},
        {"mylib::cast_good(Tensor self, ScalarType dtype) -> Tensor", cast_good},
        {"mylib::int_sum(Tensor self) -> Tensor", int_sum},
        {"mylib::int_sum_good(Tensor self) -> Tensor", int_sum_good},
        {"mylib::loss(Tensor self, int reduction=1) -> Tensor", loss},
        {"mylib::loss_good(Tensor self, int reduction=1) -> Tensor", loss_good},
        {"mylib::peek(Tensor self) -> Tensor", peek},
        {"mylib::peek_good(Tensor self) -> Tensor", peek_good},
        {"mylib::shift_each(Tensor[] self, Scalar[] scalars) -> ()", shift_each},
        {"mylib::shift_each_good_(Tensor(a!)[] self, Scalar[] scalars) -> ()", shift_each},
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        ta_status s = ta_register_op(reg, ops[i].schema, TA_KEY_CPU, ops[i].fn, NULL);
        if (s != TA_OK) return s;
    }
    return TA_OK;
}
