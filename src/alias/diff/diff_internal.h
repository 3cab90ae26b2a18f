/* diff_internal.h - what the files of the diff module share (not public):
 *   torch_type.c   torch's types and subtyping
 *   torch_alias.c  torch's alias-info equality
 *   compat.c       torch's backward / forward compatibility (diff.h)
 *   sides.c        a loaded input as operators by full name, and positions in it
 *   contract.c     the changes of one overload, classified
 *   allow.c        the allow-list (diff.h)
 *   diff.c         matching the sides, the records (diff.h)
 *   report.c       the diagnostics of a record, and the rule catalogue */
#ifndef TA_ALIAS_DIFF_INTERNAL_H
#define TA_ALIAS_DIFF_INTERNAL_H

#include "base/map.h"
#include "tensoralias/diff.h"

/* ---- torch's types and alias infos -------------------------------------- */

/* a <= b as torch 1.13.1's isSubtypeOf decides it on the types it makes of
 * the two; ta_torch_type_equal: its type equality. */
bool ta_torch_type_subtype(const ta_type *a, const ta_type *b);
bool ta_torch_type_equal(const ta_type *a, const ta_type *b);
/* torch's Argument::N(): the size of "int[2]" written on the argument, -1 when none. */
int32_t ta_torch_arg_n(const ta_type *t);
/* Whether the alias infos torch keeps for type a of schema sa and type b of
 * sb are equal. */
bool ta_torch_alias_equal(const ta_schema *sa, const ta_type *a, const ta_schema *sb,
                          const ta_type *b);

/* ta_schema_backward_compatible and _forward_compatible, with the slot of
 * newer the check stopped at (index -1 when it was not at a slot). */
ta_compat ta_diff_backward(const ta_schema *newer, const ta_schema *older, char *why, size_t cap,
                           ta_diff_slot *at);
ta_compat ta_diff_forward(const ta_schema *newer, const ta_schema *older, char *why, size_t cap,
                          ta_diff_slot *at);

/* ---- sides ---------------------------------------------------------------- */

typedef struct ta_diff_op {
    const char *name;        /* full overload name, "aten::abs.out" */
    const ta_schema *schema;
    size_t index;            /* its entry in the input (yaml entry, list line, extracted
                              * op); for a derived one, its base's yaml entry */
    bool is_view;            /* torchgen's is_view_op (a yaml entry's inplace_view tag counts) */
    bool derived;            /* made by the yaml's autogen: (torchgen's derivation) */
} ta_diff_op;

typedef struct ta_diff_side {
    ta_diff_input in;
    ta_diff_op *ops;         /* the first of each name, in input order */
    size_t n;
    ta_map by_name;
    struct ta_torchgen *tg;  /* a yaml's functions with the derived ones (the diff
                              * keeps it: records point at derived schemas) */
} ta_diff_side;

/* Collects the operators of in (whose schemas parsed), naming each as
 * torch does; a name seen again is noted and skipped. A yaml's operators
 * are torchgen's: its entries, then the functional and out= variants its
 * autogen: entries derive, which torch registers as well (an out= variant
 * that moved from an entry to an autogen: list is no removal). Names and
 * the table live in a. TA_ERR_INVALID when in does not set exactly one
 * input. */
ta_status ta_diff_side_init(ta_diff_side *s, const ta_diff_input *in, ta_arena *a,
                            ta_diags *diags);
void ta_diff_side_free(ta_diff_side *s);
const ta_diff_op *ta_diff_side_find(const ta_diff_side *s, const char *name);
/* Where bytes [off, off + len) of op's schema were written. */
ta_loc ta_diff_side_loc(const ta_diff_side *s, const ta_diff_op *op, uint32_t off, uint32_t len);

/* ---- classification ------------------------------------------------------- */

/* Where classified changes go: items[0..n), room for cap. */
typedef struct ta_diff_items {
    ta_diff_item *v;
    uint32_t n, cap;
    ta_arena *arena;         /* for slot names and details */
    bool alias_changed;
} ta_diff_items;

/* The room the changes between two schemas can need. */
uint32_t ta_diff_items_bound(const ta_schema *olds, const ta_schema *news);
/* Classifies every change from olds (a ta_diff_op's) to news into out.
 * TA_OK or TA_ERR_NOMEM. */
ta_status ta_diff_classify(const ta_diff_op *olds, const ta_diff_op *news, ta_diff_items *out);

/* ---- allow-list ----------------------------------------------------------- */

/* The entry (its line, its expiry as yyyymmdd) whose regex matches text,
 * or false. */
bool ta_allow_list_match(const ta_allow_list *a, const char *text, uint32_t *line,
                         int32_t *expires, const char **source);

/* ---- reporting ------------------------------------------------------------ */

/* The diagnostics of record r (old and new sides for positions). */
ta_status ta_diff_report(const ta_diff_record *r, const ta_diff_side *olds, const ta_diff_op *oldop,
                         const ta_diff_side *news, const ta_diff_op *newop, const char *allowed_by,
                         ta_diags *diags);

#endif
