/* softmax.c - _softmax and _log_softmax (with out=) along one dim.
 *
 * Floating inputs only; the result has self's dtype (an out= tensor must
 * too), and half_to_float is refused as PyTorch's CPU kernels refuse it.
 * Each line along dim is shifted by its maximum before exponentiating.
 */
#include <math.h>

#include "rk.h"

typedef enum softmax_form { SOFTMAX, LOG_SOFTMAX } softmax_form;

static ta_status softmax(ta_kernel_ctx *ctx, ta_stack *st, softmax_form form, rk_mode mode)
{
    bool log_form = form == LOG_SOFTMAX, out = mode == RK_OUT;
    const char *name = log_form ? "_log_softmax" : "_softmax";
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!rk_check_tensor(ctx, name, "self", x)) return TA_ERR_KERNEL;
    rk_dtype xd = rk_dtype_of(x->dtype);
    if (!rk_is_float(xd) && rk_prod(x->ndim, x->shape) > 0) /* PyTorch checks the dtype in the loop only */
        return ta_kernel_error(ctx, "%s: not implemented for '%s'", name, rk_name(xd));
    int64_t dim = rk_int(st, 1, 0);
    if (!rk_wrap_dim(ctx, name, &dim, x->ndim)) return TA_ERR_KERNEL;
    if (rk_bool(st, 2, false))
        return ta_kernel_error(ctx, "%s: softmax with half to float conversion is not supported on CPU", name);
    DLTensor *given = NULL;
    if (out) {
        given = ta_stack_tensor(st, ta_stack_size(st) - 1);
        if (given && rk_dtype_of(given->dtype) != xd)
            return ta_kernel_error(ctx, "%s: Expected out tensor to have dtype %s, but got %s instead", name,
                                   rk_name(xd), rk_name(rk_dtype_of(given->dtype)));
    }
    DLTensor *y = rk_output(ctx, name, out ? RK_OUT : RK_FUNC, given, xd, x->ndim, x->shape);
    if (!y) return TA_ERR_KERNEL;
    /* walk the lines: an iterator over self's shape with dim collapsed, then along dim */
    int64_t outer[RK_MAXDIM], xs[RK_MAXDIM], ys[RK_MAXDIM];
    rk_dims_copy(outer, x->shape, x->ndim);
    rk_get_strides(x, xs);
    rk_get_strides(y, ys);
    int64_t len = 1, xstep = 0, ystep = 0, es = (int64_t)rk_size(xd);
    if (x->ndim) {
        len = outer[dim];
        outer[dim] = 1;
        xstep = xs[dim] * es;
        ystep = ys[dim] * es;
    }
    if (len == 0) return rk_return1(st, y);
    rk_iter it;
    rk_iter_init(&it, x->ndim, outer);
    rk_iter_add(&it, y);
    rk_iter_add(&it, x);
    for (int64_t k = 0; k < it.n; k++, rk_iter_step(&it)) {
        double mx = -INFINITY, sum = 0;
        for (int64_t i = 0; i < len; i++) {
            double v = rk_loadf(xd, it.p[1] + i * xstep);
            if (v > mx || isnan(v)) mx = v;
        }
        for (int64_t i = 0; i < len; i++) sum += exp(rk_loadf(xd, it.p[1] + i * xstep) - mx);
        for (int64_t i = 0; i < len; i++) {
            double v = rk_loadf(xd, it.p[1] + i * xstep) - mx;
            rk_storef(xd, it.p[0] + i * ystep, log_form ? v - log(sum) : exp(v) / sum);
        }
    }
    return rk_return1(st, y);
}

static ta_status k_softmax(ta_kernel_ctx *c, ta_stack *s) { return softmax(c, s, SOFTMAX, RK_FUNC); }
static ta_status k_softmax_out(ta_kernel_ctx *c, ta_stack *s) { return softmax(c, s, SOFTMAX, RK_OUT); }
static ta_status k_log_softmax(ta_kernel_ctx *c, ta_stack *s) { return softmax(c, s, LOG_SOFTMAX, RK_FUNC); }
static ta_status k_log_softmax_out(ta_kernel_ctx *c, ta_stack *s)
{
    return softmax(c, s, LOG_SOFTMAX, RK_OUT);
}

static const rk_entry ENTRIES[] = {
    {"_softmax", k_softmax, NULL}, {"_softmax.out", k_softmax_out, NULL},
    {"_log_softmax", k_log_softmax, NULL}, {"_log_softmax.out", k_log_softmax_out, NULL},
    {NULL, NULL, NULL},
};

ta_status rk_register_softmax(ta_registry *reg) { return rk_reg_table(reg, ENTRIES); }
