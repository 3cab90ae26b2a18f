/* test_native_names.c - the yaml vocabularies' look-ups: every entry key
 * maps to its id and back, near misses map to nothing; the dispatch keys
 * found without the binary search and those found with it, and keys that
 * differ from known ones by a byte or a length. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "schema/native_internal.h"
#include "tensoralias/native.h"

static void test_key_ids(void **state)
{
    (void)state;
    for (int k = 0; k < TA_NK_COUNT; k++) {
        const char *name = ta_native_key_name((ta_native_key)k);
        assert_non_null(name);
        assert_int_equal(ta_native_key_id(name), k);
    }
    static const char *const unknown[] = {"", "fun", "funcs", "Func", "dispatch_", "tag",
                                          "structure", "bogus", "zzz", "_func", "9"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        assert_int_equal(ta_native_key_id(unknown[i]), -1);
}

static bool known(const char *k) { return ta_dispatch_key_known(k, strlen(k)); }

static void test_dispatch_keys(void **state)
{
    (void)state;
    static const char *const yes[] = {
        "CPU", "MPS", "CUDA", "Meta", "SparseCPU", "SparseCUDA", "QuantizedCPU",
        "SparseCsrCPU", "SparseCsrCUDA", "CompositeExplicitAutograd",
        "CompositeImplicitAutograd", "CompositeExplicitAutogradNonFunctional", "Autocast",
        "ZeroTensor", "XLA", "VE", "MkldnnCPU", "NestedTensorCPU", "NestedTensorCUDA"};
    static const char *const no[] = {
        "CPX", "Cpu", "CUDx", "Metal2", "SparseCPx", "SparseCUDa", "QuantizedCPx",
        "SparseCsrCPx", "SparseCsrCUDx", "CompositeExplicitAutograX",
        "CompositeImplicitAutogradX", "", "C", "ZZZ"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) assert_true(known(yes[i]));
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) assert_false(known(no[i]));
    /* the length bounds the compare: a prefix of a known key is not known */
    assert_false(ta_dispatch_key_known("CPUX", 2));
    assert_true(ta_dispatch_key_known("CPUX", 3));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_ids),
        cmocka_unit_test(test_dispatch_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
