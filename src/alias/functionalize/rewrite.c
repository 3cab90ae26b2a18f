/* rewrite.c - the rewrite, in program order, scope by scope.
 *
 * Every node's inputs are replaced by what they stand for now (fz_read). A
 * write with a functional counterpart becomes a call to it (the node itself
 * changes kind, so nothing is left to remove) and its result is written
 * into the memory the node wrote (fz_write): later reads of that memory
 * read the result, or views taken again from it. A
 * prim::If's branches run in envs of their own and the roots either wrote
 * leave it as new outputs; a prim::Loop carries the roots its body writes
 * (known before the body is walked) as new loop-carried values.
 */
#include <string.h>

#include "alias/functionalize/functionalize_internal.h"
#include "base/alloc.h"

static ta_status read_inputs(fz_pass *p, fz_env *e, ta_ir_node *n)
{
    fz_cursor c = {n->block, n};
    for (uint32_t i = 0; i < n->ninputs; i++) {
        ta_ir_value *v;
        ta_status st = fz_read(p, e, c, n->inputs[i], &v);
        if (st == TA_OK && v != n->inputs[i]) st = ta_ir_node_set_input(n, i, v);
        if (st != TA_OK) return st;
    }
    return TA_OK;
}

static void define_outputs(fz_pass *p, fz_env *e, ta_ir_node *n)
{
    for (uint32_t j = 0; j < n->noutputs; j++)
        if (n->outputs[j]->id < p->nvalues) e->vcur[n->outputs[j]->id] = n->outputs[j];
}

/* The written value of the plan that stays mutable, with the reason. */
static const char *tainted_write(fz_pass *p, ta_ir_node *n, const fz_write_plan *w)
{
    for (uint32_t k = 0; k < w->nwritten; k++) {
        const ta_ir_value *v = n->inputs[w->written[k]];
        fz_alias_kind a = fz_alias_of(p, v)->kind;
        if (a == FZ_NONE || a == FZ_AGG) return "it writes a value whose memory the pass does not track";
        const char *why = fz_tainted(p, v);
        if (why) return why;
    }
    return NULL;
}

/* Turns n itself into its counterpart: kind fkind, the inputs the plan
 * keeps (read at n), the outputs the counterpart has. Inputs stay where they
 * are when they can, so a constant used everywhere is not touched. */
static ta_status become_counterpart(fz_pass *p, fz_env *e, ta_ir_node *n, fz_write_plan *w)
{
    fz_cursor c = {n->block, n};
    bool prefix = true; /* the kept inputs are the first ones, in order */
    for (uint32_t i = 0; i < w->ninputs; i++) prefix &= w->inputs[i] == i;
    if (!prefix || w->ninputs > 64) return TA_ERR_INVALID;
    for (uint32_t i = w->ninputs; i < n->ninputs; i++) ir_value_drop_use(n->inputs[i], n, i);
    n->ninputs = w->ninputs;
    for (uint32_t i = 0; i < n->ninputs; i++) {
        ta_ir_value *v;
        ta_status st = fz_read(p, e, c, n->inputs[i], &v);
        if (st == TA_OK && v != n->inputs[i]) st = ta_ir_node_set_input(n, i, v);
        if (st != TA_OK) return st;
    }
    if (!w->fk && !(w->fk = ir_graph_kind(p->g, w->fkind, strlen(w->fkind)))) return TA_ERR_NOMEM;
    n->kind = w->fk;
    fz_set_op(p, n, w->fop);
    ta_ir_value *o;
    while (n->noutputs < w->fnrets)
        if (ta_ir_node_add_output(n, NULL, ta_ir_type_simple(p->g, TA_IR_TENSOR), &o) != TA_OK)
            return TA_ERR_NOMEM;
    return TA_OK;
}

/* torch 1.13.1's aten::copy returns src itself when it can (its schema says
 * fresh): a value the graph holds must not share memory with another, or
 * the copy-backs and the writes left in place would change it, so its
 * result is cloned, just after n. */
static ta_status fresh_copy(fz_pass *p, ta_ir_node *n, ta_ir_value **out)
{
    ta_ir_node *none;
    if (ta_ir_node_create(p->g, "prim::Constant", NULL, 0, 1, &none) != TA_OK ||
        ta_ir_node_insert_after(none, n) != TA_OK)
        return TA_ERR_NOMEM;
    ta_ir_value_set_type(none->outputs[0], ta_ir_type_simple(p->g, TA_IR_NONE));
    ta_ir_value *in[2] = {n->outputs[0], none->outputs[0]};
    ta_ir_node *k;
    if (ta_ir_node_create(p->g, "aten::clone", in, 2, 1, &k) != TA_OK ||
        ta_ir_node_insert_after(k, none) != TA_OK)
        return TA_ERR_NOMEM;
    ta_ir_value_set_type(k->outputs[0], n->outputs[0]->type);
    *out = k->outputs[0];
    return TA_OK;
}

static ta_status functionalize_node(fz_pass *p, fz_env *e, ta_ir_node *n, fz_write_plan *w)
{
    fz_cursor c = {n->block, n};
    ta_ir_value *target[64];
    uint32_t nw = w->nwritten < 64 ? w->nwritten : 64;
    for (uint32_t k = 0; k < nw; k++) target[k] = n->inputs[w->written[k]];
    ta_status st = become_counterpart(p, e, n, w);
    ta_ir_value *copied = NULL;
    if (st == TA_OK && !strcmp(w->fkind, "aten::copy")) st = fresh_copy(p, n, &copied);
    /* what the writes emit (scatters, branches) comes after the new values */
    c.before = copied ? copied->node->next : n->next;
    for (uint32_t k = 0; k < nw && st == TA_OK; k++) {
        ta_ir_value *nv = copied ? copied : n->outputs[w->from[k]];
        st = fz_write(p, e, c, fz_alias_of(p, target[k]), nv);
        e->vcur[target[k]->id] = nv;
    }
    for (uint32_t j = 0; j < n->noutputs && st == TA_OK; j++) {
        ta_ir_value *o = n->outputs[j];
        int32_t k = j < w->nouts ? w->out_of[j] : -1;
        if (o->id >= p->nvalues) continue;
        e->vcur[o->id] = k >= 0 && copied ? copied : o;
        if (k <= -2) e->rcur[o->id] = o;
    }
    if (st == TA_OK) p->report->counts.rewritten++;
    return st;
}

static ta_status walk_plain_or_write(fz_pass *p, fz_env *e, ta_ir_node *n)
{
    if (n->id < p->nnodes && p->plan[n->id] != FZ_PLAIN) {
        fz_write_plan *w = p->wplan[n->id];
        const char *why = w ? tainted_write(p, n, w) : p->why[n->id];
        if (!why) return functionalize_node(p, e, n, w);
        ta_status st = fz_report_kept(p, n, why);
        if (st != TA_OK) return st;
    }
    ta_status st = read_inputs(p, e, n);
    define_outputs(p, e, n);
    return st;
}

static ta_status walk_if(fz_pass *p, fz_env *e, ta_ir_node *n)
{
    ta_status st = read_inputs(p, e, n);
    fz_env eb[2];
    memset(eb, 0, sizeof eb);
    for (uint32_t b = 0; b < 2 && st == TA_OK; b++) {
        st = fz_env_copy(p, &eb[b], e);
        if (st == TA_OK) st = fz_walk_block(p, &eb[b], n->blocks[b]);
    }
    if (st == TA_OK) st = fz_merge_if(p, e, n, &eb[0], &eb[1]);
    fz_env_free(&eb[0]);
    fz_env_free(&eb[1]);
    define_outputs(p, e, n);
    return st;
}

/* A node with blocks the pass does not model: what they use stays mutable
 * (plan.c), so their writes stay and are reported. */
static ta_status walk_opaque(fz_pass *p, fz_env *e, ta_ir_node *n)
{
    ta_status st = read_inputs(p, e, n);
    for (uint32_t b = 0; b < n->nblocks && st == TA_OK; b++) {
        fz_env eb;
        st = fz_env_copy(p, &eb, e);
        if (st == TA_OK) st = fz_walk_block(p, &eb, n->blocks[b]);
        fz_env_free(&eb);
    }
    define_outputs(p, e, n);
    return st;
}

/* The roots outside loop `outer` that a functional write in b reaches, in
 * first-write order, into out (marked with p->now). */
static uint32_t loop_writes(fz_pass *p, const ta_ir_block *b, const ta_ir_node *outer, ta_ir_value **out,
                            uint32_t n, uint32_t cap)
{
    for (ta_ir_node *m = b->param->next; m != b->ret; m = m->next) {
        for (uint32_t i = 0; i < m->nblocks; i++) n = loop_writes(p, m->blocks[i], outer, out, n, cap);
        if (m->id >= p->nnodes || p->plan[m->id] != FZ_FUNCTIONAL || tainted_write(p, m, p->wplan[m->id]))
            continue;
        const fz_write_plan *w = p->wplan[m->id];
        for (uint32_t k = 0; k < w->nwritten; k++) {
            ta_ir_value *r[FZ_MAX_ROOTS];
            uint32_t nr = fz_roots(p, fz_alias_of(p, m->inputs[w->written[k]]), r, 0, FZ_MAX_ROOTS);
            for (uint32_t i = 0; i < nr && n < cap; i++) {
                if (p->stamp[r[i]->id] == p->now || !fz_visible(r[i], outer->block)) continue;
                p->stamp[r[i]->id] = p->now;
                out[n++] = r[i];
            }
        }
    }
    return n;
}

static ta_status walk_loop(fz_pass *p, fz_env *e, ta_ir_node *n)
{
    ta_status st = read_inputs(p, e, n);
    ta_ir_block *body = n->blocks[0];
    uint32_t cap = p->nvalues + 1;
    ta_ir_value **w = ta_malloc(cap * sizeof *w), **param = ta_malloc(cap * sizeof *param);
    fz_env eb;
    memset(&eb, 0, sizeof eb);
    if (!w || !param) st = TA_ERR_NOMEM;
    p->now++;
    uint32_t nw = st == TA_OK ? loop_writes(p, body, n, w, 0, cap) : 0;
    for (uint32_t i = 0; i < nw && st == TA_OK; i++) {
        ta_ir_value *init;
        st = fz_read(p, e, (fz_cursor){n->block, n}, w[i], &init);
        if (st == TA_OK) st = ta_ir_node_add_input(n, init);
        param[i] = NULL;
        if (st == TA_OK && ta_ir_block_add_param(body, NULL, w[i]->type, &param[i]) != TA_OK)
            st = TA_ERR_NOMEM;
    }
    if (st == TA_OK) st = fz_env_copy(p, &eb, e);
    for (uint32_t i = 0; i < nw && st == TA_OK; i++) st = fz_set_root(p, &eb, w[i], param[i]);
    if (st == TA_OK) st = fz_walk_block(p, &eb, body);
    for (uint32_t i = 0; i < nw && st == TA_OK; i++) {
        ta_ir_value *last = eb.rcur[w[i]->id] ? eb.rcur[w[i]->id] : w[i];
        ta_ir_value *o;
        st = ta_ir_node_add_output(n, NULL, w[i]->type, &o) == TA_OK ? ta_ir_block_add_output(body, last)
                                                                      : TA_ERR_NOMEM;
        if (st == TA_OK) st = fz_set_root(p, e, w[i], o);
        p->report->counts.threaded++;
    }
    fz_env_free(&eb);
    free(w);
    free(param);
    define_outputs(p, e, n);
    return st;
}

ta_status fz_walk_block(fz_pass *p, fz_env *e, ta_ir_block *b)
{
    for (uint32_t i = 0; i < b->param->noutputs; i++)
        if (b->param->outputs[i]->id < p->nvalues) e->vcur[b->param->outputs[i]->id] = b->param->outputs[i];
    for (ta_ir_node *n = b->param->next; n != b->ret; n = n->next) {
        if (n->id >= p->nnodes) continue; /* made by the pass: guards, clones */
        ta_status st = fz_is_if(n) ? walk_if(p, e, n)
                       : fz_is_loop(n) ? walk_loop(p, e, n)
                       : n->nblocks ? walk_opaque(p, e, n)
                                    : walk_plain_or_write(p, e, n);
        if (st != TA_OK) return st;
    }
    for (uint32_t i = 0; i < b->ret->ninputs; i++) {
        ta_ir_value *v;
        ta_status st = fz_read(p, e, (fz_cursor){b, NULL}, b->ret->inputs[i], &v);
        if (st == TA_OK && v != b->ret->inputs[i]) st = ta_ir_block_set_output(b, i, v);
        if (st != TA_OK) return st;
    }
    return TA_OK;
}

/* Written graph inputs: one copy_ each at the end, or extra outputs. */
static ta_status copy_back(fz_pass *p, fz_env *e)
{
    ta_ir_graph *g = p->g;
    ta_ir_value *no = NULL;
    uint32_t nin = ta_ir_graph_ninputs(g);
    for (uint32_t i = 0; i < nin; i++) {
        ta_ir_value *x = ta_ir_graph_input(g, i), *now = e->rcur[x->id];
        if (!now || now == x || fz_alias_of(p, x)->kind != FZ_ROOT) continue;
        if (p->no_copy_back) {
            if (ta_ir_graph_add_output(g, now) != TA_OK) return TA_ERR_NOMEM;
            p->report->counts.extra_outputs++;
            continue;
        }
        if (!no) {
            ta_ir_node *k;
            if (ta_ir_append(g, g->top, "prim::Constant", NULL, 0, 1, &k) != TA_OK ||
                ta_ir_node_set_attr(k, "value", "0") != TA_OK)
                return TA_ERR_NOMEM;
            no = k->outputs[0];
            ta_ir_value_set_type(no, ta_ir_type_simple(g, TA_IR_BOOL));
        }
        ta_ir_value *in[3] = {x, now, no};
        ta_ir_node *cp;
        if (ta_ir_append(g, g->top, "aten::copy_", in, 3, 1, &cp) != TA_OK) return TA_ERR_NOMEM;
        ta_ir_value_set_type(cp->outputs[0], x->type);
        p->report->counts.copy_backs++;
    }
    return TA_OK;
}

/* Removing what no one uses (views of old values, guards nothing needed):
 * one walk, last node first, so that chains go too. A value's users all
 * come after it, so when the walk reaches its node they are decided, and
 * its uses by nodes gone are dropped then, each value's once (removing
 * nodes one by one would search a constant's thousands of uses each time);
 * a node then unused goes at once, the graph's memory touched once. */
typedef struct fz_sweep {
    uint32_t *dead; /* per value: its uses by nodes gone, not yet dropped */
    uint8_t *gone;  /* per node */
    ir_forget_queue names;
} fz_sweep;

static void drop_gone_uses(fz_sweep *s, ta_ir_value *v)
{
    if (!s->dead[v->id]) return;
    ir_value_drop_uses_by(v, s->gone);
    s->dead[v->id] = 0;
}

/* Whether n can go: no blocks, nothing uses it, and it writes nothing. */
static bool removable(fz_pass *p, const ta_ir_node *n)
{
    if (n->nblocks) return false;
    for (uint32_t j = 0; j < n->noutputs; j++)
        if (n->outputs[j]->nuses) return false;
    ir_kind k = n->kind->kind;
    if (k == IR_K_CONSTANT || k == IR_K_LIST_CONSTRUCT || k == IR_K_TUPLE_CONSTRUCT) return true;
    if (k != IR_K_OTHER || n->kind->side_effects) return false;
    const ta_ir_op *op = fz_op(p, n);
    return op && op->kind != TA_IR_CONSERVATIVE && !fz_op_writes(op);
}

static void sweep_block(fz_pass *p, fz_sweep *s, ta_ir_block *b)
{
    for (ta_ir_node *m = b->ret->prev, *prev; m != b->param; m = prev) {
        prev = m->prev;
        for (uint32_t i = 0; i < m->nblocks; i++) sweep_block(p, s, m->blocks[i]);
        for (uint32_t j = 0; j < m->noutputs; j++) drop_gone_uses(s, m->outputs[j]);
        if (!removable(p, m)) continue;
        s->gone[m->id] = 1;
        for (uint32_t i = 0; i < m->ninputs; i++) s->dead[m->inputs[i]->id]++;
        ir_node_remove_unused(p->g, m, &s->names);
    }
    for (uint32_t j = 0; j < b->param->noutputs; j++) drop_gone_uses(s, b->param->outputs[j]);
}

static ta_status sweep(fz_pass *p)
{
    fz_sweep s = {.dead = ta_calloc(ta_ir_graph_value_capacity(p->g) + 1, sizeof *s.dead),
                  .gone = ta_calloc(ta_ir_graph_node_capacity(p->g) + 1, 1)};
    ta_status st = s.dead && s.gone ? TA_OK : TA_ERR_NOMEM;
    if (st == TA_OK) sweep_block(p, &s, p->g->top);
    ir_forget_flush(p->g, &s.names);
    free(s.dead);
    free(s.gone);
    return st;
}

ta_status fz_walk_graph(fz_pass *p)
{
    fz_env e;
    ta_status st = fz_env_init(p, &e);
    if (st == TA_OK) st = fz_walk_block(p, &e, p->g->top);
    if (st == TA_OK) st = copy_back(p, &e);
    fz_env_free(&e);
    if (st == TA_OK) st = sweep(p);
    return st == TA_OK ? fz_guard_interpreter(p) : st;
}
