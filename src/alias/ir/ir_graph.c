/* ir_graph.c - a graph, its values and blocks: creation, names, uses and the
 * public accessors. Nodes and their placement are in node.c.
 *
 * Names: every value has one, printed after '%'. A value made without a
 * name gets the next free number, as torch numbers unnamed values; a name
 * already taken gets a ".N" suffix. The name map keeps a removed value's
 * entry with a NULL value (the map has no deletion), which frees the name. */
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/grow.h"
#include "alias/ir/ir_internal.h"

ta_status ir_grow(ta_arena *a, void **arr, uint32_t *cap, uint32_t need, size_t sz)
{
    if (need <= *cap) return TA_OK;
    /* the first allocation as asked (a node's inputs are counted before
     * they are added), then doubling; the graph counts in 32 bits */
    uint64_t c = *cap ? *cap : need > 2 ? need : 2;
    while (c < need) c *= 2;
    if (c > UINT32_MAX || c > SIZE_MAX / sz) return TA_ERR_NOMEM;
    /* arrays are read up to their counts only: nothing to clear (and the
     * elements are pointers and 32-bit counts: 8-byte aligned will do) */
    void *grown = ta_arena_take(a, (size_t)c * sz);
    if (!grown) return TA_ERR_NOMEM;
    if (*cap) memcpy(grown, *arr, (size_t)*cap * sz);
    *arr = grown;
    *cap = (uint32_t)c;
    return TA_OK;
}

bool ir_name_is_number(const char *s, size_t len, uint64_t *value)
{
    if (!len || len > 18) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *value = v;
    return true;
}

const ir_kind_info *ir_graph_kind(ta_ir_graph *g, const char *name, size_t len)
{
    ta_map_entry *e = ta_map_find(&g->kinds, name, len);
    if (e) return e->value.ptr;
    ir_kind_info *info = ta_arena_alloc(g->arena, sizeof *info);
    char *copy = ta_arena_strndup(g->arena, name, len);
    if (!info || !copy) return NULL;
    info->name = copy;
    info->len = (uint32_t)len;
    ir_kind_classify(info);
    if (ta_map_add(&g->kinds, copy, len, ta_map_ptr(info), NULL) != TA_OK) return NULL;
    return info;
}

ta_ir_block *ir_block_new(ta_ir_graph *g, ta_ir_node *owner)
{
    ta_ir_block *b = ta_arena_alloc(g->arena, sizeof *b);
    const ir_kind_info *pk = ir_graph_kind(g, "prim::Param", 11);
    const ir_kind_info *rk = ir_graph_kind(g, "prim::Return", 12);
    if (!b || !pk || !rk) return NULL;
    b->graph = g;
    b->owner = owner;
    b->param = ir_node_new(g, pk);
    b->ret = ir_node_new(g, rk);
    if (!b->param || !b->ret) return NULL;
    b->param->block = b->ret->block = b;
    b->param->next = b->ret;
    b->ret->prev = b->param;
    b->param->topo = INT64_MIN;
    b->ret->topo = INT64_MAX;
    return b;
}

ta_status ta_ir_graph_create(ta_ir_graph **out)
{
    *out = NULL;
    ta_ir_graph *g = ta_calloc(1, sizeof *g);
    if (!g) return TA_ERR_NOMEM;
    ta_status st = ta_arena_create(&g->arena);
    ta_map_init_in(&g->names, NULL, g->arena); /* sized once by the reader: in its chunk */
    ta_map_init(&g->kinds, NULL);
    if (st != TA_OK || ir_types_init(&g->types, g->arena, NULL) != TA_OK ||
        !(g->top = ir_block_new(g, NULL))) {
        ta_ir_graph_destroy(g);
        return TA_ERR_NOMEM;
    }
    *out = g;
    return TA_OK;
}

void ta_ir_graph_destroy(ta_ir_graph *g)
{
    if (!g) return;
    ta_map_clear(&g->names);
    ta_map_clear(&g->kinds);
    ir_types_clear(&g->types);
    ta_arena_destroy(g->arena);
    free(g);
}

/* ---- names ------------------------------------------------------------------ */

static bool name_taken(const ta_ir_graph *g, const char *s, size_t n)
{
    ta_map_entry *e = ta_map_find(&g->names, s, n);
    return e && e->value.ptr;
}

/* A free name for a value: the one asked for, or it with a ".N" suffix, or
 * the next number. Arena-owned. */
static const char *free_name(ta_ir_graph *g, const char *name, size_t len)
{
    char buf[64];
    uint64_t num;
    if (!name || !len) {
        do snprintf(buf, sizeof buf, "%" PRIu64, g->next_number++);
        while (name_taken(g, buf, strlen(buf)));
        return ta_arena_strndup(g->arena, buf, strlen(buf));
    }
    if (ir_name_is_number(name, len, &num) && num >= g->next_number) g->next_number = num + 1;
    if (!name_taken(g, name, len)) return ta_arena_strndup(g->arena, name, len);
    for (uint32_t k = 1;; k++) {
        size_t cut = len < 40 ? len : 40;
        snprintf(buf, sizeof buf, "%.*s.%u", (int)cut, name, k);
        if (!name_taken(g, buf, strlen(buf))) return ta_arena_strndup(g->arena, buf, strlen(buf));
    }
}

static ta_status bind_name(ta_ir_graph *g, ta_ir_value *v)
{
    ta_map_entry *e;
    ta_status st = ta_map_add(&g->names, v->name, strlen(v->name), ta_map_ptr(v), &e);
    if (st == TA_OK) e->value = ta_map_ptr(v);
    return st;
}

static void unbind_name(ta_ir_graph *g, const ta_ir_value *v)
{
    ta_map_entry *e = ta_map_find(&g->names, v->name, strlen(v->name));
    if (e && e->value.ptr == v) e->value = ta_map_ptr(NULL);
}

void ir_value_forget(ta_ir_graph *g, ta_ir_value *v) { unbind_name(g, v); }

static void forget_hashed(ta_ir_graph *g, const ta_ir_value *v, uint64_t h)
{
    ta_map_entry *e = ta_map_find_h(&g->names, v->name, strlen(v->name), h);
    if (e && e->value.ptr == v) e->value = ta_map_ptr(NULL);
}

void ir_forget_push(ta_ir_graph *g, ir_forget_queue *q, ta_ir_value *v)
{
    uint32_t at = (q->head + q->n) % IR_FORGET_AHEAD;
    if (q->n == IR_FORGET_AHEAD) { /* full: the oldest, prefetched long ago, goes first */
        forget_hashed(g, q->v[q->head], q->hash[q->head]);
        q->head = (q->head + 1) % IR_FORGET_AHEAD;
        q->n--;
    }
    q->v[at] = v;
    q->hash[at] = ta_map_hash(&g->names, v->name, strlen(v->name));
    ta_map_prefetch(&g->names, q->hash[at]);
    q->n++;
}

void ir_forget_flush(ta_ir_graph *g, ir_forget_queue *q)
{
    for (; q->n; q->n--, q->head = (q->head + 1) % IR_FORGET_AHEAD) forget_hashed(g, q->v[q->head], q->hash[q->head]);
}

enum { VALUE_BLOCK = 1024 };

static ta_ir_value *value_alloc(ta_ir_graph *g)
{
    if (g->vnext == g->vend) {
        ta_ir_value *block = ta_arena_alloc(g->arena, VALUE_BLOCK * sizeof *block);
        if (!block) return NULL;
        g->vnext = block;
        g->vend = block + VALUE_BLOCK;
    }
    return g->vnext++;
}

/* A value with name (arena-owned, free) as output of def. */
static ta_ir_value *value_with(ta_ir_graph *g, ta_ir_node *def, const char *name, const ta_ir_type *type)
{
    ta_ir_value *v = value_alloc(g);
    if (!v) return NULL;
    v->name = name;
    v->id = g->nvalues++;
    v->node = def;
    v->type = type ? type : ir_type_simple(&g->types, TA_IR_TENSOR);
    if (!v->type || ir_grow(g->arena, (void **)&def->outputs, &def->cap_outputs, def->noutputs + 1,
                            sizeof *def->outputs))
        return NULL;
    v->offset = def->noutputs;
    def->outputs[def->noutputs++] = v;
    return v;
}

/* The decimal digits of x into buf (room for 20); returns their count. */
static size_t decimal(char *buf, uint64_t x)
{
    char tmp[20];
    size_t n = 0;
    do tmp[n++] = (char)('0' + x % 10);
    while (x /= 10);
    for (size_t i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
    return n;
}

/* A value named by the next free number: passes make many, so the name is
 * looked up once, and that entry bound (free_name + bind_name look twice). */
static ta_ir_value *numbered_value(ta_ir_graph *g, ta_ir_node *def, const ta_ir_type *type)
{
    char buf[24];
    for (;;) {
        size_t n = decimal(buf, g->next_number++);
        uint64_t h = ta_map_hash(&g->names, buf, n);
        ta_map_entry *e = ta_map_find_h(&g->names, buf, n, h);
        if (e && e->value.ptr) continue;
        const char *copy = ta_arena_strndup(g->arena, buf, n);
        ta_ir_value *v = copy ? value_with(g, def, copy, type) : NULL;
        if (!v) return NULL;
        if (e) e->value = ta_map_ptr(v); /* a name freed by a removal */
        else if (ta_map_add_h(&g->names, copy, n, h, ta_map_ptr(v), NULL) != TA_OK) return NULL;
        return v;
    }
}

ta_ir_value *ir_value_new(ta_ir_graph *g, ta_ir_node *def, const char *name, size_t name_len,
                          const ta_ir_type *type)
{
    if (!name || !name_len) return numbered_value(g, def, type);
    const char *free = free_name(g, name, name_len);
    ta_ir_value *v = free ? value_with(g, def, free, type) : NULL;
    if (!v || bind_name(g, v) != TA_OK) return NULL;
    return v;
}

ta_ir_value *ir_value_define(ta_ir_graph *g, ta_ir_node *def, const char *name, size_t name_len,
                             uint64_t h, const ta_ir_type *type, bool *taken)
{
    uint64_t num;
    *taken = false;
    /* one probe of the map: the name goes in unbound (a freed name's state)
     * and is bound below, or is there already */
    ta_map_entry *e;
    const char *copy = ta_arena_strndup(g->arena, name, name_len);
    if (!copy || ta_map_add_h(&g->names, copy, name_len, h, ta_map_ptr(NULL), &e) != TA_OK) return NULL;
    if ((*taken = e->value.ptr != NULL)) return NULL;
    ta_ir_value *v = value_with(g, def, copy, type);
    if (!v) return NULL;
    if (ir_name_is_number(name, name_len, &num) && num >= g->next_number) g->next_number = num + 1;
    e->value = ta_map_ptr(v);
    return v;
}

ta_status ta_ir_value_set_name(ta_ir_value *v, const char *name)
{
    ta_ir_graph *g = v->node->graph;
    if (!name) return TA_ERR_INVALID;
    if (*name == '%') name++;
    if (!strcmp(name, v->name)) return TA_OK;
    unbind_name(g, v);
    const char *n = free_name(g, name, strlen(name));
    if (!n) return TA_ERR_NOMEM;
    v->name = n;
    return bind_name(g, v);
}

ta_ir_value *ta_ir_graph_find_value(const ta_ir_graph *g, const char *name)
{
    if (!name) return NULL;
    if (*name == '%') name++;
    ta_map_entry *e = ta_map_find_str(&g->names, name);
    return e ? e->value.ptr : NULL;
}

/* ---- uses ------------------------------------------------------------------- */

ta_status ir_value_add_use(ta_ir_graph *g, ta_ir_value *v, ta_ir_node *user, uint32_t index)
{
    if (ir_grow(g->arena, (void **)&v->uses, &v->cap_uses, v->nuses + 1, sizeof *v->uses))
        return TA_ERR_NOMEM;
    v->uses[v->nuses].user = user;
    v->uses[v->nuses].index = index;
    v->uses[v->nuses].user_id = user->id;
    v->nuses++;
    return TA_OK;
}

void ir_value_drop_use(ta_ir_value *v, ta_ir_node *user, uint32_t index)
{
    /* from the end: a pass that rewrites in order drops recent uses */
    for (uint32_t i = v->nuses; i-- > 0;)
        if (v->uses[i].user == user && v->uses[i].index == index) {
            memmove(&v->uses[i], &v->uses[i + 1], (v->nuses - i - 1) * sizeof *v->uses);
            v->nuses--;
            return;
        }
}

void ir_value_drop_uses_by(ta_ir_value *v, const uint8_t *gone)
{
    uint32_t m = 0;
    for (uint32_t u = 0; u < v->nuses; u++)
        if (!gone[v->uses[u].user_id]) v->uses[m++] = v->uses[u];
    v->nuses = m;
}

/* ---- graph inputs and outputs --------------------------------------------------- */

ta_ir_block *ta_ir_graph_block(const ta_ir_graph *g) { return g->top; }

ta_status ta_ir_graph_add_input(ta_ir_graph *g, const char *name, const ta_ir_type *type,
                                ta_ir_value **out)
{
    return ta_ir_block_add_param(g->top, name, type, out);
}

ta_status ta_ir_graph_add_output(ta_ir_graph *g, ta_ir_value *v)
{
    return ta_ir_block_add_output(g->top, v);
}

uint32_t ta_ir_graph_ninputs(const ta_ir_graph *g) { return g->top->param->noutputs; }
ta_ir_value *ta_ir_graph_input(const ta_ir_graph *g, uint32_t i) { return ta_ir_block_param(g->top, i); }
uint32_t ta_ir_graph_noutputs(const ta_ir_graph *g) { return g->top->ret->ninputs; }
ta_ir_value *ta_ir_graph_output(const ta_ir_graph *g, uint32_t i) { return ta_ir_block_output(g->top, i); }
uint32_t ta_ir_graph_value_capacity(const ta_ir_graph *g) { return g->nvalues; }
uint32_t ta_ir_graph_node_capacity(const ta_ir_graph *g) { return g->nnodes; }

/* ---- blocks ----------------------------------------------------------------- */

ta_ir_node *ta_ir_block_first(const ta_ir_block *b)
{
    return b->param->next == b->ret ? NULL : b->param->next;
}

ta_ir_node *ta_ir_block_last(const ta_ir_block *b)
{
    return b->ret->prev == b->param ? NULL : b->ret->prev;
}

ta_ir_node *ta_ir_block_owner(const ta_ir_block *b) { return b->owner; }
uint32_t ta_ir_block_nparams(const ta_ir_block *b) { return b->param->noutputs; }

ta_ir_value *ta_ir_block_param(const ta_ir_block *b, uint32_t i)
{
    return i < b->param->noutputs ? b->param->outputs[i] : NULL;
}

uint32_t ta_ir_block_noutputs(const ta_ir_block *b) { return b->ret->ninputs; }

ta_ir_value *ta_ir_block_output(const ta_ir_block *b, uint32_t i)
{
    return i < b->ret->ninputs ? b->ret->inputs[i] : NULL;
}

ta_status ta_ir_block_add_param(ta_ir_block *b, const char *name, const ta_ir_type *type,
                                ta_ir_value **out)
{
    if (name && *name == '%') name++;
    *out = ir_value_new(b->graph, b->param, name, name ? strlen(name) : 0, type);
    return *out ? TA_OK : TA_ERR_NOMEM;
}

ta_status ta_ir_block_add_output(ta_ir_block *b, ta_ir_value *v)
{
    return ta_ir_node_add_input(b->ret, v);
}

ta_status ta_ir_block_set_output(ta_ir_block *b, uint32_t i, ta_ir_value *v)
{
    return ta_ir_node_set_input(b->ret, i, v);
}

/* ---- values ----------------------------------------------------------------- */

const char *ta_ir_value_name(const ta_ir_value *v) { return v->name; }
uint32_t ta_ir_value_id(const ta_ir_value *v) { return v->id; }
const ta_ir_type *ta_ir_value_type(const ta_ir_value *v) { return v->type; }

void ta_ir_value_set_type(ta_ir_value *v, const ta_ir_type *t)
{
    if (t) v->type = t;
}

ta_ir_node *ta_ir_value_node(const ta_ir_value *v)
{
    return v->node->kind->kind == IR_K_PARAM ? NULL : v->node;
}

ta_ir_block *ta_ir_value_param_block(const ta_ir_value *v)
{
    return v->node->kind->kind == IR_K_PARAM ? v->node->block : NULL;
}

uint32_t ta_ir_value_nuses(const ta_ir_value *v) { return v->nuses; }

ta_ir_node *ta_ir_value_use_node(const ta_ir_value *v, uint32_t i)
{
    if (i >= v->nuses) return NULL;
    ta_ir_node *u = v->uses[i].user;
    return u->kind->kind == IR_K_RETURN ? NULL : u;
}

ta_ir_block *ta_ir_value_use_block(const ta_ir_value *v, uint32_t i)
{
    if (i >= v->nuses) return NULL;
    ta_ir_node *u = v->uses[i].user;
    return u->kind->kind == IR_K_RETURN ? u->block : NULL;
}

uint32_t ta_ir_value_use_index(const ta_ir_value *v, uint32_t i)
{
    return i < v->nuses ? v->uses[i].index : 0;
}
