/* fuzz_alias.c - libFuzzer target for the alias layer: whatever schema the
 * parser accepts, the query summary, the igraph graph, its three writers and
 * the schema rules must neither crash nor leak; and the summary and the
 * graph must answer every pair alike. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tensoralias/alias.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ta_arena *a = NULL;
    ta_diags *d = NULL;
    ta_schema *s = NULL;
    if (ta_arena_create(&a) == TA_OK && ta_diags_create(&d) == TA_OK &&
        ta_schema_parse(a, (const char *)data, size, NULL, &s, d) == TA_OK) {
        ta_alias_query *q = NULL;
        ta_alias_graph *g = NULL;
        if (ta_alias_query_create(s, &q, d) == TA_OK && ta_alias_graph_create(s, &g, d) == TA_OK) {
            uint32_t nin = ta_alias_query_ninputs(q), n = nin + ta_alias_query_noutputs(q);
            for (uint32_t x = 0; x < n && x < 24; x++)
                for (uint32_t y = x + 1; y < n && y < 24; y++) {
                    ta_slot sx = x < nin ? ta_in(x) : ta_out(x - nin);
                    ta_slot sy = y < nin ? ta_in(y) : ta_out(y - nin);
                    if (ta_alias_query_may_alias(q, sx, sy) != ta_alias_graph_may_alias(g, sx, sy) ||
                        ta_alias_query_may_contain_alias(q, sx, sy) != ta_alias_graph_may_contain_alias(g, sx, sy))
                        abort();
                }
            FILE *null = fopen("/dev/null", "w");
            if (null) {
                ta_alias_graph_write_dot(g, null);
                ta_alias_graph_write_graphml(g, null);
                ta_alias_graph_write_json(g, null);
                fclose(null);
            }
            ta_alias_check_schema(s, d);
        }
        ta_alias_graph_destroy(g);
        ta_alias_query_destroy(q);
    }
    ta_diags_destroy(d);
    ta_arena_destroy(a);
    return 0;
}
