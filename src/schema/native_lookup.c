/* native_lookup.c - a loaded file's accessors and its name index: an
 * open-addressing hash table from "ns::name.overload" to the first entry of
 * that name, so ta_native_find("aten::abs.out") costs one probe or two. */
#include <stdlib.h>
#include <string.h>

#include "schema/native_internal.h"

static uint32_t hash(const char *ns, size_t nslen, const char *name, size_t len)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < nslen; i++) h = (h ^ (unsigned char)ns[i]) * 16777619u;
    h = (h ^ ':') * 16777619u;
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)name[i]) * 16777619u;
    return h;
}

static bool same(const ta_native_func *fn, const char *ns, size_t nslen,
                 const char *name, size_t len)
{
    return strlen(fn->ns) == nslen && !memcmp(fn->ns, ns, nslen) &&
           strlen(fn->name) == len && !memcmp(fn->name, name, len);
}

/* Slots hold the hash and index + 1 of an entry, so a probe compares
 * hashes before it touches any entry's strings. */
static ta_status grow_to(ta_native_file *f, uint32_t cap)
{
    ta_native_slot *t = calloc(cap, sizeof *t);
    if (!t) return TA_ERR_NOMEM;
    for (uint32_t i = 0; i < f->table_cap; i++) {
        ta_native_slot s = f->table[i];
        if (!s.index) continue;
        uint32_t h = s.hash & (cap - 1);
        while (t[h].index) h = (h + 1) & (cap - 1);
        t[h] = s;
    }
    free(f->table);
    f->table = t;
    f->table_cap = cap;
    return TA_OK;
}

static ta_status grow(ta_native_file *f)
{
    return grow_to(f, f->table_cap ? f->table_cap * 2 : 64);
}

ta_status ta_native_index_reserve(ta_native_file *f, size_t n)
{
    size_t cap = f->table_cap ? f->table_cap : 64;
    while (cap < 2 * n + 16) /* one table of the final size */
        if ((cap *= 2) > (size_t)1 << 31) return TA_ERR_NOMEM;
    return cap == f->table_cap ? TA_OK : grow_to(f, (uint32_t)cap);
}

ta_status ta_native_index_add(ta_native_file *f, uint32_t i)
{
    if (2 * (f->table_used + 1) > f->table_cap && grow(f) != TA_OK) return TA_ERR_NOMEM;
    const ta_native_func *fn = &f->funcs[i];
    size_t nslen = strlen(fn->ns), len = strlen(fn->name);
    uint32_t hv = hash(fn->ns, nslen, fn->name, len), cap = f->table_cap;
    for (uint32_t h = hv & (cap - 1);; h = (h + 1) & (cap - 1)) {
        ta_native_slot s = f->table[h];
        if (!s.index) {
            f->table[h] = (ta_native_slot){hv, i + 1};
            f->table_used++;
            return TA_OK;
        }
        /* A duplicate keeps the first; the overload check reports it. */
        if (s.hash == hv && same(&f->funcs[s.index - 1], fn->ns, nslen, fn->name, len)) {
            if (f->ndups == f->dups_cap) {
                uint32_t cap = f->dups_cap ? f->dups_cap * 2 : 16;
                uint32_t *d = realloc(f->dups, 2 * (size_t)cap * sizeof *d);
                if (!d) return TA_ERR_NOMEM;
                f->dups = d;
                f->dups_cap = cap;
            }
            f->dups[2 * f->ndups] = i;
            f->dups[2 * f->ndups + 1] = s.index - 1;
            f->ndups++;
            return TA_OK;
        }
    }
}

const ta_native_func *ta_native_find(const ta_native_file *f, const char *name)
{
    if (!f || !name || !f->table_cap) return NULL;
    /* The namespace ends at the last "::" (operator names have none). */
    const char *ns = "aten", *sep = NULL;
    for (const char *p = strstr(name, "::"); p; p = strstr(p + 1, "::")) sep = p;
    size_t nslen = 4;
    if (sep) {
        ns = name;
        nslen = (size_t)(sep - name);
        name = sep + 2;
    }
    return ta_native_find_in(f, ns, nslen, name, strlen(name));
}

const ta_native_func *ta_native_find_in(const ta_native_file *f, const char *ns,
                                        size_t nslen, const char *name, size_t len)
{
    if (!f->table_cap) return NULL;
    uint32_t cap = f->table_cap, hv = hash(ns, nslen, name, len);
    for (uint32_t h = hv & (cap - 1);; h = (h + 1) & (cap - 1)) {
        ta_native_slot s = f->table[h];
        if (!s.index) return NULL;
        if (s.hash == hv && same(&f->funcs[s.index - 1], ns, nslen, name, len))
            return &f->funcs[s.index - 1];
    }
}

size_t ta_native_count(const ta_native_file *f) { return f ? f->nfuncs : 0; }

const ta_native_func *ta_native_get(const ta_native_file *f, size_t i)
{
    return f && i < f->nfuncs ? &f->funcs[i] : NULL;
}

const char *ta_native_source(const ta_native_file *f) { return f->src.source; }

ta_arena *ta_native_arena(const ta_native_file *f) { return f->arena; }

bool ta_native_has_tag_set(const ta_native_file *f) { return f->has_tags; }

size_t ta_native_tag_count(const ta_native_file *f) { return f->ntags; }

const char *ta_native_tag(const ta_native_file *f, size_t i)
{
    return i < f->ntags ? f->tags[i] : NULL;
}

bool ta_native_tag_known(const ta_native_file *f, const char *tag)
{
    for (uint32_t i = 0; i < f->ntags; i++)
        if (!strcmp(f->tags[i], tag)) return true;
    return false;
}

ta_status ta_native_report(const ta_native_file *f, ta_diags *diags,
                           ta_severity sev, const char *rule,
                           ta_native_pos pos, const char *hint,
                           const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ta_status st = ta_yaml_report(&f->src, diags, sev, rule, pos, hint, fmt, ap);
    va_end(ap);
    return st;
}
