/* plan.c - before rewriting: the alias of every value, the plan of every
 * node, and the classes of memory roots that must stay mutable.
 *
 * Roots that one value may reach together (a cond's two branches, an
 * aggregate's elements, an unknown alias's candidates) form one class
 * (union-find). A class is tainted, and every write to it stays in place,
 * when some value of it cannot be followed exactly and is used, or when a
 * write to it cannot be made functional: a partial rewrite of one memory
 * would read stale values.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alias/functionalize/functionalize_internal.h"
#include "base/alloc.h"
#include "base/map.h"

const fz_alias *fz_alias_of(const fz_pass *p, const ta_ir_value *v)
{
    static const fz_alias none = {.kind = FZ_NONE};
    return v->id < p->nvalues && p->alias[v->id] ? p->alias[v->id] : &none;
}

const fz_alias *fz_view_base(const fz_pass *p, const fz_alias *a)
{
    return a->up ? a->up : fz_alias_of(p, a->parent);
}

bool fz_visible(const ta_ir_value *v, const ta_ir_block *b)
{
    const ta_ir_block *def = v->node->block;
    for (; b; b = b->owner ? b->owner->block : NULL)
        if (b == def) return true;
    return false;
}

uint32_t fz_find(fz_pass *p, uint32_t v)
{
    while (p->uf[v] != v) v = p->uf[v] = p->uf[p->uf[v]];
    return v;
}

static void unite(fz_pass *p, uint32_t a, uint32_t b)
{
    a = fz_find(p, a), b = fz_find(p, b);
    if (a == b) return;
    p->uf[b] = a;
    if (!p->taint[a]) p->taint[a] = p->taint[b];
    p->foreign[a] |= p->foreign[b];
}

/* Chains deeper than this are not followed (the caller gets cap roots:
 * too many to follow). Well-formed graphs never come near it. */
enum { MAX_STEPS = 4096 };

/* A walk collecting the roots an alias reaches into out[start..cap). */
typedef struct fz_root_walk {
    ta_ir_value **out;
    uint32_t start, n, cap, steps;
    bool full; /* more than cap distinct roots, or too deep */
} fz_root_walk;

/* out[start..n) without repeats, in place: a cond of conds (loops unrolled,
 * branches nested) reaches the same few roots many ways, so a full list is
 * compacted before it counts as too many. Rare: a full list only. */
static void drop_repeats(fz_root_walk *w)
{
    uint32_t m = w->start;
    for (uint32_t i = w->start; i < w->n; i++) {
        uint32_t k = w->start;
        while (k < m && w->out[k] != w->out[i]) k++;
        if (k == m) w->out[m++] = w->out[i];
    }
    w->n = m;
}

static void add_root(fz_root_walk *w, ta_ir_value *r)
{
    if (w->n == w->cap) drop_repeats(w);
    if (w->n == w->cap) w->full = true;
    else w->out[w->n++] = r;
}

/* A cond or aggregate met before in this walk adds nothing new: conds of
 * conds (loops unrolled, branches nested, views pushed into them) share
 * their alternatives, and a walk visiting each once stays linear in their
 * number where one following every path would double with each level. */
static bool seen_before(fz_pass *p, const fz_alias *a)
{
    if (a->kind != FZ_COND && a->kind != FZ_AGG) return false;
    if (a->seen == p->walk) return true;
    ((fz_alias *)a)->seen = p->walk; /* conds and aggregates are all made by new_alias */
    return false;
}

static void roots_at(fz_pass *p, const fz_alias *a, fz_root_walk *w)
{
    while (a->kind == FZ_VIEW && ++w->steps < MAX_STEPS) a = fz_view_base(p, a);
    if (++w->steps >= MAX_STEPS) w->full = true;
    if (seen_before(p, a)) return;
    for (uint32_t i = 0; !w->full && i < 2 && a->kind == FZ_COND; i++) roots_at(p, a->alt[i], w);
    for (uint32_t i = 0; !w->full && a->kind == FZ_AGG && i < a->nelems; i++) roots_at(p, fz_alias_of(p, a->elems[i]), w);
    for (uint32_t i = 0; !w->full && a->kind == FZ_UNKNOWN && i < a->nelems; i++) add_root(w, a->elems[i]);
    if (!w->full && a->kind == FZ_ROOT) add_root(w, a->root);
}

uint32_t fz_roots(fz_pass *p, const fz_alias *a, ta_ir_value **out, uint32_t n, uint32_t cap)
{
    uint32_t steps = 0;
    while (a->kind == FZ_VIEW && ++steps < MAX_STEPS) a = fz_view_base(p, a);
    if (a->kind == FZ_ROOT && n < cap) { /* most values: one root, through views */
        out[n] = a->root;
        return n + 1;
    }
    fz_root_walk w = {.out = out, .start = n, .n = n, .cap = cap, .steps = steps};
    if (++p->walk == 0) p->walk = 1; /* 0 is every new alias's: never the current walk */
    roots_at(p, a, &w);
    return w.full ? cap : w.n;
}

enum { MAX_ROOTS = FZ_MAX_ROOTS };
#ifndef FZ_LOOP_ROUNDS
#define FZ_LOOP_ROUNDS 3
#endif

/* Taints the memory v may reach; foreign: for a reason no loop around
 * it causes (loop_unroll.c unrolls no loop with such writes inside). */
static void taint_by(fz_pass *p, const ta_ir_value *v, const char *why, bool foreign)
{
    ta_ir_value *r[MAX_ROOTS];
    uint32_t n = fz_roots(p, fz_alias_of(p, v), r, 0, MAX_ROOTS);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c = fz_find(p, r[i]->id);
        if (!p->taint[c]) p->taint[c] = why;
        p->foreign[c] |= foreign;
    }
}

static void taint_value(fz_pass *p, const ta_ir_value *v, const char *why)
{
    taint_by(p, v, why, true);
}

bool fz_tainted_foreign(fz_pass *p, const ta_ir_value *v)
{
    ta_ir_value *r[MAX_ROOTS];
    uint32_t n = fz_roots(p, fz_alias_of(p, v), r, 0, MAX_ROOTS);
    if (n == MAX_ROOTS) return true;
    for (uint32_t i = 0; i < n; i++)
        if (p->foreign[fz_find(p, r[i]->id)]) return true;
    return false;
}

const char *fz_tainted(fz_pass *p, const ta_ir_value *v)
{
    ta_ir_value *r[MAX_ROOTS];
    uint32_t n = fz_roots(p, fz_alias_of(p, v), r, 0, MAX_ROOTS);
    if (n == MAX_ROOTS) return "it may reach too many memory roots to follow";
    for (uint32_t i = 0; i < n; i++) {
        const char *why = p->taint[fz_find(p, r[i]->id)];
        if (why) return why;
    }
    return NULL;
}

/* A reason, in the arena; never NULL (a NULL reason would read "not
 * tainted"), so out of memory the reason is generic. */
static const char *fmt(fz_pass *p, const char *f, const char *a, const char *b)
{
    char buf[512];
    snprintf(buf, sizeof buf, f, a, b);
    const char *s = ta_arena_strndup(p->arena, buf, strlen(buf));
    if (!s) p->oom = true;
    return s ? s : "the pass ran out of memory describing why";
}

static bool holds_tensor(const ta_ir_type *t)
{
    switch (t->kind) {
    case TA_IR_TENSOR: case TA_IR_ANY: case TA_IR_CLASS: case TA_IR_ANY_CLASS: case TA_IR_ANY_LIST:
    case TA_IR_ANY_TUPLE: case TA_IR_VAR: case TA_IR_OTHER:
        return true;
    default:
        for (uint32_t i = 0; i < t->nelems; i++)
            if (holds_tensor(t->elems[i])) return true;
        return false;
    }
}

static fz_alias *new_alias(fz_pass *p, fz_alias_kind kind)
{
    fz_alias *a = ta_arena_alloc(p->arena, sizeof *a);
    if (a) memset(a, 0, sizeof *a), a->kind = kind;
    else p->oom = true;
    return a;
}

/* Conds and views taken on another alias (`up`) are made once for each
 * content: a view of conds of conds, pushed into them (push_views), and
 * loops unrolled into nested Ifs reach the same alternatives many ways; one
 * alias for one content keeps them a graph, not a tree that doubles with
 * each level. The key is the alias's own three fields from cond (from view). */
_Static_assert(offsetof(fz_alias, alt) == offsetof(fz_alias, cond) + sizeof(void *) &&
                   offsetof(fz_alias, parent) == offsetof(fz_alias, view) + sizeof(void *) &&
                   offsetof(fz_alias, up) == offsetof(fz_alias, parent) + sizeof(void *),
               "fz_alias: interned fields not contiguous");
enum { KEY3 = 3 * sizeof(void *) };

static const fz_alias *intern(fz_pass *p, ta_map *m, fz_alias *a, const void *key)
{
    ta_map_entry *e;
    if (ta_map_add(m, key, KEY3, ta_map_ptr(a), &e) != TA_OK) {
        p->oom = true;
        return a; /* not shared: still right */
    }
    return e->value.ptr;
}

static const fz_alias *cond_of(fz_pass *p, ta_ir_value *cond, const fz_alias *t, const fz_alias *f)
{
    const void *key[3] = {cond, t, f};
    ta_map_entry *e = ta_map_find(&p->conds, key, KEY3);
    if (e) return e->value.ptr;
    fz_alias *a = new_alias(p, FZ_COND);
    if (!a) return NULL;
    a->cond = cond, a->alt[0] = t, a->alt[1] = f;
    return intern(p, &p->conds, a, &a->cond);
}

static const fz_alias *intern_view(fz_pass *p, ta_ir_node *view, const fz_alias *up)
{
    const void *key[3] = {view, NULL, up};
    ta_map_entry *e = ta_map_find(&p->views, key, KEY3);
    if (e) return e->value.ptr;
    fz_alias *a = new_alias(p, FZ_VIEW);
    if (!a) return NULL;
    a->view = view, a->up = up;
    return intern(p, &p->views, a, &a->view);
}

static bool constant_int(const ta_ir_value *v, int64_t *out);

static bool same_int(const ta_ir_value *a, const ta_ir_value *b)
{
    int64_t x, y;
    return a == b || (constant_int(a, &x) && constant_int(b, &y) && x == y);
}

/* Whether view node b undoes view node a: b(a(x)) has x's memory, sizes
 * and strides, so it is x as far as memory goes (t twice, or transposes
 * of one pair of dims). Loops unrolled transpose a tensor back and forth:
 * a view pushed into their conds (push_views) would otherwise be another
 * chain of views for every order of their iterations, twice as many with
 * each. A view the graph itself takes keeps its chain (its node is there
 * to read again). */
static bool undoes(fz_pass *p, const ta_ir_node *a, const ta_ir_node *b)
{
    const ta_ir_op *oa = fz_op(p, a), *ob = fz_op(p, b);
    fz_view_kind k = oa ? fz_view_kind_at(p, oa) : FZ_NOT_VIEW;
    if (!ob || k != fz_view_kind_at(p, ob)) return false;
    if (k == FZ_V_T) return a->ninputs == 1 && b->ninputs == 1;
    if (k != FZ_V_TRANSPOSE || a->ninputs != 3 || b->ninputs != 3) return false;
    ta_ir_value *const *x = a->inputs, *const *y = b->inputs;
    return (same_int(x[1], y[1]) && same_int(x[2], y[2])) || (same_int(x[1], y[2]) && same_int(x[2], y[1]));
}

/* view taken on up: up's own base when the view undoes up's. */
static const fz_alias *view_on(fz_pass *p, ta_ir_node *view, const fz_alias *up)
{
    if (up->kind == FZ_VIEW && undoes(p, up->view, view)) return fz_view_base(p, up);
    return intern_view(p, view, up);
}

static ta_status set_alias(fz_pass *p, ta_ir_value *v, const fz_alias *a)
{
    if (!a) return TA_ERR_NOMEM;
    p->alias[v->id] = a;
    ta_ir_value *r[MAX_ROOTS];
    uint32_t n = fz_roots(p, a, r, 0, MAX_ROOTS);
    for (uint32_t i = 1; i < n; i++) unite(p, r[0]->id, r[i]->id);
    return TA_OK;
}

static ta_status set_root(fz_pass *p, ta_ir_value *v)
{
    fz_alias *a = new_alias(p, FZ_ROOT);
    if (a) a->root = v;
    return set_alias(p, v, a);
}

/* An alias no one can follow: its candidates are the roots of the given
 * values and v itself. Tainted when v is used; by_loop: because a loop
 * carries it (loop_unroll.c may help), else for a reason of v's own. */
static ta_status unknown_alias(fz_pass *p, ta_ir_value *v, ta_ir_value *const *from, uint32_t nfrom,
                               const char *why, bool by_loop)
{
    fz_alias *a = new_alias(p, FZ_UNKNOWN);
    ta_ir_value *r[MAX_ROOTS];
    uint32_t n = 0;
    for (uint32_t i = 0; i < nfrom && n < MAX_ROOTS - 1; i++)
        n = fz_roots(p, fz_alias_of(p, from[i]), r, n, MAX_ROOTS - 1);
    r[n++] = v;
    if (!a || !(a->elems = ta_arena_alloc(p->arena, n * sizeof *r))) return TA_ERR_NOMEM;
    memcpy(a->elems, r, n * sizeof *r);
    a->nelems = n;
    ta_status st = set_alias(p, v, a);
    if (st == TA_OK && v->nuses)
        taint_by(p, v, fmt(p, "%%%s may alias memory the pass cannot follow: %s", v->name, why), !by_loop);
    return st;
}

static ta_status set_unknown(fz_pass *p, ta_ir_value *v, ta_ir_value *const *from, uint32_t nfrom,
                             const char *why)
{
    return unknown_alias(p, v, from, nfrom, why, false);
}

/* ---- aggregates: lists and tuples built in the graph ---------------------- */

/* A list or tuple whose every use only reads it. */
static bool agg_read_only(fz_pass *p, const ta_ir_value *l)
{
    for (uint32_t i = 0; i < l->nuses; i++) {
        const ta_ir_node *u = l->uses[i].user;
        ir_kind k = u->kind->kind;
        if (k == IR_K_EXTRACTOR && strcmp(u->kind->name, "prim::PythonOp")) continue;
        if (k != IR_K_OTHER) return false;
        const ta_ir_op *op = fz_op(p, u);
        uint32_t at = l->uses[i].index;
        if (!op || op->kind == TA_IR_CONSERVATIVE || at >= op->schema->nargs || op->args[at].write ||
            op->args[at].wild_after)
            return false;
    }
    return true;
}

static bool constant_int(const ta_ir_value *v, int64_t *out)
{
    if (!v->node) return false;
    const ta_ir_node *d = v->node;
    if (d->kind->kind != IR_K_CONSTANT || v->type->kind != TA_IR_INT) return false;
    const char *s = ta_ir_node_attr(d, "value");
    if (!s) return false;
    ta_str str = {s, (uint32_t)strlen(s)};
    return ta_str_to_int(str, out);
}

/* The element of aggregate agg that index value idx names, or NULL. */
static ta_ir_value *agg_element(fz_pass *p, ta_ir_value *agg, const ta_ir_value *idx)
{
    const fz_alias *a = fz_alias_of(p, agg);
    int64_t i;
    if (a->kind != FZ_AGG || !constant_int(idx, &i) || !agg_read_only(p, agg)) return NULL;
    if (i < 0) i += a->nelems;
    return i >= 0 && i < a->nelems ? a->elems[i] : NULL;
}

static ta_status plan_agg(fz_pass *p, ta_ir_node *n)
{
    ta_ir_value *o = n->outputs[0];
    fz_alias *a = new_alias(p, FZ_AGG);
    if (!a || (n->ninputs && !(a->elems = ta_arena_alloc(p->arena, n->ninputs * sizeof *a->elems))))
        return TA_ERR_NOMEM;
    if (n->ninputs) memcpy(a->elems, n->inputs, n->ninputs * sizeof *a->elems);
    a->nelems = n->ninputs;
    a->ctor = n;
    return set_alias(p, o, a);
}

/* __getitem__, TupleIndex, ListUnpack, TupleUnpack of a known aggregate. */
static ta_status plan_extract(fz_pass *p, ta_ir_node *n, bool unpack)
{
    for (uint32_t j = 0; j < n->noutputs; j++) {
        ta_ir_value *o = n->outputs[j];
        if (!holds_tensor(o->type)) continue;
        const fz_alias *a = fz_alias_of(p, n->inputs[0]);
        ta_ir_value *e = NULL;
        if (unpack && a->kind == FZ_AGG && a->nelems == n->noutputs && agg_read_only(p, n->inputs[0]))
            e = a->elems[j];
        else if (!unpack && n->ninputs == 2)
            e = agg_element(p, n->inputs[0], n->inputs[1]);
        ta_status st = e ? set_alias(p, o, fz_alias_of(p, e))
                         : set_unknown(p, o, n->inputs, 1, "it is taken out of a list or tuple the pass cannot follow");
        if (st != TA_OK) return st;
    }
    return TA_OK;
}

/* ---- nodes with schemas ------------------------------------------------- */

static ta_status taint_inputs(fz_pass *p, ta_ir_node *n, const char *why)
{
    for (uint32_t i = 0; i < n->ninputs; i++)
        if (holds_tensor(n->inputs[i]->type)) taint_value(p, n->inputs[i], why);
    return TA_OK;
}

static ta_status plan_opaque(fz_pass *p, ta_ir_node *n, const char *why)
{
    taint_inputs(p, n, why);
    for (uint32_t j = 0; j < n->noutputs; j++) {
        if (!holds_tensor(n->outputs[j]->type)) continue;
        ta_status st = set_unknown(p, n->outputs[j], n->inputs, n->ninputs, why);
        if (st != TA_OK) return st;
    }
    return TA_OK;
}

static ta_status plan_write(fz_pass *p, ta_ir_node *n, const ta_ir_op *op)
{
    fz_write_plan *w = NULL;
    const char *why = NULL;
    ta_status st = fz_counterpart(p, n, op, &w, &why);
    if (st != TA_OK) return st;
    p->plan[n->id] = w ? FZ_FUNCTIONAL : FZ_KEEP;
    p->why[n->id] = why;
    p->wplan[n->id] = w;
    for (uint32_t i = 0; i < op->schema->nargs && i < n->ninputs; i++)
        if (op->args[i].write && !w) taint_value(p, n->inputs[i], fmt(p, "it is written by %s, which stays (%s)", n->kind->name, why));
    for (uint32_t j = 0; j < n->noutputs; j++) {
        ta_ir_value *o = n->outputs[j];
        if (!holds_tensor(o->type)) continue;
        int32_t k = -1;
        for (uint32_t i = 0; i < op->schema->nargs && i < n->ninputs && j < op->schema->nrets; i++)
            if (op->args[i].write && op->args[i].nsets && op->rets[j].nsets &&
                op->args[i].sets[0] == op->rets[j].sets[0])
                k = (int32_t)i;
        st = k >= 0 ? set_alias(p, o, fz_alias_of(p, n->inputs[k]))
             : op->rets[j].nsets || op->rets[j].wild_after || op->rets[j].wild_before
                 ? set_unknown(p, o, n->inputs, n->ninputs, "it is returned by a mutating operator as an alias")
                 : set_root(p, o);
        if (st != TA_OK) return st;
    }
    return TA_OK;
}

static ta_status plan_op(fz_pass *p, ta_ir_node *n)
{
    const ta_ir_op *op = fz_op(p, n);
    if (!op) return plan_opaque(p, n, fmt(p, "it is passed to %s, which has no schema%s", n->kind->name, ""));
    if (op->kind == TA_IR_CONSERVATIVE)
        return plan_opaque(p, n, fmt(p, "it is passed to %s, which may write it without saying so%s", n->kind->name, ""));
    if (n->kind->kind == IR_K_BATCH_NORM || n->kind->kind == IR_K_INSTANCE_NORM) {
        /* AliasDb's special case: the running statistics (inputs 3, 4) may be
         * updated, without a "!" in the schema */
        for (uint32_t i = 3; i < 5 && i < n->ninputs; i++)
            taint_value(p, n->inputs[i], fmt(p, "it is a running statistic %s may update%s", n->kind->name, ""));
    }
    for (uint32_t i = 0; i < op->schema->nargs && i < n->ninputs; i++)
        if (op->args[i].wild_after || (op->args[i].wild_before && op->args[i].write))
            taint_value(p, n->inputs[i], fmt(p, "it enters a container or the wildcard through %s%s", n->kind->name, ""));
    if (fz_op_writes(op)) return plan_write(p, n, op);
    fz_view_kind vk = fz_view_kind_at(p, op);
    for (uint32_t j = 0; j < n->noutputs; j++) {
        ta_ir_value *o = n->outputs[j];
        if (!holds_tensor(o->type)) continue;
        ta_status st;
        if (vk != FZ_NOT_VIEW) {
            fz_alias *a = new_alias(p, FZ_VIEW);
            if (a) a->view = n, a->parent = n->inputs[0];
            st = set_alias(p, o, a);
        } else if (op->kind != TA_IR_PURE_FUNCTION && j < op->schema->nrets &&
                   (op->rets[j].nsets || op->rets[j].wild_after || op->rets[j].wild_before)) {
            st = set_unknown(p, o, n->inputs, n->ninputs,
                             fmt(p, "it is viewed through %s, which the pass cannot invert%s", n->kind->name, ""));
        } else {
            st = set_root(p, o);
        }
        if (st != TA_OK) return st;
    }
    return TA_OK;
}

/* ---- control flow ----------------------------------------------------------- */

static ta_status plan_block(fz_pass *p, ta_ir_block *b);

/* Whether every view in a's chain can be taken again at block b. */
/* Whether every view in a's chain can be taken again at block b; with
 * parents_too, also whether every value viewed is visible there (a loop
 * body's values change from one planning round to the next). */
static bool chain_visible(fz_pass *p, const fz_alias *a, const ta_ir_block *b, bool parents_too)
{
    for (uint32_t steps = 0; a->kind == FZ_VIEW; steps++) {
        if (steps == MAX_STEPS || (parents_too && a->parent && !fz_visible(a->parent, b))) return false;
        for (uint32_t i = 1; i < a->view->ninputs; i++) {
            const ta_ir_value *v = a->view->inputs[i];
            if (!fz_visible(v, b) && v->node->kind->kind != IR_K_CONSTANT) return false;
        }
        a = fz_view_base(p, a);
    }
    if (a->kind == FZ_COND) /* a view of a cond: the cond is chosen at b too */
        return fz_visible(a->cond, b) && chain_visible(p, a->alt[0], b, parents_too) &&
               chain_visible(p, a->alt[1], b, parents_too);
    return a->kind == FZ_ROOT;
}

/* Whether c is computed from scalars alone, by an operator that reads
 * and writes nothing else, from values visible at block at (or constants). */
static bool recomputable(fz_pass *p, const ta_ir_value *c, const ta_ir_block *at)
{
    const ta_ir_node *d = c->node;
    if (d->kind->kind != IR_K_OTHER || d->kind->side_effects || d->nblocks || d->noutputs != 1) return false;
    const ta_ir_op *op = fz_op(p, d);
    if (!op || op->kind == TA_IR_CONSERVATIVE || fz_op_writes(op)) return false;
    for (uint32_t i = 0; i < d->ninputs; i++) {
        const ta_ir_value *v = d->inputs[i];
        ta_ir_type_kind k = v->type->kind;
        if ((k != TA_IR_BOOL && k != TA_IR_INT && k != TA_IR_FLOAT) ||
            (!fz_visible(v, at) && v->node->kind->kind != IR_K_CONSTANT))
            return false;
    }
    return true;
}

/* c's node again, just after If n (constants it reads copied there). */
static ta_ir_value *recompute_after(fz_pass *p, ta_ir_node *n, const ta_ir_value *c)
{
    const ta_ir_node *d = c->node;
    ta_ir_value *in[8];
    ta_ir_node *at = n, *k;
    if (d->ninputs > 8) return NULL;
    for (uint32_t i = 0; i < d->ninputs; i++) {
        in[i] = d->inputs[i];
        if (fz_visible(in[i], n->block)) continue;
        const ta_ir_node *kd = in[i]->node;
        if (ta_ir_node_create(p->g, "prim::Constant", NULL, 0, 1, &k) != TA_OK) return NULL;
        ta_ir_value_set_type(k->outputs[0], in[i]->type);
        for (uint32_t a = 0; a < kd->nattrs; a++)
            if (ta_ir_node_set_attr(k, kd->attrs[a].name, kd->attrs[a].value) != TA_OK) return NULL;
        ir_node_link_after(k, at), at = k;
        in[i] = k->outputs[0];
    }
    if (ir_node_create_kind(p->g, d->kind, in, d->ninputs, 1, &k) != TA_OK) return NULL;
    ta_ir_value_set_type(k->outputs[0], c->type);
    ir_node_link_after(k, at);
    return k->outputs[0];
}

/* The bool value c as seen after If n, whose branch b uses it: c itself
 * when visible there; else, when c is a scalar function of what is
 * visible there, c computed again just after n; else a new output of n
 * that is c in branch b (and false in the other, where the alias depending
 * on it is not chosen). Computing it again keeps the bool out of the
 * branch's outputs: torch 1.13.1's interpreter, emitting a loop inline at
 * the branch's return (interpreter_quirk.c), may free a returned bool that
 * its common subexpression elimination made the loop read
 * (tests/data/functionalize/exported_cond_read_in_loop.ir). */
static ta_ir_value *export_cond(fz_pass *p, ta_ir_node *n, int b, ta_ir_value *c)
{
    if (fz_visible(c, n->block)) return c;
    if (b < 0) return NULL;
    if (recomputable(p, c, n->block)) {
        ta_ir_value *r = recompute_after(p, n, c);
        if (!r) p->oom = true;
        return r;
    }
    ta_ir_node *k;
    ta_ir_value *o = NULL;
    if (ta_ir_node_create(p->g, "prim::Constant", NULL, 0, 1, &k) == TA_OK &&
        ta_ir_node_set_attr(k, "value", "0") == TA_OK && ta_ir_node_append(n->blocks[1 - b], k) == TA_OK) {
        ta_ir_value_set_type(k->outputs[0], c->type);
        if (ta_ir_node_add_output(n, NULL, c->type, &o) == TA_OK &&
            (ta_ir_block_add_output(n->blocks[b], c) != TA_OK ||
             ta_ir_block_add_output(n->blocks[1 - b], k->outputs[0]) != TA_OK))
            o = NULL;
    }
    if (!o) p->oom = true;
    return o;
}

/* A view of a cond is the cond of the view of each alternative:
 * transpose(c ? A : B) is c ? transpose(A) : transpose(B). a with its views
 * pushed into the conds they view (a itself when it views none), NULL when
 * out of memory or too deep. */
static const fz_alias *push_views(fz_pass *p, const fz_alias *a, uint32_t depth)
{
    if (a->kind != FZ_VIEW) return a;
    if (depth > 64) return NULL;
    /* the same view of the same base pushes the same way: remembered under
     * the view taken on the base (a view of a value views the value's alias,
     * which may change from one planning round of a loop to the next) */
    const fz_alias *base = fz_view_base(p, a), *key = intern_view(p, a->view, base);
    ta_map_entry *e = key ? ta_map_find(&p->pushed, &key->view, KEY3) : NULL;
    if (e) return e->value.ptr;
    const fz_alias *pushed = key ? push_views(p, base, depth + 1) : NULL, *alt[2];
    if (!pushed || pushed->kind != FZ_COND) return pushed == base ? a : NULL;
    for (int i = 0; i < 2; i++) {
        const fz_alias *v = view_on(p, a->view, pushed->alt[i]);
        if (!v || !(alt[i] = push_views(p, v, depth + 1))) return NULL;
    }
    const fz_alias *c = cond_of(p, pushed->cond, alt[0], alt[1]);
    if (c && ta_map_add(&p->pushed, &key->view, KEY3, ta_map_ptr((void *)c), NULL) != TA_OK) p->oom = true;
    return c;
}

/* Memory made inside a branch that two of the If's outputs reach (as
 * different values): each root, with the output returning it whole, its
 * owner (-1: none), whose self the others' views are rebuilt on. */
typedef struct fz_shared {
    const ta_ir_value *root;
    uint32_t slot;  /* an output reaching it */
    int32_t owner;  /* in the first entry of each root */
} fz_shared;

typedef struct fz_inside {
    fz_shared *s;   /* sorted by root, then slot */
    uint32_t n;
    const fz_alias *const *self; /* per output of the If */
} fz_inside;

static const fz_shared *find_shared(const fz_inside *in, const ta_ir_value *r)
{
    uint32_t lo = 0, hi = in ? in->n : 0;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (in->s[mid].root->id < r->id) lo = mid + 1;
        else hi = mid;
    }
    return lo < (in ? in->n : 0) && in->s[lo].root == r ? &in->s[lo] : NULL;
}

/* The view chain a (down to the root made in the branch) taken again on
 * self, the If output owning that root; NULL when a view's arguments are
 * not to be had after the If, or a is no chain of views over a root. */
static const fz_alias *rebase(fz_pass *p, const fz_alias *a, const ta_ir_block *at, const fz_alias *self,
                              uint32_t depth)
{
    if (a->kind == FZ_ROOT) return self;
    if (a->kind != FZ_VIEW || depth > 64) return NULL;
    for (uint32_t i = 1; i < a->view->ninputs; i++) {
        const ta_ir_value *v = a->view->inputs[i];
        if (!fz_visible(v, at) && v->node->kind->kind != IR_K_CONSTANT) return NULL;
    }
    const fz_alias *base = rebase(p, fz_view_base(p, a), at, self, depth + 1);
    return base ? view_on(p, a->view, base) : NULL;
}

/* a (the alias of what branch b of n returns; b = -1: a loop body), as seen
 * after n: itself when it reaches only memory visible there, *self when it
 * reaches only memory made inside n that no other output reaches, a view
 * of the owner's self when another output returns that memory whole (in:
 * the shared memory, NULL for none), a cond of those; NULL when it cannot
 * be followed. */
static const fz_alias *localize(fz_pass *p, const fz_alias *a, ta_ir_node *n, int b, const fz_alias *self,
                                const fz_inside *in)
{
    ta_ir_value *r[MAX_ROOTS];
    if (a->kind == FZ_COND) {
        const fz_alias *l0 = localize(p, a->alt[0], n, b, self, in), *l1 = localize(p, a->alt[1], n, b, self, in);
        if (!l0 || !l1) return NULL;
        if (l0 == l1) return l0;
        if (l0 == a->alt[0] && l1 == a->alt[1] && fz_visible(a->cond, n->block)) return a;
        ta_ir_value *c = export_cond(p, n, b, a->cond);
        return c ? cond_of(p, c, l0, l1) : NULL;
    }
    if (a->kind != FZ_ROOT && a->kind != FZ_VIEW) return NULL;
    uint32_t cnt = fz_roots(p, a, r, 0, MAX_ROOTS), inside = 0;
    if (cnt == MAX_ROOTS) return NULL; /* a list cut short */
    const fz_shared *s = NULL;
    for (uint32_t i = 0; i < cnt; i++) {
        if (fz_visible(r[i], n->block)) continue;
        inside++;
        const fz_shared *x = find_shared(in, r[i]);
        if (x) s = x;
    }
    if (s && cnt == 1) return s->owner >= 0 ? rebase(p, a, n->block, in->self[s->owner], 0) : NULL;
    if (!s && cnt && inside == cnt) return self;
    if (!s && cnt && inside == 0 && chain_visible(p, a, n->block, false)) return a;
    const fz_alias *pushed = b >= 0 ? push_views(p, a, 0) : NULL; /* a view of a cond made in the branch */
    return pushed && pushed != a ? localize(p, pushed, n, b, self, in) : NULL;
}

/* Whether two of n's results (of branch b's outputs outs) reach the same
 * memory made inside n: then neither is memory of its own. */
static bool shares_inside(fz_pass *p, ta_ir_node *n, ta_ir_value *const *outs, uint32_t nouts, uint32_t j)
{
    ta_ir_value *r[MAX_ROOTS], *q[MAX_ROOTS];
    uint32_t nr = fz_roots(p, fz_alias_of(p, outs[j]), r, 0, MAX_ROOTS);
    for (uint32_t k = 0; k < nouts; k++) {
        if (k == j) continue;
        uint32_t nq = fz_roots(p, fz_alias_of(p, outs[k]), q, 0, MAX_ROOTS);
        for (uint32_t x = 0; x < nr; x++)
            for (uint32_t y = 0; y < nq; y++)
                if (r[x] == q[y] && !fz_visible(r[x], n->block)) return true;
    }
    return false;
}

static const fz_alias *self_alias(fz_pass *p, ta_ir_value *o)
{
    fz_alias *s = new_alias(p, FZ_ROOT);
    if (s) s->root = o;
    return s;
}

static ta_status set_cond(fz_pass *p, ta_ir_value *o, ta_ir_value *cond, const fz_alias *t, const fz_alias *f,
                          ta_ir_value *const *from, uint32_t nfrom, const char *why)
{
    if (!t || !f) return unknown_alias(p, o, from, nfrom, why, true);
    if (t == f) return set_alias(p, o, t);
    return set_alias(p, o, cond_of(p, cond, t, f));
}

static int cmp_shared(const void *x, const void *y)
{
    const fz_shared *a = x, *b = y;
    if (a->root->id != b->root->id) return a->root->id < b->root->id ? -1 : 1;
    return a->slot < b->slot ? -1 : a->slot > b->slot;
}

/* The first output of branch b returning the very value output j returns. */
static uint32_t first_slot(ta_ir_value *const *outs, uint32_t j)
{
    uint32_t k = 0;
    while (outs[k] != outs[j]) k++;
    return k;
}

/* The memory made inside branch b of If n that outputs returning different
 * values reach, into in (in->s to free): each root's entries, the first
 * with its owner, the first output whose alias is that root whole (a loop
 * carrying one value in two slots, unrolled, returns it twice; a value and
 * its transpose are one memory). */
static ta_status shared_inside(fz_pass *p, ta_ir_node *n, int b, uint32_t nout, fz_inside *in)
{
    ta_ir_value *const *outs = n->blocks[b]->ret->inputs;
    ta_ir_value *r[MAX_ROOTS];
    uint32_t cap = 0, m = 0;
    fz_shared *all = NULL;
    for (uint32_t j = 0; j < nout; j++) {
        uint32_t nr = holds_tensor(n->outputs[j]->type) ? fz_roots(p, fz_alias_of(p, outs[j]), r, 0, MAX_ROOTS) : 0;
        for (uint32_t i = 0; i < nr; i++) {
            if (fz_visible(r[i], n->block)) continue;
            if (m == cap) {
                cap = cap ? 2 * cap : 16;
                fz_shared *x = ta_realloc(all, cap * sizeof *x);
                if (!x) return free(all), TA_ERR_NOMEM;
                all = x;
            }
            all[m++] = (fz_shared){.root = r[i], .slot = j, .owner = -1};
        }
    }
    if (m > 1) qsort(all, m, sizeof *all, cmp_shared);
    uint32_t k = 0; /* keeps the roots that two values reach */
    for (uint32_t i = 0, e; i < m; i = e) {
        bool two = false;
        int32_t owner = -1;
        for (e = i; e < m && all[e].root == all[i].root; e++) {
            two |= outs[all[e].slot] != outs[all[i].slot];
            if (owner < 0 && fz_alias_of(p, outs[all[e].slot])->kind == FZ_ROOT) owner = (int32_t)all[e].slot;
        }
        if (!two) continue;
        for (uint32_t x = i; x < e; x++) all[k] = all[x], all[k++].owner = owner;
    }
    in->s = all, in->n = k;
    return TA_OK;
}

/* An output that cannot be followed in a branch leaves every output
 * sharing memory with it there unfollowed too (they become unknown, all
 * in one class); until nothing changes. */
static void unfollow_sharers(const fz_inside *in, const fz_alias **l)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0, e; i < in->n; i = e) {
            bool lost = false;
            for (e = i; e < in->n && in->s[e].root == in->s[i].root; e++) lost |= !l[in->s[e].slot];
            for (uint32_t x = i; lost && x < e; x++)
                if (l[in->s[x].slot]) l[in->s[x].slot] = NULL, changed = true;
        }
    }
}

/* Each output of n is memory of its own (its self: a root) where a branch
 * makes it, a cond when the branches differ; where outputs share memory a
 * branch makes, the one returning it whole owns it and the others are
 * views of its self, so that a write through one is a write through the
 * other. */
static ta_status plan_if(fz_pass *p, ta_ir_node *n)
{
    for (uint32_t b = 0; b < n->nblocks; b++) {
        ta_status st = plan_block(p, n->blocks[b]);
        if (st != TA_OK) return st;
    }
    uint32_t nout = n->noutputs; /* export_cond adds outputs after these */
    const fz_alias **self = ta_calloc(3 * (size_t)nout + 1, sizeof *self), **l[2] = {NULL, NULL};
    fz_inside in[2] = {{0}};
    ta_status st = self ? TA_OK : TA_ERR_NOMEM;
    if (st == TA_OK) l[0] = self + nout, l[1] = self + 2 * nout;
    for (uint32_t j = 0; j < nout && st == TA_OK; j++)
        if (holds_tensor(n->outputs[j]->type) && !(self[j] = self_alias(p, n->outputs[j]))) st = TA_ERR_NOMEM;
    for (int b = 0; b < 2 && st == TA_OK; b++) {
        ta_ir_value *const *outs = n->blocks[b]->ret->inputs;
        st = shared_inside(p, n, b, nout, &in[b]);
        in[b].self = self;
        for (uint32_t j = 0; j < nout && st == TA_OK; j++)
            if (holds_tensor(n->outputs[j]->type))
                l[b][j] = localize(p, fz_alias_of(p, outs[j]), n, b, self[first_slot(outs, j)], &in[b]);
        if (st == TA_OK) unfollow_sharers(&in[b], l[b]);
    }
    for (uint32_t j = 0; j < nout && st == TA_OK; j++) {
        ta_ir_value *o = n->outputs[j];
        if (!holds_tensor(o->type)) continue;
        ta_ir_value *outs[2] = {n->blocks[0]->ret->inputs[j], n->blocks[1]->ret->inputs[j]};
        st = set_cond(p, o, n->inputs[0], l[0][j], l[1][j], outs, 2,
                      "it is returned by an If whose branches the pass cannot follow");
    }
    free(in[0].s);
    free(in[1].s);
    free(self);
    return st;
}

/* "The loop body runs at least once": trip > 0 and the initial condition. */
static uint32_t depth(const ta_ir_block *b)
{
    uint32_t d = 0;
    for (; b && b->owner; b = b->owner->block) d++;
    return d;
}

/* The node after which the guard of loop goes: as far out as its trip count
 * (a constant is copied) and condition allow, so that what depends on it can
 * be followed outside the blocks around the loop too. */
static ta_ir_node *guard_place(const ta_ir_node *loop, bool *copy_trip)
{
    const ta_ir_value *trip = loop->inputs[0], *cond = loop->inputs[1];
    *copy_trip = trip->node->kind->kind == IR_K_CONSTANT && trip->node->nattrs == 1;
    const ta_ir_node *at = cond->node;
    if (!*copy_trip) {
        uint32_t dt = depth(trip->node->block), dc = depth(cond->node->block);
        if (dt > dc || (dt == dc && ta_ir_node_is_before(cond->node, trip->node))) at = trip->node;
    }
    return (ta_ir_node *)at; /* a param sentinel: the start of its block */
}

static ta_status loop_guard(fz_pass *p, ta_ir_node *loop, ta_ir_value **out)
{
    if ((*out = p->guard[loop->id])) return TA_OK; /* planned before, in an earlier round */
    ta_ir_graph *g = p->g;
    bool copy_trip;
    ta_ir_node *at = guard_place(loop, &copy_trip), *trip = NULL;
    if (copy_trip) {
        if (ta_ir_node_create(g, "prim::Constant", NULL, 0, 1, &trip) != TA_OK ||
            ta_ir_node_set_attr(trip, loop->inputs[0]->node->attrs[0].name,
                                loop->inputs[0]->node->attrs[0].value) != TA_OK)
            return TA_ERR_NOMEM;
        ta_ir_value_set_type(trip->outputs[0], loop->inputs[0]->type);
    }
    ta_ir_node *zero;
    if (ta_ir_node_create(g, "prim::Constant", NULL, 0, 1, &zero) != TA_OK ||
        ta_ir_node_set_attr(zero, "value", "0") != TA_OK)
        return TA_ERR_NOMEM;
    ta_ir_value_set_type(zero->outputs[0], ta_ir_type_simple(g, TA_IR_INT));
    ta_ir_value *gt_in[2] = {trip ? trip->outputs[0] : loop->inputs[0], zero->outputs[0]};
    ta_ir_node *gt;
    if (ta_ir_node_create(g, "aten::gt", gt_in, 2, 1, &gt) != TA_OK) return TA_ERR_NOMEM;
    ta_ir_value_set_type(gt->outputs[0], ta_ir_type_simple(g, TA_IR_BOOL));
    ta_ir_value *and_in[2] = {gt->outputs[0], loop->inputs[1]};
    ta_ir_node *and;
    if (ta_ir_node_create(g, "aten::__and__", and_in, 2, 1, &and) != TA_OK) return TA_ERR_NOMEM;
    ta_ir_value_set_type(and->outputs[0], ta_ir_type_simple(g, TA_IR_BOOL));
    ta_ir_node *seq[4] = {trip, zero, gt, and};
    for (int i = 0; i < 4; i++)
        if (seq[i]) ir_node_link_after(seq[i], at), at = seq[i];
    *out = p->guard[loop->id] = and->outputs[0];
    return TA_OK;
}

/* "This is the body's first iteration": its iteration number is 0. */
static ta_status first_iteration(fz_pass *p, ta_ir_block *body, ta_ir_value **out)
{
    if ((*out = p->first[body->owner->id])) return TA_OK;
    ta_ir_graph *g = p->g;
    ta_ir_node *zero;
    if (ta_ir_node_create(g, "prim::Constant", NULL, 0, 1, &zero) != TA_OK ||
        ta_ir_node_set_attr(zero, "value", "0") != TA_OK)
        return TA_ERR_NOMEM;
    ta_ir_value_set_type(zero->outputs[0], ta_ir_type_simple(g, TA_IR_INT));
    ta_ir_value *in[2] = {body->param->outputs[0], zero->outputs[0]};
    ta_ir_node *eq;
    if (ta_ir_node_create(g, "aten::eq", in, 2, 1, &eq) != TA_OK) return TA_ERR_NOMEM;
    ta_ir_value_set_type(eq->outputs[0], ta_ir_type_simple(g, TA_IR_BOOL));
    ir_node_link_after(zero, body->param);
    ir_node_link_after(eq, zero);
    *out = p->first[body->owner->id] = eq->outputs[0];
    return TA_OK;
}

static bool followable(const fz_alias *a)
{
    return a->kind == FZ_ROOT || a->kind == FZ_VIEW || a->kind == FZ_COND;
}

/* a with the stand-in own (memory the previous iteration made) replaced by
 * root, the parameter's own memory. */
static const fz_alias *with_own(fz_pass *p, const fz_alias *a, const fz_alias *own, const fz_alias *root)
{
    if (a == own) return root;
    if (a->kind != FZ_COND) return a;
    const fz_alias *x = with_own(p, a->alt[0], own, root), *y = with_own(p, a->alt[1], own, root);
    if (!x || !y) return NULL;
    if (x == a->alt[0] && y == a->alt[1]) return a;
    return cond_of(p, a->cond, x, y);
}

/* What a loop's carried tensor holds after the first iteration: later[j] is
 * an alias of memory from before the loop, the parameter's own memory
 * (`own`: memory the previous iteration made), or NULL (unknown). */
static ta_status plan_params(fz_pass *p, ta_ir_node *n, const fz_alias *const *later, const fz_alias *own)
{
    ta_ir_block *body = n->blocks[0];
    ta_ir_value *first = NULL;
    for (uint32_t j = 0; j < n->noutputs; j++) {
        ta_ir_value *param = body->param->outputs[j + 1], *init = n->inputs[j + 2];
        const fz_alias *f = fz_alias_of(p, init), *l = later[j];
        if (!holds_tensor(param->type)) continue;
        ta_status st = TA_OK;
        const fz_parity *q = fz_parity_of(p, n, j);
        if (q && followable(f)) {
            st = set_alias(p, param, cond_of(p, q->flag, f, fz_alias_of(p, q->transposed)));
        } else if (!followable(f) || !l) {
            /* a taint is for good, even when a later round follows it: loop_unroll.c may help */
            if (followable(f) && param->nuses) p->unroll[n->id] = 1;
            st = unknown_alias(p, param, &init, 1, "it is carried around a loop, aliasing what it started as or what an iteration left", true);
        } else if (l == f) {
            st = set_alias(p, param, f);
        } else {
            fz_alias *r = new_alias(p, FZ_ROOT);
            if (!r) return TA_ERR_NOMEM;
            r->root = param;
            if (!(l = with_own(p, l, own, r))) return TA_ERR_NOMEM;
            if (!first) st = first_iteration(p, body, &first);
            if (st == TA_OK) st = set_alias(p, param, cond_of(p, first, f, l));
        }
        if (st != TA_OK) return st;
    }
    return TA_OK;
}

/* Whether a and b describe the same memory the same way. */
static bool alias_equal(const fz_alias *a, const fz_alias *b)
{
    if (a == b) return true;
    if (!a || !b || a->kind != b->kind) return false;
    switch (a->kind) {
    case FZ_ROOT: return a->root == b->root;
    case FZ_VIEW: return a->view == b->view && a->parent == b->parent && alias_equal(a->up, b->up);
    case FZ_COND: return a->cond == b->cond && alias_equal(a->alt[0], b->alt[0]) && alias_equal(a->alt[1], b->alt[1]);
    default: return false;
    }
}

/* What each carried tensor of the planned body holds at its end (see
 * plan_params; a cond may choose between memory from before the loop and
 * the previous iteration's); returns whether that is what was assumed. */
static bool carried_after(fz_pass *p, ta_ir_node *n, const fz_alias **later, const fz_alias *own)
{
    ta_ir_block *body = n->blocks[0];
    bool same = true;
    for (uint32_t j = 0; j < n->noutputs; j++) {
        ta_ir_value *last = body->ret->inputs[j + 1], *param = body->param->outputs[j + 1];
        const fz_alias *l = NULL;
        if (fz_parity_of(p, n, j) && followable(fz_alias_of(p, n->inputs[j + 2]))) continue; /* known already */
        if (last == param || fz_alias_of(p, last) == fz_alias_of(p, param)) l = fz_alias_of(p, n->inputs[j + 2]);
        else if (!shares_inside(p, n, body->ret->inputs + 1, n->noutputs, j))
            l = localize(p, fz_alias_of(p, last), n, -1, own, NULL);
        if (l && !followable(l)) l = NULL;
        if (l && l != own && !chain_visible(p, l, n->block, true)) l = NULL; /* views of what the body makes */
        if (alias_equal(l, later[j])) l = later[j];
        same &= l == later[j];
        later[j] = l;
    }
    return same;
}

static ta_status plan_loop(fz_pass *p, ta_ir_node *n)
{
    ta_ir_block *body = n->blocks[0];
    uint32_t ncarried = n->noutputs;
    const fz_alias **later = ta_calloc(ncarried + 1, sizeof *later);
    fz_alias own = {.kind = FZ_ROOT};
    if (!later) return TA_ERR_NOMEM;
    /* first assume every body makes the memory it carries on, then what the
     * planned body shows, until they agree (or, after three rounds, unknown) */
    for (uint32_t j = 0; j < ncarried; j++)
        later[j] = body->ret->inputs[j + 1] == body->param->outputs[j + 1] ? fz_alias_of(p, n->inputs[j + 2]) : &own;
    ta_status st = TA_OK;
    for (int round = 0; st == TA_OK; round++) {
        if (round == FZ_LOOP_ROUNDS) memset(later, 0, ncarried * sizeof *later);
        st = plan_params(p, n, later, &own);
        if (st == TA_OK) st = plan_block(p, body);
        if (st != TA_OK || round == FZ_LOOP_ROUNDS || carried_after(p, n, later, &own)) break;
    }
    free(later);
    ta_ir_value *guard = NULL;
    for (uint32_t j = 0; j < ncarried && st == TA_OK; j++) {
        ta_ir_value *o = n->outputs[j], *init = n->inputs[j + 2], *last = body->ret->inputs[j + 1];
        if (!holds_tensor(o->type)) continue;
        unite(p, body->param->outputs[j + 1]->id, o->id);
        const fz_alias *self = self_alias(p, o), *f = fz_alias_of(p, init), *t = NULL;
        if (!self) return TA_ERR_NOMEM;
        const fz_parity *q = fz_parity_of(p, n, j);
        if (q && followable(f)) {
            st = set_cond(p, o, q->flag_out, f, fz_alias_of(p, q->transposed), NULL, 0, "");
            continue;
        }
        if (!shares_inside(p, n, body->ret->inputs + 1, ncarried, j))
            t = localize(p, fz_alias_of(p, last), n, -1, self, NULL);
        if (!followable(f)) f = NULL;
        if (t && f && t != f && !o->nuses) t = NULL; /* unused: no guard needed */
        if (t && f && t != f && !guard) st = loop_guard(p, n, &guard);
        if ((!t || !f) && o->nuses) p->unroll[n->id] = 1; /* loop_unroll.c may help */
        ta_ir_value *from[2] = {init, last};
        if (st == TA_OK)
            st = set_cond(p, o, guard, t, f, from, 2, "it is a loop's result, aliasing what it started as or what an iteration left");
    }
    return st;
}

bool fz_is_if(const ta_ir_node *n)
{
    return n->kind->kind == IR_K_IF && n->nblocks == 2 && n->ninputs == 1 &&
           n->blocks[0]->ret->ninputs == n->noutputs && n->blocks[1]->ret->ninputs == n->noutputs;
}

bool fz_is_loop(const ta_ir_node *n)
{
    return n->kind->kind == IR_K_LOOP && n->nblocks == 1 && n->ninputs >= 2 && n->ninputs - 2 == n->noutputs &&
           n->blocks[0]->param->noutputs == n->noutputs + 1 && n->blocks[0]->ret->ninputs == n->noutputs + 1;
}

/* Every tensor a node in b (or deeper) uses stays mutable. */
static void taint_uses(fz_pass *p, const ta_ir_block *b, const char *why)
{
    for (ta_ir_node *m = b->param->next; m != b->ret; m = m->next) {
        for (uint32_t i = 0; i < m->nblocks; i++) taint_uses(p, m->blocks[i], why);
        for (uint32_t i = 0; i < m->ninputs; i++)
            if (holds_tensor(m->inputs[i]->type)) taint_value(p, m->inputs[i], why);
    }
    for (uint32_t i = 0; i < b->ret->ninputs; i++)
        if (holds_tensor(b->ret->inputs[i]->type)) taint_value(p, b->ret->inputs[i], why);
}

/* A node with blocks that is no well-formed If or Loop: what its blocks
 * touch is left as it is. */
static ta_status plan_blocks_opaque(fz_pass *p, ta_ir_node *n)
{
    const char *why = fmt(p, "it is used inside the blocks of %s, which the pass does not model%s", n->kind->name, "");
    for (uint32_t b = 0; b < n->nblocks; b++) {
        ta_status st = plan_block(p, n->blocks[b]);
        if (st != TA_OK) return st;
        taint_uses(p, n->blocks[b], why);
    }
    return plan_opaque(p, n, why);
}

static ta_status plan_node(fz_pass *p, ta_ir_node *n)
{
    if (n->nblocks && !fz_is_if(n) && !fz_is_loop(n)) return plan_blocks_opaque(p, n);
    switch (n->kind->kind) {
    case IR_K_IF:
        return fz_is_if(n) ? plan_if(p, n) : plan_opaque(p, n, "it is passed to a malformed prim::If");
    case IR_K_LOOP:
        p->has_loop = true;
        return fz_is_loop(n) ? plan_loop(p, n) : plan_opaque(p, n, "it is passed to a malformed prim::Loop");
    case IR_K_CONSTANT:
        return n->noutputs && holds_tensor(n->outputs[0]->type) ? set_root(p, n->outputs[0]) : TA_OK;
    case IR_K_LIST_CONSTRUCT:
    case IR_K_TUPLE_CONSTRUCT:
        return n->noutputs && holds_tensor(n->outputs[0]->type) ? plan_agg(p, n) : TA_OK;
    case IR_K_EXTRACTOR:
        if (!strcmp(n->kind->name, "prim::TupleIndex")) return plan_extract(p, n, false);
        if (strcmp(n->kind->name, "prim::PythonOp")) return plan_extract(p, n, true);
        return plan_opaque(p, n, "it is passed to a Python operation");
    case IR_K_OTHER:
        if (n->kind->len == 17 && !memcmp(n->kind->name, "aten::__getitem__", 17)) return plan_extract(p, n, false);
        return plan_op(p, n);
    case IR_K_BATCH_NORM:
    case IR_K_INSTANCE_NORM:
        return plan_op(p, n);
    case IR_K_GET_ATTR:
        return plan_opaque(p, n, "it is a module attribute, which outlives the graph");
    default:
        return plan_opaque(p, n, fmt(p, "it is passed to %s, which the pass does not model%s", n->kind->name, ""));
    }
}

static ta_status plan_block(fz_pass *p, ta_ir_block *b)
{
    for (ta_ir_node *n = b->param->next; n != b->ret; n = n->next) {
        ta_status st = plan_node(p, n);
        if (st != TA_OK) return st;
    }
    return TA_OK;
}

/* The roots of value v's alias into r (none for an unknown alias). */
static uint32_t member_roots(fz_pass *p, uint32_t v, ta_ir_value **r)
{
    const fz_alias *a = p->alias[v];
    if (!a || a->kind == FZ_UNKNOWN || a->kind == FZ_NONE) return 0;
    return fz_roots(p, a, r, 0, MAX_ROOTS);
}

/* Every value whose alias reaches a root, listed under the root: counted,
 * then listed. Most values reach one root: the count keeps it (one[v], its
 * id + 1), so only the others' aliases are followed twice. */
static ta_status index_members(fz_pass *p)
{
    uint32_t nv = p->nvalues;
    p->mem_start = ta_calloc(nv + 1, sizeof(uint32_t));
    uint32_t *one = ta_malloc((nv + 1) * sizeof *one);
    ta_ir_value *r[MAX_ROOTS];
    ta_status st = p->mem_start && one ? TA_OK : TA_ERR_NOMEM;
    for (uint32_t v = 0; v < nv && st == TA_OK; v++) {
        uint32_t n = member_roots(p, v, r);
        one[v] = n == 1 ? r[0]->id + 1 : 0;
        for (uint32_t i = 0; i < n; i++) p->mem_start[r[i]->id + 1]++;
    }
    if (st == TA_OK) {
        for (uint32_t v = 0; v < nv; v++) p->mem_start[v + 1] += p->mem_start[v];
        p->mem = ta_malloc(sizeof(uint32_t) * (p->mem_start[nv] + 1));
        if (!p->mem) st = TA_ERR_NOMEM;
    }
    for (uint32_t v = 0; v < nv && st == TA_OK; v++) {
        if (one[v]) {
            p->mem[p->mem_start[one[v] - 1]++] = v;
            continue;
        }
        uint32_t n = member_roots(p, v, r);
        for (uint32_t i = 0; i < n; i++) p->mem[p->mem_start[r[i]->id]++] = v;
    }
    free(one);
    if (st != TA_OK) return st;
    for (uint32_t v = nv; v > 0; v--) p->mem_start[v] = p->mem_start[v - 1];
    p->mem_start[0] = 0;
    return TA_OK;
}

ta_status fz_plan_graph(fz_pass *p)
{
    ta_ir_graph *g = p->g;
    for (uint32_t i = 0; i < ta_ir_graph_ninputs(g); i++) {
        ta_ir_value *v = ta_ir_graph_input(g, i);
        ta_status st = v->type->kind == TA_IR_TENSOR ? set_root(p, v)
                       : holds_tensor(v->type) ? set_unknown(p, v, NULL, 0, "it comes from a graph input that is not a plain Tensor")
                                               : TA_OK;
        if (st != TA_OK) return st;
    }
    ta_status st = plan_block(p, g->top);
    return st == TA_OK ? index_members(p) : st;
}
