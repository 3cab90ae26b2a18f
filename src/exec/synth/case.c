/* case.c - a case as a record: the arguments pushed for the kernel, the
 * tensors handed in (slots, with their geometry before the call), and the
 * one-line description of its arguments that messages and replays quote.
 * synth.c and samples_build.c fill a case through these; the type is in
 * synth.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "exec/synth/synth.h"

ta_status ta_case_push(ta_case *c, ta_exec *x, ta_value v)
{
    if (c->nargs >= TA_CASE_MAX_ARGS) return TA_ERR_UNSUPPORTED;
    ta_status s = ta_stack_push(x->stack, v);
    if (s != TA_OK) return s;
    c->args[c->nargs++] = *ta_stack_at(x->stack, ta_stack_size(x->stack) - 1);
    return TA_OK;
}

ta_status ta_case_add_slot(ta_case *c, ta_exec *x, int arg, int item, DLTensor *t, bool fill)
{
    if (c->nslots >= TA_CASE_MAX_SLOTS || t->ndim > TA_CASE_MAX_DIM) return TA_ERR_UNSUPPORTED;
    ta_case_slot *sl = &c->slots[c->nslots++];
    sl->arg = arg;
    sl->item = item;
    sl->t = t;
    sl->storage = ta_exec_storage_of(x, t);
    sl->fill = fill;
    sl->before = *t;
    if (t->ndim) memcpy(sl->shape, t->shape, (size_t)t->ndim * sizeof *sl->shape);
    ta_strides_of(t, sl->strides);
    sl->before.shape = sl->shape;
    sl->before.strides = sl->strides;
    return TA_OK;
}

static size_t put(char *buf, size_t cap, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static size_t put(char *buf, size_t cap, size_t n, const char *fmt, ...)
{
    if (n >= cap) return n;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
    return k < 0 ? n : n + (size_t)k;
}

static size_t describe_tensor(const DLTensor *t, char *buf, size_t cap, size_t n)
{
    int64_t st[64];
    if (t->ndim > 64) return put(buf, cap, n, "?");
    ta_strides_of(t, st);
    n = put(buf, cap, n, "%s[", ta_dtype_name(t->dtype));
    for (int d = 0; d < t->ndim; d++) n = put(buf, cap, n, "%s%lld", d ? "," : "", (long long)t->shape[d]);
    bool contig = ta_is_contiguous(t);
    n = put(buf, cap, n, "]");
    if (!contig) {
        n = put(buf, cap, n, " strides [");
        for (int d = 0; d < t->ndim; d++) n = put(buf, cap, n, "%s%lld", d ? "," : "", (long long)st[d]);
        n = put(buf, cap, n, "]");
    }
    if (t->byte_offset) n = put(buf, cap, n, " offset %llu", (unsigned long long)(t->byte_offset / ta_dtype_size(t->dtype)));
    return n;
}

/* A Scalar value as a ta_scalar. */
static ta_scalar scalar_of(const ta_value *v)
{
    ta_scalar s = {.kind = v->scalar_kind};
    if (s.kind == TA_SCALAR_FLOAT) s.u.f = v->u.f;
    else if (s.kind == TA_SCALAR_BOOL) s.u.b = v->u.b;
    else s.u.i = v->u.i;
    return s;
}

static size_t describe_scalar(const ta_scalar *s, char *buf, size_t cap, size_t n)
{
    if (s->kind == TA_SCALAR_FLOAT) return put(buf, cap, n, "%g", s->u.f);
    if (s->kind == TA_SCALAR_BOOL) return put(buf, cap, n, "%s", s->u.b ? "True" : "False");
    return put(buf, cap, n, "%lld", (long long)s->u.i);
}

size_t ta_case_describe(const ta_case *c, const ta_decl *d, char *buf, size_t cap)
{
    size_t n = 0;
    if (cap) buf[0] = '\0';
    for (int i = 0; i < c->nargs && i < d->nargs; i++) {
        const ta_value *v = &c->args[i];
        n = put(buf, cap, n, "%s%s=", i ? ", " : "", d->args[i].name);
        switch (v->tag) {
        case TA_VAL_NONE: n = put(buf, cap, n, "None"); break;
        case TA_VAL_TENSOR: {
            n = describe_tensor(v->u.tensor, buf, cap, n);
            /* Name a shared storage: views of one another. */
            for (int j = 0; j < c->nslots; j++)
                for (int k = 0; k < j; k++)
                    if (c->slots[j].arg == i && c->slots[j].item < 0 &&
                        c->slots[k].storage == c->slots[j].storage)
                        n = put(buf, cap, n, " (view of %s)", d->args[c->slots[k].arg].name);
            break;
        }
        case TA_VAL_TENSOR_LIST:
            n = put(buf, cap, n, "[");
            for (size_t k = 0; k < v->u.tensors.n; k++) {
                n = put(buf, cap, n, "%s", k ? ", " : "");
                if (v->u.tensors.items[k]) n = describe_tensor(v->u.tensors.items[k], buf, cap, n);
                else n = put(buf, cap, n, "None");
            }
            n = put(buf, cap, n, "]");
            break;
        case TA_VAL_INT: n = put(buf, cap, n, "%lld", (long long)v->u.i); break;
        case TA_VAL_INT_LIST:
            n = put(buf, cap, n, "[");
            for (size_t k = 0; k < v->u.ints.n; k++)
                n = put(buf, cap, n, "%s%lld", k ? "," : "", (long long)v->u.ints.items[k]);
            n = put(buf, cap, n, "]");
            break;
        case TA_VAL_FLOAT: n = put(buf, cap, n, "%g", v->u.f); break;
        case TA_VAL_FLOAT_LIST: n = put(buf, cap, n, "[%zu floats]", v->u.floats.n); break;
        case TA_VAL_BOOL: n = put(buf, cap, n, "%s", v->u.b ? "True" : "False"); break;
        case TA_VAL_BOOL_LIST: n = put(buf, cap, n, "[%zu bools]", v->u.bools.n); break;
        case TA_VAL_STRING: n = put(buf, cap, n, "'%s'", v->u.s); break;
        case TA_VAL_SCALAR: {
            ta_scalar sc = scalar_of(v);
            n = describe_scalar(&sc, buf, cap, n);
            break;
        }
        case TA_VAL_SCALAR_LIST:
            n = put(buf, cap, n, "[");
            for (size_t k = 0; k < v->u.scalars.n; k++)
                n = describe_scalar(&v->u.scalars.items[k], buf, cap, put(buf, cap, n, "%s", k ? ", " : ""));
            n = put(buf, cap, n, "]");
            break;
        case TA_VAL_DIMNAME: n = put(buf, cap, n, "'%s'", v->u.s); break;
        case TA_VAL_DIMNAME_LIST:
            n = put(buf, cap, n, "[");
            for (size_t k = 0; k < v->u.names.n; k++) n = put(buf, cap, n, "%s'%s'", k ? ", " : "", v->u.names.items[k]);
            n = put(buf, cap, n, "]");
            break;
        }
    }
    if (cap && n >= cap) {
        buf[cap - 1] = '\0';
        if (cap > 4) memcpy(buf + cap - 4, "...", 3);
    }
    return n;
}
