/* test_exec_device.c - loading a device library (availability asked in a
 * child process) and verifying on a device that is not the CPU: snapshots,
 * comparisons and out= checks through the device operations. Uses the fake
 * device of tests/plugins/fakedevice.c (host memory behind a "cuda" name). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "exec/device.h"
#include "tensoralias/exec.h"

static char path[512];

static ta_status writes_self(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (ta_kernel_device(ctx).device_type != kDLCUDA) return ta_kernel_error(ctx, "not on the device");
    DLTensor *y = ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape);
    size_t es = ta_dtype_size(x->dtype);
    for (int64_t i = 0; i < ta_numel(x); i++) memcpy(ta_elem_ptr(y, i), ta_elem_ptr(x, i), es);
    if (ta_numel(x)) ((unsigned char *)ta_elem_ptr(x, 0))[0] ^= 0x80;
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, y);
}

static ta_status copy_out(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0), *out = ta_stack_tensor(st, 1);
    if (!ta_dtype_eq(x->dtype, out->dtype)) return ta_kernel_error(ctx, "dtype");
    if (ta_kernel_resize(ctx, out, x->ndim, x->shape) != TA_OK) return ta_kernel_error(ctx, "resize");
    size_t es = ta_dtype_size(x->dtype);
    for (int64_t i = 0; i < ta_numel(x); i++) memcpy(ta_elem_ptr(out, i), ta_elem_ptr(x, i), es);
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, out);
}

static void test_unavailable(void **state)
{
    (void)state;
    setenv("FAKEDEV_UNAVAILABLE", "1", 1);
    void *h = (void *)1;
    char err[256] = "";
    assert_null(ta_exec_device_load(path, &h, err, sizeof err));
    assert_null(h);
    assert_string_equal(err, "fake device: switched off");
    unsetenv("FAKEDEV_UNAVAILABLE");
    assert_null(ta_exec_device_load("/nonexistent/libtensoralias_cuda.so", &h, err, sizeof err));
    assert_true(strlen(err) > 0);
}

static void test_verify_on_device(void **state)
{
    (void)state;
    void *h;
    char err[256];
    const ta_device_ops *dev = ta_exec_device_load(path, &h, err, sizeof err);
    assert_non_null(dev);
    assert_int_equal(dev->type, kDLCUDA);
    ta_registry *reg = ta_registry_create();
    assert_int_equal(ta_register_op(reg, "dev::w(Tensor self) -> Tensor", TA_KEY_CUDA, writes_self, NULL), TA_OK);
    assert_int_equal(ta_register_op(reg, "dev::w_(Tensor(a!) self) -> Tensor", TA_KEY_CATCHALL, writes_self, NULL), TA_OK);
    assert_int_equal(ta_register_op(reg, "dev::c.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", TA_KEY_CUDA, copy_out, NULL), TA_OK);
    assert_int_equal(ta_register_op(reg, "dev::cpu_only(Tensor self) -> Tensor", TA_KEY_CPU, copy_out, NULL), TA_OK);
    const char *ops[4] = {"dev::w", "dev::w_", "dev::c.out", "dev::cpu_only"};
    ta_verify_opts o = {.seed = 5, .cases = 30, .dev = dev, .jobs = 2};
    ta_verify_report *r;
    assert_int_equal(ta_verify(reg, ops, 4, &o, &r, NULL), TA_OK);
    assert_int_equal(r->ops[0].verdict, TA_V_UNDECLARED_MUTATION);
    assert_int_equal(r->ops[1].verdict, TA_V_OK);
    assert_true(r->ops[1].exercised > 0);
    assert_int_equal(r->ops[2].verdict, TA_V_OK);
    assert_true(r->ops[2].exercised > 0);
    assert_int_equal(r->ops[3].verdict, TA_V_NO_KERNEL); /* a CPU kernel does not run on the device */
    ta_verify_report_destroy(r);
    ta_registry_destroy(reg);
    ta_exec_device_unload(h);
}

int main(void)
{
    const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
    snprintf(path, sizeof path, "%s/tests/plugins/libfakedevice.so", build);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unavailable),
        cmocka_unit_test(test_verify_on_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
