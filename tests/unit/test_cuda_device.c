/* test_cuda_device.c - the CUDA device and kernels on a real GPU: allocation
 * and copies, compare on the device finding the first differing byte
 * (aligned, unaligned, tail), every pointwise kernel against values computed
 * here on the host, copies through strides and overlaps, and sync turning a
 * faulting kernel into a message. Without a GPU it prints why and exits 77. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cuda_test_util.h"
#include "cuda_kernel_cases.h"

static void *lib;
static const ta_device_ops *ops;

/* Asking again once this process uses CUDA still says yes. */
static void test_available_after_use(void **state)
{
    (void)state;
    char err[512] = "";
    void *p = ops->alloc(16, err, sizeof err);
    assert_non_null(p);
    ops->release(p);
    if (ops->available(err, sizeof err) != 0) fail_msg("available after use: %s", err);
}

/* Last: the fault leaves the CUDA context unusable for this process. */
static void test_sync_reports_fault(void **state)
{
    (void)state;
    char err[512] = "";
    int (*fault)(char *, size_t);
    void *sym = dlsym(lib, "ta_cuda_debug_fault");
    assert_non_null(sym);
    memcpy(&fault, &sym, sizeof fault);
    assert_int_equal(ops->sync(err, sizeof err), 0);
    assert_int_equal(fault(err, sizeof err), 0);
    assert_int_not_equal(ops->sync(err, sizeof err), 0);
    print_message("sync said: %s\n", err);
    assert_non_null(strstr(err, "CUDA error: "));
    assert_non_null(strstr(err, "illegal"));
}

int main(void)
{
    int rc = cuda_lib_open(&lib);
    if (rc != 0) return rc;
    ops = cuda_ops_of(lib);
    char why[512] = "";
    if (!ops || ops->available(why, sizeof why) != 0) {
        printf("%s\n", ops ? why : "no device table");
        return 77;
    }
    kc_dev = ops;
    const struct CMUnitTest tests[] = {
        KERNEL_CASES,
        cmocka_unit_test(test_available_after_use),
        cmocka_unit_test(test_sync_reports_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
