/* node.c - nodes: creation, inputs and outputs, attributes, blocks, and
 * their place in a block (insert, move, remove), with the positions that
 * make order tests O(1) and the rewrites a pass needs (replace the uses of a
 * value, everywhere or after a point).
 *
 * Positions follow TorchScript's scheme: appending puts a node a fixed
 * interval after the last one, inserting between two nodes takes the
 * midpoint, and a block whose positions run out is spread out again. */
#include <string.h>

#include "alias/ir/ir_internal.h"
#include "base/arena.h"

enum { APPEND_INTERVAL_SHIFT = 40 };
#define APPEND_INTERVAL ((int64_t)1 << APPEND_INTERVAL_SHIFT)


ta_ir_node *ir_node_new(ta_ir_graph *g, const ir_kind_info *kind)
{
    ta_ir_node *n = ta_arena_zalloc(g->arena, sizeof *n); /* 8-byte aligned: 136 bytes, not 144 */
    if (!n) return NULL;
    n->id = g->nnodes++;
    n->kind = kind;
    n->graph = g;
    return n;
}

ta_status ta_ir_node_create(ta_ir_graph *g, const char *kind, ta_ir_value *const *inputs,
                            uint32_t ninputs, uint32_t noutputs, ta_ir_node **out)
{
    *out = NULL;
    if (!kind || !strstr(kind, "::")) return TA_ERR_INVALID;
    const ir_kind_info *k = ir_graph_kind(g, kind, strlen(kind));
    return k ? ir_node_create_kind(g, k, inputs, ninputs, noutputs, out) : TA_ERR_NOMEM;
}

ta_status ir_node_create_kind(ta_ir_graph *g, const ir_kind_info *k, ta_ir_value *const *inputs, uint32_t ninputs,
                              uint32_t noutputs, ta_ir_node **out)
{
    *out = NULL;
    ta_ir_node *n = ir_node_new(g, k);
    if (!n) return TA_ERR_NOMEM;
    for (uint32_t i = 0; i < ninputs; i++) {
        ta_status st = ta_ir_node_add_input(n, inputs[i]);
        if (st != TA_OK) return st;
    }
    for (uint32_t i = 0; i < noutputs; i++)
        if (!ir_value_new(g, n, NULL, 0, NULL)) return TA_ERR_NOMEM;
    *out = n;
    return TA_OK;
}

ta_status ta_ir_append(ta_ir_graph *g, ta_ir_block *b, const char *kind, ta_ir_value *const *inputs,
                       uint32_t ninputs, uint32_t noutputs, ta_ir_node **out)
{
    ta_status st = ta_ir_node_create(g, kind, inputs, ninputs, noutputs, out);
    if (st == TA_OK && (st = ta_ir_node_append(b, *out)) != TA_OK) *out = NULL;
    return st;
}

/* ---- positions ---------------------------------------------------------------- */

static void reindex_block(ta_ir_block *b)
{
    uint64_t count = 0;
    for (ta_ir_node *n = b->param->next; n != b->ret; n = n->next) count++;
    /* spread over the range, leaving room at both ends */
    int64_t step = (int64_t)(UINT64_MAX / 2 / (count + 2));
    if (step > APPEND_INTERVAL) step = APPEND_INTERVAL;
    int64_t pos = INT64_MIN + step;
    for (ta_ir_node *n = b->param->next; n != b->ret; n = n->next, pos += step) n->topo = pos;
}

static void assign_position(ta_ir_node *n)
{
    ta_ir_block *b = n->block;
    bool first = n->prev == b->param, last = n->next == b->ret;
    if (first && last) {
        n->topo = 0;
        return;
    }
    if (last) {
        if (n->prev->topo >= INT64_MAX - 2 * APPEND_INTERVAL) {
            reindex_block(b);
            return;
        }
        n->topo = n->prev->topo + APPEND_INTERVAL;
        return;
    }
    if (first) {
        if (n->next->topo <= INT64_MIN + 2 * APPEND_INTERVAL) {
            reindex_block(b);
            return;
        }
        n->topo = n->next->topo - APPEND_INTERVAL;
        return;
    }
    int64_t lo = n->prev->topo, hi = n->next->topo;
    if (hi - lo < 2) {
        reindex_block(b);
        return;
    }
    n->topo = lo + (hi - lo) / 2;
}

void ir_node_link_after(ta_ir_node *n, ta_ir_node *pos)
{
    n->block = pos->block;
    n->prev = pos;
    n->next = pos->next;
    pos->next->prev = n;
    pos->next = n;
    assign_position(n);
}

static void unlink_node(ta_ir_node *n)
{
    n->prev->next = n->next;
    n->next->prev = n->prev;
    n->prev = n->next = NULL;
    n->block = NULL;
}

static bool is_sentinel(const ta_ir_node *n)
{
    return n->kind->kind == IR_K_PARAM || n->kind->kind == IR_K_RETURN;
}

ta_status ta_ir_node_append(ta_ir_block *b, ta_ir_node *n)
{
    if (!b || !n || n->block || is_sentinel(n)) return TA_ERR_INVALID;
    ir_node_link_after(n, b->ret->prev);
    return TA_OK;
}

ta_status ta_ir_node_insert_after(ta_ir_node *n, ta_ir_node *pos)
{
    if (!n || !pos || n->block || !pos->block || is_sentinel(n) || pos->kind->kind == IR_K_RETURN)
        return TA_ERR_INVALID;
    ir_node_link_after(n, pos);
    return TA_OK;
}

ta_status ta_ir_node_insert_before(ta_ir_node *n, ta_ir_node *pos)
{
    if (!pos || !pos->block || pos->kind->kind == IR_K_PARAM) return TA_ERR_INVALID;
    return ta_ir_node_insert_after(n, pos->prev);
}

ta_status ta_ir_node_move_after(ta_ir_node *n, ta_ir_node *pos)
{
    if (!n || !n->block || is_sentinel(n) || n == pos) return TA_ERR_INVALID;
    unlink_node(n);
    return ta_ir_node_insert_after(n, pos);
}

ta_status ta_ir_node_move_before(ta_ir_node *n, ta_ir_node *pos)
{
    if (!n || !n->block || is_sentinel(n) || n == pos) return TA_ERR_INVALID;
    unlink_node(n);
    return ta_ir_node_insert_before(n, pos);
}

static void forget_block_values(ta_ir_block *b);

static void forget_node(ta_ir_node *n)
{
    for (uint32_t i = 0; i < n->ninputs; i++) ir_value_drop_use(n->inputs[i], n, i);
    n->ninputs = 0;
    for (uint32_t i = 0; i < n->noutputs; i++) ir_value_forget(n->graph, n->outputs[i]);
    for (uint32_t i = 0; i < n->nblocks; i++) forget_block_values(n->blocks[i]);
}

static void forget_block_values(ta_ir_block *b)
{
    for (ta_ir_node *m = b->param->next; m != b->ret; m = m->next) forget_node(m);
    forget_node(b->ret);
    forget_node(b->param);
}

ta_status ta_ir_node_remove(ta_ir_node *n)
{
    if (!n || is_sentinel(n)) return TA_ERR_INVALID;
    for (uint32_t i = 0; i < n->noutputs; i++)
        if (n->outputs[i]->nuses) return TA_ERR_INVALID;
    if (n->block) unlink_node(n);
    forget_node(n);
    return TA_OK;
}

void ir_node_remove_unused(ta_ir_graph *g, ta_ir_node *n, ir_forget_queue *q)
{
    if (n->block) unlink_node(n);
    n->ninputs = 0;
    for (uint32_t j = 0; j < n->noutputs; j++) ir_forget_push(g, q, n->outputs[j]);
    for (uint32_t j = 0; j < n->nblocks; j++) forget_block_values(n->blocks[j]);
}

/* ---- order --------------------------------------------------------------------- */

ta_ir_node *ir_node_in_block(ta_ir_node *target, const ta_ir_block *b)
{
    while (target && target->block != b) {
        if (!target->block) return NULL;
        target = target->block->owner;
    }
    return target;
}

static uint32_t depth_of(const ta_ir_node *n)
{
    uint32_t d = 0;
    while (n->block && n->block->owner) {
        n = n->block->owner;
        d++;
    }
    return d;
}

bool ta_ir_node_is_before(const ta_ir_node *a, const ta_ir_node *b)
{
    if (!a || !b || !a->block || !b->block) return false;
    uint32_t da = depth_of(a), db = depth_of(b);
    for (; da > db; da--) a = a->block->owner;
    for (; db > da; db--) b = b->block->owner;
    while (a->block != b->block) {
        a = a->block->owner;
        b = b->block->owner;
    }
    return a->topo < b->topo;
}

/* ---- inputs, outputs, blocks, attributes ------------------------------------- */

ta_status ta_ir_node_add_input(ta_ir_node *n, ta_ir_value *v)
{
    if (!n || !v) return TA_ERR_INVALID;
    ta_ir_graph *g = n->graph;
    if (ir_grow(g->arena, (void **)&n->inputs, &n->cap_inputs, n->ninputs + 1, sizeof *n->inputs) ||
        ir_value_add_use(g, v, n, n->ninputs))
        return TA_ERR_NOMEM;
    n->inputs[n->ninputs++] = v;
    return TA_OK;
}

ta_status ta_ir_node_set_input(ta_ir_node *n, uint32_t i, ta_ir_value *v)
{
    if (!n || !v || i >= n->ninputs) return TA_ERR_INVALID;
    if (n->inputs[i] == v) return TA_OK;
    if (ir_value_add_use(n->graph, v, n, i)) return TA_ERR_NOMEM;
    ir_value_drop_use(n->inputs[i], n, i);
    n->inputs[i] = v;
    return TA_OK;
}

ta_status ta_ir_node_add_output(ta_ir_node *n, const char *name, const ta_ir_type *type,
                                ta_ir_value **out)
{
    *out = NULL;
    if (!n || is_sentinel(n)) return TA_ERR_INVALID;
    if (name && *name == '%') name++;
    *out = ir_value_new(n->graph, n, name, name ? strlen(name) : 0, type);
    return *out ? TA_OK : TA_ERR_NOMEM;
}

ta_status ta_ir_node_add_block(ta_ir_node *n, ta_ir_block **out)
{
    ta_ir_graph *g = n->graph;
    ta_ir_block *b = ir_block_new(g, n);
    *out = NULL;
    if (!b || ir_grow(g->arena, (void **)&n->blocks, &n->cap_blocks, n->nblocks + 1, sizeof *n->blocks))
        return TA_ERR_NOMEM;
    n->blocks[n->nblocks++] = *out = b;
    return TA_OK;
}

ta_status ta_ir_node_set_attr(ta_ir_node *n, const char *name, const char *value)
{
    if (!n || !name || !value) return TA_ERR_INVALID;
    ta_arena *a = n->graph->arena;
    const char *v = ta_arena_strndup(a, value, strlen(value));
    if (!v) return TA_ERR_NOMEM;
    for (uint32_t i = 0; i < n->nattrs; i++)
        if (!strcmp(n->attrs[i].name, name)) {
            n->attrs[i].value = v;
            return TA_OK;
        }
    const char *nm = ta_arena_strndup(a, name, strlen(name));
    if (!nm || ir_grow(a, (void **)&n->attrs, &n->cap_attrs, n->nattrs + 1, sizeof *n->attrs))
        return TA_ERR_NOMEM;
    n->attrs[n->nattrs].name = nm;
    n->attrs[n->nattrs].value = v;
    n->nattrs++;
    return TA_OK;
}

const char *ta_ir_node_attr(const ta_ir_node *n, const char *name)
{
    for (uint32_t i = 0; i < n->nattrs; i++)
        if (!strcmp(n->attrs[i].name, name)) return n->attrs[i].value;
    return NULL;
}

uint32_t ta_ir_node_nattrs(const ta_ir_node *n) { return n->nattrs; }
const char *ta_ir_node_attr_name(const ta_ir_node *n, uint32_t i) { return i < n->nattrs ? n->attrs[i].name : NULL; }
const char *ta_ir_node_attr_value(const ta_ir_node *n, uint32_t i) { return i < n->nattrs ? n->attrs[i].value : NULL; }
const char *ta_ir_node_source(const ta_ir_node *n) { return n->source; }

ta_status ta_ir_node_set_source(ta_ir_node *n, const char *source)
{
    if (!source) {
        n->source = NULL;
        return TA_OK;
    }
    n->source = ta_arena_strndup(n->graph->arena, source, strlen(source));
    return n->source ? TA_OK : TA_ERR_NOMEM;
}

uint32_t ta_ir_node_line(const ta_ir_node *n) { return n->line; }
const char *ta_ir_node_kind(const ta_ir_node *n) { return n->kind->name; }
uint32_t ta_ir_node_id(const ta_ir_node *n) { return n->id; }
ta_ir_block *ta_ir_node_block(const ta_ir_node *n) { return n->block; }

ta_ir_node *ta_ir_node_next(const ta_ir_node *n)
{
    return n->next && n->next->kind->kind != IR_K_RETURN ? n->next : NULL;
}

ta_ir_node *ta_ir_node_prev(const ta_ir_node *n)
{
    return n->prev && n->prev->kind->kind != IR_K_PARAM ? n->prev : NULL;
}

uint32_t ta_ir_node_ninputs(const ta_ir_node *n) { return n->ninputs; }
ta_ir_value *ta_ir_node_input(const ta_ir_node *n, uint32_t i) { return i < n->ninputs ? n->inputs[i] : NULL; }
uint32_t ta_ir_node_noutputs(const ta_ir_node *n) { return n->noutputs; }
ta_ir_value *ta_ir_node_output(const ta_ir_node *n, uint32_t i) { return i < n->noutputs ? n->outputs[i] : NULL; }
uint32_t ta_ir_node_nblocks(const ta_ir_node *n) { return n->nblocks; }
ta_ir_block *ta_ir_node_block_at(const ta_ir_node *n, uint32_t i) { return i < n->nblocks ? n->blocks[i] : NULL; }

/* ---- replacing uses ------------------------------------------------------------ */

/* Whether the use by `user` comes after node `after` in program order: the
 * user (or the node enclosing it in after's block) is later than `after`,
 * or the user is a return node of a block enclosing `after`. */
static bool use_is_after(ta_ir_node *user, const ta_ir_node *after)
{
    if (user->kind->kind == IR_K_RETURN) {
        for (const ta_ir_node *a = after; a && a->block; a = a->block->owner)
            if (a->block == user->block) return true;
        if (!user->block->owner) return false;
        user = user->block->owner;
    }
    if (user == after) return false;
    /* a use inside after's own blocks is not after it */
    for (const ta_ir_node *u = user; u->block && u->block->owner; u = u->block->owner)
        if (u->block->owner == after) return false;
    return ta_ir_node_is_before(after, user);
}

static ta_status replace_uses(ta_ir_value *v, ta_ir_value *w, const ta_ir_node *after)
{
    if (!v || !w) return TA_ERR_INVALID;
    if (v == w) return TA_OK;
    for (uint32_t i = 0; i < v->nuses;) {
        ir_use u = v->uses[i];
        if (after && !use_is_after(u.user, after)) {
            i++;
            continue;
        }
        ta_status st = ta_ir_node_set_input(u.user, u.index, w);
        if (st != TA_OK) return st;
    }
    return TA_OK;
}

ta_status ta_ir_value_replace_uses(ta_ir_value *v, ta_ir_value *w)
{
    return replace_uses(v, w, NULL);
}

ta_status ta_ir_value_replace_uses_after(ta_ir_value *v, ta_ir_value *w, const ta_ir_node *after)
{
    if (!after || !after->block) return TA_ERR_INVALID;
    return replace_uses(v, w, after);
}
