/* aliasdb_nodes.c - one node of the walk: AliasDb::analyzeImpl's special
 * cases by node kind, and the operator's registered treatment for the rest
 * (pure function, conservative, or from its schema). */
#include <stdlib.h>
#include <string.h>

#include "alias/aliasdb/aliasdb_internal.h"

/* Outputs fresh, as if made from nothing (analyzeCreator). */
void adb_analyze_creator(ta_aliasdb *db, const ta_ir_node *n)
{
    for (uint32_t i = 0; i < n->noutputs; i++) adb_give_fresh(db, n->outputs[i], true);
}

/* Every output a wildcard (analyzeExtractor). */
static void analyze_extractor(ta_aliasdb *db, const ta_ir_node *n)
{
    for (uint32_t i = 0; i < n->noutputs; i++) adb_set_wildcard(db, n->outputs[i]);
}

/* May write anything it is given, and everything is a wildcard afterwards
 * (analyzeConservative). */
void adb_analyze_conservative(ta_aliasdb *db, const ta_ir_node *n)
{
    for (uint32_t i = 0; i < n->ninputs; i++) {
        const ta_ir_value *v = n->inputs[i];
        if (!adb_value_mutable(db, v)) continue;
        adb_register_write(db, v, n, true);
        adb_set_wildcard(db, v);
    }
    for (uint32_t i = 0; i < n->noutputs; i++) adb_set_wildcard(db, n->outputs[i]);
}

/* An output is either block's output (analyzeIf). */
static void analyze_if(ta_aliasdb *db, const ta_ir_node *n)
{
    if (n->nblocks < 2) {
        adb_analyze_conservative(db, n);
        return;
    }
    const ta_ir_block *t = n->blocks[0], *f = n->blocks[1];
    adb_analyze_block(db, t);
    adb_analyze_block(db, f);
    for (uint32_t i = 0; i < n->noutputs; i++) {
        if (i < t->ret->ninputs) adb_make_pointer(db, n->outputs[i], t->ret->inputs[i]);
        if (i < f->ret->ninputs) adb_make_pointer(db, n->outputs[i], f->ret->inputs[i]);
    }
}

/* Loop-carried values flow into the body's parameters, and the body's
 * outputs into the loop's outputs (analyzeLoop). */
static void analyze_loop(ta_aliasdb *db, const ta_ir_node *n)
{
    if (n->nblocks < 1) {
        adb_analyze_conservative(db, n);
        return;
    }
    const ta_ir_block *body = n->blocks[0];
    const ta_ir_node *params = body->param, *ret = body->ret;
    for (uint32_t i = 1; i < params->noutputs && i + 1 < n->ninputs; i++)
        adb_make_pointer(db, params->outputs[i], n->inputs[i + 1]);
    adb_analyze_block(db, body);
    for (uint32_t i = 0; i < n->noutputs && i + 1 < ret->ninputs; i++)
        adb_make_pointer(db, n->outputs[i], ret->inputs[i + 1]);
}

/* prim::GradOf: its block, whose outputs are the node's. */
static void analyze_grad_of(ta_aliasdb *db, const ta_ir_node *n)
{
    if (n->nblocks < 1) {
        adb_analyze_conservative(db, n);
        return;
    }
    const ta_ir_block *b = n->blocks[0];
    adb_analyze_block(db, b);
    for (uint32_t i = 0; i < n->noutputs && i < b->ret->ninputs; i++)
        adb_make_pointer(db, n->outputs[i], b->ret->inputs[i]);
}

/* A constant bool input, by argument name (constant_as<bool>): 1 true,
 * 0 false, -1 not a constant. */
static int constant_bool(ta_aliasdb *db, const ta_ir_node *n, const char *name)
{
    const ta_ir_value *v = adb_named_input(db, n, name);
    if (!v || v->type->kind != TA_IR_BOOL || v->node->kind->kind != IR_K_CONSTANT) return -1;
    const char *val = ta_ir_node_attr(v->node, "value");
    if (!val) return -1;
    if (!strcmp(val, "0") || !strcmp(val, "False") || !strcmp(val, "false")) return 0;
    return 1;
}

/* batch_norm and instance_norm write their running statistics unless the
 * flag is the constant false (analyzeBatchNorm, analyzeInstanceNorm). */
static void analyze_norm(ta_aliasdb *db, const ta_ir_node *n, const char *flag)
{
    adb_analyze_creator(db, n);
    if (constant_bool(db, n, flag) == 0) return;
    const ta_ir_value *mean = adb_named_input(db, n, "running_mean");
    const ta_ir_value *var = adb_named_input(db, n, "running_var");
    if (mean) adb_register_write(db, mean, n, false);
    if (var) adb_register_write(db, var, n, false);
}

/* Does this use keep a container's elements from escaping?
 * (functionalNonEscapingListUse / functionalNonEscapingTupleUse) */
static bool non_escaping_use(ta_aliasdb *db, const ir_use *use)
{
    const ta_ir_node *user = use->user;
    const ta_ir_value *c = user->inputs[use->index];
    bool top_return = user->kind->kind == IR_K_RETURN && user->block == db->g->top;
    if (c->type->kind == TA_IR_TUPLE) return top_return;
    if (c->type->kind != TA_IR_LIST) return false;
    if (user->kind->kind == IR_K_RETURN) return top_return;
    if (user->kind->list_non_escaping) return true;
    const ta_ir_op *op = adb_resolve(db, user);
    return op && op->kind == TA_IR_PURE_FUNCTION;
}

/* List, tuple and dict literals (analyzeContainerConstruct). */
static void analyze_container(ta_aliasdb *db, const ta_ir_node *n)
{
    if (n->noutputs != 1 || !adb_value_mutable(db, n->outputs[0])) return;
    const ta_ir_value *c = n->outputs[0];
    if (c->nuses == 1 && non_escaping_use(db, &c->uses[0])) {
        adb_give_fresh(db, c, false);
        for (uint32_t i = 0; i < n->ninputs; i++) adb_add_contained(db, n->inputs[i], c);
        return;
    }
    adb_give_fresh(db, c, true);
    uint32_t ce = db->elem_of[c->id];
    for (uint32_t i = 0; i < n->ninputs; i++) {
        uint32_t w = adb_set_wildcard(db, n->inputs[i]);
        if (w != ADB_NONE) adb_contain(db, ce, w);
    }
}

static void point_outputs_to(ta_aliasdb *db, const ta_ir_node *n, uint32_t input)
{
    if (input >= n->ninputs) return;
    for (uint32_t i = 0; i < n->noutputs; i++) adb_make_pointer(db, n->outputs[i], n->inputs[input]);
}

/* prim::BroadcastingChunk: output i*chunks+k points to input i. */
static void analyze_broadcasting_chunk(ta_aliasdb *db, const ta_ir_node *n)
{
    const char *a = ta_ir_node_attr(n, "chunks");
    long chunks = a ? strtol(a, NULL, 10) : 0;
    if (chunks <= 0) {
        adb_analyze_conservative(db, n);
        return;
    }
    for (uint32_t i = 0; i < n->ninputs; i++)
        for (long k = 0; k < chunks && i * (uint64_t)chunks + (uint64_t)k < n->noutputs; k++)
            adb_make_pointer(db, n->outputs[i * chunks + k], n->inputs[i]);
}

/* The kinds analyzeImpl handles before looking at the operator. Returns
 * false for the others. */
static bool analyze_special(ta_aliasdb *db, const ta_ir_node *n)
{
    switch (n->kind->kind) {
    case IR_K_IF: analyze_if(db, n); return true;
    case IR_K_LOOP: analyze_loop(db, n); return true;
    case IR_K_GRAD_OF: analyze_grad_of(db, n); return true;
    case IR_K_BATCH_NORM: analyze_norm(db, n, "training"); return true;
    case IR_K_INSTANCE_NORM: analyze_norm(db, n, "use_input_stats"); return true;
    case IR_K_CONSTANT:
    case IR_K_UNINITIALIZED:
    case IR_K_AUTOGRAD_ZERO:
    case IR_K_CREATOR: adb_analyze_creator(db, n); return true;
    case IR_K_LIST_CONSTRUCT:
    case IR_K_TUPLE_CONSTRUCT:
    case IR_K_DICT_CONSTRUCT: analyze_container(db, n); return true;
    case IR_K_EXTRACTOR:
    case IR_K_GET_ATTR: analyze_extractor(db, n); return true;
    case IR_K_UNCHECKED_CAST:
    case IR_K_PROFILE:
    case IR_K_GUARD:
        if (n->noutputs && n->ninputs) adb_make_pointer(db, n->outputs[0], n->inputs[0]);
        return true;
    case IR_K_BAILOUT:
        if (n->noutputs && n->ninputs > 1) adb_make_pointer(db, n->outputs[0], n->inputs[1]);
        return true;
    case IR_K_CONSTANT_CHUNK: point_outputs_to(db, n, 0); return true;
    case IR_K_BROADCASTING_CHUNK: analyze_broadcasting_chunk(db, n); return true;
    case IR_K_BROADCAST_MKLDNN:
        for (uint32_t i = 0; i < 2 && i < n->noutputs && i < n->ninputs; i++)
            adb_make_pointer(db, n->outputs[i], n->inputs[i]);
        return true;
    case IR_K_TYPE_CHECK:
        for (uint32_t i = 0; i < n->ninputs && i < n->noutputs; i++)
            adb_make_pointer(db, n->outputs[i], n->inputs[i]);
        return true;
    case IR_K_SET_ATTR:
        if (n->ninputs == 2) {
            adb_register_write(db, n->inputs[0], n, false);
            adb_set_wildcard(db, n->inputs[1]);
        }
        return true;
    case IR_K_FORK:
    case IR_K_RPC:
        for (uint32_t i = 0; i < n->ninputs; i++) adb_set_wildcard(db, n->inputs[i]);
        adb_analyze_creator(db, n);
        return true;
    case IR_K_WAIT:
        analyze_extractor(db, n);
        if (ir_grow(db->arena, (void **)&db->wild_writers, &db->cap_wild_writers,
                    db->nwild_writers + 1, sizeof *db->wild_writers) != TA_OK) {
            adb_nomem(db);
            return true;
        }
        db->wild_writers[db->nwild_writers++] = n;
        return true;
    case IR_K_CALL:
    case IR_K_ENTER_EXIT:
    case IR_K_SUBGRAPH: /* the reader keeps no subgraph: assume the worst */
        adb_analyze_conservative(db, n);
        return true;
    case IR_K_NOOP: return true;
    default: return false;
    }
}

static void note_no_schema(ta_aliasdb *db, const ta_ir_node *n)
{
    ta_loc loc = {db->g->source, n->line, n->col, n->kind->len, NULL, 0};
    bool known = ta_ir_ops_has_kind(db->ops, n->kind->name);
    ta_diag_note(db->diags, n->line ? &loc : NULL, "ir-no-schema",
                 known ? "no overload of %s accepts these input types; analysed conservatively"
                       : "no schema for %s; analysed conservatively",
                 n->kind->name);
}

void adb_analyze_node(ta_aliasdb *db, const ta_ir_node *n)
{
    if (analyze_special(db, n)) {
        db->how[n->id] = TA_ALIASDB_SPECIAL;
        return;
    }
    const ta_ir_op *op = adb_resolve(db, n);
    db->op_of[n->id] = op;
    if (!op || op->kind == TA_IR_SPECIAL_CASE) {
        db->how[n->id] = TA_ALIASDB_NO_SCHEMA;
        note_no_schema(db, n);
        adb_analyze_conservative(db, n);
    } else if (op->kind == TA_IR_PURE_FUNCTION) {
        db->how[n->id] = TA_ALIASDB_PURE;
        adb_analyze_creator(db, n);
    } else if (op->kind == TA_IR_CONSERVATIVE) {
        db->how[n->id] = TA_ALIASDB_CONSERVATIVE;
        adb_analyze_conservative(db, n);
    } else {
        db->how[n->id] = TA_ALIASDB_SCHEMA;
        adb_analyze_schema(db, n, op);
    }
}
