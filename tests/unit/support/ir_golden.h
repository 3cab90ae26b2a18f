/* ir_golden.h - AliasDb ground truth for the whole-graph tests: the
 * default operator set (torch 1.13.1's registered operators, then the
 * bundled yaml's), graphs read with their class declarations, and a truth
 * file (golden/aliasdb-1.13.1/NAME.truth.jsonl) asked query by query. */
#ifndef TA_TEST_IR_GOLDEN_H
#define TA_TEST_IR_GOLDEN_H

#include <stddef.h>

#include "tensoralias/aliasdb.h"
#include "tensoralias/ir.h"

/* The whole default operator set (ta_ir_ops_add_default); NULL (and why on
 * stderr) on failure. Made once, freed at exit. */
const ta_ir_ops *ta_test_default_ops(void);

/* Reads $BUILD/data/<rel>.ir, with <rel>.classes declared first when that
 * file exists. NULL (and why on stderr) when it cannot be read. */
ta_ir_graph *ta_test_read_graph(const char *rel);
/* The same without the class declarations: classes as the graph shows them. */
ta_ir_graph *ta_test_read_graph_undeclared(const char *rel);

enum { TA_TEST_QUERY_KINDS = 6 };
extern const char *const ta_test_query_kinds[TA_TEST_QUERY_KINDS];

/* Per query kind (ta_test_query_kinds order): how many lines asked it, how
 * many answers differ from torch's, and how many of those give the unsafe
 * answer where torch gives the safe one ("no alias", "no writers", "can
 * move": unsound; the others are only more cautious than torch). */
typedef struct ta_truth_counts {
    size_t asked[TA_TEST_QUERY_KINDS], wrong[TA_TEST_QUERY_KINDS], unsound[TA_TEST_QUERY_KINDS];
    size_t unknown; /* lines the test could not ask (a name or kind it did not know) */
} ta_truth_counts;

/* Asks every query of $BUILD/data/<rel>.truth.jsonl of the analysis db of
 * graph g (built with ops), adding to *c; prints the first few wrong
 * answers. -1 when the file cannot be read. */
int ta_test_check_truth(const char *rel, const ta_ir_graph *g, const ta_ir_ops *ops,
                        const ta_aliasdb *db, ta_truth_counts *c, int show);

/* The names <rel> (without ".truth.jsonl") of every truth file under
 * $BUILD/data/<dir>, sorted; *n gets the count. malloc'd (free each, then
 * the array). */
char **ta_test_truth_files(const char *dir, size_t *n);

#endif
