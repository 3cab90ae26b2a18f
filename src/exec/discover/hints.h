/* hints.h - what discovery learned about one operator's inputs: an ordered
 * list of facts, each a condition (cond.h) and the atom adjusted to make it
 * true ("rois.dim() == 2 @ rois.dim()"), and the case builder that applies
 * them to a synthesized case.
 *
 * A case built with hints is the case its seed synthesizes, read into a
 * model (model.h), every fact made true in order (twice over, as a later
 * fact may undo an earlier one), and each argument a fact changed made
 * again; the others stay exactly as synthesized. So seed + the facts'
 * text (the discovery path, "fact; fact; ...") replay the case. */
#ifndef TA_EXEC_DISCOVER_HINTS_H
#define TA_EXEC_DISCOVER_HINTS_H

#include "exec/discover/cond.h"
#include "exec/discover/model.h"

enum { DSC_MAX_FACTS = 24, DSC_PATH_MAX = 1024 };

typedef struct dsc_fact {
    dsc_cond cond; /* its names bound: no free variable but an item index */
    int atom;      /* the node adjusted */
} dsc_fact;

typedef struct dsc_hints {
    const ta_decl *d;
    int n;
    dsc_fact f[DSC_MAX_FACTS];
    char path[DSC_PATH_MAX]; /* the facts as text, kept up to date */
} dsc_hints;

void dsc_hints_init(dsc_hints *h, const ta_decl *d);

/* Appends the fact (c with binding, adjusting atom): false when full or
 * when it does not survive printing and reading back. */
bool dsc_hints_push(dsc_hints *h, const dsc_cond *c, int atom, const int *binding);
/* Appends a fact read from its text ("cond @ atom"): false when it does
 * not read against h's schema, or when h is full. */
bool dsc_hints_push_text(dsc_hints *h, const char *text);
void dsc_hints_pop(dsc_hints *h);
/* Drops the facts before the last that adjust the same atom as the last. */
void dsc_hints_drop_same_atom(dsc_hints *h);
void dsc_hints_truncate(dsc_hints *h, int n);

/* Reads a discovery path ("cond @ atom; ..."): false when a fact does not
 * parse against d (h is left empty). */
bool dsc_hints_parse(dsc_hints *h, const ta_decl *d, const char *text);

/* The facts of h made true on model m; the arguments changed are marked. */
void dsc_hints_apply(const dsc_hints *h, dsc_model *m);

/* Whether every fact of h holds once h is applied to m (changed): a fact
 * that a later one undoes, or that undoes an earlier one, does not. */
bool dsc_hints_consistent(const dsc_hints *h, dsc_model *m);

/* Builds case seed of the operator (schema s, declaration d) with h applied:
 * see above. m is scratch space for the model. c->found is h's path when a
 * fact changed anything. */
ta_status dsc_hints_build(const dsc_hints *h, dsc_model *m, ta_exec *x, const ta_schema *s,
                          const ta_decl *d, uint64_t seed, ta_case *c);

#endif
