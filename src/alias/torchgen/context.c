/* context.c - the ta_torchgen context: every function of one yaml (then
 * the derived ones) with what torchgen computes of each (its spelling, name,
 * kind, view-ness, signature), and look-up by name. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "alias/torchgen/internal.h"

ta_status ta_torchgen_create(ta_torchgen **out)
{
    ta_torchgen *tg = *out = ta_calloc(1, sizeof *tg);
    if (!tg) return TA_ERR_NOMEM;
    if (ta_arena_create(&tg->arena) != TA_OK) {
        free(tg);
        *out = NULL;
        return TA_ERR_NOMEM;
    }
    /* sized once for the yaml's functions and those derived */
    ta_map_init_in(&tg->by_name, NULL, tg->arena);
    ta_map_init_in(&tg->sig_idx, NULL, tg->arena);
    ta_map_init(&tg->view_keys, NULL);
    return TA_OK;
}

void ta_torchgen_destroy(ta_torchgen *tg)
{
    if (!tg) return;
    free(tg->fns);
    free(tg->sig_first);
    ta_map_clear(&tg->sig_idx);
    free(tg->groups);
    ta_map_clear(&tg->by_name);
    ta_arena_destroy(tg->scratch);
    ta_map_clear(&tg->view_keys);
    ta_arena_destroy(tg->load_arena);
    ta_arena_destroy(tg->arena);
    free(tg);
}

/* torchgen keeps tags and variants as sets (printed sorted), autogen
 * names as a list. */
typedef enum list_order { KEEP_ORDER, SORTED } list_order;

/* An arena copy of a string list, ordered as asked; borrowed strings are
 * the caller's (which must then outlive the context), only the array is
 * copied. */
static const char **copy_list(ta_arena *a, const char *const *src, uint32_t n, list_order order,
                              tg_strings strings, bool *ok)
{
    bool sort = order == SORTED, borrow = strings == TG_BORROW_STRINGS;
    if (n == 0) return NULL;
    const char **dst = ta_arena_zalloc(a, n * sizeof *dst);
    if (!dst) {
        *ok = false;
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        if (!(dst[i] = borrow ? src[i] : ta_arena_strndup(a, src[i], strlen(src[i])))) *ok = false;
    if (*ok && sort && n > 1) {
        /* lists are a few names (tags, variants): an insertion sort, which
         * orders as qsort with cmp_str does, costs less than qsort's call */
        for (uint32_t i = 1; i < n; i++) {
            const char *v = dst[i];
            uint32_t j = i;
            for (; j > 0 && strcmp(dst[j - 1], v) > 0; j--) dst[j] = dst[j - 1];
            dst[j] = v;
        }
    }
    return dst;
}

bool tg_has_tag(const ta_tg_function *f, const char *tag)
{
    for (uint32_t i = 0; i < f->ntags; i++)
        if (strcmp(f->tags[i], tag) == 0) return true;
    return false;
}

static const char *arena_print(ta_arena *a, ta_strbuf *b)
{
    const char *r = b->failed ? NULL : ta_arena_strndup(a, b->p ? b->p : "", b->len);
    ta_strbuf_free(b);
    return r;
}

void tg_describe_schema(const ta_schema *s, bool tagged_inplace_view, ta_schema_kind *kind,
                        bool *is_view_op, ta_strbuf *sig)
{
    tg_args sp;
    tg_args_split(s, &sp);
    tg_opname op = tg_opname_parse(s->name);
    *kind = tg_kind_of(s, &sp, &op);
    *is_view_op = ta_schema_is_view_op(s, tagged_inplace_view);
    /* only the signature's text is kept: print it without building it */
    tg_print_signature_of(sig, s, &sp, &op, 0);
}

ta_str tg_fn_opname(const ta_tg_function *f)
{
    if (f->schema) return f->schema->name;
    const char *dot = strchr(f->name, '.');
    return (ta_str){f->name, (uint32_t)(dot ? (size_t)(dot - f->name) : strlen(f->name))};
}

const char *tg_fn_view_key(const ta_torchgen *tg, const ta_tg_function *f)
{
    const ta_map_entry *e = ta_map_find(&tg->view_keys, &f->index, sizeof f->index);
    return e ? e->value.ptr : NULL;
}

ta_status tg_set_view_key(ta_torchgen *tg, const ta_tg_function *f, const char *key)
{
    /* the map borrows its key: the function's own index field */
    return ta_map_add(&tg->view_keys, &f->index, sizeof f->index, ta_map_ptr((void *)key), NULL);
}

ta_status tg_describe(ta_torchgen *tg, ta_tg_function *f)
{
    const ta_schema *s = f->schema;
    ta_strbuf b;
    ta_strbuf_init(&b);
    if (f->generated) {
        /* a derived schema's text is torchgen's spelling (tg_schema_finish),
         * or NULL in a model without func strings */
        f->func = s->text;
    } else if (tg->no_func) {
        f->func = NULL;
    } else {
        tg_print_schema(&b, s);
        /* most yaml schemas are written as torchgen spells them: then share
         * the schema's text (the schema outlives the context) */
        if (!b.failed && b.len == s->text_len && (!b.len || !memcmp(b.p, s->text, b.len))) {
            f->func = s->text;
            ta_strbuf_free(&b);
        } else if (!(f->func = arena_print(tg->arena, &b))) {
            return TA_ERR_NOMEM;
        }
    }
    if (!f->name) { /* tg_add may have it already */
        tg_print_name(&b, s);
        if (!(f->name = arena_print(tg->arena, &b))) return TA_ERR_NOMEM;
    }
    tg_describe_schema(s, f->ntags && tg_has_tag(f, "inplace_view"), &f->kind, &f->is_view_op, &b);
    const char *sig = b.p ? b.p : "";
    tg->described_hash = ta_map_hash_bytes(sig, b.len);
    const ta_map_entry *same =
        b.failed ? NULL : ta_map_find_h(&tg->sig_idx, sig, b.len, tg->described_hash);
    if (same) {
        f->signature = tg->fns[same->value.i]->signature;
        ta_strbuf_free(&b);
    } else if (!(f->signature = arena_print(tg->arena, &b))) {
        return TA_ERR_NOMEM;
    }
    return TA_OK;
}

ta_status tg_reserve(ta_torchgen *tg, size_t cap)
{
    if (cap <= tg->cap) return TA_OK;
    ta_tg_function **p = ta_realloc(tg->fns, cap * sizeof *p);
    if (!p) return TA_ERR_NOMEM;
    tg->fns = p;
    int32_t *first = ta_realloc(tg->sig_first, cap * sizeof *first);
    if (!first) return TA_ERR_NOMEM;
    tg->sig_first = first;
    tg->cap = cap;
    return TA_OK;
}

ta_status tg_push_in(ta_torchgen *tg, ta_tg_function *f, int32_t first)
{
    if (tg->nfns == tg->cap && tg_reserve(tg, tg->cap ? tg->cap * 2 : 1024) != TA_OK)
        return TA_ERR_NOMEM;
    size_t i = tg->nfns;
    f->index = (uint32_t)i;
    tg->fns[i] = f;
    tg->sig_first[i] = first;
    tg->nfns++;
    /* the first function of a name wins, as a later duplicate is an error elsewhere */
    size_t len = strlen(f->name);
    if (tg->name_filter && !ta_map_find(tg->name_filter, f->name, len)) return TA_OK;
    return ta_map_add(&tg->by_name, f->name, len, ta_map_int(f->index), NULL);
}

ta_status tg_push(ta_torchgen *tg, ta_tg_function *f)
{
    /* room first: a signature in the index always has its function */
    if (tg->nfns == tg->cap && tg_reserve(tg, tg->cap ? tg->cap * 2 : 1024) != TA_OK)
        return TA_ERR_NOMEM;
    ta_map_entry *same; /* the first function of this signature: the new one when it is new */
    if (ta_map_add_h(&tg->sig_idx, f->signature, strlen(f->signature), tg->described_hash,
                     ta_map_int((int64_t)tg->nfns), &same) != TA_OK)
        return TA_ERR_NOMEM;
    return tg_push_in(tg, f, (int32_t)same->value.i);
}

ta_status tg_add(ta_torchgen *tg, const ta_tg_entry *e, tg_strings strings, const char *name)
{
    if (!tg || !e || !e->schema || tg->derived) return TA_ERR_INVALID;
    ta_tg_function *f = ta_arena_zalloc(tg->arena, sizeof *f);
    if (!f) return TA_ERR_NOMEM;
    bool ok = true, borrow = strings == TG_BORROW_STRINGS;
    f->schema = e->schema;
    f->name = name;
    f->source = e->source && !borrow ? ta_arena_strndup(tg->arena, e->source, strlen(e->source))
                                     : e->source;
    if (e->source && !f->source) ok = false;
    f->line = e->line;
    f->tags = copy_list(tg->arena, e->tags, e->ntags, SORTED, strings, &ok);
    f->ntags = e->ntags;
    f->autogen = copy_list(tg->arena, e->autogen, e->nautogen, KEEP_ORDER, strings, &ok);
    f->nautogen = e->nautogen;
    f->variants = strings == TG_BORROW_STRINGS
                      ? e->variants
                      : copy_list(tg->arena, e->variants, e->nvariants, SORTED, strings, &ok);
    f->nvariants = e->nvariants;
    f->manual_cpp_binding = e->manual_cpp_binding;
    f->structured = e->structured;
    if (e->structured_delegate &&
        !(f->structured_delegate =
              borrow ? e->structured_delegate
                     : ta_arena_strndup(tg->arena, e->structured_delegate,
                                        strlen(e->structured_delegate))))
        ok = false;
    f->has_composite_implicit_autograd_kernel = e->has_composite_implicit_autograd_kernel;
    f->has_composite_explicit_autograd_kernel = e->has_composite_explicit_autograd_kernel;
    f->id = e->id;
    if (!ok) return TA_ERR_NOMEM;
    ta_status st = tg_describe(tg, f);
    if (st != TA_OK) return st;
    st = tg_push(tg, f);
    if (st == TA_OK) tg->nyaml = tg->nfns;
    return st;
}

ta_status ta_torchgen_add(ta_torchgen *tg, const ta_tg_entry *e)
{
    return tg_add(tg, e, TG_COPY_STRINGS, NULL);
}

size_t ta_torchgen_count(const ta_torchgen *tg) { return tg ? tg->nfns : 0; }

const ta_tg_function *ta_torchgen_get(const ta_torchgen *tg, size_t i)
{
    return tg && i < tg->nfns ? tg->fns[i] : NULL;
}

size_t ta_torchgen_count_derived(const ta_torchgen *tg) { return tg ? tg->nfns - tg->nyaml : 0; }

int32_t ta_torchgen_find(const ta_torchgen *tg, const char *name)
{
    const ta_map_entry *e = tg && name ? ta_map_find_str(&tg->by_name, name) : NULL;
    return e ? (int32_t)e->value.i : -1;
}

size_t ta_torchgen_group_count(const ta_torchgen *tg) { return tg ? tg->ngroups : 0; }

const ta_tg_group *ta_torchgen_group_get(const ta_torchgen *tg, size_t i)
{
    return tg && i < tg->ngroups ? &tg->groups[i] : NULL;
}
