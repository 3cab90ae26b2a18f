/* tensoralias/alias.h - alias-set graphs of one schema, and the alias and
 * mutation queries torch answers about it.
 *
 * Two views of the same facts:
 *  - ta_alias_query: a compact, precomputed summary (bitsets over alias sets
 *    and over the types that can hold aliases, per slot). It answers
 *    is_mutable, may_alias and may_contain_alias exactly as torch 1.13.1's
 *    torch._C._SchemaInfo does when given no argument values.
 *  - ta_alias_graph: an igraph graph (inputs, outputs, container contents,
 *    alias sets, the wildcard; membership, write and containment edges),
 *    for people and tools: it writes itself as Graphviz dot, GraphML or JSON,
 *    and can answer the same queries by walking its edges (a test checks both
 *    views agree).
 * A slot is an input (argument) or an output (return), by index.
 */
#ifndef TENSORALIAS_ALIAS_H
#define TENSORALIAS_ALIAS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tensoralias/diag.h"
#include "tensoralias/export.h"
#include "tensoralias/extract.h"
#include "tensoralias/native.h"
#include "tensoralias/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ta_slot_kind { TA_SLOT_IN = 0, TA_SLOT_OUT = 1 } ta_slot_kind;

typedef struct ta_slot {
    ta_slot_kind kind;
    uint32_t index;
} ta_slot;

static inline ta_slot ta_in(uint32_t i) { ta_slot s = {TA_SLOT_IN, i}; return s; }
static inline ta_slot ta_out(uint32_t i) { ta_slot s = {TA_SLOT_OUT, i}; return s; }

/* ---- queries ------------------------------------------------------------ */

typedef struct ta_alias_query ta_alias_query;

/* Summarizes s (which must outlive the result). TA_ERR_UNSUPPORTED with a
 * diagnostic (rule "alias-limits") when the schema names more than 64
 * distinct alias sets or more than 46 distinct class types. diags may be
 * NULL. */
TA_API ta_status ta_alias_query_create(const ta_schema *s, ta_alias_query **out,
                                ta_diags *diags);
TA_API void ta_alias_query_destroy(ta_alias_query *q);

TA_API uint32_t ta_alias_query_ninputs(const ta_alias_query *q);
TA_API uint32_t ta_alias_query_noutputs(const ta_alias_query *q);

/* SchemaInfo.is_mutable(input i): the argument is written (an "!" on it or on
 * its elements), or it is one of torch's training-mode special cases
 * (running_mean/running_var of batch_norm & co., noise of rrelu_with_noise),
 * which torch counts as written when the call has a training flag. */
TA_API bool ta_alias_query_is_mutable_input(const ta_alias_query *q, uint32_t i);
/* SchemaInfo.is_mutable(): some input is mutable. */
TA_API bool ta_alias_query_is_mutable(const ta_alias_query *q);
/* SchemaInfo.may_alias(a, b) and may_contain_alias(a, b) (bidirectional).
 * Out-of-range slots answer false. */
TA_API bool ta_alias_query_may_alias(const ta_alias_query *q, ta_slot a, ta_slot b);
TA_API bool ta_alias_query_may_contain_alias(const ta_alias_query *q, ta_slot a, ta_slot b);

/* The same three questions, checked: the answer goes to *answer and a slot
 * out of range (an input index past the arguments, an output past the
 * returns) is TA_ERR_INVALID rather than the answer false. */
TA_API ta_status ta_alias_query_is_mutable_input_checked(const ta_alias_query *q, uint32_t i,
                                                  bool *answer);
TA_API ta_status ta_alias_query_may_alias_checked(const ta_alias_query *q, ta_slot a, ta_slot b,
                                           bool *answer);
TA_API ta_status ta_alias_query_may_contain_alias_checked(const ta_alias_query *q, ta_slot a,
                                                   ta_slot b, bool *answer);

/* The slot of the argument named name, else of the return named name (a
 * named return of an out= op shares its name with its argument: the
 * argument is found). TA_ERR_NOTFOUND when neither has that name. */
TA_API ta_status ta_alias_query_slot_named(const ta_alias_query *q, const char *name, ta_slot *out);

/* The declared contract, element sets included (what torch's list-level
 * view hides): true when output j and input i share an alias set after the
 * call, at the slot or inside its elements, or both enter the wildcard. */
TA_API bool ta_alias_query_output_aliases_input(const ta_alias_query *q, uint32_t out,
                                   uint32_t in);
/* A view op returns a non-written alias of an input (torchgen's reading:
 * some return carries a read-only annotation, or some input is annotated
 * with an after set "->"). */
TA_API bool ta_alias_query_is_view_op(const ta_alias_query *q);
/* Name of alias set k (k < ta_alias_query_nsets), "*" never among them. */
TA_API uint32_t ta_alias_query_nsets(const ta_alias_query *q);
TA_API ta_str ta_alias_query_set_name(const ta_alias_query *q, uint32_t k);
/* Bitset of the alias sets slot (its elements included) is in after the
 * call / written through; bit k is set k. */
TA_API uint64_t ta_alias_query_sets_after(const ta_alias_query *q, ta_slot s);
TA_API uint64_t ta_alias_query_sets_written(const ta_alias_query *q, ta_slot s);

/* Writes the four torch answers to out as the members of a JSON object in
 * the golden format, without the braces (so they can close an object of the
 * caller's): "is_mutable":bool,"mutable_args":[i...],"may_alias":[[kind,i,
 * kind,j]...],"may_contain_alias":[...]; kind "in" or "out", each pair once
 * with the lower slot first (inputs before outputs). The pair lists grow
 * with the square of the slots: each stops after max_pairs pairs (0: no
 * limit) and *truncated (when not NULL) says whether one did. Memory is
 * constant. TA_ERR_IO when out reports an error. */
TA_API ta_status ta_alias_query_write_json(const ta_alias_query *q, FILE *out, size_t max_pairs,
                                     bool *truncated);

/* ---- graphs ------------------------------------------------------------- */

typedef struct ta_alias_graph ta_alias_graph;

/* Vertex kinds ("kind" string attribute) and edge kinds ("kind"). */
#define TA_VERTEX_INPUT "input"
#define TA_VERTEX_OUTPUT "output"
#define TA_VERTEX_CONTENTS "contents" /* elements of a list, values of a Dict */
#define TA_VERTEX_SET "set"
#define TA_VERTEX_WILDCARD "wildcard"
#define TA_EDGE_MEMBER "member"     /* slot -> set; attrs before, after, write */
#define TA_EDGE_CONTAINS "contains" /* container slot -> its contents */

/* Builds the graph of s (which must outlive it). Vertex attributes: kind,
 * name (argument name, set name, "*"), label (what a writer prints), slot
 * ("in0", "out1", "in2[]"), index (slot index, -1 for sets), alias_types and
 * contained_types (space-separated names of the types that can hold
 * aliases: what torch compares), flags (w: written, W: wildcard after,
 * c: contained in torch's conservative wildcard set). Edge attributes: kind,
 * before, after, write (0/1), label ("a", "a!", "->a", "*"). */
TA_API ta_status ta_alias_graph_create(const ta_schema *s, ta_alias_graph **out,
                                ta_diags *diags);
TA_API void ta_alias_graph_destroy(ta_alias_graph *g);

/* The igraph_t inside (igraph/igraph.h); valid while g lives. */
TA_API const void *ta_alias_graph_igraph(const ta_alias_graph *g);
TA_API uint32_t ta_alias_graph_vcount(const ta_alias_graph *g);
TA_API uint32_t ta_alias_graph_ecount(const ta_alias_graph *g);
TA_API const ta_schema *ta_alias_graph_schema(const ta_alias_graph *g);

/* The same queries answered by walking the graph (slower; used to check the
 * compact summary): false for a slot out of range. */
TA_API bool ta_alias_graph_is_mutable_input(const ta_alias_graph *g, uint32_t i);
TA_API bool ta_alias_graph_may_alias(const ta_alias_graph *g, ta_slot a, ta_slot b);
TA_API bool ta_alias_graph_may_contain_alias(const ta_alias_graph *g, ta_slot a, ta_slot b);
/* Checked, as ta_alias_query_*_checked: TA_ERR_INVALID for a slot out of range,
 * TA_ERR_NOMEM when the walk could not allocate (the answer is false). */
TA_API ta_status ta_alias_graph_is_mutable_input_checked(const ta_alias_graph *g, uint32_t i,
                                                  bool *answer);
TA_API ta_status ta_alias_graph_may_alias_checked(const ta_alias_graph *g, ta_slot a, ta_slot b,
                                           bool *answer);
TA_API ta_status ta_alias_graph_may_contain_alias_checked(const ta_alias_graph *g, ta_slot a,
                                                   ta_slot b, bool *answer);

/* Writers. dot is laid out for reading (inputs left, sets middle, outputs
 * right; writes bold red); GraphML comes from igraph's writer; JSON is
 * {"schema", "vertices": [...], "edges": [...]}. TA_ERR_IO on write errors. */
TA_API ta_status ta_alias_graph_write_dot(const ta_alias_graph *g, FILE *out);
TA_API ta_status ta_alias_graph_write_graphml(const ta_alias_graph *g, FILE *out);
TA_API ta_status ta_alias_graph_write_json(const ta_alias_graph *g, FILE *out);

/* ---- rules ------------------------------------------------------------- */

/* Every alias rule (id, severity, summary: ta_rule_info, native.h), in the
 * order the checks run. */
TA_API const ta_rule_info *ta_alias_rules(size_t *n);

/* The rules that need only the schema (torchgen's schema asserts and the
 * suspicious-but-legal patterns), positioned with ta_schema_locate.
 * Appends to diags; returns TA_OK, or TA_ERR_NOMEM. */
TA_API ta_status ta_alias_check_schema(const ta_schema *s, ta_diags *diags);

/* Every alias rule over a loaded native_functions.yaml: the schema rules of
 * each entry at its yaml position, and the entry rules (autogen). A
 * ta_native_pass_fn, so `check` runs it after the loader's built-in passes
 * through ta_native_check_with; ta_alias_native_passes lists it as such. */
TA_API ta_status ta_alias_native_pass(const ta_native_file *f, ta_diags *diags);
TA_API const ta_native_pass *ta_alias_native_passes(size_t *n);

/* ---- rules for custom operators ------------------------------------------ */

/* Custom operators (declared in C++ or Python sources, not in
 * native_functions.yaml) follow fewer conventions, so they get their own
 * rules (ids custom-*): a tensor named like a destination or a cache the
 * operator stores into that is not annotated as written, an operator named
 * like a mutation that declares no write, "-> ()" with no write at all, a
 * "!" on a non-tensor, a duplicated argument name, a pointless or unbound
 * alias set, a written keyword argument not returned. The yaml rules above
 * keep applying to yaml only. */
TA_API const ta_rule_info *ta_alias_custom_rules(size_t *n);

/* The custom rules over one schema, positioned with ta_schema_locate.
 * Appends to diags; TA_OK or TA_ERR_NOMEM. */
TA_API ta_status ta_alias_check_custom(const ta_schema *s, ta_diags *diags);

/* The custom rules over every parsed operator of x, each finding
 * positioned in the source file (ta_extract_locate). */
TA_API ta_status ta_alias_check_extracted(const ta_extract *x, ta_diags *diags);

#ifdef __cplusplus
}
#endif
#endif
