/* match.c - whether a node's inputs fit an operator's arguments, as
 * TorchScript's Node::matches decides it (torch 1.13.1, ir.cpp and
 * jit_type.cpp): bind the schema's type variables to the actual types
 * (matchTypeVariables), substitute them where all are bound, then ask
 * whether each actual type is a subtype of its formal (Type::isSubtypeOf).
 *
 * Subtyping as TorchScript has it: everything is a subtype of Any; int,
 * float and complex of Scalar; None and T of T?; a union's members each of
 * the other side; a tensor with details of Tensor; tuples and futures
 * covariantly; lists and dicts only when equal (or any list of
 * AnyListType); classes of AnyClassType. */
#include <string.h>

#include "alias/ir/ir_internal.h"

enum { MAX_VARS = 16 };

typedef struct var_env {
    const char *names[MAX_VARS];
    const ta_ir_type *types[MAX_VARS];
    uint32_t n;
} var_env;

bool ir_type_equal(const ta_ir_type *a, const ta_ir_type *b)
{
    if (a == b) return true;
    if (a->kind != b->kind || a->nelems != b->nelems || a->detailed != b->detailed) return false;
    if ((a->name || b->name) && (!a->name || !b->name || strcmp(a->name, b->name))) return false;
    for (uint32_t i = 0; i < a->nelems; i++)
        if (!ir_type_equal(a->elems[i], b->elems[i])) return false;
    return true;
}

static bool is_union_like(const ta_ir_type *t)
{
    return t->kind == TA_IR_OPTIONAL || t->kind == TA_IR_UNION;
}

/* The members of an optional (T and None) or a union. */
static uint32_t members(const ta_ir_type *t, const ta_ir_type **none, const ta_ir_type ***out)
{
    if (t->kind == TA_IR_OPTIONAL) {
        *none = NULL; /* stands for NoneType */
        *out = (const ta_ir_type **)t->elems;
        return 1;
    }
    *out = (const ta_ir_type **)t->elems;
    return t->nelems;
}

bool ir_type_subtype(const ta_ir_type *a, const ta_ir_type *f)
{
    if (f->kind == TA_IR_ANY || ir_type_equal(a, f)) return true;
    if (is_union_like(a)) {
        /* every member of a must fit f; an optional's None needs a None in f */
        const ta_ir_type *none, **ms;
        uint32_t n = members(a, &none, &ms);
        if (a->kind == TA_IR_OPTIONAL && !(is_union_like(f)))
            return false;
        if (a->kind == TA_IR_OPTIONAL && f->kind == TA_IR_UNION) {
            bool has_none = false;
            for (uint32_t i = 0; i < f->nelems; i++) has_none |= f->elems[i]->kind == TA_IR_NONE;
            if (!has_none) return false;
        }
        for (uint32_t i = 0; i < n; i++)
            if (!ir_type_subtype(ms[i], f)) return false;
        return true;
    }
    if (f->kind == TA_IR_OPTIONAL) return a->kind == TA_IR_NONE || ir_type_subtype(a, f->elems[0]);
    if (f->kind == TA_IR_UNION) {
        for (uint32_t i = 0; i < f->nelems; i++)
            if (ir_type_subtype(a, f->elems[i])) return true;
        return false;
    }
    switch ((ta_ir_type_kind)a->kind) {
    case TA_IR_INT:
    case TA_IR_FLOAT:
    case TA_IR_COMPLEX: return f->kind == TA_IR_NUMBER;
    case TA_IR_TENSOR: return f->kind == TA_IR_TENSOR && !f->detailed;
    case TA_IR_LIST: return f->kind == TA_IR_ANY_LIST;
    case TA_IR_CLASS: return f->kind == TA_IR_ANY_CLASS;
    case TA_IR_TUPLE:
        if (f->kind == TA_IR_ANY_TUPLE) return true;
        if (f->kind != TA_IR_TUPLE || f->nelems != a->nelems) return false;
        for (uint32_t i = 0; i < a->nelems; i++)
            if (!ir_type_subtype(a->elems[i], f->elems[i])) return false;
        return true;
    case TA_IR_FUTURE:
    case TA_IR_AWAIT:
        return f->kind == a->kind && ir_type_subtype(a->elems[0], f->elems[0]);
    default: return false;
    }
}

static bool has_vars(const ta_ir_type *t)
{
    if (t->kind == TA_IR_VAR) return true;
    for (uint32_t i = 0; i < t->nelems; i++)
        if (has_vars(t->elems[i])) return true;
    return false;
}

/* unifyTypes, as far as binding a variable twice needs it: either type a
 * subtype of the other, or one of them None. */
static bool unifiable(const ta_ir_type *a, const ta_ir_type *b)
{
    return ir_type_subtype(a, b) || ir_type_subtype(b, a) || a->kind == TA_IR_NONE ||
           b->kind == TA_IR_NONE;
}

static bool bind_vars(const ta_ir_type *f, const ta_ir_type *a, var_env *env)
{
    if (!has_vars(f)) return true;
    switch ((ta_ir_type_kind)f->kind) {
    case TA_IR_VAR:
        for (uint32_t i = 0; i < env->n; i++)
            if (!strcmp(env->names[i], f->name)) return unifiable(env->types[i], a);
        if (env->n == MAX_VARS) return false;
        env->names[env->n] = f->name;
        env->types[env->n++] = a;
        return true;
    case TA_IR_LIST:
        return a->kind == TA_IR_LIST && bind_vars(f->elems[0], a->elems[0], env);
    case TA_IR_TUPLE:
        if (a->kind != TA_IR_TUPLE || a->nelems != f->nelems) return false;
        for (uint32_t i = 0; i < f->nelems; i++)
            if (!bind_vars(f->elems[i], a->elems[i], env)) return false;
        return true;
    case TA_IR_FUTURE:
    case TA_IR_AWAIT:
    case TA_IR_RREF:
        return a->kind == f->kind && bind_vars(f->elems[0], a->elems[0], env);
    case TA_IR_OPTIONAL:
        if (a->kind == TA_IR_OPTIONAL) return bind_vars(f->elems[0], a->elems[0], env);
        if (a->kind == TA_IR_NONE) return true;
        return bind_vars(f->elems[0], a, env);
    case TA_IR_DICT:
        return a->kind == TA_IR_DICT && bind_vars(f->elems[0], a->elems[0], env) &&
               bind_vars(f->elems[1], a->elems[1], env);
    default: return false;
    }
}

/* Whether f with its variables substituted from env is a supertype of a.
 * A variable left unbound makes torch keep the formal as it is, and only
 * None-against-optional can then pass. */
static bool fits(const ta_ir_type *a, const ta_ir_type *f, const var_env *env);

static bool all_bound(const ta_ir_type *f, const var_env *env)
{
    if (f->kind == TA_IR_VAR) {
        for (uint32_t i = 0; i < env->n; i++)
            if (!strcmp(env->names[i], f->name)) return true;
        return false;
    }
    for (uint32_t i = 0; i < f->nelems; i++)
        if (!all_bound(f->elems[i], env)) return false;
    return true;
}

static const ta_ir_type *lookup_var(const ta_ir_type *f, const var_env *env)
{
    for (uint32_t i = 0; i < env->n; i++)
        if (!strcmp(env->names[i], f->name)) return env->types[i];
    return NULL;
}

/* Equality with a formal whose variables stand for their bindings (lists
 * and dicts are invariant). */
static bool equal_bound(const ta_ir_type *a, const ta_ir_type *f, const var_env *env)
{
    if (f->kind == TA_IR_VAR) {
        const ta_ir_type *b = lookup_var(f, env);
        return b && ir_type_equal(a, b);
    }
    if (!has_vars(f)) return ir_type_equal(a, f);
    if (a->kind != f->kind || a->nelems != f->nelems) return false;
    for (uint32_t i = 0; i < f->nelems; i++)
        if (!equal_bound(a->elems[i], f->elems[i], env)) return false;
    return true;
}

/* Subtyping against a formal whose variables stand for their bindings. */
static bool fits(const ta_ir_type *a, const ta_ir_type *f, const var_env *env)
{
    if (f->kind == TA_IR_VAR) {
        const ta_ir_type *b = lookup_var(f, env);
        return b ? ir_type_subtype(a, b) : a->kind == TA_IR_VAR && !strcmp(a->name, f->name);
    }
    if (!has_vars(f)) return ir_type_subtype(a, f);
    switch ((ta_ir_type_kind)f->kind) {
    case TA_IR_OPTIONAL:
        if (a->kind == TA_IR_NONE) return true;
        if (a->kind == TA_IR_OPTIONAL) return fits(a->elems[0], f->elems[0], env);
        return fits(a, f->elems[0], env);
    case TA_IR_LIST:
    case TA_IR_DICT:
        return equal_bound(a, f, env); /* invariant */
    case TA_IR_TUPLE:
        if (a->kind != TA_IR_TUPLE || a->nelems != f->nelems) return false;
        for (uint32_t i = 0; i < f->nelems; i++)
            if (!fits(a->elems[i], f->elems[i], env)) return false;
        return true;
    case TA_IR_FUTURE:
    case TA_IR_AWAIT:
    case TA_IR_RREF:
        return a->kind == f->kind && fits(a->elems[0], f->elems[0], env);
    default: return false;
    }
}

bool ir_op_matches(const ta_ir_op *op, const ta_ir_node *n)
{
    if (op->nformals > n->ninputs) return false;
    if (!op->vararg && op->nformals != n->ninputs) return false;
    var_env env = {.n = 0};
    for (uint32_t i = 0; i < op->nformals; i++) {
        const ta_ir_type *f = op->formals[i], *a = n->inputs[i]->type;
        if (!bind_vars(f, a, &env)) return false;
        bool ok = all_bound(f, &env) ? fits(a, f, &env)
                                     : (a->kind == TA_IR_NONE && (f->kind == TA_IR_OPTIONAL || f->kind == TA_IR_ANY));
        if (!ok) return false;
    }
    return true;
}
