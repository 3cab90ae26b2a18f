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

#include "alias/ir/aliasdb_internal.h"

enum { MAX_KEY_INPUTS = 64, MAX_BOUND = 32 };

const ta_ir_op *adb_resolve(ta_aliasdb *db, const ta_ir_node *n)
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

/* The alias info torch keeps for a type, with a list's element annotation
 * standing in when the list itself has none. NULL when there is none. */
static const ta_alias *formal_alias(const ta_type *t)
{
    ta_alias_view av;
    ta_type_alias_view(t, &av);
    if (!av.present) return NULL;
    return av.set ? av.set : av.elem;
}

static bool has_set(const ta_str *sets, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (ta_str_eq(sets[i], name)) return true;
    return false;
}

static bool same_sets(const ta_alias *a)
{
    if (a->nbefore != a->nafter) return false;
    for (uint32_t i = 0; i < a->nbefore; i++)
        if (!ta_str_eq_str(a->before[i], a->after[i])) return false;
    return true;
}

typedef struct bindings {
    ta_str set[MAX_BOUND];
    const ta_ir_value *value[MAX_BOUND];
    uint32_t n;
} bindings;

static const ta_ir_value *bound(const bindings *b, ta_str set)
{
    for (uint32_t i = 0; i < b->n; i++)
        if (ta_str_eq_str(b->set[i], set)) return b->value[i];
    return NULL;
}

static void bind_arguments(ta_aliasdb *db, const ta_ir_node *n, const ta_schema *s, bindings *b)
{
    for (uint32_t i = 0; i < s->nargs && i < n->ninputs; i++) {
        const ta_alias *formal = formal_alias(s->args[i].type);
        const ta_ir_value *actual = n->inputs[i];
        if (!formal || !adb_value_mutable(db, actual)) continue;
        if (!formal->nbefore || has_set(formal->before, formal->nbefore, "*")) continue;
        if (bound(b, formal->before[0])) continue;
        if (b->n < MAX_BOUND) {
            b->set[b->n] = formal->before[0];
            b->value[b->n++] = actual;
        }
        if (formal->write) adb_register_write(db, actual, n, false);
        if (has_set(formal->after, formal->nafter, "*")) adb_set_wildcard(db, actual);
        else if (!same_sets(formal)) adb_set_wildcard(db, actual); /* torch asserts; be safe */
    }
}

static void bind_return(ta_aliasdb *db, const ta_ir_node *n, const ta_ret *r, const ta_ir_value *actual,
                        const bindings *b)
{
    const ta_alias *formal = formal_alias(r->type);
    if (!formal) {
        adb_give_fresh(db, actual, true);
        return;
    }
    if (!adb_value_mutable(db, actual)) return;
    if (has_set(formal->before, formal->nbefore, "*")) {
        adb_set_wildcard(db, actual);
        return;
    }
    bool aliased = false;
    for (uint32_t k = 0; k < formal->nbefore; k++) {
        const ta_ir_value *to = bound(b, formal->before[k]);
        if (!to) continue;
        aliased = true;
        adb_make_pointer(db, actual, to);
    }
    if (!aliased && formal->nbefore) adb_give_fresh(db, actual, true);
    if (formal->write) adb_register_write(db, actual, n, false);
}

void adb_analyze_schema(ta_aliasdb *db, const ta_ir_node *n, const ta_ir_op *op)
{
    const ta_schema *s = op->schema;
    bindings b = {.n = 0};
    bind_arguments(db, n, s, &b);
    for (uint32_t i = 0; i < s->nrets && i < n->noutputs; i++) bind_return(db, n, &s->rets[i], n->outputs[i], &b);
}
