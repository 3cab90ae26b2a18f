/* autogen_ops.c - the operators `autogen:` derives, made runnable: their
 * schemas registered (without kernels) before the kernel libraries load, so
 * a library may implement them by name, then, after the libraries, a
 * composed kernel (derived.c) for each that has none, following the run
 * plan torchgen's model gives (tensoralias/torchgen.h).
 *
 * A derived operator lives in the namespace of the entry it derives from
 * (its schema carries it), and so does its callee. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "exec/registry/registry_internal.h"

struct ta_autogen_ops {
    ta_torchgen *tg;
    const char **schemas; /* per derived function: "ns::func" (registry arena), or NULL */
    size_t first, n;      /* derived functions are tg's [first, first + n) */
};

static void autogen_ops_free(void *p)
{
    ta_autogen_ops *v = p;
    ta_torchgen_destroy(v->tg);
    free(v->schemas);
    free(v);
}

/* The namespace a function is registered under. */
static ta_str ns_of(const ta_tg_function *fn)
{
    ta_str aten = {"aten", 4};
    return fn->schema->ns.len ? fn->schema->ns : aten;
}

/* "ns::name.overload" of a function, into buf. */
static void full_name(const ta_tg_function *fn, char *buf, size_t cap)
{
    ta_str ns = ns_of(fn);
    snprintf(buf, cap, "%.*s::%s", (int)ns.len, ns.ptr, fn->name);
}

/* The derived functions of f, before any is registered. */
static ta_status derive(const ta_native_file *f, ta_autogen_ops **out)
{
    *out = NULL;
    ta_diags *ignored; /* derivation problems are check's business */
    ta_torchgen *tg = NULL;
    ta_status st = ta_diags_create(&ignored);
    if (st == TA_OK) st = ta_torchgen_from_native(f, &tg, ignored);
    ta_diags_destroy(ignored);
    if (st != TA_OK || !tg) {
        ta_torchgen_destroy(tg);
        return st != TA_OK ? st : TA_ERR_NOMEM;
    }
    ta_autogen_ops *v = ta_calloc(1, sizeof *v);
    size_t nd = ta_torchgen_count_derived(tg);
    if (!v || !(v->schemas = ta_calloc(nd ? nd : 1, sizeof *v->schemas))) {
        free(v);
        ta_torchgen_destroy(tg);
        return TA_ERR_NOMEM;
    }
    v->tg = tg;
    v->first = ta_torchgen_count(tg) - nd;
    v->n = nd;
    *out = v;
    return TA_OK;
}

/* Registers derived function i's schema; one the rules refuse is left out. */
static ta_status register_schema(ta_registry *reg, ta_autogen_ops *v, size_t i)
{
    const ta_tg_function *fn = ta_torchgen_get(v->tg, v->first + i);
    if (!fn || !fn->generated || !fn->plan || !fn->func) return TA_OK;
    ta_str ns = ns_of(fn);
    size_t len = ns.len + 2 + strlen(fn->func) + 1;
    char *s = ta_arena_alloc(registry_arena(reg), len);
    if (!s) return TA_ERR_NOMEM;
    snprintf(s, len, "%.*s::%s", (int)ns.len, ns.ptr, fn->func);
    /* Schema only: a library may bring a kernel of its own for it. */
    ta_status st = ta_register_op(reg, s, TA_KEY_CATCHALL, NULL, NULL);
    if (st == TA_OK) v->schemas[i] = s;
    return st == TA_ERR_NOMEM ? st : TA_OK;
}

ta_status ta_registry_add_autogen_schemas(ta_registry *reg, const ta_native_file *f)
{
    ta_registry_ext *x = registry_ext(reg);
    if (!f || x->autogen) return TA_ERR_INVALID;
    ta_autogen_ops *v;
    ta_status st = derive(f, &v);
    if (st != TA_OK) return st;
    if ((st = registry_adopt(reg, v, autogen_ops_free)) != TA_OK) return st;
    x->autogen = v;
    /* What the registration rules say of them is check's business too. */
    ta_diags *rd = registry_diags(reg);
    size_t keep = ta_diags_count(rd);
    st = ta_registry_set_origin(reg, "autogen");
    for (size_t i = 0; i < v->n && st == TA_OK; i++) st = register_schema(reg, v, i);
    ta_diags_truncate(rd, keep);
    return st;
}

static bool has_kernel(const ta_registry *reg, const char *name)
{
    const ta_registry_op *op = ta_registry_find(reg, name);
    return op && ta_registry_has_kernel(op);
}

/* Derived operator i's name and its callee's. */
typedef struct derived_names {
    char own[512], callee[512];
} derived_names;

/* The callee of derived operator i (NULL when there is none), and both names. */
static const ta_tg_function *callee_of(const ta_autogen_ops *v, size_t i, derived_names *n)
{
    const ta_tg_function *fn = ta_torchgen_get(v->tg, v->first + i);
    const ta_tg_function *callee = ta_torchgen_get(v->tg, fn->plan->callee);
    ta_op_name_of(v->schemas[i], n->own, sizeof n->own);
    if (callee) full_name(callee, n->callee, sizeof n->callee);
    return callee;
}

/* TA_COMPOSE_ALL: every base keeps its kernel; every derived operator
 * whose callee has one (or is derived itself, and so will) loses its own
 * to get the composed one. */
static ta_status drop_own_kernels(ta_registry *reg, const ta_autogen_ops *v)
{
    for (size_t i = 0; i < v->n; i++) {
        derived_names n;
        const ta_tg_function *callee = v->schemas[i] ? callee_of(v, i, &n) : NULL;
        if (!callee) continue;
        bool callee_derived = callee->index >= v->first && v->schemas[callee->index - v->first];
        if ((has_kernel(reg, n.callee) || callee_derived) && ta_registry_remove_kernels(reg, n.own) != TA_OK)
            return TA_ERR_INVALID;
    }
    return TA_OK;
}

/* One pass over the derived operators: each without a kernel whose callee
 * has one gets the composed kernel. *added counts them. */
static ta_status compose_pass(ta_registry *reg, const ta_autogen_ops *v, size_t *added)
{
    for (size_t i = 0; i < v->n; i++) {
        derived_names n;
        const ta_tg_function *callee = v->schemas[i] ? callee_of(v, i, &n) : NULL;
        if (!callee || has_kernel(reg, n.own) || !has_kernel(reg, n.callee)) continue;
        const ta_tg_function *fn = ta_torchgen_get(v->tg, v->first + i);
        ta_status st = ta_registry_add_derived(reg, v->schemas[i], fn->plan, n.callee);
        if (st == TA_ERR_NOMEM) return st;
        if (st == TA_OK && has_kernel(reg, n.own)) (*added)++;
    }
    return TA_OK;
}

ta_status ta_registry_add_autogen_kernels(ta_registry *reg, ta_compose_mode mode, size_t *added)
{
    size_t count = 0;
    if (added) *added = 0;
    const ta_autogen_ops *v = registry_ext(reg)->autogen;
    if (!v) return TA_OK;
    ta_diags *rd = registry_diags(reg);
    size_t keep = ta_diags_count(rd);
    ta_status st = mode == TA_COMPOSE_ALL ? drop_own_kernels(reg, v) : TA_OK;
    /* An out= variant may call a derived functional one: repeat until stable. */
    for (size_t before = SIZE_MAX; st == TA_OK && before != count;) {
        before = count;
        st = compose_pass(reg, v, &count);
    }
    ta_diags_truncate(rd, keep);
    if (added) *added = count;
    return st;
}
