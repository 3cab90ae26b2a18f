/* synth.c - arguments for one verification case, from the schema and a seed.
 *
 * A case picks one dtype and one "main" shape for all its tensors (so that
 * elementwise and broadcasting operators accept them), a layout per tensor
 * (contiguous, transposed, sliced with a storage offset), and sometimes
 * makes arguments that share an alias set views of one another. Integer
 * arguments whose meaning is clear from their name (dim, start, length,
 * size, chunks...) get values that fit the main shape; everything else gets
 * its default or a plain value. out= arguments are filled with TA_FILL_BYTE
 * and are either the main shape or empty (so the kernel must resize them).
 * Matrix products (mm, bmm, addmm, baddbmm, addbmm, mv, addmv, addr, outer)
 * are the one exception to "one main shape": see matrix_plan.
 * The same seed always gives the same case. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/synth.h"
#include "exec/synth_plan.h"

uint64_t ta_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r) { return ta_mix64(r->s++); }
static int64_t below(rng *r, int64_t n) { return n <= 0 ? 0 : (int64_t)(next(r) % (uint64_t)n); }
static bool chance(rng *r, int pct) { return below(r, 100) < pct; }

typedef struct synth {
    ta_exec *x;
    const ta_schema *s;
    const ta_decl *d;
    ta_case *c;
    rng r;
    DLDataType dtype;
    int ndim;
    int64_t shape[TA_CASE_MAX_DIM];
    int layout_mode; /* 0 contiguous only, 1 mixed layouts */
    bool alias_views;
    int64_t last_dim; /* the last dim-like argument chosen, normalized; -1 if none */
    int64_t last_start;
    /* Matrix products: operand sizes b (batch), n x k times k x m, and what
     * `self` is (see matrix_plan). */
    bool matrix;
    bool self_is_left; /* mm, bmm, mv, outer: self is the left operand, not a bias */
    bool batched;      /* bmm, baddbmm, addbmm: 3-D operands */
    int64_t mb, mn, mk, mm;
    const ta_synth_plan *plan; /* what the names say (synth_plan.h) */
} synth;

static const int64_t shapes[][TA_CASE_MAX_DIM + 1] = {
    /* ndim, sizes... */
    {2, 3, 4}, {1, 5}, {0}, {2, 2, 3}, {3, 2, 3, 4}, {1, 0}, {2, 4, 0}, {2, 1, 3}, {2, 3, 1},
    {1, 7}, {2, 4, 4},
};

static bool name_is(const char *n, const char *const *names)
{
    for (; *names; names++)
        if (!strcmp(n, *names)) return true;
    return false;
}

static bool op_name_has(const synth *y, const char *part)
{
    char buf[128];
    size_t n = y->s->name.len < sizeof buf - 1 ? y->s->name.len : sizeof buf - 1;
    memcpy(buf, y->s->name.ptr, n);
    buf[n] = '\0';
    return strstr(buf, part) != NULL;
}

static int64_t numel_of(const int64_t *shape, int ndim)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++) n *= shape[i];
    return n;
}

/* ---- tensors ----------------------------------------------------------- */

static void write_value(DLDataType dt, void *p, rng *r, int64_t lo, int64_t hi, bool index)
{
    int64_t v = lo + below(r, hi - lo);
    if (dt.code == kDLFloat && !index) {
        double f = (double)(below(r, 33) - 16) / 4.0;
        if (below(r, 16) == 0) f = -0.0;
        if (dt.bits == 32) *(float *)p = (float)f;
        else *(double *)p = f;
    } else if (dt.code == kDLFloat) {
        if (dt.bits == 32) *(float *)p = (float)v;
        else *(double *)p = (double)v;
    } else if (dt.code == TA_DL_BOOL) {
        *(uint8_t *)p = (uint8_t)(below(r, 2));
    } else if (dt.bits == 64) {
        *(int64_t *)p = v;
    } else if (dt.bits == 32) {
        *(int32_t *)p = (int32_t)v;
    } else if (dt.bits == 16) {
        *(int16_t *)p = (int16_t)v;
    } else {
        *(int8_t *)p = (int8_t)v;
    }
}

/* Writes host bytes into a storage, through the device when it is not the CPU. */
static ta_status put_bytes(ta_exec *x, uint32_t sid, const void *host, size_t n)
{
    ta_storage_info si;
    if (!ta_exec_storage_get(x, sid, &si)) return TA_ERR_INVALID;
    if (!n) return TA_OK;
    char err[256];
    return x->dev->from_host(si.base, host, n, err, sizeof err) == 0 ? TA_OK : TA_ERR_IO;
}

/* A tensor of the given shape and dtype in a fresh storage: contiguous,
 * transposed (last two dimensions), or sliced (every other element of the
 * last dimension, one element in). Values in [lo, hi) for integer and index
 * tensors; fill: every byte TA_FILL_BYTE. */
static DLTensor *make_tensor(synth *y, DLDataType dt, int ndim, const int64_t *shape, int layout,
                             bool fill, int64_t lo, int64_t hi, bool index)
{
    ta_exec *x = y->x;
    size_t es = ta_dtype_size(dt);
    int64_t st[TA_CASE_MAX_DIM], sshape[TA_CASE_MAX_DIM];
    uint64_t off = 0;
    int64_t storage_elems;
    if (layout == 1 && ndim >= 2) {
        /* Storage laid out with the last two dimensions swapped. */
        memcpy(sshape, shape, (size_t)ndim * sizeof *sshape);
        sshape[ndim - 1] = shape[ndim - 2];
        sshape[ndim - 2] = shape[ndim - 1];
        int64_t s = 1, cs[TA_CASE_MAX_DIM];
        for (int d = ndim - 1; d >= 0; d--) {
            cs[d] = s;
            s *= sshape[d];
        }
        memcpy(st, cs, (size_t)ndim * sizeof *st);
        st[ndim - 1] = cs[ndim - 2];
        st[ndim - 2] = cs[ndim - 1];
        storage_elems = s;
    } else if (layout == 2) {
        /* Last dimension 2n+1 wide in storage, the view takes odd positions. */
        if (ndim) memcpy(sshape, shape, (size_t)ndim * sizeof *sshape);
        if (ndim) sshape[ndim - 1] = 2 * shape[ndim - 1] + 1;
        int64_t s = 1;
        for (int d = ndim - 1; d >= 0; d--) {
            st[d] = s;
            s *= sshape[d];
        }
        if (ndim) st[ndim - 1] = 2;
        storage_elems = s + 1;
        off = es;
    } else {
        int64_t s = 1;
        for (int d = ndim - 1; d >= 0; d--) {
            st[d] = s;
            s *= shape[d];
        }
        storage_elems = s;
    }
    size_t bytes = (size_t)storage_elems * es;
    uint32_t sid = ta_exec_storage_new(x, bytes);
    if (!sid) return NULL;
    DLTensor *t = ta_exec_tensor(x, sid, dt, ndim, shape, st, off);
    if (!t) return NULL;
    unsigned char *host = malloc(bytes ? bytes : 1);
    if (!host) return NULL;
    if (fill) {
        memset(host, TA_FILL_BYTE, bytes);
    } else {
        for (size_t i = 0; i < bytes; i++) host[i] = (unsigned char)next(&y->r);
        /* Element values through a host twin of t. */
        DLTensor h = *t;
        h.data = host;
        int64_t n = ta_numel(t);
        for (int64_t i = 0; i < n; i++) write_value(dt, ta_elem_ptr(&h, i), &y->r, lo, hi, index);
    }
    ta_status s = put_bytes(x, sid, host, bytes);
    free(host);
    return s == TA_OK ? t : NULL;
}

static int pick_layout(synth *y)
{
    if (!y->layout_mode) return 0;
    int64_t v = below(&y->r, 4);
    return v < 2 ? 0 : (int)v - 1;
}

static int64_t min_size(const synth *y)
{
    int64_t m = 1;
    for (int d = 0; d < y->ndim; d++)
        if (d == 0 || y->shape[d] < m) m = y->shape[d];
    return y->ndim ? m : 1;
}

/* ---- matrix products --------------------------------------------------- */

/* One main shape cannot feed a matrix product, whose operands must agree on
 * an inner size. So when a schema names its tensors the way ATen's products
 * do, the case picks sizes b, n, k, m (1 to 3, sometimes one of them 0) and
 * sizes each operand by its name:
 *   mat1, mat [n,k]   mat2 [k,m]      batch1 [b,n,k]   batch2 [b,k,m]
 *   vec [k]           vec1 [n]        vec2 [m]
 * `self` is the left operand where no other argument is (mm, bmm [b,n,k],
 * mv [n,k], outer/ger [n]); otherwise (addmm, baddbmm, addmv, addr...) it is
 * the bias, and takes the result's shape, which becomes the main shape (so
 * out= arguments get it too): [n] with a vec, [b,n,m] for bmm and baddbmm,
 * [n,m] for the others (addbmm sums over the batch). */
static bool has_tensor_arg(const synth *y, const char *name)
{
    for (int i = 0; i < y->d->nargs; i++)
        if (y->d->args[i].type == TA_DT_TENSOR && !strcmp(y->d->args[i].name, name)) return true;
    return false;
}

static void matrix_plan(synth *y)
{
    static const char *const operands[] = {"mat1", "mat2", "mat", "batch1", "batch2",
                                           "vec", "vec1", "vec2", NULL};
    bool any = false;
    for (int i = 0; i < y->d->nargs && !any; i++)
        any = y->d->args[i].type == TA_DT_TENSOR && name_is(y->d->args[i].name, operands);
    if (!any) return;
    y->matrix = true;
    bool vec = has_tensor_arg(y, "vec"), vec2 = has_tensor_arg(y, "vec2");
    y->self_is_left = (has_tensor_arg(y, "mat2") && !has_tensor_arg(y, "mat1")) ||
                      (vec && !has_tensor_arg(y, "mat")) || (vec2 && !has_tensor_arg(y, "vec1"));
    y->batched = has_tensor_arg(y, "batch1") || op_name_has(y, "bmm");
    int64_t *sz[4] = {&y->mb, &y->mn, &y->mk, &y->mm};
    for (int i = 0; i < 4; i++) *sz[i] = 1 + below(&y->r, 3);
    if (chance(&y->r, 15)) *sz[below(&y->r, 4)] = 0;
    bool sums_batches = ta_str_eq(y->s->name, "addbmm") || ta_str_eq(y->s->name, "addbmm_");
    y->ndim = 0;
    if (vec) {
        y->shape[y->ndim++] = y->mn;
    } else {
        if (y->batched && !sums_batches) y->shape[y->ndim++] = y->mb;
        y->shape[y->ndim++] = y->mn;
        y->shape[y->ndim++] = y->mm;
    }
}

/* The shape of matrix-product operand `n` into shape; its ndim, or -1 when
 * n is not an operand (then it takes the main shape). */
static int matrix_operand(const synth *y, const char *n, int64_t *shape)
{
    int k = 0;
    bool left = !strcmp(n, "mat1") || !strcmp(n, "mat") || !strcmp(n, "batch1") ||
                (y->self_is_left && !strcmp(n, "self"));
    if (left && !strcmp(n, "self") && has_tensor_arg(y, "vec2")) {
        shape[k++] = y->mn; /* outer, ger: a vector */
    } else if (left) {
        if (y->batched && strcmp(n, "mat")) shape[k++] = y->mb;
        shape[k++] = y->mn;
        shape[k++] = y->mk;
    } else if (!strcmp(n, "mat2") || !strcmp(n, "batch2")) {
        if (y->batched) shape[k++] = y->mb;
        shape[k++] = y->mk;
        shape[k++] = y->mm;
    } else if (!strcmp(n, "vec")) {
        shape[k++] = y->mk;
    } else if (!strcmp(n, "vec1")) {
        shape[k++] = y->mn;
    } else if (!strcmp(n, "vec2")) {
        shape[k++] = y->mm;
    } else {
        return -1;
    }
    return k;
}

/* ---- one argument ------------------------------------------------------ */

/* The case keeps the stack's copy of each value: it points into the stack's
 * arena, which lives until the next reset, while the kernel may clear the stack. */
static ta_status push(synth *y, ta_value v) { return ta_case_push(y->c, y->x, v); }

static int64_t dim_size(const synth *y, int64_t dim)
{
    if (!y->ndim) return 1;
    if (dim < 0) dim += y->ndim;
    return dim >= 0 && dim < y->ndim ? y->shape[dim] : 1;
}

static int64_t default_int(const ta_arg *a, int64_t dflt)
{
    if (a->def.kind == TA_DEFAULT_INT) return strtoll(a->def.text.ptr, NULL, 0);
    if (a->def.kind == TA_DEFAULT_BOOL) return ta_str_eq(a->def.text, "True");
    return dflt;
}

static int parse_int_list(ta_str text, int64_t *out, int cap)
{
    int n = 0;
    const char *p = text.ptr, *e = text.ptr + text.len;
    while (p < e && n < cap) {
        while (p < e && (*p == '[' || *p == ' ' || *p == ',')) p++;
        if (p >= e || *p == ']') break;
        char *end;
        out[n++] = strtoll(p, &end, 0);
        if (end == p) break;
        p = end;
    }
    return n;
}

/* An int argument: a value that fits the main shape when the name says what it is. */
static int64_t synth_int(synth *y, const ta_arg *a, const char *n)
{
    int64_t planned;
    if (ta_synth_plan_int(y->plan, n, &planned)) return planned;
    static const char *const dims[] = {"dim", "dim0", "dim1", "dim2", "axis", "axis0", "axis1",
                                       "source", "destination", "start_dim", "end_dim", NULL};
    if (name_is(n, dims)) {
        int64_t nd = y->ndim ? y->ndim : 1;
        int64_t v = below(&y->r, 2 * nd) - nd;
        if (!strcmp(n, "end_dim") && a->def.kind == TA_DEFAULT_INT && chance(&y->r, 50))
            v = default_int(a, v);
        y->last_dim = v < 0 ? v + nd : v;
        return v;
    }
    int64_t sz = dim_size(y, y->last_dim < 0 ? 0 : y->last_dim);
    if (!strcmp(n, "start")) return y->last_start = below(&y->r, sz + 1);
    if (!strcmp(n, "end")) return y->last_start + below(&y->r, sz - y->last_start + 1);
    if (!strcmp(n, "length")) return below(&y->r, sz - y->last_start + 1);
    if (!strcmp(n, "step")) return 1 + below(&y->r, 2);
    if (!strcmp(n, "index")) return sz ? below(&y->r, sz) : 0;
    if (!strcmp(n, "split_size")) return 1 + below(&y->r, sz > 0 ? sz : 1);
    if (!strcmp(n, "chunks") || !strcmp(n, "sections")) return 1 + below(&y->r, 3);
    if (!strcmp(n, "size")) return sz;
    if (!strcmp(n, "k")) return 1 + below(&y->r, sz > 0 ? sz : 1);
    if (a->def.kind == TA_DEFAULT_INT || a->def.kind == TA_DEFAULT_BOOL) return default_int(a, 0);
    if (!strcmp(n, "repeats") || !strcmp(n, "n") || !strcmp(n, "N")) return 2;
    return 1;
}

static ta_status synth_int_list(synth *y, const ta_decl_slot *d, const ta_arg *a)
{
    const char *n = d->name;
    int64_t v[TA_CASE_MAX_DIM * 2 + 2];
    int k = 0;
    static const char *const sizes[] = {"size", "sizes", "shape", NULL};
    if ((k = ta_synth_plan_ints(y->plan, d, y->ndim, y->shape, v)) >= 0) {
        /* kernel_size, stride, padding...: the plan's */
    } else if ((k = 0), name_is(n, sizes)) {
        /* A shape with the main shape's element count: itself, flat, or -1. */
        int64_t pick = below(&y->r, 3);
        if (pick == 0 || op_name_has(y, "expand") || op_name_has(y, "new_") ||
            op_name_has(y, "as_strided")) {
            k = y->ndim;
            if (k) memcpy(v, y->shape, (size_t)k * sizeof *v);
        } else if (pick == 1 || !y->plan->names->size_may_infer) {
            v[k++] = numel_of(y->shape, y->ndim);
        } else {
            v[k++] = -1;
        }
    } else if (!strcmp(n, "stride")) {
        int64_t s = 1;
        k = y->ndim;
        for (int i = k - 1; i >= 0; i--) {
            v[i] = s;
            s *= y->shape[i];
        }
    } else if (!strcmp(n, "dims") && (op_name_has(y, "permute") || d->fixed_size < 0)) {
        /* A permutation: reversed. */
        k = y->ndim;
        for (int i = 0; i < k; i++) v[i] = k - 1 - i;
    } else if (!strcmp(n, "split_sizes") || !strcmp(n, "split_size")) {
        int64_t sz = dim_size(y, y->last_dim < 0 ? 0 : y->last_dim);
        if (sz > 1 && chance(&y->r, 50)) {
            v[k++] = 1;
            v[k++] = sz - 1;
        } else {
            v[k++] = sz;
        }
    } else if (!strcmp(n, "repeats")) {
        k = y->ndim;
        for (int i = 0; i < k; i++) v[i] = 1 + below(&y->r, 2);
    } else if ((!strcmp(n, "dim") || !strcmp(n, "dims")) && a->def.kind == TA_DEFAULT_NONE_GIVEN) {
        if (y->ndim) {
            v[k++] = below(&y->r, y->ndim);
            y->last_dim = v[0];
        }
    } else if (a->def.kind == TA_DEFAULT_LIST) {
        k = parse_int_list(a->def.text, v, (int)(sizeof v / sizeof *v));
    } else if (a->def.kind == TA_DEFAULT_INT) {
        int64_t one = default_int(a, 0);
        k = d->fixed_size > 0 ? d->fixed_size : 1;
        if (k > (int)(sizeof v / sizeof *v)) k = (int)(sizeof v / sizeof *v);
        for (int i = 0; i < k; i++) v[i] = one;
    } else {
        k = d->fixed_size > 0 ? d->fixed_size : 1;
        if (k > (int)(sizeof v / sizeof *v)) k = (int)(sizeof v / sizeof *v);
        for (int i = 0; i < k; i++) v[i] = 1;
    }
    /* int[N] with one value spelled: broadcast to N. */
    if (d->fixed_size > 0 && k == 1)
        for (; k < d->fixed_size && k < (int)(sizeof v / sizeof *v); k++) v[k] = v[0];
    ta_value val = {.tag = TA_VAL_INT_LIST};
    val.u.ints.items = v;
    val.u.ints.n = (size_t)k;
    return push(y, val);
}

static DLDataType other_dtype(synth *y)
{
    static const DLDataType all[] = {{kDLFloat, 32, 1}, {kDLFloat, 64, 1}, {kDLInt, 64, 1},
                                     {kDLInt, 32, 1}, {TA_DL_BOOL, 8, 1}};
    return all[below(&y->r, 5)];
}

/* An earlier tensor argument sharing an alias set with d, to alias, or -1. */
static int alias_partner(synth *y, int argi)
{
    const ta_decl_slot *d = &y->d->args[argi];
    if (!y->alias_views || !d->sets || d->type != TA_DT_TENSOR) return -1;
    for (int i = 0; i < argi; i++) {
        const ta_decl_slot *e = &y->d->args[i];
        if (e->type == TA_DT_TENSOR && (e->sets & d->sets) && y->c->args[i].tag == TA_VAL_TENSOR)
            return i;
    }
    return -1;
}

static ta_status synth_tensor_arg(synth *y, int argi)
{
    const ta_decl_slot *d = &y->d->args[argi];
    const char *n = d->name;
    DLTensor *t;
    bool fill = false;
    int64_t mshape[3], pshape[TA_CASE_MAX_DIM], lo, hi;
    DLDataType pdt = y->dtype;
    int mnd;
    int partner = alias_partner(y, argi);
    if (partner >= 0) {
        /* A second view of the partner's storage, same geometry. */
        DLTensor *p = y->c->args[partner].u.tensor;
        t = ta_exec_tensor(y->x, ta_exec_storage_of(y->x, p), p->dtype, p->ndim, p->shape,
                           p->strides, p->byte_offset);
        for (int i = 0; i < y->c->nslots; i++)
            if (y->c->slots[i].t == p) fill = y->c->slots[i].fill;
    } else if (d->is_out) {
        DLDataType dt = chance(&y->r, 75) ? y->dtype : other_dtype(y);
        if (chance(&y->r, 50)) {
            int64_t zero = 0;
            t = make_tensor(y, dt, 1, &zero, 0, true, 0, 0, false);
        } else {
            t = make_tensor(y, dt, y->ndim, y->shape, 0, true, 0, 0, false);
        }
        fill = true;
    } else if (y->matrix && (mnd = matrix_operand(y, n, mshape)) >= 0) {
        t = make_tensor(y, y->dtype, mnd, mshape, pick_layout(y), false, -4, 5, false);
    } else if ((mnd = ta_synth_plan_tensor(y->plan, d, y->ndim, y->shape, pshape, &lo, &hi, &pdt)) >= 0) {
        t = make_tensor(y, pdt, mnd, pshape, pick_layout(y), false, lo, hi, lo >= 0 || !ta_dtype_eq(pdt, y->dtype));
    } else if (!strcmp(n, "index") || !strcmp(n, "indices")) {
        int64_t m = min_size(y);
        if ((op_name_has(y, "gather") || op_name_has(y, "scatter")) && y->ndim)
            t = make_tensor(y, TA_DTYPE_I64, y->ndim, y->shape, 0, false, 0, m, true);
        else {
            int64_t two = 2;
            t = make_tensor(y, TA_DTYPE_I64, 1, &two, 0, false, 0, m, true);
        }
    } else if (!strcmp(n, "start") || !strcmp(n, "end") || !strcmp(n, "length") ||
               !strcmp(n, "step")) {
        /* An integer passed as a 0-dim tensor (narrow.Tensor). */
        int64_t v = synth_int(y, d->arg, n);
        t = make_tensor(y, TA_DTYPE_I64, 0, NULL, 0, false, v, v + 1, true);
    } else if (!strcmp(n, "value") && partner < 0) {
        /* fill_(Tensor value): a 0-dim tensor. */
        t = make_tensor(y, y->dtype, 0, NULL, 0, false, -4, 5, false);
    } else if (!strcmp(n, "mask") || !strcmp(n, "condition")) {
        t = make_tensor(y, TA_DTYPE_BOOL, y->ndim, y->shape, pick_layout(y), false, 0, 2, false);
    } else {
        t = make_tensor(y, y->dtype, y->ndim, y->shape, pick_layout(y), false, -4, 5, false);
    }
    if (!t) {
        snprintf(y->c->note, sizeof y->c->note, "cannot allocate argument '%s'", n);
        return TA_ERR_NOMEM;
    }
    ta_status s = push(y, (ta_value){.tag = TA_VAL_TENSOR, .u.tensor = t});
    return s == TA_OK ? ta_case_add_slot(y->c, y->x, argi, -1, t, fill) : s;
}

static ta_status synth_tensor_list(synth *y, int argi)
{
    const ta_decl_slot *d = &y->d->args[argi];
    DLTensor *items[3];
    int k = y->plan->list_len;
    bool fill = d->is_out;
    for (int i = 0; i < k; i++) {
        if (d->list_opt_items) {
            /* Tensor?[] indices: one index tensor for the first dimension, then None. */
            int64_t two = 2;
            items[i] = i == 0 ? make_tensor(y, TA_DTYPE_I64, 1, &two, 0, false, 0,
                                            y->ndim ? y->shape[0] : 1, true)
                              : NULL;
            if (i == 0 && !items[i]) return TA_ERR_NOMEM;
            if (i > 0) {
                k = 1;
                break;
            }
        } else {
            items[i] = make_tensor(y, y->dtype, y->ndim, y->shape, fill ? 0 : pick_layout(y), fill,
                                   -4, 5, false);
            if (!items[i]) return TA_ERR_NOMEM;
        }
    }
    ta_value v = {.tag = TA_VAL_TENSOR_LIST};
    v.u.tensors.items = items;
    v.u.tensors.n = (size_t)k;
    ta_status s = push(y, v);
    for (int i = 0; s == TA_OK && i < k; i++)
        if (items[i]) s = ta_case_add_slot(y->c, y->x, argi, i, items[i], fill);
    return s;
}

static ta_status synth_arg(synth *y, int argi)
{
    const ta_decl_slot *d = &y->d->args[argi];
    const ta_arg *a = d->arg;
    ta_value v = {.tag = TA_VAL_NONE};
    uint8_t choice = argi < TA_PLAN_MAX_ARGS ? y->plan->optional[argi] : TA_OPT_FREE;
    if (d->optional && choice == TA_OPT_NONE) return push(y, v);
    if (d->optional && choice == TA_OPT_FREE) {
        /* Optional: mostly None (its default), sometimes a value. */
        bool none = d->type == TA_DT_GENERATOR || d->type == TA_DT_OTHER ||
                    d->type == TA_DT_DEVICE || d->type == TA_DT_LAYOUT ||
                    d->type == TA_DT_MEMORY_FORMAT || d->type == TA_DT_STRING ||
                    chance(&y->r, d->type == TA_DT_TENSOR ? 60 : 70);
        if (d->is_out) none = false;
        if (none) return push(y, v);
    }
    switch (d->type) {
    case TA_DT_TENSOR: return synth_tensor_arg(y, argi);
    case TA_DT_TENSOR_LIST: return synth_tensor_list(y, argi);
    case TA_DT_INT:
        v.tag = TA_VAL_INT;
        v.u.i = synth_int(y, a, d->name);
        return push(y, v);
    case TA_DT_INT_LIST: return synth_int_list(y, d, a);
    case TA_DT_FLOAT:
        v.tag = TA_VAL_FLOAT;
        v.u.f = a->def.kind == TA_DEFAULT_FLOAT || a->def.kind == TA_DEFAULT_INT
                    ? strtod(a->def.text.ptr, NULL)
                    : 0.5;
        return push(y, v);
    case TA_DT_FLOAT_LIST: {
        double f[TA_PLAN_MAX_SPATIAL] = {1.0, 1.0, 1.0};
        int nf = ta_synth_plan_floats(y->plan, d, f);
        v.tag = TA_VAL_FLOAT_LIST;
        v.u.floats.items = f;
        v.u.floats.n = nf >= 0 ? (size_t)nf : d->fixed_size > 0 && d->fixed_size <= 2 ? (size_t)d->fixed_size : 1;
        return push(y, v);
    }
    case TA_DT_BOOL:
        v.tag = TA_VAL_BOOL;
        if (ta_synth_plan_bool(y->plan, d->name, &v.u.b)) return push(y, v);
        v.u.b = a->def.kind == TA_DEFAULT_BOOL ? (chance(&y->r, 75) ? ta_str_eq(a->def.text, "True")
                                                                    : !ta_str_eq(a->def.text, "True"))
                                               : chance(&y->r, 50);
        return push(y, v);
    case TA_DT_BOOL_LIST: {
        bool b[4] = {true, true, true, true};
        v.tag = TA_VAL_BOOL_LIST;
        v.u.bools.items = b;
        v.u.bools.n = d->fixed_size > 0 && d->fixed_size <= 4 ? (size_t)d->fixed_size : 1;
        return push(y, v);
    }
    case TA_DT_SCALAR:
        v.tag = TA_VAL_SCALAR;
        if (a->def.kind == TA_DEFAULT_INT) {
            v.scalar_kind = TA_SCALAR_INT;
            v.u.i = strtoll(a->def.text.ptr, NULL, 0);
        } else if (a->def.kind == TA_DEFAULT_FLOAT) {
            v.scalar_kind = TA_SCALAR_FLOAT;
            v.u.f = strtod(a->def.text.ptr, NULL);
        } else if (y->dtype.code == kDLFloat) {
            v.scalar_kind = TA_SCALAR_FLOAT;
            v.u.f = (double)(below(&y->r, 9) - 4) / 2.0;
        } else if (y->dtype.code == TA_DL_BOOL) {
            v.scalar_kind = TA_SCALAR_BOOL;
            v.u.b = chance(&y->r, 50);
        } else {
            v.scalar_kind = TA_SCALAR_INT;
            v.u.i = below(&y->r, 7) - 3;
        }
        /* A divisor of 0 is an error for integers (div, remainder, fmod). */
        if (y->plan->names->nonzero_divisor && (!strcmp(d->name, "other") || !strcmp(d->name, "divisor")) &&
            ((v.scalar_kind == TA_SCALAR_INT && v.u.i == 0) || (v.scalar_kind == TA_SCALAR_FLOAT && v.u.f == 0)))
            v.u.i = 1, v.scalar_kind = TA_SCALAR_INT;
        return push(y, v);
    case TA_DT_SCALAR_TYPE:
        v.tag = TA_VAL_INT;
        v.u.i = ta_scalar_type_of(chance(&y->r, 50) ? y->dtype : other_dtype(y));
        return push(y, v);
    case TA_DT_LAYOUT:
    case TA_DT_MEMORY_FORMAT:
        v.tag = TA_VAL_INT;
        v.u.i = 0; /* Strided; contiguous_format */
        return push(y, v);
    case TA_DT_DEVICE:
        v.tag = TA_VAL_STRING;
        v.u.s = y->x->dev->type == kDLCUDA ? "cuda" : "cpu";
        return push(y, v);
    case TA_DT_STRING: {
        char buf[64] = "";
        if (a->def.kind == TA_DEFAULT_STRING && a->def.text.len >= 2) {
            size_t n = a->def.text.len - 2 < sizeof buf - 1 ? a->def.text.len - 2 : sizeof buf - 1;
            memcpy(buf, a->def.text.ptr + 1, n);
            buf[n] = '\0';
        } else if (!strcmp(d->name, "reduce")) {
            strcpy(buf, "sum");
        }
        v.tag = TA_VAL_STRING;
        v.u.s = buf;
        return push(y, v);
    }
    case TA_DT_GENERATOR:
    case TA_DT_OTHER:
        snprintf(y->c->note, sizeof y->c->note, "cannot synthesize argument '%s'", d->name);
        return TA_ERR_UNSUPPORTED;
    }
    return TA_ERR_UNSUPPORTED;
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
        case TA_VAL_SCALAR:
            if (v->scalar_kind == TA_SCALAR_FLOAT) n = put(buf, cap, n, "%g", v->u.f);
            else if (v->scalar_kind == TA_SCALAR_BOOL) n = put(buf, cap, n, "%s", v->u.b ? "True" : "False");
            else n = put(buf, cap, n, "%lld", (long long)v->u.i);
            break;
        }
    }
    if (cap && n >= cap) {
        buf[cap - 1] = '\0';
        if (cap > 4) memcpy(buf + cap - 4, "...", 3);
    }
    return n;
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

ta_status ta_synth_case(ta_exec *x, const ta_schema *s, const ta_decl *d, uint64_t seed,
                        ta_case *c)
{
    return ta_synth_case_with(x, s, d, seed, c, NULL, NULL);
}

ta_status ta_case_push(ta_case *c, ta_exec *x, ta_value v)
{
    if (c->nargs >= TA_CASE_MAX_ARGS) return TA_ERR_UNSUPPORTED;
    ta_status s = ta_stack_push(x->stack, v);
    if (s != TA_OK) return s;
    c->args[c->nargs++] = *ta_stack_at(x->stack, ta_stack_size(x->stack) - 1);
    return TA_OK;
}

ta_status ta_synth_case_with(ta_exec *x, const ta_schema *s, const ta_decl *d, uint64_t seed,
                             ta_case *c, ta_synth_override over, void *ud)
{
    c->seed = seed;
    c->nargs = 0;
    c->nslots = 0;
    c->note[0] = '\0';
    if (d->unsupported[0]) {
        snprintf(c->note, sizeof c->note, "cannot synthesize argument '%s'", d->unsupported);
        return TA_ERR_UNSUPPORTED;
    }
    if (d->nargs > TA_CASE_MAX_ARGS) {
        snprintf(c->note, sizeof c->note, "too many arguments (%d)", d->nargs);
        return TA_ERR_UNSUPPORTED;
    }
    synth y = {.x = x, .s = s, .d = d, .c = c, .r = {ta_mix64(seed)}, .last_dim = -1};
    static const DLDataType dts[] = {{kDLFloat, 32, 1}, {kDLFloat, 32, 1}, {kDLFloat, 32, 1},
                                     {kDLFloat, 64, 1}, {kDLInt, 64, 1},   {kDLInt, 64, 1},
                                     {kDLInt, 32, 1},   {TA_DL_BOOL, 8, 1}};
    y.dtype = dts[below(&y.r, sizeof dts / sizeof *dts)];
    size_t nshapes = sizeof shapes / sizeof *shapes, si = (size_t)below(&y.r, (int64_t)nshapes);
    const int64_t *sh = shapes[si];
    y.ndim = (int)sh[0];
    if (y.ndim) memcpy(y.shape, sh + 1, (size_t)y.ndim * sizeof *y.shape);
    y.layout_mode = chance(&y.r, 50);
    y.alias_views = chance(&y.r, 33);
    ta_synth_plan plan;
    ta_synth_plan_make(&plan, d, seed);
    y.plan = &plan;
    y.dtype = ta_synth_plan_dtype(&plan, y.dtype, seed >> 7);
    int planned = ta_synth_plan_shape(&plan, y.shape);
    if (planned >= 0) {
        y.ndim = planned;
    } else if (y.ndim < plan.min_ndim) {
        /* The next table shape with enough dimensions. */
        while (shapes[si][0] < plan.min_ndim) si = (si + 1) % nshapes;
        y.ndim = (int)shapes[si][0];
        memcpy(y.shape, shapes[si] + 1, (size_t)y.ndim * sizeof *y.shape);
    }
    matrix_plan(&y);
    for (int i = 0; i < d->nargs; i++) {
        ta_status st = over ? over(ud, i, x, d, c) : TA_ERR_NOTFOUND;
        if (st == TA_ERR_NOTFOUND) st = synth_arg(&y, i);
        if (st != TA_OK) {
            if (!c->note[0])
                snprintf(c->note, sizeof c->note, "cannot synthesize argument '%s': %s",
                         d->args[i].name, ta_status_str(st));
            return st;
        }
    }
    return TA_OK;
}
