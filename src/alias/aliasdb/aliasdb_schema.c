/* aliasdb_schema.c - nodes analysed from their schema's alias annotations
 * (the FROM_SCHEMA part of AliasDb::analyzeImpl), and operator resolution
 * with a cache: nodes of one kind with the same input types resolve alike,
 * and a graph has few such combinations.
 *
 * The walk binds each annotated argument's alias set to the value passed
 * (the first argument of a set wins), records writes ("!") and wildcards
 * ("-> *"), then makes each annotated return point to the values bound to
 * its sets: a return in a set no argument has is fresh, one without an
 * annotation is fresh, one annotated "*" is a wildcard. For a list whose
 * elements are annotated (Tensor(a)[]) torch uses the element's annotation
 * for the list value itself. */
#include <string.h>

#include "alias/aliasdb/aliasdb_internal.h"

enum { MAX_KEY_INPUTS = 64, MAX_BOUND = 32 };

/* A direct-mapped cache in front of the map: most nodes repeat a recent
 * (kind, input types) combination, and comparing a few pointers is cheaper
 * than hashing them. */
static uint32_t recent_slot(const ta_ir_node *n)
{
    uintptr_t h = (uintptr_t)n->kind >> 4;
    for (uint32_t i = 0; i < n->ninputs; i++) h = h * 31 + ((uintptr_t)n->inputs[i]->type >> 4);
    return (uint32_t)(h ^ h >> 13) & (ADB_RECENT - 1);
}

static bool recent_hit(const adb_recent *r, const ta_ir_node *n)
{
    if (r->kind != n->kind || r->ninputs != n->ninputs) return false;
    for (uint32_t i = 0; i < n->ninputs; i++)
        if (r->types[i] != n->inputs[i]->type) return false;
    return true;
}

static const ta_ir_op *resolve_cached(ta_aliasdb *db, const ta_ir_node *n);

const ta_ir_op *adb_resolve(ta_aliasdb *db, const ta_ir_node *n)
{
    if (n->ninputs > ADB_RECENT_INPUTS) return resolve_cached(db, n);
    adb_recent *r = &db->recent[recent_slot(n)];
    if (recent_hit(r, n)) return r->op;
    const ta_ir_op *op = resolve_cached(db, n);
    r->kind = n->kind;
    r->ninputs = n->ninputs;
    for (uint32_t i = 0; i < n->ninputs; i++) r->types[i] = n->inputs[i]->type;
    r->op = op;
    return op;
}

static const ta_ir_op *resolve_cached(ta_aliasdb *db, const ta_ir_node *n)
{
    if (n->ninputs > MAX_KEY_INPUTS) return ta_ir_ops_resolve(db->ops, n);
    const void *key[MAX_KEY_INPUTS + 1];
    key[0] = n->kind;
    for (uint32_t i = 0; i < n->ninputs; i++) key[i + 1] = n->inputs[i]->type;
    size_t len = (n->ninputs + 1) * sizeof key[0];
    ta_map_entry *e = ta_map_find(&db->op_cache, key, len);
    if (e) return e->value.ptr;
    const ta_ir_op *op = ta_ir_ops_resolve(db->ops, n);
    void *copy = ta_arena_alloc(db->arena, len);
    if (!copy || ta_map_add(&db->op_cache, memcpy(copy, key, len), len, ta_map_ptr((void *)op), NULL))
        adb_nomem(db);
    return op;
}

const ta_ir_value *adb_named_input(ta_aliasdb *db, const ta_ir_node *n, const char *name)
{
    const ta_ir_op *op = adb_resolve(db, n);
    if (!op) return NULL;
    const ta_schema *s = op->schema;
    for (uint32_t i = 0; i < s->nargs && i < n->ninputs; i++)
        if (ta_str_eq(s->args[i].name, name)) return n->inputs[i];
    return NULL;
}

typedef struct bindings {
    uint8_t set[MAX_BOUND];
    const ta_ir_value *value[MAX_BOUND];
    uint32_t n;
} bindings;

static const ta_ir_value *bound(const bindings *b, uint8_t set)
{
    for (uint32_t i = 0; i < b->n; i++)
        if (b->set[i] == set) return b->value[i];
    return NULL;
}

static void bind_arguments(ta_aliasdb *db, const ta_ir_node *n, const ta_ir_op *op, bindings *b)
{
    uint32_t nargs = op->schema->nargs;
    for (uint32_t i = 0; i < nargs && i < n->ninputs; i++) {
        const ir_alias_slot *formal = &op->args[i];
        const ta_ir_value *actual = n->inputs[i];
        if (!formal->present || !adb_value_mutable(db, actual)) continue;
        /* torch asserts an argument is never "*" before the call */
        if (!formal->nsets || formal->wild_before || bound(b, formal->sets[0])) continue;
        if (b->n < MAX_BOUND) {
            b->set[b->n] = formal->sets[0];
            b->value[b->n++] = actual;
        }
        if (formal->write) adb_register_write(db, actual, n, false);
        /* "-> *" makes it a wildcard; any other change of sets torch asserts
         * against, and a wildcard is the safe reading */
        if (formal->wild_after || !formal->same) adb_set_wildcard(db, actual);
    }
}

static void bind_return(ta_aliasdb *db, const ta_ir_node *n, const ir_alias_slot *formal,
                        const ta_ir_value *actual, const bindings *b)
{
    if (!formal->present) {
        adb_give_fresh(db, actual, true);
        return;
    }
    if (!adb_value_mutable(db, actual)) return;
    if (formal->wild_before) {
        adb_set_wildcard(db, actual);
        return;
    }
    bool aliased = false;
    for (uint32_t k = 0; k < formal->nsets; k++) {
        const ta_ir_value *to = bound(b, formal->sets[k]);
        if (!to) continue;
        aliased = true;
        adb_make_pointer(db, actual, to);
    }
    if (!aliased && formal->nsets) adb_give_fresh(db, actual, true);
    if (formal->write) adb_register_write(db, actual, n, false);
}

void adb_analyze_schema(ta_aliasdb *db, const ta_ir_node *n, const ta_ir_op *op)
{
    bindings b;
    b.n = 0; /* the arrays fill as sets bind: no clearing per node */
    bind_arguments(db, n, op, &b);
    uint32_t nrets = op->schema->nrets;
    for (uint32_t i = 0; i < nrets && i < n->noutputs; i++) bind_return(db, n, &op->rets[i], n->outputs[i], &b);
}
