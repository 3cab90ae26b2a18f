/* unary.c - element-wise unary operators (abs, neg, exp, log, sqrt, sin, cos,
 * tanh, sigmoid, relu, ceil, floor, reciprocal, rsqrt, sign, ...).
 *
 * One table row per operator; one driver serves its functional, in-place
 * (op_) and out= (op.out) variants, told apart by the kernel function and the
 * row passed as user data. Floating-point operators give float32 for integral
 * inputs, as PyTorch's "unary float" ops do; the others keep the input dtype.
 */
#include <math.h>
#include <stdio.h>

#include "rk.h"

typedef struct rk_unary_op {
    const char *name;
    bool to_float; /* integral and bool inputs give float32 */
    bool no_bool;  /* bool inputs are an error */
    double (*f)(double);
    int64_t (*i)(int64_t); /* integer domain; NULL when to_float */
} rk_unary_op;

/* Integer arithmetic wraps like two's-complement hardware, never UB. */
static int64_t i_abs(int64_t x) { return x < 0 ? (int64_t)(0u - (uint64_t)x) : x; }
static int64_t i_neg(int64_t x) { return (int64_t)(0u - (uint64_t)x); }
static int64_t i_id(int64_t x) { return x; }
static int64_t i_relu(int64_t x) { return x > 0 ? x : 0; }
static int64_t i_sign(int64_t x) { return (x > 0) - (x < 0); }

static double f_neg(double x) { return -x; }
static double f_relu(double x) { return isnan(x) ? x : x > 0 ? x : 0.0; }
static double f_sign(double x) { return (double)((x > 0) - (x < 0)); }
static double f_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
static double f_reciprocal(double x) { return 1.0 / x; }
static double f_rsqrt(double x) { return 1.0 / sqrt(x); }
static double f_fabs(double x) { return fabs(x); }
static double f_ceil(double x) { return ceil(x); }
static double f_floor(double x) { return floor(x); }
static double f_trunc(double x) { return trunc(x); }
static double f_round(double x) { return nearbyint(x); } /* half to even, as PyTorch */
static double f_exp(double x) { return exp(x); }
static double f_log(double x) { return log(x); }
static double f_sqrt(double x) { return sqrt(x); }
static double f_sin(double x) { return sin(x); }
static double f_cos(double x) { return cos(x); }
static double f_tan(double x) { return tan(x); }
static double f_tanh(double x) { return tanh(x); }
static double f_sinh(double x) { return sinh(x); }
static double f_cosh(double x) { return cosh(x); }
static double f_asin(double x) { return asin(x); }
static double f_acos(double x) { return acos(x); }
static double f_atan(double x) { return atan(x); }
static double f_expm1(double x) { return expm1(x); }
static double f_log1p(double x) { return log1p(x); }
static double f_log2(double x) { return log2(x); }
static double f_log10(double x) { return log10(x); }
static double f_exp2(double x) { return exp2(x); }
static double f_erf(double x) { return erf(x); }

#define FLOAT_OP(n, fn) {n, true, false, fn, NULL}
static const rk_unary_op OPS[] = {
    {"abs", false, true, f_fabs, i_abs},
    {"neg", false, true, f_neg, i_neg},
    {"relu", false, true, f_relu, i_relu},
    {"ceil", false, true, f_ceil, i_id},
    {"floor", false, true, f_floor, i_id},
    {"trunc", false, true, f_trunc, i_id},
    {"round", false, true, f_round, i_id},
    {"sign", false, false, f_sign, i_sign},
    FLOAT_OP("exp", f_exp), FLOAT_OP("log", f_log), FLOAT_OP("sqrt", f_sqrt),
    FLOAT_OP("sin", f_sin), FLOAT_OP("cos", f_cos), FLOAT_OP("tan", f_tan),
    FLOAT_OP("tanh", f_tanh), FLOAT_OP("sinh", f_sinh), FLOAT_OP("cosh", f_cosh),
    FLOAT_OP("asin", f_asin), FLOAT_OP("acos", f_acos), FLOAT_OP("atan", f_atan),
    FLOAT_OP("sigmoid", f_sigmoid), FLOAT_OP("reciprocal", f_reciprocal),
    FLOAT_OP("rsqrt", f_rsqrt), FLOAT_OP("expm1", f_expm1), FLOAT_OP("log1p", f_log1p),
    FLOAT_OP("log2", f_log2), FLOAT_OP("log10", f_log10), FLOAT_OP("exp2", f_exp2),
    FLOAT_OP("erf", f_erf),
};
#define NOPS (sizeof OPS / sizeof OPS[0])

static void apply(const rk_unary_op *op, const DLTensor *x, const DLTensor *y, rk_dtype rt)
{
    rk_iter it;
    rk_iter_init(&it, y->ndim, y->shape);
    rk_iter_add(&it, y);
    rk_iter_add(&it, x);
    rk_dtype yd = it.dt[0], xd = it.dt[1];
    if (rk_is_float(rt)) {
        for (int64_t k = 0; k < it.n; k++, rk_iter_step(&it))
            rk_storef(yd, it.p[0], op->f(rk_loadf(xd, it.p[1])));
    } else {
        for (int64_t k = 0; k < it.n; k++, rk_iter_step(&it))
            rk_storei(yd, it.p[0], op->i(rk_loadi(xd, it.p[1])));
    }
}

static ta_status run(ta_kernel_ctx *ctx, ta_stack *st, rk_mode mode)
{
    const rk_unary_op *op = ta_kernel_user_data(ctx);
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!rk_check_tensor(ctx, op->name, "self", x)) return TA_ERR_KERNEL;
    rk_dtype xd = rk_dtype_of(x->dtype);
    if (xd == RK_BOOL && op->no_bool)
        return ta_kernel_error(ctx, "%s: not implemented for 'Bool'", op->name);
    rk_dtype rt = op->to_float && !rk_is_float(xd) ? RK_F32 : xd;
    DLTensor *y;
    if (mode == RK_FUNC) {
        y = rk_empty_like(ctx, x, rt);
        if (!y) return rk_oom(ctx, op->name);
    } else {
        y = rk_output(ctx, op->name, mode, mode == RK_OUT ? ta_stack_tensor(st, 1) : x, rt,
                      x->ndim, x->shape);
        if (!y) return TA_ERR_KERNEL;
    }
    apply(op, x, y, rt);
    return rk_return1(st, y);
}

static ta_status k_func(ta_kernel_ctx *ctx, ta_stack *st) { return run(ctx, st, RK_FUNC); }
static ta_status k_inplace(ta_kernel_ctx *ctx, ta_stack *st) { return run(ctx, st, RK_INPLACE); }
static ta_status k_out(ta_kernel_ctx *ctx, ta_stack *st) { return run(ctx, st, RK_OUT); }

ta_status rk_register_unary(ta_registry *reg)
{
    static const ta_kernel_fn fns[3] = {k_func, k_inplace, k_out};
    static const char *const suffix[3] = {"", "_", ".out"};
    char name[64];
    for (size_t k = 0; k < NOPS; k++)
        for (int v = 0; v < 3; v++) {
            snprintf(name, sizeof name, "%s%s", OPS[k].name, suffix[v]);
            ta_status s = rk_reg(reg, name, fns[v], &OPS[k]);
            if (s != TA_OK) return s;
        }
    return TA_OK;
}
