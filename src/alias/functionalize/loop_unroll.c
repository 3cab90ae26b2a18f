/* loop_unroll.c - loops whose carried memory the plan cannot follow,
 * unrolled when their trip count is a small constant.
 *
 * A loop carrying a value that is, from one iteration to the next, a view
 * of itself, a value chosen by a bool made in the body, or memory mixed
 * through an If, has no alias the plan can describe once for every
 * iteration. With a constant trip count N the loop is N copies of its body,
 * each run only while the loop goes on:
 *
 *   %go1, %s1 = prim::If(%cond)      block0: body(0, %init) -> (%c', %last)
 *                                    block1: -> (false, %init)
 *   %go2, %s2 = prim::If(%go1)       block0: body(1, %s1) ...
 *
 * which is what the loop computes, and whose values the plan follows as it
 * follows any If's. The plan marks the loops it cannot follow
 * (fz_pass.unroll); ta_functionalize unrolls those it may and plans again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alias/functionalize/functionalize_internal.h"
#include "base/alloc.h"

enum {
    MAX_TRIPS = 16,     /* longer loops stay loops */
    MAX_NODES = 4096    /* nodes one unrolling may add */
};

static uint32_t block_nodes(const ta_ir_block *b)
{
    uint32_t n = 0;
    for (const ta_ir_node *m = b->param->next; m != b->ret; m = m->next) {
        n++;
        for (uint32_t i = 0; i < m->nblocks; i++) n += block_nodes(m->blocks[i]);
    }
    return n;
}

static bool trip_count(const ta_ir_node *loop, int64_t *trips)
{
    const ta_ir_value *t = loop->inputs[0];
    const char *s = t->node->kind->kind == IR_K_CONSTANT && t->type->kind == TA_IR_INT
                        ? ta_ir_node_attr(t->node, "value") : NULL;
    ta_str str = {s, s ? (uint32_t)strlen(s) : 0};
    return s && ta_str_to_int(str, trips) && *trips >= 0 && *trips <= MAX_TRIPS;
}

static bool unrollable(const ta_ir_node *loop)
{
    int64_t trips;
    return fz_is_loop(loop) && trip_count(loop, &trips) &&
           (uint64_t)trips * (block_nodes(loop->blocks[0]) + 2) <= MAX_NODES;
}

/* Whether every write in b (or deeper) could be made functional but for
 * the loops carrying its memory: unrolling a loop around a write that stays
 * for a reason of its own would only copy it. */
static bool clean(fz_pass *p, const ta_ir_block *b)
{
    for (const ta_ir_node *m = b->param->next; m != b->ret; m = m->next) {
        for (uint32_t i = 0; i < m->nblocks; i++)
            if (!clean(p, m->blocks[i])) return false;
        if (m->id >= p->nnodes || p->plan[m->id] == FZ_PLAIN) continue;
        const fz_write_plan *w = p->wplan[m->id];
        if (!w) return false;
        for (uint32_t k = 0; k < w->nwritten; k++)
            if (fz_tainted_foreign(p, m->inputs[w->written[k]])) return false;
    }
    return true;
}

/* The loops marked in b (and deeper) that may be unrolled, inner ones first. */
static uint32_t collect(fz_pass *p, const ta_ir_block *b, ta_ir_node **out, uint32_t n)
{
    for (ta_ir_node *m = b->param->next; m != b->ret; m = m->next) {
        for (uint32_t i = 0; i < m->nblocks; i++) n = collect(p, m->blocks[i], out, n);
        if (m->id < p->nnodes && p->unroll[m->id] && unrollable(m) && clean(p, m->blocks[0]))
            out[n++] = m;
    }
    return n;
}

uint32_t fz_unroll_candidates(fz_pass *p, ta_ir_node ***out)
{
    *out = NULL;
    uint32_t n = 0;
    if (!memchr(p->unroll, 1, p->nnodes)) return 0; /* most graphs: a word at a time */
    for (uint32_t i = 0; i < p->nnodes; i++) n += p->unroll[i];
    if (!n) return 0;
    if (!(*out = ta_malloc(n * sizeof **out))) {
        p->oom = true;
        return 0;
    }
    return collect(p, p->g->top, *out, 0);
}

/* ---- cloning ------------------------------------------------------------------ */

typedef struct unroller {
    ta_ir_graph *g;
    ta_ir_value **map;   /* per value id of the original body: its copy */
    uint32_t cap;
    fz_parity **parity;  /* loop_parity.c's loops, copied with their loops */
    uint32_t *nparity, *cap_parity;
} unroller;

static ta_ir_value *mapped(const unroller *u, ta_ir_value *v)
{
    return v->id < u->cap && u->map[v->id] ? u->map[v->id] : v;
}

static ta_status clone_block(unroller *u, const ta_ir_block *src, ta_ir_block *dst);

static ta_status copy_parity(unroller *u, const ta_ir_node *from, ta_ir_node *to)
{
    for (uint32_t i = 0, n = *u->nparity; i < n; i++) {
        fz_parity q = (*u->parity)[i];
        if (q.loop != from) continue;
        q.loop = to, q.transposed = mapped(u, q.transposed), q.flag = mapped(u, q.flag);
        q.flag_out = mapped(u, q.flag_out);
        if (*u->nparity == *u->cap_parity) {
            uint32_t cap = *u->cap_parity ? 2 * *u->cap_parity : 8;
            fz_parity *a = ta_realloc(*u->parity, cap * sizeof *a);
            if (!a) return TA_ERR_NOMEM;
            *u->parity = a, *u->cap_parity = cap;
        }
        (*u->parity)[(*u->nparity)++] = q;
    }
    return TA_OK;
}

static ta_status clone_blocks(unroller *u, const ta_ir_node *m, ta_ir_node *k)
{
    for (uint32_t i = 0; i < m->nblocks; i++) {
        const ta_ir_block *src = m->blocks[i];
        ta_ir_block *dst;
        if (ta_ir_node_add_block(k, &dst) != TA_OK) return TA_ERR_NOMEM;
        for (uint32_t j = 0; j < src->param->noutputs; j++) {
            ta_ir_value *v = src->param->outputs[j], *c;
            if (ta_ir_block_add_param(dst, NULL, v->type, &c) != TA_OK) return TA_ERR_NOMEM;
            if (v->id < u->cap) u->map[v->id] = c;
        }
        ta_status st = clone_block(u, src, dst);
        for (uint32_t j = 0; j < src->ret->ninputs && st == TA_OK; j++)
            st = ta_ir_block_add_output(dst, mapped(u, src->ret->inputs[j]));
        if (st != TA_OK) return st;
    }
    return TA_OK;
}

static ta_status clone_node(unroller *u, const ta_ir_node *m, ta_ir_block *dst)
{
    ta_ir_value **in = ta_malloc((m->ninputs + 1) * sizeof *in);
    ta_ir_node *k = NULL;
    if (!in) return TA_ERR_NOMEM;
    for (uint32_t i = 0; i < m->ninputs; i++) in[i] = mapped(u, m->inputs[i]);
    ta_status st = ta_ir_node_create(u->g, m->kind->name, in, m->ninputs, m->noutputs, &k);
    free(in);
    if (st != TA_OK || ta_ir_node_append(dst, k) != TA_OK) return TA_ERR_NOMEM;
    for (uint32_t i = 0; i < m->nattrs; i++)
        if (ta_ir_node_set_attr(k, m->attrs[i].name, m->attrs[i].value) != TA_OK) return TA_ERR_NOMEM;
    k->source = m->source; /* the graph's arena holds it */
    k->line = m->line, k->col = m->col;
    for (uint32_t j = 0; j < m->noutputs; j++) {
        ta_ir_value_set_type(k->outputs[j], m->outputs[j]->type);
        if (m->outputs[j]->id < u->cap) u->map[m->outputs[j]->id] = k->outputs[j];
    }
    st = clone_blocks(u, m, k);
    return st == TA_OK ? copy_parity(u, m, k) : st;
}

static ta_status clone_block(unroller *u, const ta_ir_block *src, ta_ir_block *dst)
{
    for (const ta_ir_node *m = src->param->next; m != src->ret; m = m->next) {
        ta_status st = clone_node(u, m, dst);
        if (st != TA_OK) return st;
    }
    return TA_OK;
}

/* ---- unrolling ------------------------------------------------------------------ */

static ta_status constant_before(ta_ir_graph *g, ta_ir_node *at, ta_ir_type_kind kind, int64_t v, ta_ir_value **out)
{
    char text[24];
    snprintf(text, sizeof text, "%lld", (long long)v);
    ta_ir_node *k;
    if (ta_ir_node_create(g, "prim::Constant", NULL, 0, 1, &k) != TA_OK || ta_ir_node_set_attr(k, "value", text) != TA_OK ||
        ta_ir_node_insert_before(k, at) != TA_OK)
        return TA_ERR_NOMEM;
    ta_ir_value_set_type(k->outputs[0], ta_ir_type_simple(g, kind));
    *out = k->outputs[0];
    return TA_OK;
}

/* Iteration `it` of loop: an If on *go before the loop, running a copy of
 * the body on state, or passing state on; *go and state become its results. */
static ta_status iteration(unroller *u, ta_ir_node *loop, int64_t it, ta_ir_value *no, ta_ir_value **go,
                           ta_ir_value **state)
{
    ta_ir_block *body = loop->blocks[0], *b[2];
    uint32_t nc = loop->noutputs;
    ta_ir_value *k;
    ta_ir_node *ifn;
    if (constant_before(u->g, loop, TA_IR_INT, it, &k) != TA_OK ||
        ta_ir_node_create(u->g, "prim::If", go, 1, nc + 1, &ifn) != TA_OK || ta_ir_node_insert_before(ifn, loop) != TA_OK ||
        ta_ir_node_add_block(ifn, &b[0]) != TA_OK || ta_ir_node_add_block(ifn, &b[1]) != TA_OK)
        return TA_ERR_NOMEM;
    ta_ir_value_set_type(ifn->outputs[0], ta_ir_type_simple(u->g, TA_IR_BOOL));
    u->map[body->param->outputs[0]->id] = k;
    for (uint32_t j = 0; j < nc; j++) {
        ta_ir_value_set_type(ifn->outputs[j + 1], loop->outputs[j]->type);
        u->map[body->param->outputs[j + 1]->id] = state[j];
    }
    ta_status st = clone_block(u, body, b[0]);
    for (uint32_t j = 0; j <= nc && st == TA_OK; j++)
        if (ta_ir_block_add_output(b[0], mapped(u, body->ret->inputs[j])) != TA_OK ||
            ta_ir_block_add_output(b[1], j ? state[j - 1] : no) != TA_OK)
            st = TA_ERR_NOMEM;
    *go = ifn->outputs[0];
    for (uint32_t j = 0; j < nc; j++) state[j] = ifn->outputs[j + 1];
    return st;
}

static ta_status unroll(unroller *u, ta_ir_node *loop)
{
    int64_t trips = 0;
    trip_count(loop, &trips);
    uint32_t nc = loop->noutputs;
    u->cap = ta_ir_graph_value_capacity(u->g);
    u->map = ta_calloc(u->cap + 1, sizeof *u->map);
    ta_ir_value **state = ta_malloc((nc + 1) * sizeof *state), *go = loop->inputs[1], *no = NULL;
    ta_status st = u->map && state ? TA_OK : TA_ERR_NOMEM;
    for (uint32_t j = 0; j < nc && st == TA_OK; j++) state[j] = loop->inputs[j + 2];
    if (st == TA_OK && trips) st = constant_before(u->g, loop, TA_IR_BOOL, 0, &no);
    for (int64_t it = 0; it < trips && st == TA_OK; it++) st = iteration(u, loop, it, no, &go, state);
    for (uint32_t j = 0; j < nc && st == TA_OK; j++) st = ta_ir_value_replace_uses(loop->outputs[j], state[j]);
    if (st == TA_OK) st = ta_ir_node_remove(loop);
    free(state);
    free(u->map);
    return st;
}

/* Drops the parity entries of a loop that is gone. */
static void forget_parity(unroller *u, const ta_ir_node *loop)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < *u->nparity; i++)
        if ((*u->parity)[i].loop != loop) (*u->parity)[m++] = (*u->parity)[i];
    *u->nparity = m;
}

ta_status fz_unroll(ta_ir_graph *g, ta_ir_node *const *loops, uint32_t n, fz_parity **parity, uint32_t *nparity,
                    uint32_t *cap_parity, uint32_t *done)
{
    unroller u = {.g = g, .parity = parity, .nparity = nparity, .cap_parity = cap_parity};
    for (uint32_t i = 0; i < n; i++) {
        if (!unrollable(loops[i])) continue; /* an inner loop unrolled made it too big */
        ta_status st = unroll(&u, loops[i]);
        if (st != TA_OK) return st;
        forget_parity(&u, loops[i]);
        ++*done;
    }
    return TA_OK;
}
