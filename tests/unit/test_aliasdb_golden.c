/* test_aliasdb_golden.c - the whole-graph analysis against torch 1.13.1's
 * AliasDb, answer for answer.
 *
 * Every truth file under build/data/golden/aliasdb-1.13.1/ (the project's
 * shared ground truth: two torchvision models and three random graphs) and
 * its tensoralias/ directory (made by tools/torch/aliasdb_truth.py: more
 * models, functions reaching dicts, optionals, tuples, attributes, calls,
 * exceptions, AliasDb's special node kinds, and random graphs) is asked query by query through the
 * library: has_writers, may_contain_alias, may_alias, move_after,
 * move_before and the overload each node resolves to. Prints the counts per
 * file and query kind; every answer must be torch's. Then again with the
 * classes undeclared (as a graph alone shows them): no answer may be "no"
 * where torch's is "yes" (sound_convnext_tiny asks where that happened). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "support/ir_golden.h"
#include "support/testdata.h"

/* Whether the graph rel has class declarations (NAME.classes). */
static bool has_classes(const char *rel)
{
    char path[512], name[512];
    snprintf(name, sizeof name, "%s.classes", rel);
    FILE *f = fopen(ta_test_data_path(path, sizeof path, name), "rb");
    if (f) fclose(f);
    return f != NULL;
}

/* The analysis of every graph under dir against torch's answers. With
 * declared: the graphs' classes declared whole (NAME.classes), and every
 * answer must be torch's; without: the graphs that have classes, with them
 * as the graphs show them, and no answer may be the unsafe one where torch
 * gives the safe one (the analysis assumes an object of an undeclared class
 * may contain anything, so it says "may" more often). */
static void check_dir(const char *dir, size_t min_files, bool declared, ta_truth_counts *total)
{
    const ta_ir_ops *ops = ta_test_default_ops();
    assert_non_null(ops);
    size_t n;
    char **names = ta_test_truth_files(dir, &n);
    assert_non_null(names);
    assert_true(n >= min_files);
    for (size_t i = 0; i < n; i++) {
        if (!declared && !has_classes(names[i])) {
            free(names[i]);
            continue;
        }
        ta_ir_graph *g = declared ? ta_test_read_graph(names[i]) : ta_test_read_graph_undeclared(names[i]);
        assert_non_null(g);
        ta_aliasdb *db = NULL;
        ta_diags *d;
        assert_int_equal(ta_diags_create(&d), TA_OK);
        assert_int_equal(ta_aliasdb_create(g, ops, &db, d), TA_OK);
        /* every node of torch's graphs resolves; with the classes declared
         * there is nothing to say, without them one note at most */
        for (size_t k = 0; k < ta_diags_count(d); k++) assert_string_equal(ta_diags_get(d, k)->rule, "ir-class-undeclared");
        assert_true(ta_diags_count(d) <= (declared ? 0 : 1));
        ta_truth_counts c = {{0}, {0}, {0}, 0};
        assert_int_equal(ta_test_check_truth(names[i], g, ops, db, &c, declared ? 5 : 0), 0);
        size_t wrong = 0, unsafe = 0;
        printf("%-52s", names[i]);
        for (int k = 0; k < TA_TEST_QUERY_KINDS; k++) {
            if (c.asked[k] && declared) printf(" %s %zu/%zu", ta_test_query_kinds[k], c.asked[k] - c.wrong[k], c.asked[k]);
            wrong += c.wrong[k];
            unsafe += c.unsound[k];
            total->asked[k] += c.asked[k];
            total->wrong[k] += c.wrong[k];
            total->unsound[k] += c.unsound[k];
        }
        if (!declared) printf(" %zu answers differ, %zu on the unsafe side", wrong, unsafe);
        printf("\n");
        total->unknown += c.unknown;
        ta_aliasdb_destroy(db);
        ta_diags_destroy(d);
        ta_ir_graph_destroy(g);
        free(names[i]);
    }
    free(names);
}

static void test_golden(void **state)
{
    (void)state;
    ta_truth_counts total = {{0}, {0}, {0}, 0};
    check_dir("golden/aliasdb-1.13.1", 5, true, &total);
    check_dir("golden/aliasdb-1.13.1/tensoralias", 20, true, &total);
    size_t wrong = 0;
    for (int k = 0; k < TA_TEST_QUERY_KINDS; k++) {
        printf("%-18s %7zu asked, %zu wrong\n", ta_test_query_kinds[k], total.asked[k], total.wrong[k]);
        assert_true(total.asked[k] > 0);
        wrong += total.wrong[k];
    }
    assert_int_equal(total.unknown, 0);
    assert_int_equal(wrong, 0);
}

/* Classes left undeclared: over-approximations only. */
static void test_sound_undeclared(void **state)
{
    (void)state;
    ta_truth_counts total = {{0}, {0}, {0}, 0};
    check_dir("golden/aliasdb-1.13.1", 5, false, &total);
    check_dir("golden/aliasdb-1.13.1/tensoralias", 20, false, &total);
    size_t unsound = 0, wrong = 0;
    for (int k = 0; k < TA_TEST_QUERY_KINDS; k++) {
        printf("%-18s %7zu asked, %zu differ on the safe side, %zu on the unsafe side\n", ta_test_query_kinds[k],
               total.asked[k], total.wrong[k] - total.unsound[k], total.unsound[k]);
        unsound += total.unsound[k];
        wrong += total.wrong[k];
    }
    assert_int_equal(total.unknown, 0);
    assert_int_equal(unsound, 0);
    assert_true(wrong > 0); /* the models' classes have attributes their graphs never read */
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_golden), cmocka_unit_test(test_sound_undeclared)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
