/* resolver.c - operator resolution for passes that resolve every node of a
 * graph: ta_ir_ops_resolve looks the kind up by name and matches each
 * overload's formals against the input types, while a node's operator
 * depends on nothing but its kind and its input types (ir_op_matches), and a
 * graph repeats few such combinations. A direct-mapped table keyed by those
 * pointers answers most nodes with a few comparisons. */
#include <string.h>

#include "alias/ir/ir_internal.h"

static uint32_t slot_of(const ta_ir_node *n)
{
    uintptr_t h = (uintptr_t)n->kind >> 4;
    for (uint32_t i = 0; i < n->ninputs; i++) h = h * 31 + ((uintptr_t)n->inputs[i]->type >> 4);
    return (uint32_t)(h ^ h >> 11) & (IR_RESOLVER_SLOTS - 1);
}

void ir_resolver_init(ir_resolver *r, const ta_ir_ops *ops)
{
    memset(r, 0, sizeof *r);
    r->ops = ops;
}

const ta_ir_op *ir_resolve(ir_resolver *r, const ta_ir_node *n)
{
    if (n->ninputs > IR_RESOLVER_INPUTS) return ta_ir_ops_resolve(r->ops, n);
    ir_resolver_slot *s = &r->slot[slot_of(n)];
    bool hit = s->kind == n->kind && s->ninputs == n->ninputs;
    for (uint32_t i = 0; hit && i < n->ninputs; i++) hit = s->types[i] == n->inputs[i]->type;
    if (hit) return s->op;
    s->kind = n->kind, s->ninputs = n->ninputs, s->op = ta_ir_ops_resolve(r->ops, n);
    for (uint32_t i = 0; i < n->ninputs; i++) s->types[i] = n->inputs[i]->type;
    return s->op;
}
