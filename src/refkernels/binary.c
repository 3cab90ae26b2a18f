/* binary.c - broadcasting element-wise operators with type promotion: add,
 * sub (with alpha), mul, div (true, trunc and floor rounding), floor_divide,
 * maximum/minimum (max.other, min.other), where, and clamp/clamp_min/clamp_max
 * with Scalar or Tensor bounds.
 *
 * Every operator computes in double when the promoted result type is a
 * floating type and in wrapping int64 otherwise; a variant row (user data)
 * says where its operands sit on the stack, and the kernel function says
 * whether it is functional, in-place or out=. out= is always the last argument.
 */
#include <math.h>
#include <string.h>

#include "rk.h"

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MAX, OP_MIN, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };
enum { MODE_TRUE, MODE_TRUNC, MODE_FLOOR, MODE_ARG }; /* MODE_ARG: rounding_mode at index 2 */

typedef struct bvar {
    const char *name;
    int op;
    bool scalar_other; /* argument 1 is a Scalar */
    bool alpha;        /* argument 2 is alpha */
    int mode;
} bvar;

static int64_t wadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t wsub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static int64_t wmul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

static double fop(int op, int mode, double a, double b)
{
    switch (op) {
    case OP_ADD: return a + b;
    case OP_SUB: return a - b;
    case OP_MUL: return a * b;
    case OP_DIV:
        if (mode == MODE_TRUNC) return trunc(a / b);
        if (mode == MODE_FLOOR) return b == 0 ? a / b : floor(a / b);
        return a / b;
    case OP_MAX: return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
    case OP_MIN: return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    case OP_LT: return a < b;
    case OP_LE: return a <= b;
    case OP_GT: return a > b;
    default: return a >= b;
    }
}

/* False on an integer division by zero. */
static bool iop(int op, int mode, int64_t a, int64_t b, int64_t *r)
{
    switch (op) {
    case OP_ADD: *r = wadd(a, b); return true;
    case OP_SUB: *r = wsub(a, b); return true;
    case OP_MUL: *r = wmul(a, b); return true;
    case OP_MAX: *r = a > b ? a : b; return true;
    case OP_MIN: *r = a < b ? a : b; return true;
    case OP_EQ: *r = a == b; return true;
    case OP_NE: *r = a != b; return true;
    case OP_LT: *r = a < b; return true;
    case OP_LE: *r = a <= b; return true;
    case OP_GT: *r = a > b; return true;
    case OP_GE: *r = a >= b; return true;
    default: break;
    }
    if (b == 0) return false;
    if (b == -1) { *r = wsub(0, a); return true; } /* INT64_MIN / -1 wraps */
    int64_t q = a / b;
    if (mode == MODE_FLOOR && a % b != 0 && ((a < 0) != (b < 0))) q--;
    *r = q;
    return true;
}

static int parse_mode(ta_kernel_ctx *ctx, const char *name, const char *s)
{
    if (!s) return MODE_TRUE;
    if (!strcmp(s, "trunc")) return MODE_TRUNC;
    if (!strcmp(s, "floor")) return MODE_FLOOR;
    ta_kernel_error(ctx, "%s: div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'",
                    name, s);
    return -1;
}

/* The operands of a binary op: self, and other (a tensor, or a Scalar
 * made a 0-dim tensor in *bs), with their promoted type. */
typedef struct operands {
    DLTensor *a, *b, bs;
    rk_scalar other; /* a Scalar other; bs's data points into it */
    rk_rtype rt;
    bool bool_operand; /* either is bool */
} operands;

static bool read_operands(ta_kernel_ctx *ctx, const bvar *v, ta_stack *st, operands *o)
{
    o->a = ta_stack_tensor(st, 0);
    o->b = ta_stack_tensor(st, 1);
    if (!rk_check_tensor(ctx, v->name, "self", o->a)) return false;
    rk_rtype_init(&o->rt);
    rk_rtype_tensor(&o->rt, o->a);
    o->bool_operand = rk_dtype_of(o->a->dtype) == RK_BOOL;
    if (!v->scalar_other) {
        if (!rk_check_tensor(ctx, v->name, "other", o->b)) return false;
        rk_rtype_tensor(&o->rt, o->b);
        o->bool_operand |= rk_dtype_of(o->b->dtype) == RK_BOOL;
        return true;
    }
    if (!rk_scalar_arg(st, 1, &o->other))
        return ta_kernel_error(ctx, "%s: expected a Scalar for argument 'other'", v->name), false;
    rk_scalar_tensor(&o->other, &o->bs);
    o->b = &o->bs;
    rk_rtype_scalar(&o->rt, &o->other);
    o->bool_operand |= o->other.kind == TA_SCALAR_BOOL;
    return true;
}

/* The result dtype r of op on the operands (true division of integers gives
 * float32), refusing what PyTorch refuses: bool subtraction and bool
 * division with a rounding mode. */
static bool binary_result(ta_kernel_ctx *ctx, const bvar *v, const operands *o, int dmode, rk_dtype *r)
{
    *r = rk_rtype_result(&o->rt);
    if (v->op == OP_SUB && o->bool_operand)
        return ta_kernel_error(ctx, "%s: Subtraction, the `-` operator, with a bool tensor is not supported. "
                               "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
                               v->name), false;
    if (v->op == OP_DIV && dmode == MODE_TRUE && !rk_is_float(*r)) *r = RK_F32;
    if (v->op == OP_DIV && *r == RK_BOOL)
        return ta_kernel_error(ctx, "%s: division with a rounding mode is not implemented for 'Bool'", v->name),
               false;
    return true;
}

/* alpha as the result dtype takes it: a bool alpha only for bool results,
 * no float alpha for integer ones. *have_alpha ends false when alpha is 1
 * (multiplying by 1 changes nothing). */
static bool check_alpha(ta_kernel_ctx *ctx, const bvar *v, rk_dtype r, rk_scalar *alpha, bool *have_alpha)
{
    if (*have_alpha) {
        if (alpha->kind == TA_SCALAR_BOOL && r != RK_BOOL)
            return ta_kernel_error(ctx, "%s: Boolean alpha only supported for Boolean results.", v->name), false;
        if (!rk_is_float(r) && alpha->kind == TA_SCALAR_FLOAT)
            return ta_kernel_error(ctx, "%s: For integral input tensors, argument alpha must not be a "
                                   "floating point number.", v->name), false;
    }
    if (r == RK_BOOL) alpha->i = alpha->i != 0; /* alpha is cast to the result dtype: in bool, a || b */
    if (*have_alpha && alpha->f == 1.0 && alpha->i == 1) *have_alpha = false;
    return true;
}

/* y = a op (alpha * b), elementwise over the broadcast shape, computed in
 * double (fdom) or wrapping int64; float32 without alpha has a loop of its
 * own. */
static ta_status binary_loop(ta_kernel_ctx *ctx, const bvar *v, rk_iter *it, int dmode, bool fdom,
                             const rk_scalar *alpha, bool have_alpha)
{
    bool f32 = it->dt[0] == RK_F32 && it->dt[1] == RK_F32 && it->dt[2] == RK_F32;
    if (f32 && !have_alpha) { /* the common case, without per-element dtype dispatch */
        for (int64_t k = 0; k < it->n; k++, rk_iter_step(it)) {
            float x, z, q;
            memcpy(&x, it->p[1], 4);
            memcpy(&z, it->p[2], 4);
            q = (float)fop(v->op, dmode, x, z);
            memcpy(it->p[0], &q, 4);
        }
    } else if (fdom) {
        for (int64_t k = 0; k < it->n; k++, rk_iter_step(it)) {
            double x = rk_loadf(it->dt[1], it->p[1]), z = rk_loadf(it->dt[2], it->p[2]);
            if (have_alpha) z *= alpha->f;
            rk_storef(it->dt[0], it->p[0], fop(v->op, dmode, x, z));
        }
    } else {
        for (int64_t k = 0; k < it->n; k++, rk_iter_step(it)) {
            int64_t x = rk_loadi(it->dt[1], it->p[1]), z = rk_loadi(it->dt[2], it->p[2]), q;
            if (have_alpha) z = wmul(z, alpha->i);
            if (!iop(v->op, dmode, x, z, &q)) return ta_kernel_error(ctx, "%s: ZeroDivisionError", v->name);
            rk_storei(it->dt[0], it->p[0], q);
        }
    }
    return TA_OK;
}

/* Every binary op of this file (arithmetic and comparisons), by its bvar. */
static ta_status binary(ta_kernel_ctx *ctx, ta_stack *st, rk_mode mode)
{
    const bvar *v = ta_kernel_user_data(ctx);
    operands o;
    if (!read_operands(ctx, v, st, &o)) return TA_ERR_KERNEL;
    rk_scalar alpha = {.kind = TA_SCALAR_INT, .i = 1, .f = 1.0};
    bool have_alpha = v->alpha && rk_scalar_arg(st, 2, &alpha);
    int dmode = v->mode;
    if (dmode == MODE_ARG && (dmode = parse_mode(ctx, v->name, rk_string(st, 2))) < 0) return TA_ERR_KERNEL;
    rk_dtype r;
    if (!binary_result(ctx, v, &o, dmode, &r) || !check_alpha(ctx, v, r, &alpha, &have_alpha))
        return TA_ERR_KERNEL;
    const DLTensor *ins[2] = {o.a, o.b};
    int nd;
    int64_t shape[RK_MAXDIM];
    if (!rk_broadcast(ctx, v->name, ins, 2, &nd, shape)) return TA_ERR_KERNEL;
    /* comparisons compare in the promoted type and give bool (any output dtype accepts bool) */
    bool fdom = rk_is_float(r);
    if (v->op >= OP_EQ) r = RK_BOOL;
    DLTensor *given = mode == RK_INPLACE ? o.a : mode >= RK_OUT ? ta_stack_tensor(st, ta_stack_size(st) - 1) : NULL;
    DLTensor *y = rk_output(ctx, v->name, mode, given, r, nd, shape);
    if (!y) return TA_ERR_KERNEL;
    rk_iter it;
    rk_iter_init(&it, nd, shape);
    rk_iter_add(&it, y);
    rk_iter_add(&it, o.a);
    rk_iter_add(&it, o.b);
    ta_status s = binary_loop(ctx, v, &it, dmode, fdom, &alpha, have_alpha);
    return s == TA_OK ? rk_return1(st, y) : s;
}

static ta_status b_func(ta_kernel_ctx *c, ta_stack *s) { return binary(c, s, RK_FUNC); }
static ta_status b_inplace(ta_kernel_ctx *c, ta_stack *s) { return binary(c, s, RK_INPLACE); }
static ta_status b_out(ta_kernel_ctx *c, ta_stack *s) { return binary(c, s, RK_OUT); }
static ta_status b_out_any(ta_kernel_ctx *c, ta_stack *s) { return binary(c, s, RK_OUT_ANY); }

/* ---- where ------------------------------------------------------------------ */

typedef struct wvar { bool scalar_self, scalar_other; } wvar;

static ta_status run_where(ta_kernel_ctx *ctx, ta_stack *st, rk_mode mode)
{
    const wvar *v = ta_kernel_user_data(ctx);
    const char *name = "where";
    DLTensor *c = ta_stack_tensor(st, 0), *ops[2], local[2];
    rk_scalar sc[2];
    if (!rk_check_tensor(ctx, name, "condition", c)) return TA_ERR_KERNEL;
    rk_dtype cd = rk_dtype_of(c->dtype);
    if (cd != RK_BOOL && cd != RK_U8)
        return ta_kernel_error(ctx, "where: expected condition to be a boolean tensor, but got a tensor with dtype %s",
                               rk_name(cd));
    rk_rtype rt;
    rk_rtype_init(&rt);
    bool is_scalar[2] = {v->scalar_self, v->scalar_other};
    for (int k = 0; k < 2; k++) {
        if (is_scalar[k]) {
            if (!rk_scalar_arg(st, (size_t)k + 1, &sc[k]))
                return ta_kernel_error(ctx, "where: expected a Scalar for argument %d", k + 1);
            rk_scalar_tensor(&sc[k], &local[k]);
            ops[k] = &local[k];
            rk_rtype_scalar(&rt, &sc[k]);
        } else {
            ops[k] = ta_stack_tensor(st, (size_t)k + 1);
            if (!rk_check_tensor(ctx, name, k ? "other" : "self", ops[k])) return TA_ERR_KERNEL;
            rk_rtype_tensor(&rt, ops[k]);
        }
    }
    rk_dtype r = rk_rtype_result(&rt);
    const DLTensor *ins[3] = {c, ops[0], ops[1]};
    int nd;
    int64_t shape[RK_MAXDIM];
    if (!rk_broadcast(ctx, name, ins, 3, &nd, shape)) return TA_ERR_KERNEL;
    DLTensor *y = rk_output(ctx, name, mode, mode == RK_OUT ? ta_stack_tensor(st, 3) : NULL, r, nd, shape);
    if (!y) return TA_ERR_KERNEL;
    rk_iter it;
    rk_iter_init(&it, nd, shape);
    rk_iter_add(&it, y);
    rk_iter_add(&it, c);
    rk_iter_add(&it, ops[0]);
    rk_iter_add(&it, ops[1]);
    bool fdom = rk_is_float(r);
    for (int64_t k = 0; k < it.n; k++, rk_iter_step(&it)) {
        int src = *(const uint8_t *)it.p[1] ? 2 : 3;
        if (fdom) rk_storef(it.dt[0], it.p[0], rk_loadf(it.dt[src], it.p[src]));
        else rk_storei(it.dt[0], it.p[0], rk_loadi(it.dt[src], it.p[src]));
    }
    return rk_return1(st, y);
}

static ta_status w_func(ta_kernel_ctx *c, ta_stack *s) { return run_where(c, s, RK_FUNC); }
static ta_status w_out(ta_kernel_ctx *c, ta_stack *s) { return run_where(c, s, RK_OUT); }

/* ---- clamp ------------------------------------------------------------------- */

typedef struct cvar {
    const char *name;
    bool tensors;  /* bounds are Tensor? rather than Scalar? */
    int min_at;    /* stack index of min, or -1 */
    int max_at;    /* stack index of max, or -1 */
} cvar;

static ta_status run_clamp(ta_kernel_ctx *ctx, ta_stack *st, rk_mode mode)
{
    const cvar *v = ta_kernel_user_data(ctx);
    DLTensor *x = ta_stack_tensor(st, 0), *bound[2] = {NULL, NULL}, local[2];
    rk_scalar sc[2];
    if (!rk_check_tensor(ctx, v->name, "self", x)) return TA_ERR_KERNEL;
    rk_rtype rt;
    rk_rtype_init(&rt);
    rk_rtype_tensor(&rt, x);
    int at[2] = {v->min_at, v->max_at};
    for (int k = 0; k < 2; k++) {
        if (at[k] < 0) continue;
        if (v->tensors) {
            bound[k] = ta_stack_tensor(st, (size_t)at[k]);
            if (bound[k] && !rk_check_tensor(ctx, v->name, k ? "max" : "min", bound[k])) return TA_ERR_KERNEL;
            rk_rtype_tensor(&rt, bound[k]);
        } else if (rk_scalar_arg(st, (size_t)at[k], &sc[k])) {
            rk_scalar_tensor(&sc[k], &local[k]);
            bound[k] = &local[k];
            rk_rtype_scalar(&rt, &sc[k]);
        }
    }
    if (!bound[0] && !bound[1])
        return ta_kernel_error(ctx, "%s: At least one of 'min' or 'max' must not be None", v->name);
    rk_dtype r = rk_rtype_result(&rt);
    const DLTensor *ins[3] = {x, bound[0], bound[1]};
    int nd;
    int64_t shape[RK_MAXDIM];
    if (!rk_broadcast(ctx, v->name, ins, 3, &nd, shape)) return TA_ERR_KERNEL;
    DLTensor *given = mode == RK_INPLACE ? x : mode == RK_OUT ? ta_stack_tensor(st, ta_stack_size(st) - 1) : NULL;
    DLTensor *y = rk_output(ctx, v->name, mode, given, r, nd, shape);
    if (!y) return TA_ERR_KERNEL;
    rk_iter it;
    rk_iter_init(&it, nd, shape);
    rk_iter_add(&it, y);
    rk_iter_add(&it, x);
    int lo = -1, hi = -1;
    if (bound[0]) { lo = it.nops; rk_iter_add(&it, bound[0]); }
    if (bound[1]) { hi = it.nops; rk_iter_add(&it, bound[1]); }
    bool fdom = rk_is_float(r);
    for (int64_t k = 0; k < it.n; k++, rk_iter_step(&it)) {
        if (fdom) {
            double e = rk_loadf(it.dt[1], it.p[1]);
            if (lo >= 0) { double b = rk_loadf(it.dt[lo], it.p[lo]); e = isnan(b) ? b : e < b ? b : e; }
            if (hi >= 0) { double b = rk_loadf(it.dt[hi], it.p[hi]); e = isnan(b) ? b : e > b ? b : e; }
            rk_storef(it.dt[0], it.p[0], e);
        } else {
            int64_t e = rk_loadi(it.dt[1], it.p[1]);
            if (lo >= 0) { int64_t b = rk_loadi(it.dt[lo], it.p[lo]); e = e < b ? b : e; }
            if (hi >= 0) { int64_t b = rk_loadi(it.dt[hi], it.p[hi]); e = e > b ? b : e; }
            rk_storei(it.dt[0], it.p[0], e);
        }
    }
    return rk_return1(st, y);
}

static ta_status c_func(ta_kernel_ctx *c, ta_stack *s) { return run_clamp(c, s, RK_FUNC); }
static ta_status c_inplace(ta_kernel_ctx *c, ta_stack *s) { return run_clamp(c, s, RK_INPLACE); }
static ta_status c_out(ta_kernel_ctx *c, ta_stack *s) { return run_clamp(c, s, RK_OUT); }

/* ---- registration ---------------------------------------------------------------- */

static const bvar ADD_T = {"add", OP_ADD, false, true, MODE_TRUE}, ADD_S = {"add", OP_ADD, true, true, MODE_TRUE};
static const bvar SUB_T = {"sub", OP_SUB, false, true, MODE_TRUE}, SUB_S = {"sub", OP_SUB, true, true, MODE_TRUE};
static const bvar MUL_T = {"mul", OP_MUL, false, false, MODE_TRUE}, MUL_S = {"mul", OP_MUL, true, false, MODE_TRUE};
static const bvar DIV_T = {"div", OP_DIV, false, false, MODE_TRUE}, DIV_S = {"div", OP_DIV, true, false, MODE_TRUE};
static const bvar DIV_TM = {"div", OP_DIV, false, false, MODE_ARG}, DIV_SM = {"div", OP_DIV, true, false, MODE_ARG};
static const bvar FDIV_T = {"floor_divide", OP_DIV, false, false, MODE_FLOOR};
static const bvar FDIV_S = {"floor_divide", OP_DIV, true, false, MODE_FLOOR};
static const bvar MAX_T = {"maximum", OP_MAX, false, false, MODE_TRUE};
#define CMP(n, o) static const bvar n##_T = {#n, o, false, false, MODE_TRUE}, n##_S = {#n, o, true, false, MODE_TRUE};
CMP(eq, OP_EQ) CMP(ne, OP_NE) CMP(lt, OP_LT) CMP(le, OP_LE) CMP(gt, OP_GT) CMP(ge, OP_GE)
#undef CMP
static const bvar MIN_T = {"minimum", OP_MIN, false, false, MODE_TRUE};
static const wvar W_TT = {false, false}, W_ST = {true, false}, W_TS = {false, true}, W_SS = {true, true};
static const cvar CL_S = {"clamp", false, 1, 2}, CL_T = {"clamp", true, 1, 2};
static const cvar CLMIN_S = {"clamp_min", false, 1, -1}, CLMIN_T = {"clamp_min", true, 1, -1};
static const cvar CLMAX_S = {"clamp_max", false, -1, 1}, CLMAX_T = {"clamp_max", true, -1, 1};

#define TRIPLE(base, ovl, v)                                                        \
    {base "." ovl, b_func, &v}, {base "_." ovl, b_inplace, &v}, {base ".out", b_out, &v}
static const rk_entry ENTRIES[] = {
    TRIPLE("add", "Tensor", ADD_T),
    {"add.Scalar", b_func, &ADD_S}, {"add_.Scalar", b_inplace, &ADD_S}, {"add.Scalar_out", b_out_any, &ADD_S},
    TRIPLE("sub", "Tensor", SUB_T),
    {"sub.Scalar", b_func, &SUB_S}, {"sub_.Scalar", b_inplace, &SUB_S}, {"sub.Scalar_out", b_out_any, &SUB_S},
    TRIPLE("mul", "Tensor", MUL_T),
    {"mul.Scalar", b_func, &MUL_S}, {"mul_.Scalar", b_inplace, &MUL_S}, {"mul.Scalar_out", b_out_any, &MUL_S},
    TRIPLE("div", "Tensor", DIV_T),
    {"div.Tensor_mode", b_func, &DIV_TM}, {"div_.Tensor_mode", b_inplace, &DIV_TM}, {"div.out_mode", b_out, &DIV_TM},
    {"div.Scalar", b_func, &DIV_S}, {"div_.Scalar", b_inplace, &DIV_S}, {"div.Scalar_out", b_out_any, &DIV_S},
    {"div.Scalar_mode", b_func, &DIV_SM}, {"div_.Scalar_mode", b_inplace, &DIV_SM},
    {"div.Scalar_mode_out", b_out_any, &DIV_SM},
    {"floor_divide", b_func, &FDIV_T}, {"floor_divide_.Tensor", b_inplace, &FDIV_T},
    {"floor_divide.out", b_out, &FDIV_T}, {"floor_divide.Scalar", b_func, &FDIV_S},
    {"floor_divide_.Scalar", b_inplace, &FDIV_S}, {"floor_divide.Scalar_out", b_out_any, &FDIV_S},
    {"maximum", b_func, &MAX_T}, {"maximum.out", b_out, &MAX_T},
    {"max.other", b_func, &MAX_T}, {"max.out", b_out, &MAX_T},
    {"minimum", b_func, &MIN_T}, {"minimum.out", b_out, &MIN_T},
    {"min.other", b_func, &MIN_T}, {"min.out", b_out, &MIN_T},
    {"where.self", w_func, &W_TT}, {"where.self_out", w_out, &W_TT},
    {"where.ScalarSelf", w_func, &W_ST}, {"where.ScalarOther", w_func, &W_TS}, {"where.Scalar", w_func, &W_SS},
    {"clamp", c_func, &CL_S}, {"clamp_", c_inplace, &CL_S}, {"clamp.out", c_out, &CL_S},
    {"clamp.Tensor", c_func, &CL_T}, {"clamp_.Tensor", c_inplace, &CL_T}, {"clamp.Tensor_out", c_out, &CL_T},
    {"clamp_min", c_func, &CLMIN_S}, {"clamp_min_", c_inplace, &CLMIN_S}, {"clamp_min.out", c_out, &CLMIN_S},
    {"clamp_min.Tensor", c_func, &CLMIN_T}, {"clamp_min_.Tensor", c_inplace, &CLMIN_T},
    {"clamp_min.Tensor_out", c_out, &CLMIN_T},
    {"clamp_max", c_func, &CLMAX_S}, {"clamp_max_", c_inplace, &CLMAX_S}, {"clamp_max.out", c_out, &CLMAX_S},
    {"clamp_max.Tensor", c_func, &CLMAX_T}, {"clamp_max_.Tensor", c_inplace, &CLMAX_T},
    {"clamp_max.Tensor_out", c_out, &CLMAX_T},
#define CMP_ROWS(n)                                                                              \
    {#n ".Tensor", b_func, &n##_T}, {#n "_.Tensor", b_inplace, &n##_T}, {#n ".Tensor_out", b_out, &n##_T}, \
    {#n ".Scalar", b_func, &n##_S}, {#n "_.Scalar", b_inplace, &n##_S}, {#n ".Scalar_out", b_out, &n##_S}
    CMP_ROWS(eq), CMP_ROWS(ne), CMP_ROWS(lt), CMP_ROWS(le), CMP_ROWS(gt), CMP_ROWS(ge),
    {NULL, NULL, NULL},
};

ta_status rk_register_binary(ta_registry *reg) { return rk_reg_table(reg, ENTRIES); }
