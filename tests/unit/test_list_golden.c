/* test_list_golden.c - `tensoralias list --format json` against torchgen's
 * own list (torchgen-functions.jsonl, made by tools/torch/torchgen_list.py):
 * on the 1.13.1 yaml against torchgen 1.13.1, and on main's yaml against a
 * late torchgen (torch 2.11.0's, which adds pt2_compliant_tag to every aten
 * operator and passes view_copy on to derived variants). The same number of
 * rows, in the same order (the yaml's functions, then those it derives), and
 * in every row every field both have holds the same value. Runs the built
 * command ($TA, set by tests/run.sh); differences are counted (the first few
 * printed) and must be zero. */
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

typedef struct golden_case {
    const char *corpus;       /* tests/data/corpus/<corpus>/ */
    const char *golden;       /* data/golden/<golden>/torchgen-functions.jsonl */
    size_t rows, generated;   /* torchgen's counts, asserted */
    size_t rows_with_tag;     /* rows whose tags hold `tag` */
    const char *tag;
} golden_case;

static bool has_tag(json_t *row, const char *tag)
{
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(row, "tags"), i, t)
    {
        if (!strcmp(json_string_value(t), tag)) return true;
    }
    return false;
}

static void compare_with_torchgen(const golden_case *gc)
{
    const char *ta = getenv("TA");
    char cmd[2048], golden[512];
    snprintf(cmd, sizeof cmd,
             "'%s' list --format json --tags tests/data/corpus/%s/tags.yaml "
             "'%s/data/corpus/%s/native_functions.yaml'",
             ta, gc->corpus, ta_test_build_dir(), gc->corpus);
    snprintf(golden, sizeof golden, "%s/data/golden/%s/torchgen-functions.jsonl",
             ta_test_build_dir(), gc->golden);
    FILE *ours = popen(cmd, "r");
    FILE *want = fopen(golden, "r");
    assert_non_null(ours);
    assert_non_null(want);
    char *a = NULL, *b = NULL;
    size_t acap = 0, bcap = 0, rows = 0, generated = 0, compared = 0, tagged = 0;
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
        if (has_tag(o, gc->tag)) tagged++;
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
    fprintf(stderr, "%s: rows: %zu (generated %zu), fields compared: %zu, differences: %d\n",
            gc->corpus, rows, generated, compared, diffs);
    assert_int_equal(rc, 0);
    assert_int_equal(rows, gc->rows);
    assert_int_equal(generated, gc->generated);
    assert_int_equal(tagged, gc->rows_with_tag);
    /* every torchgen field is in the list: 15 per row */
    assert_int_equal(compared, rows * 15);
    assert_int_equal(diffs, 0);
}

static void test_list_equals_torchgen_1_13_1(void **state)
{
    (void)state;
    /* 1.13.1's tags.yaml declares neither core nor pt2_compliant_tag: the 39
     * view_copy rows are all yaml functions; their derived out= variants
     * do not get the tag (on main, 39 derived ones do) */
    golden_case gc = {"pytorch-1.13.1", "torch-1.13.1", 2952, 459, 39, "view_copy"};
    compare_with_torchgen(&gc);
}

static void test_list_equals_late_torchgen_main(void **state)
{
    (void)state;
    golden_case gc = {"pytorch-main", "torchgen-main", 3195, 520, 3195, "pt2_compliant_tag"};
    compare_with_torchgen(&gc);
}

int main(void)
{
    const char *ta = getenv("TA");
    if (!ta || !*ta) {
        printf("TA (the built command) is not set; run through tests/run.sh\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_equals_torchgen_1_13_1),
        cmocka_unit_test(test_list_equals_late_torchgen_main),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
