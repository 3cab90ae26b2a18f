/* test_alias_golden.c - the alias queries against torch 1.13.1.
 *
 * For every schema of build/data/golden/torch-1.13.1/schema-alias.jsonl
 * (4,165): parse the schema text, build the compact query summary and
 * compare is_mutable, mutable_args, may_alias and may_contain_alias with
 * what torch._C._SchemaInfo answered (same pairs, same order). Then build
 * the igraph alias graph and check that answering by walking it agrees with
 * the summary on every pair of slots. Prints the first mismatches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "support/testdata.h"
#include "tensoralias/alias.h"

#include "support/golden.h"

static const char *const keys[] = {"is_mutable", "mutable_args", "may_alias", "may_contain_alias"};

static void test_golden(void **state)
{
    (void)state;
    size_t nrows = 0;
    json_t **golden = ta_test_read_jsonl("golden/torch-1.13.1/schema-alias.jsonl", &nrows);
    assert_non_null(golden);
    int rows = 0, parsed = 0, bad[4] = {0}, shown = 0, graph_bad = 0;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    for (size_t r = 0; r < nrows; r++) {
        const json_t *row = golden[r];
        rows++;
        const char *text = json_string_value(json_object_get(row, "schema"));
        ta_arena *arena;
        assert_int_equal(ta_arena_create(&arena), TA_OK);
        ta_schema *s = NULL;
        if (ta_schema_parse(arena, text, strlen(text), NULL, &s, d) != TA_OK) {
            if (shown++ < 10) printf("parse failed: %s\n", text);
            ta_arena_destroy(arena);
            for (int k = 0; k < 4; k++) bad[k]++;
            continue;
        }
        parsed++;
        ta_alias_query *q = NULL;
        assert_int_equal(ta_alias_query_create(s, &q, d), TA_OK);
        json_t *mine = ta_golden_query_json(q);
        for (int k = 0; k < 4; k++) {
            json_t *g = json_object_get(row, keys[k]), *m = json_object_get(mine, keys[k]);
            if (!json_equal(g, m)) {
                bad[k]++;
                if (shown++ < 10) {
                    char *gs = json_dumps(g, JSON_COMPACT), *ms = json_dumps(m, JSON_COMPACT);
                    printf("%s: %s\n  torch %s\n  ours  %s\n", keys[k], text, gs, ms);
                    free(gs);
                    free(ms);
                }
            }
        }
        /* the graph view agrees with the summary */
        ta_alias_graph *g = NULL;
        assert_int_equal(ta_alias_graph_create(s, &g, d), TA_OK);
        uint32_t nin = ta_alias_query_ninputs(q), n = nin + ta_alias_query_noutputs(q);
        for (uint32_t i = 0; i < nin; i++)
            if (ta_alias_graph_is_mutable_input(g, i) != ta_alias_query_is_mutable_input(q, i)) graph_bad++;
        for (uint32_t a = 0; a < n; a++)
            for (uint32_t b = a + 1; b < n; b++) {
                ta_slot sa = a < nin ? ta_in(a) : ta_out(a - nin);
                ta_slot sb = b < nin ? ta_in(b) : ta_out(b - nin);
                if (ta_alias_graph_may_alias(g, sa, sb) != ta_alias_query_may_alias(q, sa, sb) ||
                    ta_alias_graph_may_contain_alias(g, sa, sb) != ta_alias_query_may_contain_alias(q, sa, sb)) {
                    if (graph_bad++ < 5) printf("graph disagrees on %s (%u, %u)\n", text, a, b);
                }
            }
        ta_alias_graph_destroy(g);
        json_decref(mine);
        ta_alias_query_destroy(q);
        ta_arena_destroy(arena);
    }
    ta_test_free_jsonl(golden, nrows);
    ta_diags_destroy(d);
    printf("%d schemas, %d parsed; mismatches: is_mutable %d, mutable_args %d, may_alias %d, "
           "may_contain_alias %d; graph/summary disagreements %d\n",
           rows, parsed, bad[0], bad[1], bad[2], bad[3], graph_bad);
    assert_int_equal(rows, 4165);
    assert_int_equal(parsed, rows);
    for (int k = 0; k < 4; k++) assert_int_equal(bad[k], 0);
    assert_int_equal(graph_bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_golden)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
