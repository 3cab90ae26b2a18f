/* k_pointwise.c - CUDA reference kernels for the unary, binary and fill/copy families.
 *
 * Each family has one host function per variant (functional, inplace, out)
 * that checks arguments, works out the result dtype and shape as PyTorch
 * would, allocates through the engine, and launches the elementwise kernel
 * of elementwise.cu. Which op it computes comes from the descriptor passed
 * as the registration's user data. An output that overlaps an input other
 * than element for element goes through a scratch buffer, so results never
 * depend on the order threads run in.
 */
#include <stdio.h>
#include <string.h>

#include "cuda/cu_kernels.h"

/* AUTOGEN_OUT: an out= overload native_functions.yaml lists under autogen:;
 * PyTorch's generated code computes the functional result and copies it
 * into out, so any out dtype is accepted (and converted). */
enum variant { FUNCTIONAL, INPLACE, OUT, AUTOGEN_OUT };

enum {
    TO_FLOAT = 1u,  /* integral inputs give a float32 result (exp, log, div...) */
    ALPHA = 2u,     /* the op takes `Scalar alpha` after `other` */
    SAME_DTYPE = 4u, /* out= must have exactly the result's dtype (abs, neg, ceil, floor) */
    NO_BOOL = 8u,   /* PyTorch refuses bool inputs */
};

typedef struct pw_desc {
    const char *name; /* for messages: "abs", "add" */
    ta_cu_opcode code;
    unsigned flags;
} pw_desc;

static const pw_desc *desc_of(ta_kernel_ctx *ctx) { return (const pw_desc *)ta_kernel_user_data(ctx); }

static DLTensor *new_tensor(ta_kernel_ctx *ctx, int cu_dtype, int ndim, const int64_t *shape)
{
    DLTensor *t;
    return ta_kernel_empty(ctx, ta_cu_dl_dtype(cu_dtype), ndim, shape, &t) == TA_OK ? t : NULL;
}

/* The checks on a tensor the op writes: dtype, shape (out= is resized as
 * PyTorch does; inplace must already match) and no internal overlap. */
static ta_status check_output(ta_kernel_ctx *ctx, const pw_desc *d, DLTensor *out, enum variant v, int rdt,
                              int ndim, const int64_t *shape)
{
    const char *name = d->name;
    int od = ta_cu_dtype_of(out->dtype);
    char a[160], b[160];
    if (v == OUT && (d->flags & SAME_DTYPE) && od != rdt)
        return ta_kernel_error(ctx, "%s: found dtype %s but expected %s", name, ta_cu_dtype_name(od),
                               ta_cu_dtype_name(rdt));
    if (v != AUTOGEN_OUT && !ta_cu_can_cast(rdt, od))
        return ta_kernel_error(ctx, "%s: result type %s can't be cast to the desired output type %s", name,
                               ta_cu_dtype_name(rdt), ta_cu_dtype_name(od));
    if (!ta_cu_same_shape(out, ndim, shape)) {
        if (v == INPLACE)
            return ta_kernel_error(ctx, "%s: output with shape %s doesn't match the broadcast shape %s", name,
                                   ta_cu_shape_str(out->ndim, out->shape, a, sizeof a),
                                   ta_cu_shape_str(ndim, shape, b, sizeof b));
        if (ta_kernel_resize(ctx, out, ndim, shape) != TA_OK)
            return ta_kernel_error(ctx, "%s: could not resize out to %s", name, ta_cu_shape_str(ndim, shape, b, sizeof b));
    }
    if (ta_cu_internal_overlap(out))
        return ta_kernel_error(ctx,
                               "%s: unsupported operation: more than one element of the written-to tensor "
                               "refers to a single memory location",
                               name);
    return TA_OK;
}

/* The tensor a variant writes: a new one of the result's dtype and shape
 * (functional), self (in place) or argument out_i (out=), checked. */
static ta_status output_for(ta_kernel_ctx *ctx, ta_stack *st, const pw_desc *d, enum variant v, DLTensor *self,
                            size_t out_i, int rdt, int ndim, const int64_t *shape, DLTensor **out)
{
    if (v == FUNCTIONAL) {
        *out = new_tensor(ctx, rdt, ndim, shape);
        return *out ? TA_OK : ta_kernel_error(ctx, "%s: out of device memory", d->name);
    }
    *out = v == INPLACE ? self : ta_stack_tensor(st, out_i);
    TA_CU_TRY(ta_cu_check(ctx, d->name, "out", *out));
    return check_output(ctx, d, *out, v, rdt, ndim, shape);
}

/* Runs d's op from x into out over x's shape (through scratch when out, not
 * new, overlaps x) and leaves out as the return. */
static ta_status run_one_input(ta_kernel_ctx *ctx, ta_stack *st, const pw_desc *d, enum variant v, DLTensor *out,
                               const DLTensor *x, const ta_cu_scalars *s)
{
    ta_cu_iter it;
    ta_cu_iter_init(&it, x->ndim, x->shape, 2);
    ta_cu_iter_operand(&it, 0, out);
    ta_cu_iter_operand(&it, 1, x);
    TA_CU_TRY(ta_cu_run(ctx, d->name, &it, d->code, s, v != FUNCTIONAL && ta_cu_needs_scratch(out, x)));
    return ta_cu_return(st, out);
}

/* ---- unary: op(Tensor self), op_(Tensor(a!) self), op.out(Tensor self, *, Tensor(a!) out) ---- */

static ta_status unary(ta_kernel_ctx *ctx, ta_stack *st, enum variant v)
{
    const pw_desc *d = desc_of(ctx);
    DLTensor *x = ta_stack_tensor(st, 0), *out = NULL;
    TA_CU_TRY(ta_cu_check(ctx, d->name, "self", x));
    int xd = ta_cu_dtype_of(x->dtype);
    int rdt = (d->flags & TO_FLOAT) && !ta_cu_is_float(xd) ? TA_CU_F32 : xd;
    if (d->code == TA_CU_NEG && xd == TA_CU_BOOL)
        return ta_kernel_error(ctx, "neg: negation, the `-` operator, on a bool tensor is not supported");
    if ((d->flags & NO_BOOL) && xd == TA_CU_BOOL) return ta_kernel_error(ctx, "%s: not implemented for 'Bool'", d->name);
    TA_CU_TRY(output_for(ctx, st, d, v, x, 1, rdt, x->ndim, x->shape, &out));
    ta_cu_scalars s = {ta_cu_is_float(rdt), 0, 1.0, 0.0, 1, 0};
    return run_one_input(ctx, st, d, v, out, x, &s);
}

static ta_status unary_fn(ta_kernel_ctx *ctx, ta_stack *st) { return unary(ctx, st, FUNCTIONAL); }
static ta_status unary_inplace(ta_kernel_ctx *ctx, ta_stack *st) { return unary(ctx, st, INPLACE); }
static ta_status unary_out(ta_kernel_ctx *ctx, ta_stack *st) { return unary(ctx, st, OUT); }
static ta_status unary_autogen_out(ta_kernel_ctx *ctx, ta_stack *st) { return unary(ctx, st, AUTOGEN_OUT); }

/* ---- binary: op.Tensor(Tensor self, Tensor other[, *, Scalar alpha]), op_.Tensor, op.out ---- */

/* alpha: an integral result refuses a floating alpha, as PyTorch does. */
static ta_status read_alpha(ta_kernel_ctx *ctx, const pw_desc *d, ta_stack *st, size_t i, int rdt,
                            ta_cu_scalars *s)
{
    s->alpha_f = 1.0;
    s->alpha_i = 1;
    if (!(d->flags & ALPHA)) return TA_OK;
    ta_cu_sval a = ta_cu_read_scalar(st, i, 1);
    if (a.kind == TA_CU_F32 && !ta_cu_is_float(rdt))
        return ta_kernel_error(ctx, "%s: for integral input tensors, argument alpha must not be a floating point number",
                               d->name);
    s->alpha_f = a.f;
    s->alpha_i = a.i;
    return TA_OK;
}

static ta_status binary(ta_kernel_ctx *ctx, ta_stack *st, enum variant v)
{
    const pw_desc *d = desc_of(ctx);
    DLTensor *x = ta_stack_tensor(st, 0), *y = ta_stack_tensor(st, 1), *out = NULL;
    TA_CU_TRY(ta_cu_check(ctx, d->name, "self", x));
    TA_CU_TRY(ta_cu_check(ctx, d->name, "other", y));
    ta_cu_result_type rt;
    ta_cu_rt_init(&rt);
    ta_cu_rt_tensor(&rt, x);
    ta_cu_rt_tensor(&rt, y);
    int rdt = ta_cu_rt_result(&rt);
    if ((d->flags & TO_FLOAT) && !ta_cu_is_float(rdt)) rdt = TA_CU_F32;
    if (d->code == TA_CU_SUB && (ta_cu_dtype_of(x->dtype) == TA_CU_BOOL || ta_cu_dtype_of(y->dtype) == TA_CU_BOOL))
        return ta_kernel_error(ctx, "sub: subtraction, the `-` operator, with a bool tensor is not supported");
    int64_t shape[TA_CU_MAXDIM];
    int ndim = 0;
    char a[160], b[160];
    if (!ta_cu_broadcast(x->ndim, x->shape, y->ndim, y->shape, &ndim, shape))
        return ta_kernel_error(ctx, "%s: the shapes %s and %s cannot be broadcast together", d->name,
                               ta_cu_shape_str(x->ndim, x->shape, a, sizeof a),
                               ta_cu_shape_str(y->ndim, y->shape, b, sizeof b));
    ta_cu_scalars s = {ta_cu_is_float(rdt), 0, 1.0, 0.0, 1, 0};
    TA_CU_TRY(read_alpha(ctx, d, st, 2, rdt, &s));
    TA_CU_TRY(output_for(ctx, st, d, v, x, (d->flags & ALPHA) ? 3 : 2, rdt, ndim, shape, &out));
    bool scratch = v != FUNCTIONAL && (ta_cu_needs_scratch(out, x) || ta_cu_needs_scratch(out, y));
    ta_cu_iter it;
    ta_cu_iter_init(&it, ndim, shape, 3);
    ta_cu_iter_operand(&it, 0, out);
    ta_cu_iter_operand(&it, 1, x);
    ta_cu_iter_operand(&it, 2, y);
    TA_CU_TRY(ta_cu_run(ctx, d->name, &it, d->code, &s, scratch));
    return ta_cu_return(st, out);
}

static ta_status binary_fn(ta_kernel_ctx *ctx, ta_stack *st) { return binary(ctx, st, FUNCTIONAL); }
static ta_status binary_inplace(ta_kernel_ctx *ctx, ta_stack *st) { return binary(ctx, st, INPLACE); }
static ta_status binary_out(ta_kernel_ctx *ctx, ta_stack *st) { return binary(ctx, st, OUT); }

/* ---- tensor op Scalar: add.Scalar(Tensor self, Scalar other, Scalar alpha=1), mul.Scalar, and _ ---- */

static ta_status with_scalar(ta_kernel_ctx *ctx, ta_stack *st, enum variant v)
{
    const pw_desc *d = desc_of(ctx);
    DLTensor *x = ta_stack_tensor(st, 0), *out = NULL;
    TA_CU_TRY(ta_cu_check(ctx, d->name, "self", x));
    ta_cu_sval other = ta_cu_read_scalar(st, 1, 0);
    ta_cu_result_type rt;
    ta_cu_rt_init(&rt);
    ta_cu_rt_tensor(&rt, x);
    ta_cu_rt_scalar(&rt, other.kind);
    int rdt = ta_cu_rt_result(&rt);
    ta_cu_scalars s = {ta_cu_is_float(rdt), 0, 1.0, other.f, 1, other.i};
    TA_CU_TRY(read_alpha(ctx, d, st, 2, rdt, &s));
    TA_CU_TRY(output_for(ctx, st, d, v, x, (d->flags & ALPHA) ? 3 : 2, rdt, x->ndim, x->shape, &out));
    /* An out= of another dtype gets the result converted, computed in the
     * result's own arithmetic. */
    return run_one_input(ctx, st, d, v, out, x, &s);
}

static ta_status scalar_fn(ta_kernel_ctx *ctx, ta_stack *st) { return with_scalar(ctx, st, FUNCTIONAL); }
static ta_status scalar_inplace(ta_kernel_ctx *ctx, ta_stack *st) { return with_scalar(ctx, st, INPLACE); }
static ta_status scalar_out(ta_kernel_ctx *ctx, ta_stack *st) { return with_scalar(ctx, st, AUTOGEN_OUT); }

/* ---- the out= overloads native_functions.yaml declares as `autogen:` ----
 * (fill.Scalar_out, zero.out, clone.out, copy.out; relu.out and the Scalar
 * ones share the code above). The result is written straight into out,
 * resized to the functional result's shape like PyTorch's generated code
 * does; its dtype converts as copy_ would. */

static ta_status autogen_out(ta_kernel_ctx *ctx, const char *name, DLTensor *out, const DLTensor *like, bool writes_each)
{
    char b[160];
    TA_CU_TRY(ta_cu_check(ctx, name, "out", out));
    if (!ta_cu_same_shape(out, like->ndim, like->shape) &&
        ta_kernel_resize(ctx, out, like->ndim, like->shape) != TA_OK)
        return ta_kernel_error(ctx, "%s: could not resize out to %s", name,
                               ta_cu_shape_str(like->ndim, like->shape, b, sizeof b));
    if (writes_each && ta_cu_internal_overlap(out))
        return ta_kernel_error(ctx, "%s: unsupported operation: more than one element of the written-to tensor "
                                    "refers to a single memory location",
                               name);
    return TA_OK;
}

/* ---- fill and zero: fill_.Scalar(Tensor(a!) self, Scalar value), fill.Scalar, zero_ ---- */

/* Writing one value everywhere is harmless through overlapping elements,
 * so fill accepts expanded tensors. A floating value truncates into an
 * integral tensor, as PyTorch's fill_ does. */
static ta_status fill_value(ta_kernel_ctx *ctx, const char *name, DLTensor *t, ta_cu_sval value)
{
    int td = ta_cu_dtype_of(t->dtype);
    /* Into bool, any nonzero value (0.75 too) is true. */
    if (td == TA_CU_BOOL) value.i = value.f != 0.0;
    ta_cu_scalars s = {ta_cu_is_float(td), 0, 1.0, value.f, 1, value.i};
    ta_cu_iter it;
    ta_cu_iter_init(&it, t->ndim, t->shape, 1);
    ta_cu_iter_operand(&it, 0, t);
    return ta_cu_run(ctx, name, &it, TA_CU_FILL, &s, false);
}

/* A new tensor of x's dtype and shape, for the functional variants. */
static ta_status empty_like(ta_kernel_ctx *ctx, const char *name, const DLTensor *x, DLTensor **out)
{
    if (ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape, out) != TA_OK)
        return ta_kernel_error(ctx, "%s: out of device memory", name);
    return TA_OK;
}

/* fill and zero: their variants differ only in what gets the value: self (in
 * place), a new tensor like self, or out (argument out_i) resized like self. */
static ta_status filled(ta_kernel_ctx *ctx, ta_stack *st, const char *name, enum variant v, size_t out_i,
                        ta_cu_sval value)
{
    DLTensor *x = ta_stack_tensor(st, 0), *out = x;
    TA_CU_TRY(ta_cu_check(ctx, name, "self", x));
    if (v == FUNCTIONAL) TA_CU_TRY(empty_like(ctx, name, x, &out));
    if (v == AUTOGEN_OUT) {
        out = ta_stack_tensor(st, out_i);
        TA_CU_TRY(autogen_out(ctx, name, out, x, false));
    }
    TA_CU_TRY(fill_value(ctx, name, out, value));
    return ta_cu_return(st, out);
}

static ta_status fill_inplace(ta_kernel_ctx *ctx, ta_stack *st)
{
    return filled(ctx, st, "fill_", INPLACE, 0, ta_cu_read_scalar(st, 1, 0));
}

static ta_status fill_fn(ta_kernel_ctx *ctx, ta_stack *st)
{
    return filled(ctx, st, "fill", FUNCTIONAL, 0, ta_cu_read_scalar(st, 1, 0));
}

static ta_status fill_out(ta_kernel_ctx *ctx, ta_stack *st)
{
    return filled(ctx, st, "fill.Scalar_out", AUTOGEN_OUT, 2, ta_cu_read_scalar(st, 1, 0));
}

static const ta_cu_sval zero_value = {TA_CU_I64, 0.0, 0};

static ta_status zero_fn(ta_kernel_ctx *ctx, ta_stack *st)
{
    return filled(ctx, st, "zero", FUNCTIONAL, 0, zero_value);
}

static ta_status zero_out(ta_kernel_ctx *ctx, ta_stack *st)
{
    return filled(ctx, st, "zero.out", AUTOGEN_OUT, 1, zero_value);
}

static ta_status zero_inplace(ta_kernel_ctx *ctx, ta_stack *st)
{
    return filled(ctx, st, "zero_", INPLACE, 0, zero_value);
}

/* ---- copies: copy_(Tensor(a!) self, Tensor src, bool non_blocking=False), copy, clone, contiguous ---- */

/* Checks copy's self and src, and that src broadcasts to self's shape. */
static ta_status copy_checks(ta_kernel_ctx *ctx, const char *name, const DLTensor *dst, const DLTensor *src)
{
    TA_CU_TRY(ta_cu_check(ctx, name, "self", dst));
    TA_CU_TRY(ta_cu_check(ctx, name, "src", src));
    int64_t shape[TA_CU_MAXDIM];
    int ndim = 0;
    char a[160], b[160];
    if (!ta_cu_broadcast(dst->ndim, dst->shape, src->ndim, src->shape, &ndim, shape) ||
        !ta_cu_same_shape(dst, ndim, shape))
        return ta_kernel_error(ctx, "%s: the source of shape %s cannot be broadcast to the destination's %s", name,
                               ta_cu_shape_str(src->ndim, src->shape, a, sizeof a),
                               ta_cu_shape_str(dst->ndim, dst->shape, b, sizeof b));
    return TA_OK;
}

static ta_status copy_inplace(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0), *src = ta_stack_tensor(st, 1);
    TA_CU_TRY(copy_checks(ctx, "copy_", x, src));
    if (ta_cu_internal_overlap(x))
        return ta_kernel_error(ctx, "copy_: unsupported operation: more than one element of the written-to tensor "
                                    "refers to a single memory location");
    TA_CU_TRY(ta_cu_copy_into(ctx, "copy_", x, src));
    return ta_cu_return(st, x);
}

static ta_status copy_fn(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0), *src = ta_stack_tensor(st, 1);
    TA_CU_TRY(copy_checks(ctx, "copy", x, src));
    DLTensor *out;
    TA_CU_TRY(empty_like(ctx, "copy", x, &out));
    TA_CU_TRY(ta_cu_copy_into(ctx, "copy", out, src));
    return ta_cu_return(st, out);
}

/* copy.out(Tensor self, Tensor src, bool non_blocking=False, *, Tensor(a!) out) */
static ta_status copy_out(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0), *src = ta_stack_tensor(st, 1), *out = ta_stack_tensor(st, 3);
    TA_CU_TRY(copy_checks(ctx, "copy.out", x, src));
    TA_CU_TRY(autogen_out(ctx, "copy.out", out, x, true));
    TA_CU_TRY(ta_cu_copy_into(ctx, "copy.out", out, src));
    return ta_cu_return(st, out);
}

/* clone.out(Tensor self, *, MemoryFormat? memory_format=None, Tensor(a!) out) */
static ta_status clone_out(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0), *out = ta_stack_tensor(st, 2);
    TA_CU_TRY(ta_cu_check(ctx, "clone.out", "self", x));
    TA_CU_TRY(autogen_out(ctx, "clone.out", out, x, true));
    TA_CU_TRY(ta_cu_copy_into(ctx, "clone.out", out, x));
    return ta_cu_return(st, out);
}

static ta_status clone_of(ta_kernel_ctx *ctx, ta_stack *st, const char *name, DLTensor *x)
{
    DLTensor *out;
    TA_CU_TRY(empty_like(ctx, name, x, &out));
    TA_CU_TRY(ta_cu_copy_into(ctx, name, out, x));
    return ta_cu_return(st, out);
}

static ta_status clone_fn(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    TA_CU_TRY(ta_cu_check(ctx, "clone", "self", x));
    return clone_of(ctx, st, "clone", x);
}

/* contiguous returns self itself when it already is (the schema's Tensor(a)),
 * a contiguous copy otherwise. */
static ta_status contiguous_fn(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    TA_CU_TRY(ta_cu_check(ctx, "contiguous", "self", x));
    if (ta_cu_is_contiguous(x)) return ta_cu_return(st, x);
    return clone_of(ctx, st, "contiguous", x);
}

/* ---- registration ---- */

#define DESC(n, c, f) static const pw_desc d_##n = {#n, c, f};
DESC(abs, TA_CU_ABS, SAME_DTYPE | NO_BOOL)
DESC(neg, TA_CU_NEG, SAME_DTYPE)
DESC(exp, TA_CU_EXP, TO_FLOAT)
DESC(log, TA_CU_LOG, TO_FLOAT)
DESC(sqrt, TA_CU_SQRT, TO_FLOAT)
DESC(sin, TA_CU_SIN, TO_FLOAT)
DESC(cos, TA_CU_COS, TO_FLOAT)
DESC(tanh, TA_CU_TANH, TO_FLOAT)
DESC(sigmoid, TA_CU_SIGMOID, TO_FLOAT)
DESC(relu, TA_CU_RELU, NO_BOOL)
DESC(ceil, TA_CU_CEIL, SAME_DTYPE | NO_BOOL)
DESC(floor, TA_CU_FLOOR, SAME_DTYPE | NO_BOOL)
DESC(reciprocal, TA_CU_RECIPROCAL, TO_FLOAT)
DESC(add, TA_CU_ADD, ALPHA)
DESC(sub, TA_CU_SUB, ALPHA)
DESC(mul, TA_CU_MUL, 0)
DESC(div, TA_CU_DIV, TO_FLOAT)
DESC(maximum, TA_CU_MAXIMUM, 0)
DESC(minimum, TA_CU_MINIMUM, 0)
#undef DESC

#define U3(n) {"aten::" #n, unary_fn, &d_##n}, {"aten::" #n "_", unary_inplace, &d_##n}, \
              {"aten::" #n ".out", unary_out, &d_##n}
#define B3(n) {"aten::" #n ".Tensor", binary_fn, &d_##n}, {"aten::" #n "_.Tensor", binary_inplace, &d_##n}, \
              {"aten::" #n ".out", binary_out, &d_##n}

static const ta_cu_entry table[] = {
    U3(abs), U3(neg), U3(exp), U3(log), U3(sqrt), U3(sin), U3(cos), U3(tanh), U3(sigmoid),
    U3(ceil), U3(floor), U3(reciprocal),
    /* relu.out is autogen: */
    {"aten::relu", unary_fn, &d_relu}, {"aten::relu_", unary_inplace, &d_relu}, {"aten::relu.out", unary_autogen_out, &d_relu},
    B3(add), B3(sub), B3(mul), B3(div),
    {"aten::maximum", binary_fn, &d_maximum}, {"aten::maximum.out", binary_out, &d_maximum},
    {"aten::minimum", binary_fn, &d_minimum}, {"aten::minimum.out", binary_out, &d_minimum},
    {"aten::add.Scalar", scalar_fn, &d_add}, {"aten::add_.Scalar", scalar_inplace, &d_add},
    {"aten::add.Scalar_out", scalar_out, &d_add},
    {"aten::mul.Scalar", scalar_fn, &d_mul}, {"aten::mul_.Scalar", scalar_inplace, &d_mul},
    {"aten::mul.Scalar_out", scalar_out, &d_mul},
    {"aten::fill_.Scalar", fill_inplace, NULL}, {"aten::fill.Scalar", fill_fn, NULL},
    {"aten::fill.Scalar_out", fill_out, NULL},
    {"aten::zero_", zero_inplace, NULL}, {"aten::zero", zero_fn, NULL}, {"aten::zero.out", zero_out, NULL},
    {"aten::copy_", copy_inplace, NULL}, {"aten::copy", copy_fn, NULL}, {"aten::copy.out", copy_out, NULL},
    {"aten::clone", clone_fn, NULL}, {"aten::clone.out", clone_out, NULL},
    {"aten::contiguous", contiguous_fn, NULL},
};

ta_status ta_cu_register_pointwise(ta_registry *reg)
{
    return ta_cu_register_table(reg, table, sizeof table / sizeof table[0]);
}
