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
 * does too). It does the same when the later use is the initial value of
 * another loop and the first loop's body reads the value twice in one node
 * (tests/data/functionalize/loop_read_then_carried.ir). Threading written
 * memory through loops makes both shapes often, so the pass hands such a
 * tensor on through aten::alias(%r), placed after the loop that reads it: the
 * same memory, and a last use the interpreter sees.
 *
 * The cause (torch/csrc/jit/runtime/interpreter/can_emit_inline.h and
 * code_impl.h): a node with one output and one use, right before its user
 * (constants aside), is emitted inside the user's argument loads, and a
 * prim::Loop is no exception. A value's last emitted load moves it out of
 * its register. When the user (a block's return, another loop) loads %r
 * before the loop's result, the loop body is emitted after that load, its
 * read of %r is the last one emitted, and the first iteration frees %r for
 * the next. aten::alias(%r) after the loop stands between the loop and the
 * user, so the loop is emitted in place. torch's optimizer can make the
 * shape itself: its common subexpression elimination replaces a loop's
 * own aten::__not__(%d) by the same one before the loop, so a bool a
 * branch returned ahead of a loop's result failed (plan.c's export_cond
 * computes such a bool again after the If instead).
 */
#include <string.h>

#include "alias/functionalize/functionalize_internal.h"

/* Whether v is read inside a prim::Loop within block b, at any depth, in a
 * node of b before `before` (NULL: anywhere in b). A loop in an If in b
 * counts too, since torch's optimizing executor inlines a branch it can
 * decide (a rewrite the interpreter ran right failed on its second,
 * optimized, run: tests/data/functionalize/nested_loop_liveness.ir). */
static bool read_in_loop_of(const ta_ir_value *v, const ta_ir_block *b, const ta_ir_node *before)
{
    for (uint32_t i = 0; i < v->nuses; i++) {
        const ta_ir_node *n = v->uses[i].user;
        bool in_loop = false;
        while (n->block && n->block != b) {
            const ta_ir_node *owner = n->block->owner;
            if (!owner) break;
            in_loop |= owner->kind->kind == IR_K_LOOP;
            if (owner->block == b && in_loop && (!before || ta_ir_node_is_before(owner, before))) return true;
            n = owner;
        }
    }
    return false;
}

/* aten::alias(r), of r's type, inserted before pos (NULL: at the end of b). */
static ta_ir_value *alias_of(fz_pass *p, ta_ir_block *b, ta_ir_value *r, ta_ir_node *pos)
{
    ta_ir_node *k;
    if (ta_ir_node_create(p->g, "aten::alias", &r, 1, 1, &k) != TA_OK) return NULL;
    if ((pos ? ta_ir_node_insert_before(k, pos) : ta_ir_node_append(b, k)) != TA_OK) return NULL;
    ta_ir_value_set_type(k->outputs[0], r->type);
    return k->outputs[0];
}

/* The initial values of each loop of b that an earlier loop of b reads. */
static ta_status guard_carried(fz_pass *p, ta_ir_block *b)
{
    for (ta_ir_node *n = b->param->next; n != b->ret; n = n->next) {
        if (n->kind->kind != IR_K_LOOP) continue;
        for (uint32_t i = 2; i < n->ninputs; i++) {
            ta_ir_value *v = n->inputs[i], *a;
            if (v->type->kind != TA_IR_TENSOR || !read_in_loop_of(v, b, n)) continue;
            if (!(a = alias_of(p, b, v, n)) || ta_ir_node_set_input(n, i, a) != TA_OK) return TA_ERR_NOMEM;
        }
    }
    return TA_OK;
}

static ta_status guard_block(fz_pass *p, ta_ir_block *b)
{
    for (ta_ir_node *n = b->param->next; n != b->ret; n = n->next)
        for (uint32_t i = 0; i < n->nblocks; i++) {
            ta_status st = guard_block(p, n->blocks[i]);
            if (st != TA_OK) return st;
        }
    ta_status st = guard_carried(p, b);
    if (st != TA_OK || !b->owner) return st; /* the graph's own outputs are not affected */
    for (uint32_t i = 0; i < b->ret->ninputs; i++) {
        ta_ir_value *r = b->ret->inputs[i], *a;
        if (r->type->kind != TA_IR_TENSOR || !read_in_loop_of(r, b, NULL)) continue;
        if (!(a = alias_of(p, b, r, NULL)) || ta_ir_block_set_output(b, i, a) != TA_OK) return TA_ERR_NOMEM;
    }
    return TA_OK;
}

ta_status fz_guard_interpreter(fz_pass *p)
{
    return p->has_loop ? guard_block(p, p->g->top) : TA_OK; /* the pass adds no loops */
}
