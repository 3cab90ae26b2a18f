/* test_aliasdb_igraph.c - the analysis seen through igraph, independently
 * of how the build computes it.
 *
 * On every graph of the ground truth: the points-to and containment graph
 * is acyclic (igraph_is_dag; torch would recurse forever on a cycle), and
 * for every element the memory locations the build gives are exactly what
 * igraph's breadth-first search reaches over points-to edges and finds
 * pointing nowhere, plus only wildcards (added where MemoryDAG::setWildcards
 * redirects a wildcard value's locations). The GraphML writer produces a
 * document with a vertex per location. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <igraph.h>

#include "alias/alias_graph_internal.h"
#include "alias/aliasdb/aliasdb_internal.h"
#include "support/ir_golden.h"

/* The subgraph of points-to edges only. */
static void points_to_only(const igraph_t *g, igraph_t *out)
{
    igraph_vector_int_t drop;
    assert_int_equal(igraph_vector_int_init(&drop, 0), IGRAPH_SUCCESS);
    for (igraph_integer_t e = 0; e < igraph_ecount(g); e++)
        if (strcmp(EAS(g, "kind", e), "points-to")) igraph_vector_int_push_back(&drop, e);
    assert_int_equal(igraph_copy(out, g), IGRAPH_SUCCESS);
    igraph_es_t es;
    igraph_es_vector(&es, &drop);
    assert_int_equal(igraph_delete_edges(out, es), IGRAPH_SUCCESS);
    igraph_es_destroy(&es);
    igraph_vector_int_destroy(&drop);
}

static size_t check_graph(const char *rel, const ta_ir_ops *ops)
{
    ta_ir_graph *g = ta_test_read_graph(rel);
    assert_non_null(g);
    ta_aliasdb *db = NULL;
    assert_int_equal(ta_aliasdb_create(g, ops, &db, NULL), TA_OK);
    igraph_t ig, pts;
    assert_int_equal(adb_to_igraph(db, &ig), TA_OK);
    ta_igraph_guard guard = ta_igraph_enter();
    igraph_bool_t dag = false;
    assert_int_equal(igraph_is_dag(&ig, &dag), IGRAPH_SUCCESS);
    assert_true(dag);
    assert_int_equal(igraph_vcount(&ig), db->nelems);
    points_to_only(&ig, &pts);
    igraph_vector_int_t reach, outdeg;
    igraph_vector_int_init(&reach, 0);
    igraph_vector_int_init(&outdeg, 0);
    igraph_degree(&pts, &outdeg, igraph_vss_all(), IGRAPH_OUT, false);
    size_t checked = 0;
    for (uint32_t e = 0; e < db->nelems; e++) {
        assert_int_equal(igraph_subcomponent(&pts, &reach, e, IGRAPH_OUT), IGRAPH_SUCCESS);
        const adb_set *locs = &db->elems[e].locs;
        size_t sinks = 0;
        for (igraph_integer_t i = 0; i < igraph_vector_int_size(&reach); i++) {
            igraph_integer_t x = VECTOR(reach)[i];
            if (VECTOR(outdeg)[x] != 0) continue;
            sinks++;
            if (!adb_set_has(locs, (uint32_t)x)) {
                printf("%s: element %u reaches %ld, not among its locations\n", rel, e, (long)x);
                fail();
            }
        }
        const uint32_t *d = adb_set_data(locs);
        for (uint32_t i = 0; i < locs->n; i++) {
            bool is_sink = false;
            for (igraph_integer_t k = 0; k < igraph_vector_int_size(&reach) && !is_sink; k++)
                is_sink = VECTOR(reach)[k] == d[i] && VECTOR(outdeg)[d[i]] == 0;
            if (!is_sink && db->elems[d[i]].value) {
                printf("%s: element %u has location %u igraph does not reach\n", rel, e, d[i]);
                fail();
            }
        }
        checked++;
        (void)sinks;
    }
    igraph_vector_int_destroy(&reach);
    igraph_vector_int_destroy(&outdeg);
    igraph_destroy(&pts);
    igraph_destroy(&ig);
    ta_igraph_leave(guard);
    ta_aliasdb_destroy(db);
    ta_ir_graph_destroy(g);
    return checked;
}

static void test_reachability(void **state)
{
    (void)state;
    const ta_ir_ops *ops = ta_test_default_ops();
    assert_non_null(ops);
    static const char *const dirs[] = {"golden/aliasdb-1.13.1", "golden/aliasdb-1.13.1/tensoralias"};
    size_t graphs = 0, elements = 0;
    for (size_t k = 0; k < 2; k++) {
        size_t n;
        char **names = ta_test_truth_files(dirs[k], &n);
        assert_non_null(names);
        for (size_t i = 0; i < n; i++) {
            elements += check_graph(names[i], ops);
            graphs++;
            free(names[i]);
        }
        free(names);
    }
    printf("%zu graphs, %zu elements: acyclic, locations as igraph reaches them\n", graphs, elements);
    assert_true(graphs >= 30);
}

static void test_graphml(void **state)
{
    (void)state;
    ta_ir_graph *g = ta_test_read_graph("golden/aliasdb-1.13.1/synth_1_40");
    assert_non_null(g);
    ta_aliasdb *db = NULL;
    assert_int_equal(ta_aliasdb_create(g, ta_test_default_ops(), &db, NULL), TA_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(ta_aliasdb_write_graphml(db, f), TA_OK);
    fclose(f);
    assert_non_null(strstr(buf, "<graphml"));
    size_t nodes = 0;
    for (const char *p = buf; (p = strstr(p, "<node id=")); p++) nodes++;
    assert_int_equal(nodes, ta_aliasdb_location_count(db));
    assert_non_null(strstr(buf, "<data key=\"name\">*Tensor</data>"));
    free(buf);
    ta_aliasdb_destroy(db);
    ta_ir_graph_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_reachability), cmocka_unit_test(test_graphml)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
