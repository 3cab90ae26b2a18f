/* torch_type.c - the types torch 1.13.1 makes of a schema's types, and its
 * subtyping (Type::isSubtypeOfExt), for the compatibility verdicts.
 *
 * torch's parser maps several spellings to one type: SymInt, ScalarType,
 * Layout, MemoryFormat and ConstQuantizerPtr are int, Dimname is str,
 * Scalar is Number, any lower-case name it does not know is a type
 * variable; newer PyTorch adds DeviceIndex (int), SymFloat (float) and
 * SymBool (bool), read the same way here. Unions (Optional[T] is
 * Union[T, None]) are sets: Number stands for {int, float, complex}
 * inside them, so Optional[Scalar] is Union[int, float, complex, None].
 * torch then answers, as measured on 1.13.1 (tools/torch/diff_truth.py
 * checks every pair of a type matrix):
 *   - every type is a subtype of Any and of itself;
 *   - a union is a subtype of T when each of its members is; T is a subtype
 *     of a union when it is of one of its members (int <= Scalar, int <=
 *     int?, None <= int?, int? <= Scalar?);
 *   - Future and tuples are covariant, lists, Dict and RRef invariant
 *     (int[] is not a subtype of Scalar[], but of int[]?);
 *   - type variables are all equal to one another, whatever their names
 *     (t <= t1, number <= t);
 *   - equality is equality of these sets, member by member.
 * Nothing allocates: the sets are walked on the parsed types. */
#include <string.h>

#include "alias/diff/diff_internal.h"

typedef enum akind {
    A_TENSOR, A_INT, A_FLOAT, A_COMPLEX, A_BOOL, A_STR, A_NONE, A_ANY, A_VAR,
    A_LIST, A_DICT, A_FUTURE, A_RREF, A_TUPLE,
    A_NUMBER, /* expanded into int, float and complex, never an atom itself */
    A_UNION,  /* Optional and Union: expanded into their members */
    A_OTHER   /* Device, Generator, classes, ... : equal by name */
} akind;

/* An atom: a member of a type's set. node is NULL for the members of
 * Number (int, float, complex) and None of an Optional. */
typedef struct atom {
    akind kind;
    const ta_type *node;
} atom;

static bool named(const ta_type *t, const char *const *names)
{
    for (; *names; names++)
        if (ta_str_eq(t->name, *names)) return true;
    return false;
}

static akind name_kind(const ta_type *t)
{
    static const char *const ints[] = {"int", "SymInt", "ScalarType", "Layout", "MemoryFormat",
                                       "ConstQuantizerPtr", "DeviceIndex", NULL};
    static const char *const floats[] = {"float", "SymFloat", NULL};
    static const char *const bools[] = {"bool", "SymBool", NULL};
    static const char *const strs[] = {"str", "Dimname", NULL};
    static const char *const nones[] = {"None", "NoneType", NULL};
    if (ta_str_eq(t->name, "Tensor")) return A_TENSOR;
    if (named(t, ints)) return A_INT;
    if (named(t, floats)) return A_FLOAT;
    if (named(t, bools)) return A_BOOL;
    if (named(t, strs)) return A_STR;
    if (named(t, nones)) return A_NONE;
    if (ta_str_eq(t->name, "complex")) return A_COMPLEX;
    if (ta_str_eq(t->name, "Scalar")) return A_NUMBER;
    if (ta_str_eq(t->name, "Any")) return A_ANY;
    /* the parser's known names are capitalised; a lower-case one is a variable */
    if (t->name.len && t->name.ptr[0] >= 'a' && t->name.ptr[0] <= 'z') return A_VAR;
    return A_OTHER;
}

static akind kind_of(const ta_type *t)
{
    switch (t->kind) {
    case TA_TYPE_NAME: return name_kind(t);
    case TA_TYPE_OPTIONAL: return A_UNION;
    case TA_TYPE_LIST: return A_LIST;
    case TA_TYPE_TUPLE: return A_TUPLE;
    case TA_TYPE_APPLY:
        if (ta_str_eq(t->name, "Union")) return A_UNION;
        if (ta_str_eq(t->name, "Dict")) return A_DICT;
        if (ta_str_eq(t->name, "Future")) return A_FUTURE;
        if (ta_str_eq(t->name, "RRef")) return A_RREF;
        return A_OTHER;
    }
    return A_OTHER;
}

/* Calls fn on each atom of t until it returns true; whether one did. */
typedef bool (*atom_fn)(const atom *a, const void *ctx);

static bool any_atom(const ta_type *t, atom_fn fn, const void *ctx)
{
    akind k = kind_of(t);
    if (k == A_NUMBER) {
        static const akind nums[] = {A_INT, A_FLOAT, A_COMPLEX};
        for (int i = 0; i < 3; i++) {
            atom a = {nums[i], NULL};
            if (fn(&a, ctx)) return true;
        }
        return false;
    }
    if (k == A_UNION) {
        for (uint32_t i = 0; i < t->nelems; i++)
            if (any_atom(t->elems[i], fn, ctx)) return true;
        if (t->kind != TA_TYPE_OPTIONAL) return false;
        atom none = {A_NONE, NULL};
        return fn(&none, ctx);
    }
    atom a = {k, t};
    return fn(&a, ctx);
}

static bool type_eq(const ta_type *a, const ta_type *b);

static bool elems_eq(const ta_type *a, const ta_type *b)
{
    if (a->nelems != b->nelems) return false;
    for (uint32_t i = 0; i < a->nelems; i++)
        if (!type_eq(a->elems[i], b->elems[i])) return false;
    return true;
}

static bool atom_eq(const atom *x, const atom *y)
{
    if (x->kind != y->kind) return false;
    switch (x->kind) {
    case A_LIST:
    case A_DICT:
    case A_FUTURE:
    case A_RREF:
    case A_TUPLE: return elems_eq(x->node, y->node);
    case A_OTHER:
        return x->node->kind == y->node->kind && ta_str_eq_str(x->node->name, y->node->name) &&
               elems_eq(x->node, y->node);
    default: return true; /* the simple types, and variables (all equal) */
    }
}

/* x is a subtype of y, both atoms. */
static bool atom_sub(const atom *x, const atom *y)
{
    if (y->kind == A_ANY || atom_eq(x, y)) return true;
    if (x->kind != y->kind) return false;
    if (x->kind == A_FUTURE) return ta_torch_type_subtype(x->node->elems[0], y->node->elems[0]);
    if (x->kind != A_TUPLE || x->node->nelems != y->node->nelems) return false;
    for (uint32_t i = 0; i < x->node->nelems; i++)
        if (!ta_torch_type_subtype(x->node->elems[i], y->node->elems[i])) return false;
    return true;
}

typedef struct pair_ctx {
    const atom *x;
    const ta_type *other;
    bool (*rel)(const atom *, const atom *);
} pair_ctx;

static bool rel_with(const atom *y, const void *ctx)
{
    const pair_ctx *c = ctx;
    return c->rel(c->x, y);
}

/* x relates to no atom of c->other: stops the walk over the first type. */
static bool unmatched(const atom *x, const void *ctx)
{
    pair_ctx c = *(const pair_ctx *)ctx;
    c.x = x;
    return !any_atom(c.other, rel_with, &c);
}

/* Every atom of a relates (rel) to some atom of b. */
static bool each_in(const ta_type *a, const ta_type *b, bool (*rel)(const atom *, const atom *))
{
    pair_ctx c = {NULL, b, rel};
    return !any_atom(a, unmatched, &c);
}

static bool type_eq(const ta_type *a, const ta_type *b)
{
    return each_in(a, b, atom_eq) && each_in(b, a, atom_eq);
}

bool ta_torch_type_subtype(const ta_type *a, const ta_type *b)
{
    return each_in(a, b, atom_sub);
}

bool ta_torch_type_equal(const ta_type *a, const ta_type *b) { return type_eq(a, b); }

int32_t ta_torch_arg_n(const ta_type *t)
{
    /* torch reads "[N]" only right after an argument's type, before an optional '?' */
    if (t->kind == TA_TYPE_OPTIONAL) t = t->elems[0];
    return t->kind == TA_TYPE_LIST && t->fixed_size >= 0 ? t->fixed_size : -1;
}
