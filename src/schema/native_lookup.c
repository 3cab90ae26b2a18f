/* native_lookup.c - a loaded file's accessors and its name index: the
 * library's map (schema/map.h) from full names ("ns::name.overload") to the
 * first entry of that name, so ta_native_find("aten::abs.out") costs one
 * probe or two. */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/alloc.h"
#include "schema/native_internal.h"

ta_status ta_native_index_reserve(ta_native_file *f, size_t n)
{
    return ta_map_reserve(&f->index, n);
}

ta_status ta_native_note_dup(ta_native_file *f, uint32_t i, uint32_t first_line)
{
    if (ta_grow((void **)&f->dups, &f->dups_cap, (size_t)f->ndups + 1, 2 * sizeof *f->dups, 16, NULL) != TA_OK)
        return TA_ERR_NOMEM;
    f->dups[2 * f->ndups] = i;
    f->dups[2 * f->ndups + 1] = first_line;
    f->ndups++;
    return TA_OK;
}

ta_status ta_native_index_add(ta_native_file *f, uint32_t i)
{
    if (f->stream) return ta_native_stream_index(f->stream, f, i);
    const ta_native_func *fn = &f->funcs[i];
    ta_map_entry *e;
    if (ta_map_add(&f->index, fn->full_name, strlen(fn->full_name), ta_map_int(i), &e) != TA_OK)
        return TA_ERR_NOMEM;
    if (e->value.i == i) return TA_OK;
    /* A duplicate keeps the first; the overload check reports it. */
    return ta_native_note_dup(f, i, f->funcs[e->value.i].pos.line);
}

ta_status ta_native_delegate_target(const ta_native_file *f, const ta_native_func *fn,
                                    const ta_native_str *del, bool *found, bool *structured,
                                    bool *later)
{
    if (f->stream) return ta_native_stream_delegate(f->stream, fn, del, found, structured, later);
    const ta_native_func *to = ta_native_find_in(f, fn->ns, strlen(fn->ns), del->s, del->len);
    *found = to != NULL;
    *structured = to && to->structured;
    *later = false;
    return TA_OK;
}

const ta_native_func *ta_native_find(const ta_native_file *f, const char *name)
{
    if (!f || !name) return NULL;
    if (strstr(name, "::")) return ta_native_find_in(f, NULL, 0, name, strlen(name));
    return ta_native_find_in(f, "aten", 4, name, strlen(name));
}

const ta_native_func *ta_native_find_in(const ta_native_file *f, const char *ns,
                                        size_t nslen, const char *name, size_t len)
{
    /* The key is the full name: "ns::" + name, in a buffer on the stack
     * unless the name is unusually long. */
    char buf[256], *key = buf;
    size_t n = (nslen ? nslen + 2 : 0) + len;
    if (n > sizeof buf && !(key = ta_malloc(n))) return NULL;
    if (nslen) {
        memcpy(key, ns, nslen);
        memcpy(key + nslen, "::", 2);
    }
    memcpy(key + (nslen ? nslen + 2 : 0), name, len);
    const ta_map_entry *e = ta_map_find(&f->index, key, n);
    if (key != buf) free(key);
    return e ? &f->funcs[e->value.i] : NULL;
}

size_t ta_native_count(const ta_native_file *f) { return f ? f->nfuncs : 0; }

const ta_native_func *ta_native_get(const ta_native_file *f, size_t i)
{
    return f && i < f->nfuncs ? &f->funcs[i] : NULL;
}

const char *ta_native_source(const ta_native_file *f) { return f->src.source; }

const char *ta_native_text(const ta_native_file *f, size_t *len)
{
    if (len) *len = f->src.len;
    return f->src.text;
}

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

ta_loc ta_native_loc(const ta_native_file *f, ta_native_pos pos)
{
    return ta_yaml_loc(&f->src, pos);
}

/* The loader parsed func with the line and column of its value. */
ta_loc ta_native_schema_loc(const ta_native_file *f, const ta_native_func *fn, uint32_t off,
                            uint32_t len)
{
    const ta_schema *s = fn->schema;
    ta_native_pos val = ta_native_val_pos(fn, TA_NK_FUNC);
    ta_native_pos pos = {0, 0, 0, len};
    ta_schema_locate(s, off, &pos.line, &pos.col);
    pos.off = val.off + (s->base_col > val.col ? s->base_col - val.col : 0) + off;
    return ta_native_loc(f, pos);
}
