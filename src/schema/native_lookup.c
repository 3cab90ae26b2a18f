/* native_lookup.c - a loaded file's accessors and its name index: an
 * open-addressing hash table from "ns::name.overload" to the first entry of
 * that name, so ta_native_find("aten::abs.out") costs one probe or two. */
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

ta_status ta_native_index(ta_native_file *f)
{
    uint32_t cap = 16;
    while (cap < 2 * f->nfuncs + 16) cap *= 2;
    f->table = ta_arena_alloc(f->arena, cap * sizeof *f->table);
    if (!f->table) return TA_ERR_NOMEM;
    f->table_cap = cap;
    for (uint32_t i = 0; i < f->nfuncs; i++) {
        const ta_native_func *fn = &f->funcs[i];
        size_t nslen = strlen(fn->ns), len = strlen(fn->name);
        uint32_t h = hash(fn->ns, nslen, fn->name, len) & (cap - 1);
        for (;; h = (h + 1) & (cap - 1)) {
            uint32_t slot = f->table[h];
            if (!slot) {
                f->table[h] = i + 1;
                break;
            }
            /* A duplicate keeps the first; the overload check reports it. */
            if (same(&f->funcs[slot - 1], fn->ns, nslen, fn->name, len)) break;
        }
    }
    return TA_OK;
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
    uint32_t cap = f->table_cap;
    for (uint32_t h = hash(ns, nslen, name, len) & (cap - 1);; h = (h + 1) & (cap - 1)) {
        uint32_t slot = f->table[h];
        if (!slot) return NULL;
        if (same(&f->funcs[slot - 1], ns, nslen, name, len)) return &f->funcs[slot - 1];
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
