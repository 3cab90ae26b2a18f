/* test_refkernel_cases.c - differential replay of the CPU reference kernels
 * against PyTorch: every case in build/data/refkernels/cases.jsonl (made by
 * tools/refkernel_cases.py with torch 1.13; see tests/data/README.md) is
 * replayed by support/cases_replay.c, and every operator must have a kernel
 * that agrees with what torch did. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/cases_replay.h"
#include "support/plugin.h"
#include "tensoralias/exec.h"

static ta_registry *REG;
static ta_exec *X;
static void *HANDLE;

static ta_kernel_fn cpu_kernel(const ta_registry_op *op, void **ud) { return ta_registry_kernel_for(op, kDLCPU, ud); }

static void test_cases(void **state)
{
    (void)state;
    ta_replay r = {.ex = X, .reg = REG, .kernel = cpu_kernel, .skip_missing = false, .show = 40};
    ta_replay_cases(&r);
    fprintf(stderr, "%d cases, %d disagree with torch\n", r.seen, r.bad);
    assert_true(r.seen > 500);
    assert_int_equal(r.bad, 0);
}

static int setup(void **state)
{
    (void)state;
    ta_plugin_register_fn entry = ta_test_plugin_entry("libtensoralias_refkernels.so", &HANDLE);
    if (!entry) return -1;
    assert_int_equal(ta_registry_create(&REG), TA_OK);
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

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_cases)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
