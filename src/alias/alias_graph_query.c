/* alias_graph_query.c - the torch queries answered by walking the alias graph
 * instead of reading the compact summary. It rederives each slot's facts
 * from the edges (sets after the call, write, wildcard, the conservative
 * wildcard set) and from the type-name attributes, then applies the same
 * rules; the golden test checks both views agree on every schema. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "alias/alias_graph_internal.h"

typedef struct gf {
    bool has_alias, write, wild_after, wild;
    uint64_t after; /* bit k: named set k */
    const char *types, *contained;
} gf;

/* Edges leaving v of the given kind, as a vector the caller destroys. */
static void out_edges(const igraph_t *g, igraph_integer_t v, igraph_vector_int_t *es)
{
    igraph_vector_int_init(es, 0);
    igraph_incident(g, es, v, IGRAPH_OUT);
}

static bool is_kind(const igraph_t *g, igraph_integer_t e, const char *k)
{
    return strcmp(EAS(g, "kind", e), k) == 0;
}

/* torch's list-level annotation: the slot's own member edges, or, with
 * none, those of its list elements (write copied, sets dropped). */
typedef enum depth { SLOT_ITSELF, ITS_ELEMENTS } depth;

static void level(const ta_alias_graph *ag, igraph_integer_t v, gf *f, depth at)
{
    bool top = at == SLOT_ITSELF;
    const igraph_t *g = &ag->g;
    igraph_vector_int_t es;
    out_edges(g, v, &es);
    bool direct = false;
    igraph_integer_t elems = -1;
    for (igraph_integer_t i = 0; i < igraph_vector_int_size(&es); i++) {
        igraph_integer_t e = VECTOR(es)[i];
        if (is_kind(g, e, TA_EDGE_CONTAINS)) {
            if (!strcmp(EAS(g, "label", e), "[]")) elems = IGRAPH_TO(g, e);
            continue;
        }
        direct = true;
        if (EAN(g, "write", e) != 0) f->write = true;
        if (top && EAN(g, "after", e) != 0) {
            igraph_integer_t to = IGRAPH_TO(g, e);
            if (to == (igraph_integer_t)ag->wildcard) f->wild_after = true;
            else if (to >= ag->set0 && to < ag->set0 + ag->q->nsets) f->after |= (uint64_t)1 << (to - ag->set0);
        }
    }
    igraph_vector_int_destroy(&es);
    if (direct) f->has_alias = true;
    else if (elems >= 0) level(ag, elems, f, ITS_ELEMENTS);
}

static bool tokens_meet(const char *a, const char *b)
{
    /* space-separated names; both short */
    for (const char *p = a; *p;) {
        const char *e = strchr(p, ' ');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        for (const char *r = b; *r;) {
            const char *f = strchr(r, ' ');
            size_t m = f ? (size_t)(f - r) : strlen(r);
            if (m == n && !memcmp(p, r, n)) return true;
            r = f ? f + 1 : r + m;
        }
        p = e ? e + 1 : p + n;
    }
    return false;
}

static bool basic_alias(const gf *a, const gf *b)
{
    return tokens_meet(a->types, b->types) && a->has_alias && b->has_alias &&
           ((a->after & b->after) || (a->wild_after && b->wild_after));
}

/* Facts of every slot; f has room for nslots. */
static void all_facts(const ta_alias_graph *ag, gf *f)
{
    const igraph_t *g = &ag->g;
    uint32_t nin = ag->q->nin, n = ag->nslots;
    for (uint32_t i = 0; i < n; i++) {
        memset(&f[i], 0, sizeof f[i]);
        level(ag, i, &f[i], SLOT_ITSELF);
        f[i].types = VAS(g, "alias_types", i);
        f[i].contained = VAS(g, "contained_types", i);
        f[i].wild = f[i].wild_after;
    }
    for (int list = 0; list < 2; list++) {
        uint32_t lo = list ? nin : 0, hi = list ? n : nin;
        for (uint32_t i = lo; i < hi; i++)
            for (uint32_t j = lo; j < hi; j++)
                if (i != j && !f[i].wild_after && !f[j].wild_after && f[i].has_alias &&
                    f[j].has_alias && (f[i].after & f[j].after))
                    f[i].wild = true;
    }
    for (uint32_t i = 0; i < nin; i++)
        for (uint32_t j = nin; j < n; j++)
            if (f[i].wild && basic_alias(&f[i], &f[j])) f[j].wild = true;
}

static uint32_t vid(const ta_alias_graph *ag, ta_slot s)
{
    if (s.kind == TA_SLOT_IN) return s.index < ag->q->nin ? s.index : UINT32_MAX;
    return s.index < ag->q->nout ? ag->q->nin + s.index : UINT32_MAX;
}

static bool may_alias(const gf *a, const gf *b)
{
    return basic_alias(a, b) || (a->wild && b->wild && tokens_meet(a->types, b->types));
}

bool ta_alias_graph_is_mutable_input(const ta_alias_graph *ag, uint32_t i)
{
    if (i >= ag->q->nin) return false;
    gf f = {0};
    level(ag, i, &f, SLOT_ITSELF);
    /* the training-mode cases are a property of the operator, not of its
     * edges: the builder records them in the vertex flags */
    return f.write || strchr(VAS(&ag->g, "flags", i), 'm') != NULL;
}

/* Facts of slots a and b; *shared tells whether both are outputs that
 * basically alias one same input. TA_ERR_INVALID when either is out of
 * range. */
static ta_status pair_facts(const ta_alias_graph *ag, ta_slot a, ta_slot b, gf *A, gf *B,
                            bool *shared)
{
    uint32_t va = vid(ag, a), vb = vid(ag, b);
    if (va == UINT32_MAX || vb == UINT32_MAX) return TA_ERR_INVALID;
    gf *fs = ta_calloc(ag->nslots, sizeof *fs);
    if (!fs) return TA_ERR_NOMEM;
    all_facts(ag, fs);
    *A = fs[va];
    *B = fs[vb];
    *shared = false;
    if (a.kind == TA_SLOT_OUT && b.kind == TA_SLOT_OUT)
        for (uint32_t i = 0; i < ag->q->nin; i++)
            if (basic_alias(&fs[i], A) && basic_alias(&fs[i], B)) *shared = true;
    free(fs);
    return TA_OK;
}

ta_status ta_alias_graph_may_alias_checked(const ta_alias_graph *ag, ta_slot a, ta_slot b, bool *answer)
{
    gf A, B;
    bool shared;
    ta_status st = pair_facts(ag, a, b, &A, &B, &shared);
    *answer = st == TA_OK && (shared || may_alias(&A, &B));
    return st;
}

static bool contain_alias(const gf *A, const gf *B)
{
    if (may_alias(A, B)) return true;
    if (A->wild_after && tokens_meet(A->types, B->contained)) return true;
    if (B->wild_after && tokens_meet(B->types, A->contained)) return true;
    if (tokens_meet(A->contained, B->contained)) return true;
    return (tokens_meet(A->contained, B->types) && B->wild) ||
           (tokens_meet(B->contained, A->types) && A->wild);
}

ta_status ta_alias_graph_may_contain_alias_checked(const ta_alias_graph *ag, ta_slot a, ta_slot b,
                                             bool *answer)
{
    gf A, B;
    bool shared;
    ta_status st = pair_facts(ag, a, b, &A, &B, &shared);
    *answer = st == TA_OK && (shared || contain_alias(&A, &B));
    return st;
}

ta_status ta_alias_graph_is_mutable_input_checked(const ta_alias_graph *ag, uint32_t i, bool *answer)
{
    *answer = i < ag->q->nin && ta_alias_graph_is_mutable_input(ag, i);
    return i < ag->q->nin ? TA_OK : TA_ERR_INVALID;
}

bool ta_alias_graph_may_alias(const ta_alias_graph *ag, ta_slot a, ta_slot b)
{
    bool yes;
    ta_alias_graph_may_alias_checked(ag, a, b, &yes);
    return yes;
}

bool ta_alias_graph_may_contain_alias(const ta_alias_graph *ag, ta_slot a, ta_slot b)
{
    bool yes;
    ta_alias_graph_may_contain_alias_checked(ag, a, b, &yes);
    return yes;
}
