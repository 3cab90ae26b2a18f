/* cuda_kernel_cases.h - value tests of the CUDA reference kernels, shared by
 * test_cuda_device.c (on a GPU) and test_cuda.c (the same library under
 * TA_CUDA_EMULATE=1, where memory is host memory and the kernels' and the
 * compare kernel's device code run in host loops). The memory cases check
 * copies and the first-differing-byte comparison; the kernel cases build
 * inputs, run a kernel through the registry and the engine, and compare
 * every element with a value computed here. The includer sets kc_dev (and
 * kc_emulate) and lists KERNEL_CASES in its group. */
#ifndef TA_TEST_CUDA_KERNEL_CASES_H
#define TA_TEST_CUDA_KERNEL_CASES_H

#include <math.h>

#include "cuda_test_util.h"

static const ta_device_ops *kc_dev;
/* Set by an includer that runs the cases under TA_CUDA_EMULATE: each case
 * turns emulation on in its setup and off in its teardown. */
static bool kc_emulate;

static int kc_emulation_on(void **state)
{
    (void)state;
    if (kc_emulate) setenv("TA_CUDA_EMULATE", "1", 1);
    return 0;
}

static int kc_emulation_off(void **state)
{
    (void)state;
    if (kc_emulate) unsetenv("TA_CUDA_EMULATE");
    return 0;
}

/* ---- device memory ---- */

static void test_alloc_copy(void **state)
{
    (void)state;
    char err[256];
    enum { N = 1000 };
    unsigned char h[N], back[N];
    for (int i = 0; i < N; i++) h[i] = (unsigned char)(i * 7 + 1);
    void *a = kc_dev->alloc(N, err, sizeof err), *b = kc_dev->alloc(N, err, sizeof err);
    void *z1 = kc_dev->alloc(0, err, sizeof err), *z2 = kc_dev->alloc(0, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(z1);
    assert_ptr_not_equal(z1, z2); /* distinct addresses, even for empty storages */
    assert_int_equal(kc_dev->from_host(a, h, N, err, sizeof err), 0);
    assert_int_equal(kc_dev->copy(b, a, N, err, sizeof err), 0);
    memset(back, 0, N);
    assert_int_equal(kc_dev->to_host(back, b, N, err, sizeof err), 0);
    assert_memory_equal(back, h, N);
    size_t first = 0;
    assert_int_equal(kc_dev->compare(a, b, N, &first, err, sizeof err), 0);
    assert_true(first == SIZE_MAX);
    assert_int_equal(kc_dev->sync(err, sizeof err), 0);
    kc_dev->release(a);
    kc_dev->release(b);
    kc_dev->release(z1);
    kc_dev->release(z2);
}

static void test_compare(void **state)
{
    (void)state;
    char err[256];
    const size_t n = (16u << 20) + 5; /* words plus a 5-byte tail */
    unsigned char *h = malloc(n);
    for (size_t i = 0; i < n; i++) h[i] = (unsigned char)(i * 31 + 7);
    unsigned char *a = kc_dev->alloc(n + 8, err, sizeof err), *b = kc_dev->alloc(n + 8, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    size_t first = 0;
    unsigned char one = 0xAB;

    /* Aligned: equal, then differences at several places; the first wins. */
    assert_int_equal(kc_dev->from_host(a, h, n, err, sizeof err), 0);
    assert_int_equal(kc_dev->from_host(b, h, n, err, sizeof err), 0);
    assert_int_equal(kc_dev->compare(a, b, n, &first, err, sizeof err), 0);
    assert_true(first == SIZE_MAX);
    assert_int_equal(kc_dev->from_host(b + 777777, &one, 1, err, sizeof err), 0);
    assert_int_equal(kc_dev->compare(a, b, n, &first, err, sizeof err), 0);
    assert_int_equal(first, 777777);
    assert_int_equal(kc_dev->from_host(b + 9000001, &one, 1, err, sizeof err), 0);
    assert_int_equal(kc_dev->from_host(b + 13, &one, 1, err, sizeof err), 0);
    assert_int_equal(kc_dev->compare(a, b, n, &first, err, sizeof err), 0);
    assert_int_equal(first, 13);
    /* Only the tail differs. */
    assert_int_equal(kc_dev->from_host(b, h, n, err, sizeof err), 0);
    assert_int_equal(kc_dev->from_host(b + n - 2, &one, 1, err, sizeof err), 0);
    assert_int_equal(kc_dev->compare(a, b, n, &first, err, sizeof err), 0);
    assert_int_equal(first, n - 2);
    /* A prefix that stops before the difference is equal. */
    assert_int_equal(kc_dev->compare(a, b, n - 2, &first, err, sizeof err), 0);
    assert_true(first == SIZE_MAX);

    /* Unaligned, and differently aligned, pointers. */
    assert_int_equal(kc_dev->from_host(a + 1, h, n, err, sizeof err), 0);
    assert_int_equal(kc_dev->from_host(b + 3, h, n, err, sizeof err), 0);
    assert_int_equal(kc_dev->compare(a + 1, b + 3, n, &first, err, sizeof err), 0);
    assert_true(first == SIZE_MAX);
    assert_int_equal(kc_dev->from_host(b + 3 + 4242, &one, 1, err, sizeof err), 0);
    assert_int_equal(kc_dev->compare(a + 1, b + 3, n, &first, err, sizeof err), 0);
    assert_int_equal(first, 4242);
    assert_int_equal(kc_dev->compare(a, b, 0, &first, err, sizeof err), 0);
    assert_true(first == SIZE_MAX);
    kc_dev->release(a);
    kc_dev->release(b);
    free(h);
}



typedef cuda_fixture kc_fixture;

static int kc_setup(void **state)
{
    kc_emulation_on(state);
    *state = cuda_fixture_create(kc_dev);
    return *state ? 0 : -1;
}

static int kc_teardown(void **state)
{
    cuda_fixture_destroy(*state);
    return kc_emulation_off(state);
}

/* A contiguous device tensor holding host values (converted from double). */
static DLTensor *kc_make(kc_fixture *f, DLDataType dt, int ndim, const int64_t *shape, const double *vals)
{
    DLTensor *t;
    assert_int_equal(ta_exec_empty(f->x, dt, ndim, shape, &t), TA_OK);
    int64_t n = ta_numel(t);
    size_t el = ta_dtype_size(dt);
    unsigned char *h = malloc((size_t)n * el + 1);
    for (int64_t i = 0; i < n; i++) {
        void *p = h + (size_t)i * el;
        if (dt.code == kDLFloat && dt.bits == 32) *(float *)p = (float)vals[i];
        else if (dt.code == kDLFloat) *(double *)p = vals[i];
        else if (dt.bits == 64) *(int64_t *)p = (int64_t)vals[i];
        else if (dt.bits == 32) *(int32_t *)p = (int32_t)vals[i];
        else *(uint8_t *)p = (uint8_t)(vals[i] != 0);
    }
    char err[256];
    assert_int_equal(kc_dev->from_host(t->data, h, (size_t)n * el, err, sizeof err), 0);
    free(h);
    return t;
}

/* The values of t in logical order, as doubles (strides honoured). */
static void kc_read(const DLTensor *t, double *out)
{
    int64_t n = ta_numel(t), st[64];
    ta_strides_of(t, st);
    size_t el = ta_dtype_size(t->dtype);
    /* Copy the reachable bytes, then walk them on the host. */
    uint64_t lo, hi;
    ta_tensor_byte_range(t, &lo, &hi);
    unsigned char *h = malloc(hi - lo + 1);
    char err[256];
    assert_int_equal(kc_dev->to_host(h, (char *)t->data + lo, hi - lo, err, sizeof err), 0);
    for (int64_t i = 0; i < n; i++) {
        int64_t rest = i, off = 0;
        for (int d = t->ndim - 1; d >= 0; d--) {
            off += (rest % t->shape[d]) * st[d];
            rest /= t->shape[d];
        }
        const unsigned char *p = h + (t->byte_offset - lo) + off * (int64_t)el;
        if (t->dtype.code == kDLFloat && t->dtype.bits == 32) out[i] = *(const float *)p;
        else if (t->dtype.code == kDLFloat) out[i] = *(const double *)p;
        else if (t->dtype.bits == 64) out[i] = (double)*(const int64_t *)p;
        else if (t->dtype.bits == 32) out[i] = *(const int32_t *)p;
        else out[i] = *p;
    }
    free(h);
}

static DLTensor *kc_run(kc_fixture *f, const char *op)
{
    ta_status s = call_cuda_op(f->reg, f->x, op);
    if (s != TA_OK) fail_msg("%s failed: %s", op, cuda_call_error());
    DLTensor *r = ta_stack_tensor(f->st, 0);
    assert_non_null(r);
    ta_stack_clear(f->st);
    return r;
}

static void kc_expect(const DLTensor *t, const double *want, int64_t n, double tol, const char *what)
{
    double got[64];
    assert_int_equal(ta_numel(t), n);
    kc_read(t, got);
    for (int64_t i = 0; i < n; i++) {
        bool ok = (isnan(want[i]) && isnan(got[i])) || fabs(got[i] - want[i]) <= tol * (1.0 + fabs(want[i]));
        if (!ok) fail_msg("%s: element %lld is %.9g, expected %.9g", what, (long long)i, got[i], want[i]);
    }
}

static double kc_ref_unary(const char *op, double v)
{
    if (!strcmp(op, "abs")) return fabs(v);
    if (!strcmp(op, "neg")) return -v;
    if (!strcmp(op, "exp")) return exp(v);
    if (!strcmp(op, "log")) return log(v);
    if (!strcmp(op, "sqrt")) return sqrt(v);
    if (!strcmp(op, "sin")) return sin(v);
    if (!strcmp(op, "cos")) return cos(v);
    if (!strcmp(op, "tanh")) return tanh(v);
    if (!strcmp(op, "sigmoid")) return 1.0 / (1.0 + exp(-v));
    if (!strcmp(op, "relu")) return v > 0 ? v : 0;
    if (!strcmp(op, "ceil")) return ceil(v);
    if (!strcmp(op, "floor")) return floor(v);
    return 1.0 / v; /* reciprocal */
}

static void test_unary(void **state)
{
    kc_fixture *f = *state;
    const char *names[] = {"abs", "neg", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu",
                           "ceil", "floor", "reciprocal"};
    const double pos[6] = {0.25, 0.5, 1.0, 1.5, 2.75, 3.0}, mixed[6] = {-1.5, -0.25, 0.0, 0.75, 2.5, 3.0};
    int64_t s23[2] = {2, 3}, s1[1] = {1};
    char op[64];
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        bool domain = !strcmp(names[k], "log") || !strcmp(names[k], "sqrt") || !strcmp(names[k], "reciprocal");
        const double *in = domain ? pos : mixed;
        double want[6];
        for (int i = 0; i < 6; i++) want[i] = (double)(float)kc_ref_unary(names[k], (double)(float)in[i]);
        /* functional */
        DLTensor *x = kc_make(f, TA_DTYPE_F32, 2, s23, in);
        ta_stack_push_tensor(f->st, x);
        snprintf(op, sizeof op, "aten::%s", names[k]);
        DLTensor *y = kc_run(f, op);
        assert_true(ta_dtype_eq(y->dtype, TA_DTYPE_F32));
        assert_int_not_equal(ta_exec_storage_of(f->x, y), ta_exec_storage_of(f->x, x));
        kc_expect(y, want, 6, 1e-6, op);
        /* inplace: returns self, written */
        ta_stack_push_tensor(f->st, x);
        snprintf(op, sizeof op, "aten::%s_", names[k]);
        assert_ptr_equal(kc_run(f, op), x);
        kc_expect(x, want, 6, 1e-6, op);
        /* out=, resized from [1] */
        x = kc_make(f, TA_DTYPE_F32, 2, s23, in);
        /* abs, neg, ceil and floor want out= of the result's own dtype;
         * the others convert into a wider one. */
        bool exact = !strcmp(names[k], "abs") || !strcmp(names[k], "neg") || !strcmp(names[k], "ceil") ||
                     !strcmp(names[k], "floor");
        DLTensor *out = kc_make(f, exact ? TA_DTYPE_F32 : TA_DTYPE_F64, 1, s1, (double[]){0});
        ta_stack_push_tensor(f->st, x);
        ta_stack_push_tensor(f->st, out);
        snprintf(op, sizeof op, "aten::%s.out", names[k]);
        assert_ptr_equal(kc_run(f, op), out);
        assert_int_equal(out->ndim, 2);
        kc_expect(out, want, 6, 1e-6, op);
    }
}

static void test_unary_integers(void **state)
{
    kc_fixture *f = *state;
    int64_t s4[1] = {4};
    const double in[4] = {-3, 0, 5, -1e15};
    DLTensor *x = kc_make(f, TA_DTYPE_I64, 1, s4, in);
    ta_stack_push_tensor(f->st, x);
    DLTensor *y = kc_run(f, "aten::abs");
    assert_true(ta_dtype_eq(y->dtype, TA_DTYPE_I64));
    kc_expect(y, (double[]){3, 0, 5, 1e15}, 4, 0, "abs int64");
    ta_stack_push_tensor(f->st, x);
    y = kc_run(f, "aten::relu");
    kc_expect(y, (double[]){0, 0, 5, 0}, 4, 0, "relu int64");
    /* Integral input, floating op: a float32 result. */
    DLTensor *xi = kc_make(f, TA_DTYPE_I32, 1, s4, (double[]){0, 1, 2, 3});
    ta_stack_push_tensor(f->st, xi);
    y = kc_run(f, "aten::exp");
    assert_true(ta_dtype_eq(y->dtype, TA_DTYPE_F32));
    kc_expect(y, (double[]){1, (float)exp(1), (float)exp(2), (float)exp(3)}, 4, 1e-6, "exp int32");
}

static void test_binary(void **state)
{
    kc_fixture *f = *state;
    int64_t s23[2] = {2, 3}, s3[1] = {3};
    const double a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {10, 20, 30};
    DLTensor *x = kc_make(f, TA_DTYPE_F32, 2, s23, a), *y = kc_make(f, TA_DTYPE_F32, 1, s3, b);

    ta_stack_push_tensor(f->st, x);
    ta_stack_push_tensor(f->st, y);
    push_scalar_i(f->st, 2);
    kc_expect(kc_run(f, "aten::add.Tensor"), (double[]){21, 42, 63, 24, 45, 66}, 6, 0, "add alpha 2");
    ta_stack_push_tensor(f->st, x);
    ta_stack_push_tensor(f->st, y);
    push_scalar_f(f->st, 0.5);
    kc_expect(kc_run(f, "aten::sub.Tensor"), (double[]){-4, -8, -12, -1, -5, -9}, 6, 0, "sub alpha .5");
    ta_stack_push_tensor(f->st, x);
    ta_stack_push_tensor(f->st, y);
    kc_expect(kc_run(f, "aten::mul.Tensor"), (double[]){10, 40, 90, 40, 100, 180}, 6, 0, "mul");
    ta_stack_push_tensor(f->st, y);
    ta_stack_push_tensor(f->st, x);
    kc_expect(kc_run(f, "aten::div.Tensor"), (double[]){10, 10, 10, 2.5, 4, 5}, 6, 0, "div");

    /* Integer division is true division into float32. */
    DLTensor *i1 = kc_make(f, TA_DTYPE_I64, 1, s3, (double[]){1, 2, 7}), *i2 = kc_make(f, TA_DTYPE_I64, 1, s3, (double[]){2, 2, 2});
    ta_stack_push_tensor(f->st, i1);
    ta_stack_push_tensor(f->st, i2);
    DLTensor *q = kc_run(f, "aten::div.Tensor");
    assert_true(ta_dtype_eq(q->dtype, TA_DTYPE_F32));
    kc_expect(q, (double[]){0.5, 1, 3.5}, 3, 0, "int div");

    /* maximum / minimum propagate NaN. */
    DLTensor *m1 = kc_make(f, TA_DTYPE_F64, 1, s3, (double[]){1, NAN, 3}), *m2 = kc_make(f, TA_DTYPE_F64, 1, s3, (double[]){2, 0, -1});
    ta_stack_push_tensor(f->st, m1);
    ta_stack_push_tensor(f->st, m2);
    kc_expect(kc_run(f, "aten::maximum"), (double[]){2, NAN, 3}, 3, 0, "maximum");
    ta_stack_push_tensor(f->st, m1);
    ta_stack_push_tensor(f->st, m2);
    kc_expect(kc_run(f, "aten::minimum"), (double[]){1, NAN, -1}, 3, 0, "minimum");

    /* Scalar other: int tensor + float Scalar gives float32. */
    ta_stack_push_tensor(f->st, i1);
    push_scalar_f(f->st, 0.5);
    push_scalar_i(f->st, 2);
    DLTensor *s = kc_run(f, "aten::add.Scalar");
    assert_true(ta_dtype_eq(s->dtype, TA_DTYPE_F32));
    kc_expect(s, (double[]){2, 3, 8}, 3, 0, "add.Scalar");
    ta_stack_push_tensor(f->st, i1);
    push_scalar_i(f->st, -3);
    assert_ptr_equal(kc_run(f, "aten::mul_.Scalar"), i1);
    kc_expect(i1, (double[]){-3, -6, -21}, 3, 0, "mul_.Scalar");

    /* out= with broadcasting and resize. */
    DLTensor *out = kc_make(f, TA_DTYPE_F64, 1, (int64_t[]){1}, (double[]){0});
    ta_stack_push_tensor(f->st, x);
    ta_stack_push_tensor(f->st, y);
    push_scalar_i(f->st, 1);
    ta_stack_push_tensor(f->st, out);
    assert_ptr_equal(kc_run(f, "aten::add.out"), out);
    kc_expect(out, (double[]){11, 22, 33, 14, 25, 36}, 6, 0, "add.out");
}

/* In place over an overlapping view of itself: x += x.t() reads every
 * element before any is written (through the scratch buffer). */
static void test_overlapping_inplace(void **state)
{
    kc_fixture *f = *state;
    int64_t s33[2] = {3, 3};
    const double v[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    DLTensor *x = kc_make(f, TA_DTYPE_F32, 2, s33, v);
    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 0);
    push_int(f->st, 1);
    DLTensor *xt = kc_run(f, "aten::transpose.int");
    ta_stack_push_tensor(f->st, x);
    ta_stack_push_tensor(f->st, xt);
    push_scalar_i(f->st, 1);
    assert_ptr_equal(kc_run(f, "aten::add_.Tensor"), x);
    kc_expect(x, (double[]){2, 6, 10, 6, 10, 14, 10, 14, 18}, 9, 0, "x += x.t()");
}

static void test_fill_copy(void **state)
{
    kc_fixture *f = *state;
    int64_t s23[2] = {2, 3};
    const double v[6] = {1.75, -2.5, 3.25, 4, 5.5, -6.75};
    DLTensor *i = kc_make(f, TA_DTYPE_I32, 2, s23, (double[]){0, 0, 0, 0, 0, 0});
    ta_stack_push_tensor(f->st, i);
    push_scalar_f(f->st, 2.7);
    assert_ptr_equal(kc_run(f, "aten::fill_.Scalar"), i);
    kc_expect(i, (double[]){2, 2, 2, 2, 2, 2}, 6, 0, "fill_ truncates");
    ta_stack_push_tensor(f->st, i);
    assert_ptr_equal(kc_run(f, "aten::zero_"), i);
    kc_expect(i, (double[]){0, 0, 0, 0, 0, 0}, 6, 0, "zero_");

    /* copy_ from a transposed float64 view into int32: strides and truncation. */
    DLTensor *d = kc_make(f, TA_DTYPE_F64, 2, (int64_t[]){3, 2}, v);
    ta_stack_push_tensor(f->st, d);
    push_int(f->st, 0);
    push_int(f->st, 1);
    DLTensor *dt = kc_run(f, "aten::transpose.int"); /* [[1.75, 3.25, 5.5], [-2.5, 4, -6.75]] */
    ta_stack_push_tensor(f->st, i);
    ta_stack_push_tensor(f->st, dt);
    push_int(f->st, 0);
    assert_ptr_equal(kc_run(f, "aten::copy_"), i);
    kc_expect(i, (double[]){1, 3, 5, -2, 4, -6}, 6, 0, "copy_");

    /* clone and contiguous of the transposed view: new, contiguous storage. */
    ta_stack_push_tensor(f->st, dt);
    push_none(f->st);
    DLTensor *c = kc_run(f, "aten::clone");
    assert_true(ta_is_contiguous(c));
    assert_int_not_equal(ta_exec_storage_of(f->x, c), ta_exec_storage_of(f->x, d));
    kc_expect(c, (double[]){1.75, 3.25, 5.5, -2.5, 4, -6.75}, 6, 0, "clone");
    ta_stack_push_tensor(f->st, dt);
    push_int(f->st, 0);
    c = kc_run(f, "aten::contiguous");
    assert_ptr_not_equal(c, dt);
    assert_true(ta_is_contiguous(c));
    kc_expect(c, (double[]){1.75, 3.25, 5.5, -2.5, 4, -6.75}, 6, 0, "contiguous");

    /* reshape of the transposed view cannot be a view: a copy in logical order. */
    ta_stack_push_tensor(f->st, dt);
    push_ints(f->st, (int64_t[]){6}, 1);
    DLTensor *r = kc_run(f, "aten::reshape");
    assert_int_not_equal(ta_exec_storage_of(f->x, r), ta_exec_storage_of(f->x, d));
    kc_expect(r, (double[]){1.75, 3.25, 5.5, -2.5, 4, -6.75}, 6, 0, "reshape copy");

    /* copy (functional) broadcasts src into a tensor like self. */
    DLTensor *row = kc_make(f, TA_DTYPE_F64, 1, (int64_t[]){3}, (double[]){7, 8, 9});
    ta_stack_push_tensor(f->st, i);
    ta_stack_push_tensor(f->st, row);
    push_int(f->st, 0);
    DLTensor *k = kc_run(f, "aten::copy");
    assert_true(ta_dtype_eq(k->dtype, TA_DTYPE_I32));
    kc_expect(k, (double[]){7, 8, 9, 7, 8, 9}, 6, 0, "copy");
    ta_stack_push_tensor(f->st, i);
    push_scalar_i(f->st, 4);
    k = kc_run(f, "aten::fill.Scalar");
    kc_expect(k, (double[]){4, 4, 4, 4, 4, 4}, 6, 0, "fill.Scalar");
    kc_expect(i, (double[]){1, 3, 5, -2, 4, -6}, 6, 0, "fill.Scalar leaves self");
}

/* The out= overloads declared as autogen: out is resized to the result's
 * shape, written, and returned; the inputs are left alone. */
static void test_autogen_outs(void **state)
{
    kc_fixture *f = *state;
    int64_t s23[2] = {2, 3}, s1[1] = {1};
    const double v[6] = {1, -2, 3, -4, 5, -6};
    DLTensor *x = kc_make(f, TA_DTYPE_I64, 2, s23, v);
    DLTensor *out = kc_make(f, TA_DTYPE_I64, 1, s1, (double[]){0});

    ta_stack_push_tensor(f->st, x);
    push_scalar_i(f->st, 10);
    push_scalar_i(f->st, 2);
    ta_stack_push_tensor(f->st, out);
    assert_ptr_equal(kc_run(f, "aten::add.Scalar_out"), out);
    kc_expect(out, (double[]){21, 18, 23, 16, 25, 14}, 6, 0, "add.Scalar_out");
    ta_stack_push_tensor(f->st, x);
    push_scalar_i(f->st, -1);
    ta_stack_push_tensor(f->st, out);
    assert_ptr_equal(kc_run(f, "aten::mul.Scalar_out"), out);
    kc_expect(out, (double[]){-1, 2, -3, 4, -5, 6}, 6, 0, "mul.Scalar_out");
    ta_stack_push_tensor(f->st, x);
    ta_stack_push_tensor(f->st, out);
    assert_ptr_equal(kc_run(f, "aten::relu.out"), out);
    kc_expect(out, (double[]){1, 0, 3, 0, 5, 0}, 6, 0, "relu.out");

    DLTensor *o2 = kc_make(f, TA_DTYPE_F32, 1, s1, (double[]){0});
    ta_stack_push_tensor(f->st, x);
    push_scalar_f(f->st, 2.5);
    ta_stack_push_tensor(f->st, o2);
    assert_ptr_equal(kc_run(f, "aten::fill.Scalar_out"), o2);
    assert_int_equal(o2->ndim, 2);
    kc_expect(o2, (double[]){2.5, 2.5, 2.5, 2.5, 2.5, 2.5}, 6, 0, "fill.Scalar_out");
    ta_stack_push_tensor(f->st, x);
    ta_stack_push_tensor(f->st, o2);
    assert_ptr_equal(kc_run(f, "aten::zero.out"), o2);
    kc_expect(o2, (double[]){0, 0, 0, 0, 0, 0}, 6, 0, "zero.out");
    ta_stack_push_tensor(f->st, x);
    DLTensor *z = kc_run(f, "aten::zero");
    assert_true(ta_dtype_eq(z->dtype, TA_DTYPE_I64));
    kc_expect(z, (double[]){0, 0, 0, 0, 0, 0}, 6, 0, "zero");

    ta_stack_push_tensor(f->st, x);
    push_none(f->st);
    ta_stack_push_tensor(f->st, o2);
    assert_ptr_equal(kc_run(f, "aten::clone.out"), o2);
    kc_expect(o2, v, 6, 0, "clone.out");
    DLTensor *row = kc_make(f, TA_DTYPE_F64, 1, (int64_t[]){3}, (double[]){0.5, 1.5, 2.5});
    DLTensor *o3 = kc_make(f, TA_DTYPE_F64, 1, s1, (double[]){0});
    ta_stack_push_tensor(f->st, x);
    ta_stack_push_tensor(f->st, row);
    push_int(f->st, 0);
    ta_stack_push_tensor(f->st, o3);
    assert_ptr_equal(kc_run(f, "aten::copy.out"), o3);
    kc_expect(o3, (double[]){0.5, 1.5, 2.5, 0.5, 1.5, 2.5}, 6, 0, "copy.out");
    kc_expect(x, v, 6, 0, "inputs untouched");
}

#define KERNEL_CASES                                                                  \
    cmocka_unit_test_setup_teardown(test_alloc_copy, kc_emulation_on, kc_emulation_off), \
        cmocka_unit_test_setup_teardown(test_compare, kc_emulation_on, kc_emulation_off), \
        cmocka_unit_test_setup_teardown(test_unary, kc_setup, kc_teardown),      \
        cmocka_unit_test_setup_teardown(test_unary_integers, kc_setup, kc_teardown), \
        cmocka_unit_test_setup_teardown(test_binary, kc_setup, kc_teardown),     \
        cmocka_unit_test_setup_teardown(test_overlapping_inplace, kc_setup, kc_teardown), \
        cmocka_unit_test_setup_teardown(test_fill_copy, kc_setup, kc_teardown),          \
        cmocka_unit_test_setup_teardown(test_autogen_outs, kc_setup, kc_teardown)

#endif
