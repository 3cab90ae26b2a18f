/* aliasdb_query.c - the questions a pass asks, answered from the sets the
 * build computed (no query changes the analysis). */
#include <stdlib.h>
#include <string.h>

#include "alias/aliasdb/aliasdb_internal.h"

uint32_t adb_elem_of(const ta_aliasdb *db, const ta_ir_value *v)
{
    return v && v->id < db->g->nvalues ? db->elem_of[v->id] : ADB_NONE;
}

bool ta_aliasdb_may_alias(const ta_aliasdb *db, const ta_ir_value *v, const ta_ir_value *w)
{
    const adb_set *a = &db->vlocs[v->id], *b = &db->vlocs[w->id];
    if (a->n == 1 && b->n == 1) return a->one == b->one; /* the common case */
    return adb_sets_intersect(a, b);
}

/* The contained locations of the values' elements, sorted. */
static void closure_of(const ta_aliasdb *db, const ta_ir_value *const *vs, size_t n, adb_closure *c)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t e = adb_elem_of(db, vs[i]);
        if (e != ADB_NONE) adb_closure_add(db, c, e);
    }
    adb_closure_sort(c);
}

bool ta_aliasdb_may_contain_alias_any(const ta_aliasdb *db, const ta_ir_value *const *a, size_t na,
                                      const ta_ir_value *const *b, size_t nb)
{
    adb_closure ca, cb;
    adb_closure_init(&ca);
    adb_closure_init(&cb);
    closure_of(db, a, na, &ca);
    closure_of(db, b, nb, &cb);
    bool yes = false;
    for (uint32_t i = 0, j = 0; i < ca.n && j < cb.n && !yes;) {
        if (ca.v[i] == cb.v[j]) yes = true;
        else if (ca.v[i] < cb.v[j]) i++;
        else j++;
    }
    /* out of memory: say they may (the answer that never misleads) */
    if (ca.failed || cb.failed) yes = true;
    adb_closure_free(&ca);
    adb_closure_free(&cb);
    return yes;
}

bool ta_aliasdb_may_contain_alias(const ta_aliasdb *db, const ta_ir_value *v, const ta_ir_value *w)
{
    uint32_t a = adb_elem_of(db, v), b = adb_elem_of(db, w);
    if (a == ADB_NONE || b == ADB_NONE) return false;
    if (a == b || adb_sets_intersect(&db->elems[a].locs, &db->elems[b].locs)) return true;
    return ta_aliasdb_may_contain_alias_any(db, &v, 1, &w, 1);
}

static bool any_written(const ta_aliasdb *db, const adb_set *s)
{
    const uint32_t *d = adb_set_data(s);
    for (uint32_t i = 0; i < s->n; i++)
        if (db->written[d[i] / 64] >> (d[i] % 64) & 1) return true;
    return false;
}

bool ta_aliasdb_has_writers(const ta_aliasdb *db, const ta_ir_value *v)
{
    /* None is never written; asked last, as it reads the defining node */
    return any_written(db, &db->vlocs[v->id]) && !adb_must_be_none(v);
}

static size_t writers_in(const ta_aliasdb *db, const ta_ir_block *b, const adb_set *locs,
                         const ta_ir_node **out, size_t cap, size_t k)
{
    for (const ta_ir_node *n = b->param->next; n != b->ret; n = n->next) {
        if (adb_sets_intersect(&db->writes[n->id], locs)) {
            if (k < cap) out[k] = n;
            k++;
        }
        for (uint32_t i = 0; i < n->nblocks; i++) k = writers_in(db, n->blocks[i], locs, out, cap, k);
    }
    return k;
}

size_t ta_aliasdb_writers(const ta_aliasdb *db, const ta_ir_value *v, const ta_ir_node **out, size_t cap)
{
    uint32_t e = adb_elem_of(db, v);
    if (e == ADB_NONE || adb_must_be_none(v)) return 0;
    return writers_in(db, db->g->top, &db->elems[e].locs, out, cap, 0);
}

static bool writes_meet(const ta_aliasdb *db, const ta_ir_node *n, const adb_set *s)
{
    if (adb_sets_intersect(&db->writes[n->id], s)) return true;
    for (uint32_t b = 0; b < n->nblocks; b++)
        for (const ta_ir_node *m = n->blocks[b]->param->next; m != n->blocks[b]->ret; m = m->next)
            if (writes_meet(db, m, s)) return true;
    return false;
}

bool ta_aliasdb_writes_to_alias(const ta_aliasdb *db, const ta_ir_node *n, const ta_ir_value *const *values,
                                size_t nvalues)
{
    for (size_t i = 0; i < nvalues; i++) {
        uint32_t e = adb_elem_of(db, values[i]);
        if (e != ADB_NONE && writes_meet(db, n, &db->elems[e].locs)) return true;
    }
    return false;
}

const uint32_t *ta_aliasdb_node_written(const ta_aliasdb *db, const ta_ir_node *n, size_t *count)
{
    *count = db->writes[n->id].n;
    return adb_set_data(&db->writes[n->id]);
}

bool ta_aliasdb_node_writes(const ta_aliasdb *db, const ta_ir_node *n)
{
    if (db->writes[n->id].n) return true;
    for (uint32_t b = 0; b < n->nblocks; b++)
        for (const ta_ir_node *m = n->blocks[b]->param->next; m != n->blocks[b]->ret; m = m->next)
            if (ta_aliasdb_node_writes(db, m)) return true;
    return false;
}

bool ta_aliasdb_may_alias_wildcard(const ta_aliasdb *db, const ta_ir_value *v)
{
    uint32_t e = adb_elem_of(db, v);
    if (e == ADB_NONE) return false;
    uint32_t w = adb_wildcard_of(db, v->type);
    return w != ADB_NONE && adb_sets_intersect(&db->elems[e].locs, &db->elems[w].locs);
}

bool ta_aliasdb_is_wildcard(const ta_aliasdb *db, const ta_ir_value *v)
{
    return v && v->id < db->g->nvalues && db->wild_value[v->id];
}

/* Node::hasSideEffects: the fixed list of kinds, and operators AliasDb
 * treats conservatively. A node of another namespace than prim without an
 * operator is one torch would refuse; it counts as having side effects. */
bool adb_side_effects(const ta_aliasdb *db, const ta_ir_node *n)
{
    if (n->kind->side_effects) return true;
    const ta_ir_op *op = db->op_of[n->id];
    if (op) return op->kind == TA_IR_CONSERVATIVE;
    if (db->how[n->id] == TA_ALIASDB_NO_SCHEMA) return strncmp(n->kind->name, "prim::", 6) != 0;
    return false;
}

bool ta_aliasdb_has_side_effects(const ta_aliasdb *db, const ta_ir_node *n) { return adb_side_effects(db, n); }

ta_aliasdb_how ta_aliasdb_node_how(const ta_aliasdb *db, const ta_ir_node *n)
{
    return (ta_aliasdb_how)db->how[n->id];
}

const ta_ir_op *ta_aliasdb_node_op(const ta_aliasdb *db, const ta_ir_node *n) { return db->op_of[n->id]; }

const uint32_t *ta_aliasdb_locations(const ta_aliasdb *db, const ta_ir_value *v, size_t *n)
{
    uint32_t e = adb_elem_of(db, v);
    *n = e == ADB_NONE ? 0 : db->elems[e].locs.n;
    return e == ADB_NONE ? NULL : adb_set_data(&db->elems[e].locs);
}

size_t ta_aliasdb_contained_locations(const ta_aliasdb *db, const ta_ir_value *v, uint32_t *out, size_t cap)
{
    adb_closure c;
    adb_closure_init(&c);
    closure_of(db, &v, 1, &c);
    size_t n = c.failed ? 0 : c.n;
    if (n && cap) memcpy(out, c.v, (n < cap ? n : cap) * sizeof *out);
    adb_closure_free(&c);
    return n;
}

const ta_ir_value *ta_aliasdb_location_value(const ta_aliasdb *db, uint32_t loc)
{
    return loc < db->nelems ? db->elems[loc].value : NULL;
}

const ta_ir_type *ta_aliasdb_location_wildcard(const ta_aliasdb *db, uint32_t loc)
{
    return loc < db->nelems && !db->elems[loc].value ? db->elems[loc].type : NULL;
}

uint32_t ta_aliasdb_location_count(const ta_aliasdb *db) { return db->nelems; }
