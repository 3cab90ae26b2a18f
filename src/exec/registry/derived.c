/* derived.c - kernels for operators that autogen derives, composed from an
 * existing kernel by torchgen's run plan (ta_autogen_plan, torchgen.h): a
 * functional variant clones what its inplace or mutable base writes and
 * calls the base; an out= variant calls the functional one and copies its
 * returns into the out arguments. The derived kernel is an ordinary kernel
 * to the verifier, so a wrong plan or a base that misbehaves shows up as a
 * verdict. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "exec/runtime/exec_internal.h"
#include "exec/registry/registry_internal.h"
#include "tensoralias/schema.h"

typedef struct derived {
    ta_autogen_plan p; /* arrays point into the same allocation's tail */
    ta_registry *reg;
    char callee[256];
    char *callee_schema; /* for defaults; parsed on first use */
    ta_arena *arena;
    ta_schema *cs;
} derived;

static size_t add_size(size_t n, size_t elem) { return (n * elem + 15) & ~(size_t)15; }

static derived *derived_new(ta_registry *reg, const ta_autogen_plan *p, const char *callee)
{
    size_t sz = sizeof(derived) + add_size(p->ncallee_args, sizeof(int32_t)) +
                add_size(p->nclone, sizeof(uint32_t)) + add_size(p->nrets, sizeof(ta_ag_src)) +
                2 * add_size(p->nouts, sizeof(uint32_t)) + 2 * add_size(p->nwritten, sizeof(uint32_t));
    derived *d = ta_calloc(1, sz);
    if (!d) return NULL;
    char *tail = (char *)(d + 1);
#define TAKE(field, n, type) \
    do { \
        if (n) memcpy(tail, p->field, (n) * sizeof(type)); \
        d->p.field = (const type *)(void *)tail; \
        tail += add_size(n, sizeof(type)); \
    } while (0)
    d->p = *p;
    TAKE(arg_from, p->ncallee_args, int32_t);
    TAKE(clone, p->nclone, uint32_t);
    TAKE(ret_src, p->nrets, ta_ag_src);
    TAKE(out_args, p->nouts, uint32_t);
    TAKE(out_from, p->nouts, uint32_t);
    TAKE(written_args, p->nwritten, uint32_t);
    TAKE(writeback, p->nwritten, uint32_t);
#undef TAKE
    snprintf(d->callee, sizeof d->callee, "%s", callee);
    d->reg = reg;
    return d;
}

static void derived_free(void *ud)
{
    derived *d = ud;
    if (!d) return;
    ta_arena_destroy(d->arena);
    free(d);
}

/* ---- element copies ---------------------------------------------------- */

static double load(const DLTensor *t, int64_t i)
{
    const void *p = ta_elem_ptr(t, i);
    DLDataType dt = t->dtype;
    if (dt.code == kDLFloat) return dt.bits == 32 ? *(const float *)p : *(const double *)p;
    if (dt.code == TA_DL_BOOL || (dt.code == kDLUInt && dt.bits == 8)) return *(const uint8_t *)p;
    switch (dt.bits) {
    case 64: return (double)*(const int64_t *)p;
    case 32: return *(const int32_t *)p;
    case 16: return *(const int16_t *)p;
    default: return *(const int8_t *)p;
    }
}

static void store(const DLTensor *t, int64_t i, double v)
{
    void *p = ta_elem_ptr(t, i);
    DLDataType dt = t->dtype;
    if (dt.code == kDLFloat) {
        if (dt.bits == 32) *(float *)p = (float)v;
        else *(double *)p = v;
    } else if (dt.code == TA_DL_BOOL) {
        *(uint8_t *)p = v != 0;
    } else if (dt.code == kDLUInt && dt.bits == 8) {
        *(uint8_t *)p = (uint8_t)v;
    } else if (dt.bits == 64) {
        *(int64_t *)p = (int64_t)v;
    } else if (dt.bits == 32) {
        *(int32_t *)p = (int32_t)v;
    } else if (dt.bits == 16) {
        *(int16_t *)p = (int16_t)v;
    } else {
        *(int8_t *)p = (int8_t)v;
    }
}

/* dst <- src elementwise (same element count), converting dtypes; bytes
 * exactly when the dtypes agree (NaN payloads and -0.0 survive). */
static void copy_elems(const DLTensor *dst, const DLTensor *src)
{
    int64_t n = ta_numel(src);
    if (ta_dtype_eq(dst->dtype, src->dtype)) {
        size_t es = ta_dtype_size(src->dtype);
        for (int64_t i = 0; i < n; i++) memcpy(ta_elem_ptr(dst, i), ta_elem_ptr(src, i), es);
        return;
    }
    for (int64_t i = 0; i < n; i++) store(dst, i, load(src, i));
}

static DLTensor *clone_tensor(ta_kernel_ctx *ctx, const DLTensor *t)
{
    DLTensor *c;
    if (ta_kernel_empty(ctx, t->dtype, t->ndim, t->shape, &c) == TA_OK) copy_elems(c, t);
    return c;
}

/* ---- defaults of the callee's arguments -------------------------------- */

static ta_status push_default(derived *d, ta_stack *sub, uint32_t j)
{
    ta_value v = {.tag = TA_VAL_NONE};
    if (!d->cs) {
        const ta_registry_op *op = ta_registry_find(d->reg, d->callee);
        if (!op || !op->schema || ta_arena_create(&d->arena) != TA_OK ||
            ta_schema_parse(d->arena, op->schema, strlen(op->schema), NULL, &d->cs, NULL) != TA_OK)
            return TA_ERR_INVALID;
    }
    if (j >= d->cs->nargs) return TA_ERR_INVALID;
    const ta_default *df = &d->cs->args[j].def;
    int64_t items[16];
    switch (df->kind) {
    case TA_DEFAULT_INT:
        v.tag = TA_VAL_INT;
        v.u.i = 0;
        ta_str_to_int(df->text, &v.u.i);
        break;
    case TA_DEFAULT_FLOAT:
        v.tag = TA_VAL_FLOAT;
        v.u.f = 0;
        ta_str_to_double(df->text, &v.u.f);
        break;
    case TA_DEFAULT_BOOL:
        v.tag = TA_VAL_BOOL;
        v.u.b = ta_str_eq(df->text, "True");
        break;
    case TA_DEFAULT_LIST:
        v.tag = TA_VAL_INT_LIST;
        v.u.ints.items = items;
        v.u.ints.n = ta_str_to_int_list(df->text, items, sizeof items / sizeof *items);
        break;
    case TA_DEFAULT_IDENT:
        v.tag = TA_VAL_INT; /* contiguous_format, Mean, long...: see the codes in kernel.h */
        v.u.i = ta_str_eq(df->text, "Mean") ? 1 : ta_str_eq(df->text, "Sum") ? 2
              : ta_str_eq(df->text, "long") ? TA_ST_LONG : 0;
        break;
    case TA_DEFAULT_STRING: {
        char buf[64];
        size_t n = df->text.len >= 2 ? df->text.len - 2 : 0;
        if (n > sizeof buf - 1) n = sizeof buf - 1;
        memcpy(buf, df->text.ptr + (df->text.len >= 2), n);
        buf[n] = '\0';
        v.tag = TA_VAL_STRING;
        v.u.s = buf;
        return ta_stack_push(sub, v);
    }
    default: break;
    }
    return ta_stack_push(sub, v);
}

/* ---- the kernel -------------------------------------------------------- */

static bool listed(const uint32_t *a, uint32_t n, uint32_t v)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i] == v) return true;
    return false;
}

/* One call of a derived kernel: its own arguments, the callee's stack,
 * and the values passed for each callee argument (the clones, for a
 * functional variant). */
typedef struct call {
    derived *d;
    ta_kernel_ctx *ctx;
    ta_value own[64];
    size_t nown;
    ta_stack *sub;
    ta_value passed[64];
} call;

/* v, or a fresh clone of it (tensors and tensor lists) for a callee
 * argument the callee writes. */
static ta_status clone_value(ta_kernel_ctx *ctx, ta_value *v)
{
    if (v->tag == TA_VAL_TENSOR && v->u.tensor)
        return (v->u.tensor = clone_tensor(ctx, v->u.tensor)) ? TA_OK : TA_ERR_NOMEM;
    if (v->tag != TA_VAL_TENSOR_LIST) return TA_OK;
    DLTensor **items;
    if (ta_kernel_tensor_array(ctx, v->u.tensors.n, &items) != TA_OK) return TA_ERR_NOMEM;
    for (size_t k = 0; k < v->u.tensors.n; k++)
        items[k] = v->u.tensors.items[k] ? clone_tensor(ctx, v->u.tensors.items[k]) : NULL;
    v->u.tensors.items = items;
    return TA_OK;
}

/* The callee's arguments, per the plan: an own argument (cloned where the
 * callee writes it), or the callee's default. */
static ta_status build_callee_args(call *c)
{
    const ta_autogen_plan *p = &c->d->p;
    ta_status s = TA_OK;
    for (uint32_t j = 0; j < p->ncallee_args && s == TA_OK; j++) {
        int32_t from = p->arg_from[j];
        if (from < 0 || (size_t)from >= c->nown) {
            s = push_default(c->d, c->sub, j);
            continue;
        }
        ta_value v = c->own[from];
        if (p->kind != TA_KIND_OUT && listed(p->clone, p->nclone, j)) s = clone_value(c->ctx, &v);
        if (j < 64) c->passed[j] = v;
        if (s == TA_OK) s = ta_stack_push(c->sub, v);
    }
    return s;
}

/* out=: each out argument (and each positional argument the base writes)
 * is resized to, and filled from, the callee return the plan names. */
static ta_status copy_into_outs(call *c)
{
    const ta_autogen_plan *p = &c->d->p;
    for (uint32_t k = 0; k < p->nouts + p->nwritten; k++) {
        bool is_out = k < p->nouts;
        uint32_t ai = is_out ? p->out_args[k] : p->written_args[k - p->nouts];
        uint32_t ri = is_out ? p->out_from[k] : p->writeback[k - p->nouts];
        DLTensor *dst = ai < c->nown && c->own[ai].tag == TA_VAL_TENSOR ? c->own[ai].u.tensor : NULL;
        DLTensor *src = ta_stack_tensor(c->sub, ri);
        if (!dst || !src)
            return ta_kernel_error(c->ctx, "derived out=: argument %u or callee return %u is not a tensor",
                                   ai, ri);
        if (ta_kernel_resize(c->ctx, dst, src->ndim, src->shape) != TA_OK)
            return ta_kernel_error(c->ctx, "derived out=: cannot resize argument %u", ai);
        copy_elems(dst, src);
    }
    return TA_OK;
}

/* Replaces the own arguments on st with the derived operator's returns, each
 * from where the plan says. */
static ta_status push_returns(call *c, ta_stack *st)
{
    const ta_autogen_plan *p = &c->d->p;
    ta_value rets[64];
    uint32_t nr = p->nrets < 64 ? p->nrets : 64;
    for (uint32_t i = 0; i < nr; i++) {
        ta_ag_src src = p->ret_src[i];
        if (src.kind == TA_AG_CALLEE_RETURN && src.index < ta_stack_size(c->sub))
            rets[i] = *ta_stack_at(c->sub, src.index);
        else if (src.kind == TA_AG_CLONED_ARG && src.index < p->ncallee_args && src.index < 64)
            rets[i] = c->passed[src.index];
        else if (src.kind == TA_AG_OWN_ARG && src.index < c->nown)
            rets[i] = c->own[src.index];
        else
            return ta_kernel_error(c->ctx, "derived operator: return %u has no source", i);
    }
    ta_stack_clear(st);
    ta_status s = TA_OK;
    for (uint32_t i = 0; i < nr && s == TA_OK; i++) s = ta_stack_push(st, rets[i]);
    return s;
}

/* Calls the callee's kernel for this device on the callee's stack, with
 * the callee's own user data. */
static ta_status call_callee(call *c, ta_kernel_fn fn, void *callee_ud)
{
    void *saved = c->ctx->user_data;
    c->ctx->user_data = callee_ud;
    ta_status s = fn(c->ctx, c->sub);
    c->ctx->user_data = saved;
    return s;
}

/* The kernel of every derived operator: builds the callee's arguments,
 * calls it, copies into the out= arguments, and returns per the plan. */
static ta_status derived_kernel(ta_kernel_ctx *ctx, ta_stack *st)
{
    call c = {.d = ctx->user_data, .ctx = ctx};
    const ta_registry_op *op = ta_registry_find(c.d->reg, c.d->callee);
    void *cud = NULL;
    ta_kernel_fn fn = op ? ta_registry_kernel_for(op, ctx->x->dev->type, &cud) : NULL;
    if (!fn) return ta_kernel_error(ctx, "derived operator: no kernel for %s", c.d->callee);
    c.nown = ta_stack_size(st);
    if (c.nown > 64) return ta_kernel_error(ctx, "derived operator: too many arguments");
    for (size_t i = 0; i < c.nown; i++) c.own[i] = *ta_stack_at(st, i);
    if (ta_stack_create(&c.sub) != TA_OK) return ta_kernel_error(ctx, "out of memory");
    ta_status s = build_callee_args(&c);
    if (s != TA_OK)
        s = ta_kernel_error(ctx, "derived operator: cannot build the call of %s", c.d->callee);
    else if ((s = call_callee(&c, fn, cud)) == TA_OK &&
             (c.d->p.kind != TA_KIND_OUT || (s = copy_into_outs(&c)) == TA_OK))
        s = push_returns(&c, st);
    ta_stack_destroy(c.sub);
    return s;
}

ta_status ta_registry_add_derived(ta_registry *reg, const char *schema, const ta_autogen_plan *plan,
                                  const char *callee)
{
    char name[512];
    ta_op_name_of(schema, name, sizeof name);
    const ta_registry_op *op = ta_registry_find(reg, name);
    if (op && ta_registry_has_kernel(op)) return TA_OK;
    derived *d = derived_new(reg, plan, callee);
    if (!d) return TA_ERR_NOMEM;
    ta_status s = ta_register_op(reg, schema, TA_KEY_CATCHALL, derived_kernel, d);
    if (s != TA_OK) {
        derived_free(d);
        return s;
    }
    return registry_adopt(reg, d, derived_free);
}

bool ta_registry_is_derived(const ta_registry_op *op)
{
    return op && op->kernels[TA_KEY_CATCHALL] == derived_kernel;
}
