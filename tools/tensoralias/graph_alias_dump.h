/* graph_alias_dump.h - what `tensoralias graph-alias` prints without
 * --queries: every value's aliasing, as text, JSON lines or Graphviz dot. */
#ifndef TA_GRAPH_ALIAS_DUMP_H
#define TA_GRAPH_ALIAS_DUMP_H

#include <stdio.h>

#include "tensoralias/aliasdb.h"
#include "tensoralias/ir.h"

typedef enum ta_dump_format { TA_DUMP_TEXT, TA_DUMP_JSON, TA_DUMP_DOT } ta_dump_format;

/* Writes one record per value (graph inputs, then each node's outputs and
 * block parameters in print order): its type, the locations it may point
 * to and contain, whether it is a wildcard, and the nodes that may write
 * it. Returns 0, or -1 on a write error. */
int ta_graph_alias_dump(const ta_ir_graph *g, const ta_aliasdb *db, ta_dump_format format, FILE *out);

#endif
