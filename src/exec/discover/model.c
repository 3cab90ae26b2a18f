/* model.c - a case's arguments as discovery reasons about them (model.h):
 * read from the case's values, and the setters facts change them through,
 * which keep every tensor one the engine can make small and fast. */
#include <math.h>
#include <string.h>

#include "exec/discover/model.h"

int64_t dsc_tensor_numel(const dsc_tensor *t)
{
    int64_t n = 1;
    for (int i = 0; i < t->ndim; i++) n *= t->shape[i];
    return n;
}

/* The smallest and largest value of an integer or bool tensor (a few
 * thousand elements at most), as its range. */
static void read_range(dsc_tensor *t, const DLTensor *d)
{
    int64_t n = ta_numel(d);
    bool integral = d->dtype.code == kDLInt || d->dtype.code == kDLUInt || d->dtype.code == TA_DL_BOOL;
    if (!integral || n > 4096 || !d->data) return;
    for (int64_t i = 0; i < n; i++) {
        const void *p = ta_elem_ptr(d, i);
        int64_t v = d->dtype.code == TA_DL_BOOL || d->dtype.bits == 8
                        ? (d->dtype.code == kDLInt ? *(const int8_t *)p : *(const uint8_t *)p)
                    : d->dtype.bits == 16 ? *(const int16_t *)p
                    : d->dtype.bits == 32 ? *(const int32_t *)p
                                          : *(const int64_t *)p;
        if (!t->ranged || v < t->lo) t->lo = v;
        if (!t->ranged || v > t->hi) t->hi = v;
        t->ranged = true;
    }
}

/* A float32 or float64 tensor's values, rounded down, as t->vlo, t->vhi. */
static void read_float_range(dsc_tensor *t, const DLTensor *d)
{
    int64_t n = ta_numel(d);
    if (d->dtype.code != kDLFloat || (d->dtype.bits != 32 && d->dtype.bits != 64) || n > 4096 || !d->data) return;
    for (int64_t i = 0; i < n; i++) {
        const void *p = ta_elem_ptr(d, i);
        double v = d->dtype.bits == 32 ? (double)*(const float *)p : *(const double *)p;
        if (!(v > -1e15 && v < 1e15)) continue; /* NaN, infinities: no bound they would meet */
        int64_t f = (int64_t)floor(v);
        if (!t->seen || f < t->vlo) t->vlo = f;
        if (!t->seen || f > t->vhi) t->vhi = f;
        t->seen = true;
    }
}

static void read_tensor(dsc_tensor *t, const DLTensor *d)
{
    memset(t, 0, sizeof *t);
    if (!d) return;
    t->defined = true;
    t->ndim = d->ndim < TA_CASE_MAX_DIM ? d->ndim : TA_CASE_MAX_DIM;
    for (int i = 0; i < t->ndim; i++) t->shape[i] = d->shape[i];
    t->dtype = d->dtype;
    t->contig = ta_is_contiguous(d);
    read_range(t, d);
    read_float_range(t, d);
}

static void read_arg(dsc_arg *a, const ta_value *v, const ta_decl_slot *s)
{
    memset(a, 0, sizeof *a);
    a->present = v->tag != TA_VAL_NONE;
    switch (s->type) {
    case TA_DT_TENSOR:
        a->kind = DSC_K_TENSOR;
        read_tensor(&a->t, v->tag == TA_VAL_TENSOR ? v->u.tensor : NULL);
        return;
    case TA_DT_TENSOR_LIST:
        a->kind = DSC_K_LIST;
        if (v->tag != TA_VAL_TENSOR_LIST) return;
        a->n = v->u.tensors.n < DSC_MAX_ITEMS ? (int)v->u.tensors.n : DSC_MAX_ITEMS;
        for (int i = 0; i < a->n; i++) read_tensor(&a->items[i], v->u.tensors.items[i]);
        return;
    case TA_DT_INT:
        a->kind = DSC_K_INT;
        a->i = v->tag == TA_VAL_INT ? v->u.i : 0;
        return;
    case TA_DT_BOOL:
        a->kind = DSC_K_BOOL;
        a->i = v->tag == TA_VAL_BOOL && v->u.b;
        return;
    case TA_DT_FLOAT:
        a->kind = DSC_K_FLOAT;
        a->f = v->tag == TA_VAL_FLOAT ? v->u.f : 0;
        return;
    case TA_DT_SCALAR:
        if (v->tag == TA_VAL_SCALAR && v->scalar_kind == TA_SCALAR_INT) {
            a->kind = DSC_K_INT;
            a->i = v->u.i;
        } else if (v->tag == TA_VAL_SCALAR && v->scalar_kind == TA_SCALAR_FLOAT) {
            a->kind = DSC_K_FLOAT;
            a->f = v->u.f;
        }
        return;
    case TA_DT_INT_LIST:
        a->kind = DSC_K_INTS;
        if (v->tag != TA_VAL_INT_LIST) return;
        a->n = v->u.ints.n < DSC_MAX_INTS ? (int)v->u.ints.n : DSC_MAX_INTS;
        for (int i = 0; i < a->n; i++) a->ints[i] = v->u.ints.items[i];
        return;
    default: a->kind = DSC_K_OTHER; return;
    }
}

void dsc_model_read(dsc_model *m, const ta_case *c, const ta_decl *d)
{
    m->d = d;
    m->nargs = c->nargs < d->nargs ? c->nargs : d->nargs;
    for (int i = 0; i < m->nargs; i++) read_arg(&m->args[i], &c->args[i], &d->args[i]);
}

dsc_tensor *dsc_model_tensor(dsc_model *m, int arg, int item)
{
    if (arg < 0 || arg >= m->nargs) return NULL;
    dsc_arg *a = &m->args[arg];
    if (a->kind == DSC_K_TENSOR && item < 0) return &a->t;
    if (a->kind == DSC_K_LIST && item >= 0 && item < a->n) return &a->items[item];
    return NULL;
}

const dsc_tensor *dsc_model_tensor_c(const dsc_model *m, int arg, int item)
{
    return dsc_model_tensor((dsc_model *)m, arg, item);
}

const dsc_tensor *dsc_model_first_tensor(const dsc_model *m)
{
    for (int i = 0; i < m->nargs; i++)
        if (m->args[i].kind == DSC_K_TENSOR && m->args[i].t.defined) return &m->args[i].t;
    return NULL;
}

/* Whether shape (ndim) holds at most DSC_MAX_NUMEL elements. */
static bool small_enough(const int64_t *shape, int ndim)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0) return false;
        if (shape[i] && n > DSC_MAX_NUMEL / shape[i]) return false;
        n *= shape[i];
    }
    return true;
}

bool dsc_tensor_set_dim(dsc_tensor *t, int64_t n)
{
    if (n < 0 || n > DSC_MAX_RANK) return false;
    int64_t s[TA_CASE_MAX_DIM];
    int k = 0;
    /* More dimensions come in front (2 each), fewer leave from the front:
     * the last ones, which kernels index most, stay. */
    for (int64_t i = t->ndim; i < n; i++) s[k++] = 2;
    for (int i = t->ndim > n ? t->ndim - (int)n : 0; i < t->ndim; i++) s[k++] = t->shape[i];
    if (!small_enough(s, k)) return false;
    memcpy(t->shape, s, (size_t)k * sizeof *s);
    t->ndim = k;
    return true;
}

bool dsc_tensor_set_size(dsc_tensor *t, int64_t k, int64_t v)
{
    if (v < 0) return false;
    int64_t s[TA_CASE_MAX_DIM];
    int nd = t->ndim;
    memcpy(s, t->shape, (size_t)nd * sizeof *s);
    if (k >= nd) { /* dimensions added at the back, of 1 */
        if (k >= DSC_MAX_RANK) return false;
        while (nd <= k) s[nd++] = 1;
    } else if (k < -nd) { /* or in front */
        if (-k > DSC_MAX_RANK) return false;
        int add = (int)(-k) - nd;
        memmove(s + add, s, (size_t)nd * sizeof *s);
        for (int i = 0; i < add; i++) s[i] = 1;
        nd += add;
    }
    s[k < 0 ? k + nd : k] = v;
    if (!small_enough(s, nd)) return false;
    memcpy(t->shape, s, (size_t)nd * sizeof *s);
    t->ndim = nd;
    return true;
}

bool dsc_tensor_set_numel(dsc_tensor *t, int64_t v)
{
    if (v < 0 || v > DSC_MAX_NUMEL) return false;
    if (v == dsc_tensor_numel(t)) return true;
    if (t->ndim == 0) {
        if (v == 1) return true;
        t->ndim = 1;
    }
    /* All in the last dimension, the others 1 (or the first 0 for none). */
    for (int i = 0; i < t->ndim; i++) t->shape[i] = 1;
    if (v == 0) t->shape[0] = 0;
    else t->shape[t->ndim - 1] = v;
    return true;
}

void dsc_tensor_set_defined(dsc_tensor *t, bool on, const dsc_tensor *like)
{
    if (!on) {
        t->defined = false;
        return;
    }
    if (t->defined) return;
    if (like && like->defined && like != t) {
        *t = *like;
        t->ranged = t->seen = false;
    } else {
        memset(t, 0, sizeof *t);
        t->ndim = 1;
        t->shape[0] = 2;
        t->dtype = TA_DTYPE_F32;
    }
    t->defined = true;
    t->contig = true;
}
