/* test_exec_device.c - loading a device library (availability asked in a
 * child process) and verifying on a device that is not the CPU: snapshots,
 * comparisons and out= checks through the device operations; a device fault
 * (its sync fails, and the device is unusable afterwards, as CUDA's context
 * is) becomes a kernel-error for its case and the next case runs in a fresh
 * child. Uses the fake device of tests/plugins/fakedevice.c (host memory
 * behind a "cuda" name). */
#include <dlfcn.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tensoralias/device.h"
#include "support/diags.h"
#include "tensoralias/exec.h"

static char path[512];

static ta_status writes_self(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (ta_kernel_device(ctx).device_type != kDLCUDA) return ta_kernel_error(ctx, "not on the device");
    DLTensor *y;
    assert_int_equal(ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape, &y), TA_OK);
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

/* The fake device's fault switch, and a log of calls shared by the children:
 * 'K' for a call that ran normally, 'F' for one that faulted. */
static void (*fault_fn)(void);
static char logpath[64];

static ta_status faults_on_matrices(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    bool fault = x->ndim == 2;
    int fd = open(logpath, O_WRONLY | O_APPEND);
    if (fd >= 0) {
        ssize_t w = write(fd, fault ? "F" : "K", 1); /* a short write shows as a short count */
        (void)w;
        close(fd);
    }
    DLTensor *y;
    if (ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape, &y) != TA_OK)
        return ta_kernel_error(ctx, "no memory");
    size_t es = ta_dtype_size(x->dtype);
    for (int64_t i = 0; i < ta_numel(x); i++) memcpy(ta_elem_ptr(y, i), ta_elem_ptr(x, i), es);
    /* Like a CUDA kernel writing through a bad address: the call returns,
     * the fault surfaces at the engine's sync. */
    if (fault) fault_fn();
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, y);
}

static void read_log(char *buf, size_t cap)
{
    int fd = open(logpath, O_RDONLY);
    assert_true(fd >= 0);
    ssize_t n = read(fd, buf, cap - 1);
    close(fd);
    assert_true(n >= 0);
    buf[n] = '\0';
}

static size_t count(const char *s, char ch)
{
    size_t n = 0;
    for (; *s; s++) n += *s == ch;
    return n;
}

static void test_unavailable(void **state)
{
    (void)state;
    setenv("FAKEDEV_UNAVAILABLE", "1", 1);
    void *h = (void *)1;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    const ta_device_ops *dev = (const ta_device_ops *)1;
    assert_int_equal(ta_exec_device_load(path, &dev, &h, d), TA_ERR_UNSUPPORTED);
    assert_null(dev);
    assert_null(h);
    assert_string_equal(ta_test_last_message(d), "fake device: switched off");
    assert_string_equal(ta_diags_get(d, 0)->rule, "device");
    unsetenv("FAKEDEV_UNAVAILABLE");
    assert_int_equal(ta_exec_device_load("/nonexistent/libtensoralias_cuda.so", &dev, &h, d), TA_ERR_IO);
    assert_null(dev);
    assert_int_equal(ta_diags_count(d), 2);
    assert_true(strlen(ta_test_last_message(d)) > 0);
    ta_diags_destroy(d);
}

static void test_verify_on_device(void **state)
{
    (void)state;
    void *h;
    const ta_device_ops *dev;
    assert_int_equal(ta_exec_device_load(path, &dev, &h, NULL), TA_OK);
    assert_int_equal(dev->type, kDLCUDA);
    ta_registry *reg;
    assert_int_equal(ta_registry_create(&reg), TA_OK);
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

static void test_device_fault_restarts_child(void **state)
{
    (void)state;
    void *h;
    char log[256];
    const ta_device_ops *dev;
    assert_int_equal(ta_exec_device_load(path, &dev, &h, NULL), TA_OK);
    void *sym = dlsym(h, "fakedev_fault");
    void (*reset)(void);
    assert_non_null(sym);
    memcpy(&fault_fn, &sym, sizeof fault_fn);
    sym = dlsym(h, "fakedev_reset");
    assert_non_null(sym);
    memcpy(&reset, &sym, sizeof reset);
    snprintf(logpath, sizeof logpath, "/tmp/ta_devfault_XXXXXX");
    int fd = mkstemp(logpath);
    assert_true(fd >= 0);
    close(fd);

    ta_registry *reg;
    assert_int_equal(ta_registry_create(&reg), TA_OK);
    assert_int_equal(ta_register_op(reg, "dev::f(Tensor self) -> Tensor", TA_KEY_CUDA, faults_on_matrices, NULL), TA_OK);
    const char *ops[1] = {"dev::f"};
    ta_verify_opts o = {.seed = 3, .cases = 30, .dev = dev};
    ta_verify_report *r;
    assert_int_equal(ta_verify(reg, ops, 1, &o, &r, NULL), TA_OK);
    read_log(log, sizeof log);
    size_t ran = count(log, 'K'), faulted = count(log, 'F');
    print_message("children: %s (%zu ran, %zu faulted)\n", log, ran, faulted);
    /* Each fault ended its child; every other case ran in a fresh one, none
     * was lost to the dead device, and no fault counted as a crash. */
    assert_true(faulted >= 2);
    assert_true(strchr(strchr(log, 'F'), 'K') != NULL);
    assert_int_equal(ran + faulted, 30);
    assert_int_equal(r->ops[0].cases, 30);
    assert_int_equal(r->ops[0].exercised, ran);
    assert_int_equal(r->ops[0].verdict, TA_V_KERNEL_ERROR);
    assert_int_equal(r->ops[0].nfindings, 1);
    assert_non_null(strstr(r->ops[0].findings[0].message, "device error after the kernel: fake device: an illegal memory access"));
    assert_non_null(strstr(r->ops[0].findings[0].message, "[case: self="));
    ta_verify_report_destroy(r);

    /* In one process there is no fresh child to go on in: the run stops at
     * the first fault, which is still the verdict. */
    fd = open(logpath, O_WRONLY | O_TRUNC);
    close(fd);
    o.in_process = true;
    assert_int_equal(ta_verify(reg, ops, 1, &o, &r, NULL), TA_OK);
    reset();
    read_log(log, sizeof log);
    assert_int_equal(count(log, 'F'), 1);
    assert_int_equal(log[strlen(log) - 1], 'F');
    assert_int_equal(r->ops[0].cases, strlen(log));
    assert_int_equal(r->ops[0].verdict, TA_V_KERNEL_ERROR);
    ta_verify_report_destroy(r);

    unlink(logpath);
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
        cmocka_unit_test(test_device_fault_restarts_child),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
