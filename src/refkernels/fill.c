/* fill.c - operators that write or allocate whole tensors: fill_/fill
 * (Scalar and 0-dim Tensor values), zero_/zero, copy_/copy, clone,
 * contiguous, and resize_/resize, each with the out= forms the yaml declares
 * or autogenerates.
 *
 * contiguous returns self itself (the same DLTensor) when self is already
 * contiguous in the requested format, as PyTorch does, and a copy otherwise.
 * clone keeps a dense input's strides (preserve_format). resize_ leaves a
 * tensor whose shape already matches untouched, strides included.
 */
#include <string.h>

#include "rk.h"

enum { MF_NONE = -1, MF_CONTIGUOUS = 0, MF_PRESERVE = 1, MF_CL = 2, MF_CL3D = 3 };

static int memory_format(ta_stack *st, size_t i)
{
    ta_value *v = ta_stack_at(st, i);
    if (!v || v->tag == TA_VAL_NONE) return MF_NONE;
    if (v->tag == TA_VAL_INT) return v->u.i >= 0 && v->u.i <= 3 ? (int)v->u.i : MF_NONE;
    if (v->tag == TA_VAL_STRING && v->u.s) {
        const char *s = v->u.s;
        if (!strncmp(s, "torch.", 6)) s += 6;
        if (!strcmp(s, "contiguous_format")) return MF_CONTIGUOUS;
        if (!strcmp(s, "preserve_format")) return MF_PRESERVE;
        if (!strcmp(s, "channels_last")) return MF_CL;
        if (!strcmp(s, "channels_last_3d")) return MF_CL3D;
    }
    return MF_NONE;
}

/* Strides of a memory format for a shape; false when the format needs another rank. */
static bool format_strides(int mf, int nd, const int64_t *shape, int64_t *out)
{
    if (mf == MF_CL || mf == MF_CL3D) {
        if (nd != (mf == MF_CL ? 4 : 5)) return false;
        /* channels last: C fastest, then the spatial dims from last to first, then N */
        int64_t s = 1;
        out[1] = s;
        s *= shape[1] > 1 ? shape[1] : 1;
        for (int d = nd - 1; d >= 2; d--) {
            out[d] = s;
            s *= shape[d] > 1 ? shape[d] : 1;
        }
        out[0] = s;
        return true;
    }
    rk_contig_strides(nd, shape, out);
    return true;
}

static bool same_strides(const DLTensor *t, const int64_t *strides)
{
    int64_t have[RK_MAXDIM];
    rk_get_strides(t, have);
    for (int d = 0; d < t->ndim; d++)
        if (t->shape[d] != 1 && have[d] != strides[d]) return false;
    return true;
}

/* A new tensor of x's shape laid out in memory format mf (None/preserve: like x). */
static DLTensor *alloc_format(ta_kernel_ctx *ctx, const char *name, const DLTensor *x, rk_dtype dt, int mf)
{
    if (mf == MF_NONE || mf == MF_PRESERVE) {
        DLTensor *y = rk_empty_like(ctx, x, dt);
        if (!y) rk_oom(ctx, name);
        return y;
    }
    int64_t strides[RK_MAXDIM];
    if (!format_strides(mf, x->ndim, x->shape, strides)) {
        ta_kernel_error(ctx, "%s: required rank %d tensor to use channels_last%s format", name, mf == MF_CL ? 4 : 5,
                        mf == MF_CL ? "" : "_3d");
        return NULL;
    }
    DLTensor *y;
    if (ta_kernel_empty(ctx, rk_dl(dt), x->ndim, x->shape, &y) != TA_OK) {
        rk_oom(ctx, name);
        return NULL;
    }
    if (mf != MF_CONTIGUOUS && ta_kernel_restride(ctx, y, x->ndim, x->shape, strides, 0) != TA_OK) return NULL;
    return y;
}

/* ---- fill / zero -------------------------------------------------------------------- */

static void fill_value(const DLTensor *t, const rk_scalar *v)
{
    rk_dtype d = rk_dtype_of(t->dtype);
    unsigned char elem[8];
    if (v->kind == TA_SCALAR_FLOAT) rk_storef(d, elem, v->f);
    else rk_storei(d, elem, v->i);
    rk_iter it;
    rk_iter_init(&it, t->ndim, t->shape);
    rk_iter_add(&it, t);
    size_t esz = rk_size(d);
    for (int64_t k = 0; k < it.n; k++, rk_iter_step(&it)) memcpy(it.p[0], elem, esz);
}

typedef struct fvar { const char *name; int value; } fvar; /* value: 1 Scalar, 2 Tensor, 0 zero */

static ta_status run_fill(ta_kernel_ctx *ctx, ta_stack *st, rk_mode mode)
{
    const fvar *v = ta_kernel_user_data(ctx);
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!rk_check_tensor(ctx, v->name, "self", x)) return TA_ERR_KERNEL;
    rk_scalar val = {.kind = TA_SCALAR_INT, .i = 0, .f = 0};
    if (v->value == 1 && !rk_scalar_arg(st, 1, &val))
        return ta_kernel_error(ctx, "%s: expected a Scalar value", v->name);
    if (v->value == 2) {
        DLTensor *t = ta_stack_tensor(st, 1);
        if (!rk_check_tensor(ctx, v->name, "value", t)) return TA_ERR_KERNEL;
        if (t->ndim != 0)
            return ta_kernel_error(ctx, "%s: fill_ only supports 0-dimension value tensor but got tensor with %d "
                                   "dimensions.", v->name, t->ndim);
        rk_dtype td = rk_dtype_of(t->dtype);
        val.kind = rk_is_float(td) ? TA_SCALAR_FLOAT : TA_SCALAR_INT;
        val.f = rk_loadf(td, rk_base(t));
        val.i = rk_loadi(td, rk_base(t));
    }
    rk_dtype xd = rk_dtype_of(x->dtype);
    if (!rk_scalar_fits(xd, &val))
        return ta_kernel_error(ctx, "%s: value cannot be converted to type %s without overflow", v->name, rk_name(xd));
    DLTensor *y;
    if (mode == RK_FUNC) {
        if (!(y = rk_empty_like(ctx, x, xd))) return rk_oom(ctx, v->name);
    } else if (mode == RK_INPLACE) {
        if (!rk_check_writable(ctx, v->name, x)) return TA_ERR_KERNEL;
        y = x;
    } else {
        DLTensor *o = ta_stack_tensor(st, ta_stack_size(st) - 1);
        /* the functional result has self's dtype; copying it into out may cast */
        if (!rk_check_tensor(ctx, v->name, "out", o)) return TA_ERR_KERNEL;
        if (!(y = rk_output(ctx, v->name, RK_OUT, o, rk_dtype_of(o->dtype), x->ndim, x->shape)))
            return TA_ERR_KERNEL;
        if (rk_dtype_of(o->dtype) != xd) { /* cast through self's dtype, as fill then copy would */
            unsigned char e[8];
            if (val.kind == TA_SCALAR_FLOAT) rk_storef(xd, e, val.f);
            else rk_storei(xd, e, val.i);
            val.kind = rk_is_float(xd) ? TA_SCALAR_FLOAT : TA_SCALAR_INT;
            val.f = rk_loadf(xd, e);
            val.i = rk_loadi(xd, e);
        }
    }
    fill_value(y, &val);
    return rk_return1(st, y);
}

static ta_status f_func(ta_kernel_ctx *c, ta_stack *s) { return run_fill(c, s, RK_FUNC); }
static ta_status f_inplace(ta_kernel_ctx *c, ta_stack *s) { return run_fill(c, s, RK_INPLACE); }
static ta_status f_out(ta_kernel_ctx *c, ta_stack *s) { return run_fill(c, s, RK_OUT); }

/* ---- zeros_like, ones_like, full_like, empty_like ------------------------------------------ */

typedef struct lvar { const char *name; int value; } lvar; /* value: 0, 1, 2 (the fill_value arg), -1 none */

static ta_status run_like(ta_kernel_ctx *ctx, ta_stack *st, bool out)
{
    const lvar *v = ta_kernel_user_data(ctx);
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!rk_check_tensor(ctx, v->name, "self", x)) return TA_ERR_KERNEL;
    size_t opts = v->value == 2 ? 2 : 1; /* dtype, layout, device, pin_memory, memory_format */
    rk_scalar val = {.kind = TA_SCALAR_INT, .i = v->value == 1, .f = v->value == 1};
    if (v->value == 2 && !rk_scalar_arg(st, 1, &val))
        return ta_kernel_error(ctx, "%s: expected a Scalar fill_value", v->name);
    DLTensor *y;
    if (out) {
        DLTensor *o = ta_stack_tensor(st, ta_stack_size(st) - 1);
        if (!rk_check_tensor(ctx, v->name, "out", o)) return TA_ERR_KERNEL;
        if (!(y = rk_output(ctx, v->name, RK_OUT_ANY, o, rk_dtype_of(o->dtype), x->ndim, x->shape)))
            return TA_ERR_KERNEL;
    } else {
        bool ok;
        rk_dtype d = rk_dtype_arg(st, opts, &ok);
        if (!ok) return ta_kernel_error(ctx, "%s: unsupported dtype argument", v->name);
        if (d == RK_BAD) d = rk_dtype_of(x->dtype);
        if (!(y = alloc_format(ctx, v->name, x, d, memory_format(st, opts + 4)))) return TA_ERR_KERNEL;
    }
    rk_dtype yd = rk_dtype_of(y->dtype);
    if (v->value >= 0) {
        if (!rk_scalar_fits(yd, &val))
            return ta_kernel_error(ctx, "%s: value cannot be converted to type %s without overflow", v->name,
                                   rk_name(yd));
        fill_value(y, &val);
    }
    return rk_return1(st, y);
}

static ta_status l_func(ta_kernel_ctx *c, ta_stack *s) { return run_like(c, s, false); }
static ta_status l_out(ta_kernel_ctx *c, ta_stack *s) { return run_like(c, s, true); }

/* ---- copy ------------------------------------------------------------------------------- */

static ta_status run_copy(ta_kernel_ctx *ctx, ta_stack *st, rk_mode mode)
{
    DLTensor *x = ta_stack_tensor(st, 0), *src = ta_stack_tensor(st, 1);
    if (!rk_check_tensor(ctx, "copy", "self", x) || !rk_check_tensor(ctx, "copy", "src", src)) return TA_ERR_KERNEL;
    const DLTensor *ins[2] = {x, src};
    int nd;
    int64_t shape[RK_MAXDIM];
    char a[256], b[256];
    if (!rk_broadcast(ctx, "copy_", ins, 2, &nd, shape)) return TA_ERR_KERNEL;
    if (!rk_shape_eq(x, nd, shape))
        return ta_kernel_error(ctx, "copy_: src of shape %s cannot be broadcast to self of shape %s",
                               rk_shape_str(a, sizeof a, src->ndim, src->shape),
                               rk_shape_str(b, sizeof b, x->ndim, x->shape));
    DLTensor *y;
    if (mode == RK_INPLACE) {
        if (!rk_check_writable(ctx, "copy_", x)) return TA_ERR_KERNEL;
        y = x;
    } else if (mode == RK_FUNC) {
        if (!(y = rk_empty_like(ctx, x, rk_dtype_of(x->dtype)))) return rk_oom(ctx, "copy");
    } else {
        DLTensor *o = ta_stack_tensor(st, ta_stack_size(st) - 1);
        if (!rk_check_tensor(ctx, "copy", "out", o)) return TA_ERR_KERNEL;
        if (!(y = rk_output(ctx, "copy", RK_OUT, o, rk_dtype_of(o->dtype), x->ndim, x->shape))) return TA_ERR_KERNEL;
    }
    rk_copy(y, src);
    return rk_return1(st, y);
}

static ta_status c_func(ta_kernel_ctx *c, ta_stack *s) { return run_copy(c, s, RK_FUNC); }
static ta_status c_inplace(ta_kernel_ctx *c, ta_stack *s) { return run_copy(c, s, RK_INPLACE); }
static ta_status c_out(ta_kernel_ctx *c, ta_stack *s) { return run_copy(c, s, RK_OUT); }

/* ---- clone / contiguous ---------------------------------------------------------------- */

static ta_status run_clone(ta_kernel_ctx *ctx, ta_stack *st, rk_mode mode)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!rk_check_tensor(ctx, "clone", "self", x)) return TA_ERR_KERNEL;
    int mf = memory_format(st, 1);
    DLTensor *y;
    if (mode == RK_OUT) {
        DLTensor *o = ta_stack_tensor(st, ta_stack_size(st) - 1);
        if (!rk_check_tensor(ctx, "clone", "out", o)) return TA_ERR_KERNEL;
        if (!(y = rk_output(ctx, "clone", RK_OUT, o, rk_dtype_of(o->dtype), x->ndim, x->shape)))
            return TA_ERR_KERNEL;
    } else if (!(y = alloc_format(ctx, "clone", x, rk_dtype_of(x->dtype), mf))) {
        return TA_ERR_KERNEL;
    }
    rk_copy(y, x);
    return rk_return1(st, y);
}

static ta_status k_clone(ta_kernel_ctx *c, ta_stack *s) { return run_clone(c, s, RK_FUNC); }
static ta_status k_clone_out(ta_kernel_ctx *c, ta_stack *s) { return run_clone(c, s, RK_OUT); }

static ta_status k_contiguous(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!rk_check_tensor(ctx, "contiguous", "self", x)) return TA_ERR_KERNEL;
    int mf = memory_format(st, 1);
    if (mf == MF_PRESERVE)
        return ta_kernel_error(ctx, "contiguous: preserve memory format is unsupported by the contiguous operator");
    if (mf == MF_NONE) mf = MF_CONTIGUOUS;
    int64_t want[RK_MAXDIM];
    bool is = mf == MF_CONTIGUOUS ? rk_contiguous(x)
            : format_strides(mf, x->ndim, x->shape, want) && (rk_prod(x->ndim, x->shape) == 0 || same_strides(x, want));
    if (is) return rk_return1(st, x); /* self, not a copy: the result aliases its input */
    DLTensor *y = alloc_format(ctx, "contiguous", x, rk_dtype_of(x->dtype), mf);
    if (!y) return TA_ERR_KERNEL;
    rk_copy(y, x);
    return rk_return1(st, y);
}

/* ---- resize ------------------------------------------------------------------------------ */

static bool read_size(ta_kernel_ctx *ctx, ta_stack *st, const int64_t **size, int *nd, int64_t *one)
{
    size_t n;
    if (!rk_ints(st, 1, size, &n, one) || n > RK_MAXDIM)
        return ta_kernel_error(ctx, "resize_: expected an int list for size"), false;
    for (size_t k = 0; k < n; k++)
        if ((*size)[k] < 0)
            return ta_kernel_error(ctx, "resize_: Trying to create tensor with negative dimension %lld",
                                   (long long)(*size)[k]), false;
    *nd = (int)n;
    return true;
}

static ta_status k_resize_(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    const int64_t *size;
    int nd;
    int64_t one;
    if (!rk_check_tensor(ctx, "resize_", "self", x) || !read_size(ctx, st, &size, &nd, &one)) return TA_ERR_KERNEL;
    int mf = memory_format(st, 2);
    if (!rk_shape_eq(x, nd, size) && ta_kernel_resize(ctx, x, nd, size) != TA_OK)
        return ta_kernel_error(ctx, "resize_: could not resize self");
    if (mf == MF_CL || mf == MF_CL3D) {
        int64_t strides[RK_MAXDIM];
        if (!format_strides(mf, nd, size, strides))
            return ta_kernel_error(ctx, "resize_: required rank %d tensor to use channels_last format",
                                   mf == MF_CL ? 4 : 5);
        if (ta_kernel_restride(ctx, x, nd, size, strides, x->byte_offset) != TA_OK)
            return ta_kernel_error(ctx, "resize_: could not restride self");
    }
    return rk_return1(st, x);
}

/* resize (functional) and resize.out: a contiguous copy of self resized; the
 * leading elements keep self's values in row-major order, the rest are unspecified. */
static ta_status run_resize(ta_kernel_ctx *ctx, ta_stack *st, bool out)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    const int64_t *size;
    int nd;
    int64_t one;
    if (!rk_check_tensor(ctx, "resize", "self", x) || !read_size(ctx, st, &size, &nd, &one)) return TA_ERR_KERNEL;
    rk_dtype xd = rk_dtype_of(x->dtype);
    int64_t shape[RK_MAXDIM];
    rk_dims_copy(shape, size, nd);
    DLTensor *y = NULL;
    if (out)
        y = rk_output(ctx, "resize", RK_OUT_ANY, ta_stack_tensor(st, ta_stack_size(st) - 1), xd, nd, shape);
    else if (ta_kernel_empty(ctx, x->dtype, nd, shape, &y) != TA_OK)
        return rk_oom(ctx, "resize");
    if (!y) return TA_ERR_KERNEL;
    int64_t n = rk_prod(nd, shape), m = rk_prod(x->ndim, x->shape), k = n < m ? n : m;
    /* copy the first k elements of x (row-major) into the first k of y (row-major) */
    rk_iter a, b;
    rk_iter_init(&a, x->ndim, x->shape);
    rk_iter_add(&a, x);
    rk_iter_init(&b, nd, shape);
    rk_iter_add(&b, y);
    rk_dtype yd = rk_dtype_of(y->dtype);
    for (int64_t i = 0; i < k; i++, rk_iter_step(&a), rk_iter_step(&b)) {
        if (rk_is_float(yd) || rk_is_float(xd)) rk_storef(yd, b.p[0], rk_loadf(xd, a.p[0]));
        else rk_storei(yd, b.p[0], rk_loadi(xd, a.p[0]));
    }
    return rk_return1(st, y);
}

static ta_status k_resize(ta_kernel_ctx *c, ta_stack *s) { return run_resize(c, s, false); }
static ta_status k_resize_out(ta_kernel_ctx *c, ta_stack *s) { return run_resize(c, s, true); }

static const fvar FILL_S = {"fill", 1}, FILL_T = {"fill", 2}, ZERO = {"zero", 0};
static const lvar ZEROS = {"zeros_like", 0}, ONES = {"ones_like", 1}, FULL = {"full_like", 2},
                  EMPTY = {"empty_like", -1};

static const rk_entry ENTRIES[] = {
    {"fill.Scalar", f_func, &FILL_S}, {"fill_.Scalar", f_inplace, &FILL_S}, {"fill.Scalar_out", f_out, &FILL_S},
    {"fill.Tensor", f_func, &FILL_T}, {"fill_.Tensor", f_inplace, &FILL_T}, {"fill.Tensor_out", f_out, &FILL_T},
    {"zero", f_func, &ZERO}, {"zero_", f_inplace, &ZERO}, {"zero.out", f_out, &ZERO},
    {"copy", c_func, NULL}, {"copy_", c_inplace, NULL}, {"copy.out", c_out, NULL},
    {"clone", k_clone, NULL}, {"clone.out", k_clone_out, NULL},
    {"contiguous", k_contiguous, NULL},
    {"resize_", k_resize_, NULL}, {"resize", k_resize, NULL}, {"resize.out", k_resize_out, NULL},
    {"zeros_like", l_func, &ZEROS}, {"zeros_like.out", l_out, &ZEROS}, {"ones_like", l_func, &ONES},
    {"ones_like.out", l_out, &ONES}, {"full_like", l_func, &FULL}, {"full_like.out", l_out, &FULL},
    {"empty_like", l_func, &EMPTY}, {"empty_like.out", l_out, &EMPTY},
    {NULL, NULL, NULL},
};

ta_status rk_register_fill(ta_registry *reg) { return rk_reg_table(reg, ENTRIES); }
