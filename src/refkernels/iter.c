/* iter.c - geometry, the strided broadcast iterator, argument readers and
 * output preparation shared by every reference kernel.
 *
 * Arguments are read before a kernel clears the stack (list items belong to
 * the stack). Outputs follow PyTorch: a functional variant allocates, an
 * in-place variant writes self (whose shape must already be the result's), an
 * out= variant resizes `out` when its shape differs; in-place and out= also
 * require the result dtype to be castable to the written tensor's.
 */
#include <stdio.h>
#include <string.h>

#include "rk.h"

/* ---- geometry ---------------------------------------------------------- */

int64_t rk_stride(const DLTensor *t, int d)
{
    if (t->strides) return t->strides[d];
    int64_t s = 1;
    for (int k = t->ndim - 1; k > d; k--) s *= t->shape[k] > 1 ? t->shape[k] : 1;
    return s;
}

void rk_contig_strides(int ndim, const int64_t *shape, int64_t *out)
{
    int64_t s = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        out[d] = s;
        s *= shape[d] > 1 ? shape[d] : 1;
    }
}

void rk_get_strides(const DLTensor *t, int64_t *out)
{
    if (t->strides) rk_dims_copy(out, t->strides, t->ndim);
    else rk_contig_strides(t->ndim, t->shape, out);
}

int64_t rk_prod(int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) n *= shape[d];
    return n;
}

bool rk_contiguous(const DLTensor *t)
{
    if (!t->strides || rk_prod(t->ndim, t->shape) == 0) return true;
    int64_t expected = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        if (t->shape[d] == 1) continue;
        if (t->strides[d] != expected) return false;
        expected *= t->shape[d];
    }
    return true;
}

bool rk_dense(const DLTensor *t)
{
    if (rk_contiguous(t)) return true;
    int perm[RK_MAXDIM], n = 0;
    for (int d = 0; d < t->ndim; d++)
        if (t->shape[d] >= 2) perm[n++] = d;
    for (int i = 1; i < n; i++) /* insertion sort by stride, ascending */
        for (int j = i; j > 0 && t->strides[perm[j - 1]] > t->strides[perm[j]]; j--) {
            int x = perm[j]; perm[j] = perm[j - 1]; perm[j - 1] = x;
        }
    int64_t need = 1;
    for (int i = 0; i < n; i++) {
        if (t->strides[perm[i]] != need) return false;
        need *= t->shape[perm[i]];
    }
    return true;
}

bool rk_shape_eq(const DLTensor *t, int ndim, const int64_t *shape)
{
    if (t->ndim != ndim) return false;
    for (int d = 0; d < ndim; d++)
        if (t->shape[d] != shape[d]) return false;
    return true;
}

bool rk_wrap_dim(ta_kernel_ctx *ctx, const char *op, int64_t *dim, int64_t ndim)
{
    int64_t n = ndim > 0 ? ndim : 1;
    if (*dim < -n || *dim >= n) {
        ta_kernel_error(ctx, "%s: Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                        op, (long long)-n, (long long)(n - 1), (long long)*dim);
        return false;
    }
    if (*dim < 0) *dim += n;
    return true;
}

const char *rk_shape_str(char *buf, size_t cap, int ndim, const int64_t *shape)
{
    size_t k = 0;
    k += (size_t)snprintf(buf + k, cap - k, "[");
    for (int d = 0; d < ndim && k < cap; d++)
        k += (size_t)snprintf(buf + k, cap - k, "%s%lld", d ? ", " : "", (long long)shape[d]);
    if (k < cap) snprintf(buf + k, cap - k, "]");
    return buf;
}

/* ---- iterator -------------------------------------------------------------- */

void rk_iter_init(rk_iter *it, int ndim, const int64_t *shape)
{
    it->ndim = ndim;
    it->nops = 0;
    rk_dims_copy(it->shape, shape, ndim);
    memset(it->idx, 0, sizeof *it->idx * (size_t)ndim);
    it->n = rk_prod(ndim, shape);
}

void rk_iter_add(rk_iter *it, const DLTensor *t)
{
    int k = it->nops++;
    rk_dtype dt = rk_dtype_of(t->dtype);
    int64_t esz = (int64_t)rk_size(dt);
    it->p[k] = rk_base(t);
    it->dt[k] = dt;
    int lead = it->ndim - t->ndim;
    for (int d = 0; d < it->ndim; d++) {
        int td = d - lead;
        it->bs[k][d] = (td < 0 || t->shape[td] == 1) ? 0 : rk_stride(t, td) * esz;
    }
}

void rk_iter_add_bytes(rk_iter *it, void *base, const int64_t *bs)
{
    int k = it->nops++;
    it->p[k] = base;
    it->dt[k] = RK_BAD;
    memcpy(it->bs[k], bs, sizeof *bs * (size_t)it->ndim);
}

bool rk_broadcast(ta_kernel_ctx *ctx, const char *op, const DLTensor *const *ts, int n,
                  int *ndim, int64_t *shape)
{
    int nd = 0;
    for (int k = 0; k < n; k++)
        if (ts[k] && ts[k]->ndim > nd) nd = ts[k]->ndim;
    for (int d = 0; d < nd; d++) {
        int64_t size = 1;
        int from = -1;
        for (int k = 0; k < n; k++) {
            if (!ts[k]) continue;
            int td = d - (nd - ts[k]->ndim);
            int64_t s = td < 0 ? 1 : ts[k]->shape[td];
            if (s == 1) continue;
            if (size == 1) {
                size = s;
                from = k;
            } else if (size != s) {
                ta_kernel_error(ctx, "%s: The size of tensor a (%lld) must match the size of tensor b (%lld) "
                                "at non-singleton dimension %d (operands %d and %d)",
                                op, (long long)size, (long long)s, d, from, k);
                return false;
            }
        }
        shape[d] = size;
    }
    *ndim = nd;
    return true;
}

void rk_copy(const DLTensor *dst, const DLTensor *src)
{
    rk_dtype dd = rk_dtype_of(dst->dtype), sd = rk_dtype_of(src->dtype);
    int64_t n = rk_prod(dst->ndim, dst->shape);
    if (n == 0) return;
    if (dd == sd && rk_contiguous(dst) && rk_contiguous(src) && rk_shape_eq(src, dst->ndim, dst->shape)) {
        memmove(rk_base(dst), rk_base(src), (size_t)n * rk_size(dd));
        return;
    }
    rk_iter it;
    rk_iter_init(&it, dst->ndim, dst->shape);
    rk_iter_add(&it, dst);
    rk_iter_add(&it, src);
    if (dd == sd) { /* a constant-size memcpy per element compiles to one move */
#define COPY_ELEMS(N) for (int64_t k = 0; k < n; k++, rk_iter_step(&it)) memcpy(it.p[0], it.p[1], N)
        switch (rk_size(dd)) {
        case 1: COPY_ELEMS(1); break;
        case 2: COPY_ELEMS(2); break;
        case 4: COPY_ELEMS(4); break;
        default: COPY_ELEMS(8); break;
        }
#undef COPY_ELEMS
        return;
    }
    bool fdom = rk_is_float(dd) || rk_is_float(sd);
    for (int64_t k = 0; k < n; k++, rk_iter_step(&it)) {
        if (fdom) rk_storef(dd, it.p[0], rk_loadf(sd, it.p[1]));
        else rk_storei(dd, it.p[0], rk_loadi(sd, it.p[1]));
    }
}

/* ---- arguments --------------------------------------------------------------- */

bool rk_none(ta_stack *st, size_t i)
{
    ta_value *v = ta_stack_at(st, i);
    return !v || v->tag == TA_VAL_NONE;
}

int64_t rk_int(ta_stack *st, size_t i, int64_t dflt)
{
    ta_value *v = ta_stack_at(st, i);
    if (!v) return dflt;
    switch (v->tag) {
    case TA_VAL_INT: return v->u.i;
    case TA_VAL_BOOL: return v->u.b;
    case TA_VAL_FLOAT: return rk_f2i(v->u.f);
    case TA_VAL_SCALAR:
        return v->scalar_kind == TA_SCALAR_FLOAT ? rk_f2i(v->u.f)
             : v->scalar_kind == TA_SCALAR_BOOL ? (int64_t)v->u.b : v->u.i;
    default: return dflt;
    }
}

bool rk_bool(ta_stack *st, size_t i, bool dflt)
{
    ta_value *v = ta_stack_at(st, i);
    if (!v || v->tag == TA_VAL_NONE) return dflt;
    return v->tag == TA_VAL_BOOL ? v->u.b : rk_int(st, i, dflt) != 0;
}

bool rk_ints(ta_stack *st, size_t i, const int64_t **items, size_t *n, int64_t *one)
{
    ta_value *v = ta_stack_at(st, i);
    if (!v) return false;
    if (v->tag == TA_VAL_INT_LIST) {
        *items = v->u.ints.items;
        *n = v->u.ints.n;
        return true;
    }
    if (v->tag == TA_VAL_INT) {
        *one = v->u.i;
        *items = one;
        *n = 1;
        return true;
    }
    return false;
}

bool rk_tensors(ta_stack *st, size_t i, DLTensor ***items, size_t *n)
{
    ta_value *v = ta_stack_at(st, i);
    if (!v || v->tag != TA_VAL_TENSOR_LIST) return false;
    *items = v->u.tensors.items;
    *n = v->u.tensors.n;
    return true;
}

bool rk_scalar_arg(ta_stack *st, size_t i, rk_scalar *s)
{
    ta_value *v = ta_stack_at(st, i);
    if (!v) return false;
    memset(s, 0, sizeof *s);
    switch (v->tag) {
    case TA_VAL_SCALAR:
        s->kind = v->scalar_kind;
        if (s->kind == TA_SCALAR_FLOAT) s->f = v->u.f;
        else s->i = s->kind == TA_SCALAR_BOOL ? (int64_t)v->u.b : v->u.i;
        break;
    case TA_VAL_INT: s->kind = TA_SCALAR_INT; s->i = v->u.i; break;
    case TA_VAL_BOOL: s->kind = TA_SCALAR_BOOL; s->i = v->u.b; break;
    case TA_VAL_FLOAT: s->kind = TA_SCALAR_FLOAT; s->f = v->u.f; break;
    default: return false;
    }
    if (s->kind != TA_SCALAR_FLOAT) s->f = (double)s->i;
    else s->i = rk_f2i(s->f);
    return true;
}

const char *rk_string(ta_stack *st, size_t i)
{
    ta_value *v = ta_stack_at(st, i);
    return v && v->tag == TA_VAL_STRING ? v->u.s : NULL;
}

rk_dtype rk_dtype_arg(ta_stack *st, size_t i, bool *ok)
{
    static const struct { const char *name; rk_dtype d; } names[] = {
        {"Bool", RK_BOOL}, {"bool", RK_BOOL}, {"Byte", RK_U8}, {"uint8", RK_U8},
        {"Char", RK_I8}, {"int8", RK_I8}, {"Short", RK_I16}, {"int16", RK_I16},
        {"Int", RK_I32}, {"int32", RK_I32}, {"Long", RK_I64}, {"int64", RK_I64},
        {"Half", RK_F16}, {"float16", RK_F16}, {"BFloat16", RK_BF16}, {"bfloat16", RK_BF16},
        {"Float", RK_F32}, {"float32", RK_F32}, {"Double", RK_F64}, {"float64", RK_F64},
    };
    ta_value *v = ta_stack_at(st, i);
    *ok = true;
    if (!v || v->tag == TA_VAL_NONE) return RK_BAD;
    rk_dtype d = RK_BAD;
    if (v->tag == TA_VAL_INT) {
        d = rk_from_scalar_type(v->u.i);
    } else if (v->tag == TA_VAL_STRING && v->u.s) {
        const char *s = v->u.s;
        if (!strncmp(s, "torch.", 6)) s += 6;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (!strcmp(s, names[k].name)) d = names[k].d;
    }
    if (d == RK_BAD) *ok = false;
    return d;
}

/* ---- outputs ------------------------------------------------------------------ */

bool rk_check_tensor(ta_kernel_ctx *ctx, const char *op, const char *arg, const DLTensor *t)
{
    if (!t) {
        ta_kernel_error(ctx, "%s: expected a tensor for argument '%s'", op, arg);
        return false;
    }
    if (rk_dtype_of(t->dtype) == RK_BAD) {
        ta_kernel_error(ctx, "%s: argument '%s' has an unsupported dtype (code %u, %u bits, %u lanes)",
                        op, arg, t->dtype.code, t->dtype.bits, t->dtype.lanes);
        return false;
    }
    if (t->ndim < 0 || t->ndim > RK_MAXDIM) {
        ta_kernel_error(ctx, "%s: argument '%s' has %d dimensions (at most %d supported)",
                        op, arg, t->ndim, RK_MAXDIM);
        return false;
    }
    if (t->device.device_type != kDLCPU) {
        ta_kernel_error(ctx, "%s: argument '%s' is not a CPU tensor", op, arg);
        return false;
    }
    return true;
}

bool rk_check_writable(ta_kernel_ctx *ctx, const char *op, const DLTensor *t)
{
    if (!t->strides || rk_prod(t->ndim, t->shape) == 0) return true;
    for (int d = 0; d < t->ndim; d++)
        if (t->shape[d] > 1 && t->strides[d] == 0) {
            ta_kernel_error(ctx, "%s: unsupported operation: more than one element of the written-to "
                            "tensor refers to a single memory location", op);
            return false;
        }
    return true;
}

DLTensor *rk_output(ta_kernel_ctx *ctx, const char *op, rk_mode mode, DLTensor *given,
                    rk_dtype dt, int ndim, const int64_t *shape)
{
    char a[256], b[256];
    if (mode == RK_FUNC) {
        DLTensor *t;
        if (ta_kernel_empty(ctx, rk_dl(dt), ndim, shape, &t) != TA_OK) rk_oom(ctx, op);
        return t;
    }
    const char *what = mode == RK_INPLACE ? "self" : "out";
    if (!rk_check_tensor(ctx, op, what, given)) return NULL;
    rk_dtype gd = rk_dtype_of(given->dtype);
    if (mode != RK_OUT_ANY && !rk_can_cast(dt, gd)) {
        ta_kernel_error(ctx, "%s: result type %s can't be cast to the desired output type %s",
                        op, rk_name(dt), rk_name(gd));
        return NULL;
    }
    if (!rk_shape_eq(given, ndim, shape)) {
        if (mode == RK_INPLACE) {
            ta_kernel_error(ctx, "%s: output with shape %s doesn't match the broadcast shape %s", op,
                            rk_shape_str(a, sizeof a, given->ndim, given->shape),
                            rk_shape_str(b, sizeof b, ndim, shape));
            return NULL;
        }
        if (ta_kernel_resize(ctx, given, ndim, shape) != TA_OK) {
            ta_kernel_error(ctx, "%s: could not resize out to %s", op, rk_shape_str(a, sizeof a, ndim, shape));
            return NULL;
        }
    }
    if (!rk_check_writable(ctx, op, given)) return NULL;
    return given;
}

DLTensor *rk_empty_like(ta_kernel_ctx *ctx, const DLTensor *t, rk_dtype dt)
{
    DLTensor *y;
    if (ta_kernel_empty(ctx, rk_dl(dt), t->ndim, t->shape, &y) != TA_OK || rk_contiguous(t) || !rk_dense(t))
        return y;
    if (ta_kernel_restride(ctx, y, t->ndim, t->shape, t->strides, 0) != TA_OK) return NULL;
    return y;
}

ta_status rk_return1(ta_stack *st, DLTensor *t)
{
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, t);
}

ta_status rk_return2(ta_stack *st, DLTensor *a, DLTensor *b)
{
    ta_stack_clear(st);
    ta_status s = ta_stack_push_tensor(st, a);
    return s != TA_OK ? s : ta_stack_push_tensor(st, b);
}

ta_status rk_return_list(ta_kernel_ctx *ctx, ta_stack *st, DLTensor *const *items, size_t n)
{
    DLTensor **arr;
    if (ta_kernel_tensor_array(ctx, n, &arr) != TA_OK) return rk_oom(ctx, "tensor list");
    for (size_t k = 0; k < n; k++) arr[k] = items[k];
    ta_value v;
    memset(&v, 0, sizeof v);
    v.tag = TA_VAL_TENSOR_LIST;
    v.u.tensors.items = arr;
    v.u.tensors.n = n;
    ta_stack_clear(st);
    return ta_stack_push(st, v);
}

ta_status rk_oom(ta_kernel_ctx *ctx, const char *op)
{
    return ta_kernel_error(ctx, "%s: out of memory", op);
}
