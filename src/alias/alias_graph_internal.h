/* alias_graph_internal.h - the alias graph handle, shared by the builder
 * (alias_graph.c), the graph-walking queries (alias_graph_query.c) and the writers
 * (alias_graph_dot.c, alias_graph_write.c). */
#ifndef TA_ALIAS_ALIAS_GRAPH_INTERNAL_H
#define TA_ALIAS_ALIAS_GRAPH_INTERNAL_H

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

/* igraph's handlers are per-thread settings: by default an error aborts
 * the process and a warning prints. The library does neither, so every
 * entry point that calls igraph swaps in the ignoring handlers (igraph then
 * unwinds and returns the error code, which we turn into a ta_status) and
 * restores the caller's afterwards. The C attribute table stays installed:
 * igraph needs it to free the attributes when a graph is destroyed. */
typedef struct ta_igraph_guard {
    igraph_error_handler_t *err;
    igraph_warning_handler_t *warn;
} ta_igraph_guard;

static inline ta_igraph_guard ta_igraph_enter(void)
{
    ta_igraph_guard g;
    g.err = igraph_set_error_handler(igraph_error_handler_ignore);
    g.warn = igraph_set_warning_handler(igraph_warning_handler_ignore);
    igraph_set_attribute_table(&igraph_cattribute_table);
    return g;
}

static inline void ta_igraph_leave(ta_igraph_guard g)
{
    igraph_set_error_handler(g.err);
    igraph_set_warning_handler(g.warn);
}

#endif
