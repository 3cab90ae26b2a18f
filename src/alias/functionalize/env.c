/* env.c - the current contents of memory while the walk rewrites a scope.
 *
 * A scope (the top block, a branch, a loop body, a branch the pass emits)
 * has its own env: for every memory root the value now holding its
 * contents, and for every other value the value now standing for it, or
 * NULL when a write to one of its roots made it stale. A stale view is taken
 * again from its base on its next read (and cached); a write through a view
 * is scattered into each base in turn, up to the root. Values made in a
 * scope are only used in it, so a scope's env starts as a copy of its
 * parent's and is dropped at its end; what leaves a branch leaves through
 * fz_merge_if.
 */
#include <string.h>

#include "alias/functionalize/functionalize_internal.h"
#include "base/alloc.h"

ta_status fz_env_init(fz_pass *p, fz_env *e)
{
    memset(e, 0, sizeof *e);
    e->rcur = ta_calloc(p->nvalues + 1, sizeof *e->rcur);
    e->vcur = ta_calloc(p->nvalues + 1, sizeof *e->vcur);
    return e->rcur && e->vcur ? TA_OK : TA_ERR_NOMEM;
}

ta_status fz_env_copy(fz_pass *p, fz_env *dst, const fz_env *src)
{
    memset(dst, 0, sizeof *dst);
    dst->rcur = ta_malloc(sizeof *dst->rcur * (p->nvalues + 1));
    dst->vcur = ta_malloc(sizeof *dst->vcur * (p->nvalues + 1));
    if (!dst->rcur || !dst->vcur) return TA_ERR_NOMEM;
    memcpy(dst->rcur, src->rcur, sizeof *dst->rcur * p->nvalues);
    memcpy(dst->vcur, src->vcur, sizeof *dst->vcur * p->nvalues);
    return TA_OK;
}

void fz_env_free(fz_env *e)
{
    free(e->rcur);
    free(e->vcur);
    free(e->dirty);
    memset(e, 0, sizeof *e);
}

ta_status fz_emit(fz_pass *p, fz_cursor c, ta_ir_node *n)
{
    (void)p;
    return c.before ? ta_ir_node_insert_before(n, c.before) : ta_ir_node_append(c.block, n);
}

static ta_ir_value *root_now(const fz_env *e, const ta_ir_value *r)
{
    return e->rcur[r->id] ? e->rcur[r->id] : (ta_ir_value *)r;
}

ta_status fz_set_root(fz_pass *p, fz_env *e, ta_ir_value *root, ta_ir_value *v)
{
    uint32_t r = root->id;
    e->rcur[r] = v;
    for (uint32_t i = p->mem_start[r]; i < p->mem_start[r + 1]; i++) e->vcur[p->mem[i]] = NULL;
    if (e->ndirty == e->cap_dirty) {
        uint32_t cap = e->cap_dirty ? 2 * e->cap_dirty : 16;
        ta_ir_value **d = ta_realloc(e->dirty, cap * sizeof *d);
        if (!d) return TA_ERR_NOMEM;
        e->dirty = d, e->cap_dirty = cap;
    }
    e->dirty[e->ndirty++] = root;
    return TA_OK;
}

/* v where c is: itself, or a copy of the constant that defines it. */
static ta_status arg_at(fz_pass *p, fz_cursor c, ta_ir_value *v, ta_ir_value **out)
{
    *out = v;
    if (fz_visible(v, c.block) || v->node->kind->kind != IR_K_CONSTANT) return TA_OK;
    const ta_ir_node *d = v->node;
    ta_ir_node *k;
    if (ta_ir_node_create(p->g, "prim::Constant", NULL, 0, 1, &k) != TA_OK) return TA_ERR_NOMEM;
    ta_ir_value_set_type(k->outputs[0], v->type);
    for (uint32_t i = 0; i < d->nattrs; i++)
        if (ta_ir_node_set_attr(k, d->attrs[i].name, d->attrs[i].value) != TA_OK) return TA_ERR_NOMEM;
    *out = k->outputs[0];
    return fz_emit(p, c, k);
}

/* Emits kind(first..., view's inputs from `from` on) at c; *out its output. */
static ta_status emit_like(fz_pass *p, fz_cursor c, const char *kind, ta_ir_value *const *first, uint32_t nfirst,
                           const ta_ir_node *view, uint32_t from, const ta_ir_type *type, ta_ir_value **out)
{
    ta_ir_value *in[16];
    uint32_t n = 0;
    for (uint32_t i = 0; i < nfirst; i++) in[n++] = first[i];
    for (uint32_t i = from; i < view->ninputs && n < 16; i++) {
        ta_status st = arg_at(p, c, view->inputs[i], &in[n++]);
        if (st != TA_OK) return st;
    }
    ta_ir_node *k;
    if (ta_ir_node_create(p->g, kind, in, n, 1, &k) != TA_OK) return TA_ERR_NOMEM;
    ta_ir_value_set_type(k->outputs[0], type);
    *out = k->outputs[0];
    return fz_emit(p, c, k);
}

static ta_status regen(fz_pass *p, fz_env *e, fz_cursor c, const fz_alias *a, ta_ir_value **out);

static ta_status regen_view(fz_pass *p, fz_env *e, fz_cursor c, const fz_alias *a, ta_ir_value **out)
{
    ta_ir_value *w = a->view->outputs[0], *base;
    if (e->vcur[w->id]) {
        *out = e->vcur[w->id];
        return TA_OK;
    }
    ta_status st = fz_read(p, e, c, a->parent, &base);
    if (st == TA_OK) st = emit_like(p, c, a->view->kind->name, &base, 1, a->view, 1, w->type, out);
    if (st == TA_OK) e->vcur[w->id] = *out, p->report->counts.regenerated++;
    return st;
}

static ta_status emit_if(fz_pass *p, fz_cursor c, ta_ir_value *cond, ta_ir_node **out)
{
    ta_ir_block *b0, *b1;
    if (ta_ir_node_create(p->g, "prim::If", &cond, 1, 0, out) != TA_OK ||
        ta_ir_node_add_block(*out, &b0) != TA_OK || ta_ir_node_add_block(*out, &b1) != TA_OK ||
        fz_emit(p, c, *out) != TA_OK)
        return TA_ERR_NOMEM;
    return TA_OK;
}

static ta_status regen_cond(fz_pass *p, fz_env *e, fz_cursor c, const fz_alias *a, ta_ir_value **out)
{
    ta_ir_node *n;
    if (emit_if(p, c, a->cond, &n) != TA_OK) return TA_ERR_NOMEM;
    const ta_ir_type *type = NULL;
    for (uint32_t b = 0; b < 2; b++) {
        fz_env eb;
        ta_ir_value *v = NULL;
        ta_status st = fz_env_copy(p, &eb, e);
        if (st == TA_OK) st = regen(p, &eb, (fz_cursor){n->blocks[b], NULL}, a->alt[b], &v);
        if (st == TA_OK) st = ta_ir_block_add_output(n->blocks[b], v);
        fz_env_free(&eb);
        if (st != TA_OK) return st;
        type = v->type;
    }
    return ta_ir_node_add_output(n, NULL, type, out) == TA_OK ? TA_OK : TA_ERR_NOMEM;
}

static ta_status regen(fz_pass *p, fz_env *e, fz_cursor c, const fz_alias *a, ta_ir_value **out)
{
    switch (a->kind) {
    case FZ_ROOT:
        *out = root_now(e, a->root);
        return TA_OK;
    case FZ_VIEW:
        return regen_view(p, e, c, a, out);
    case FZ_COND:
        return regen_cond(p, e, c, a, out);
    default:
        return TA_ERR_INVALID;
    }
}

/* A list or tuple built in the graph, built again when an element changed. */
static ta_status read_agg(fz_pass *p, fz_env *e, fz_cursor c, ta_ir_value *l, ta_ir_value **out)
{
    const fz_alias *a = fz_alias_of(p, l);
    if (e->vcur[l->id]) {
        *out = e->vcur[l->id];
        return TA_OK;
    }
    ta_ir_value *in[64];
    bool same = a->nelems <= 64;
    for (uint32_t i = 0; i < a->nelems && i < 64; i++) {
        ta_status st = fz_read(p, e, c, a->elems[i], &in[i]);
        if (st != TA_OK) return st;
        same &= in[i] == a->ctor->inputs[i];
    }
    *out = l;
    if (!same && a->nelems <= 64) {
        ta_ir_node *k;
        if (ta_ir_node_create(p->g, a->ctor->kind->name, in, a->nelems, 1, &k) != TA_OK ||
            fz_emit(p, c, k) != TA_OK)
            return TA_ERR_NOMEM;
        ta_ir_value_set_type(k->outputs[0], l->type);
        *out = k->outputs[0];
    }
    e->vcur[l->id] = *out;
    return TA_OK;
}

ta_status fz_read(fz_pass *p, fz_env *e, fz_cursor c, ta_ir_value *v, ta_ir_value **out)
{
    const fz_alias *a = fz_alias_of(p, v);
    *out = v;
    if (v->id >= p->nvalues || a->kind == FZ_NONE || a->kind == FZ_UNKNOWN) return TA_OK;
    if (a->kind == FZ_AGG) return read_agg(p, e, c, v, out);
    if (e->vcur[v->id]) {
        *out = e->vcur[v->id];
        return TA_OK;
    }
    ta_status st = regen(p, e, c, a, out);
    if (st == TA_OK) e->vcur[v->id] = *out;
    return st;
}

/* ---- writes ------------------------------------------------------------------ */

/* The new contents of view's base after nv was written through the view. */
static ta_status scatter(fz_pass *p, fz_cursor c, const ta_ir_node *view, ta_ir_value *base, ta_ir_value *nv,
                         ta_ir_value **out)
{
    const ta_ir_op *op = fz_op(p, view);
    ta_ir_value *two[2] = {base, nv};
    const ta_ir_type *type = view->inputs[0]->type;
    p->report->counts.scatters++;
    switch (op ? fz_view_kind_of(op) : FZ_NOT_VIEW) {
    case FZ_V_SELECT: return emit_like(p, c, "aten::select_scatter", two, 2, view, 1, type, out);
    case FZ_V_SLICE: return emit_like(p, c, "aten::slice_scatter", two, 2, view, 1, type, out);
    case FZ_V_DIAGONAL: return emit_like(p, c, "aten::diagonal_scatter", two, 2, view, 1, type, out);
    case FZ_V_AS_STRIDED: return emit_like(p, c, "aten::as_strided_scatter", two, 2, view, 1, type, out);
    case FZ_V_TRANSPOSE: return emit_like(p, c, "aten::transpose", &nv, 1, view, 1, type, out);
    case FZ_V_T: return emit_like(p, c, "aten::t", &nv, 1, view, 1, type, out);
    case FZ_V_UNSQUEEZE: return emit_like(p, c, "aten::squeeze", &nv, 1, view, 1, type, out);
    default: return TA_ERR_INVALID;
    }
}

static ta_status write_cond(fz_pass *p, fz_env *e, fz_cursor c, const fz_alias *a, ta_ir_value *nv)
{
    ta_ir_node *n;
    if (emit_if(p, c, a->cond, &n) != TA_OK) return TA_ERR_NOMEM;
    fz_env eb[2];
    memset(eb, 0, sizeof eb);
    ta_status st = fz_env_copy(p, &eb[0], e);
    if (st == TA_OK) st = fz_env_copy(p, &eb[1], e);
    for (uint32_t b = 0; b < 2 && st == TA_OK; b++)
        st = fz_write(p, &eb[b], (fz_cursor){n->blocks[b], NULL}, a->alt[b], nv);
    if (st == TA_OK) st = fz_merge_if(p, e, n, &eb[0], &eb[1]);
    fz_env_free(&eb[0]);
    fz_env_free(&eb[1]);
    return st;
}

ta_status fz_write(fz_pass *p, fz_env *e, fz_cursor c, const fz_alias *a, ta_ir_value *nv)
{
    if (a->kind == FZ_ROOT) return fz_set_root(p, e, a->root, nv);
    if (a->kind == FZ_COND) return write_cond(p, e, c, a, nv);
    if (a->kind != FZ_VIEW) return TA_ERR_INVALID;
    ta_ir_value *parent = a->parent, *base, *nb;
    ta_status st = fz_read(p, e, c, parent, &base);
    if (st == TA_OK) st = scatter(p, c, a->view, base, nv, &nb);
    if (st == TA_OK) st = fz_write(p, e, c, fz_alias_of(p, parent), nb);
    if (st == TA_OK) e->vcur[parent->id] = nb, e->vcur[a->view->outputs[0]->id] = nv;
    return st;
}

ta_status fz_merge_if(fz_pass *p, fz_env *e, ta_ir_node *ifn, fz_env *e0, fz_env *e1)
{
    fz_env *br[2] = {e0, e1};
    p->now++;
    for (uint32_t b = 0; b < 2; b++) {
        for (uint32_t i = 0; i < br[b]->ndirty; i++) {
            ta_ir_value *root = br[b]->dirty[i];
            uint32_t r = root->id;
            if (p->stamp[r] == p->now || !fz_visible(root, ifn->block)) continue;
            p->stamp[r] = p->now;
            ta_ir_value *v0 = root_now(e0, root), *v1 = root_now(e1, root);
            if (v0 == v1) continue;
            ta_ir_value *o;
            if (ta_ir_node_add_output(ifn, NULL, root->type, &o) != TA_OK ||
                ta_ir_block_add_output(ifn->blocks[0], v0) != TA_OK ||
                ta_ir_block_add_output(ifn->blocks[1], v1) != TA_OK)
                return TA_ERR_NOMEM;
            p->report->counts.threaded++;
            ta_status st = fz_set_root(p, e, root, o);
            if (st != TA_OK) return st;
        }
    }
    return TA_OK;
}
