/* reduce.c - reductions: sum and mean (whole tensor or over a dim list, with
 * keepdim and dtype), max.dim/min.dim (values and int64 indices), and the
 * whole-tensor max/min.
 *
 * One driver: the input is walked once with the strided iterator while a
 * second, raw operand walks an accumulator array whose strides are zero along
 * the reduced dims, so each input element lands on its output's accumulator.
 * Results are then stored into the output (new, or out= resized).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rk.h"

enum { R_SUM, R_MEAN, R_MAX, R_MIN };

typedef struct rvar {
    const char *name;
    int kind;
    bool dims;      /* dim (list) at 1, keepdim at 2 */
    bool indices;   /* max.dim / min.dim: (values, indices) */
} rvar;

typedef struct acc {
    double f;
    int64_t i;
    int64_t idx;
    int64_t seen;
} acc;

/* Reduced dims as a mask; false after an error. */
static bool read_dims(ta_kernel_ctx *ctx, const rvar *v, ta_stack *st, const DLTensor *x, bool *mask)
{
    memset(mask, 0, sizeof *mask * RK_MAXDIM);
    const int64_t *items = NULL;
    size_t n = 0;
    int64_t one;
    if (!v->dims || !rk_ints(st, 1, &items, &n, &one) || n == 0) {
        if (v->dims && v->indices) {
            ta_kernel_error(ctx, "%s: expected an int for argument 'dim'", v->name);
            return false;
        }
        for (int d = 0; d < x->ndim; d++) mask[d] = true;
        return true;
    }
    bool seen[RK_MAXDIM + 1] = {false};
    for (size_t k = 0; k < n; k++) {
        int64_t d = items[k];
        if (!rk_wrap_dim(ctx, v->name, &d, x->ndim)) return false;
        if (seen[d]) {
            ta_kernel_error(ctx, "%s: dim %lld appears multiple times in the list of dims", v->name, (long long)d);
            return false;
        }
        seen[d] = true;
        if (d < x->ndim) mask[d] = true;
    }
    return true;
}

static bool want_dtype(ta_kernel_ctx *ctx, const char *name, const DLTensor *t, rk_dtype d)
{
    rk_dtype have = rk_dtype_of(t->dtype);
    if (have == d) return true;
    ta_kernel_error(ctx, "%s: Expected out tensor to have dtype %s, but got %s instead", name, rk_name(d),
                    rk_name(have));
    return false;
}

static ta_status run(ta_kernel_ctx *ctx, ta_stack *st, rk_mode mode)
{
    const rvar *v = ta_kernel_user_data(ctx);
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!rk_check_tensor(ctx, v->name, "self", x)) return TA_ERR_KERNEL;
    rk_dtype xd = rk_dtype_of(x->dtype);
    bool mask[RK_MAXDIM];
    if (!read_dims(ctx, v, st, x, mask)) return TA_ERR_KERNEL;
    bool keepdim = v->dims && rk_bool(st, 2, false);
    size_t nargs = ta_stack_size(st);

    /* the result dtype */
    rk_dtype r = xd;
    DLTensor *out0 = NULL, *out1 = NULL;
    if (mode == RK_OUT) {
        out0 = ta_stack_tensor(st, nargs - (v->indices ? 2 : 1));
        out1 = v->indices ? ta_stack_tensor(st, nargs - 1) : NULL;
        if (!rk_check_tensor(ctx, v->name, "out", out0)) return TA_ERR_KERNEL;
        if (v->indices && !rk_check_tensor(ctx, v->name, "indices", out1)) return TA_ERR_KERNEL;
    }
    if (v->kind == R_SUM || v->kind == R_MEAN) {
        bool ok;
        rk_dtype want = rk_dtype_arg(st, v->dims ? 3 : 1, &ok);
        if (!ok) return ta_kernel_error(ctx, "%s: unsupported dtype argument", v->name);
        if (want != RK_BAD && out0 && !want_dtype(ctx, v->name, out0, want)) return TA_ERR_KERNEL;
        if (want != RK_BAD) r = want;
        else if (out0) r = rk_dtype_of(out0->dtype);
        else if (v->kind == R_SUM && !rk_is_float(xd)) r = RK_I64;
        if (v->kind == R_MEAN && !rk_is_float(r))
            return ta_kernel_error(ctx, "%s: mean(): could not infer output dtype. %s dtype must be either a "
                                   "floating point or complex dtype. Got: %s", v->name,
                                   want != RK_BAD ? "Optional" : "Input", rk_name(r));
    } else if (out0) {
        if (!want_dtype(ctx, v->name, out0, xd)) return TA_ERR_KERNEL;
        if (out1 && !want_dtype(ctx, v->name, out1, RK_I64)) return TA_ERR_KERNEL;
    }

    /* the output shape, and accumulator strides laid over the input's shape */
    int ond = 0;
    int64_t oshape[RK_MAXDIM], ostr[RK_MAXDIM], abs_[RK_MAXDIM], count = 1;
    for (int d = 0; d < x->ndim; d++) {
        if (!mask[d]) oshape[ond++] = x->shape[d];
        else if (keepdim) oshape[ond++] = 1;
        if (mask[d]) count *= x->shape[d];
    }
    rk_contig_strides(ond, oshape, ostr);
    for (int d = 0, o = 0; d < x->ndim; d++) {
        abs_[d] = mask[d] ? 0 : ostr[o] * (int64_t)sizeof(acc);
        if (!mask[d] || keepdim) o++;
    }
    int64_t nout = rk_prod(ond, oshape);
    if ((v->kind == R_MAX || v->kind == R_MIN) && count == 0 && nout > 0) {
        if (!v->indices)
            return ta_kernel_error(ctx, "%s: Expected reduction dim to be specified for input.numel() == 0.",
                                   v->name);
        int rd = 0;
        while (rd < x->ndim && !mask[rd]) rd++;
        return ta_kernel_error(ctx, "%s: Expected reduction dim %d to have non-zero size.", v->name, rd);
    }

    DLTensor *y = rk_output(ctx, v->name, mode, out0, r, ond, oshape);
    if (!y) return TA_ERR_KERNEL;
    DLTensor *yi = NULL;
    if (v->indices && !(yi = rk_output(ctx, v->name, mode, out1, RK_I64, ond, oshape))) return TA_ERR_KERNEL;

    acc *a = calloc(nout > 0 ? (size_t)nout : 1, sizeof *a);
    if (!a) return rk_oom(ctx, v->name);
    rk_iter it;
    rk_iter_init(&it, x->ndim, x->shape);
    rk_iter_add(&it, x);
    rk_iter_add_bytes(&it, a, abs_);
    int rdim = 0; /* the one reduced dim of max.dim/min.dim */
    while (rdim < x->ndim && !mask[rdim]) rdim++;
    bool fdom = rk_is_float(r);
    for (int64_t k = 0; k < it.n; k++, rk_iter_step(&it)) {
        acc *c = (acc *)it.p[1];
        if (v->kind == R_SUM || v->kind == R_MEAN) {
            if (fdom) c->f += rk_loadf(xd, it.p[0]);
            else c->i = (int64_t)((uint64_t)c->i + (uint64_t)rk_loadi(xd, it.p[0]));
            continue;
        }
        int64_t pos = rdim < x->ndim ? it.idx[rdim] : 0;
        bool take;
        if (rk_is_float(xd)) {
            double e = rk_loadf(xd, it.p[0]);
            take = !c->seen || (!isnan(c->f) && (isnan(e) || (v->kind == R_MAX ? e > c->f : e < c->f)));
            if (take) c->f = e;
        } else {
            int64_t e = rk_loadi(xd, it.p[0]);
            take = !c->seen || (v->kind == R_MAX ? e > c->i : e < c->i);
            if (take) c->i = e;
        }
        if (take) c->idx = pos;
        c->seen = 1;
    }

    rk_iter ot;
    rk_iter_init(&ot, ond, oshape);
    rk_iter_add(&ot, y);
    if (yi) rk_iter_add(&ot, yi);
    for (int64_t k = 0; k < nout; k++, rk_iter_step(&ot)) {
        acc *c = &a[k];
        bool f = (v->kind == R_SUM || v->kind == R_MEAN) ? fdom : rk_is_float(xd);
        if (v->kind == R_MEAN) rk_storef(ot.dt[0], ot.p[0], c->f / (double)count);
        else if (f) rk_storef(ot.dt[0], ot.p[0], c->f);
        else rk_storei(ot.dt[0], ot.p[0], c->i);
        if (yi) rk_storei(RK_I64, ot.p[1], c->idx);
    }
    free(a);
    return yi ? rk_return2(st, y, yi) : rk_return1(st, y);
}

static ta_status k_func(ta_kernel_ctx *c, ta_stack *s) { return run(c, s, RK_FUNC); }
static ta_status k_out(ta_kernel_ctx *c, ta_stack *s) { return run(c, s, RK_OUT); }

static const rvar SUM_ALL = {"sum", R_SUM, false, false}, SUM_DIM = {"sum", R_SUM, true, false};
static const rvar MEAN_ALL = {"mean", R_MEAN, false, false}, MEAN_DIM = {"mean", R_MEAN, true, false};
static const rvar MAX_DIM = {"max", R_MAX, true, true}, MIN_DIM = {"min", R_MIN, true, true};
static const rvar MAX_ALL = {"max", R_MAX, false, false}, MIN_ALL = {"min", R_MIN, false, false};

static const rk_entry ENTRIES[] = {
    {"sum", k_func, &SUM_ALL}, {"sum.out", k_out, &SUM_ALL},
    {"sum.dim_IntList", k_func, &SUM_DIM}, {"sum.IntList_out", k_out, &SUM_DIM},
    {"mean", k_func, &MEAN_ALL}, {"mean.dtype_out", k_out, &MEAN_ALL},
    {"mean.dim", k_func, &MEAN_DIM}, {"mean.out", k_out, &MEAN_DIM},
    {"max.dim", k_func, &MAX_DIM}, {"max.dim_max", k_out, &MAX_DIM},
    {"min.dim", k_func, &MIN_DIM}, {"min.dim_min", k_out, &MIN_DIM},
    {"max", k_func, &MAX_ALL}, {"max.unary_out", k_out, &MAX_ALL},
    {"min", k_func, &MIN_ALL}, {"min.unary_out", k_out, &MIN_ALL},
    {NULL, NULL, NULL},
};

ta_status rk_register_reduce(ta_registry *reg) { return rk_reg_table(reg, ENTRIES); }
