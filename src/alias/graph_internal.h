/* graph_internal.h - the alias graph handle, shared by the builder
 * (graph.c), the graph-walking queries (graph_query.c) and the writers
 * (graph_dot.c, graph_write.c). */
#ifndef TA_ALIAS_GRAPH_INTERNAL_H
#define TA_ALIAS_GRAPH_INTERNAL_H

#include <igraph.h>

#include "alias/query_internal.h"

struct ta_alias_graph {
    igraph_t g;
    const ta_schema *s;
    ta_alias_query *q;   /* the summary the graph was drawn from */
    uint32_t nslots;     /* vertices [0, nslots): inputs then outputs */
    uint32_t set0;       /* vertices [set0, set0 + nsets): named sets */
    uint32_t wildcard;   /* the wildcard vertex */
};

#endif
