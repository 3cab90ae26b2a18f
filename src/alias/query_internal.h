/* query_internal.h - the compact per-slot summary behind ta_alias_query,
 * shared by the query answers (query.c), the graph builder (alias_graph.c) and the
 * rules. Built once per schema by query_facts.c. */
#ifndef TA_ALIAS_QUERY_INTERNAL_H
#define TA_ALIAS_QUERY_INTERNAL_H

#include "alias/str_lit.h"
#include "tensoralias/alias.h"

enum { TA_MAX_SETS = 64, TA_MAX_TYPES = 64 };

/* The types torch gives a fixed identity (singletons), by id. Types torch
 * creates afresh for every occurrence (lists, dicts, tuples, optionals, type
 * variables) never compare equal across slots, so they get no id at all:
 * only these ids decide whether two slots' types "can alias". Class types
 * (__torch__.x.Y) are interned per schema from TA_TY_NBUILTIN on. */
enum {
    TA_TY_TENSOR, TA_TY_INT, TA_TY_FLOAT, TA_TY_BOOL, TA_TY_STR, TA_TY_NUMBER,
    TA_TY_COMPLEX, TA_TY_DEVICE, TA_TY_STREAM, TA_TY_GENERATOR, TA_TY_STORAGE,
    TA_TY_QSCHEME, TA_TY_QUANTIZER, TA_TY_NONE, TA_TY_CAPSULE, TA_TY_ANY,
    TA_TY_ANYENUM, TA_TY_ANYCLASS, TA_TY_NBUILTIN
};

typedef struct ta_slot_facts {
    const ta_type *type;
    /* torch's view: the annotation on the slot itself ("list level") */
    bool has_alias;         /* an annotation (or element annotation) exists */
    bool write;             /* "!" at the slot, or copied from its elements */
    bool wild_after;        /* "*" among the slot's after sets */
    bool wild;              /* in SchemaInfo's wildcard set (see query_facts.c) */
    bool mutable_;          /* SchemaInfo.is_mutable, training cases included */
    uint64_t before, after; /* named sets at slot level, bit k = set k */
    uint64_t types;         /* singleton ids of torch's alias type set */
    bool has_types;         /* the alias type set is not empty/none */
    uint64_t contained;     /* singleton ids contained in those types */
    /* the declared contract, every level (elements and values included) */
    uint64_t decl_before, decl_after, decl_written;
    bool decl_wild;
} ta_slot_facts;

struct ta_alias_query {
    const ta_schema *s;
    uint32_t nin, nout;
    ta_slot_facts *slot; /* nin inputs, then nout outputs */
    uint32_t nsets;
    ta_str sets[TA_MAX_SETS];
    uint32_t ntypes; /* builtin + interned classes */
    ta_str class_names[TA_MAX_TYPES - TA_TY_NBUILTIN];
    bool view_op;
};

/* Builds the summary of s into q, whose slot array (room for nargs + nrets,
 * not necessarily zeroed) the caller owns: ta_alias_query_create without the
 * allocations, for passes that query every schema of a file in turn.
 * TA_ERR_UNSUPPORTED past the set and type limits (reported to diags). */
ta_status ta_alias_query_build(ta_alias_query *q, ta_slot_facts *slots, const ta_schema *s,
                               ta_diags *diags);

/* True when s has no alias annotation at any depth and too few named
 * types to pass the class limit: then ta_alias_facts_build cannot fail or
 * report, finds no alias set (nsets 0), and the schema rules read nothing
 * else of the query. The yaml pass skips the build for such schemas. */
bool ta_alias_facts_unannotated(const ta_schema *s);

/* Fills q (zeroed by the caller, q->slot allocated for nin+nout). */
ta_status ta_alias_facts_build(ta_alias_query *q, const ta_schema *s,
                               ta_diags *diags);
/* The effective torch-level annotation of a type, or NULL (element
 * annotations of a list are reported through *elem_write). */
const ta_alias *ta_alias_slot_annotation(const ta_type *t, bool *present,
                                         bool *write);
/* Name of singleton type id k ("Tensor", "int", a class name). */
void ta_alias_type_name(const ta_alias_query *q, uint32_t k, char *buf,
                        size_t cap);
/* Index of a set name in q->sets, or -1 ("*" is never there). */
int ta_alias_set_index(const ta_alias_query *q, ta_str name);
bool ta_alias_str_is_wildcard(ta_str name);

static inline const ta_slot_facts *ta_alias_query_slot(const ta_alias_query *q,
                                                 ta_slot s)
{
    if (s.kind == TA_SLOT_IN) return s.index < q->nin ? &q->slot[s.index] : 0;
    return s.index < q->nout ? &q->slot[q->nin + s.index] : 0;
}

/* torch's answers over two summaries: FunctionSchema::may_alias (basic),
 * and SchemaInfo::may_alias / may_contain_alias except their output-pair
 * case (two outputs aliasing one input), which needs the whole schema and
 * lives in ta_alias_query_may_alias / ta_alias_query_may_contain_alias. */
bool ta_facts_basic_may_alias(const ta_slot_facts *a, const ta_slot_facts *b);
bool ta_facts_may_alias(const ta_slot_facts *a, const ta_slot_facts *b);
bool ta_facts_may_contain_alias(const ta_slot_facts *a, const ta_slot_facts *b);

#endif
