/* stream_interim.c - ta_tg_stream_* (torchgen.h) until the compact stream
 * lands: each entry added is kept as the check model needs it (its schema
 * parsed again into the model's arena, its strings copied) together with
 * where its entry and autogen names were written; ta_tg_stream_finish
 * derives and groups as ta_torchgen_check_pass does and places the
 * diagnostics the same way. It holds a model of the whole yaml, so it is
 * not small: the compact stream replaces this file. */
#include <stdlib.h>
#include <string.h>

#include "schema/alloc.h"
#include "schema/arena.h"
#include "alias/torchgen/internal.h"

/* Where an entry was written, for placing a diagnostic of its line. */
typedef struct entry_at {
    ta_native_pos pos;       /* the entry's */
    ta_native_pos autogen;   /* its autogen value's, or pos without one */
    ta_native_str *names;    /* the autogen names, with their positions */
    uint32_t nnames;
} entry_at;

struct ta_tg_stream {
    ta_torchgen *tg;
    bool pt2;                /* tags.yaml declares pt2_compliant_tag */
    entry_at *at;            /* every entry added, in yaml order */
    size_t nat, cap;
    const char *source;      /* the yaml's name, kept */
    const char **buf;        /* an entry's tags and autogen names, reused */
    size_t buf_cap;
    ta_diags *scratch;       /* the parser's (a parsed schema parses again) */
};

static bool declares(const ta_native_file *f, const char *tag)
{
    return ta_native_has_tag_set(f) && ta_native_tag_known(f, tag);
}

ta_status ta_tg_stream_create(const ta_native_file *f, ta_tg_stream **out)
{
    *out = NULL;
    ta_tg_stream *s = ta_calloc(1, sizeof *s);
    if (!s) return TA_ERR_NOMEM;
    s->tg = ta_torchgen_create();
    s->scratch = ta_diags_create();
    if (!s->tg || !s->scratch) {
        ta_tg_stream_destroy(s);
        return TA_ERR_NOMEM;
    }
    s->tg->no_func = true; /* the check model (native.c's TG_CHECK_MODEL) */
    s->tg->derived_keep_view_copy = declares(f, "core");
    s->pt2 = declares(f, TG_TAG_PT2_COMPLIANT);
    const char *src = ta_native_source(f);
    if (!(s->source = ta_arena_strndup(s->tg->arena, src, strlen(src)))) {
        ta_tg_stream_destroy(s);
        return TA_ERR_NOMEM;
    }
    *out = s;
    return TA_OK;
}

void ta_tg_stream_destroy(ta_tg_stream *s)
{
    if (!s) return;
    ta_torchgen_destroy(s->tg);
    ta_diags_destroy(s->scratch);
    free(s->at);
    free(s->buf);
    free(s);
}

/* Where fn and its autogen names were written, kept. */
static ta_status note_entry(ta_tg_stream *s, const ta_native_func *fn)
{
    if (s->nat == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        entry_at *v = ta_realloc(s->at, cap * sizeof *v);
        if (!v) return TA_ERR_NOMEM;
        s->at = v;
        s->cap = cap;
    }
    entry_at *e = &s->at[s->nat];
    e->pos = fn->pos;
    e->autogen = ta_native_has_key(fn, TA_NK_AUTOGEN) ? ta_native_val_pos(fn, TA_NK_AUTOGEN) : fn->pos;
    e->nnames = 0;
    e->names = fn->nautogen ? ta_arena_zalloc(s->tg->arena, fn->nautogen * sizeof *e->names) : NULL;
    if (fn->nautogen && !e->names) return TA_ERR_NOMEM;
    for (uint32_t k = 0; k < fn->nautogen; k++, e->nnames++) {
        e->names[k] = fn->autogen[k];
        if (!(e->names[k].s = ta_arena_strndup(s->tg->arena, fn->autogen[k].s, fn->autogen[k].len)))
            return TA_ERR_NOMEM;
    }
    s->nat++;
    return TA_OK;
}

/* fn's schema parsed again into the model's arena. */
static ta_status copy_schema(ta_tg_stream *s, const ta_native_func *fn, ta_schema **out)
{
    const ta_schema *from = fn->schema;
    ta_parse_opts opts = {from->source, from->base_line, from->base_col};
    ta_status st = ta_schema_parse(s->tg->arena, from->text, from->text_len, &opts, out,
                                   s->scratch);
    ta_diags_clear(s->scratch);
    return st == TA_ERR_PARSE ? TA_ERR_INVALID : st;
}

/* An aten operator: its func names no other namespace. */
static bool is_aten(const ta_native_func *fn)
{
    const char *sep = strstr(fn->func.s, "::"), *paren = strchr(fn->func.s, '(');
    return !sep || (paren && paren < sep);
}

/* Room for n strings in s->buf. */
static const char **strings(ta_tg_stream *s, size_t n)
{
    if (n > s->buf_cap) {
        const char **v = ta_realloc(s->buf, n * sizeof *v);
        if (!v) return NULL;
        s->buf = v;
        s->buf_cap = n;
    }
    return s->buf;
}

/* fn's tags (copied), and pt2_compliant_tag as native.c implies it. */
static uint32_t kept_tags(ta_tg_stream *s, const ta_native_func *fn, const char **tags, bool *ok)
{
    uint32_t n = 0;
    bool has_pt2 = false;
    for (uint32_t k = 0; k < fn->ntags; k++) {
        if (!(tags[n++] = ta_arena_strndup(s->tg->arena, fn->tags[k].s, strlen(fn->tags[k].s))))
            *ok = false;
        has_pt2 |= s->pt2 && !strcmp(fn->tags[k].s, TG_TAG_PT2_COMPLIANT);
    }
    if (s->pt2 && !has_pt2 && is_aten(fn)) tags[n++] = TG_TAG_PT2_COMPLIANT;
    return n;
}

ta_status ta_tg_stream_add(ta_tg_stream *s, const ta_native_file *f, const ta_native_func *fn)
{
    (void)f;
    ta_status st = note_entry(s, fn);
    if (st != TA_OK || !fn->schema) return st;
    ta_schema *schema = NULL;
    if ((st = copy_schema(s, fn, &schema)) != TA_OK) return st;
    const char **tags = strings(s, fn->ntags + 1 + fn->nautogen + 1);
    if (!tags) return TA_ERR_NOMEM;
    bool ok = true;
    uint32_t ntags = kept_tags(s, fn, tags, &ok);
    const char **autogen = tags + ntags;
    const entry_at *at = &s->at[s->nat - 1]; /* its autogen names are kept there */
    for (uint32_t k = 0; k < fn->nautogen; k++) autogen[k] = at->names[k].s;
    const char *del = fn->structured_delegate.s;
    if (del && !(del = ta_arena_strndup(s->tg->arena, del, strlen(del)))) ok = false;
    if (!ok) return TA_ERR_NOMEM;
    static const char *const variant_sets[4][2] = {
        {NULL, NULL}, {"function", NULL}, {"method", NULL}, {"function", "method"}};
    unsigned vbits = fn->variants & (TA_VARIANT_FUNCTION | TA_VARIANT_METHOD);
    uint32_t nv = (vbits & 1u) + (vbits >> 1 & 1u);
    ta_tg_entry e = {
        .schema = schema,
        .source = s->source,
        .line = fn->pos.line,
        .tags = tags,
        .ntags = ntags,
        .autogen = autogen,
        .nautogen = fn->nautogen,
        .variants = nv ? variant_sets[vbits] : NULL,
        .nvariants = nv,
        .manual_cpp_binding = fn->manual_cpp_binding,
        .structured = fn->structured,
        .structured_delegate = del,
        .has_composite_implicit_autograd_kernel = fn->has_composite_implicit_autograd_kernel,
        .has_composite_explicit_autograd_kernel = fn->has_composite_explicit_autograd_kernel,
        .id = (int32_t)fn->index,
    };
    /* its strings are the model's own copies (variants: the static sets) */
    return tg_add(s->tg, &e, TG_BORROW_STRINGS, NULL);
}

/* The entry written on line (native.c's entry_at, over the kept entries). */
static const entry_at *entry_on(const ta_tg_stream *s, uint32_t line)
{
    size_t lo = 0, hi = s->nat;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->at[mid].pos.line == line) return &s->at[mid];
        if (s->at[mid].pos.line < line) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* For "autogen names 'X' ...", where X was written (native.c's autogen_pos). */
static ta_native_pos autogen_pos(const entry_at *e, const char *msg)
{
    static const char lead[] = "autogen names '";
    if (strncmp(msg, lead, sizeof lead - 1) != 0) return e->autogen;
    const char *name = msg + sizeof lead - 1, *end = strchr(name, '\'');
    if (!end) return e->autogen;
    for (uint32_t k = 0; k < e->nnames; k++)
        if (e->names[k].len == (uint32_t)(end - name) && !memcmp(e->names[k].s, name, e->names[k].len))
            return e->names[k].pos;
    return e->autogen;
}

ta_status ta_tg_stream_finish(ta_tg_stream *s, const ta_native_file *f, ta_diags *diags)
{
    ta_diags *mine = ta_diags_create();
    if (!mine) return TA_ERR_NOMEM;
    ta_status st = ta_torchgen_derive(s->tg, mine);
    if (st == TA_OK) st = ta_torchgen_group(s->tg, mine);
    for (size_t i = 0; st == TA_OK && i < ta_diags_count(mine); i++) {
        const ta_diag *g = ta_diags_get(mine, i);
        if (g->severity == TA_SEV_NOTE) continue; /* as the check pass */
        const entry_at *e = entry_on(s, g->line);
        if (!e) {
            st = ta_diags_append(diags, g);
            continue;
        }
        ta_native_pos pos = strncmp(g->rule, "autogen-", 8) == 0 ? autogen_pos(e, g->message) : e->pos;
        ta_loc at = ta_native_loc(f, pos);
        st = ta_diag_emit(diags, g->severity, &at, g->rule, "%s", g->message);
        if (st == TA_OK && g->hint) st = ta_diag_hint(diags, "%s", g->hint);
    }
    ta_diags_destroy(mine);
    return st;
}
