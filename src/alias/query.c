/* query.c - the alias and mutation queries over the compact summary, in the
 * shape torch 1.13.1's SchemaInfo gives them when no argument values are
 * known (see query_facts.c for how the summary is built):
 *
 *   basic may_alias(a, b): their type sets share a singleton, both are
 *       annotated, and they share a set after the call ("*" equals "*").
 *   may_alias: basic; or both are in the conservative wildcard set and
 *       their types can alias; or both are outputs that basically alias
 *       one same input (SchemaInfo's output alias map).
 *   may_contain_alias: may_alias; or one is a wildcard whose types the
 *       other contains; or their contained types meet; or one is a
 *       container holding the other's type while the other is in the
 *       wildcard set. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "alias/query_internal.h"

bool ta_facts_basic_may_alias(const ta_slot_facts *a, const ta_slot_facts *b)
{
    if (!(a->types & b->types) || !a->has_alias || !b->has_alias) return false;
    return (a->after & b->after) || (a->wild_after && b->wild_after);
}

bool ta_facts_may_alias(const ta_slot_facts *a, const ta_slot_facts *b)
{
    return ta_facts_basic_may_alias(a, b) || (a->wild && b->wild && (a->types & b->types));
}

/* SchemaInfo::mayContainAliasImpl: container a may hold wildcard b. */
static bool holds_wildcard(const ta_slot_facts *a, const ta_slot_facts *b)
{
    return (a->contained & b->types) && b->wild;
}

bool ta_facts_may_contain_alias(const ta_slot_facts *a, const ta_slot_facts *b)
{
    if (ta_facts_may_alias(a, b)) return true;
    if (a->wild_after && (a->types & b->contained)) return true;
    if (b->wild_after && (b->types & a->contained)) return true;
    if (a->contained & b->contained) return true;
    return holds_wildcard(a, b) || holds_wildcard(b, a);
}

ta_status ta_alias_query_build(ta_alias_query *q, ta_slot_facts *slots, const ta_schema *s,
                               ta_diags *diags)
{
    /* Only the counts need clearing: sets[] and class_names[] are read below
     * nsets and ntypes only, and together they are most of the struct. */
    q->s = NULL;
    q->nin = q->nout = q->nsets = q->ntypes = 0;
    q->view_op = false;
    q->slot = slots;
    memset(slots, 0, ((size_t)s->nargs + s->nrets) * sizeof *slots);
    return ta_alias_facts_build(q, s, diags);
}

ta_status ta_alias_query_create(const ta_schema *s, ta_alias_query **out,
                                ta_diags *diags)
{
    *out = NULL;
    if (!s) return TA_ERR_INVALID;
    ta_alias_query *q = ta_calloc(1, sizeof *q);
    if (!q) return TA_ERR_NOMEM;
    size_t n = (size_t)s->nargs + s->nrets;
    q->slot = ta_calloc(n ? n : 1, sizeof *q->slot);
    if (!q->slot) {
        free(q);
        return TA_ERR_NOMEM;
    }
    ta_status st = ta_alias_facts_build(q, s, diags);
    if (st != TA_OK) {
        ta_alias_query_destroy(q);
        return st;
    }
    *out = q;
    return TA_OK;
}

void ta_alias_query_destroy(ta_alias_query *q)
{
    if (!q) return;
    free(q->slot);
    free(q);
}

uint32_t ta_alias_query_ninputs(const ta_alias_query *q) { return q->nin; }
uint32_t ta_alias_query_noutputs(const ta_alias_query *q) { return q->nout; }

bool ta_alias_query_is_mutable_input(const ta_alias_query *q, uint32_t i)
{
    return i < q->nin && q->slot[i].mutable_;
}

bool ta_alias_query_is_mutable(const ta_alias_query *q)
{
    for (uint32_t i = 0; i < q->nin; i++)
        if (q->slot[i].mutable_) return true;
    return false;
}

/* Two outputs may alias when some input may alias both. */
static bool outputs_share_input(const ta_alias_query *q, const ta_slot_facts *a,
                                const ta_slot_facts *b)
{
    for (uint32_t i = 0; i < q->nin; i++)
        if (ta_facts_basic_may_alias(&q->slot[i], a) && ta_facts_basic_may_alias(&q->slot[i], b))
            return true;
    return false;
}

bool ta_alias_query_may_alias(const ta_alias_query *q, ta_slot a, ta_slot b)
{
    const ta_slot_facts *fa = ta_alias_query_slot(q, a), *fb = ta_alias_query_slot(q, b);
    if (!fa || !fb) return false;
    if (ta_facts_may_alias(fa, fb)) return true;
    return a.kind == TA_SLOT_OUT && b.kind == TA_SLOT_OUT && outputs_share_input(q, fa, fb);
}

bool ta_alias_query_may_contain_alias(const ta_alias_query *q, ta_slot a, ta_slot b)
{
    const ta_slot_facts *fa = ta_alias_query_slot(q, a), *fb = ta_alias_query_slot(q, b);
    if (!fa || !fb) return false;
    if (ta_facts_may_contain_alias(fa, fb)) return true;
    return a.kind == TA_SLOT_OUT && b.kind == TA_SLOT_OUT && outputs_share_input(q, fa, fb);
}

static bool in_range(const ta_alias_query *q, ta_slot s)
{
    return s.index < (s.kind == TA_SLOT_IN ? q->nin : q->nout);
}

ta_status ta_alias_query_is_mutable_input_checked(const ta_alias_query *q, uint32_t i, bool *answer)
{
    *answer = false;
    if (i >= q->nin) return TA_ERR_INVALID;
    *answer = ta_alias_query_is_mutable_input(q, i);
    return TA_OK;
}

ta_status ta_alias_query_may_alias_checked(const ta_alias_query *q, ta_slot a, ta_slot b, bool *answer)
{
    *answer = false;
    if (!in_range(q, a) || !in_range(q, b)) return TA_ERR_INVALID;
    *answer = ta_alias_query_may_alias(q, a, b);
    return TA_OK;
}

ta_status ta_alias_query_may_contain_alias_checked(const ta_alias_query *q, ta_slot a, ta_slot b,
                                             bool *answer)
{
    *answer = false;
    if (!in_range(q, a) || !in_range(q, b)) return TA_ERR_INVALID;
    *answer = ta_alias_query_may_contain_alias(q, a, b);
    return TA_OK;
}

ta_status ta_alias_query_slot_named(const ta_alias_query *q, const char *name, ta_slot *out)
{
    int32_t i = ta_schema_arg_index(q->s, name);
    if (i >= 0) {
        *out = ta_in((uint32_t)i);
        return TA_OK;
    }
    if ((i = ta_schema_ret_index(q->s, name)) >= 0) {
        *out = ta_out((uint32_t)i);
        return TA_OK;
    }
    return TA_ERR_NOTFOUND;
}

bool ta_alias_query_output_aliases_input(const ta_alias_query *q, uint32_t out,
                                   uint32_t in)
{
    if (out >= q->nout || in >= q->nin) return false;
    const ta_slot_facts *o = &q->slot[q->nin + out], *i = &q->slot[in];
    /* chunk: self is in a before the call (then enters *), its pieces in a */
    return (o->decl_after & (i->decl_before | i->decl_after)) || (o->decl_wild && i->decl_wild);
}

bool ta_alias_query_is_view_op(const ta_alias_query *q) { return q->view_op; }
uint32_t ta_alias_query_nsets(const ta_alias_query *q) { return q->nsets; }

ta_str ta_alias_query_set_name(const ta_alias_query *q, uint32_t k)
{
    ta_str none = {0};
    return k < q->nsets ? q->sets[k] : none;
}

uint64_t ta_alias_query_sets_after(const ta_alias_query *q, ta_slot s)
{
    const ta_slot_facts *f = ta_alias_query_slot(q, s);
    return f ? f->decl_after : 0;
}

uint64_t ta_alias_query_sets_written(const ta_alias_query *q, ta_slot s)
{
    const ta_slot_facts *f = ta_alias_query_slot(q, s);
    return f ? f->decl_written : 0;
}
