/* test_list_golden.c - `tensoralias list --format json` on the 1.13.1 yaml
 * against torchgen 1.13.1's own list (torchgen-functions.jsonl): the same
 * number of rows, in the same order (the yaml's functions, then the 459 it
 * derives), and in every row every field both have holds the same value.
 * Runs the built command ($TA, set by tests/run.sh); differences are counted
 * (the first few printed) and must be zero. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "support/testdata.h"

static void test_list_equals_torchgen(void **state)
{
    (void)state;
    const char *ta = getenv("TA");
    char cmd[2048], golden[512];
    snprintf(cmd, sizeof cmd,
             "'%s' list --format json --tags tests/data/corpus/pytorch-1.13.1/tags.yaml "
             "'%s/data/corpus/pytorch-1.13.1/native_functions.yaml'",
             ta, ta_test_build_dir());
    snprintf(golden, sizeof golden, "%s/data/golden/torch-1.13.1/torchgen-functions.jsonl",
             ta_test_build_dir());
    FILE *ours = popen(cmd, "r");
    FILE *want = fopen(golden, "r");
    assert_non_null(ours);
    assert_non_null(want);
    char *a = NULL, *b = NULL;
    size_t acap = 0, bcap = 0, rows = 0, generated = 0, compared = 0;
    int diffs = 0;
    for (;;) {
        ssize_t na = getline(&a, &acap, ours), nb = getline(&b, &bcap, want);
        if (na <= 0 || nb <= 0) {
            if ((na > 0) != (nb > 0)) {
                fprintf(stderr, "row %zu: %s has more rows\n", rows, na > 0 ? "ours" : "torchgen");
                diffs++;
            }
            break;
        }
        rows++;
        json_error_t err;
        json_t *o = json_loads(a, 0, &err), *w = json_loads(b, 0, &err);
        assert_non_null(o);
        assert_non_null(w);
        if (json_is_true(json_object_get(w, "generated"))) generated++;
        const char *key;
        json_t *wv;
        json_object_foreach(w, key, wv)
        {
            json_t *ov = json_object_get(o, key);
            if (!ov) continue; /* a field the list does not have */
            compared++;
            if (json_equal(ov, wv)) continue;
            if (diffs++ < 10) {
                char *ws = json_dumps(wv, JSON_ENCODE_ANY), *os = json_dumps(ov, JSON_ENCODE_ANY);
                fprintf(stderr, "row %zu (%s) %s: torchgen %s, ours %s\n", rows,
                        json_string_value(json_object_get(w, "name")), key, ws, os);
                free(ws);
                free(os);
            }
        }
        json_decref(o);
        json_decref(w);
    }
    free(a);
    free(b);
    int rc = pclose(ours);
    fclose(want);
    fprintf(stderr, "rows: %zu (generated %zu), fields compared: %zu, differences: %d\n", rows,
            generated, compared, diffs);
    assert_int_equal(rc, 0);
    assert_int_equal(rows, 2952);
    assert_int_equal(generated, 459);
    /* every torchgen field is in the list: 15 per row */
    assert_int_equal(compared, rows * 15);
    assert_int_equal(diffs, 0);
}

int main(void)
{
    const char *ta = getenv("TA");
    if (!ta || !*ta) {
        printf("TA (the built command) is not set; run through tests/run.sh\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_equals_torchgen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
