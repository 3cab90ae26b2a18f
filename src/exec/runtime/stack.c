/* stack.c - the boxed argument stack kernels read their arguments from and
 * leave their returns on.
 *
 * Scalars and tensor pointers are copied by value. The contents of lists and
 * strings are copied into the stack's own arena, because a kernel may clear
 * the stack and push back a list it read from it: clearing therefore keeps
 * the copies, and only ta_stack_reset (between calls) frees them. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/grow.h"
#include "tensoralias/exec.h"
#include "tensoralias/kernel.h"
#include "tensoralias/schema.h"

/* The ABI: values added since ABI 2 fit the union of the first ones. */
_Static_assert(sizeof(ta_value) == 8 + 2 * sizeof(void *), "ta_value changed size: a kernel ABI break");

struct ta_stack {
    ta_value *v;
    size_t n, cap;
    ta_arena *arena; /* copies of list items and strings */
};

ta_status ta_stack_create(ta_stack **out)
{
    *out = ta_calloc(1, sizeof(ta_stack));
    return *out ? TA_OK : TA_ERR_NOMEM;
}

void ta_stack_destroy(ta_stack *st)
{
    if (!st) return;
    ta_arena_destroy(st->arena);
    free(st->v);
    free(st);
}

void ta_stack_reset(ta_stack *st)
{
    st->n = 0;
    ta_arena_destroy(st->arena);
    st->arena = NULL;
}

size_t ta_stack_size(const ta_stack *st) { return st ? st->n : 0; }

ta_value *ta_stack_at(ta_stack *st, size_t i) { return st && i < st->n ? &st->v[i] : NULL; }

DLTensor *ta_stack_tensor(ta_stack *st, size_t i)
{
    ta_value *v = ta_stack_at(st, i);
    return v && v->tag == TA_VAL_TENSOR ? v->u.tensor : NULL;
}

int64_t ta_stack_int(ta_stack *st, size_t i, int64_t dflt)
{
    ta_value *v = ta_stack_at(st, i);
    if (!v) return dflt;
    switch (v->tag) {
    case TA_VAL_INT: return v->u.i;
    case TA_VAL_BOOL: return v->u.b;
    case TA_VAL_SCALAR:
        if (v->scalar_kind == TA_SCALAR_INT) return v->u.i;
        if (v->scalar_kind == TA_SCALAR_BOOL) return v->u.b;
        return dflt;
    default: return dflt;
    }
}

double ta_stack_double(ta_stack *st, size_t i, double dflt)
{
    ta_value *v = ta_stack_at(st, i);
    if (!v) return dflt;
    switch (v->tag) {
    case TA_VAL_FLOAT: return v->u.f;
    case TA_VAL_INT: return (double)v->u.i;
    case TA_VAL_BOOL: return v->u.b;
    case TA_VAL_SCALAR:
        if (v->scalar_kind == TA_SCALAR_FLOAT) return v->u.f;
        if (v->scalar_kind == TA_SCALAR_INT) return (double)v->u.i;
        return v->u.b;
    default: return dflt;
    }
}

bool ta_stack_is_none(ta_stack *st, size_t i)
{
    ta_value *v = ta_stack_at(st, i);
    return v && v->tag == TA_VAL_NONE;
}

void ta_stack_clear(ta_stack *st)
{
    if (st) st->n = 0;
}

static void *copy_items(ta_stack *st, const void *items, size_t bytes)
{
    if (!st->arena && ta_arena_create(&st->arena) != TA_OK) return NULL;
    void *p = ta_arena_alloc(st->arena, bytes ? bytes : 1);
    if (p && bytes) memcpy(p, items, bytes);
    return p;
}

/* A Dimname[]'s names: the array and each name copied. */
static const char *const *copy_names(ta_stack *st, const char *const *names, size_t n)
{
    const char **out = copy_items(st, names, n * sizeof *names);
    for (size_t i = 0; out && i < n; i++) {
        const char *s = names[i] ? names[i] : "";
        if (!(out[i] = copy_items(st, s, strlen(s) + 1))) return NULL;
    }
    return out;
}

ta_status ta_stack_push(ta_stack *st, ta_value v)
{
    if (!st) return TA_ERR_INVALID;
    if (TA_GROW_ONE(st->v, st->n, st->cap, 16) != TA_OK) return TA_ERR_NOMEM;
    switch (v.tag) {
    case TA_VAL_TENSOR_LIST:
        if (!(v.u.tensors.items = copy_items(st, v.u.tensors.items, v.u.tensors.n * sizeof(DLTensor *))))
            return TA_ERR_NOMEM;
        break;
    case TA_VAL_INT_LIST:
        if (!(v.u.ints.items = copy_items(st, v.u.ints.items, v.u.ints.n * sizeof(int64_t))))
            return TA_ERR_NOMEM;
        break;
    case TA_VAL_FLOAT_LIST:
        if (!(v.u.floats.items = copy_items(st, v.u.floats.items, v.u.floats.n * sizeof(double))))
            return TA_ERR_NOMEM;
        break;
    case TA_VAL_BOOL_LIST:
        if (!(v.u.bools.items = copy_items(st, v.u.bools.items, v.u.bools.n * sizeof(bool))))
            return TA_ERR_NOMEM;
        break;
    case TA_VAL_SCALAR_LIST:
        if (!(v.u.scalars.items = copy_items(st, v.u.scalars.items, v.u.scalars.n * sizeof(ta_scalar))))
            return TA_ERR_NOMEM;
        break;
    case TA_VAL_DIMNAME_LIST:
        if (!(v.u.names.items = copy_names(st, v.u.names.items, v.u.names.n))) return TA_ERR_NOMEM;
        break;
    case TA_VAL_STRING:
    case TA_VAL_DIMNAME:
        if (!(v.u.s = copy_items(st, v.u.s ? v.u.s : "", strlen(v.u.s ? v.u.s : "") + 1)))
            return TA_ERR_NOMEM;
        break;
    default: break;
    }
    st->v[st->n++] = v;
    return TA_OK;
}

ta_status ta_stack_set(ta_stack *st, size_t i, ta_value v)
{
    if (!st || i >= st->n) return TA_ERR_INVALID;
    /* Pushed (so its lists are copied into the arena), then moved down. */
    ta_status s = ta_stack_push(st, v);
    if (s != TA_OK) return s;
    st->v[i] = st->v[--st->n];
    return TA_OK;
}

ta_status ta_stack_push_tensor(ta_stack *st, DLTensor *t)
{
    ta_value v = {.tag = t ? TA_VAL_TENSOR : TA_VAL_NONE};
    v.u.tensor = t;
    return ta_stack_push(st, v);
}
