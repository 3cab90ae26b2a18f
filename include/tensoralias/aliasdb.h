/* tensoralias/aliasdb.h - whole-graph alias analysis: TorchScript's AliasDb
 * (torch 1.13.1, torch/csrc/jit/ir/alias_analysis.cpp), answer for answer,
 * in C.
 *
 * Every value of a mutable type (Tensor, lists, dicts, class objects, and
 * tuples, optionals and futures holding them) gets an element in a
 * points-to graph; an element that points to nothing is a memory location.
 * Two values may alias when their memory locations intersect, and may
 * contain an alias when the locations they or anything they contain may
 * point to intersect. A node writes the locations its schema marks written
 * ("!"). Values whose origin the analysis cannot follow (graph inputs,
 * anything put into a container or taken out of one, attributes, results of
 * unknown or conservative operators) are wildcards: they may alias every
 * other wildcard of their type. Nodes are analysed from their schemas (the
 * overload a ta_ir_ops set resolves), with AliasDb's special cases for
 * prim::If, prim::Loop, containers, attributes, batch_norm and the rest; a
 * node no schema fits is analysed conservatively (it may write everything
 * it is given, its outputs are wildcards, it is never reordered) and
 * reported as a note.
 *
 * The analysis describes the graph as it was when built; moving nodes
 * (ta_aliasdb_move_*) keeps it valid, any other edit needs a new one
 * (ta_aliasdb_create again: building is cheap). Queries do not change the
 * analysis; one analysis may be queried from several threads. The few
 * queries that need scratch memory (contained locations, moves) answer the
 * safe way when they cannot get it: "may contain an alias", "cannot move".
 */
#ifndef TENSORALIAS_ALIASDB_H
#define TENSORALIAS_ALIASDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tensoralias/diag.h"
#include "tensoralias/export.h"
#include "tensoralias/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ta_aliasdb ta_aliasdb;

/* Analyses g with the operators of ops (both must outlive the analysis).
 * Notes (rule "ir-no-schema") for nodes no schema fits. TA_ERR_NOMEM is the
 * only failure. */
TA_API ta_status ta_aliasdb_create(const ta_ir_graph *g, const ta_ir_ops *ops,
                                   ta_aliasdb **out, ta_diags *diags);
TA_API void ta_aliasdb_destroy(ta_aliasdb *db);

/* ---- queries (AliasDb's, by the same names) ------------------------------ */

/* mayAlias: v and w may share memory. */
TA_API bool ta_aliasdb_may_alias(const ta_aliasdb *db, const ta_ir_value *v, const ta_ir_value *w);
/* mayContainAlias: v or anything it contains may share memory with w or
 * anything w contains. */
TA_API bool ta_aliasdb_may_contain_alias(const ta_aliasdb *db, const ta_ir_value *v,
                                         const ta_ir_value *w);
/* The same for two lists of values. */
TA_API bool ta_aliasdb_may_contain_alias_any(const ta_aliasdb *db, const ta_ir_value *const *a,
                                             size_t na, const ta_ir_value *const *b, size_t nb);
/* hasWriters: some node of the graph may write memory v may point to. */
TA_API bool ta_aliasdb_has_writers(const ta_aliasdb *db, const ta_ir_value *v);
/* The nodes that may write memory v may point to, in program order (at most
 * cap into out; returns how many there are). Walks the whole graph. */
TA_API size_t ta_aliasdb_writers(const ta_aliasdb *db, const ta_ir_value *v,
                                 const ta_ir_node **out, size_t cap);
/* writesToAlias: n (or a node in its blocks) may write memory one of the
 * values may point to. */
TA_API bool ta_aliasdb_writes_to_alias(const ta_aliasdb *db, const ta_ir_node *n,
                                       const ta_ir_value *const *values, size_t nvalues);
/* The locations n itself writes (not the nodes of its blocks), sorted. */
TA_API const uint32_t *ta_aliasdb_node_written(const ta_aliasdb *db, const ta_ir_node *n, size_t *count);
/* Whether n or a node in its blocks writes anything at all. */
TA_API bool ta_aliasdb_node_writes(const ta_aliasdb *db, const ta_ir_node *n);
/* mayAliasWildcard: v may alias the wildcard of its type (it escapes). */
TA_API bool ta_aliasdb_may_alias_wildcard(const ta_aliasdb *db, const ta_ir_value *v);
/* Whether the analysis made v a wildcard. */
TA_API bool ta_aliasdb_is_wildcard(const ta_aliasdb *db, const ta_ir_value *v);
/* Whether AliasDb counts n as having side effects (never reordered). */
TA_API bool ta_aliasdb_has_side_effects(const ta_aliasdb *db, const ta_ir_node *n);

/* moveAfterTopologicallyValid / moveBeforeTopologicallyValid, without
 * moving: whether n can be moved just after / before m (same block) keeping
 * every data dependency and the order of every write against the reads and
 * writes of what it may alias, taking along the nodes that depend on n as
 * AliasDb does. */
TA_API bool ta_aliasdb_can_move_after(const ta_aliasdb *db, const ta_ir_node *n,
                                      const ta_ir_node *m);
TA_API bool ta_aliasdb_can_move_before(const ta_aliasdb *db, const ta_ir_node *n,
                                       const ta_ir_node *m);
/* The same, performing the move when it is valid (*moved says whether it
 * was). The analysis stays valid. TA_ERR_NOMEM only. */
TA_API ta_status ta_aliasdb_move_after(ta_aliasdb *db, ta_ir_node *n, ta_ir_node *m, bool *moved);
TA_API ta_status ta_aliasdb_move_before(ta_aliasdb *db, ta_ir_node *n, ta_ir_node *m, bool *moved);

/* ---- what the analysis found -------------------------------------------- */

/* How a node was analysed. */
typedef enum ta_aliasdb_how {
    TA_ALIASDB_SCHEMA = 0,     /* from its schema's annotations */
    TA_ALIASDB_SPECIAL,        /* one of AliasDb's special cases (prim::If, ...) */
    TA_ALIASDB_PURE,           /* a pure function: fresh outputs */
    TA_ALIASDB_CONSERVATIVE,   /* its operator is registered as conservative */
    TA_ALIASDB_NO_SCHEMA       /* no schema fits: analysed conservatively */
} ta_aliasdb_how;

TA_API ta_aliasdb_how ta_aliasdb_node_how(const ta_aliasdb *db, const ta_ir_node *n);
/* The operator the node resolved to, or NULL (special cases, no schema). */
TA_API const ta_ir_op *ta_aliasdb_node_op(const ta_aliasdb *db, const ta_ir_node *n);

/* Memory locations are numbered elements of the points-to graph. The
 * locations v may point to, sorted; *n gets their count (0 for a value of
 * an immutable type). */
TA_API const uint32_t *ta_aliasdb_locations(const ta_aliasdb *db, const ta_ir_value *v, size_t *n);
/* The elements v and what it contains may reach (v's own element, its
 * locations and, through them, everything contained), sorted: at most cap
 * into out; returns how many there are. */
TA_API size_t ta_aliasdb_contained_locations(const ta_aliasdb *db, const ta_ir_value *v, uint32_t *out,
                                             size_t cap);
/* A location is a value's own memory, or the wildcard of a type. */
TA_API const ta_ir_value *ta_aliasdb_location_value(const ta_aliasdb *db, uint32_t loc);
TA_API const ta_ir_type *ta_aliasdb_location_wildcard(const ta_aliasdb *db, uint32_t loc);
TA_API uint32_t ta_aliasdb_location_count(const ta_aliasdb *db);

/* The points-to graph in GraphML (igraph's writer): a vertex per location
 * ("name": "%x", or "*Tensor" for a wildcard; "wildcard" 0/1; "open" 1 for
 * an object of a class not declared whole, which contains every wildcard),
 * an edge per points-to or containment ("kind"). TA_ERR_IO on a write error. */
TA_API ta_status ta_aliasdb_write_graphml(const ta_aliasdb *db, FILE *out);

/* What the analysis found, for people (what `tensoralias graph-alias`
 * prints). TEXT and JSON have a record per value, in print order (graph
 * inputs, then each node's outputs and its blocks' parameters): its type,
 * the locations it may point to and contain, whether it is a wildcard, the
 * nodes that may write it (kind and line):
 *   %t : Tensor points-to {%a} contains {%a, %t} written-by aten::relu_@6
 *   {"value": "%t", "type": "Tensor", "points_to": ["%a"], "contains": [...],
 *    "wildcard": false, "writers": [{"kind": "aten::relu_", "line": 6}]}
 * (a location is "%x", the memory of value %x, or "*Tensor", the wildcard of
 * a type; an immutable value is "%i : int immutable"). DOT draws it for
 * Graphviz: a box per value, an ellipse per location (a gold octagon for a
 * wildcard), points-to edges, contained locations dashed blue, writing nodes
 * and their writes in red. GRAPHML is ta_aliasdb_write_graphml. */
typedef enum ta_aliasdb_format {
    TA_ALIASDB_TEXT = 0,
    TA_ALIASDB_JSON,
    TA_ALIASDB_DOT,
    TA_ALIASDB_GRAPHML
} ta_aliasdb_format;

/* TA_ERR_IO on a write error, TA_ERR_NOMEM. */
TA_API ta_status ta_aliasdb_write(const ta_aliasdb *db, ta_aliasdb_format format, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
