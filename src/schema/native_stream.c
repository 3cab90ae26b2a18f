/* native_stream.c - the streaming check (tensoralias/native.h): the loader
 * fills a window view with entries, the stages run over each full window,
 * and the window is emptied for the next. What outlives a window is the
 * text (read once), the compact name index and the delegates that name a
 * function not read yet, checked at the end.
 *
 * The index maps a name to the line of its first entry and that entry's
 * structured flag (one integer). Its key is the name without namespace for
 * an aten function and "ns::name" otherwise (a bare name has no "::"), and
 * is read from the yaml text itself when the func value starts with it, so
 * most names cost the index a table slot and nothing more. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/grow.h"
#include "schema/native_internal.h"

/* A structured_delegate named before any function of that name was read:
 * its position and the key it is looked up by, name as written at its end. */
typedef struct later_ref {
    ta_native_pos pos;
    const char *key;
    uint32_t len, name_off;
} later_ref;

struct ta_native_stream {
    const ta_native_stage *stages;
    size_t nstages;
    uint32_t window;
    bool complete;    /* every entry is read: a lookup waits no more */
    size_t count;     /* entries flushed */
    ta_map index;     /* key -> line | structured << 32 */
    ta_arena *keys;   /* keys not in the text, later_refs' keys */
    later_ref *later;
    size_t nlater, later_cap;
};

enum { STRUCTURED_BIT = 32 };

uint32_t ta_native_stream_window(const ta_native_stream *s) { return s->window; }

bool ta_native_is_whole(const ta_native_file *f)
{
    /* a window is the whole yaml when it is the first and the reading is
     * over (the last window is flushed after the end is reached) */
    return f && (!f->stream || (f->base == 0 && f->stream->complete));
}

/* The index key of name (len bytes) in namespace ns, in buf (cap bytes)
 * when it needs building; NULL when it does not fit. */
static const char *key_of(const char *ns, const char *name, size_t len, char *buf, size_t cap,
                          size_t *klen)
{
    if (!strcmp(ns, "aten")) {
        *klen = len;
        return name;
    }
    size_t nslen = strlen(ns);
    *klen = nslen + 2 + len;
    if (*klen > cap) return NULL;
    memcpy(buf, ns, nslen);
    memcpy(buf + nslen, "::", 2);
    memcpy(buf + nslen + 2, name, len);
    return buf;
}

/* key[0..len) kept for the stream: the text's own bytes when fn's func
 * value starts with them, else a copy. */
static const char *keep_key(ta_native_stream *s, const ta_native_file *w,
                            const ta_native_func *fn, const char *key, size_t len)
{
    size_t off = fn->func.pos.off;
    if (off < w->src.len && (w->src.text[off] == '"' || w->src.text[off] == '\'')) off++;
    if (off <= w->src.len && len <= w->src.len - off && !memcmp(w->src.text + off, key, len))
        return w->src.text + off;
    return ta_arena_strndup(s->keys, key, len);
}

/* Lines of text[0..len) that start with "- ": about the entries of a yaml
 * written as PyTorch's are. */
static size_t entry_lines(const char *text, size_t len)
{
    size_t n = 0;
    for (const char *p = text, *end = text + len; p < end;) {
        n += end - p >= 2 && p[0] == '-' && p[1] == ' ';
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) break;
        p = nl + 1;
    }
    return n;
}

ta_status ta_native_stream_reserve(ta_native_stream *s, const char *text, size_t len)
{
    /* PyTorch's entries take over 200 bytes each (226 on average in
     * 1.13.1's yaml): one a 256 bytes is about every entry, and a yaml of
     * a few huge entries wastes at most a fifth of its size on the table.
     * A large file's entries are counted instead (a few milliseconds next
     * to seconds of checking): sized once, the table never holds an old
     * copy and a new one at once, whatever the entries' size. */
    return ta_map_reserve(&s->index, len > ((size_t)8 << 20) ? entry_lines(text, len) : len / 256);
}

ta_status ta_native_stream_index(ta_native_stream *s, ta_native_file *w, uint32_t i)
{
    const ta_native_func *fn = &w->funcs[i];
    char buf[256];
    size_t len;
    char *big = NULL;
    const char *key = key_of(fn->ns, fn->name, strlen(fn->name), buf, sizeof buf, &len);
    if (!key) {
        if (!(big = ta_malloc(len))) return TA_ERR_NOMEM;
        key = key_of(fn->ns, fn->name, strlen(fn->name), big, len, &len);
    }
    uint64_t h = ta_map_hash(&s->index, key, len);
    const ta_map_entry *e = ta_map_find_h(&s->index, key, len, h);
    ta_status st = TA_OK;
    if (e) {
        st = ta_native_note_dup(w, i, (uint32_t)e->value.i);
    } else {
        int64_t v = (int64_t)fn->pos.line | (int64_t)fn->structured << STRUCTURED_BIT;
        const char *kept = keep_key(s, w, fn, key, len);
        st = kept ? ta_map_add_h(&s->index, kept, len, h, ta_map_int(v), NULL) : TA_ERR_NOMEM;
    }
    free(big);
    return st;
}

/* Looks key up: *found and *structured. */
static void lookup(const ta_native_stream *s, const char *key, size_t len, bool *found,
                   bool *structured)
{
    const ta_map_entry *e = ta_map_find(&s->index, key, len);
    *found = e != NULL;
    *structured = e && (e->value.i >> STRUCTURED_BIT & 1);
}

static ta_status remember(ta_native_stream *s, const char *key, size_t len,
                          const ta_native_str *del)
{
    if (TA_GROW_ONE(s->later, s->nlater, s->later_cap, 64) != TA_OK) return TA_ERR_NOMEM;
    const char *kept = ta_arena_strndup(s->keys, key, len);
    if (!kept) return TA_ERR_NOMEM;
    s->later[s->nlater++] = (later_ref){del->pos, kept, (uint32_t)len, (uint32_t)(len - del->len)};
    return TA_OK;
}

ta_status ta_native_stream_delegate(ta_native_stream *s, const ta_native_func *fn,
                                    const ta_native_str *del, bool *found, bool *structured,
                                    bool *later)
{
    char buf[256];
    size_t len;
    char *big = NULL;
    const char *key = key_of(fn->ns, del->s, del->len, buf, sizeof buf, &len);
    if (!key) {
        if (!(big = ta_malloc(len))) return TA_ERR_NOMEM;
        key = key_of(fn->ns, del->s, del->len, big, len, &len);
    }
    lookup(s, key, len, found, structured);
    /* not read yet, and more is to come: decided at the end */
    *later = !*found && !s->complete;
    ta_status st = *later ? remember(s, key, len, del) : TA_OK;
    free(big);
    return st;
}

ta_status ta_native_stream_flush(ta_native_stream *s, ta_native_file *w, ta_diags *diags)
{
    ta_status st = TA_OK;
    for (size_t i = 0; i < s->nstages && st == TA_OK; i++) {
        if (!s->stages[i].window) continue;
        st = s->stages[i].window(s->stages[i].ctx, w, diags);
        if (st == TA_ERR_PARSE) st = TA_OK;
    }
    s->count += w->nfuncs;
    w->base += w->nfuncs;
    w->nfuncs = 0;
    w->ndups = 0;
    ta_arena_reset(w->arena);
    return st;
}

/* What the stages' ends do not read, freed before they run (their peak is
 * the stream's): the name index, its keys and the delegates named early,
 * the window's entries, their array and their arena (w keeps its text, its
 * tags and its fixed arena, which then serves as its arena too). */
static void release(ta_native_stream *s, ta_native_file *w)
{
    ta_map_clear(&s->index);
    ta_arena_destroy(s->keys);
    s->keys = NULL;
    free(s->later);
    s->later = NULL;
    s->nlater = s->later_cap = 0;
    free(w->funcs);
    w->funcs = NULL;
    w->funcs_cap = 0;
    if (w->arena != w->fixed) {
        ta_map_clear(&w->index);
        ta_arena_destroy(w->arena);
        w->arena = w->fixed;
    }
}

/* After the reading: the last window, the delegates named early, then the
 * stages' ends. */
static ta_status stream_end(ta_native_stream *s, ta_native_file *w, ta_diags *diags)
{
    s->complete = true;
    ta_status st = w->nfuncs ? ta_native_stream_flush(s, w, diags) : TA_OK;
    for (size_t i = 0; i < s->nlater && st == TA_OK; i++) {
        const later_ref *r = &s->later[i];
        bool found, structured;
        lookup(s, r->key, r->len, &found, &structured);
        st = ta_native_delegate_report(w, diags, r->pos, r->key + r->name_off, found, structured);
    }
    release(s, w);
    for (size_t i = 0; i < s->nstages && st == TA_OK; i++) {
        if (!s->stages[i].finish) continue;
        st = s->stages[i].finish(s->stages[i].ctx, w, diags);
        if (st == TA_ERR_PARSE) st = TA_OK;
    }
    return st;
}

static ta_status stream_init(ta_native_stream *s, const ta_native_stage *stages, size_t n,
                             size_t window)
{
    memset(s, 0, sizeof *s);
    s->stages = stages;
    s->nstages = n;
    if (!window) window = TA_NATIVE_WINDOW_DEFAULT;
    s->window = window > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)window;
    ta_map_init(&s->index, NULL);
    return ta_arena_create(&s->keys);
}

/* The check after loading into w (loaded: the loader's status). */
static ta_status stream_run(ta_native_stream *s, ta_status loaded, ta_native_file *w,
                            size_t errors_before, size_t *count, ta_diags *diags)
{
    ta_status st = w ? stream_end(s, w, diags) : loaded;
    if (count) *count = s->count;
    ta_native_destroy(w);
    ta_map_clear(&s->index);
    ta_arena_destroy(s->keys);
    free(s->later);
    if (st != TA_OK) return st;
    return ta_diags_count_severity(diags, TA_SEV_ERROR) > errors_before ? TA_ERR_PARSE : TA_OK;
}

ta_status ta_native_check_stream_path(const char *path, const char *tags_path,
                                      const ta_native_stage *stages, size_t n, size_t window,
                                      size_t *count, ta_diags *diags)
{
    if (count) *count = 0;
    size_t before = ta_diags_count_severity(diags, TA_SEV_ERROR);
    ta_native_stream s;
    ta_native_file *w = NULL;
    ta_status st = stream_init(&s, stages, n, window);
    if (st == TA_OK) st = ta_native_load_window_path(path, tags_path, &s, &w, diags);
    return stream_run(&s, st, w, before, count, diags);
}

ta_status ta_native_check_stream_buffer(const char *text, size_t len, const char *source,
                                        const char *tags_text, size_t tags_len,
                                        const char *tags_source, const ta_native_stage *stages,
                                        size_t n, size_t window, size_t *count, ta_diags *diags)
{
    if (count) *count = 0;
    size_t before = ta_diags_count_severity(diags, TA_SEV_ERROR);
    ta_native_stream s;
    ta_native_file *w = NULL;
    ta_status st = stream_init(&s, stages, n, window);
    if (st == TA_OK)
        st = ta_native_load_window_buffer(text, len, source, tags_text, tags_len, tags_source, &s,
                                          &w, diags);
    return stream_run(&s, st, w, before, count, diags);
}
