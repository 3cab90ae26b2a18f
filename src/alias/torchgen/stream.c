/* stream.c - the torchgen check pass fed one yaml entry at a time
 * (ta_torchgen_stream_*): a check that never holds the whole loaded file.
 *
 * What is kept of an entry is what the check reads of it, compactly:
 *   - every entry: its position (repositioning finds the entry of a line);
 *   - an entry with an autogen: key: the key's value position and its names
 *     (copies, with their positions);
 *   - an entry whose schema parsed (a function of the model): its name, its
 *     signature (interned: one copy per distinct signature), its kind, and
 *     as bits what derivation reads of its schema and tags (view op, manual
 *     binding, composite implicit kernel, tagged core, a tensor-like
 *     return); where its func text is in the yaml text (a copy only when the
 *     text there is not the value, e.g. quoted); a view copy's ("x_copy")
 *     view grouping key (interned too).
 * finish builds the check model (tg_from_native's TG_CHECK_MODEL) from
 * these, its yaml functions without schemas: derivation parses the schema
 * of a group's base from the yaml text only when it derives for that group
 * (ta_torchgen.load), into an arena reset after the group. Then it runs the
 * same derivation, grouping and repositioning as ta_torchgen_check_pass:
 * tests/unit/test_torchgen_stream.c compares the two. The model's function
 * records (a ta_tg_function each, yaml and derived) are most of what finish
 * adds while it runs; tools/bench/bench_torchgen_stream measures both. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "alias/torchgen/autogen_internal.h"

enum {
    BIT_VIEW = 1u << 0,
    BIT_MANUAL = 1u << 1,
    BIT_CIA = 1u << 2,
    BIT_CORE = 1u << 3,
    BIT_TENSOR_RET = 1u << 4,
    BIT_FUNC_COPIED = 1u << 5, /* func_off indexes copies, not the text */
};

/* A function of the model (an entry whose schema parsed). */
typedef struct tgs_fn {
    const char *name;      /* "add.out", in the arena */
    const char *signature; /* interned */
    uint32_t func_off, func_len;
    uint32_t entry;        /* its index among all entries */
    uint32_t first;        /* the first function with its signature (in fns) */
    uint32_t autogen;      /* its autogen: key (in autogen), or NO_AUTOGEN */
    uint8_t kind, bits;
} tgs_fn;

#define NO_AUTOGEN UINT32_MAX

/* Where a function's func text is, once finish has freed the summaries:
 * off indexes the text, or copies when copied. */
typedef struct tgs_func {
    uint32_t off;
    uint32_t len : 31;
    uint32_t copied : 1;
} tgs_func;

/* An entry's autogen: key, for entries that write one. */
typedef struct tgs_autogen {
    uint32_t entry;
    uint32_t n;
    ta_native_pos val;    /* the value's position, when has_key */
    ta_native_str *names; /* s: arena copies */
    bool has_key;
} tgs_autogen;

/* A view copy's grouping key. */
typedef struct tgs_view {
    uint32_t fn;
    const char *key; /* interned */
} tgs_view;

/* A growable array: n items of one size, room for cap. */
typedef struct tgs_vec {
    void *p;
    size_t n, cap;
} tgs_vec;

struct ta_torchgen_stream {
    ta_arena *arena; /* names, interned strings, autogen copies */
    const char *text;
    size_t text_len;
    const char *source;
    ta_map sigs;       /* signature -> its first function (index in fns) */
    ta_map keys;       /* view keys no function has as its signature */
    tgs_vec pos;       /* ta_native_pos per entry */
    tgs_vec fns;       /* tgs_fn */
    tgs_vec autogen;   /* tgs_autogen, in entry order */
    tgs_vec views;     /* tgs_view, in function order */
    tgs_vec copies;    /* const char *: func values not found in the text */
    /* Once the model is built (finish), fns and views are freed: what
     * derivation still reads of a function, where its func text is, moves
     * here (tgs_func, indexed as fns was). */
    struct tgs_func *funcs;
    bool finished;
};

/* Room for one more item of size sz; NULL on OOM. */
static void *vec_push(tgs_vec *v, size_t sz)
{
    if (v->n == v->cap) {
        /* a quarter more once large: at most a fifth of it unused */
        size_t cap = v->cap < 4096 ? (v->cap ? v->cap * 2 : 256) : v->cap + v->cap / 4;
        void *p = ta_realloc(v->p, cap * sz);
        if (!p) return NULL;
        v->p = p;
        v->cap = cap;
    }
    return (char *)v->p + sz * v->n++;
}

ta_status ta_torchgen_stream_create(const ta_native_file *f, ta_torchgen_stream **out)
{
    if (!out) return TA_ERR_INVALID;
    *out = NULL;
    if (!f) return TA_ERR_INVALID;
    ta_torchgen_stream *s = ta_calloc(1, sizeof *s);
    if (!s) return TA_ERR_NOMEM;
    const char *src = ta_native_source(f);
    if (ta_arena_create(&s->arena) == TA_OK)
        s->source = ta_arena_strndup(s->arena, src ? src : "", src ? strlen(src) : 0);
    if (!s->source) {
        ta_torchgen_stream_destroy(s);
        return TA_ERR_NOMEM;
    }
    if (!src) s->source = NULL;
    s->text = ta_native_text(f, &s->text_len);
    ta_map_init(&s->sigs, NULL);
    ta_map_init(&s->keys, NULL);
    *out = s;
    return TA_OK;
}

void ta_torchgen_stream_destroy(ta_torchgen_stream *s)
{
    if (!s) return;
    ta_map_clear(&s->sigs);
    ta_map_clear(&s->keys);
    free(s->pos.p);
    free(s->fns.p);
    free(s->autogen.p);
    free(s->views.p);
    free(s->copies.p);
    free(s->funcs);
    ta_arena_destroy(s->arena);
    free(s);
}

/* The one copy of the string b holds: the key of sigs, else of keys, where
 * it is added to m when new (with value *v); *v is then the value it has.
 * NULL on OOM. */
static const char *intern(ta_torchgen_stream *s, const ta_strbuf *b, ta_map *m, int64_t *v)
{
    if (b->failed) return NULL;
    const char *p = b->p ? b->p : "";
    uint64_t h = ta_map_hash_bytes(p, b->len);
    const ta_map_entry *e = ta_map_find_h(&s->sigs, p, b->len, h);
    if (!e && m == &s->keys) e = ta_map_find_h(&s->keys, p, b->len, h);
    if (e) {
        *v = e->value.i;
        return (const char *)e->key;
    }
    const char *k = ta_arena_strndup(s->arena, p, b->len);
    if (!k || ta_map_add_h(m, k, b->len, h, ta_map_int(*v), NULL) != TA_OK) return NULL;
    return k;
}

static ta_status keep_autogen(ta_torchgen_stream *s, const ta_native_func *fn, uint32_t entry)
{
    tgs_autogen *a = vec_push(&s->autogen, sizeof *a);
    if (!a) return TA_ERR_NOMEM;
    a->entry = entry;
    a->n = 0;
    a->has_key = ta_native_has_key(fn, TA_NK_AUTOGEN);
    a->val = a->has_key ? ta_native_val_pos(fn, TA_NK_AUTOGEN) : fn->pos;
    a->names = fn->nautogen ? ta_arena_zalloc(s->arena, fn->nautogen * sizeof *a->names) : NULL;
    if (fn->nautogen && !a->names) return TA_ERR_NOMEM;
    for (uint32_t k = 0; k < fn->nautogen; k++) {
        a->names[k] = fn->autogen[k];
        a->names[k].s = ta_arena_strndup(s->arena, fn->autogen[k].s, fn->autogen[k].len);
        if (!a->names[k].s) return TA_ERR_NOMEM;
    }
    a->n = fn->nautogen;
    return TA_OK;
}

static bool has_tag(const ta_native_func *fn, const char *tag)
{
    for (uint32_t k = 0; k < fn->ntags; k++)
        if (strcmp(fn->tags[k].s, tag) == 0) return true;
    return false;
}

/* Where fn's func value is: its bytes in the text, else a copy. */
static ta_status locate_func(ta_torchgen_stream *s, const ta_native_func *fn, tgs_fn *r)
{
    const ta_native_str *v = &fn->func;
    r->func_len = v->len;
    if ((size_t)v->pos.off + v->len <= s->text_len &&
        memcmp(s->text + v->pos.off, v->s, v->len) == 0) {
        r->func_off = v->pos.off;
        return TA_OK;
    }
    const char **c = vec_push(&s->copies, sizeof *c);
    if (!c || !(*c = ta_arena_strndup(s->arena, v->s, v->len))) return TA_ERR_NOMEM;
    r->func_off = (uint32_t)(s->copies.n - 1);
    r->bits |= BIT_FUNC_COPIED;
    return TA_OK;
}

/* A view copy's grouping key, kept for finish. */
static ta_status keep_view_key(ta_torchgen_stream *s, const ta_schema *sc)
{
    if (!tg_is_view_copy_name(tg_opname_parse(sc->name).base)) return TA_OK;
    ta_strbuf b;
    ta_strbuf_init(&b);
    tg_print_view_key(&b, sc);
    tgs_view *v = vec_push(&s->views, sizeof *v);
    ta_status st = TA_ERR_NOMEM;
    if (v) {
        v->fn = (uint32_t)(s->fns.n - 1);
        int64_t unused = 0;
        st = (v->key = intern(s, &b, &s->keys, &unused)) ? TA_OK : TA_ERR_NOMEM;
    }
    ta_strbuf_free(&b);
    return st;
}

static ta_status keep_function(ta_torchgen_stream *s, const ta_native_func *fn, uint32_t entry,
                               uint32_t autogen)
{
    const ta_schema *sc = fn->schema;
    tgs_fn *r = vec_push(&s->fns, sizeof *r);
    if (!r) return TA_ERR_NOMEM;
    memset(r, 0, sizeof *r);
    r->entry = entry;
    r->autogen = autogen;
    ta_strbuf b;
    ta_strbuf_init(&b);
    ta_schema_kind kind;
    bool view;
    tg_describe_schema(sc, has_tag(fn, "inplace_view"), &kind, &view, &b);
    int64_t first = (int64_t)(s->fns.n - 1);
    r->signature = intern(s, &b, &s->sigs, &first);
    r->first = (uint32_t)first;
    ta_strbuf_free(&b);
    r->name = ta_arena_strndup(s->arena, fn->name, strlen(fn->name));
    if (!r->signature || !r->name) return TA_ERR_NOMEM;
    r->kind = (uint8_t)kind;
    r->bits = (uint8_t)((view ? BIT_VIEW : 0) | (fn->manual_cpp_binding ? BIT_MANUAL : 0) |
                        (fn->has_composite_implicit_autograd_kernel ? BIT_CIA : 0) |
                        (has_tag(fn, "core") ? BIT_CORE : 0) |
                        (tg_has_tensor_like_return(sc) ? BIT_TENSOR_RET : 0));
    ta_status st = locate_func(s, fn, r);
    return st == TA_OK ? keep_view_key(s, sc) : st;
}

ta_status ta_torchgen_stream_add(ta_torchgen_stream *s, const ta_native_file *f, const ta_native_func *fn)
{
    (void)f;
    if (!s || !fn || s->finished) return TA_ERR_INVALID;
    if (s->pos.n >= UINT32_MAX - 1) return TA_ERR_UNSUPPORTED;
    uint32_t entry = (uint32_t)s->pos.n;
    ta_native_pos *p = vec_push(&s->pos, sizeof *p);
    if (!p) return TA_ERR_NOMEM;
    *p = fn->pos;
    ta_status st = TA_OK;
    uint32_t ag = NO_AUTOGEN;
    if (ta_native_has_key(fn, TA_NK_AUTOGEN) || fn->nautogen) {
        ag = (uint32_t)s->autogen.n;
        st = keep_autogen(s, fn, entry);
    }
    /* an entry whose schema did not parse is no function (the loader reported it) */
    if (st == TA_OK && fn->schema) st = keep_function(s, fn, entry, ag);
    return st;
}

/* ---- finish: the check model from the summaries ----------------------- */

static const tgs_autogen *autogen_of(const ta_torchgen_stream *s, uint32_t entry)
{
    const tgs_autogen *a = s->autogen.p;
    size_t lo = 0, hi = s->autogen.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid].entry == entry) return &a[mid];
        if (a[mid].entry < entry) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* ta_torchgen.load: the schema of yaml function f, parsed again from the
 * text its entry was read from. */
static ta_status load_schema(void *ctx, const ta_tg_function *f, ta_arena *a, const ta_schema **out)
{
    const ta_torchgen_stream *s = ctx;
    const tgs_func *r = &s->funcs[f->index];
    const char *text = r->copied ? ((const char *const *)s->copies.p)[r->off] : s->text + r->off;
    ta_schema *sc = NULL;
    ta_status st = ta_schema_parse(a, text, r->len, NULL, &sc, NULL);
    if (st == TA_ERR_NOMEM) return st;
    *out = sc;
    return st == TA_OK ? TA_OK : TA_ERR_INVALID; /* it parsed when it was added */
}

/* The model function of summary r, its strings borrowed from the stream. */
static ta_tg_function *model_fn(const ta_torchgen_stream *s, ta_torchgen *tg, const tgs_fn *r)
{
    static const char *core_tag[] = {"core"};
    ta_tg_function *f = ta_arena_zalloc(tg->arena, sizeof *f);
    if (!f) return NULL;
    f->name = r->name;
    f->signature = r->signature;
    f->source = s->source;
    f->line = ((const ta_native_pos *)s->pos.p)[r->entry].line;
    /* of its tags, derivation reads only `core` (inplace_view is in is_view_op) */
    f->tags = r->bits & BIT_CORE ? core_tag : NULL;
    f->ntags = r->bits & BIT_CORE ? 1 : 0;
    const tgs_autogen *ags = s->autogen.p;
    const tgs_autogen *a = r->autogen == NO_AUTOGEN ? NULL : &ags[r->autogen];
    if (a && a->n) {
        const char **names = ta_arena_zalloc(tg->arena, a->n * sizeof *names);
        if (!names) return NULL;
        for (uint32_t k = 0; k < a->n; k++) names[k] = a->names[k].s;
        f->autogen = names;
        f->nautogen = a->n;
    }
    f->manual_cpp_binding = r->bits & BIT_MANUAL;
    f->has_composite_implicit_autograd_kernel = r->bits & BIT_CIA;
    f->id = (int32_t)r->entry;
    f->kind = (ta_schema_kind)r->kind;
    f->is_view_op = r->bits & BIT_VIEW;
    return f;
}

/* Every name an autogen list gives: all that derivation looks up by name
 * (ta_torchgen.name_filter). */
static ta_status autogen_names(const ta_torchgen_stream *s, ta_map *names)
{
    const tgs_autogen *a = s->autogen.p;
    ta_status st = TA_OK;
    for (size_t i = 0; i < s->autogen.n && st == TA_OK; i++)
        for (uint32_t k = 0; k < a[i].n && st == TA_OK; k++)
            st = ta_map_add(names, a[i].names[k].s, a[i].names[k].len, ta_map_int(0), NULL);
    return st;
}

/* The summaries the model now holds, freed before derivation (whose peak
 * is finish's): derivation reads of them only where each func text is. */
static ta_status drop_summaries(ta_torchgen_stream *s)
{
    size_t n = s->fns.n;
    if (!(s->funcs = ta_malloc((n ? n : 1) * sizeof *s->funcs))) return TA_ERR_NOMEM;
    const tgs_fn *rs = s->fns.p;
    for (size_t i = 0; i < n; i++)
        s->funcs[i] = (tgs_func){rs[i].func_off, rs[i].func_len & 0x7fffffffu,
                                 (rs[i].bits & BIT_FUNC_COPIED) != 0};
    free(s->fns.p);
    free(s->views.p);
    s->fns.p = s->views.p = NULL;
    s->fns.cap = s->views.cap = 0;
    return TA_OK;
}

/* The check model of the yaml's functions, in yaml order. Its signature
 * index is the stream's (moved: finish runs once). */
static ta_status build_model(ta_torchgen_stream *s, ta_torchgen *tg, uint8_t *bits, ta_map *names)
{
    size_t n = s->fns.n;
    tg->no_func = true;
    tg->no_groups = true;
    tg->yaml_bits = bits;
    tg->load = load_schema;
    tg->load_ctx = s;
    ta_map_clear(&tg->sig_idx);
    tg->sig_idx = s->sigs;
    ta_map_init(&s->sigs, NULL);
    /* the functions, and a fifth more derived (as ta_torchgen_add_native) */
    ta_arena_expect(tg->arena, n * sizeof(ta_tg_function));
    ta_status st = tg_reserve(tg, n + n / 4 + 1);
    if (st == TA_OK) st = autogen_names(s, names);
    tg->name_filter = names;
    if (st == TA_OK) st = ta_map_reserve(&tg->by_name, names->n);
    const tgs_fn *rs = s->fns.p;
    for (size_t i = 0; i < n && st == TA_OK; i++) {
        ta_tg_function *f = model_fn(s, tg, &rs[i]);
        if (!f) return TA_ERR_NOMEM;
        bits[i] = rs[i].bits & BIT_TENSOR_RET ? TG_BIT_TENSOR_LIKE_RETURN : 0;
        st = tg_push_in(tg, f, (int32_t)rs[i].first); /* sig_idx holds its signature */
    }
    const tgs_view *vs = s->views.p;
    for (size_t i = 0; i < s->views.n && st == TA_OK; i++)
        st = tg_set_view_key(tg, tg->fns[vs[i].fn], vs[i].key);
    tg->nyaml = tg->nfns;
    return st == TA_OK ? drop_summaries(s) : st;
}

static uint32_t stream_line(const void *ctx, size_t i)
{
    const ta_torchgen_stream *s = ctx;
    return ((const ta_native_pos *)s->pos.p)[i].line;
}

static void stream_where(const void *ctx, size_t i, tg_entry_where *out)
{
    const ta_torchgen_stream *s = ctx;
    const tgs_autogen *a = autogen_of(s, (uint32_t)i);
    out->pos = ((const ta_native_pos *)s->pos.p)[i];
    out->has_autogen_key = a && a->has_key;
    out->autogen_val = out->has_autogen_key ? a->val : out->pos;
    out->autogen = a ? a->names : NULL;
    out->nautogen = a ? a->n : 0;
}

ta_status ta_torchgen_stream_finish(ta_torchgen_stream *s, const ta_native_file *f, ta_diags *diags)
{
    if (!s || !f || s->finished) return TA_ERR_INVALID;
    s->finished = true;
    ta_torchgen *tg = NULL;
    ta_diags *mine = NULL;
    uint8_t *bits = ta_malloc(s->fns.n ? s->fns.n : 1);
    ta_map names;
    ta_map_init(&names, NULL);
    ta_status st = bits ? ta_torchgen_create(&tg) : TA_ERR_NOMEM;
    if (st == TA_OK) st = ta_diags_create(&mine);
    if (st == TA_OK) st = build_model(s, tg, bits, &names);
    if (st == TA_OK) st = ta_torchgen_derive(tg, mine);
    if (st == TA_OK) st = ta_torchgen_group(tg, mine);
    tg_entries es = {s->pos.n, s, stream_line, stream_where};
    /* notes (autogen entries torchgen accepts and skips) are no finding */
    if (st == TA_OK) st = tg_reposition(f, &es, mine, false, diags);
    ta_torchgen_destroy(tg);
    ta_map_clear(&names);
    ta_diags_destroy(mine);
    free(bits);
    return st;
}

size_t tg_stream_bytes(const ta_torchgen_stream *s)
{
    if (!s) return 0;
    return sizeof *s + ta_arena_bytes(s->arena) +
           (s->sigs.cap + s->keys.cap) * sizeof(ta_map_entry) +
           s->pos.cap * sizeof(ta_native_pos) + s->fns.cap * sizeof(tgs_fn) +
           s->autogen.cap * sizeof(tgs_autogen) + s->views.cap * sizeof(tgs_view) +
           s->copies.cap * sizeof(const char *) + (s->funcs ? s->fns.n * sizeof *s->funcs : 0);
}
