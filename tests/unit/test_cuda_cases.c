/* test_cuda_cases.c - the CUDA reference kernels against PyTorch itself: the
 * differential cases of build/data/refkernels/cases.jsonl (torch 1.13's own
 * results for given arguments, exact storages, strides and offsets; see
 * tests/data/README.md) replayed by support/cases_replay.c for every operator
 * that has a CUDA kernel. Torch raised: the kernel must refuse. Torch
 * returned: same dtype, shape and values; for views the same strides and
 * offset; the same argument returned for out= and in-place; storage shared
 * with the same inputs. Runs on the GPU when there is one, else on the
 * library's host emulation (TA_CUDA_EMULATE). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cuda_test_util.h"
#include "support/cases_replay.h"

static void *lib;
static const ta_device_ops *dev;
static ta_registry *reg;
static ta_exec *ex;

/* Only the CUDA kernel itself: no fallback to a catch-all. */
static ta_kernel_fn cuda_kernel(const ta_registry_op *op, void **ud)
{
    *ud = op->user_data[TA_KEY_CUDA];
    return op->kernels[TA_KEY_CUDA];
}

static void test_cases(void **state)
{
    (void)state;
    ta_replay r = {.ex = ex, .reg = reg, .kernel = cuda_kernel, .skip_missing = true, .show = 60};
    ta_replay_cases(&r);
    print_message("%d cases for CUDA kernels (of %d), %d disagree with torch\n", r.ran, r.seen, r.bad);
    assert_true(r.ran > 500);
    assert_int_equal(r.bad, 0);
}

int main(void)
{
    int rc = cuda_lib_open(&lib);
    if (rc != 0) return rc;
    if (!(dev = cuda_ops_of(lib))) {
        printf("%s has no device table\n", cuda_lib_path());
        return 1;
    }
    char why[512];
    if (dev->available(why, sizeof why) != 0) {
        print_message("%s: running on the host emulation\n", why);
        setenv("TA_CUDA_EMULATE", "1", 1);
    }
    cuda_fixture *f = cuda_fixture_create(dev);
    if (!f) {
        printf("cannot register the CUDA kernels\n");
        return 1;
    }
    reg = f->reg;
    ex = f->x;
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_cases)};
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    cuda_fixture_destroy(f);
    return failed;
}
