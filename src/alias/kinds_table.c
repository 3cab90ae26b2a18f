/* kinds_table.c - the ta_torchgen context: every function of one yaml (then
 * the derived ones) with what torchgen computes of each (its spelling, name,
 * kind, view-ness, signature), and look-up by name. */
#include <stdlib.h>
#include <string.h>

#include "alias/kinds_internal.h"

ta_torchgen *ta_torchgen_create(void)
{
    ta_torchgen *tg = calloc(1, sizeof *tg);
    if (!tg) return NULL;
    if (!(tg->arena = ta_arena_create())) {
        free(tg);
        return NULL;
    }
    return tg;
}

void ta_torchgen_destroy(ta_torchgen *tg)
{
    if (!tg) return;
    free(tg->fns);
    free(tg->groups);
    tg_map_free(&tg->by_name);
    ta_arena_destroy(tg->arena);
    free(tg);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A sorted arena copy of a string list. */
static const char **copy_list(ta_arena *a, const char *const *src, uint32_t n,
                              bool sort, bool *ok)
{
    if (n == 0) return NULL;
    const char **dst = ta_arena_alloc(a, n * sizeof *dst);
    if (!dst) {
        *ok = false;
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        if (!(dst[i] = ta_arena_strndup(a, src[i], strlen(src[i])))) *ok = false;
    if (*ok && sort) qsort(dst, n, sizeof *dst, cmp_str);
    return dst;
}

bool tg_has_tag(const ta_tg_function *f, const char *tag)
{
    for (uint32_t i = 0; i < f->ntags; i++)
        if (strcmp(f->tags[i], tag) == 0) return true;
    return false;
}

static const char *arena_print(ta_arena *a, tg_buf *b)
{
    const char *r = b->failed ? NULL : ta_arena_strndup(a, b->p ? b->p : "", b->len);
    tg_buf_free(b);
    return r;
}

ta_status tg_describe(ta_torchgen *tg, ta_tg_function *f)
{
    tg_buf b = {0};
    tg_print_schema(&b, f->schema);
    if (!(f->func = arena_print(tg->arena, &b))) return TA_ERR_NOMEM;
    tg_print_name(&b, f->schema);
    if (!(f->name = arena_print(tg->arena, &b))) return TA_ERR_NOMEM;
    f->kind = ta_schema_kind_of(f->schema);
    f->is_view_op = ta_schema_is_view_op(f->schema, tg_has_tag(f, "inplace_view"));
    ta_schema *sig;
    ta_status st = ta_schema_signature(tg->arena, f->schema, 0, &sig);
    if (st != TA_OK) return st;
    f->signature = sig->text;
    return TA_OK;
}

ta_status tg_push(ta_torchgen *tg, ta_tg_function *f)
{
    if (tg->nfns == tg->cap) {
        size_t cap = tg->cap ? tg->cap * 2 : 1024;
        ta_tg_function **p = realloc(tg->fns, cap * sizeof *p);
        if (!p) return TA_ERR_NOMEM;
        tg->fns = p;
        tg->cap = cap;
    }
    f->index = (uint32_t)tg->nfns;
    tg->fns[tg->nfns++] = f;
    /* the first function of a name wins, as a later duplicate is an error elsewhere */
    if (tg_map_get(&tg->by_name, f->name) < 0 &&
        !tg_map_put(&tg->by_name, f->name, (int32_t)f->index))
        return TA_ERR_NOMEM;
    return TA_OK;
}

ta_status ta_torchgen_add(ta_torchgen *tg, const ta_tg_entry *e)
{
    if (!tg || !e || !e->schema || tg->derived) return TA_ERR_INVALID;
    ta_tg_function *f = ta_arena_alloc(tg->arena, sizeof *f);
    if (!f) return TA_ERR_NOMEM;
    bool ok = true;
    f->schema = e->schema;
    f->source = e->source ? ta_arena_strndup(tg->arena, e->source, strlen(e->source)) : NULL;
    f->line = e->line;
    f->tags = copy_list(tg->arena, e->tags, e->ntags, true, &ok);
    f->ntags = e->ntags;
    f->autogen = copy_list(tg->arena, e->autogen, e->nautogen, false, &ok);
    f->nautogen = e->nautogen;
    f->variants = copy_list(tg->arena, e->variants, e->nvariants, true, &ok);
    f->nvariants = e->nvariants;
    f->manual_cpp_binding = e->manual_cpp_binding;
    f->structured = e->structured;
    if (e->structured_delegate &&
        !(f->structured_delegate = ta_arena_strndup(tg->arena, e->structured_delegate,
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

size_t ta_torchgen_count(const ta_torchgen *tg) { return tg ? tg->nfns : 0; }

const ta_tg_function *ta_torchgen_get(const ta_torchgen *tg, size_t i)
{
    return tg && i < tg->nfns ? tg->fns[i] : NULL;
}

size_t ta_torchgen_count_derived(const ta_torchgen *tg) { return tg ? tg->nfns - tg->nyaml : 0; }

int32_t ta_torchgen_find(const ta_torchgen *tg, const char *name)
{
    return tg ? tg_map_get(&tg->by_name, name) : -1;
}

size_t ta_torchgen_group_count(const ta_torchgen *tg) { return tg ? tg->ngroups : 0; }

const ta_tg_group *ta_torchgen_group_get(const ta_torchgen *tg, size_t i)
{
    return tg && i < tg->ngroups ? &tg->groups[i] : NULL;
}
