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
    if (!op_room(p, n->id)) return ta_ir_ops_resolve(p->ops, n);
    if (!p->op_done[n->id]) p->op[n->id] = ta_ir_ops_resolve(p->ops, n), p->op_done[n->id] = 1;
    return p->op[n->id];
}

void fz_set_op(fz_pass *p, const ta_ir_node *n, const ta_ir_op *op)
{
    if (op_room(p, n->id)) p->op[n->id] = op, p->op_done[n->id] = 1;
}

/* count_block with the pass's resolutions */
static uint32_t count_mutating(fz_pass *p, const ta_ir_block *b)
{
    uint32_t n = 0;
    for (const ta_ir_node *m = b->param->next; m != b->ret; m = m->next) {
        for (uint32_t i = 0; i < m->nblocks; i++) n += count_mutating(p, m->blocks[i]);
        const ta_ir_op *op = m->kind->kind == IR_K_OTHER ? fz_op(p, m) : NULL;
        n += op && fz_op_writes(op);
    }
    return n;
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

static ta_status pass_init(fz_pass *p, ta_ir_graph *g, const ta_ir_ops *ops, ta_diags *diags)
{
    memset(p, 0, sizeof *p);
    p->g = g, p->ops = ops, p->diags = diags;
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
    p->stamp = ta_calloc(nv, sizeof *p->stamp);
    p->plan = ta_calloc(nn, sizeof *p->plan);
    p->wplan = ta_calloc(nn, sizeof *p->wplan);
    p->why = ta_calloc(nn, sizeof *p->why);
    p->guard = ta_calloc(nn, sizeof *p->guard);
    p->first = ta_calloc(nn, sizeof *p->first);
    p->op = ta_malloc(nn * sizeof *p->op);
    p->op_done = ta_calloc(nn, 1);
    p->nop = (uint32_t)nn;
    if (!p->alias || !p->uf || !p->taint || !p->stamp || !p->plan || !p->wplan || !p->why || !p->guard || !p->first ||
        !p->op || !p->op_done)
        return TA_ERR_NOMEM;
    for (uint32_t i = 0; i < nv; i++) p->uf[i] = i;
    return TA_OK;
}

static void pass_free(fz_pass *p)
{
    free(p->alias);
    free(p->uf);
    free(p->taint);
    free(p->stamp);
    free(p->plan);
    free(p->wplan);
    free(p->why);
    free(p->guard);
    free(p->first);
    free(p->op);
    free(p->op_done);
    free(p->parity);
    free(p->mem_start);
    free(p->mem);
    ta_arena_destroy(p->arena);
    ta_functionalize_report_destroy(p->report);
}

ta_status ta_functionalize(ta_ir_graph *g, const ta_ir_ops *ops, const ta_functionalize_opts *opts,
                           ta_functionalize_report **report, ta_diags *diags)
{
    if (report) *report = NULL;
    fz_pass p;
    ta_status st = pass_init(&p, g, ops, diags);
    p.no_copy_back = opts && opts->no_copy_back;
    if (st == TA_OK) p.report->counts.mutating_before = count_mutating(&p, g->top);
    if (st == TA_OK) st = fz_plan_graph(&p);
    if (st == TA_OK) st = fz_walk_graph(&p);
    if (st == TA_OK && p.oom) st = TA_ERR_NOMEM;
    if (st == TA_OK) p.report->counts.mutating_after = count_mutating(&p, g->top);
    if (st == TA_OK && report) *report = p.report, p.report = NULL;
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
