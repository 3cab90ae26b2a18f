/* aliasdb_build.c - building the analysis: the elements of the points-to
 * graph and its two kinds of edges (points-to, contains), the operations
 * AliasDb's walk is made of (give a value a fresh element, make one value
 * point to another, make a value a wildcard, register a write), and the walk
 * itself, node by node in program order, blocks included. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "alias/aliasdb/aliasdb_internal.h"

void adb_nomem(ta_aliasdb *db)
{
    if (db->status == TA_OK) db->status = TA_ERR_NOMEM;
}

/* ---- elements and edges ---------------------------------------------------- */

uint32_t adb_new_elem(ta_aliasdb *db, const ta_ir_value *v)
{
    if (ir_grow(db->arena, (void **)&db->elems, &db->cap_elems, db->nelems + 1, sizeof *db->elems) != TA_OK) {
        adb_nomem(db);
        return ADB_NONE;
    }
    uint32_t e = db->nelems++;
    memset(&db->elems[e], 0, sizeof db->elems[e]);
    db->elems[e].value = v;
    db->elems[e].type = v ? v->type : NULL;
    db->elems[e].pts = db->elems[e].cont = ADB_NONE;
    if (v) db->elem_of[v->id] = e;
    return e;
}

static void add_edge(ta_aliasdb *db, uint32_t *head, uint32_t to)
{
    if (db->nedges == db->cap_edges) {
        uint32_t cap = db->cap_edges;
        if (ir_grow(db->arena, (void **)&db->edge_to, &cap, db->nedges + 1, sizeof *db->edge_to) != TA_OK ||
            ir_grow(db->arena, (void **)&db->edge_next, &db->cap_edges, db->nedges + 1, sizeof *db->edge_next) != TA_OK) {
            adb_nomem(db);
            return;
        }
    }
    db->edge_to[db->nedges] = to;
    db->edge_next[db->nedges] = *head;
    *head = db->nedges++;
}

void adb_point(ta_aliasdb *db, uint32_t from, uint32_t to)
{
    if (from == ADB_NONE || to == ADB_NONE) return;
    add_edge(db, &db->elems[from].pts, to);
}

void adb_contain(ta_aliasdb *db, uint32_t container, uint32_t inner)
{
    if (container == ADB_NONE || inner == ADB_NONE || container == inner) return;
    add_edge(db, &db->elems[container].cont, inner);
}

/* ---- values ------------------------------------------------------------------ */

bool adb_value_mutable(ta_aliasdb *db, const ta_ir_value *v) { return adb_mutable(db, v->type); }

/* Value::mustBeNone: None by type, or made by a node that can only give None. */
bool adb_must_be_none(const ta_ir_value *v)
{
    const ta_ir_node *n = v->node;
    if (v->type->kind == TA_IR_NONE) return true;
    if (n->kind->kind == IR_K_AUTOGRAD_ZERO) return true;
    if (n->noutputs == 1 && n->outputs[0]->type->kind == TA_IR_NONE) return true;
    return n->kind->kind == IR_K_CONSTANT && n->nattrs == 0 && n->noutputs == 1 &&
           n->outputs[0]->type->kind == TA_IR_OPTIONAL;
}

/* AliasDb::nonAliasingValue: None, or prim::Uninitialized's output. */
static bool non_aliasing(const ta_ir_value *v)
{
    return adb_must_be_none(v) || v->node->kind->kind == IR_K_UNINITIALIZED;
}

void adb_give_fresh(ta_aliasdb *db, const ta_ir_value *v, bool contained_wildcards)
{
    const adb_type *ti = adb_type_info(db, v->type);
    if (!ti || !ti->nset || db->elem_of[v->id] != ADB_NONE) return;
    uint32_t e = adb_new_elem(db, v);
    if (e != ADB_NONE && contained_wildcards)
        adb_link_contained_wildcards(db, e, adb_type_info(db, v->type));
}

uint32_t adb_get_or_create(ta_aliasdb *db, const ta_ir_value *v)
{
    if (db->elem_of[v->id] == ADB_NONE) adb_give_fresh(db, v, true);
    return db->elem_of[v->id];
}

uint32_t adb_set_wildcard(ta_aliasdb *db, const ta_ir_value *v)
{
    uint32_t w = adb_wildcard_for(db, v->type);
    if (w == ADB_NONE) return ADB_NONE;
    adb_get_or_create(db, v);
    if (!db->wild_value[v->id]) {
        db->wild_value[v->id] = 1;
        if (ir_grow(db->arena, (void **)&db->wild_values, &db->cap_wild_values,
                    db->nwild_values + 1, sizeof *db->wild_values) != TA_OK) {
            adb_nomem(db);
            return w;
        }
        db->wild_values[db->nwild_values++] = v->id;
    }
    return w;
}

void adb_make_pointer(ta_aliasdb *db, const ta_ir_value *from, const ta_ir_value *to)
{
    if (non_aliasing(from) || non_aliasing(to)) {
        adb_give_fresh(db, from, true);
        adb_give_fresh(db, to, true);
        return;
    }
    bool fm = adb_value_mutable(db, from), tm = adb_value_mutable(db, to);
    if (fm != tm || !fm || from == to) return;
    uint32_t f = adb_get_or_create(db, from);
    uint32_t t = adb_get_or_create(db, to);
    adb_point(db, f, t);
}

void adb_add_contained(ta_aliasdb *db, const ta_ir_value *inner, const ta_ir_value *container)
{
    if (!adb_value_mutable(db, inner)) return;
    uint32_t i = adb_get_or_create(db, inner);
    uint32_t c = adb_get_or_create(db, container);
    adb_contain(db, c, i);
}

void adb_register_write(ta_aliasdb *db, const ta_ir_value *v, const ta_ir_node *n, bool contained)
{
    if (!adb_value_mutable(db, v)) return;
    if (ir_grow(db->arena, (void **)&db->reg, &db->cap_reg, db->nreg + 1, sizeof *db->reg) != TA_OK) {
        adb_nomem(db);
        return;
    }
    db->reg[db->nreg].node = n->id;
    db->reg[db->nreg].value = v->id;
    db->reg[db->nreg].contained = contained;
    db->nreg++;
}

/* ---- the walk ------------------------------------------------------------------- */

void adb_analyze_block(ta_aliasdb *db, const ta_ir_block *b)
{
    for (const ta_ir_node *n = b->param->next; n != b->ret; n = n->next) adb_analyze_node(db, n);
}

/* The tables by value and by node id, in the arena: its first chunk made
 * as large as they and the locations' sets will be (ta_arena_expect), so a
 * large graph's analysis takes a few huge pages, each one fault, rather than
 * a fault for every 4 KiB of a dozen malloc'd tables. */
static ta_status alloc_tables(ta_aliasdb *db)
{
    uint32_t nv = db->g->nvalues + 1, nn = db->g->nnodes + 1;
    /* about one element and one edge per value: sized once, seldom regrown */
    uint32_t cap = nv + 64;
    size_t per_value = sizeof *db->elem_of + sizeof *db->wild_value + sizeof *db->vlocs;
    size_t per_node = sizeof *db->op_of + sizeof *db->how + sizeof *db->writes;
    size_t per_elem = sizeof *db->elems + sizeof *db->edge_to + sizeof *db->edge_next + sizeof(adb_set);
    ta_arena_expect(db->arena, nv * per_value + nn * per_node + cap * per_elem);
    ta_arena *a = db->arena;
    db->elem_of = ta_arena_take(a, nv * sizeof *db->elem_of);
    db->wild_value = ta_arena_zalloc(a, nv);
    db->op_of = ta_arena_zalloc(a, nn * sizeof *db->op_of);
    db->how = ta_arena_zalloc(a, nn);
    db->writes = ta_arena_zalloc(a, nn * sizeof *db->writes);
    db->cap_elems = db->cap_edges = cap;
    db->elems = ta_arena_take(a, cap * sizeof *db->elems);
    db->edge_to = ta_arena_take(a, cap * sizeof *db->edge_to);
    db->edge_next = ta_arena_take(a, cap * sizeof *db->edge_next);
    if (!db->elem_of || !db->wild_value || !db->op_of || !db->how || !db->writes || !db->elems || !db->edge_to ||
        !db->edge_next)
        return TA_ERR_NOMEM;
    memset(db->elem_of, 0xff, nv * sizeof *db->elem_of);
    return TA_OK;
}

ta_status ta_aliasdb_create(const ta_ir_graph *g, const ta_ir_ops *ops, ta_aliasdb **out,
                            ta_diags *diags)
{
    *out = NULL;
    if (!g || !ops) return TA_ERR_INVALID;
    ta_aliasdb *db = ta_calloc(1, sizeof *db);
    if (!db) return TA_ERR_NOMEM;
    db->g = g;
    db->ops = ops;
    db->diags = diags;
    ta_map_init(&db->op_cache, NULL);
    if (ta_arena_create(&db->arena) != TA_OK || ir_types_init(&db->types, db->arena, &g->types) != TA_OK ||
        alloc_tables(db) != TA_OK) {
        ta_aliasdb_destroy(db);
        return TA_ERR_NOMEM;
    }
    /* AliasDb::analyze(graph): the inputs are wildcards, then the nodes */
    const ta_ir_node *params = g->top->param;
    for (uint32_t i = 0; i < params->noutputs; i++) adb_set_wildcard(db, params->outputs[i]);
    adb_analyze_block(db, g->top);
    ta_status st = db->status == TA_OK ? adb_finish(db) : db->status;
    if (st != TA_OK) {
        ta_aliasdb_destroy(db);
        return st;
    }
    *out = db;
    return TA_OK;
}

void ta_aliasdb_destroy(ta_aliasdb *db)
{
    if (!db) return;
    free(db->tinfo);
    ta_map_clear(&db->op_cache);
    ir_types_clear(&db->types);
    ta_arena_destroy(db->arena);
    free(db);
}
