/* case.c - a case as a record: the arguments pushed for the kernel, the
 * tensors handed in (slots, with their geometry before the call), and the
 * one-line description of its arguments that messages and replays quote.
 * synth.c and samples_build.c fill a case through these; the type is in
 * synth.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
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

ta_status ta_case_replace(ta_case *c, ta_exec *x, int arg, ta_value v)
{
    if (arg < 0 || arg >= c->nargs) return TA_ERR_INVALID;
    ta_status s = ta_stack_set(x->stack, (size_t)arg, v);
    if (s != TA_OK) return s;
    c->args[arg] = *ta_stack_at(x->stack, (size_t)arg);
    int k = 0;
    for (int i = 0; i < c->nslots; i++)
        if (c->slots[i].arg != arg) {
            c->slots[k] = c->slots[i];
            /* the slot's geometry lives in itself */
            c->slots[k].before.shape = c->slots[k].shape;
            c->slots[k].before.strides = c->slots[k].strides;
            k++;
        }
    c->nslots = k;
    return TA_OK;
}

static void describe_tensor(const DLTensor *t, ta_strbuf *o)
{
    int64_t st[64];
    if (t->ndim > 64) {
        ta_strbuf_puts(o, "?");
        return;
    }
    ta_strides_of(t, st);
    ta_strbuf_printf(o, "%s[", ta_dtype_name(t->dtype));
    for (int d = 0; d < t->ndim; d++) ta_strbuf_printf(o, "%s%lld", d ? "," : "", (long long)t->shape[d]);
    bool contig = ta_is_contiguous(t);
    ta_strbuf_puts(o, "]");
    if (!contig) {
        ta_strbuf_puts(o, " strides [");
        for (int d = 0; d < t->ndim; d++) ta_strbuf_printf(o, "%s%lld", d ? "," : "", (long long)st[d]);
        ta_strbuf_puts(o, "]");
    }
    if (t->byte_offset) ta_strbuf_printf(o, " offset %llu", (unsigned long long)(t->byte_offset / ta_dtype_size(t->dtype)));
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

static void describe_scalar(const ta_scalar *s, ta_strbuf *o)
{
    if (s->kind == TA_SCALAR_FLOAT) ta_strbuf_printf(o, "%g", s->u.f);
    else if (s->kind == TA_SCALAR_BOOL) ta_strbuf_puts(o, s->u.b ? "True" : "False");
    else ta_strbuf_printf(o, "%lld", (long long)s->u.i);
}

size_t ta_case_describe(const ta_case *c, const ta_decl *d, char *buf, size_t cap)
{
    ta_strbuf sb;
    ta_strbuf_init_fixed(&sb, buf, cap);
    ta_strbuf *o = &sb;
    for (int i = 0; i < c->nargs && i < d->nargs; i++) {
        const ta_value *v = &c->args[i];
        ta_strbuf_printf(o, "%s%s=", i ? ", " : "", d->args[i].name);
        switch (v->tag) {
        case TA_VAL_NONE: ta_strbuf_puts(o, "None"); break;
        case TA_VAL_TENSOR: {
            describe_tensor(v->u.tensor, o);
            /* Name a shared storage: views of one another. */
            for (int j = 0; j < c->nslots; j++)
                for (int k = 0; k < j; k++)
                    if (c->slots[j].arg == i && c->slots[j].item < 0 &&
                        c->slots[k].storage == c->slots[j].storage)
                        ta_strbuf_printf(o, " (view of %s)", d->args[c->slots[k].arg].name);
            break;
        }
        case TA_VAL_TENSOR_LIST:
            ta_strbuf_puts(o, "[");
            for (size_t k = 0; k < v->u.tensors.n; k++) {
                ta_strbuf_printf(o, "%s", k ? ", " : "");
                if (v->u.tensors.items[k]) describe_tensor(v->u.tensors.items[k], o);
                else ta_strbuf_puts(o, "None");
            }
            ta_strbuf_puts(o, "]");
            break;
        case TA_VAL_INT: ta_strbuf_printf(o, "%lld", (long long)v->u.i); break;
        case TA_VAL_INT_LIST:
            ta_strbuf_puts(o, "[");
            for (size_t k = 0; k < v->u.ints.n; k++)
                ta_strbuf_printf(o, "%s%lld", k ? "," : "", (long long)v->u.ints.items[k]);
            ta_strbuf_puts(o, "]");
            break;
        case TA_VAL_FLOAT: ta_strbuf_printf(o, "%g", v->u.f); break;
        case TA_VAL_FLOAT_LIST: ta_strbuf_printf(o, "[%zu floats]", v->u.floats.n); break;
        case TA_VAL_BOOL: ta_strbuf_printf(o, "%s", v->u.b ? "True" : "False"); break;
        case TA_VAL_BOOL_LIST: ta_strbuf_printf(o, "[%zu bools]", v->u.bools.n); break;
        case TA_VAL_STRING: ta_strbuf_printf(o, "'%s'", v->u.s); break;
        case TA_VAL_SCALAR: {
            ta_scalar sc = scalar_of(v);
            describe_scalar(&sc, o);
            break;
        }
        case TA_VAL_SCALAR_LIST:
            ta_strbuf_puts(o, "[");
            for (size_t k = 0; k < v->u.scalars.n; k++) {
                if (k) ta_strbuf_puts(o, ", ");
                describe_scalar(&v->u.scalars.items[k], o);
            }
            ta_strbuf_puts(o, "]");
            break;
        case TA_VAL_DIMNAME: ta_strbuf_printf(o, "'%s'", v->u.s); break;
        case TA_VAL_DIMNAME_LIST:
            ta_strbuf_puts(o, "[");
            for (size_t k = 0; k < v->u.names.n; k++) ta_strbuf_printf(o, "%s'%s'", k ? ", " : "", v->u.names.items[k]);
            ta_strbuf_puts(o, "]");
            break;
        }
    }
    if (c->found && c->found[0]) ta_strbuf_printf(o, " {found: %s}", c->found);
    if (cap && o->len >= cap) {
        buf[cap - 1] = '\0';
        if (cap > 4) memcpy(buf + cap - 4, "...", 3);
    }
    return o->len;
}
