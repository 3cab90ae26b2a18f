/* views.c - view operators as pure geometry: view, reshape, transpose, t,
 * permute, select, slice, narrow, expand, squeeze, unsqueeze, as_strided,
 * diagonal, unfold, alias, detach, and their in-place (transpose_, t_,
 * squeeze_, unsqueeze_, as_strided_, detach_) and *_copy / *_copy.out forms.
 *
 * Each operator is one function computing the result's shape, strides and
 * storage offset from self and its arguments. The kernel then either makes a
 * view sharing self's storage (ta_kernel_view), re-geometries self in place
 * (ta_kernel_restride), or materializes a copy (the *_copy variants, and
 * reshape when no view is possible, as PyTorch does).
 */
#include <stdio.h>
#include <string.h>

#include "rk.h"

typedef struct geom {
    int nd;
    int64_t shape[RK_MAXDIM];
    int64_t stride[RK_MAXDIM];
    int64_t off;      /* storage offset in elements */
    bool copy;        /* reshape: no view possible, materialize instead */
} geom;

typedef bool (*geom_fn)(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g);

typedef struct vop {
    const char *name;
    geom_fn fn;
} vop;

/* g starts as self's own geometry. */
static void geom_of(const DLTensor *x, geom *g)
{
    g->nd = x->ndim;
    rk_dims_copy(g->shape, x->shape, x->ndim);
    rk_get_strides(x, g->stride);
    g->off = (int64_t)(x->byte_offset / rk_size(rk_dtype_of(x->dtype)));
    g->copy = false;
}

static void drop_dim(geom *g, int d)
{
    for (int k = d; k + 1 < g->nd; k++) {
        g->shape[k] = g->shape[k + 1];
        g->stride[k] = g->stride[k + 1];
    }
    g->nd--;
}

static bool int_list(ta_kernel_ctx *ctx, ta_stack *st, size_t i, const char *name, const int64_t **items,
                     size_t *n, int64_t *one)
{
    if (rk_ints(st, i, items, n, one) && *n <= RK_MAXDIM) return true;
    ta_kernel_error(ctx, "%s: expected an int list (at most %d items) for argument %zu", name, RK_MAXDIM, i);
    return false;
}

/* ---- view / reshape ----------------------------------------------------------- */

/* Resolves one -1 in a requested shape against numel (PyTorch's infer_size). */
static bool infer_size(ta_kernel_ctx *ctx, const char *name, const int64_t *req, size_t n, int64_t numel,
                       int64_t *out)
{
    char buf[256];
    int infer = -1;
    int64_t prod = 1;
    for (size_t k = 0; k < n; k++) {
        out[k] = req[k];
        if (req[k] == -1) {
            if (infer >= 0) return ta_kernel_error(ctx, "%s: only one dimension can be inferred", name), false;
            infer = (int)k;
        } else if (req[k] < 0) {
            return ta_kernel_error(ctx, "%s: invalid shape dimension %lld", name, (long long)req[k]), false;
        } else if (__builtin_mul_overflow(prod, req[k], &prod)) {
            return ta_kernel_error(ctx, "%s: shape is too large", name), false;
        }
    }
    if (numel == prod || (infer >= 0 && prod > 0 && numel % prod == 0)) {
        if (infer >= 0) {
            if (prod == 0)
                return ta_kernel_error(ctx, "%s: cannot reshape tensor of 0 elements into shape %s because the "
                                       "unspecified dimension size -1 can be any value and is ambiguous", name,
                                       rk_shape_str(buf, sizeof buf, (int)n, req)), false;
            out[infer] = numel / prod;
        }
        return true;
    }
    ta_kernel_error(ctx, "%s: shape '%s' is invalid for input of size %lld", name,
                    rk_shape_str(buf, sizeof buf, (int)n, req), (long long)numel);
    return false;
}

/* The strides viewing x with shape (nd, shape) needs, if any (PyTorch's computeStride). */
static bool view_strides(const DLTensor *x, int nd, const int64_t *shape, int64_t *out)
{
    int64_t ost[RK_MAXDIM];
    rk_get_strides(x, ost);
    const int64_t *osh = x->shape;
    int ond = x->ndim;
    if (rk_prod(ond, osh) == 0) {
        if (rk_shape_eq(x, nd, shape)) memcpy(out, ost, sizeof *out * (size_t)nd);
        else rk_contig_strides(nd, shape, out);
        return true;
    }
    if (ond == 0) {
        for (int d = 0; d < nd; d++) out[d] = 1;
        return true;
    }
    int vd = nd - 1;
    int64_t chunk = ost[ond - 1], tn = 1, vn = 1;
    for (int td = ond - 1; td >= 0; td--) {
        tn *= osh[td];
        if (td == 0 || (osh[td - 1] != 1 && ost[td - 1] != tn * chunk)) {
            while (vd >= 0 && (vn < tn || shape[vd] == 1)) {
                out[vd] = vn * chunk;
                vn *= shape[vd];
                vd--;
            }
            if (vn != tn) return false;
            if (td > 0) {
                chunk = ost[td - 1];
                tn = vn = 1;
            }
        }
    }
    return vd == -1;
}

static bool reshape_common(ta_kernel_ctx *ctx, const char *name, const DLTensor *x, const int64_t *req, size_t n,
                           geom *g, bool allow_copy)
{
    geom_of(x, g);
    if (!infer_size(ctx, name, req, n, rk_prod(x->ndim, x->shape), g->shape)) return false;
    g->nd = (int)n;
    if (view_strides(x, g->nd, g->shape, g->stride)) return true;
    if (!allow_copy) {
        ta_kernel_error(ctx, "%s: view size is not compatible with input tensor's size and stride (at least one "
                        "dimension spans across two contiguous subspaces). Use .reshape(...) instead.", name);
        return false;
    }
    g->copy = true;
    return true;
}

static bool g_view(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    const int64_t *req;
    size_t n;
    int64_t one;
    return int_list(ctx, st, 1, "view", &req, &n, &one) && reshape_common(ctx, "view", x, req, n, g, false);
}

static bool g_reshape(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    const int64_t *req;
    size_t n;
    int64_t one;
    return int_list(ctx, st, 1, "reshape", &req, &n, &one) && reshape_common(ctx, "reshape", x, req, n, g, true);
}

static bool g_view_as(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    DLTensor *o = ta_stack_tensor(st, 1);
    if (!rk_check_tensor(ctx, "view_as", "other", o)) return false;
    return reshape_common(ctx, "view_as", x, o->shape, (size_t)o->ndim, g, false);
}

static bool g_reshape_as(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    DLTensor *o = ta_stack_tensor(st, 1);
    if (!rk_check_tensor(ctx, "reshape_as", "other", o)) return false;
    return reshape_common(ctx, "reshape_as", x, o->shape, (size_t)o->ndim, g, true);
}

/* ---- dimension shuffles ------------------------------------------------------------ */

static bool g_alias(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    (void)ctx, (void)st;
    geom_of(x, g);
    return true;
}

static bool transpose_dims(ta_kernel_ctx *ctx, const char *name, const DLTensor *x, int64_t a, int64_t b, geom *g)
{
    geom_of(x, g);
    if (!rk_wrap_dim(ctx, name, &a, x->ndim) || !rk_wrap_dim(ctx, name, &b, x->ndim)) return false;
    if (x->ndim == 0 || a == b) return true;
    int64_t s = g->shape[a], t = g->stride[a];
    g->shape[a] = g->shape[b], g->stride[a] = g->stride[b];
    g->shape[b] = s, g->stride[b] = t;
    return true;
}

static bool g_transpose(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    return transpose_dims(ctx, "transpose", x, rk_int(st, 1, 0), rk_int(st, 2, 0), g);
}

static bool g_t(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    (void)st;
    if (x->ndim > 2)
        return ta_kernel_error(ctx, "t: t() expects a tensor with <= 2 dimensions, but self is %dD", x->ndim),
               false;
    return transpose_dims(ctx, "t", x, 0, x->ndim == 2 ? 1 : 0, g);
}

static bool g_permute(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    const int64_t *dims;
    size_t n;
    int64_t one;
    if (!int_list(ctx, st, 1, "permute", &dims, &n, &one)) return false;
    if ((int)n != x->ndim)
        return ta_kernel_error(ctx, "permute: number of dims don't match in permute (%zu vs %d)", n, x->ndim),
               false;
    geom_of(x, g);
    bool seen[RK_MAXDIM] = {false};
    int64_t st_[RK_MAXDIM];
    rk_get_strides(x, st_);
    for (size_t k = 0; k < n; k++) {
        int64_t d = dims[k];
        if (!rk_wrap_dim(ctx, "permute", &d, x->ndim)) return false;
        if (seen[d]) return ta_kernel_error(ctx, "permute: duplicate dims are not allowed."), false;
        seen[d] = true;
        g->shape[k] = x->shape[d];
        g->stride[k] = st_[d];
    }
    return true;
}

/* ---- indexing views --------------------------------------------------------------- */

static bool need_dims(ta_kernel_ctx *ctx, const char *name, const DLTensor *x)
{
    if (x->ndim > 0) return true;
    ta_kernel_error(ctx, "%s: %s() cannot be applied to a 0-dim tensor.", name, name);
    return false;
}

static bool g_select(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    int64_t d = rk_int(st, 1, 0), i = rk_int(st, 2, 0);
    if (!need_dims(ctx, "select", x) || !rk_wrap_dim(ctx, "select", &d, x->ndim)) return false;
    geom_of(x, g);
    int64_t size = x->shape[d];
    if (i < -size || i >= size) {
        char buf[256];
        ta_kernel_error(ctx, "select: index %lld out of range for tensor of size %s at dimension %lld",
                        (long long)i, rk_shape_str(buf, sizeof buf, x->ndim, x->shape), (long long)d);
        return false;
    }
    if (i < 0) i += size;
    g->off += i * g->stride[d];
    drop_dim(g, (int)d);
    return true;
}

static bool slice_dim(ta_kernel_ctx *ctx, const char *name, const DLTensor *x, int64_t d, int64_t start,
                      int64_t end, int64_t step, geom *g)
{
    if (!need_dims(ctx, name, x) || !rk_wrap_dim(ctx, name, &d, x->ndim)) return false;
    if (step <= 0) return ta_kernel_error(ctx, "%s: slice step must be positive", name), false;
    geom_of(x, g);
    int64_t size = x->shape[d];
    if (start < 0) start += size;
    if (end < 0) end += size;
    if (start < 0) start = 0;
    else if (start > size) start = size;
    if (end < start) end = start;
    else if (end > size) end = size;
    g->shape[d] = end == start ? 0 : (end - start - 1) / step + 1;
    g->off += start * g->stride[d];
    if (__builtin_mul_overflow(g->stride[d], step, &g->stride[d]))
        return ta_kernel_error(ctx, "%s: step %lld is too large", name, (long long)step), false;
    return true;
}

static bool g_slice(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    return slice_dim(ctx, "slice", x, rk_int(st, 1, 0), rk_int(st, 2, 0), rk_int(st, 3, INT64_MAX),
                     rk_int(st, 4, 1), g);
}

static bool narrow_common(ta_kernel_ctx *ctx, const DLTensor *x, int64_t d, int64_t start, int64_t len, geom *g)
{
    if (!need_dims(ctx, "narrow", x) || !rk_wrap_dim(ctx, "narrow", &d, x->ndim)) return false;
    int64_t size = x->shape[d];
    if (len < 0) return ta_kernel_error(ctx, "narrow: narrow(): length must be non-negative."), false;
    if (start < -size || start > size)
        return ta_kernel_error(ctx, "narrow: start out of range (expected to be in range of [%lld, %lld], but got %lld)",
                               (long long)-size, (long long)size, (long long)start), false;
    if (start < 0) start += size;
    if (start > size - len)
        return ta_kernel_error(ctx, "narrow: start (%lld) + length (%lld) exceeds dimension size (%lld).",
                               (long long)start, (long long)len, (long long)size), false;
    return slice_dim(ctx, "narrow", x, d, start, start + len, 1, g);
}

static bool g_narrow(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    return narrow_common(ctx, x, rk_int(st, 1, 0), rk_int(st, 2, 0), rk_int(st, 3, 0), g);
}

static bool g_narrow_tensor(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    DLTensor *s = ta_stack_tensor(st, 2);
    if (!rk_check_tensor(ctx, "narrow", "start", s)) return false;
    rk_dtype sd = rk_dtype_of(s->dtype);
    if (s->ndim != 0 || !rk_is_int(sd))
        return ta_kernel_error(ctx, "narrow: start must be an 0-dim integral Tensor."), false;
    return narrow_common(ctx, x, rk_int(st, 1, 0), rk_loadi(sd, rk_base(s)), rk_int(st, 3, 0), g);
}

static bool g_diagonal(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    int64_t off = rk_int(st, 1, 0), d1 = rk_int(st, 2, 0), d2 = rk_int(st, 3, 1);
    if (!rk_wrap_dim(ctx, "diagonal", &d1, x->ndim) || !rk_wrap_dim(ctx, "diagonal", &d2, x->ndim)) return false;
    if (d1 == d2)
        return ta_kernel_error(ctx, "diagonal: diagonal dimensions cannot be identical %lld, %lld",
                               (long long)d1, (long long)d2), false;
    geom_of(x, g);
    int64_t s1 = g->shape[d1], s2 = g->shape[d2], t1 = g->stride[d1], t2 = g->stride[d2], n;
    /* bounds first, so a huge offset never reaches a multiplication */
    if (off >= 0) {
        n = off < s2 ? (s1 < s2 - off ? s1 : s2 - off) : 0;
        if (n > 0) g->off += off * t2;
    } else {
        n = off > -s1 ? (s1 + off < s2 ? s1 + off : s2) : 0;
        if (n > 0) g->off -= off * t1;
    }
    drop_dim(g, (int)(d1 > d2 ? d1 : d2));
    drop_dim(g, (int)(d1 > d2 ? d2 : d1));
    g->shape[g->nd] = n;
    g->stride[g->nd] = t1 + t2;
    g->nd++;
    return true;
}

static bool g_unfold(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    int64_t d = rk_int(st, 1, 0), size = rk_int(st, 2, 0), step = rk_int(st, 3, 1);
    if (!rk_wrap_dim(ctx, "unfold", &d, x->ndim)) return false;
    if (x->ndim >= RK_MAXDIM) return ta_kernel_error(ctx, "unfold: too many dimensions"), false;
    geom_of(x, g);
    int64_t max = x->ndim == 0 ? 1 : x->shape[d];
    if (size < 0 || size > max)
        return ta_kernel_error(ctx, "unfold: maximum size for tensor at dimension %lld is %lld but size is %lld",
                               (long long)d, (long long)max, (long long)size), false;
    if (step <= 0) return ta_kernel_error(ctx, "unfold: step is %lld but must be > 0", (long long)step), false;
    g->shape[x->ndim] = size;
    g->stride[x->ndim] = x->ndim == 0 ? 1 : g->stride[d];
    if (x->ndim > 0) {
        g->shape[d] = (x->shape[d] - size) / step + 1;
        if (__builtin_mul_overflow(g->stride[d], step, &g->stride[d]))
            return ta_kernel_error(ctx, "unfold: step %lld is too large", (long long)step), false;
    }
    g->nd = x->ndim + 1;
    return true;
}

/* ---- size-1 dims, expand, as_strided ------------------------------------------------- */

static bool g_squeeze(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    (void)ctx, (void)st;
    geom_of(x, g);
    for (int d = g->nd - 1; d >= 0; d--)
        if (g->shape[d] == 1) drop_dim(g, d);
    return true;
}

static bool g_squeeze_dims(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    const int64_t *dims;
    size_t n;
    int64_t one;
    if (!int_list(ctx, st, 1, "squeeze", &dims, &n, &one)) return false;
    bool drop[RK_MAXDIM] = {false};
    for (size_t k = 0; k < n; k++) {
        int64_t d = dims[k];
        if (!rk_wrap_dim(ctx, "squeeze", &d, x->ndim)) return false;
        if (x->ndim > 0 && x->shape[d] == 1) drop[d] = true;
    }
    geom_of(x, g);
    for (int d = g->nd - 1; d >= 0; d--)
        if (drop[d]) drop_dim(g, d);
    return true;
}

static bool g_unsqueeze(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    int64_t d = rk_int(st, 1, 0);
    if (!rk_wrap_dim(ctx, "unsqueeze", &d, x->ndim + 1)) return false;
    if (x->ndim >= RK_MAXDIM) return ta_kernel_error(ctx, "unsqueeze: too many dimensions"), false;
    geom_of(x, g);
    int64_t stride = d >= x->ndim ? 1 : g->shape[d] * g->stride[d];
    for (int k = g->nd; k > d; k--) {
        g->shape[k] = g->shape[k - 1];
        g->stride[k] = g->stride[k - 1];
    }
    g->shape[d] = 1;
    g->stride[d] = stride;
    g->nd++;
    return true;
}

static bool expand_to(ta_kernel_ctx *ctx, const DLTensor *x, const int64_t *req, size_t n, geom *g)
{
    char a[256], b[256];
    if ((int)n < x->ndim || n > RK_MAXDIM)
        return ta_kernel_error(ctx, "expand: the number of sizes provided (%zu) must be greater or equal to the "
                               "number of dimensions in the tensor (%d)", n, x->ndim), false;
    int64_t xs[RK_MAXDIM];
    rk_get_strides(x, xs);
    geom_of(x, g);
    g->nd = (int)n;
    for (int i = (int)n - 1; i >= 0; i--) {
        int dim = i - ((int)n - x->ndim);
        int64_t size = dim >= 0 ? x->shape[dim] : 1;
        int64_t stride = dim >= 0 ? xs[dim] : 0;
        if (dim < 0 && i + 1 < (int)n && __builtin_mul_overflow(g->shape[i + 1], g->stride[i + 1], &stride))
            return ta_kernel_error(ctx, "expand: sizes are too large"), false;
        int64_t target = req[i];
        if (target == -1) {
            if (dim < 0)
                return ta_kernel_error(ctx, "expand: The expanded size of the tensor (-1) isn't allowed in a "
                                       "leading, non-existing dimension %d", i), false;
            target = size;
        }
        if (target < 0) return ta_kernel_error(ctx, "expand: invalid size %lld", (long long)target), false;
        if (size != target) {
            if (size != 1)
                return ta_kernel_error(ctx, "expand: The expanded size of the tensor (%lld) must match the existing "
                                       "size (%lld) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
                                       (long long)target, (long long)size, i,
                                       rk_shape_str(a, sizeof a, (int)n, req),
                                       rk_shape_str(b, sizeof b, x->ndim, x->shape)), false;
            size = target;
            stride = 0;
        }
        g->shape[i] = size;
        g->stride[i] = stride;
    }
    return true;
}

static bool g_expand(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    const int64_t *req;
    size_t n;
    int64_t one;
    return int_list(ctx, st, 1, "expand", &req, &n, &one) && expand_to(ctx, x, req, n, g);
}

static bool g_expand_as(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    DLTensor *o = ta_stack_tensor(st, 1);
    return rk_check_tensor(ctx, "expand_as", "other", o) && expand_to(ctx, x, o->shape, (size_t)o->ndim, g);
}

static bool g_as_strided(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x, geom *g)
{
    const int64_t *size, *stride;
    size_t n, m;
    int64_t one, two;
    if (!int_list(ctx, st, 1, "as_strided", &size, &n, &one) || !int_list(ctx, st, 2, "as_strided", &stride, &m, &two))
        return false;
    if (n != m) return ta_kernel_error(ctx, "as_strided: mismatch in length of strides and shape"), false;
    geom_of(x, g);
    if (!rk_none(st, 3)) g->off = rk_int(st, 3, 0);
    if (g->off < 0)
        return ta_kernel_error(ctx, "as_strided: Tensor: invalid storage offset %lld", (long long)g->off), false;
    for (size_t k = 0; k < n; k++) {
        if (size[k] < 0) return ta_kernel_error(ctx, "as_strided: negative size %lld", (long long)size[k]), false;
        if (stride[k] < 0)
            return ta_kernel_error(ctx, "as_strided: Negative strides are not supported at the moment"), false;
        g->shape[k] = size[k];
        g->stride[k] = stride[k];
    }
    g->nd = (int)n;
    return true;
}

/* ---- the four ways to deliver a geometry ---------------------------------------------- */

enum { V_VIEW, V_INPLACE, V_COPY, V_COPY_OUT };

static ta_status deliver(ta_kernel_ctx *ctx, ta_stack *st, int how)
{
    const vop *op = ta_kernel_user_data(ctx);
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!rk_check_tensor(ctx, op->name, "self", x)) return TA_ERR_KERNEL;
    geom g;
    if (!op->fn(ctx, st, x, &g)) return TA_ERR_KERNEL;
    rk_dtype xd = rk_dtype_of(x->dtype);
    uint64_t boff = (uint64_t)g.off * rk_size(xd);
    if (how == V_VIEW && !g.copy) {
        DLTensor *y;
        ta_status s = ta_kernel_view(ctx, x, g.nd, g.shape, g.stride, boff, &y);
        if (s != TA_OK && rk_prod(g.nd, g.shape) == 0) /* empty: PyTorch allows any offset, the engine not */
            s = ta_kernel_view(ctx, x, g.nd, g.shape, g.stride, x->byte_offset, &y);
        if (s != TA_OK) return ta_kernel_error(ctx, "%s: could not make the view", op->name);
        return rk_return1(st, y);
    }
    if (how == V_INPLACE) {
        if (ta_kernel_restride(ctx, x, g.nd, g.shape, g.stride, boff) != TA_OK)
            return ta_kernel_error(ctx, "%s: could not change self's geometry", op->name);
        return rk_return1(st, x);
    }
    /* A copy: describe the view locally (never handed out), then materialize it. */
    DLTensor src = *x;
    int64_t cshape[RK_MAXDIM], cstride[RK_MAXDIM];
    memcpy(cshape, g.shape, sizeof *cshape * (size_t)g.nd);
    if (g.copy) {
        /* reshape without a view: the elements of self in row-major order, reshaped */
        DLTensor *y;
        if (ta_kernel_empty(ctx, x->dtype, g.nd, g.shape, &y) != TA_OK) return rk_oom(ctx, op->name);
        DLTensor flat = *y;
        flat.ndim = x->ndim;
        flat.shape = x->shape;
        flat.strides = NULL;
        rk_copy(&flat, x);
        if (how == V_COPY_OUT) {
            DLTensor *o = rk_output(ctx, op->name, RK_OUT_ANY, ta_stack_tensor(st, ta_stack_size(st) - 1), xd, g.nd,
                                    g.shape);
            if (!o) return TA_ERR_KERNEL;
            rk_copy(o, y);
            return rk_return1(st, o);
        }
        return rk_return1(st, y);
    }
    memcpy(cstride, g.stride, sizeof *cstride * (size_t)g.nd);
    src.ndim = g.nd;
    src.shape = cshape;
    src.strides = cstride;
    src.byte_offset = boff;
    if (rk_prod(g.nd, g.shape) > 0) {
        /* the engine checks the geometry against self's storage (as_strided can point past it) */
        DLTensor *v;
        if (ta_kernel_view(ctx, x, g.nd, g.shape, g.stride, boff, &v) != TA_OK)
            return ta_kernel_error(ctx, "%s: the result's geometry is out of bounds for self's storage", op->name);
        src = *v;
    }
    DLTensor *y;
    if (how == V_COPY_OUT) {
        y = rk_output(ctx, op->name, RK_OUT_ANY, ta_stack_tensor(st, ta_stack_size(st) - 1), xd, g.nd, g.shape);
        if (!y) return TA_ERR_KERNEL;
    } else {
        y = rk_empty_like(ctx, &src, xd);
        if (!y) return rk_oom(ctx, op->name);
    }
    rk_copy(y, &src);
    return rk_return1(st, y);
}

static ta_status k_view(ta_kernel_ctx *c, ta_stack *s) { return deliver(c, s, V_VIEW); }
static ta_status k_inplace(ta_kernel_ctx *c, ta_stack *s) { return deliver(c, s, V_INPLACE); }
static ta_status k_copy(ta_kernel_ctx *c, ta_stack *s) { return deliver(c, s, V_COPY); }
static ta_status k_copy_out(ta_kernel_ctx *c, ta_stack *s) { return deliver(c, s, V_COPY_OUT); }

static ta_status k_detach_(ta_kernel_ctx *c, ta_stack *s)
{
    DLTensor *x = ta_stack_tensor(s, 0);
    if (!rk_check_tensor(c, "detach_", "self", x)) return TA_ERR_KERNEL;
    return rk_return1(s, x);
}

static const vop VIEW = {"view", g_view}, RESHAPE = {"reshape", g_reshape}, VIEW_AS = {"view_as", g_view_as},
                 RESHAPE_AS = {"reshape_as", g_reshape_as}, ALIAS = {"alias", g_alias},
                 DETACH = {"detach", g_alias}, TRANSPOSE = {"transpose", g_transpose}, T = {"t", g_t},
                 PERMUTE = {"permute", g_permute}, SELECT = {"select", g_select}, SLICE = {"slice", g_slice},
                 NARROW = {"narrow", g_narrow}, NARROW_T = {"narrow", g_narrow_tensor},
                 DIAGONAL = {"diagonal", g_diagonal}, UNFOLD = {"unfold", g_unfold},
                 SQUEEZE = {"squeeze", g_squeeze}, SQUEEZE_DIMS = {"squeeze", g_squeeze_dims},
                 UNSQUEEZE = {"unsqueeze", g_unsqueeze}, EXPAND = {"expand", g_expand},
                 EXPAND_AS = {"expand_as", g_expand_as}, AS_STRIDED = {"as_strided", g_as_strided};

/* A view op with its *_copy and *_copy out= forms. */
#define VIEW3(v, copy, copy_out, d) {v, k_view, &d}, {copy, k_copy, &d}, {copy_out, k_copy_out, &d}
static const rk_entry ENTRIES[] = {
    {"view", k_view, &VIEW},
    /* view_copy reshapes when no view is possible (functionalization relies on it) */
    {"view_copy", k_copy, &RESHAPE}, {"view_copy.out", k_copy_out, &RESHAPE},
    VIEW3("reshape", "_reshape_copy", "_reshape_copy.out", RESHAPE),
    {"view_as", k_view, &VIEW_AS}, {"reshape_as", k_view, &RESHAPE_AS},
    VIEW3("alias", "alias_copy", "alias_copy.out", ALIAS),
    VIEW3("detach", "detach_copy", "detach_copy.out", DETACH), {"detach_", k_detach_, NULL},
    VIEW3("transpose.int", "transpose_copy.int", "transpose_copy.int_out", TRANSPOSE),
    {"transpose_", k_inplace, &TRANSPOSE},
    VIEW3("t", "t_copy", "t_copy.out", T), {"t_", k_inplace, &T},
    VIEW3("permute", "permute_copy", "permute_copy.out", PERMUTE),
    VIEW3("select.int", "select_copy.int", "select_copy.int_out", SELECT),
    VIEW3("slice.Tensor", "slice_copy.Tensor", "slice_copy.Tensor_out", SLICE),
    VIEW3("narrow", "narrow_copy", "narrow_copy.out", NARROW), {"narrow.Tensor", k_view, &NARROW_T},
    VIEW3("diagonal", "diagonal_copy", "diagonal_copy.out", DIAGONAL),
    VIEW3("unfold", "unfold_copy", "unfold_copy.out", UNFOLD),
    VIEW3("squeeze", "squeeze_copy", "squeeze_copy.out", SQUEEZE), {"squeeze_", k_inplace, &SQUEEZE},
    VIEW3("squeeze.dim", "squeeze_copy.dim", "squeeze_copy.dim_out", SQUEEZE_DIMS),
    {"squeeze_.dim", k_inplace, &SQUEEZE_DIMS},
    VIEW3("squeeze.dims", "squeeze_copy.dims", "squeeze_copy.dims_out", SQUEEZE_DIMS),
    {"squeeze_.dims", k_inplace, &SQUEEZE_DIMS},
    VIEW3("unsqueeze", "unsqueeze_copy", "unsqueeze_copy.out", UNSQUEEZE), {"unsqueeze_", k_inplace, &UNSQUEEZE},
    VIEW3("expand", "expand_copy", "expand_copy.out", EXPAND), {"expand_as", k_view, &EXPAND_AS},
    VIEW3("as_strided", "as_strided_copy", "as_strided_copy.out", AS_STRIDED),
    {"as_strided_", k_inplace, &AS_STRIDED},
    {NULL, NULL, NULL},
};

ta_status rk_register_views(ta_registry *reg) { return rk_reg_table(reg, ENTRIES); }
