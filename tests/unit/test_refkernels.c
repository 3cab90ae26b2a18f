/* test_refkernels.c - the CPU reference kernels (build/libtensoralias_refkernels.so),
 * loaded as a plugin and run through the engine, checked against hand-computed
 * values: element-wise math and type promotion, broadcasting, alpha, out=
 * resizing, in-place writes through strides, reductions, joins and cuts, view
 * geometry and storage sharing, resize_, matrix products, and errors reported
 * by kernels. */
#include <dlfcn.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/diags.h"
#include "support/plugin.h"
#include "tensoralias/exec.h"

static ta_registry *REG;
static void *HANDLE;
static ta_exec *X;

/* ---- helpers ---------------------------------------------------------------- */

static DLTensor *mk(DLDataType dt, int nd, const int64_t *shape, const double *vals)
{
    static const int64_t none[1] = {0};
    DLTensor *t;
    assert_int_equal(ta_exec_empty(X, dt, nd, shape ? shape : none, &t), TA_OK);
    int64_t n = ta_numel(t);
    for (int64_t i = 0; i < n; i++) {
        void *p = ta_elem_ptr(t, i);
        double v = vals ? vals[i] : 0;
        if (dt.code == kDLFloat && dt.bits == 32) *(float *)p = (float)v;
        else if (dt.code == kDLFloat) *(double *)p = v;
        else if (dt.code == kDLInt && dt.bits == 64) *(int64_t *)p = (int64_t)v;
        else if (dt.code == kDLInt && dt.bits == 32) *(int32_t *)p = (int32_t)v;
        else *(uint8_t *)p = v != 0;
    }
    return t;
}

static double get(const DLTensor *t, int64_t i)
{
    const void *p = ta_elem_ptr(t, i);
    DLDataType dt = t->dtype;
    if (dt.code == kDLFloat && dt.bits == 32) return *(const float *)p;
    if (dt.code == kDLFloat) return *(const double *)p;
    if (dt.code == kDLInt && dt.bits == 64) return (double)*(const int64_t *)p;
    if (dt.code == kDLInt && dt.bits == 32) return *(const int32_t *)p;
    return *(const uint8_t *)p;
}

static void expect_vals(const DLTensor *t, int64_t n, const double *want)
{
    assert_int_equal(ta_numel(t), n);
    for (int64_t i = 0; i < n; i++) {
        double g = get(t, i);
        if (isnan(want[i])) assert_true(isnan(g));
        else if (fabs(g - want[i]) > 1e-5 * (1 + fabs(want[i]))) fail_msg("element %lld: got %g, want %g", (long long)i, g, want[i]);
    }
}

static void expect_shape(const DLTensor *t, int nd, const int64_t *shape)
{
    assert_int_equal(t->ndim, nd);
    for (int d = 0; d < nd; d++) assert_int_equal(t->shape[d], shape[d]);
}

static void expect_strides(const DLTensor *t, const int64_t *strides)
{
    int64_t s[64];
    ta_strides_of(t, s);
    for (int d = 0; d < t->ndim; d++) assert_int_equal(s[d], strides[d]);
}

static bool same_dtype(DLDataType a, DLDataType b) { return ta_dtype_eq(a, b); }

static ta_stack *S(void) { return ta_exec_stack(X); }
static void pt(DLTensor *t) { assert_int_equal(ta_stack_push_tensor(S(), t), TA_OK); }
static void pnone(void) { assert_int_equal(ta_stack_push(S(), (ta_value){.tag = TA_VAL_NONE}), TA_OK); }
static void pint(int64_t i)
{
    ta_value v = {.tag = TA_VAL_INT};
    v.u.i = i;
    assert_int_equal(ta_stack_push(S(), v), TA_OK);
}
static void pbool(bool b)
{
    ta_value v = {.tag = TA_VAL_BOOL};
    v.u.b = b;
    assert_int_equal(ta_stack_push(S(), v), TA_OK);
}
static void pints(size_t n, const int64_t *items)
{
    ta_value v = {.tag = TA_VAL_INT_LIST};
    v.u.ints.items = items;
    v.u.ints.n = n;
    assert_int_equal(ta_stack_push(S(), v), TA_OK);
}
static void psi(int64_t i)
{
    ta_value v = {.tag = TA_VAL_SCALAR, .scalar_kind = TA_SCALAR_INT};
    v.u.i = i;
    assert_int_equal(ta_stack_push(S(), v), TA_OK);
}
static void psf(double f)
{
    ta_value v = {.tag = TA_VAL_SCALAR, .scalar_kind = TA_SCALAR_FLOAT};
    v.u.f = f;
    assert_int_equal(ta_stack_push(S(), v), TA_OK);
}
static void pstr(const char *s)
{
    ta_value v = {.tag = TA_VAL_STRING};
    v.u.s = s;
    assert_int_equal(ta_stack_push(S(), v), TA_OK);
}
static void plist(size_t n, DLTensor **items)
{
    ta_value v = {.tag = TA_VAL_TENSOR_LIST};
    v.u.tensors.items = items;
    v.u.tensors.n = n;
    assert_int_equal(ta_stack_push(S(), v), TA_OK);
}

/* What the last call said when it failed. */
static ta_diags *CALL_DIAGS;

/* Runs the CPU kernel registered under name on the stack as pushed. */
static ta_status call(const char *name)
{
    const ta_registry_op *op = ta_registry_find(REG, name);
    if (!op) fail_msg("%s is not registered", name);
    void *ud;
    ta_kernel_fn fn = ta_registry_kernel_for(op, kDLCPU, &ud);
    assert_non_null(fn);
    if (!CALL_DIAGS) assert_int_equal(ta_diags_create(&CALL_DIAGS), TA_OK);
    ta_diags_clear(CALL_DIAGS);
    return ta_exec_call(X, fn, ud, CALL_DIAGS);
}

static DLTensor *call1(const char *name)
{
    ta_status s = call(name);
    if (s != TA_OK) fail_msg("%s failed: %s", name, ta_test_last_message(CALL_DIAGS));
    assert_int_equal(ta_stack_size(S()), 1);
    DLTensor *t = ta_stack_tensor(S(), 0);
    assert_non_null(t);
    ta_stack_clear(S());
    return t;
}

static void call_fails(const char *name, const char *substr)
{
    assert_int_equal(call(name), TA_ERR_KERNEL);
    if (!strstr(ta_test_last_message(CALL_DIAGS), substr)) fail_msg("%s: error '%s' lacks '%s'", name, ta_test_last_message(CALL_DIAGS), substr);
    ta_stack_clear(S());
}

static bool shares(const DLTensor *a, const DLTensor *b)
{
    return ta_exec_storage_of(X, a) != 0 && ta_exec_storage_of(X, a) == ta_exec_storage_of(X, b);
}

static int setup(void **state)
{
    (void)state;
    /* call the entry point directly, as ta_registry_load_plugin does */
    ta_plugin_register_fn entry = ta_test_plugin_entry("libtensoralias_refkernels.so", &HANDLE);
    if (!entry) return -1;
    assert_int_equal(ta_registry_create(&REG), TA_OK);
    if (entry(REG, TA_KERNEL_ABI_VERSION + 1) != TA_ERR_UNSUPPORTED) return -1; /* a foreign ABI is refused */
    if (entry(REG, TA_KERNEL_ABI_VERSION) != TA_OK) return -1;
    assert_int_equal(ta_exec_create(NULL, &X), TA_OK);
    return X ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ta_exec_destroy(X);
    ta_registry_destroy(REG);
    dlclose(HANDLE);
    return 0;
}

static int reset(void **state)
{
    (void)state;
    ta_exec_reset(X);
    return 0;
}

static const int64_t S2[] = {2}, S22[] = {2, 2}, S23[] = {2, 3}, S3[] = {3};

/* ---- registration ---------------------------------------------------------------- */

static void test_registered(void **state)
{
    (void)state;
    static const char *const names[] = {
        "abs", "abs_", "abs.out", "neg", "neg_", "neg.out", "exp", "exp_", "exp.out", "log.out", "sqrt_",
        "sin", "cos.out", "tanh_", "sigmoid", "relu", "relu_", "relu.out", "ceil.out", "floor_", "reciprocal",
        "add.Tensor", "add_.Tensor", "add.out", "sub.Tensor", "sub_.Tensor", "sub.out", "mul.Tensor", "mul_.Tensor",
        "mul.out", "div.Tensor", "div_.Tensor", "div.out", "add.Scalar", "add_.Scalar", "add.Scalar_out",
        "mul.Scalar", "mul_.Scalar", "mul.Scalar_out", "maximum", "maximum.out", "minimum", "minimum.out",
        "fill_.Scalar", "fill.Scalar", "fill.Scalar_out", "zero_", "zero", "zero.out", "copy_", "copy.out", "clone",
        "clone.out", "contiguous", "clamp", "clamp_", "clamp.out", "where.self", "where.self_out",
        "sum.dim_IntList", "sum.IntList_out", "mean.dim", "mean.out", "max.dim", "max.dim_max", "min.dim",
        "min.dim_min", "cat", "cat.out", "stack", "stack.out", "view", "reshape", "transpose.int", "t", "permute",
        "select.int", "slice.Tensor", "narrow", "expand", "squeeze.dim", "unsqueeze", "as_strided", "diagonal",
        "unfold", "alias", "detach", "split.Tensor", "split_with_sizes", "chunk", "unbind.int", "transpose_", "t_",
        "squeeze_.dim", "unsqueeze_", "as_strided_", "resize_", "view_copy", "transpose_copy.int", "sub.Scalar",
        "div.Scalar", "rsqrt", "sign",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char full[128];
        snprintf(full, sizeof full, "aten::%s", names[i]);
        const ta_registry_op *op = ta_registry_find(REG, full);
        if (!op || !op->kernels[TA_KEY_CPU]) fail_msg("%s has no CPU kernel", full);
    }
}

/* ---- unary ----------------------------------------------------------------------- */

static void test_unary(void **state)
{
    (void)state;
    DLTensor *x = mk(TA_DTYPE_F32, 1, S2, (double[]){-1.5, 2});
    pt(x);
    DLTensor *y = call1("aten::abs");
    expect_vals(y, 2, (double[]){1.5, 2});
    assert_false(shares(x, y));
    expect_vals(x, 2, (double[]){-1.5, 2}); /* functional: input untouched */

    struct { const char *op; double in, out; } cases[] = {
        {"aten::neg", 3, -3}, {"aten::exp", 0, 1}, {"aten::log", 1, 0}, {"aten::sqrt", 4, 2},
        {"aten::sin", 0, 0}, {"aten::cos", 0, 1}, {"aten::tanh", 0, 0}, {"aten::sigmoid", 0, 0.5},
        {"aten::relu", -2, 0}, {"aten::relu", 2, 2}, {"aten::ceil", 1.5, 2}, {"aten::floor", -1.5, -2},
        {"aten::reciprocal", 4, 0.25}, {"aten::rsqrt", 4, 0.5}, {"aten::sign", -7, -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pt(mk(TA_DTYPE_F64, 1, (int64_t[]){1}, &cases[i].in));
        DLTensor *r = call1(cases[i].op);
        assert_true(same_dtype(r->dtype, TA_DTYPE_F64));
        expect_vals(r, 1, &cases[i].out);
    }

    /* integral input to a float op gives float32; to abs keeps int64 */
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){0, 1}));
    y = call1("aten::exp");
    assert_true(same_dtype(y->dtype, TA_DTYPE_F32));
    expect_vals(y, 2, (double[]){1, M_E});
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){-3, 4}));
    y = call1("aten::abs");
    assert_true(same_dtype(y->dtype, TA_DTYPE_I64));
    expect_vals(y, 2, (double[]){3, 4});

    /* errors: bool negation, exp_ into an int tensor */
    pt(mk(TA_DTYPE_BOOL, 1, S2, (double[]){1, 0}));
    call_fails("aten::neg", "Bool");
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){1, 0}));
    call_fails("aten::exp_", "can't be cast");
}

static void test_unary_inplace_strided(void **state)
{
    (void)state;
    /* abs_ on the transpose of [[-1,-2],[-3,-4]]: writes through strides, returns self */
    DLTensor *base = mk(TA_DTYPE_F32, 2, S22, (double[]){-1, -2, -3, 4});
    pt(base);
    pint(0);
    pint(1);
    DLTensor *tv = call1("aten::transpose.int");
    pt(tv);
    DLTensor *r = call1("aten::abs_");
    assert_ptr_equal(r, tv);
    expect_vals(base, 4, (double[]){1, 2, 3, 4});
    expect_vals(tv, 4, (double[]){1, 3, 2, 4});

    /* neg_ on a 0-dim tensor */
    DLTensor *z = mk(TA_DTYPE_F64, 0, NULL, (double[]){2.5});
    pt(z);
    assert_ptr_equal(call1("aten::neg_"), z);
    expect_vals(z, 1, (double[]){-2.5});
}

static void test_unary_out_resized(void **state)
{
    (void)state;
    DLTensor *x = mk(TA_DTYPE_F32, 2, S22, (double[]){-1, 2, -3, 4});
    DLTensor *out = mk(TA_DTYPE_F32, 1, (int64_t[]){5}, NULL);
    pt(x);
    pt(out);
    DLTensor *r = call1("aten::abs.out");
    assert_ptr_equal(r, out);
    expect_shape(out, 2, S22);
    expect_vals(out, 4, (double[]){1, 2, 3, 4});

    /* sqrt of int64 into a float64 out: allowed; into an int64 out: not */
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){4, 9}));
    DLTensor *o2 = mk(TA_DTYPE_F64, 1, S2, NULL);
    pt(o2);
    assert_ptr_equal(call1("aten::sqrt.out"), o2);
    expect_vals(o2, 2, (double[]){2, 3});
    pt(mk(TA_DTYPE_F32, 1, S2, (double[]){4, 9}));
    pt(mk(TA_DTYPE_I64, 1, S2, NULL));
    call_fails("aten::sqrt.out", "can't be cast");

    /* empty tensors */
    pt(mk(TA_DTYPE_F32, 2, (int64_t[]){0, 3}, NULL));
    DLTensor *e = call1("aten::cos");
    expect_shape(e, 2, (int64_t[]){0, 3});
}

/* ---- binary ---------------------------------------------------------------------- */

static void test_binary_broadcast_alpha(void **state)
{
    (void)state;
    pt(mk(TA_DTYPE_F32, 2, S22, (double[]){1, 2, 3, 4}));
    pt(mk(TA_DTYPE_F32, 1, S2, (double[]){10, 20}));
    psi(2);
    DLTensor *y = call1("aten::add.Tensor");
    expect_shape(y, 2, S22);
    expect_vals(y, 4, (double[]){21, 42, 23, 44});

    /* [2,1] - 3*[3] -> [2,3] in int64 */
    pt(mk(TA_DTYPE_I64, 2, (int64_t[]){2, 1}, (double[]){1, 2}));
    pt(mk(TA_DTYPE_I64, 1, S3, (double[]){1, 2, 3}));
    psi(3);
    y = call1("aten::sub.Tensor");
    assert_true(same_dtype(y->dtype, TA_DTYPE_I64));
    expect_shape(y, 2, S23);
    expect_vals(y, 6, (double[]){-2, -5, -8, -1, -4, -7});

    /* integral tensors reject a float alpha; shapes must broadcast */
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){1, 2}));
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){1, 2}));
    psf(1.5);
    call_fails("aten::add.Tensor", "alpha");
    pt(mk(TA_DTYPE_F32, 1, S2, NULL));
    pt(mk(TA_DTYPE_F32, 1, S3, NULL));
    psi(1);
    call_fails("aten::add.Tensor", "must match");
}

static void test_binary_promotion(void **state)
{
    (void)state;
    /* int64 * float32 -> float32 */
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){3, 4}));
    pt(mk(TA_DTYPE_F32, 1, S2, (double[]){0.5, 0.25}));
    DLTensor *y = call1("aten::mul.Tensor");
    assert_true(same_dtype(y->dtype, TA_DTYPE_F32));
    expect_vals(y, 2, (double[]){1.5, 1});

    /* int / int is true division in float32 */
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){5, -7}));
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){2, 2}));
    y = call1("aten::div.Tensor");
    assert_true(same_dtype(y->dtype, TA_DTYPE_F32));
    expect_vals(y, 2, (double[]){2.5, -3.5});

    /* floor rounding keeps int64 */
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){5, -7}));
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){2, 2}));
    pstr("floor");
    y = call1("aten::div.Tensor_mode");
    assert_true(same_dtype(y->dtype, TA_DTYPE_I64));
    expect_vals(y, 2, (double[]){2, -4});

    /* int32 tensor + int Scalar stays int32; + float Scalar becomes float32 */
    pt(mk(TA_DTYPE_I32, 1, S2, (double[]){1, 2}));
    psi(5);
    psi(1);
    y = call1("aten::add.Scalar");
    assert_true(same_dtype(y->dtype, TA_DTYPE_I32));
    expect_vals(y, 2, (double[]){6, 7});
    pt(mk(TA_DTYPE_I32, 1, S2, (double[]){1, 2}));
    psf(0.5);
    y = call1("aten::mul.Scalar");
    assert_true(same_dtype(y->dtype, TA_DTYPE_F32));
    expect_vals(y, 2, (double[]){0.5, 1});

    /* int64 dim tensor + 0-dim float64 tensor -> float64 */
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){1, 2}));
    pt(mk(TA_DTYPE_F64, 0, NULL, (double[]){0.5}));
    psi(1);
    y = call1("aten::add.Tensor");
    assert_true(same_dtype(y->dtype, TA_DTYPE_F64));
    expect_vals(y, 2, (double[]){1.5, 2.5});

    /* float32 dim tensor + 0-dim float64 tensor stays float32 */
    pt(mk(TA_DTYPE_F32, 1, S2, (double[]){1, 2}));
    pt(mk(TA_DTYPE_F64, 0, NULL, (double[]){0.5}));
    psi(1);
    y = call1("aten::add.Tensor");
    assert_true(same_dtype(y->dtype, TA_DTYPE_F32));

    /* bool + bool stays bool; bool - bool is an error; int64 div_ int64 cannot hold floats */
    pt(mk(TA_DTYPE_BOOL, 1, S2, (double[]){1, 0}));
    pt(mk(TA_DTYPE_BOOL, 1, S2, (double[]){1, 0}));
    psi(1);
    y = call1("aten::add.Tensor");
    assert_true(same_dtype(y->dtype, TA_DTYPE_BOOL));
    expect_vals(y, 2, (double[]){1, 0});
    pt(mk(TA_DTYPE_BOOL, 1, S2, NULL));
    pt(mk(TA_DTYPE_BOOL, 1, S2, NULL));
    psi(1);
    call_fails("aten::sub.Tensor", "bool");
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){1, 2}));
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){1, 2}));
    call_fails("aten::div_.Tensor", "can't be cast");

    /* integer division by zero with rounding is an error, not a crash */
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){1, 2}));
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){0, 1}));
    pstr("trunc");
    call_fails("aten::div.Tensor_mode", "ZeroDivision");
}

static void test_binary_inplace_out(void **state)
{
    (void)state;
    /* mul_ on a column view of a [2,3] tensor, broadcasting a 0-dim other */
    DLTensor *base = mk(TA_DTYPE_F32, 2, S23, (double[]){1, 2, 3, 4, 5, 6});
    pt(base);
    pint(1);
    pint(1);
    DLTensor *col = call1("aten::select.int");
    pt(col);
    pt(mk(TA_DTYPE_F32, 0, NULL, (double[]){10}));
    assert_ptr_equal(call1("aten::mul_.Tensor"), col);
    expect_vals(base, 6, (double[]){1, 20, 3, 4, 50, 6});

    /* add_ cannot grow self by broadcasting */
    pt(mk(TA_DTYPE_F32, 1, S2, NULL));
    pt(mk(TA_DTYPE_F32, 2, S22, NULL));
    psi(1);
    call_fails("aten::add_.Tensor", "doesn't match the broadcast shape");

    /* add.out with a wrong-shaped out: resized, written, returned */
    DLTensor *out = mk(TA_DTYPE_F64, 1, (int64_t[]){7}, NULL);
    pt(mk(TA_DTYPE_F32, 2, (int64_t[]){2, 1}, (double[]){1, 2}));
    pt(mk(TA_DTYPE_F32, 1, S3, (double[]){10, 20, 30}));
    psi(1);
    pt(out);
    assert_ptr_equal(call1("aten::add.out"), out);
    expect_shape(out, 2, S23);
    expect_vals(out, 6, (double[]){11, 21, 31, 12, 22, 32});

    /* maximum propagates NaN, minimum promotes */
    pt(mk(TA_DTYPE_F32, 1, S2, (double[]){1, NAN}));
    pt(mk(TA_DTYPE_F32, 1, S2, (double[]){2, 3}));
    expect_vals(call1("aten::maximum"), 2, (double[]){2, NAN});
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){1, 5}));
    pt(mk(TA_DTYPE_F32, 1, S2, (double[]){2, 3}));
    DLTensor *y = call1("aten::minimum");
    assert_true(same_dtype(y->dtype, TA_DTYPE_F32));
    expect_vals(y, 2, (double[]){1, 3});

    /* sub.Scalar and div.Scalar */
    pt(mk(TA_DTYPE_F32, 1, S2, (double[]){1, 2}));
    psf(0.5);
    psi(2);
    expect_vals(call1("aten::sub.Scalar"), 2, (double[]){0, 1});
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){1, 2}));
    psi(4);
    expect_vals(call1("aten::div.Scalar"), 2, (double[]){0.25, 0.5});
}

static void test_where_clamp(void **state)
{
    (void)state;
    /* where(cond[2,1], int64[2], float64 0-dim) -> float64 [2,2] */
    pt(mk(TA_DTYPE_BOOL, 2, (int64_t[]){2, 1}, (double[]){1, 0}));
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){1, 2}));
    pt(mk(TA_DTYPE_F64, 0, NULL, (double[]){0.5}));
    DLTensor *y = call1("aten::where.self");
    assert_true(same_dtype(y->dtype, TA_DTYPE_F64));
    expect_shape(y, 2, S22);
    expect_vals(y, 4, (double[]){1, 2, 0.5, 0.5});
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){1, 0}));
    pt(mk(TA_DTYPE_I64, 1, S2, NULL));
    pt(mk(TA_DTYPE_I64, 1, S2, NULL));
    call_fails("aten::where.self", "boolean");

    /* clamp with Scalar bounds; int64 clamped by a float min becomes float32 */
    pt(mk(TA_DTYPE_F32, 1, S3, (double[]){-1, 0.5, 2}));
    psi(0);
    psi(1);
    expect_vals(call1("aten::clamp"), 3, (double[]){0, 0.5, 1});
    pt(mk(TA_DTYPE_I64, 1, S2, (double[]){1, 2}));
    psf(1.5);
    pnone();
    y = call1("aten::clamp");
    assert_true(same_dtype(y->dtype, TA_DTYPE_F32));
    expect_vals(y, 2, (double[]){1.5, 2});
    pt(mk(TA_DTYPE_F32, 1, S2, NULL));
    pnone();
    pnone();
    call_fails("aten::clamp", "At least one");

    /* clamp_ in place, min > max gives max */
    DLTensor *x = mk(TA_DTYPE_F32, 1, S2, (double[]){0, 5});
    pt(x);
    psi(3);
    psi(2);
    assert_ptr_equal(call1("aten::clamp_"), x);
    expect_vals(x, 2, (double[]){2, 2});
}

/* ---- fill / copy / clone / contiguous / resize ------------------------------------- */

static void test_fill_copy(void **state)
{
    (void)state;
    /* fill_ and zero_ on a strided slice write only its elements */
    DLTensor *base = mk(TA_DTYPE_I64, 1, (int64_t[]){5}, (double[]){1, 1, 1, 1, 1});
    pt(base);
    pint(0);
    pint(0);
    pint(5);
    pint(2);
    DLTensor *ev = call1("aten::slice.Tensor");
    pt(ev);
    psf(7.9);
    assert_ptr_equal(call1("aten::fill_.Scalar"), ev);
    expect_vals(base, 5, (double[]){7, 1, 7, 1, 7});
    pt(ev);
    assert_ptr_equal(call1("aten::zero_"), ev);
    expect_vals(base, 5, (double[]){0, 1, 0, 1, 0});

    /* copy_ broadcasts and converts */
    DLTensor *dst = mk(TA_DTYPE_I32, 2, S22, NULL);
    pt(dst);
    pt(mk(TA_DTYPE_F64, 1, S2, (double[]){2.7, -1.2}));
    pbool(false);
    assert_ptr_equal(call1("aten::copy_"), dst);
    expect_vals(dst, 4, (double[]){2, -1, 2, -1});
    pt(mk(TA_DTYPE_F32, 1, S2, NULL));
    pt(mk(TA_DTYPE_F32, 1, S3, NULL));
    pbool(false);
    call_fails("aten::copy_", "must match");

    /* fill.Scalar (functional) leaves self alone */
    DLTensor *f = mk(TA_DTYPE_F32, 1, S2, (double[]){1, 2});
    pt(f);
    psi(3);
    DLTensor *g = call1("aten::fill.Scalar");
    assert_false(shares(f, g));
    expect_vals(g, 2, (double[]){3, 3});
    expect_vals(f, 2, (double[]){1, 2});
}

static void test_clone_contiguous(void **state)
{
    (void)state;
    DLTensor *x = mk(TA_DTYPE_F32, 2, S23, (double[]){1, 2, 3, 4, 5, 6});
    pt(x);
    pnone();
    DLTensor *c = call1("aten::clone");
    assert_false(shares(x, c));
    expect_vals(c, 6, (double[]){1, 2, 3, 4, 5, 6});

    /* contiguous of a contiguous tensor is self itself */
    pt(x);
    pint(0); /* MemoryFormat::Contiguous */
    assert_ptr_equal(call1("aten::contiguous"), x);

    /* of a transpose: a fresh row-major copy */
    pt(x);
    DLTensor *t = call1("aten::t");
    pt(t);
    pint(0);
    DLTensor *ct = call1("aten::contiguous");
    assert_false(shares(ct, x));
    expect_shape(ct, 2, (int64_t[]){3, 2});
    expect_strides(ct, (int64_t[]){2, 1});
    expect_vals(ct, 6, (double[]){1, 4, 2, 5, 3, 6});

    /* clone preserves a dense transposed layout */
    pt(t);
    pnone();
    DLTensor *cl = call1("aten::clone");
    expect_strides(cl, (int64_t[]){1, 3});
    expect_vals(cl, 6, (double[]){1, 4, 2, 5, 3, 6});
}

static void test_resize(void **state)
{
    (void)state;
    DLTensor *x = mk(TA_DTYPE_F32, 1, S2, (double[]){1, 2});
    pt(x);
    pints(2, S23);
    pnone();
    assert_ptr_equal(call1("aten::resize_"), x);
    expect_shape(x, 2, S23);
    expect_strides(x, (int64_t[]){3, 1});
    assert_true(get(x, 0) == 1 && get(x, 1) == 2); /* old elements kept */

    /* same shape: untouched, strides included */
    pt(x);
    DLTensor *tv = call1("aten::t");
    pt(tv);
    pints(2, (int64_t[]){3, 2});
    pnone();
    assert_ptr_equal(call1("aten::resize_"), tv);
    expect_strides(tv, (int64_t[]){1, 3});

    pt(x);
    pints(1, (int64_t[]){-1});
    pnone();
    call_fails("aten::resize_", "negative");
}

/* ---- reductions ------------------------------------------------------------------ */

static void test_reductions(void **state)
{
    (void)state;
    DLTensor *x = mk(TA_DTYPE_I32, 2, S23, (double[]){1, 2, 3, 4, 5, 6});
    pt(x);
    pints(1, (int64_t[]){-1});
    pbool(false);
    pnone();
    DLTensor *s = call1("aten::sum.dim_IntList");
    assert_true(same_dtype(s->dtype, TA_DTYPE_I64)); /* integral sums are int64 */
    expect_shape(s, 1, S2);
    expect_vals(s, 2, (double[]){6, 15});

    pt(x);
    pints(1, (int64_t[]){0});
    pbool(true);
    pnone();
    s = call1("aten::sum.dim_IntList");
    expect_shape(s, 2, (int64_t[]){1, 3});
    expect_vals(s, 3, (double[]){5, 7, 9});

    pt(x); /* dim=None: everything, 0-dim result */
    pnone();
    pbool(false);
    pnone();
    s = call1("aten::sum.dim_IntList");
    assert_int_equal(s->ndim, 0);
    expect_vals(s, 1, (double[]){21});

    pt(x);
    pints(2, (int64_t[]){0, 0});
    pbool(false);
    pnone();
    call_fails("aten::sum.dim_IntList", "multiple times");

    /* mean: floats only, unless a float dtype is given */
    pt(x);
    pints(1, (int64_t[]){1});
    pbool(false);
    pnone();
    call_fails("aten::mean.dim", "floating point");
    pt(x);
    pints(1, (int64_t[]){1});
    pbool(false);
    pint(TA_ST_DOUBLE);
    DLTensor *m = call1("aten::mean.dim");
    assert_true(same_dtype(m->dtype, TA_DTYPE_F64));
    expect_vals(m, 2, (double[]){2, 5});

    /* mean.out into a wrong-shaped out */
    DLTensor *out = mk(TA_DTYPE_F32, 1, (int64_t[]){4}, NULL);
    pt(mk(TA_DTYPE_F32, 2, S22, (double[]){1, 2, 3, 5}));
    pints(1, (int64_t[]){0});
    pbool(false);
    pnone();
    pt(out);
    assert_ptr_equal(call1("aten::mean.out"), out);
    expect_shape(out, 1, S2);
    expect_vals(out, 2, (double[]){2, 3.5});

    /* sum of an empty tensor is 0 */
    pt(mk(TA_DTYPE_F32, 2, (int64_t[]){0, 2}, NULL));
    pints(1, (int64_t[]){0});
    pbool(false);
    pnone();
    expect_vals(call1("aten::sum.dim_IntList"), 2, (double[]){0, 0});
}

static void test_max_min_dim(void **state)
{
    (void)state;
    DLTensor *x = mk(TA_DTYPE_F32, 2, S23, (double[]){1, 5, 3, 7, 2, 7});
    pt(x);
    pint(1);
    pbool(false);
    assert_int_equal(call("aten::max.dim"), TA_OK);
    assert_int_equal(ta_stack_size(S()), 2);
    DLTensor *v = ta_stack_tensor(S(), 0), *i = ta_stack_tensor(S(), 1);
    ta_stack_clear(S());
    expect_vals(v, 2, (double[]){5, 7});
    assert_true(same_dtype(i->dtype, TA_DTYPE_I64));
    expect_vals(i, 2, (double[]){1, 0}); /* first of equal maxima */

    pt(x);
    pint(0);
    pbool(true);
    assert_int_equal(call("aten::min.dim"), TA_OK);
    v = ta_stack_tensor(S(), 0), i = ta_stack_tensor(S(), 1);
    ta_stack_clear(S());
    expect_shape(v, 2, (int64_t[]){1, 3});
    expect_vals(v, 3, (double[]){1, 2, 3});
    expect_vals(i, 3, (double[]){0, 1, 0});

    /* the out= overload returns its two out tensors */
    DLTensor *ov = mk(TA_DTYPE_F32, 0, NULL, NULL), *oi = mk(TA_DTYPE_I64, 0, NULL, NULL);
    pt(x);
    pint(-1);
    pbool(false);
    pt(ov);
    pt(oi);
    assert_int_equal(call("aten::max.dim_max"), TA_OK);
    assert_ptr_equal(ta_stack_tensor(S(), 0), ov);
    assert_ptr_equal(ta_stack_tensor(S(), 1), oi);
    ta_stack_clear(S());
    expect_shape(ov, 1, S2);
    expect_vals(oi, 2, (double[]){1, 0});

    pt(mk(TA_DTYPE_F32, 2, (int64_t[]){0, 2}, NULL));
    pint(0);
    pbool(false);
    call_fails("aten::max.dim", "non-zero size");
}

/* ---- cat / stack / split ------------------------------------------------------------ */

static void test_cat_stack(void **state)
{
    (void)state;
    DLTensor *a = mk(TA_DTYPE_F32, 2, (int64_t[]){2, 1}, (double[]){1, 2});
    DLTensor *b = mk(TA_DTYPE_I64, 2, S22, (double[]){3, 4, 5, 6});
    DLTensor *legacy = mk(TA_DTYPE_F32, 1, (int64_t[]){0}, NULL);
    plist(3, (DLTensor *[]){a, legacy, b});
    pint(-1);
    DLTensor *c = call1("aten::cat");
    assert_true(same_dtype(c->dtype, TA_DTYPE_F32));
    expect_shape(c, 2, S23);
    expect_vals(c, 6, (double[]){1, 3, 4, 2, 5, 6});

    plist(2, (DLTensor *[]){a, mk(TA_DTYPE_F32, 2, (int64_t[]){3, 1}, NULL)});
    pint(1);
    call_fails("aten::cat", "Sizes of tensors must match");
    plist(1, (DLTensor *[]){mk(TA_DTYPE_F32, 0, NULL, NULL)});
    pint(0);
    call_fails("aten::cat", "zero-dimensional");

    DLTensor *p = mk(TA_DTYPE_F32, 1, S2, (double[]){1, 2}), *q = mk(TA_DTYPE_F32, 1, S2, (double[]){3, 4});
    plist(2, (DLTensor *[]){p, q});
    pint(1);
    DLTensor *s = call1("aten::stack");
    expect_shape(s, 2, S22);
    expect_vals(s, 4, (double[]){1, 3, 2, 4});

    DLTensor *out = mk(TA_DTYPE_F32, 1, (int64_t[]){1}, NULL);
    plist(2, (DLTensor *[]){p, q});
    pint(0);
    pt(out);
    assert_ptr_equal(call1("aten::stack.out"), out);
    expect_shape(out, 2, S22);
    expect_vals(out, 4, (double[]){1, 2, 3, 4});
}

static DLTensor **call_list(const char *name, size_t *n)
{
    ta_status s = call(name);
    if (s != TA_OK) fail_msg("%s failed: %s", name, ta_test_last_message(CALL_DIAGS));
    ta_value *v = ta_stack_at(S(), 0);
    assert_non_null(v);
    assert_int_equal(v->tag, TA_VAL_TENSOR_LIST);
    *n = v->u.tensors.n;
    DLTensor **items = v->u.tensors.items;
    ta_stack_clear(S());
    return items;
}

static void test_split_family(void **state)
{
    (void)state;
    DLTensor *x = mk(TA_DTYPE_F32, 1, (int64_t[]){5}, (double[]){0, 1, 2, 3, 4});
    size_t n;
    pt(x);
    pint(2);
    pint(0);
    DLTensor **p = call_list("aten::split.Tensor", &n);
    assert_int_equal(n, 3);
    int64_t lens[] = {2, 2, 1};
    for (size_t k = 0; k < 3; k++) {
        assert_true(shares(p[k], x));
        assert_int_equal(p[k]->byte_offset, 8 * k); /* 2 float32 per piece */
        assert_int_equal(p[k]->shape[0], lens[k]);
    }
    expect_vals(p[2], 1, (double[]){4});

    pt(x);
    pints(2, (int64_t[]){1, 4});
    pint(0);
    p = call_list("aten::split_with_sizes", &n);
    assert_int_equal(n, 2);
    assert_int_equal(p[1]->byte_offset, 4);
    expect_vals(p[1], 4, (double[]){1, 2, 3, 4});
    pt(x);
    pints(2, (int64_t[]){1, 1});
    pint(0);
    call_fails("aten::split_with_sizes", "sum exactly");

    pt(x);
    pint(3);
    pint(0);
    p = call_list("aten::chunk", &n);
    assert_int_equal(n, 3);
    assert_int_equal(p[2]->shape[0], 1);

    DLTensor *m = mk(TA_DTYPE_F32, 2, S23, (double[]){1, 2, 3, 4, 5, 6});
    pt(m);
    pint(1);
    p = call_list("aten::unbind.int", &n);
    assert_int_equal(n, 3);
    expect_shape(p[2], 1, S2);
    expect_strides(p[2], (int64_t[]){3});
    expect_vals(p[2], 2, (double[]){3, 6});
    assert_true(shares(p[2], m));
}

/* ---- views ---------------------------------------------------------------------- */

static void test_view_ops(void **state)
{
    (void)state;
    DLTensor *x = mk(TA_DTYPE_F32, 2, S23, (double[]){0, 1, 2, 3, 4, 5});
    pt(x);
    pint(-1);
    pint(-2);
    DLTensor *t = call1("aten::transpose.int");
    assert_true(shares(t, x));
    assert_ptr_equal(t->data, x->data);
    expect_shape(t, 2, (int64_t[]){3, 2});
    expect_strides(t, (int64_t[]){1, 3});

    /* view of a transpose is impossible; reshape copies */
    pt(t);
    pints(1, (int64_t[]){6});
    call_fails("aten::view", "view size is not compatible");
    pt(t);
    pints(1, (int64_t[]){-1});
    DLTensor *r = call1("aten::reshape");
    assert_false(shares(r, x));
    expect_vals(r, 6, (double[]){0, 3, 1, 4, 2, 5});
    pt(x);
    pints(2, (int64_t[]){3, -1});
    r = call1("aten::reshape");
    assert_true(shares(r, x));
    expect_shape(r, 2, (int64_t[]){3, 2});
    pt(x);
    pints(1, (int64_t[]){4});
    call_fails("aten::view", "invalid for input of size 6");

    pt(x);
    pints(2, (int64_t[]){1, 0});
    DLTensor *pm = call1("aten::permute");
    expect_strides(pm, (int64_t[]){1, 3});

    pt(x);
    pint(0);
    pint(-1);
    DLTensor *sel = call1("aten::select.int");
    assert_int_equal(sel->ndim, 1);
    assert_int_equal(sel->byte_offset, 3 * 4);
    expect_vals(sel, 3, (double[]){3, 4, 5});
    pt(x);
    pint(0);
    pint(2);
    call_fails("aten::select.int", "out of range");

    pt(x);
    pint(1);
    pint(-2);
    pint(2);
    DLTensor *nw = call1("aten::narrow");
    expect_shape(nw, 2, S22);
    assert_int_equal(nw->byte_offset, 4);
    expect_vals(nw, 4, (double[]){1, 2, 4, 5});
    pt(x);
    pint(1);
    pint(1);
    pint(3);
    call_fails("aten::narrow", "exceeds dimension size");

    pt(x);
    pint(1);
    pnone();
    pnone();
    pint(2);
    DLTensor *sl = call1("aten::slice.Tensor");
    expect_shape(sl, 2, S22);
    expect_strides(sl, (int64_t[]){3, 2});
    expect_vals(sl, 4, (double[]){0, 2, 3, 5});

    pt(mk(TA_DTYPE_F32, 2, (int64_t[]){3, 1}, (double[]){1, 2, 3}));
    pints(3, (int64_t[]){2, -1, 4});
    pbool(false);
    DLTensor *ex = call1("aten::expand");
    expect_shape(ex, 3, (int64_t[]){2, 3, 4});
    expect_strides(ex, (int64_t[]){0, 1, 0});
    pt(mk(TA_DTYPE_F32, 1, S2, NULL));
    pints(1, (int64_t[]){3});
    pbool(false);
    call_fails("aten::expand", "must match the existing size");

    pt(x);
    pint(1);
    DLTensor *un = call1("aten::unsqueeze");
    expect_shape(un, 3, (int64_t[]){2, 1, 3});
    pt(un);
    pint(1);
    expect_shape(call1("aten::squeeze.dim"), 2, S23);
    pt(un);
    pint(0);
    expect_shape(call1("aten::squeeze.dim"), 3, (int64_t[]){2, 1, 3}); /* size 2: kept */

    pt(x);
    pints(2, S22);
    pints(2, (int64_t[]){1, 2});
    pint(1);
    DLTensor *as = call1("aten::as_strided");
    assert_int_equal(as->byte_offset, 4);
    expect_vals(as, 4, (double[]){1, 3, 2, 4});

    pt(x);
    pint(1);
    pint(0);
    pint(1);
    DLTensor *dg = call1("aten::diagonal");
    expect_shape(dg, 1, S2);
    expect_strides(dg, (int64_t[]){4});
    expect_vals(dg, 2, (double[]){1, 5});

    pt(mk(TA_DTYPE_F32, 1, (int64_t[]){5}, (double[]){0, 1, 2, 3, 4}));
    pint(0);
    pint(2);
    pint(2);
    DLTensor *uf = call1("aten::unfold");
    expect_shape(uf, 2, S22);
    expect_strides(uf, (int64_t[]){2, 1});
    expect_vals(uf, 4, (double[]){0, 1, 2, 3});

    pt(x);
    DLTensor *al = call1("aten::alias");
    assert_true(shares(al, x));
    assert_ptr_not_equal(al, x);
    pt(x);
    assert_true(shares(call1("aten::detach"), x));

    /* *_copy: same values, fresh storage */
    pt(x);
    pint(0);
    pint(1);
    DLTensor *tc = call1("aten::transpose_copy.int");
    assert_false(shares(tc, x));
    expect_vals(tc, 6, (double[]){0, 3, 1, 4, 2, 5});
}

static void test_inplace_views(void **state)
{
    (void)state;
    DLTensor *x = mk(TA_DTYPE_F32, 2, S23, (double[]){0, 1, 2, 3, 4, 5});
    pt(x);
    assert_ptr_equal(call1("aten::t_"), x);
    expect_shape(x, 2, (int64_t[]){3, 2});
    expect_strides(x, (int64_t[]){1, 3});

    pt(x);
    pint(0);
    pint(1);
    assert_ptr_equal(call1("aten::transpose_"), x);
    expect_strides(x, (int64_t[]){3, 1});

    pt(x);
    pint(0);
    assert_ptr_equal(call1("aten::unsqueeze_"), x);
    expect_shape(x, 3, (int64_t[]){1, 2, 3});
    pt(x);
    pint(0);
    assert_ptr_equal(call1("aten::squeeze_.dim"), x);
    expect_shape(x, 2, S23);

    pt(x);
    pints(1, S3);
    pints(1, (int64_t[]){2});
    pnone();
    assert_ptr_equal(call1("aten::as_strided_"), x);
    expect_vals(x, 3, (double[]){0, 2, 4});

    pt(x);
    pints(1, (int64_t[]){7});
    pints(1, (int64_t[]){1});
    pnone();
    call_fails("aten::as_strided_", "geometry"); /* beyond the storage */
}

static void test_compare_logical_view(void **state)
{
    (void)state;
    /* eq against a Scalar gives bool; lt_ in place stores 0/1 in self's dtype */
    pt(mk(TA_DTYPE_I64, 1, S3, (double[]){1, 2, 1}));
    psf(1.0);
    DLTensor *y = call1("aten::eq.Scalar");
    assert_true(same_dtype(y->dtype, TA_DTYPE_BOOL));
    expect_vals(y, 3, (double[]){1, 0, 1});
    DLTensor *x = mk(TA_DTYPE_F32, 1, S3, (double[]){1, 5, NAN});
    pt(x);
    pt(mk(TA_DTYPE_F32, 0, NULL, (double[]){2}));
    assert_ptr_equal(call1("aten::lt_.Tensor"), x);
    expect_vals(x, 3, (double[]){1, 0, 0});

    pt(mk(TA_DTYPE_F64, 1, S3, (double[]){0, 0.5, -1}));
    y = call1("aten::logical_not");
    assert_true(same_dtype(y->dtype, TA_DTYPE_BOOL));
    expect_vals(y, 3, (double[]){1, 0, 0});
    pt(mk(TA_DTYPE_I32, 1, S2, (double[]){0, 5}));
    expect_vals(call1("aten::bitwise_not"), 2, (double[]){-1, -6});
    pt(mk(TA_DTYPE_F32, 1, S2, NULL));
    call_fails("aten::bitwise_not", "not implemented");

    /* view of a contiguous tensor shares its storage */
    DLTensor *a = mk(TA_DTYPE_F64, 2, S23, (double[]){1, 2, 3, 4, 5, 6});
    pt(a);
    pints(2, (int64_t[]){3, 2});
    DLTensor *v = call1("aten::view");
    assert_true(shares(v, a));
    expect_strides(v, (int64_t[]){2, 1});
}

static void test_mm_bmm(void **state)
{
    (void)state;
    /* [[1,2,3],[4,5,6]] @ [[1,0],[0,1],[1,1]] = [[4,5],[10,11]], the second operand transposed in memory */
    DLTensor *a = mk(TA_DTYPE_F64, 2, S23, (double[]){1, 2, 3, 4, 5, 6});
    DLTensor *bt = mk(TA_DTYPE_F64, 2, S23, (double[]){1, 0, 1, 0, 1, 1});
    pt(bt);
    DLTensor *b = call1("aten::t");
    pt(a);
    pt(b);
    DLTensor *y = call1("aten::mm");
    expect_shape(y, 2, S22);
    expect_vals(y, 4, (double[]){4, 5, 10, 11});
    pt(a);
    pt(a);
    call_fails("aten::mm", "cannot be multiplied");

    /* mm.out into an empty out: resized to [2,2] and returned as itself */
    DLTensor *o = mk(TA_DTYPE_F64, 1, (int64_t[]){0}, NULL);
    pt(a);
    pt(b);
    pt(o);
    assert_ptr_equal(call1("aten::mm.out"), o);
    expect_shape(o, 2, S22);
    expect_vals(o, 4, (double[]){4, 5, 10, 11});
    /* no promotion: an int64 operand against a float64 one is refused, and so is a float32 out */
    pt(a);
    pt(mk(TA_DTYPE_I64, 2, (int64_t[]){3, 2}, NULL));
    call_fails("aten::mm", "expected scalar type");
    pt(a);
    pt(b);
    pt(mk(TA_DTYPE_F32, 2, S22, NULL));
    call_fails("aten::mm.out", "dtype");

    /* bmm: batch q multiplies [[1,2]] (q=0) or [[3,4]] (q=1) by [[1],[q+1]] */
    DLTensor *p = mk(TA_DTYPE_I64, 3, (int64_t[]){2, 1, 2}, (double[]){1, 2, 3, 4});
    DLTensor *q = mk(TA_DTYPE_I64, 3, (int64_t[]){2, 2, 1}, (double[]){1, 1, 1, 2});
    pt(p);
    pt(q);
    y = call1("aten::bmm");
    expect_shape(y, 3, (int64_t[]){2, 1, 1});
    expect_vals(y, 2, (double[]){3, 11});
    pt(p);
    pt(mk(TA_DTYPE_I64, 3, (int64_t[]){1, 2, 1}, NULL));
    call_fails("aten::bmm", "same number of batches");
    pt(a);
    pt(b);
    call_fails("aten::bmm", "expected 3D");
    o = mk(TA_DTYPE_I64, 3, (int64_t[]){2, 1, 1}, NULL);
    pt(p);
    pt(q);
    pt(o);
    assert_ptr_equal(call1("aten::bmm.out"), o);
    expect_vals(o, 2, (double[]){3, 11});
}

static void test_nn_index_like(void **state)
{
    (void)state;
    pt(mk(TA_DTYPE_F32, 1, S2, (double[]){0, 1}));
    expect_vals(call1("aten::silu"), 2, (double[]){0, 1 / (1 + exp(-1.0))});
    pt(mk(TA_DTYPE_F32, 1, S2, (double[]){0, 1}));
    pstr("none");
    expect_vals(call1("aten::gelu"), 2, (double[]){0, 0.5 * (1 + erf(1 / sqrt(2.0)))});
    pt(mk(TA_DTYPE_I64, 1, S2, NULL));
    call_fails("aten::silu", "not implemented");

    /* softmax over dim 1 of [[0,0],[0,ln 3]] = [[.5,.5],[.25,.75]] */
    pt(mk(TA_DTYPE_F64, 2, S22, (double[]){0, 0, 0, log(3.0)}));
    pint(-1);
    pbool(false);
    expect_vals(call1("aten::_softmax"), 4, (double[]){0.5, 0.5, 0.25, 0.75});

    /* masked_fill broadcasts self against the mask; in place it may not grow self */
    DLTensor *x = mk(TA_DTYPE_I64, 1, S2, (double[]){1, 2});
    DLTensor *m = mk(TA_DTYPE_BOOL, 2, (int64_t[]){2, 1}, (double[]){1, 0});
    pt(x);
    pt(m);
    psf(7.9);
    DLTensor *y = call1("aten::masked_fill.Scalar");
    expect_shape(y, 2, S22);
    expect_vals(y, 4, (double[]){7, 7, 1, 2});
    pt(x);
    pt(m);
    psi(7);
    call_fails("aten::masked_fill_.Scalar", "doesn't match the broadcast shape");

    /* index_select rows 2 and 0 of a 3x2 matrix, int32 index */
    pt(mk(TA_DTYPE_F32, 2, (int64_t[]){3, 2}, (double[]){1, 2, 3, 4, 5, 6}));
    pint(0);
    pt(mk(TA_DTYPE_I32, 1, S2, (double[]){2, 0}));
    y = call1("aten::index_select");
    expect_shape(y, 2, S22);
    expect_vals(y, 4, (double[]){5, 6, 1, 2});
    pt(mk(TA_DTYPE_F32, 1, S3, NULL));
    pint(0);
    pt(mk(TA_DTYPE_I64, 1, (int64_t[]){1}, (double[]){3}));
    call_fails("aten::index_select", "out of range");

    /* full_like keeps a transposed layout and takes a dtype */
    pt(mk(TA_DTYPE_F32, 2, S23, NULL));
    DLTensor *t = call1("aten::t");
    pt(t);
    psf(2.5);
    pint(TA_ST_DOUBLE);
    pnone();
    pnone();
    pnone();
    pnone();
    y = call1("aten::full_like");
    assert_true(same_dtype(y->dtype, TA_DTYPE_F64));
    expect_strides(y, (int64_t[]){1, 3});
    expect_vals(y, 6, (double[]){2.5, 2.5, 2.5, 2.5, 2.5, 2.5});
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registered),
        cmocka_unit_test_setup(test_unary, reset),
        cmocka_unit_test_setup(test_unary_inplace_strided, reset),
        cmocka_unit_test_setup(test_unary_out_resized, reset),
        cmocka_unit_test_setup(test_binary_broadcast_alpha, reset),
        cmocka_unit_test_setup(test_binary_promotion, reset),
        cmocka_unit_test_setup(test_binary_inplace_out, reset),
        cmocka_unit_test_setup(test_where_clamp, reset),
        cmocka_unit_test_setup(test_fill_copy, reset),
        cmocka_unit_test_setup(test_clone_contiguous, reset),
        cmocka_unit_test_setup(test_resize, reset),
        cmocka_unit_test_setup(test_reductions, reset),
        cmocka_unit_test_setup(test_max_min_dim, reset),
        cmocka_unit_test_setup(test_cat_stack, reset),
        cmocka_unit_test_setup(test_split_family, reset),
        cmocka_unit_test_setup(test_view_ops, reset),
        cmocka_unit_test_setup(test_inplace_views, reset),
        cmocka_unit_test_setup(test_compare_logical_view, reset),
        cmocka_unit_test_setup(test_mm_bmm, reset),
        cmocka_unit_test_setup(test_nn_index_like, reset),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
