/* k_views.c - CUDA reference kernels for the view family: geometry only.
 *
 * A view shares its base's storage, so these kernels never touch the
 * device: they compute sizes, element strides and a byte offset on the host
 * and hand them to ta_kernel_view (a new view) or ta_kernel_restride (the
 * inplace ones: transpose_, squeeze_, unsqueeze_, as_strided_), which tell the
 * engine what storage the result shares. The one exception is reshape of a
 * tensor whose strides cannot express the new shape: like PyTorch it copies.
 * Byte offsets are from the storage start, as DLTensor's byte_offset is.
 */
#include <stdio.h>
#include <string.h>

#include "cuda/cu_kernels.h"

/* The geometry of a view under construction. */
typedef struct geom {
    int ndim;
    int64_t shape[TA_CU_MAXDIM];
    int64_t strides[TA_CU_MAXDIM];
    int64_t offset; /* bytes from the storage start */
} geom;

static void geom_of(const DLTensor *t, geom *g)
{
    g->ndim = t->ndim;
    memcpy(g->shape, t->shape, sizeof(int64_t) * (size_t)t->ndim);
    ta_cu_strides(t, g->strides);
    g->offset = (int64_t)t->byte_offset;
}

static int64_t elsize(const DLTensor *t) { return (int64_t)ta_dtype_size(t->dtype); }

static ta_status make_view(ta_kernel_ctx *ctx, ta_stack *st, const char *name, const DLTensor *base, const geom *g)
{
    if (g->offset < 0) return ta_kernel_error(ctx, "%s: the view would start before its storage", name);
    DLTensor *v;
    if (ta_kernel_view(ctx, base, g->ndim, g->shape, g->strides, (uint64_t)g->offset, &v) != TA_OK)
        return ta_kernel_error(ctx, "%s: the view does not fit in its base's storage", name);
    return ta_cu_return(st, v);
}

static ta_status restride(ta_kernel_ctx *ctx, ta_stack *st, const char *name, DLTensor *self, const geom *g)
{
    if (g->offset < 0 ||
        ta_kernel_restride(ctx, self, g->ndim, g->shape, g->strides, (uint64_t)g->offset) != TA_OK)
        return ta_kernel_error(ctx, "%s: the new geometry does not fit in self's storage", name);
    return ta_cu_return(st, self);
}

/* Computes the geometry of a view of self (argument 0) from the stack. */
typedef ta_status (*geom_fn)(ta_kernel_ctx *ctx, ta_stack *st, const char *name, DLTensor *x, geom *g);

/* A view op that only computes a geometry (most of them): the registered
 * user data says which, under what name, and whether the result is a new
 * view of self or self restrided in place. */
typedef struct view_desc {
    const char *name;
    geom_fn geom;
    bool inplace;
} view_desc;

static ta_status view_kernel(ta_kernel_ctx *ctx, ta_stack *st)
{
    const view_desc *d = ta_kernel_user_data(ctx);
    DLTensor *x = ta_stack_tensor(st, 0);
    geom g;
    TA_CU_TRY(d->geom(ctx, st, d->name, x, &g));
    return d->inplace ? restride(ctx, st, d->name, x, &g) : make_view(ctx, st, d->name, x, &g);
}

/* A dimension index wrapped into [0, ndim) (a 0-dim tensor takes -1 and 0). */
static ta_status wrap_dim(ta_kernel_ctx *ctx, const char *name, int64_t dim, int ndim, int *out)
{
    int64_t n = ndim > 0 ? ndim : 1;
    if (dim < -n || dim >= n)
        return ta_kernel_error(ctx, "%s: dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                               name, (long long)-n, (long long)(n - 1), (long long)dim);
    *out = (int)(dim < 0 ? dim + n : dim);
    return TA_OK;
}

static ta_status int_list(ta_kernel_ctx *ctx, ta_stack *st, size_t i, const char *name, const char *arg,
                          const int64_t **items, size_t *n)
{
    const ta_value *v = ta_stack_at(st, i);
    if (!v || v->tag != TA_VAL_INT_LIST)
        return ta_kernel_error(ctx, "%s: argument '%s' must be a list of ints", name, arg);
    if (v->u.ints.n > TA_CU_MAXDIM)
        return ta_kernel_error(ctx, "%s: '%s' has %zu entries; the CUDA reference kernels take at most %d", name, arg,
                               v->u.ints.n, TA_CU_MAXDIM);
    *items = v->u.ints.items;
    *n = v->u.ints.n;
    return TA_OK;
}

static void drop_dim(geom *g, int d)
{
    for (int i = d; i + 1 < g->ndim; i++) {
        g->shape[i] = g->shape[i + 1];
        g->strides[i] = g->strides[i + 1];
    }
    g->ndim--;
}

/* ---- view and reshape ---- */

/* The requested shape with a single -1 inferred from numel. */
static ta_status infer_shape(ta_kernel_ctx *ctx, const char *name, const int64_t *req, size_t n, int64_t numel,
                             geom *g)
{
    int64_t known = 1;
    int infer = -1;
    for (size_t i = 0; i < n; i++) {
        if (req[i] == -1) {
            if (infer >= 0) return ta_kernel_error(ctx, "%s: only one dimension can be inferred", name);
            infer = (int)i;
        } else if (req[i] < 0) {
            return ta_kernel_error(ctx, "%s: invalid shape dimension %lld", name, (long long)req[i]);
        } else {
            known *= req[i];
        }
        g->shape[i] = req[i];
    }
    g->ndim = (int)n;
    if (infer >= 0) {
        if (known == 0 || numel % known != 0)
            return ta_kernel_error(ctx, "%s: shape is invalid for input of size %lld", name, (long long)numel);
        g->shape[infer] = numel / known;
    } else if (known != numel) {
        return ta_kernel_error(ctx, "%s: shape is invalid for input of size %lld", name, (long long)numel);
    }
    return TA_OK;
}

/* Strides giving the new shape over the old tensor's memory, when they
 * exist. The old dimensions are grouped into chunks that are contiguous
 * with each other; each chunk must be split into whole new dimensions. */
static bool view_strides(const geom *old, geom *g, int64_t numel)
{
    if (numel == 0 || old->ndim == 0) {
        int64_t s = 1;
        for (int d = g->ndim - 1; d >= 0; d--) {
            g->strides[d] = s;
            s *= g->shape[d] > 0 ? g->shape[d] : 1;
        }
        return true;
    }
    int nd = g->ndim - 1;
    int64_t base = old->strides[old->ndim - 1];
    int64_t chunk = 1, covered = 1;
    for (int od = old->ndim - 1; od >= 0; od--) {
        chunk *= old->shape[od];
        bool chunk_ends = od == 0 || (old->shape[od - 1] != 1 && old->strides[od - 1] != chunk * base);
        if (!chunk_ends) continue;
        while (nd >= 0 && (covered < chunk || g->shape[nd] == 1)) {
            g->strides[nd] = covered * base;
            covered *= g->shape[nd];
            nd--;
        }
        if (covered != chunk) return false;
        if (od > 0) {
            base = old->strides[od - 1];
            chunk = 1;
            covered = 1;
        }
    }
    return nd == -1;
}

/* The shape argument of view/reshape, or the shape of `other` for the _as forms. */
static ta_status target_shape(ta_kernel_ctx *ctx, ta_stack *st, const char *name, bool as, const int64_t **req,
                              size_t *n)
{
    if (!as) return int_list(ctx, st, 1, name, "size", req, n);
    const DLTensor *other = ta_stack_tensor(st, 1);
    TA_CU_TRY(ta_cu_check(ctx, name, "other", other));
    *req = other->shape;
    *n = (size_t)other->ndim;
    return TA_OK;
}

static ta_status view_or_reshape(ta_kernel_ctx *ctx, ta_stack *st, const char *name, bool may_copy, bool as)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    TA_CU_TRY(ta_cu_check(ctx, name, "self", x));
    const int64_t *req;
    size_t n;
    TA_CU_TRY(target_shape(ctx, st, name, as, &req, &n));
    geom old, g;
    geom_of(x, &old);
    int64_t numel = ta_numel(x);
    TA_CU_TRY(infer_shape(ctx, name, req, n, numel, &g));
    g.offset = old.offset;
    if (view_strides(&old, &g, numel)) return make_view(ctx, st, name, x, &g);
    if (!may_copy)
        return ta_kernel_error(ctx, "%s: view size is not compatible with input tensor's size and stride (at least "
                                    "one dimension spans across two contiguous subspaces); use reshape instead",
                               name);
    /* reshape of a tensor no strides can express: a contiguous copy, read in
     * self's logical order (which is the new shape's contiguous order). */
    DLTensor *out;
    if (ta_kernel_empty(ctx, x->dtype, g.ndim, g.shape, &out) != TA_OK)
        return ta_kernel_error(ctx, "%s: out of device memory", name);
    int64_t cst[TA_CU_MAXDIM], s = 1;
    for (int d = x->ndim - 1; d >= 0; d--) {
        cst[d] = s;
        s *= x->shape[d];
    }
    DLTensor flat = *out;
    flat.ndim = x->ndim;
    flat.shape = x->shape;
    flat.strides = cst;
    TA_CU_TRY(ta_cu_copy_into(ctx, name, &flat, x));
    return ta_cu_return(st, out);
}

static ta_status view_fn(ta_kernel_ctx *ctx, ta_stack *st) { return view_or_reshape(ctx, st, "view", false, false); }
static ta_status reshape_fn(ta_kernel_ctx *ctx, ta_stack *st)
{
    return view_or_reshape(ctx, st, "reshape", true, false);
}
static ta_status view_as_fn(ta_kernel_ctx *ctx, ta_stack *st) { return view_or_reshape(ctx, st, "view_as", false, true); }
static ta_status reshape_as_fn(ta_kernel_ctx *ctx, ta_stack *st)
{
    return view_or_reshape(ctx, st, "reshape_as", true, true);
}

/* ---- transpose, t, permute ---- */

static ta_status transposed(ta_kernel_ctx *ctx, ta_stack *st, const char *name, DLTensor *x, int64_t d0,
                            int64_t d1, geom *g)
{
    int a = 0, b = 0;
    TA_CU_TRY(ta_cu_check(ctx, name, "self", x));
    TA_CU_TRY(wrap_dim(ctx, name, d0, x->ndim, &a));
    TA_CU_TRY(wrap_dim(ctx, name, d1, x->ndim, &b));
    geom_of(x, g);
    if (x->ndim == 0) return TA_OK;
    int64_t t = g->shape[a];
    g->shape[a] = g->shape[b];
    g->shape[b] = t;
    t = g->strides[a];
    g->strides[a] = g->strides[b];
    g->strides[b] = t;
    (void)st;
    return TA_OK;
}

/* transpose(self, dim0, dim1) */
static ta_status transposed_args(ta_kernel_ctx *ctx, ta_stack *st, const char *name, DLTensor *x, geom *g)
{
    return transposed(ctx, st, name, x, ta_stack_int(st, 1, 0), ta_stack_int(st, 2, 0), g);
}

static ta_status t_geom(ta_kernel_ctx *ctx, ta_stack *st, const char *name, DLTensor *x, geom *g)
{
    TA_CU_TRY(ta_cu_check(ctx, name, "self", x));
    if (x->ndim > 2)
        return ta_kernel_error(ctx, "%s: expects a tensor with <= 2 dimensions, but self is %dD", name, x->ndim);
    return transposed(ctx, st, name, x, 0, x->ndim == 2 ? 1 : 0, g);
}

static ta_status permute_fn(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    TA_CU_TRY(ta_cu_check(ctx, "permute", "self", x));
    const int64_t *dims;
    size_t n;
    TA_CU_TRY(int_list(ctx, st, 1, "permute", "dims", &dims, &n));
    if ((int)n != x->ndim)
        return ta_kernel_error(ctx, "permute: number of dims don't match in permute (%zu given, tensor has %d)", n,
                               x->ndim);
    geom old, g;
    geom_of(x, &old);
    g = old;
    bool seen[TA_CU_MAXDIM] = {false};
    for (size_t i = 0; i < n; i++) {
        int d = 0;
        TA_CU_TRY(wrap_dim(ctx, "permute", dims[i], x->ndim, &d));
        if (seen[d]) return ta_kernel_error(ctx, "permute: repeated dim %d in permute", d);
        seen[d] = true;
        g.shape[i] = old.shape[d];
        g.strides[i] = old.strides[d];
    }
    return make_view(ctx, st, "permute", x, &g);
}

/* ---- select, slice, narrow, diagonal ---- */

/* Checks self (a tensor of at least one dimension) and wraps its dimension
 * argument (argument 1) into *d: how select, slice and narrow begin. */
static ta_status along_dim(ta_kernel_ctx *ctx, ta_stack *st, const char *name, const DLTensor *x, int *d)
{
    TA_CU_TRY(ta_cu_check(ctx, name, "self", x));
    if (x->ndim == 0) return ta_kernel_error(ctx, "%s: cannot be applied to a 0-dim tensor", name);
    return wrap_dim(ctx, name, ta_stack_int(st, 1, 0), x->ndim, d);
}

static ta_status selected(ta_kernel_ctx *ctx, ta_stack *st, const char *name, DLTensor *x, geom *g)
{
    int d = 0;
    TA_CU_TRY(along_dim(ctx, st, name, x, &d));
    int64_t index = ta_stack_int(st, 2, 0), size = x->shape[d];
    if (index < -size || index >= size)
        return ta_kernel_error(ctx, "%s: index %lld out of range for tensor of size %lld at dimension %d", name,
                               (long long)index, (long long)size, d);
    if (index < 0) index += size;
    geom_of(x, g);
    g->offset += index * g->strides[d] * elsize(x);
    drop_dim(g, d);
    return TA_OK;
}

static ta_status sliced(ta_kernel_ctx *ctx, ta_stack *st, const char *name, DLTensor *x, geom *g)
{
    int d = 0;
    TA_CU_TRY(along_dim(ctx, st, name, x, &d));
    int64_t size = x->shape[d];
    int64_t start = ta_stack_is_none(st, 2) ? 0 : ta_stack_int(st, 2, 0);
    int64_t end = ta_stack_is_none(st, 3) ? INT64_MAX : ta_stack_int(st, 3, INT64_MAX);
    int64_t step = ta_stack_int(st, 4, 1);
    if (step <= 0) return ta_kernel_error(ctx, "%s: slice step must be positive", name);
    /* Negative bounds count from the end; then both clamp into [0, size]. */
    if (start < 0) start += size;
    if (end < 0) end += size;
    if (start < 0) start = 0;
    if (start > size) start = size;
    if (end < start) end = start;
    if (end > size) end = size;
    geom_of(x, g);
    g->offset += start * g->strides[d] * elsize(x);
    g->shape[d] = (end - start + step - 1) / step;
    g->strides[d] *= step;
    return TA_OK;
}

static ta_status narrowed(ta_kernel_ctx *ctx, ta_stack *st, const char *name, DLTensor *x, geom *g)
{
    int d = 0;
    TA_CU_TRY(along_dim(ctx, st, name, x, &d));
    int64_t size = x->shape[d], start = ta_stack_int(st, 2, 0), length = ta_stack_int(st, 3, 0);
    if (start < -size || start > size)
        return ta_kernel_error(ctx, "%s: start (%lld) out of range for dimension %d of size %lld", name,
                               (long long)start, d, (long long)size);
    if (start < 0) start += size;
    if (length < 0 || start + length > size)
        return ta_kernel_error(ctx, "%s: start (%lld) + length (%lld) exceeds dimension size (%lld)", name,
                               (long long)start, (long long)length, (long long)size);
    geom_of(x, g);
    g->offset += start * g->strides[d] * elsize(x);
    g->shape[d] = length;
    return TA_OK;
}

static ta_status diagonal_fn(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    TA_CU_TRY(ta_cu_check(ctx, "diagonal", "self", x));
    if (x->ndim < 2) return ta_kernel_error(ctx, "diagonal: expects a tensor with at least 2 dimensions");
    int64_t off = ta_stack_int(st, 1, 0);
    int a = 0, b = 0;
    TA_CU_TRY(wrap_dim(ctx, "diagonal", ta_stack_int(st, 2, 0), x->ndim, &a));
    TA_CU_TRY(wrap_dim(ctx, "diagonal", ta_stack_int(st, 3, 1), x->ndim, &b));
    if (a == b) return ta_kernel_error(ctx, "diagonal: dimensions cannot be identical %d, %d", a, b);
    geom g;
    geom_of(x, &g);
    int64_t len = off >= 0 ? (g.shape[a] < g.shape[b] - off ? g.shape[a] : g.shape[b] - off)
                           : (g.shape[a] + off < g.shape[b] ? g.shape[a] + off : g.shape[b]);
    if (len < 0) len = 0;
    if (len > 0) g.offset += (off >= 0 ? off * g.strides[b] : -off * g.strides[a]) * elsize(x);
    int64_t dstride = g.strides[a] + g.strides[b];
    drop_dim(&g, a > b ? a : b);
    drop_dim(&g, a > b ? b : a);
    g.shape[g.ndim] = len;
    g.strides[g.ndim] = dstride;
    g.ndim++;
    return make_view(ctx, st, "diagonal", x, &g);
}

/* ---- expand, squeeze, unsqueeze ---- */

static ta_status expand_common(ta_kernel_ctx *ctx, ta_stack *st, bool as)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    TA_CU_TRY(ta_cu_check(ctx, "expand", "self", x));
    const int64_t *size;
    size_t n;
    TA_CU_TRY(target_shape(ctx, st, "expand", as, &size, &n));
    if ((int)n < x->ndim)
        return ta_kernel_error(ctx, "expand: the number of sizes provided (%zu) must be greater or equal to the "
                                    "number of dimensions in the tensor (%d)",
                               n, x->ndim);
    geom old, g;
    geom_of(x, &old);
    g.ndim = (int)n;
    g.offset = old.offset;
    for (int i = (int)n - 1; i >= 0; i--) {
        int od = x->ndim - (int)n + i;
        int64_t want = size[i];
        if (od < 0) {
            if (want < 0)
                return ta_kernel_error(ctx, "expand: the expanded size of the tensor (%lld) isn't allowed in a "
                                            "leading, non-existing dimension %d",
                                       (long long)want, i);
            g.shape[i] = want;
            g.strides[i] = 0;
            continue;
        }
        if (want == -1) want = old.shape[od];
        if (want < 0) return ta_kernel_error(ctx, "expand: invalid size %lld", (long long)want);
        if (old.shape[od] == want) {
            g.shape[i] = want;
            g.strides[i] = old.strides[od];
        } else if (old.shape[od] == 1) {
            g.shape[i] = want;
            g.strides[i] = 0;
        } else {
            return ta_kernel_error(ctx, "expand: the expanded size of the tensor (%lld) must match the existing "
                                        "size (%lld) at non-singleton dimension %d",
                                   (long long)want, (long long)old.shape[od], i);
        }
    }
    return make_view(ctx, st, "expand", x, &g);
}

static ta_status expand_fn(ta_kernel_ctx *ctx, ta_stack *st) { return expand_common(ctx, st, false); }
static ta_status expand_as_fn(ta_kernel_ctx *ctx, ta_stack *st) { return expand_common(ctx, st, true); }

static ta_status squeezed(ta_kernel_ctx *ctx, ta_stack *st, const char *name, DLTensor *x, geom *g)
{
    int d = 0;
    TA_CU_TRY(ta_cu_check(ctx, name, "self", x));
    TA_CU_TRY(wrap_dim(ctx, name, ta_stack_int(st, 1, 0), x->ndim, &d));
    geom_of(x, g);
    if (x->ndim > 0 && g->shape[d] == 1) drop_dim(g, d);
    return TA_OK;
}

/* squeeze() without a dim drops every dimension of size one. */
static ta_status squeezed_all(ta_kernel_ctx *ctx, ta_stack *st, const char *name, DLTensor *x, geom *g)
{
    (void)st;
    TA_CU_TRY(ta_cu_check(ctx, name, "self", x));
    geom_of(x, g);
    for (int d = g->ndim - 1; d >= 0; d--)
        if (g->shape[d] == 1) drop_dim(g, d);
    return TA_OK;
}

static ta_status unsqueezed(ta_kernel_ctx *ctx, ta_stack *st, const char *name, DLTensor *x, geom *g)
{
    int d = 0;
    TA_CU_TRY(ta_cu_check(ctx, name, "self", x));
    if (x->ndim >= TA_CU_MAXDIM)
        return ta_kernel_error(ctx, "%s: the CUDA reference kernels take at most %d dimensions", name, TA_CU_MAXDIM);
    TA_CU_TRY(wrap_dim(ctx, name, ta_stack_int(st, 1, 0), x->ndim + 1, &d));
    geom_of(x, g);
    /* The new dimension's stride makes the tensor as contiguous as before. */
    int64_t stride = d < x->ndim ? g->shape[d] * g->strides[d] : 1;
    for (int i = g->ndim; i > d; i--) {
        g->shape[i] = g->shape[i - 1];
        g->strides[i] = g->strides[i - 1];
    }
    g->shape[d] = 1;
    g->strides[d] = stride;
    g->ndim++;
    return TA_OK;
}

/* ---- as_strided, alias, detach ---- */

static ta_status strided(ta_kernel_ctx *ctx, ta_stack *st, const char *name, DLTensor *x, geom *g)
{
    TA_CU_TRY(ta_cu_check(ctx, name, "self", x));
    const int64_t *size, *stride;
    size_t n, m;
    TA_CU_TRY(int_list(ctx, st, 1, name, "size", &size, &n));
    TA_CU_TRY(int_list(ctx, st, 2, name, "stride", &stride, &m));
    if (n != m)
        return ta_kernel_error(ctx, "%s: mismatch in length of strides and shape (%zu and %zu)", name, m, n);
    for (size_t i = 0; i < n; i++) {
        if (size[i] < 0) return ta_kernel_error(ctx, "%s: negative size %lld", name, (long long)size[i]);
        if (stride[i] < 0) return ta_kernel_error(ctx, "%s: negative strides are not supported", name);
        g->shape[i] = size[i];
        g->strides[i] = stride[i];
    }
    g->ndim = (int)n;
    int64_t el = elsize(x);
    int64_t offset = ta_stack_is_none(st, 3) ? (int64_t)x->byte_offset / el : ta_stack_int(st, 3, 0);
    if (offset < 0) return ta_kernel_error(ctx, "%s: negative storage offset %lld", name, (long long)offset);
    g->offset = offset * el;
    return TA_OK;
}

static ta_status same_geometry(ta_kernel_ctx *ctx, ta_stack *st, const char *name, DLTensor *x, geom *g)
{
    (void)st;
    TA_CU_TRY(ta_cu_check(ctx, name, "self", x));
    geom_of(x, g);
    return TA_OK;
}

/* detach_ only drops autograd history, which tensoralias does not model: self, unchanged. */
static ta_status detach_inplace(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    TA_CU_TRY(ta_cu_check(ctx, "detach_", "self", x));
    return ta_cu_return(st, x);
}

/* ---- registration ---- */

/* view_kernel's lines carry their view_desc. */
static const ta_cu_entry table[] = {
    {"aten::view", view_fn, NULL},
    {"aten::reshape", reshape_fn, NULL},
    {"aten::transpose.int", view_kernel, &(const view_desc){"transpose", transposed_args, false}},
    {"aten::transpose_", view_kernel, &(const view_desc){"transpose_", transposed_args, true}},
    {"aten::t", view_kernel, &(const view_desc){"t", t_geom, false}},
    {"aten::permute", permute_fn, NULL},
    {"aten::select.int", view_kernel, &(const view_desc){"select", selected, false}},
    {"aten::slice.Tensor", view_kernel, &(const view_desc){"slice", sliced, false}},
    {"aten::narrow", view_kernel, &(const view_desc){"narrow", narrowed, false}},
    {"aten::expand", expand_fn, NULL},
    {"aten::squeeze.dim", view_kernel, &(const view_desc){"squeeze", squeezed, false}},
    {"aten::squeeze_.dim", view_kernel, &(const view_desc){"squeeze_", squeezed, true}},
    {"aten::unsqueeze", view_kernel, &(const view_desc){"unsqueeze", unsqueezed, false}},
    {"aten::unsqueeze_", view_kernel, &(const view_desc){"unsqueeze_", unsqueezed, true}},
    {"aten::as_strided", view_kernel, &(const view_desc){"as_strided", strided, false}},
    {"aten::as_strided_", view_kernel, &(const view_desc){"as_strided_", strided, true}},
    {"aten::diagonal", diagonal_fn, NULL},
    {"aten::alias", view_kernel, &(const view_desc){"alias", same_geometry, false}},
    {"aten::detach", view_kernel, &(const view_desc){"detach", same_geometry, false}},
    /* the rest of the family both corpora declare */
    {"aten::view_as", view_as_fn, NULL},
    {"aten::reshape_as", reshape_as_fn, NULL},
    {"aten::expand_as", expand_as_fn, NULL},
    {"aten::t_", view_kernel, &(const view_desc){"t_", t_geom, true}},
    {"aten::squeeze", view_kernel, &(const view_desc){"squeeze", squeezed_all, false}},
    {"aten::squeeze_", view_kernel, &(const view_desc){"squeeze_", squeezed_all, true}},
    {"aten::detach_", detach_inplace, NULL},
};

ta_status ta_cu_register_views(ta_registry *reg)
{
    return ta_cu_register_table(reg, table, sizeof table / sizeof table[0]);
}
