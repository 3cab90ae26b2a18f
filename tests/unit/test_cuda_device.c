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

/* ---- device memory ---- */

static void test_alloc_copy(void **state)
{
    (void)state;
    char err[256];
    enum { N = 1000 };
    unsigned char h[N], back[N];
    for (int i = 0; i < N; i++) h[i] = (unsigned char)(i * 7 + 1);
    void *a = ops->alloc(N, err, sizeof err), *b = ops->alloc(N, err, sizeof err);
    void *z1 = ops->alloc(0, err, sizeof err), *z2 = ops->alloc(0, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(z1);
    assert_ptr_not_equal(z1, z2); /* distinct addresses, even for empty storages */
    assert_int_equal(ops->from_host(a, h, N, err, sizeof err), 0);
    assert_int_equal(ops->copy(b, a, N, err, sizeof err), 0);
    memset(back, 0, N);
    assert_int_equal(ops->to_host(back, b, N, err, sizeof err), 0);
    assert_memory_equal(back, h, N);
    size_t first = 0;
    assert_int_equal(ops->compare(a, b, N, &first, err, sizeof err), 0);
    assert_true(first == SIZE_MAX);
    assert_int_equal(ops->sync(err, sizeof err), 0);
    ops->release(a);
    ops->release(b);
    ops->release(z1);
    ops->release(z2);
}

static void test_compare(void **state)
{
    (void)state;
    char err[256];
    const size_t n = (16u << 20) + 5; /* words plus a 5-byte tail */
    unsigned char *h = malloc(n);
    for (size_t i = 0; i < n; i++) h[i] = (unsigned char)(i * 31 + 7);
    unsigned char *a = ops->alloc(n + 8, err, sizeof err), *b = ops->alloc(n + 8, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    size_t first = 0;
    unsigned char one = 0xAB;

    /* Aligned: equal, then differences at several places; the first wins. */
    assert_int_equal(ops->from_host(a, h, n, err, sizeof err), 0);
    assert_int_equal(ops->from_host(b, h, n, err, sizeof err), 0);
    assert_int_equal(ops->compare(a, b, n, &first, err, sizeof err), 0);
    assert_true(first == SIZE_MAX);
    assert_int_equal(ops->from_host(b + 777777, &one, 1, err, sizeof err), 0);
    assert_int_equal(ops->compare(a, b, n, &first, err, sizeof err), 0);
    assert_int_equal(first, 777777);
    assert_int_equal(ops->from_host(b + 9000001, &one, 1, err, sizeof err), 0);
    assert_int_equal(ops->from_host(b + 13, &one, 1, err, sizeof err), 0);
    assert_int_equal(ops->compare(a, b, n, &first, err, sizeof err), 0);
    assert_int_equal(first, 13);
    /* Only the tail differs. */
    assert_int_equal(ops->from_host(b, h, n, err, sizeof err), 0);
    assert_int_equal(ops->from_host(b + n - 2, &one, 1, err, sizeof err), 0);
    assert_int_equal(ops->compare(a, b, n, &first, err, sizeof err), 0);
    assert_int_equal(first, n - 2);
    /* A prefix that stops before the difference is equal. */
    assert_int_equal(ops->compare(a, b, n - 2, &first, err, sizeof err), 0);
    assert_true(first == SIZE_MAX);

    /* Unaligned, and differently aligned, pointers. */
    assert_int_equal(ops->from_host(a + 1, h, n, err, sizeof err), 0);
    assert_int_equal(ops->from_host(b + 3, h, n, err, sizeof err), 0);
    assert_int_equal(ops->compare(a + 1, b + 3, n, &first, err, sizeof err), 0);
    assert_true(first == SIZE_MAX);
    assert_int_equal(ops->from_host(b + 3 + 4242, &one, 1, err, sizeof err), 0);
    assert_int_equal(ops->compare(a + 1, b + 3, n, &first, err, sizeof err), 0);
    assert_int_equal(first, 4242);
    assert_int_equal(ops->compare(a, b, 0, &first, err, sizeof err), 0);
    assert_true(first == SIZE_MAX);
    ops->release(a);
    ops->release(b);
    free(h);
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
    if (access(cuda_lib_path(), F_OK) != 0) {
        printf("%s was not built (no nvcc, or make CUDA=0)\n", cuda_lib_path());
        return 77;
    }
    lib = dlopen(cuda_lib_path(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        printf("dlopen failed: %s\n", dlerror());
        return 1;
    }
    ops = cuda_ops_of(lib);
    char why[512] = "";
    if (!ops || ops->available(why, sizeof why) != 0) {
        printf("%s\n", ops ? why : "no device table");
        return 77;
    }
    kc_dev = ops;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_copy),
        cmocka_unit_test(test_compare),
        KERNEL_CASES,
        cmocka_unit_test(test_sync_reports_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
