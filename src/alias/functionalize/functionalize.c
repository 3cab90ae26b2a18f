/* functionalize.c - ta_functionalize: plan, walk, count, report. */
#include <stdio.h>

#include <string.h>

#include "alias/functionalize/functionalize_internal.h"
#include "base/alloc.h"

static uint32_t count_block(const ta_ir_block *b, const ta_ir_ops *ops)
{
    uint32_t n = 0;
    for (const ta_ir_node *m = b->param->next; m != b->ret; m = m->next) {
        for (uint32_t i = 0; i < m->nblocks; i++) n += count_block(m->blocks[i], ops);
        const ta_ir_op *op = m->kind->kind == IR_K_OTHER ? ta_ir_ops_resolve(ops, m) : NULL;
        n += op && fz_op_writes(op);
    }
    return n;
}

uint32_t ta_functionalize_count_mutating(const ta_ir_graph *g, const ta_ir_ops *ops)
{
    return count_block(g->top, ops);
}

/* Room in the operator cache for node id (the pass adds nodes); false when
 * it cannot grow, and then resolutions are not kept. */
static bool op_room(fz_pass *p, uint32_t id)
{
    if (id < p->nop) return true;
    uint32_t cap = ta_ir_graph_node_capacity(p->g) + 1;
    if (cap <= id) cap = id + 1;
    const ta_ir_op **op = ta_realloc(p->op, cap * sizeof *op);
    if (op) p->op = op;
    uint8_t *done = op ? ta_realloc(p->op_done, cap) : NULL;
    if (!done) return false;
    memset(done + p->nop, 0, cap - p->nop);
    p->op_done = done, p->nop = cap;
    return true;
}

const ta_ir_op *fz_op(fz_pass *p, const ta_ir_node *n)
{
    if (!op_room(p, n->id)) {
        p->oom = true; /* the answer is right, but out of memory is said */
        return ir_resolve(p->resolver, n);
    }
    if (!p->op_done[n->id]) {
        const ta_ir_op *op = p->op[n->id] = ir_resolve(p->resolver, n);
        p->op_done[n->id] = 1;
        /* the first plan resolves every node once: the count before, as count_block's */
        p->nmutating += p->counting && op && n->kind->kind == IR_K_OTHER && fz_op_writes(op);
    }
    return p->op[n->id];
}

void fz_set_op(fz_pass *p, const ta_ir_node *n, const ta_ir_op *op)
{
    if (op_room(p, n->id)) p->op[n->id] = op, p->op_done[n->id] = 1;
}

ta_status fz_report_kept(fz_pass *p, const ta_ir_node *n, const char *why)
{
    ta_functionalize_report *r = p->report;
    if (r->nkept == r->cap_kept) {
        size_t cap = r->cap_kept ? 2 * r->cap_kept : 16;
        ta_functionalize_kept *k = ta_realloc(r->kept, cap * sizeof *k);
        if (!k) return TA_ERR_NOMEM;
        r->kept = k, r->cap_kept = cap;
    }
    char out[256] = "";
    if (n->noutputs) snprintf(out, sizeof out, "%%%s", n->outputs[0]->name);
    ta_functionalize_kept *k = &r->kept[r->nkept];
    k->kind = ta_arena_strndup(r->arena, n->kind->name, n->kind->len);
    k->output = ta_arena_strndup(r->arena, out, strlen(out));
    k->reason = ta_arena_strndup(r->arena, why, strlen(why));
    k->line = n->line;
    if (!k->kind || !k->output || !k->reason) return TA_ERR_NOMEM;
    r->nkept++;
    r->counts.kept++;
    return TA_OK;
}

/* parity: loop_parity.c's loops from an earlier round (taken over), or zeros */
static ta_status pass_init(fz_pass *p, ta_ir_graph *g, const ta_ir_ops *ops, ta_diags *diags, const fz_pass *parity)
{
    memset(p, 0, sizeof *p);
    p->g = g, p->ops = ops, p->diags = diags;
    p->parity = parity->parity, p->nparity = parity->nparity, p->cap_parity = parity->cap_parity;
    p->resolver = ta_malloc(sizeof *p->resolver);
    p->cp = ta_calloc(FZ_CP_SLOTS, sizeof *p->cp);
    if (!p->resolver || !p->cp) return TA_ERR_NOMEM;
    ir_resolver_init(p->resolver, ops);
    if (fz_prepare_parity(p) != TA_OK) return TA_ERR_NOMEM; /* adds values: before the arrays are sized */
    p->nvalues = ta_ir_graph_value_capacity(g);
    p->nnodes = ta_ir_graph_node_capacity(g);
    p->report = ta_calloc(1, sizeof *p->report);
    if (ta_arena_create(&p->arena) != TA_OK || !p->report || ta_arena_create(&p->report->arena) != TA_OK)
        return TA_ERR_NOMEM;
    size_t nv = p->nvalues + 1, nn = p->nnodes + 1;
    p->alias = ta_calloc(nv, sizeof *p->alias);
    p->uf = ta_malloc(nv * sizeof *p->uf);
    p->taint = ta_calloc(nv, sizeof *p->taint);
    p->foreign = ta_calloc(nv, 1);
    p->stamp = ta_calloc(nv, sizeof *p->stamp);
    p->plan = ta_calloc(nn, sizeof *p->plan);
    p->wplan = ta_calloc(nn, sizeof *p->wplan);
    p->why = ta_calloc(nn, sizeof *p->why);
    p->guard = ta_calloc(nn, sizeof *p->guard);
    p->first = ta_calloc(nn, sizeof *p->first);
    p->op = ta_malloc(nn * sizeof *p->op);
    p->op_done = ta_calloc(nn, 1);
    p->unroll = ta_calloc(nn, 1);
    p->nop = (uint32_t)nn;
    if (!p->alias || !p->uf || !p->taint || !p->foreign || !p->stamp || !p->plan || !p->wplan || !p->why || !p->guard || !p->first ||
        !p->op || !p->op_done || !p->unroll)
        return TA_ERR_NOMEM;
    for (uint32_t i = 0; i < nv; i++) p->uf[i] = i;
    return TA_OK;
}

static void pass_free(fz_pass *p)
{
    free(p->alias);
    free(p->uf);
    free(p->taint);
    free(p->foreign);
    free(p->stamp);
    free(p->plan);
    free(p->wplan);
    free(p->why);
    free(p->guard);
    free(p->first);
    free(p->op);
    free(p->op_done);
    free(p->unroll);
    free(p->resolver);
    free(p->cp);
    free(p->parity);
    free(p->mem_start);
    free(p->mem);
    ta_map_clear(&p->conds);
    ta_map_clear(&p->views);
    ta_map_clear(&p->pushed);
    ta_arena_destroy(p->arena);
    ta_functionalize_report_destroy(p->report);
}

/* Unrolls the loops the plan could not follow (loop_unroll.c) and plans the
 * graph again, with a pass of its own; nothing when there are none. */
static ta_status unroll_and_plan_again(fz_pass *p, uint32_t *unrolled)
{
    ta_ir_node **loops;
    uint32_t n = fz_unroll_candidates(p, &loops);
    if (!n) {
        free(loops);
        return TA_OK; /* none, or out of memory (p->oom): the loops stay */
    }
    fz_pass keep = {.parity = p->parity, .nparity = p->nparity, .cap_parity = p->cap_parity};
    ta_ir_graph *g = p->g;
    const ta_ir_ops *ops = p->ops;
    ta_diags *diags = p->diags;
    p->parity = NULL;
    pass_free(p);
    ta_status st = fz_unroll(g, loops, n, &keep.parity, &keep.nparity, &keep.cap_parity, unrolled);
    free(loops);
    if (st != TA_OK) {
        free(keep.parity);
        memset(p, 0, sizeof *p);
        return st;
    }
    st = pass_init(p, g, ops, diags, &keep);
    return st == TA_OK ? fz_plan_graph(p) : st;
}

ta_status ta_functionalize(ta_ir_graph *g, const ta_ir_ops *ops, const ta_functionalize_opts *opts,
                           ta_functionalize_report **report, ta_diags *diags)
{
    if (report) *report = NULL;
    fz_pass p, none = {0};
    ta_status st = pass_init(&p, g, ops, diags, &none);
    p.counting = true;
    if (st == TA_OK) st = fz_plan_graph(&p);
    uint32_t before = p.nmutating, unrolled = 0;
    p.counting = false;
    for (int round = 0; st == TA_OK && round < FZ_UNROLL_ROUNDS; round++)
        st = unroll_and_plan_again(&p, &unrolled);
    p.no_copy_back = opts && opts->no_copy_back;
    if (st == TA_OK) st = fz_walk_graph(&p);
    if (st == TA_OK && p.oom) st = TA_ERR_NOMEM;
    if (st == TA_OK && report) {
        ta_functionalize_counts *c = &p.report->counts;
        /* what stays mutating: the kept writes and the copy-backs, nothing
         * else (the pass adds no other write; the tests count them apart) */
        c->mutating_before = before, c->unrolled = unrolled, c->mutating_after = c->kept + c->copy_backs;
        *report = p.report, p.report = NULL;
    }
    pass_free(&p);
    return st;
}

void ta_functionalize_report_destroy(ta_functionalize_report *r)
{
    if (!r) return;
    free(r->kept);
    ta_arena_destroy(r->arena);
    free(r);
}

const ta_functionalize_counts *ta_functionalize_report_counts(const ta_functionalize_report *r) { return &r->counts; }
size_t ta_functionalize_report_nkept(const ta_functionalize_report *r) { return r->nkept; }
const ta_functionalize_kept *ta_functionalize_report_kept(const ta_functionalize_report *r, size_t i)
{
    return i < r->nkept ? &r->kept[i] : NULL;
}
