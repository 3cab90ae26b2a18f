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
 * file and query kind; every answer must be torch's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "support/ir_golden.h"

static void check_dir(const char *dir, size_t min_files, ta_truth_counts *total)
{
    const ta_ir_ops *ops = ta_test_default_ops();
    assert_non_null(ops);
    size_t n;
    char **names = ta_test_truth_files(dir, &n);
    assert_non_null(names);
    assert_true(n >= min_files);
    for (size_t i = 0; i < n; i++) {
        ta_ir_graph *g = ta_test_read_graph(names[i]);
        assert_non_null(g);
        ta_aliasdb *db = NULL;
        ta_diags *d;
        assert_int_equal(ta_diags_create(&d), TA_OK);
        assert_int_equal(ta_aliasdb_create(g, ops, &db, d), TA_OK);
        /* every node of torch's graphs resolves: no conservative guesses */
        assert_int_equal(ta_diags_count(d), 0);
        ta_truth_counts c = {{0}, {0}, 0};
        assert_int_equal(ta_test_check_truth(names[i], g, ops, db, &c, 5), 0);
        printf("%-52s", names[i]);
        for (int k = 0; k < TA_TEST_QUERY_KINDS; k++) {
            if (c.asked[k]) printf(" %s %zu/%zu", ta_test_query_kinds[k], c.asked[k] - c.wrong[k], c.asked[k]);
            total->asked[k] += c.asked[k];
            total->wrong[k] += c.wrong[k];
        }
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
    ta_truth_counts total = {{0}, {0}, 0};
    check_dir("golden/aliasdb-1.13.1", 5, &total);
    check_dir("golden/aliasdb-1.13.1/tensoralias", 20, &total);
    size_t wrong = 0;
    for (int k = 0; k < TA_TEST_QUERY_KINDS; k++) {
        printf("%-18s %7zu asked, %zu wrong\n", ta_test_query_kinds[k], total.asked[k], total.wrong[k]);
        assert_true(total.asked[k] > 0);
        wrong += total.wrong[k];
    }
    assert_int_equal(total.unknown, 0);
    assert_int_equal(wrong, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_golden)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
