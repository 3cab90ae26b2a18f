/* torch_alias.c - torch 1.13.1's equality of two arguments' alias infos
 * (c10::AliasInfo's operator==: write flag, before sets, after sets and the
 * infos of contained types, the sets compared as sets).
 *
 * The info torch keeps for an argument is the annotation written on the
 * value (Tensor(a), t[](a!), Dict(str, t)(a!); '?' is transparent); a list
 * whose elements carry one (Tensor(a!)[]) gets a list-level info of its own
 * annotation, or a synthesized one with no sets and the element's write
 * flag, holding the element's info as its contained type. Tuples keep none.
 * A set list stops at the wildcard ("(*|a)" is {*}). A bare "Tensor!" is a
 * fresh set named "$k", k counting the bare writes of the whole schema in
 * the order torch's parser meets them, so the same "Tensor!" at another
 * place of the schema is another set. */
#include "alias/diff/diff_internal.h"

typedef struct tinfo {
    const ta_alias *own;      /* the annotation written on the value, or NULL */
    const ta_type *contained; /* a list whose elements have an info: the element */
    bool present, write;
} tinfo;

static tinfo info_of(const ta_type *t)
{
    tinfo i = {NULL, NULL, false, false};
    switch (t->kind) {
    case TA_TYPE_OPTIONAL: return info_of(t->elems[0]);
    case TA_TYPE_LIST: {
        tinfo in = info_of(t->elems[0]);
        i.own = t->alias;
        i.contained = in.present ? t->elems[0] : NULL;
        i.present = i.own || in.present;
        i.write = i.own ? i.own->write : in.write;
        return i;
    }
    case TA_TYPE_TUPLE: return i;
    case TA_TYPE_NAME:
    case TA_TYPE_APPLY:
        i.own = t->alias;
        i.present = i.own != NULL;
        i.write = i.own && i.own->write;
        return i;
    }
    return i;
}

/* The bare writes of t that come before byte offset off (every one when
 * off is past them), counted in t's elements too. */
static uint32_t bare_before(const ta_type *t, uint32_t off)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->nelems; i++) n += bare_before(t->elems[i], off);
    return n + (t->alias && t->alias->bare_write && t->alias->span.off < off);
}

/* k of the "$k" torch names bare write al of s. */
static uint32_t bare_index(const ta_schema *s, const ta_alias *al)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->nargs; i++) n += bare_before(s->args[i].type, al->span.off);
    for (uint32_t i = 0; i < s->nrets; i++) n += bare_before(s->rets[i].type, al->span.off);
    return n;
}

typedef struct aset {
    const ta_str *names;
    uint32_t n;
    int64_t bare; /* >= 0: the set is {"$bare"} */
} aset;

static aset set_of(const ta_schema *s, const ta_alias *al, bool after)
{
    aset a = {NULL, 0, -1};
    if (!al) return a;
    if (al->bare_write) {
        a.bare = bare_index(s, al);
        return a;
    }
    a.names = after ? al->after : al->before;
    a.n = after ? al->nafter : al->nbefore;
    for (uint32_t i = 0; i < a.n; i++)
        if (ta_str_eq(a.names[i], "*")) a.n = i + 1;
    return a;
}

static bool has(const aset *a, ta_str name)
{
    for (uint32_t i = 0; i < a->n; i++)
        if (ta_str_eq_str(a->names[i], name)) return true;
    return false;
}

static bool sets_equal(aset a, aset b)
{
    if (a.bare >= 0 || b.bare >= 0) return a.bare == b.bare;
    for (uint32_t i = 0; i < a.n; i++)
        if (!has(&b, a.names[i])) return false;
    for (uint32_t i = 0; i < b.n; i++)
        if (!has(&a, b.names[i])) return false;
    return true;
}

bool ta_torch_alias_equal(const ta_schema *sa, const ta_type *a, const ta_schema *sb,
                          const ta_type *b)
{
    tinfo x = info_of(a), y = info_of(b);
    if (!x.present || !y.present) return x.present == y.present;
    if (x.write != y.write) return false;
    if (!sets_equal(set_of(sa, x.own, false), set_of(sb, y.own, false))) return false;
    if (!sets_equal(set_of(sa, x.own, true), set_of(sb, y.own, true))) return false;
    if (!x.contained || !y.contained) return !x.contained && !y.contained;
    return ta_torch_alias_equal(sa, x.contained, sb, y.contained);
}
