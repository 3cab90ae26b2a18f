/* test_cuda.c - the CUDA library without a GPU: it loads, exports both entry
 * points, its device table is right, `available` explains why there is no
 * device, its kernels register under TA_KEY_CUDA with real operator names,
 * and every kernel part that needs no device works: dtype promotion,
 * broadcasting and overlap rules (cu_tensor.c, compiled in), all view
 * geometry, and argument errors. Those run on a stand-in device of type
 * kDLCUDA backed by host memory, where a pointwise launch fails cleanly.
 * Then, with TA_CUDA_EMULATE=1 (the library runs its device code on the
 * host), the memory and value cases of cuda_kernel_cases.h on the library's
 * own device table, and the engine's whole verification of every CUDA
 * kernel against its schema, which must find nothing. Device tests
 * (memory, compare, faults, and the same value tests on a GPU) are in
 * test_cuda_device.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cuda_kernel_cases.h"
#include "cuda_test_util.h"
#include "support/testdata.h"
#include "tensoralias/native.h"

/* The host-only helpers, compiled into the test to check them directly. */
#include "../../src/cuda/cu_tensor.c"

static void *lib;
static const ta_device_ops *ops;

/* ---- the library and its device table ---- */

static void test_entry_points(void **state)
{
    (void)state;
    assert_non_null(dlsym(lib, TA_DEVICE_ENTRY));
    assert_non_null(dlsym(lib, TA_PLUGIN_ENTRY));
    assert_non_null(dlsym(lib, "ta_cuda_debug_fault"));
}

static void test_device_table(void **state)
{
    (void)state;
    assert_non_null(ops);
    assert_int_equal(ops->abi_version, TA_DEVICE_ABI_VERSION);
    assert_string_equal(ops->name, "cuda");
    assert_int_equal(ops->type, kDLCUDA);
    assert_non_null(ops->available);
    assert_non_null(ops->alloc);
    assert_non_null(ops->release);
    assert_non_null(ops->to_host);
    assert_non_null(ops->from_host);
    assert_non_null(ops->copy);
    assert_non_null(ops->compare);
    assert_non_null(ops->sync);
}

static void test_available(void **state)
{
    (void)state;
    char err[512] = "";
    int rc = ops->available(err, sizeof err);
    if (rc == 0) {
        /* A machine with a GPU: no message to check. */
        print_message("skipped: a CUDA device is available here\n");
        skip();
    }
    const char *want = "no CUDA device is available (cudaGetDeviceCount: ";
    assert_memory_equal(err, want, strlen(want));
    assert_true(err[strlen(err) - 1] == ')');
    /* A short buffer is cut, not overrun; none at all is fine. */
    char small[8];
    memset(small, 'x', sizeof small);
    assert_int_not_equal(ops->available(small, sizeof small), 0);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_int_not_equal(ops->available(NULL, 0), 0);
    /* Nor do the other operations crash without a driver. */
    assert_null(ops->alloc(64, err, sizeof err));
    assert_true(strlen(err) > 0);
    assert_int_not_equal(ops->sync(err, sizeof err), 0);
}

/* Loading through the engine refuses an unusable device with the same message. */
static void test_engine_load(void **state)
{
    (void)state;
    void *h = NULL;
    ta_diags *diags;
    assert_int_equal(ta_diags_create(&diags), TA_OK);
    const struct ta_device_ops *d;
    ta_status st = ta_exec_device_load(cuda_lib_path(), &d, &h, diags);
    if (ops->available(NULL, 0) == 0) {
        assert_int_equal(st, TA_OK);
        assert_non_null(d);
        ta_exec_device_unload(h);
        ta_diags_destroy(diags);
        return;
    }
    assert_int_equal(st, TA_ERR_UNSUPPORTED);
    assert_null(d);
    assert_null(h);
    assert_int_equal(ta_diags_count(diags), 1);
    assert_non_null(strstr(ta_diags_get(diags, 0)->message, "no CUDA device is available"));
    ta_diags_destroy(diags);
}

/* ---- registration ---- */

static const char *const expected_ops[] = {
    "aten::abs", "aten::abs_", "aten::abs.out", "aten::neg", "aten::neg_", "aten::neg.out",
    "aten::exp", "aten::exp_", "aten::exp.out", "aten::log", "aten::log_", "aten::log.out",
    "aten::sqrt", "aten::sqrt_", "aten::sqrt.out", "aten::sin", "aten::sin_", "aten::sin.out",
    "aten::cos", "aten::cos_", "aten::cos.out", "aten::tanh", "aten::tanh_", "aten::tanh.out",
    "aten::sigmoid", "aten::sigmoid_", "aten::sigmoid.out", "aten::relu", "aten::relu_",
    "aten::ceil", "aten::ceil_", "aten::ceil.out", "aten::floor", "aten::floor_", "aten::floor.out",
    "aten::reciprocal", "aten::reciprocal_", "aten::reciprocal.out",
    "aten::add.Tensor", "aten::add_.Tensor", "aten::add.out", "aten::sub.Tensor", "aten::sub_.Tensor",
    "aten::sub.out", "aten::mul.Tensor", "aten::mul_.Tensor", "aten::mul.out", "aten::div.Tensor",
    "aten::div_.Tensor", "aten::div.out", "aten::add.Scalar", "aten::add_.Scalar", "aten::mul.Scalar",
    "aten::mul_.Scalar", "aten::maximum", "aten::maximum.out", "aten::minimum", "aten::minimum.out",
    "aten::fill_.Scalar", "aten::fill.Scalar", "aten::zero_", "aten::copy_", "aten::copy", "aten::clone",
    "aten::contiguous",
    /* declared as `autogen:` of another entry */
    "aten::relu.out", "aten::add.Scalar_out", "aten::mul.Scalar_out", "aten::fill.Scalar_out", "aten::zero",
    "aten::zero.out", "aten::copy.out", "aten::clone.out",
    "aten::view", "aten::reshape", "aten::transpose.int", "aten::t", "aten::permute", "aten::select.int",
    "aten::slice.Tensor", "aten::narrow", "aten::expand", "aten::squeeze.dim", "aten::unsqueeze",
    "aten::as_strided", "aten::diagonal", "aten::alias", "aten::detach", "aten::transpose_",
    "aten::unsqueeze_", "aten::squeeze_.dim", "aten::as_strided_",
    "aten::view_as", "aten::reshape_as", "aten::expand_as", "aten::t_", "aten::squeeze", "aten::squeeze_",
    "aten::detach_",
};
enum { NEXPECTED = sizeof expected_ops / sizeof expected_ops[0] };

/* Whether `name` ("aten::abs.out") is declared in a native_functions.yaml:
 * as a `- func:` (at the start of a line, the first one included) or in an
 * `autogen:` list. */
static bool declared_in(const char *yaml_text, const char *name)
{
    char needle[256];
    const char *bare = strchr(name, ':') + 2;
    snprintf(needle, sizeof needle, "\n- func: %s(", bare);
    if (strstr(yaml_text, needle) || !strncmp(yaml_text, needle + 1, strlen(needle + 1))) return true;
    size_t n = strlen(bare);
    for (const char *p = strstr(yaml_text, "\n  autogen: "); p; p = strstr(p + 1, "\n  autogen: ")) {
        const char *item = p + strlen("\n  autogen: ");
        const char *eol = strchr(item, '\n');
        while (item && item < eol) {
            if (!strncmp(item, bare, n) && (item[n] == ',' || item[n] == '\n')) return true;
            item = strchr(item, ',');
            if (item) item += 2;
        }
    }
    return false;
}

static void test_registration(void **state)
{
    (void)state;
    ta_registry *r;
    assert_int_equal(ta_registry_create(&r), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_registry_load_plugin(r, cuda_lib_path(), d), TA_OK);
    assert_int_equal(ta_diags_count_severity(d, TA_SEV_ERROR), 0);
    assert_int_equal(ta_registry_count(r), NEXPECTED);
    for (size_t i = 0; i < NEXPECTED; i++) {
        const ta_registry_op *op = ta_registry_find(r, expected_ops[i]);
        if (!op) fail_msg("%s is not registered", expected_ops[i]);
        assert_non_null(op->kernels[TA_KEY_CUDA]);
        assert_null(op->kernels[TA_KEY_CPU]);
        assert_null(op->kernels[TA_KEY_CATCHALL]);
    }
    /* Every name is an overload PyTorch declares, in both bundled versions. */
    const char *versions[] = {"pytorch-main", "pytorch-1.13.1"};
    for (int v = 0; v < 2; v++) {
        char path[512];
        snprintf(path, sizeof path, "corpus/%s/native_functions.yaml", versions[v]);
        char *yaml = ta_test_read_data(path, NULL);
        if (!yaml) fail_msg("cannot read %s (run make)", path);
        for (size_t i = 0; i < NEXPECTED; i++)
            if (!declared_in(yaml, expected_ops[i])) fail_msg("%s is not in %s", expected_ops[i], path);
        free(yaml);
    }
    ta_diags_destroy(d);
    ta_registry_destroy(r);
}

/* ---- host-side helpers: promotion, broadcasting, overlap ---- */

static int rt2(DLDataType a, int na, DLDataType b, int nb)
{
    int64_t shape[2] = {2, 2};
    DLTensor ta = {.ndim = na, .dtype = a, .shape = shape}, tb = {.ndim = nb, .dtype = b, .shape = shape};
    ta_cu_result_type rt;
    ta_cu_rt_init(&rt);
    ta_cu_rt_tensor(&rt, &ta);
    ta_cu_rt_tensor(&rt, &tb);
    return ta_cu_rt_result(&rt);
}

static void test_promotion(void **state)
{
    (void)state;
    DLDataType u8 = {kDLUInt, 8, 1}, i8 = {kDLInt, 8, 1}, f16 = {kDLFloat, 16, 1};
    assert_int_equal(rt2(TA_DTYPE_F32, 2, TA_DTYPE_I64, 2), TA_CU_F32);
    assert_int_equal(rt2(TA_DTYPE_I32, 2, TA_DTYPE_I64, 2), TA_CU_I64);
    assert_int_equal(rt2(u8, 1, i8, 1), TA_CU_I16);
    assert_int_equal(rt2(TA_DTYPE_F32, 2, TA_DTYPE_F64, 2), TA_CU_F64);
    /* A zero-dim tensor changes the result only from a higher category. */
    assert_int_equal(rt2(TA_DTYPE_F32, 2, TA_DTYPE_F64, 0), TA_CU_F32);
    assert_int_equal(rt2(TA_DTYPE_I32, 2, TA_DTYPE_I64, 0), TA_CU_I32);
    assert_int_equal(rt2(TA_DTYPE_I32, 2, TA_DTYPE_F64, 0), TA_CU_F64);
    assert_int_equal(rt2(TA_DTYPE_I32, 0, TA_DTYPE_I64, 0), TA_CU_I64);
    assert_int_equal(rt2(TA_DTYPE_BOOL, 2, TA_DTYPE_BOOL, 2), TA_CU_BOOL);
    assert_int_equal(rt2(TA_DTYPE_BOOL, 2, TA_DTYPE_I32, 0), TA_CU_I32);
    assert_int_equal(ta_cu_dtype_of(f16), TA_CU_UNDEF);
    /* Scalars: an int keeps the tensor's dtype, a float lifts integers to float32. */
    int64_t shape[1] = {3};
    DLTensor ti = {.ndim = 1, .dtype = TA_DTYPE_I32, .shape = shape};
    ta_cu_result_type rt;
    ta_cu_rt_init(&rt);
    ta_cu_rt_tensor(&rt, &ti);
    ta_cu_rt_scalar(&rt, TA_CU_I64);
    assert_int_equal(ta_cu_rt_result(&rt), TA_CU_I32);
    ta_cu_rt_scalar(&rt, TA_CU_F32);
    assert_int_equal(ta_cu_rt_result(&rt), TA_CU_F32);
    DLTensor td = {.ndim = 1, .dtype = TA_DTYPE_F64, .shape = shape};
    ta_cu_rt_init(&rt);
    ta_cu_rt_tensor(&rt, &td);
    ta_cu_rt_scalar(&rt, TA_CU_F32);
    assert_int_equal(ta_cu_rt_result(&rt), TA_CU_F64);
    /* Casting a result into an output. */
    assert_false(ta_cu_can_cast(TA_CU_F32, TA_CU_I64));
    assert_true(ta_cu_can_cast(TA_CU_I64, TA_CU_F32));
    assert_true(ta_cu_can_cast(TA_CU_F64, TA_CU_F32));
    assert_false(ta_cu_can_cast(TA_CU_I32, TA_CU_BOOL));
    assert_true(ta_cu_can_cast(TA_CU_BOOL, TA_CU_BOOL));
    assert_string_equal(ta_cu_dtype_name(TA_CU_I64), "Long");
}

static void test_broadcast(void **state)
{
    (void)state;
    int64_t a[3] = {2, 1, 3}, b[2] = {4, 3}, c[1] = {4}, out[TA_CU_MAXDIM];
    int n = 0;
    assert_true(ta_cu_broadcast(3, a, 2, b, &n, out));
    assert_int_equal(n, 3);
    assert_int_equal(out[0], 2);
    assert_int_equal(out[1], 4);
    assert_int_equal(out[2], 3);
    assert_false(ta_cu_broadcast(3, a, 1, c, &n, out));
    assert_true(ta_cu_broadcast(0, NULL, 1, c, &n, out));
    assert_int_equal(n, 1);
    char buf[64];
    assert_string_equal(ta_cu_shape_str(3, a, buf, sizeof buf), "[2, 1, 3]");
    assert_string_equal(ta_cu_shape_str(0, a, buf, sizeof buf), "[]");

    /* Operands of an iteration: broadcast dimensions get stride 0. */
    float data[12];
    int64_t s23[2] = {2, 3}, st23[2] = {1, 2}, s3[1] = {3};
    DLTensor t = {.data = data, .ndim = 2, .dtype = TA_DTYPE_F32, .shape = s23, .strides = st23, .byte_offset = 8};
    DLTensor row = {.data = data, .ndim = 1, .dtype = TA_DTYPE_F32, .shape = s3};
    ta_cu_iter it;
    ta_cu_iter_init(&it, 2, s23, 3);
    ta_cu_iter_operand(&it, 0, &t);
    ta_cu_iter_operand(&it, 1, &row);
    assert_int_equal(it.numel, 6);
    assert_ptr_equal(it.op[0].data, (char *)data + 8);
    assert_int_equal(it.op[0].stride[0], 1);
    assert_int_equal(it.op[0].stride[1], 2);
    assert_int_equal(it.op[1].stride[0], 0);
    assert_int_equal(it.op[1].stride[1], 1);
    assert_int_equal(it.op[1].elsize, 4);
    assert_int_equal(it.op[1].dtype, TA_CU_F32);
}

static void test_overlap(void **state)
{
    (void)state;
    float data[32];
    int64_t s44[2] = {4, 4}, tr[2] = {1, 4}, s4[1] = {4}, s2[1] = {2}, st2[1] = {2}, s31[2] = {3, 1},
            z[2] = {0, 1};
    DLTensor x = {.data = data, .ndim = 2, .dtype = TA_DTYPE_F32, .shape = s44};
    DLTensor xt = x;
    xt.strides = tr;
    DLTensor row1 = {.data = data, .ndim = 1, .dtype = TA_DTYPE_F32, .shape = s4, .byte_offset = 16};
    DLTensor other = {.data = data + 16, .ndim = 2, .dtype = TA_DTYPE_F32, .shape = s44};
    DLTensor even = {.data = data, .ndim = 1, .dtype = TA_DTYPE_F32, .shape = s2, .strides = st2};
    DLTensor odd = even;
    odd.byte_offset = 4;
    DLTensor expanded = {.data = data, .ndim = 2, .dtype = TA_DTYPE_F32, .shape = s31, .strides = z};
    assert_false(ta_cu_needs_scratch(&x, &x));       /* element for element */
    assert_false(ta_cu_needs_scratch(&x, &other));   /* disjoint */
    assert_true(ta_cu_needs_scratch(&x, &xt));       /* transposed over itself */
    assert_true(ta_cu_needs_scratch(&x, &row1));     /* a row of itself, broadcast */
    /* Interleaved halves never share an element, but their extents meet: the
     * test is conservative, which only costs a scratch buffer. */
    assert_true(ta_cu_needs_scratch(&even, &odd));
    assert_false(ta_cu_internal_overlap(&x));
    assert_false(ta_cu_internal_overlap(&xt));
    assert_true(ta_cu_internal_overlap(&expanded));
    s31[0] = 1; /* a zero stride on a size-1 dimension is harmless */
    assert_false(ta_cu_internal_overlap(&expanded));
}

/* ---- kernels on a stand-in device ---- */

/* A device of type kDLCUDA whose memory is host memory: the engine and the
 * kernels cannot tell, so geometry-only kernels run fully here. */
static int fake_available(char *err, size_t cap) { (void)err; (void)cap; return 0; }
static void *fake_alloc(size_t n, char *err, size_t cap) { (void)err; (void)cap; return calloc(1, n ? n : 1); }
static void fake_release(void *p) { free(p); }
static int fake_copy(void *d, const void *s, size_t n, char *err, size_t cap)
{
    (void)err;
    (void)cap;
    memmove(d, s, n);
    return 0;
}
static int fake_compare(const void *a, const void *b, size_t n, size_t *first, char *err, size_t cap)
{
    (void)err;
    (void)cap;
    *first = SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (((const char *)a)[i] != ((const char *)b)[i]) {
            *first = i;
            break;
        }
    return 0;
}
static int fake_sync(char *err, size_t cap) { (void)err; (void)cap; return 0; }
static const ta_device_ops fake_cuda = {TA_DEVICE_ABI_VERSION, "fake-cuda", kDLCUDA, fake_available, fake_alloc,
                                        fake_release, fake_copy, fake_copy, fake_copy, fake_compare, fake_sync};

typedef cuda_fixture fixture;

static int setup(void **state)
{
    *state = cuda_fixture_create(&fake_cuda);
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    cuda_fixture_destroy(*state);
    return 0;
}

static DLTensor *tensor(fixture *f, DLDataType dt, int ndim, const int64_t *shape)
{
    DLTensor *t;
    assert_int_equal(ta_exec_empty(f->x, dt, ndim, shape, &t), TA_OK);
    return t;
}

/* Runs op and returns its single tensor result (asserting success). */
static DLTensor *run_ok(fixture *f, const char *op)
{
    ta_status s = call_cuda_op(f->reg, f->x, op);
    if (s != TA_OK) fail_msg("%s failed: %s", op, cuda_call_error());
    assert_int_equal(ta_stack_size(f->st), 1);
    DLTensor *r = ta_stack_tensor(f->st, 0);
    assert_non_null(r);
    return r;
}

/* Runs op expecting a kernel error whose message contains `want`. */
static void run_err(fixture *f, const char *op, const char *want)
{
    ta_status s = call_cuda_op(f->reg, f->x, op);
    assert_int_equal(s, TA_ERR_KERNEL);
    if (!strstr(cuda_call_error(), want)) fail_msg("%s: '%s' does not say '%s'", op, cuda_call_error(), want);
    ta_stack_clear(f->st);
}

static void expect_geom(const DLTensor *t, int ndim, const int64_t *shape, const int64_t *strides, uint64_t offset)
{
    int64_t st[TA_CU_MAXDIM];
    assert_int_equal(t->ndim, ndim);
    ta_strides_of(t, st);
    for (int d = 0; d < ndim; d++) {
        assert_int_equal(t->shape[d], shape[d]);
        assert_int_equal(st[d], strides[d]);
    }
    assert_int_equal(t->byte_offset, offset);
}

static void test_views(void **state)
{
    fixture *f = *state;
    int64_t s23[2] = {2, 3};
    DLTensor *x = tensor(f, TA_DTYPE_F32, 2, s23);
    uint32_t sx = ta_exec_storage_of(f->x, x);

    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 0);
    push_int(f->st, -1);
    DLTensor *y = run_ok(f, "aten::transpose.int");
    expect_geom(y, 2, (int64_t[]){3, 2}, (int64_t[]){1, 3}, 0);
    assert_int_equal(ta_exec_storage_of(f->x, y), sx);
    assert_ptr_not_equal(y, x);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 1);
    push_int(f->st, -1);
    y = run_ok(f, "aten::select.int");
    expect_geom(y, 1, (int64_t[]){2}, (int64_t[]){3}, 8);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 1);
    push_int(f->st, 1);
    push_none(f->st);
    push_int(f->st, 2);
    y = run_ok(f, "aten::slice.Tensor");
    expect_geom(y, 2, (int64_t[]){2, 1}, (int64_t[]){3, 2}, 4);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 0);
    push_int(f->st, -5);
    push_int(f->st, 100);
    push_int(f->st, 1);
    y = run_ok(f, "aten::slice.Tensor"); /* out-of-range bounds clamp */
    expect_geom(y, 2, (int64_t[]){2, 3}, (int64_t[]){3, 1}, 0);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 0);
    push_int(f->st, 1);
    push_int(f->st, 1);
    y = run_ok(f, "aten::narrow");
    expect_geom(y, 2, (int64_t[]){1, 3}, (int64_t[]){3, 1}, 12);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    push_ints(f->st, (int64_t[]){4, -1, 3}, 3);
    y = run_ok(f, "aten::expand");
    expect_geom(y, 3, (int64_t[]){4, 2, 3}, (int64_t[]){0, 3, 1}, 0);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    push_ints(f->st, (int64_t[]){1, 0}, 2);
    y = run_ok(f, "aten::permute");
    expect_geom(y, 2, (int64_t[]){3, 2}, (int64_t[]){1, 3}, 0);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    y = run_ok(f, "aten::t");
    expect_geom(y, 2, (int64_t[]){3, 2}, (int64_t[]){1, 3}, 0);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 1);
    push_int(f->st, 0);
    push_int(f->st, 1);
    y = run_ok(f, "aten::diagonal");
    expect_geom(y, 1, (int64_t[]){2}, (int64_t[]){4}, 4);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 2);
    y = run_ok(f, "aten::unsqueeze");
    expect_geom(y, 3, (int64_t[]){2, 3, 1}, (int64_t[]){3, 1, 1}, 0);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 0);
    DLTensor *u = run_ok(f, "aten::unsqueeze");
    expect_geom(u, 3, (int64_t[]){1, 2, 3}, (int64_t[]){6, 3, 1}, 0);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, u);
    push_int(f->st, 0);
    y = run_ok(f, "aten::squeeze.dim");
    expect_geom(y, 2, (int64_t[]){2, 3}, (int64_t[]){3, 1}, 0);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 0); /* size 2: nothing to squeeze, still a view */
    y = run_ok(f, "aten::squeeze.dim");
    expect_geom(y, 2, (int64_t[]){2, 3}, (int64_t[]){3, 1}, 0);
    assert_ptr_not_equal(y, x);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    push_ints(f->st, (int64_t[]){2, 2}, 2);
    push_ints(f->st, (int64_t[]){1, 2}, 2);
    push_int(f->st, 1);
    y = run_ok(f, "aten::as_strided");
    expect_geom(y, 2, (int64_t[]){2, 2}, (int64_t[]){1, 2}, 4);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    push_ints(f->st, (int64_t[]){3, -1}, 2);
    y = run_ok(f, "aten::view");
    expect_geom(y, 2, (int64_t[]){3, 2}, (int64_t[]){2, 1}, 0);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    push_ints(f->st, (int64_t[]){6}, 1);
    y = run_ok(f, "aten::reshape"); /* viewable: a view */
    expect_geom(y, 1, (int64_t[]){6}, (int64_t[]){1}, 0);
    assert_int_equal(ta_exec_storage_of(f->x, y), sx);
    ta_stack_clear(f->st);

    const char *same[] = {"aten::alias", "aten::detach"};
    for (int i = 0; i < 2; i++) {
        ta_stack_push_tensor(f->st, x);
        y = run_ok(f, same[i]);
        expect_geom(y, 2, (int64_t[]){2, 3}, (int64_t[]){3, 1}, 0);
        assert_ptr_not_equal(y, x);
        assert_int_equal(ta_exec_storage_of(f->x, y), sx);
        ta_stack_clear(f->st);
    }

    /* The _as forms take the shape of `other`. */
    int64_t s61[2] = {6, 1}, s423[3] = {4, 2, 3};
    DLTensor *o61 = tensor(f, TA_DTYPE_I32, 2, s61), *o423 = tensor(f, TA_DTYPE_I32, 3, s423);
    ta_stack_push_tensor(f->st, x);
    ta_stack_push_tensor(f->st, o61);
    expect_geom(run_ok(f, "aten::view_as"), 2, s61, (int64_t[]){1, 1}, 0);
    ta_stack_clear(f->st);
    ta_stack_push_tensor(f->st, x);
    ta_stack_push_tensor(f->st, o61);
    expect_geom(run_ok(f, "aten::reshape_as"), 2, s61, (int64_t[]){1, 1}, 0);
    ta_stack_clear(f->st);
    ta_stack_push_tensor(f->st, x);
    ta_stack_push_tensor(f->st, o423);
    expect_geom(run_ok(f, "aten::expand_as"), 3, s423, (int64_t[]){0, 3, 1}, 0);
    ta_stack_clear(f->st);

    /* squeeze() drops every size-one dimension. */
    int64_t s1213[4] = {1, 2, 1, 3};
    DLTensor *w = tensor(f, TA_DTYPE_F32, 4, s1213);
    ta_stack_push_tensor(f->st, w);
    expect_geom(run_ok(f, "aten::squeeze"), 2, (int64_t[]){2, 3}, (int64_t[]){3, 1}, 0);
    ta_stack_clear(f->st);

    /* contiguous of a contiguous tensor is self itself: no device work. */
    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 0);
    assert_ptr_equal(run_ok(f, "aten::contiguous"), x);
    ta_stack_clear(f->st);
}

/* A view of a view: strides and offsets compose. */
static void test_view_of_view(void **state)
{
    fixture *f = *state;
    int64_t s45[2] = {4, 5};
    DLTensor *x = tensor(f, TA_DTYPE_F64, 2, s45);
    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 0);
    push_int(f->st, 1);
    push_int(f->st, 3);
    DLTensor *n = run_ok(f, "aten::narrow"); /* rows 1..3 */
    ta_stack_clear(f->st);
    ta_stack_push_tensor(f->st, n);
    push_int(f->st, 0);
    push_int(f->st, 1);
    DLTensor *t = run_ok(f, "aten::transpose.int");
    ta_stack_clear(f->st);
    expect_geom(t, 2, (int64_t[]){5, 3}, (int64_t[]){1, 5}, 40);
    /* view of the transposed slice: merging the two dims is impossible ... */
    ta_stack_push_tensor(f->st, t);
    push_ints(f->st, (int64_t[]){15}, 1);
    run_err(f, "aten::view", "view size is not compatible");
    /* ... splitting one is fine. */
    ta_stack_push_tensor(f->st, t);
    push_ints(f->st, (int64_t[]){5, 3, 1}, 3);
    DLTensor *v = run_ok(f, "aten::view");
    expect_geom(v, 3, (int64_t[]){5, 3, 1}, (int64_t[]){1, 5, 5}, 40);
    ta_stack_clear(f->st);
    ta_stack_push_tensor(f->st, n);
    push_int(f->st, 1);
    push_int(f->st, 2);
    DLTensor *s = run_ok(f, "aten::select.int");
    ta_stack_clear(f->st);
    expect_geom(s, 1, (int64_t[]){3}, (int64_t[]){5}, 56);
}

static void test_inplace_views(void **state)
{
    fixture *f = *state;
    int64_t s23[2] = {2, 3};
    DLTensor *x = tensor(f, TA_DTYPE_I64, 2, s23);

    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 0);
    push_int(f->st, 1);
    assert_ptr_equal(run_ok(f, "aten::transpose_"), x);
    expect_geom(x, 2, (int64_t[]){3, 2}, (int64_t[]){1, 3}, 0);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    push_int(f->st, -1);
    assert_ptr_equal(run_ok(f, "aten::unsqueeze_"), x);
    expect_geom(x, 3, (int64_t[]){3, 2, 1}, (int64_t[]){1, 3, 1}, 0);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 2);
    assert_ptr_equal(run_ok(f, "aten::squeeze_.dim"), x);
    expect_geom(x, 2, (int64_t[]){3, 2}, (int64_t[]){1, 3}, 0);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    push_ints(f->st, (int64_t[]){5}, 1);
    push_ints(f->st, (int64_t[]){1}, 1);
    push_int(f->st, 1);
    assert_ptr_equal(run_ok(f, "aten::as_strided_"), x);
    expect_geom(x, 1, (int64_t[]){5}, (int64_t[]){1}, 8);
    ta_stack_clear(f->st);

    ta_stack_push_tensor(f->st, x);
    assert_ptr_equal(run_ok(f, "aten::detach_"), x);
    expect_geom(x, 1, (int64_t[]){5}, (int64_t[]){1}, 8);
    ta_stack_clear(f->st);

    int64_t s1213[4] = {1, 2, 1, 3};
    DLTensor *w = tensor(f, TA_DTYPE_F32, 4, s1213);
    ta_stack_push_tensor(f->st, w);
    assert_ptr_equal(run_ok(f, "aten::squeeze_"), w);
    expect_geom(w, 2, (int64_t[]){2, 3}, (int64_t[]){3, 1}, 0);
    ta_stack_clear(f->st);
    ta_stack_push_tensor(f->st, w);
    assert_ptr_equal(run_ok(f, "aten::t_"), w);
    expect_geom(w, 2, (int64_t[]){3, 2}, (int64_t[]){1, 3}, 0);
    ta_stack_clear(f->st);

    /* Past the end of the 6-element storage. */
    ta_stack_push_tensor(f->st, x);
    push_ints(f->st, (int64_t[]){5}, 1);
    push_ints(f->st, (int64_t[]){1}, 1);
    push_int(f->st, 2);
    run_err(f, "aten::as_strided_", "does not fit");
    expect_geom(x, 1, (int64_t[]){5}, (int64_t[]){1}, 8); /* unchanged */
}

static void test_view_errors(void **state)
{
    fixture *f = *state;
    int64_t s234[3] = {2, 3, 4};
    DLTensor *x = tensor(f, TA_DTYPE_F32, 3, s234);
    ta_stack_push_tensor(f->st, x);
    run_err(f, "aten::t", "<= 2 dimensions");
    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 3);
    push_int(f->st, 0);
    run_err(f, "aten::transpose.int", "dimension out of range");
    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 1);
    push_int(f->st, 3);
    run_err(f, "aten::select.int", "index 3 out of range");
    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 0);
    push_int(f->st, 1);
    push_int(f->st, 2);
    run_err(f, "aten::narrow", "exceeds dimension size");
    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 0);
    push_none(f->st);
    push_none(f->st);
    push_int(f->st, 0);
    run_err(f, "aten::slice.Tensor", "step must be positive");
    ta_stack_push_tensor(f->st, x);
    push_ints(f->st, (int64_t[]){2, 5, 4}, 3);
    run_err(f, "aten::expand", "must match the existing size");
    ta_stack_push_tensor(f->st, x);
    push_ints(f->st, (int64_t[]){3, 4}, 2);
    run_err(f, "aten::expand", "must be greater or equal");
    ta_stack_push_tensor(f->st, x);
    push_ints(f->st, (int64_t[]){0, 0, 0}, 3);
    run_err(f, "aten::permute", "repeated dim");
    ta_stack_push_tensor(f->st, x);
    push_ints(f->st, (int64_t[]){-1, -1}, 2);
    run_err(f, "aten::view", "only one dimension can be inferred");
    ta_stack_push_tensor(f->st, x);
    push_ints(f->st, (int64_t[]){5, -1}, 2);
    run_err(f, "aten::view", "invalid for input of size 24");
    ta_stack_push_tensor(f->st, x);
    push_int(f->st, 0);
    push_int(f->st, 0);
    push_int(f->st, 0);
    run_err(f, "aten::diagonal", "cannot be identical");
    ta_stack_push_tensor(f->st, x);
    push_ints(f->st, (int64_t[]){100}, 1);
    push_ints(f->st, (int64_t[]){1}, 1);
    push_none(f->st);
    run_err(f, "aten::as_strided", "does not fit");
    ta_stack_push_tensor(f->st, x);
    push_ints(f->st, (int64_t[]){2}, 1);
    push_ints(f->st, (int64_t[]){1, 1}, 2);
    push_none(f->st);
    run_err(f, "aten::as_strided", "mismatch in length");
}

static void test_pointwise_errors(void **state)
{
    fixture *f = *state;
    int64_t s23[2] = {2, 3}, s4[1] = {4}, s13[2] = {1, 3};
    DLTensor *fi = tensor(f, TA_DTYPE_I64, 2, s23);
    DLTensor *ff = tensor(f, TA_DTYPE_F32, 2, s23);
    DLTensor *f4 = tensor(f, TA_DTYPE_F32, 1, s4);
    DLTensor *f13 = tensor(f, TA_DTYPE_F32, 2, s13);

    ta_stack_push_tensor(f->st, fi);
    run_err(f, "aten::exp_", "result type Float can't be cast to the desired output type Long");
    ta_stack_push_tensor(f->st, ff);
    ta_stack_push_tensor(f->st, fi);
    run_err(f, "aten::sqrt.out", "result type Float can't be cast to the desired output type Long");
    ta_stack_push_tensor(f->st, ff);
    ta_stack_push_tensor(f->st, f4);
    push_scalar_i(f->st, 1);
    run_err(f, "aten::add.Tensor", "cannot be broadcast");
    ta_stack_push_tensor(f->st, fi);
    ta_stack_push_tensor(f->st, fi);
    push_scalar_f(f->st, 0.5);
    run_err(f, "aten::sub.Tensor", "alpha must not be a floating point number");
    ta_stack_push_tensor(f->st, f13);
    ta_stack_push_tensor(f->st, ff);
    run_err(f, "aten::mul_.Tensor", "doesn't match the broadcast shape [2, 3]");
    ta_stack_push_tensor(f->st, fi);
    push_scalar_f(f->st, 1.5);
    run_err(f, "aten::mul_.Scalar", "can't be cast");

    /* An expanded out= cannot be written element by element. */
    ta_stack_push_tensor(f->st, f13);
    push_ints(f->st, (int64_t[]){2, 3}, 2);
    DLTensor *ex = run_ok(f, "aten::expand");
    ta_stack_clear(f->st);
    ta_stack_push_tensor(f->st, ff);
    ta_stack_push_tensor(f->st, ex);
    run_err(f, "aten::abs.out", "more than one element of the written-to tensor");

    /* Unsupported dtype, and a tensor from another device. */
    DLTensor *h = tensor(f, (DLDataType){kDLFloat, 16, 1}, 2, s23);
    ta_stack_push_tensor(f->st, h);
    run_err(f, "aten::abs", "dtype the CUDA reference kernels do not support");
    float host[6];
    DLTensor cpu = {.data = host, .device = {kDLCPU, 0}, .ndim = 2, .dtype = TA_DTYPE_F32, .shape = s23};
    ta_stack_push_tensor(f->st, &cpu);
    run_err(f, "aten::neg", "expected 'self' on a CUDA device");
    ta_stack_push_tensor(f->st, ff);
    ta_stack_push_tensor(f->st, &cpu);
    push_int(f->st, 0);
    run_err(f, "aten::copy_", "expected 'src' on a CUDA device");
    DLTensor *b = tensor(f, TA_DTYPE_BOOL, 2, s23);
    ta_stack_push_tensor(f->st, b);
    run_err(f, "aten::neg", "on a bool tensor is not supported");
    ta_stack_push_tensor(f->st, ff);
    ta_stack_push_tensor(f->st, f4);
    push_int(f->st, 0);
    run_err(f, "aten::copy_", "cannot be broadcast to the destination's [2, 3]");
}

/* Without a driver a launch fails with a message: a kernel error, not a crash. */
static void test_launch_without_driver(void **state)
{
    fixture *f = *state;
    if (ops->available(NULL, 0) == 0) {
        /* The stand-in's host pointers must never reach a real GPU. */
        print_message("skipped: a CUDA device is present\n");
        skip();
    }
    int64_t s23[2] = {2, 3};
    DLTensor *x = tensor(f, TA_DTYPE_F32, 2, s23);
    ta_stack_push_tensor(f->st, x);
    run_err(f, "aten::abs", "abs: kernel launch failed");
    ta_stack_push_tensor(f->st, x);
    push_scalar_i(f->st, 3);
    run_err(f, "aten::fill_.Scalar", "fill_: kernel launch failed");
}

/* ---- the engine's verification of every CUDA kernel, emulated ---- */

static void test_verify_emulated(void **state)
{
    (void)state;
    setenv("TA_CUDA_EMULATE", "1", 1);
    assert_int_equal(ops->available(NULL, 0), 0);
    char path[512];
    ta_test_data_path(path, sizeof path, "corpus/pytorch-main/native_functions.yaml");
    ta_native_file *yaml = NULL;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_native_load_path(path, NULL, &yaml, d);
    assert_non_null(yaml);
    ta_diags_clear(d);
    ta_registry *reg;
    assert_int_equal(ta_registry_create(&reg), TA_OK);
    assert_int_equal(ta_registry_use_native(reg, yaml), TA_OK);
    assert_int_equal(ta_registry_load_plugin(reg, cuda_lib_path(), d), TA_OK);
    assert_int_equal(ta_diags_count_severity(d, TA_SEV_ERROR), 0);

    /* Names the yaml only lists under autogen: have no schema here and are
     * skipped; every other expected name is registered, with its schema. */
    size_t nops = ta_registry_count(reg);
    assert_true(nops >= NEXPECTED - 8 && nops <= NEXPECTED);
    assert_null(ta_registry_find(reg, "aten::zero.out"));
    const char **names = calloc(nops, sizeof *names);
    for (size_t i = 0; i < nops; i++) {
        names[i] = ta_registry_at(reg, i)->name;
        assert_non_null(ta_registry_at(reg, i)->schema);
    }
    /* In this process, then the way the command runs: a child per operator. */
    for (int mode = 0; mode < 2; mode++) {
        ta_verify_opts o = {.seed = 7 + (uint64_t)mode, .cases = 60, .in_process = mode == 0, .jobs = 2,
                            .dev = ops};
        ta_verify_report *r = NULL;
        assert_int_equal(ta_verify(reg, names, nops, &o, &r, d), TA_OK);
        assert_int_equal(r->nops, nops);
        int bad = 0;
        uint32_t exercised = 0;
        for (size_t i = 0; i < r->nops; i++) {
            const ta_op_result *res = &r->ops[i];
            exercised += res->exercised;
            if (res->verdict == TA_V_OK && res->exercised > 0) continue;
            bad++;
            print_error("%s: %s after %u/%u cases (%s)\n", res->op, ta_verdict_kind_str(res->verdict),
                        res->exercised, res->cases, res->note);
            for (size_t k = 0; k < res->nfindings; k++)
                print_error("    %s %s: %s (seed %llu)\n", ta_verdict_kind_str(res->findings[k].kind),
                            res->findings[k].argument, res->findings[k].message,
                            (unsigned long long)res->findings[k].seed);
        }
        print_message("%s: %zu operators, %u cases exercised, %d with findings\n",
                      mode == 0 ? "in process" : "in children", r->nops, exercised, bad);
        assert_int_equal(bad, 0);
        assert_true(exercised > nops * 30);
        ta_verify_report_destroy(r);
    }
    free(names);
    ta_registry_destroy(reg);
    ta_native_destroy(yaml);
    ta_diags_destroy(d);
    unsetenv("TA_CUDA_EMULATE");
}

int main(void)
{
    int rc = cuda_lib_open(&lib);
    if (rc != 0) return rc;
    ops = cuda_ops_of(lib);
    /* The shared cases run on the library's own device table, emulated. */
    unsetenv("TA_CUDA_EMULATE");
    kc_dev = ops;
    kc_emulate = true;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entry_points),
        cmocka_unit_test(test_device_table),
        cmocka_unit_test(test_available),
        cmocka_unit_test(test_engine_load),
        cmocka_unit_test(test_registration),
        cmocka_unit_test(test_promotion),
        cmocka_unit_test(test_broadcast),
        cmocka_unit_test(test_overlap),
        cmocka_unit_test_setup_teardown(test_views, setup, teardown),
        cmocka_unit_test_setup_teardown(test_view_of_view, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inplace_views, setup, teardown),
        cmocka_unit_test_setup_teardown(test_view_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pointwise_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_launch_without_driver, setup, teardown),
        KERNEL_CASES,
        cmocka_unit_test(test_verify_emulated),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    dlclose(lib);
    return failed;
}
