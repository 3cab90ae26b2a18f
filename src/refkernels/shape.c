/* shape.c - operators that join or cut tensors: cat, stack (with out=), and
 * the list-returning views split.Tensor, split.sizes, split_with_sizes,
 * chunk, unbind.int, with their *_copy and *_copy out= forms.
 *
 * Joins promote the inputs' dtypes (result_type over the list) and copy each
 * input into a slice of the output described locally. Cuts compute the
 * pieces as (start, length) along one dim and deliver each as a view of self
 * (ta_kernel_view), a fresh copy, or a copy into the matching out tensor.
 */
#include <stdlib.h>
#include <string.h>

#include "rk.h"

/* t restricted to [start, start+len) along dim, as a local (untracked) descriptor. */
static void sub_tensor(const DLTensor *t, int dim, int64_t start, int64_t len, DLTensor *out, int64_t *shape,
                       int64_t *strides)
{
    *out = *t;
    rk_dims_copy(shape, t->shape, t->ndim);
    rk_get_strides(t, strides);
    shape[dim] = len;
    out->shape = shape;
    out->strides = strides;
    out->byte_offset = t->byte_offset + (uint64_t)(start * strides[dim]) * rk_size(rk_dtype_of(t->dtype));
}

/* ---- cat / stack -------------------------------------------------------------------- */

typedef enum join_form { CAT, STACK } join_form;

/* Every item is a tensor; stack's are all the same size, cat's have a dim.
 * *ref gets cat's first item that is not a legacy 1-d empty tensor (NULL
 * when all are), rt the items' promoted type. */
static bool check_items(ta_kernel_ctx *ctx, const char *name, join_form form, DLTensor **ts,
                        size_t n, rk_rtype *rt, const DLTensor **ref)
{
    char a[256], b[256];
    rk_rtype_init(rt);
    *ref = NULL;
    for (size_t k = 0; k < n; k++) {
        if (!rk_check_tensor(ctx, name, "tensors", ts[k])) return false;
        rk_rtype_tensor(rt, ts[k]);
        if (form == STACK) {
            if (k > 0 && !rk_shape_eq(ts[k], ts[0]->ndim, ts[0]->shape))
                return ta_kernel_error(ctx, "stack: stack expects each tensor to be equal size, but got %s at entry 0 "
                                       "and %s at entry %zu",
                                       rk_shape_str(a, sizeof a, ts[0]->ndim, ts[0]->shape),
                                       rk_shape_str(b, sizeof b, ts[k]->ndim, ts[k]->shape), k),
                       false;
            continue;
        }
        if (ts[k]->ndim == 0)
            return ta_kernel_error(ctx, "cat: zero-dimensional tensor (at position %zu) cannot be concatenated", k),
                   false;
        if (!*ref && !(ts[k]->ndim == 1 && ts[k]->shape[0] == 0)) *ref = ts[k];
    }
    return true;
}

/* stack's result: the items' shape with a new dim of n at dim. */
static bool stack_shape(ta_kernel_ctx *ctx, DLTensor **ts, size_t n, int64_t *dim, int *nd, int64_t *shape)
{
    if (ts[0]->ndim >= RK_MAXDIM) return ta_kernel_error(ctx, "stack: too many dimensions"), false;
    if (!rk_wrap_dim(ctx, "stack", dim, ts[0]->ndim + 1)) return false;
    *nd = ts[0]->ndim + 1;
    for (int d = 0, s = 0; d < *nd; d++) shape[d] = d == *dim ? (int64_t)n : ts[0]->shape[s++];
    return true;
}

/* cat's result: ref's shape with the items' sizes along dim summed (legacy
 * 1-d empty tensors skipped; all of them: a 1-d empty result); the other
 * sizes must match. */
static bool cat_shape(ta_kernel_ctx *ctx, DLTensor **ts, size_t n, const DLTensor *ref, int64_t *dim,
                      int *nd, int64_t *shape)
{
    if (!ref) {
        *nd = 1;
        shape[0] = 0;
        return rk_wrap_dim(ctx, "cat", dim, 1);
    }
    if (!rk_wrap_dim(ctx, "cat", dim, ref->ndim)) return false;
    *nd = ref->ndim;
    rk_dims_copy(shape, ref->shape, *nd);
    shape[*dim] = 0;
    for (size_t k = 0; k < n; k++) {
        const DLTensor *t = ts[k];
        if (t->ndim == 1 && t->shape[0] == 0) continue;
        if (t->ndim != *nd)
            return ta_kernel_error(ctx, "cat: Tensors must have same number of dimensions: got %d and %d", *nd,
                                   t->ndim),
                   false;
        for (int d = 0; d < *nd; d++)
            if (d != *dim && t->shape[d] != ref->shape[d])
                return ta_kernel_error(ctx, "cat: Sizes of tensors must match except in dimension %lld. Expected "
                                       "size %lld but got size %lld for tensor number %zu in the list.",
                                       (long long)*dim, (long long)ref->shape[d], (long long)t->shape[d], k),
                       false;
        shape[*dim] += t->shape[*dim];
    }
    return true;
}

/* Copies each item into its part of y: stack's k-th slot along dim (dim
 * dropped: the item's shape exactly), cat's next run along dim. */
static void copy_parts(DLTensor *y, join_form form, DLTensor **ts, size_t n, const DLTensor *ref, int dim)
{
    int64_t cursor = 0, sh[RK_MAXDIM], sd[RK_MAXDIM];
    DLTensor part;
    for (size_t k = 0; k < n; k++) {
        const DLTensor *t = ts[k];
        if (form == STACK) {
            sub_tensor(y, dim, (int64_t)k, 1, &part, sh, sd);
            for (int d = dim; d + 1 < y->ndim; d++) sh[d] = sh[d + 1], sd[d] = sd[d + 1];
            part.ndim = y->ndim - 1;
        } else {
            if (t->ndim == 1 && t->shape[0] == 0 && ref) continue;
            sub_tensor(y, dim, cursor, t->shape[dim], &part, sh, sd);
            cursor += t->shape[dim];
        }
        rk_copy(&part, t);
    }
}

/* cat and stack, functional or out=. */
static ta_status join(ta_kernel_ctx *ctx, ta_stack *st, join_form form, rk_mode mode)
{
    const char *name = form == STACK ? "stack" : "cat";
    DLTensor **ts;
    size_t n;
    if (!rk_tensors(st, 0, &ts, &n)) return ta_kernel_error(ctx, "%s: expected a tensor list", name);
    if (n == 0)
        return ta_kernel_error(ctx, form == STACK ? "stack: stack expects a non-empty TensorList"
                                                  : "cat: torch.cat(): expected a non-empty list of Tensors");
    int64_t dim = rk_int(st, 1, 0);
    rk_rtype rt;
    const DLTensor *ref;
    if (!check_items(ctx, name, form, ts, n, &rt, &ref)) return TA_ERR_KERNEL;
    /* rk_dtype of every item is known to be supported now */
    rk_dtype r = rk_rtype_result(&rt);
    int nd;
    int64_t shape[RK_MAXDIM];
    if (!(form == STACK ? stack_shape(ctx, ts, n, &dim, &nd, shape) : cat_shape(ctx, ts, n, ref, &dim, &nd, shape)))
        return TA_ERR_KERNEL;
    DLTensor *y = rk_output(ctx, name, mode, mode == RK_OUT ? ta_stack_tensor(st, 2) : NULL, r, nd, shape);
    if (!y) return TA_ERR_KERNEL;
    copy_parts(y, form, ts, n, ref, (int)dim);
    return rk_return1(st, y);
}

static ta_status k_cat(ta_kernel_ctx *c, ta_stack *s) { return join(c, s, CAT, RK_FUNC); }
static ta_status k_cat_out(ta_kernel_ctx *c, ta_stack *s) { return join(c, s, CAT, RK_OUT); }
static ta_status k_stack(ta_kernel_ctx *c, ta_stack *s) { return join(c, s, STACK, RK_FUNC); }
static ta_status k_stack_out(ta_kernel_ctx *c, ta_stack *s) { return join(c, s, STACK, RK_OUT); }

/* ---- split family ---------------------------------------------------------------------- */

enum { S_SPLIT, S_SIZES, S_CHUNK, S_UNBIND };
enum { D_VIEW, D_COPY, D_COPY_OUT };

typedef struct svar { const char *name; int kind; } svar;

/* How a dim of `size` is cut: n pieces of `each` (the last one shorter),
 * or of the given sizes. */
typedef struct cutting {
    int64_t n, each;
    const int64_t *sizes; /* split_with_sizes: n of them, else NULL */
} cutting;

/* chunk: `chunks` pieces as equal as can be (size 0: that many empty ones). */
static bool cut_chunks(ta_kernel_ctx *ctx, ta_stack *st, int64_t size, cutting *c)
{
    int64_t chunks = rk_int(st, 1, 1);
    if (chunks <= 0)
        return ta_kernel_error(ctx, "chunk: chunk expects `chunks` to be greater than 0, got: %lld",
                               (long long)chunks),
               false;
    c->each = size == 0 ? 0 : (size - 1) / chunks + 1;
    c->n = size == 0 ? chunks : (size - 1) / c->each + 1;
    return true;
}

/* split: pieces of split_size (0 only for an empty dim). */
static bool cut_split(ta_kernel_ctx *ctx, ta_stack *st, int64_t size, cutting *c)
{
    c->each = rk_int(st, 1, 0);
    if (c->each < 0)
        return ta_kernel_error(ctx, "split: split expects split_size be non-negative, but got split_size=%lld",
                               (long long)c->each),
               false;
    if (c->each == 0 && size != 0)
        return ta_kernel_error(ctx, "split: split_size can only be 0 if dimension size is 0, but got dimension size of %lld",
                               (long long)size),
               false;
    c->n = size == 0 ? 1 : (size - 1) / c->each + 1;
    return true;
}

/* split_with_sizes: the sizes given, which must sum to the dim's size. */
static bool cut_sizes(ta_kernel_ctx *ctx, ta_stack *st, const svar *v, int64_t size, int64_t d, cutting *c)
{
    size_t ns = 0;
    int64_t one;
    if (!rk_ints(st, 1, &c->sizes, &ns, &one))
        return ta_kernel_error(ctx, "%s: expected an int list for split_sizes", v->name), false;
    int64_t sum = 0;
    for (size_t k = 0; k < ns; k++) {
        if (c->sizes[k] < 0 || __builtin_add_overflow(sum, c->sizes[k], &sum)) sum = -1;
        if (sum < 0) break;
    }
    if (sum != size)
        return ta_kernel_error(ctx, "%s: split_with_sizes expects split_sizes to sum exactly to %lld (input tensor's size "
                               "at dimension %lld), and every size to be non-negative", v->name, (long long)size,
                               (long long)d),
               false;
    c->n = (int64_t)ns;
    return true;
}

/* The pieces as (start, len) pairs, malloc'ed. */
static int64_t *lay_pieces(const cutting *c, int64_t size)
{
    int64_t *p = malloc(sizeof *p * 2 * (size_t)(c->n > 0 ? c->n : 1));
    if (!p) return NULL;
    int64_t start = 0;
    for (int64_t k = 0; k < c->n; k++) {
        int64_t len = c->sizes ? c->sizes[k] : c->each;
        if (len > size - start) len = size - start; /* the short last piece */
        if (len < 0) len = 0;
        p[2 * k] = start;
        p[2 * k + 1] = len;
        start += len;
    }
    return p;
}

/* The pieces of x along *dim as (start, len) pairs; *np pieces, malloc'ed
 * in *pieces. */
static bool plan(ta_kernel_ctx *ctx, ta_stack *st, const svar *v, const DLTensor *x, int64_t *dim,
                 int64_t **pieces, size_t *np)
{
    int64_t d = rk_int(st, v->kind == S_UNBIND ? 1 : 2, 0);
    if (x->ndim == 0)
        return ta_kernel_error(ctx, "%s: %s expects at least a 1-dimensional tensor", v->name, v->name), false;
    if (!rk_wrap_dim(ctx, v->name, &d, x->ndim)) return false;
    *dim = d;
    int64_t size = x->shape[d];
    cutting c = {.n = size, .each = 1}; /* unbind */
    bool ok = v->kind == S_UNBIND ? true
            : v->kind == S_CHUNK  ? cut_chunks(ctx, st, size, &c)
            : v->kind == S_SPLIT  ? cut_split(ctx, st, size, &c)
                                  : cut_sizes(ctx, st, v, size, d, &c);
    if (!ok) return false;
    if (c.n > ((int64_t)1 << 24))
        return ta_kernel_error(ctx, "%s: %lld pieces are more than this kernel supports", v->name, (long long)c.n),
               false;
    if (!(*pieces = lay_pieces(&c, size))) return rk_oom(ctx, v->name), false;
    *np = (size_t)c.n;
    return true;
}

static ta_status cut(ta_kernel_ctx *ctx, ta_stack *st, int how)
{
    const svar *v = ta_kernel_user_data(ctx);
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!rk_check_tensor(ctx, v->name, "self", x)) return TA_ERR_KERNEL;
    int64_t dim, *pieces;
    size_t n;
    if (!plan(ctx, st, v, x, &dim, &pieces, &n)) return TA_ERR_KERNEL;
    DLTensor **outs = NULL;
    size_t nouts = 0;
    if (how == D_COPY_OUT) {
        if (!rk_tensors(st, ta_stack_size(st) - 1, &outs, &nouts) || nouts != n) {
            free(pieces);
            return ta_kernel_error(ctx, "%s: expected an out list of %zu tensors", v->name, n);
        }
    }
    DLTensor **res = malloc(sizeof *res * (n ? n : 1));
    if (!res) {
        free(pieces);
        return rk_oom(ctx, v->name);
    }
    rk_dtype xd = rk_dtype_of(x->dtype);
    ta_status s = TA_OK;
    for (size_t k = 0; k < n && s == TA_OK; k++) {
        int64_t sh[RK_MAXDIM], sd[RK_MAXDIM];
        DLTensor part;
        sub_tensor(x, (int)dim, pieces[2 * k], pieces[2 * k + 1], &part, sh, sd);
        if (v->kind == S_UNBIND) { /* drop the dim */
            for (int d = (int)dim; d + 1 < x->ndim; d++) sh[d] = sh[d + 1], sd[d] = sd[d + 1];
            part.ndim = x->ndim - 1;
        }
        if (how == D_VIEW) {
            ta_status vs = ta_kernel_view(ctx, x, part.ndim, sh, sd, part.byte_offset, &res[k]);
            if (vs != TA_OK && rk_prod(part.ndim, sh) == 0) /* empty piece past the storage end */
                vs = ta_kernel_view(ctx, x, part.ndim, sh, sd, x->byte_offset, &res[k]);
            if (vs != TA_OK) s = ta_kernel_error(ctx, "%s: could not make a view", v->name);
        } else {
            res[k] = how == D_COPY ? rk_empty_like(ctx, &part, xd)
                                   : rk_output(ctx, v->name, RK_OUT_ANY, outs[k], xd, part.ndim, sh);
            if (!res[k]) s = how == D_COPY ? rk_oom(ctx, v->name) : TA_ERR_KERNEL;
            else rk_copy(res[k], &part);
        }
    }
    free(pieces);
    if (s == TA_OK) {
        if (how == D_COPY_OUT) ta_stack_clear(st); /* returns () */
        else s = rk_return_list(ctx, st, res, n);
    }
    free(res);
    return s;
}

static ta_status k_view(ta_kernel_ctx *c, ta_stack *s) { return cut(c, s, D_VIEW); }
static ta_status k_copy(ta_kernel_ctx *c, ta_stack *s) { return cut(c, s, D_COPY); }
static ta_status k_copy_out(ta_kernel_ctx *c, ta_stack *s) { return cut(c, s, D_COPY_OUT); }

static const svar SPLIT = {"split", S_SPLIT}, SIZES = {"split_with_sizes", S_SIZES}, CHUNK = {"chunk", S_CHUNK},
                  UNBIND = {"unbind", S_UNBIND};

static const rk_entry ENTRIES[] = {
    {"cat", k_cat, NULL}, {"cat.out", k_cat_out, NULL},
    {"stack", k_stack, NULL}, {"stack.out", k_stack_out, NULL},
    {"split.Tensor", k_view, &SPLIT}, {"split.sizes", k_view, &SIZES},
    {"split_with_sizes", k_view, &SIZES}, {"chunk", k_view, &CHUNK}, {"unbind.int", k_view, &UNBIND},
    {"split_copy.Tensor", k_copy, &SPLIT}, {"split_copy.Tensor_out", k_copy_out, &SPLIT},
    {"split_with_sizes_copy", k_copy, &SIZES}, {"split_with_sizes_copy.out", k_copy_out, &SIZES},
    {"unbind_copy.int", k_copy, &UNBIND}, {"unbind_copy.int_out", k_copy_out, &UNBIND},
    {NULL, NULL, NULL},
};

ta_status rk_register_shape(ta_registry *reg) { return rk_reg_table(reg, ENTRIES); }
