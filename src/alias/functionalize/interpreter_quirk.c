/* interpreter_quirk.c - keeps the rewrite runnable by torch 1.13.1's
 * TorchScript interpreter.
 *
 * That interpreter frees a value at its last use inside a prim::Loop body
 * when the only later use is the return of the block around the loop: a
 * block that computes %r, reads it in a nested loop and then returns it
 * fails with "Expected Tensor but got None" (a scripted
 *     for i in range(3): r = a.relu(); s = b
 *                        for j in range(2): s = s * r
 *                        a, b = r, s
 * does too). Threading written memory through loops makes that shape often,
 * so the pass returns such a tensor through aten::alias(%r) placed after the
 * loop: the same memory, and a last use the interpreter sees.
 */
#include <string.h>

#include "alias/functionalize/functionalize_internal.h"

/* Whether v is read inside a prim::Loop within block b, at any depth: a loop
 * in an If in b counts too, since torch's optimizing executor inlines a
 * branch it can decide (a rewrite the interpreter ran right failed on its
 * second, optimized, run: tests/data/functionalize/nested_loop_liveness.ir). */
static bool read_in_loop_of(const ta_ir_value *v, const ta_ir_block *b)
{
    for (uint32_t i = 0; i < v->nuses; i++) {
        const ta_ir_node *n = v->uses[i].user;
        bool in_loop = false;
        while (n->block && n->block != b) {
            const ta_ir_node *owner = n->block->owner;
            if (!owner) break;
            in_loop |= owner->kind->kind == IR_K_LOOP;
            if (owner->block == b && in_loop) return true;
            n = owner;
        }
    }
    return false;
}

static ta_status guard_block(fz_pass *p, ta_ir_block *b)
{
    for (ta_ir_node *n = b->param->next; n != b->ret; n = n->next)
        for (uint32_t i = 0; i < n->nblocks; i++) {
            ta_status st = guard_block(p, n->blocks[i]);
            if (st != TA_OK) return st;
        }
    if (!b->owner) return TA_OK; /* the graph's own outputs are not affected */
    for (uint32_t i = 0; i < b->ret->ninputs; i++) {
        ta_ir_value *r = b->ret->inputs[i];
        if (r->type->kind != TA_IR_TENSOR || !read_in_loop_of(r, b)) continue;
        ta_ir_node *k;
        if (ta_ir_node_create(p->g, "aten::alias", &r, 1, 1, &k) != TA_OK || ta_ir_node_append(b, k) != TA_OK)
            return TA_ERR_NOMEM;
        ta_ir_value_set_type(k->outputs[0], r->type);
        if (ta_ir_block_set_output(b, i, k->outputs[0]) != TA_OK) return TA_ERR_NOMEM;
    }
    return TA_OK;
}

ta_status fz_guard_interpreter(fz_pass *p)
{
    return p->has_loop ? guard_block(p, p->g->top) : TA_OK; /* the pass adds no loops */
}
