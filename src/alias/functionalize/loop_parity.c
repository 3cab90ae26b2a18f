/* loop_parity.c - loops that carry a tensor as a transpose of itself.
 *
 * A body that returns aten::transpose(%p, a, b) (or aten::t(%p)) for its
 * carried %p leaves it, after k iterations, as the initial value transposed
 * k times: the initial value itself when k is even, its transpose when k is
 * odd, since transposing twice is the identity. Before planning, such a
 * loop gets a carried bool, true on entry and negated by every iteration
 * ("an even number so far"), and the transpose of the initial value is taken
 * once before the loop; the plan then follows %p, and the loop's result, as
 * one of those two chosen by the bool, like a prim::If's result.
 */
#include <string.h>

#include "alias/functionalize/functionalize_internal.h"
#include "base/alloc.h"

static bool constant_arg(const ta_ir_value *v)
{
    return v->node->kind->kind == IR_K_CONSTANT && v->node->nattrs == 1 && v->type->kind == TA_IR_INT;
}

/* Whether v is a transpose of param that is its own inverse. */
static bool self_transpose(const ta_ir_value *v, const ta_ir_value *param)
{
    const ta_ir_node *n = v->node;
    if (n->noutputs != 1 || n->ninputs < 1 || n->inputs[0] != param) return false;
    if (!strcmp(n->kind->name, "aten::t")) return n->ninputs == 1;
    return !strcmp(n->kind->name, "aten::transpose") && n->ninputs == 3 && constant_arg(n->inputs[1]) &&
           constant_arg(n->inputs[2]);
}

/* A copy of constant c just before node `at`. */
static ta_status constant_before(ta_ir_graph *g, const ta_ir_value *c, ta_ir_node *at, ta_ir_value **out)
{
    ta_ir_node *k;
    if (ta_ir_node_create(g, "prim::Constant", NULL, 0, 1, &k) != TA_OK ||
        ta_ir_node_set_attr(k, c->node->attrs[0].name, c->node->attrs[0].value) != TA_OK ||
        ta_ir_node_insert_before(k, at) != TA_OK)
        return TA_ERR_NOMEM;
    ta_ir_value_set_type(k->outputs[0], c->type);
    *out = k->outputs[0];
    return TA_OK;
}

/* The transpose `view` makes of the loop's carried value, taken of init
 * just before the loop. */
static ta_status transpose_before(ta_ir_graph *g, const ta_ir_node *view, ta_ir_value *init, ta_ir_node *loop,
                                  ta_ir_value **out)
{
    ta_ir_value *in[3] = {init, NULL, NULL};
    for (uint32_t i = 1; i < view->ninputs; i++) {
        ta_status st = constant_before(g, view->inputs[i], loop, &in[i]);
        if (st != TA_OK) return st;
    }
    ta_ir_node *t;
    if (ta_ir_node_create(g, view->kind->name, in, view->ninputs, 1, &t) != TA_OK ||
        ta_ir_node_insert_before(t, loop) != TA_OK)
        return TA_ERR_NOMEM;
    ta_ir_value_set_type(t->outputs[0], view->outputs[0]->type);
    *out = t->outputs[0];
    return TA_OK;
}

/* The loop's new carried bool: true on entry, negated by each iteration. */
static ta_status add_parity(ta_ir_graph *g, ta_ir_node *loop, ta_ir_value **flag, ta_ir_value **flag_out)
{
    const ta_ir_type *b = ta_ir_type_simple(g, TA_IR_BOOL);
    ta_ir_block *body = loop->blocks[0];
    ta_ir_node *yes, *not;
    if (ta_ir_node_create(g, "prim::Constant", NULL, 0, 1, &yes) != TA_OK ||
        ta_ir_node_set_attr(yes, "value", "1") != TA_OK || ta_ir_node_insert_before(yes, loop) != TA_OK)
        return TA_ERR_NOMEM;
    ta_ir_value_set_type(yes->outputs[0], b);
    if (ta_ir_node_add_input(loop, yes->outputs[0]) != TA_OK || ta_ir_block_add_param(body, NULL, b, flag) != TA_OK ||
        ta_ir_node_add_output(loop, NULL, b, flag_out) != TA_OK)
        return TA_ERR_NOMEM;
    if (ta_ir_node_create(g, "aten::__not__", flag, 1, 1, &not) != TA_OK || ta_ir_node_append(body, not) != TA_OK)
        return TA_ERR_NOMEM;
    ta_ir_value_set_type(not->outputs[0], b);
    return ta_ir_block_add_output(body, not->outputs[0]) == TA_OK ? TA_OK : TA_ERR_NOMEM;
}

static ta_status remember(fz_pass *p, const fz_parity *q)
{
    if (p->nparity == p->cap_parity) {
        uint32_t cap = p->cap_parity ? 2 * p->cap_parity : 8;
        fz_parity *a = ta_realloc(p->parity, cap * sizeof *a);
        if (!a) return TA_ERR_NOMEM;
        p->parity = a, p->cap_parity = cap;
    }
    p->parity[p->nparity++] = *q;
    return TA_OK;
}

static ta_status prepare_loop(fz_pass *p, ta_ir_node *loop)
{
    ta_ir_block *body = loop->blocks[0];
    ta_ir_value *flag = NULL, *flag_out = NULL;
    uint32_t ncarried = loop->noutputs;
    for (uint32_t j = 0; j < ncarried; j++) {
        ta_ir_value *param = body->param->outputs[j + 1], *last = body->ret->inputs[j + 1];
        if (param->type->kind != TA_IR_TENSOR || !self_transpose(last, param)) continue;
        fz_parity q = {.loop = loop, .j = j};
        ta_status st = transpose_before(p->g, last->node, loop->inputs[j + 2], loop, &q.transposed);
        if (st == TA_OK && !flag) st = add_parity(p->g, loop, &flag, &flag_out);
        q.flag = flag, q.flag_out = flag_out;
        if (st == TA_OK) st = remember(p, &q);
        if (st != TA_OK) return st;
    }
    return TA_OK;
}

static ta_status prepare_block(fz_pass *p, ta_ir_block *b)
{
    for (ta_ir_node *n = b->param->next; n != b->ret; n = n->next) {
        for (uint32_t i = 0; i < n->nblocks; i++) {
            ta_status st = prepare_block(p, n->blocks[i]);
            if (st != TA_OK) return st;
        }
        if (fz_is_loop(n)) {
            ta_status st = prepare_loop(p, n);
            if (st != TA_OK) return st;
        }
    }
    return TA_OK;
}

ta_status fz_prepare_parity(fz_pass *p)
{
    return prepare_block(p, p->g->top);
}

const fz_parity *fz_parity_of(const fz_pass *p, const ta_ir_node *loop, uint32_t j)
{
    for (uint32_t i = 0; i < p->nparity; i++)
        if (p->parity[i].loop == loop && p->parity[i].j == j) return &p->parity[i];
    return NULL;
}
