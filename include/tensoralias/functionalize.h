/* tensoralias/functionalize.h - removes mutation from a whole graph.
 *
 * ta_functionalize rewrites a graph (read with ta_ir_read or built with the
 * C builder) so that it computes the same thing without writing memory:
 *
 *   - an in-place, out= or mutable operator becomes its functional
 *     counterpart: the overload of "add" for "add_", of "mul" for
 *     "mul.out", of "foo_functional" for a mutable "foo", that has the same
 *     torchgen signature (the key torchgen groups variants by), and later
 *     uses of what it wrote use the new value;
 *   - a write through a view (select, slice, diagonal, as_strided,
 *     transpose, t, unsqueeze) is replayed on the view's base with the
 *     matching scatter (select_scatter, slice_scatter, diagonal_scatter,
 *     as_strided_scatter) or inverse view, up to the root, and views read
 *     after a write are taken again from the updated base;
 *   - writes inside prim::If and prim::Loop blocks leave their blocks as
 *     extra block outputs and loop-carried values; a value that aliases
 *     different memory in each branch is written (and read again) through a
 *     prim::If on the same condition;
 *   - a loop whose carried memory changes from one iteration to the next in
 *     a way no single alias describes is unrolled, when its trip count is
 *     a small constant, into one prim::If per iteration;
 *   - a graph input that was written gets one aten::copy_ of its final value
 *     at the end of the graph (or, with no_copy_back, the final value as an
 *     extra graph output).
 *
 * Nothing is rewritten on a guess. A write stays as it is, with its reason
 * in the report, when the operator has no functional counterpart, and when
 * the memory it writes may be reached through a value whose aliasing the
 * pass cannot follow exactly (a view it cannot invert, a loop-carried alias,
 * an attribute, an operator without schema): then every write to that
 * memory stays, so the graph keeps its meaning. Graph inputs are taken not
 * to alias one another, as functionalization everywhere assumes.
 */
#ifndef TENSORALIAS_FUNCTIONALIZE_H
#define TENSORALIAS_FUNCTIONALIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensoralias/diag.h"
#include "tensoralias/export.h"
#include "tensoralias/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ta_functionalize_opts {
    /* Return the final values of written graph inputs as extra graph
     * outputs (in input order) instead of copying them back. */
    bool no_copy_back;
} ta_functionalize_opts;

typedef struct ta_functionalize_counts {
    uint32_t mutating_before; /* nodes whose operator writes an argument */
    uint32_t mutating_after;  /* the same after the pass, copy-backs included */
    uint32_t rewritten;       /* mutating nodes replaced by functional ones */
    uint32_t copy_backs;      /* aten::copy_ added for written graph inputs */
    uint32_t extra_outputs;   /* graph outputs added (no_copy_back) */
    uint32_t scatters;        /* scatters and inverse views emitted */
    uint32_t regenerated;     /* views taken again after a write */
    uint32_t threaded;        /* block outputs and loop-carried values added */
    uint32_t kept;            /* mutating nodes left as they were */
    uint32_t unrolled;        /* loops unrolled (a small constant trip count) */
} ta_functionalize_counts;

/* A mutating node the pass left in place, and why. Strings live as long as
 * the report. */
typedef struct ta_functionalize_kept {
    const char *kind;   /* "aten::add_" */
    const char *output; /* the node's first output ("%23"), or "" */
    uint32_t line;      /* where the reader found it; 0 when built */
    const char *reason;
} ta_functionalize_kept;

typedef struct ta_functionalize_report ta_functionalize_report;

/* Functionalizes g in place, resolving nodes with ops. opts may be NULL.
 * *report (may be NULL when not wanted) gets the counts and the kept nodes.
 * TA_ERR_NOMEM is the only failure; the graph is then in an unspecified
 * state and should be destroyed. */
TA_API ta_status ta_functionalize(ta_ir_graph *g, const ta_ir_ops *ops, const ta_functionalize_opts *opts,
                                  ta_functionalize_report **report, ta_diags *diags);
TA_API void ta_functionalize_report_destroy(ta_functionalize_report *r);
TA_API const ta_functionalize_counts *ta_functionalize_report_counts(const ta_functionalize_report *r);
TA_API size_t ta_functionalize_report_nkept(const ta_functionalize_report *r);
TA_API const ta_functionalize_kept *ta_functionalize_report_kept(const ta_functionalize_report *r, size_t i);

/* The nodes of g (blocks included) whose operator, as ops resolves it,
 * writes one of its arguments. */
TA_API uint32_t ta_functionalize_count_mutating(const ta_ir_graph *g, const ta_ir_ops *ops);

#ifdef __cplusplus
}
#endif
#endif
