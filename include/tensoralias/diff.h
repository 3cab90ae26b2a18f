/* tensoralias/diff.h - what changed in the operator contract between two
 * versions of a set of operators, and whether it breaks callers.
 *
 * Both sides are loaded first: a native_functions.yaml (native.h), a plain
 * schema list (schema_list.h) or the custom operators extracted from
 * sources (extract.h), in any combination. Operators are matched by their
 * full overload name ("aten::add.out"; one written without a namespace is
 * taken to be in aten). For each overload in both whose schema changed,
 * ta_diff_create gives:
 *
 *   - torch's verdicts, exactly as torch 1.13.1's
 *     FunctionSchema::isBackwardCompatibleWith and isForwardCompatibleWith
 *     decide them (torch's types and their subtyping, its alias-info
 *     equality, its default values), with the reason they fail;
 *   - beyond torch, each change of the contract classified: writes added or
 *     removed, aliases added to or removed from a slot (for a return, a copy
 *     that became a view or a view that became a copy), alias sets changed
 *     (what may alias what is different) or merely renamed (nothing about
 *     aliasing is different, although torch, comparing set names, calls it
 *     incompatible), torchgen's kind changed, defaults, arguments and returns
 *     added, removed, retyped, renamed or moved;
 *
 * and overloads added and removed. Everything is a record (ta_diff_get)
 * and a compiler-style diagnostic pointing into NEW (and at OLD), appended
 * to the caller's list; the library prints nothing.
 *
 * An allow-list, in the spirit of PyTorch's ALLOW_LIST, excuses breaks: one
 * entry a line, a POSIX extended regular expression searched in the old
 * schema's text ("aten::name.overload(args) -> returns") and the date it
 * expires:
 *
 *     # regex                 expires (the entry holds through that day)
 *     aten::_foreach_.*       2027-06-30
 *
 * An expired entry is ignored, with a note.
 */
#ifndef TENSORALIAS_DIFF_H
#define TENSORALIAS_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensoralias/diag.h"
#include "tensoralias/export.h"
#include "tensoralias/extract.h"
#include "tensoralias/native.h"
#include "tensoralias/schema.h"
#include "tensoralias/schema_list.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- torch's verdicts on one pair of schemas ------------------------------ */

typedef enum ta_compat {
    TA_COMPAT_YES = 0,
    TA_COMPAT_NO,
    /* torch 1.13.1 throws std::out_of_range (IndexError in Python) instead
     * of answering: the old out= arguments, shifted to where the new ones
     * start, run past the end of the new argument list. No verdict; a
     * caller counts it as not compatible. */
    TA_COMPAT_RAISES
} ta_compat;

TA_API const char *ta_compat_str(ta_compat c); /* "yes", "no", "raises" */

/* newer.isBackwardCompatibleWith(older) and newer.isForwardCompatibleWith(
 * older) as torch 1.13.1 decides them. Names are compared without a
 * namespace when either schema has none. why (cap bytes, may be NULL) gets
 * the first reason it fails, in a sentence ("" when it does not). */
TA_API ta_compat ta_schema_backward_compatible(const ta_schema *newer, const ta_schema *older,
                                               char *why, size_t cap);
TA_API ta_compat ta_schema_forward_compatible(const ta_schema *newer, const ta_schema *older,
                                              char *why, size_t cap);

/* ---- allow-list ----------------------------------------------------------- */

typedef struct ta_allow_list ta_allow_list;

/* Reads an allow-list (format above) from text[0..len), naming it source.
 * today is the date as yyyymmdd (20261128): entries that expired before it
 * are ignored with a note. A malformed line (no date, a date that is not
 * one, a regex that does not compile) is an error diagnostic and is left
 * out. *out whenever it could be allocated; TA_OK, TA_ERR_PARSE (a line was
 * malformed), TA_ERR_NOMEM. */
TA_API ta_status ta_allow_list_load_buffer(const char *text, size_t len, const char *source,
                                           int32_t today, ta_allow_list **out, ta_diags *diags);
TA_API ta_status ta_allow_list_load_path(const char *path, int32_t today, ta_allow_list **out,
                                         ta_diags *diags);
TA_API void ta_allow_list_destroy(ta_allow_list *a);
/* Entries in force (read and not expired). */
TA_API size_t ta_allow_list_count(const ta_allow_list *a);

/* ---- the diff ------------------------------------------------------------- */

/* One side: exactly one of the three is set. */
typedef struct ta_diff_input {
    const ta_native_file *native;
    const ta_schema_list *list;
    const ta_extract *extracted;
} ta_diff_input;

typedef struct ta_diff_opts {
    const ta_allow_list *allow; /* NULL: nothing is excused */
} ta_diff_opts;

typedef enum ta_diff_change {
    TA_DIFF_CHANGED = 0, /* in both, the schema changed */
    TA_DIFF_ADDED,       /* only in NEW */
    TA_DIFF_REMOVED      /* only in OLD: breaks every caller of it */
} ta_diff_change;

/* What one classified change is. The first group is the alias contract. */
typedef enum ta_diff_what {
    TA_DW_WRITE_ADDED = 0, /* the slot is now written ("!") */
    TA_DW_WRITE_REMOVED,
    TA_DW_ALIAS_ADDED,     /* the slot gained an alias annotation (a return: copy -> view) */
    TA_DW_ALIAS_REMOVED,   /* it lost one (a return: view -> copy) */
    TA_DW_ALIAS_CHANGED,   /* its sets changed, and with them what it may alias */
    TA_DW_ALIAS_RENAMED,   /* sets renamed: what may alias what is the same */
    TA_DW_KIND_CHANGED,    /* torchgen's kind (functional, inplace, out, mutable, scratch; view) */
    TA_DW_DEFAULT_CHANGED, /* both have a default, torch's values differ */
    TA_DW_DEFAULT_ADDED,
    TA_DW_DEFAULT_REMOVED,
    TA_DW_ARG_ADDED,
    TA_DW_ARG_REMOVED,
    TA_DW_ARG_MOVED,       /* same name, another position */
    TA_DW_KWARG_ONLY,      /* became keyword-only, or positional */
    TA_DW_TYPE_CHANGED,    /* the type as written changed (detail says whether torch sees it) */
    TA_DW_RETURN_ADDED,
    TA_DW_RETURN_REMOVED,
    TA_DW_RETURN_RENAMED,
    TA_DW_COUNT
} ta_diff_what;

/* "write-added", "write-removed", "alias-added", "alias-removed",
 * "alias-changed", "alias-renamed", "kind-changed", "default-changed",
 * "default-added", "default-removed", "arg-added", "arg-removed",
 * "arg-moved", "kwarg-only", "type-changed", "return-added",
 * "return-removed", "return-renamed". */
TA_API const char *ta_diff_what_str(ta_diff_what w);
/* Whether w is a change of the alias contract (the first six). */
TA_API bool ta_diff_what_is_alias(ta_diff_what w);

typedef struct ta_diff_item {
    ta_diff_what what;
    bool is_return;         /* the slot is a return (else an argument; KIND_CHANGED: neither) */
    int32_t old_index;      /* the slot in OLD's arguments or returns, -1 when absent */
    int32_t new_index;      /* and in NEW's */
    const char *slot;       /* "noise", "return 0" ("" for the whole schema) */
    const char *detail;     /* "Tensor -> Tensor(b!)", "functional -> mutable", ... */
} ta_diff_item;

/* A slot of a schema: an argument or a return, by index (-1: none). */
typedef struct ta_diff_slot {
    bool is_return;
    int32_t index;
} ta_diff_slot;

typedef struct ta_diff_record {
    const char *op;               /* "aten::rrelu_with_noise.out" */
    ta_diff_change change;
    const ta_schema *old_schema;  /* NULL when added */
    const ta_schema *new_schema;  /* NULL when removed */
    ta_compat bc, fc;             /* CHANGED: torch's; ADDED: YES; REMOVED: NO */
    const char *bc_why, *fc_why;  /* why not ("" when compatible) */
    ta_diff_slot bc_at, fc_at;    /* the slot of NEW torch's check stopped at (index -1:
                                   * the name, the returns' count or '...') */
    bool alias_changed;           /* a slot's alias sets or write flag differ, or an
                                   * added or removed slot carries an annotation */
    bool allowed;                 /* not backward compatible, excused by the allow-list */
    bool breaks;                  /* not backward compatible and not excused */
    const ta_diff_item *items;
    uint32_t nitems;
    const char *old_file, *new_file; /* where each side wrote it (NULL when absent) */
    uint32_t old_line, new_line;
} ta_diff_record;

typedef struct ta_diff ta_diff;

/* Compares old_in with new_in (both must outlive the result). Records come
 * in NEW's order (changed and added), then the removed ones in OLD's; the
 * diagnostics (rules diff-*) are appended to diags in the same order, each
 * record's together. opts may be NULL. TA_OK, TA_ERR_INVALID (a side does
 * not set exactly one input), TA_ERR_NOMEM. */
TA_API ta_status ta_diff_create(const ta_diff_input *old_in, const ta_diff_input *new_in,
                                const ta_diff_opts *opts, ta_diff **out, ta_diags *diags);
TA_API void ta_diff_destroy(ta_diff *d);

TA_API size_t ta_diff_count(const ta_diff *d);
TA_API const ta_diff_record *ta_diff_get(const ta_diff *d, size_t i);

/* What the two sides held and how they compare. */
typedef struct ta_diff_summary {
    size_t old_ops, new_ops;   /* distinct overloads on each side */
    size_t unchanged, changed, added, removed;
    size_t not_bc, not_fc;     /* changed overloads torch calls incompatible (or raises on) */
    size_t alias_changed;      /* records with alias_changed */
    size_t breaks, allowed;    /* records that break (removed ones included), excused */
} ta_diff_summary;
TA_API void ta_diff_summarize(const ta_diff *d, ta_diff_summary *out);

/* Every rule the diff reports (for SARIF catalogues). */
TA_API const ta_rule_info *ta_diff_rules(size_t *n);

#ifdef __cplusplus
}
#endif
#endif
