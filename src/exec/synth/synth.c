/* synth.c - arguments for one verification case, from the schema and a seed.
 *
 * A case picks one dtype and one "main" shape for all its tensors (so that
 * elementwise and broadcasting operators accept them), a layout per tensor
 * (contiguous, transposed, sliced with a storage offset), and sometimes
 * makes arguments that share an alias set views of one another. Integer
 * arguments whose meaning is clear from their name (dim, start, length,
 * size, chunks...) get values that fit the main shape; everything else gets
 * its default or a plain value. out= arguments are filled with TA_FILL_BYTE,
 * are either the main shape or empty (so the kernel must resize them), and
 * mostly have the dtype ATen computes their result in (the inputs', a
 * sample's included; indices int64).
 * Matrix products (mm, bmm, addmm, baddbmm, addbmm, mv, addmv, addr, outer)
 * are one exception to "one main shape": see matrix_plan. The others are
 * what the operator's names tie together (pooling and convolution sizes,
 * norm statistics, class targets, dtypes, pairs of optional arguments...):
 * synth_plan.c decides those per case and is asked at each argument.
 * A Scalar[] has one scalar per tensor of the case's lists (foreach) or per
 * dimension (gradient's spacing); a Dimname names a dimension of the main
 * shape by kernel.h's TA_DIM_NAMES scheme, by which the tensors of a case
 * with a Dimname are named (a framework with named tensors names them).
 * The same seed always gives the same case. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "exec/synth/element.h"
#include "exec/synth/synth.h"
#include "exec/synth/synth_plan.h"

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
    int row;      /* the case's row of the covering design, or -1 (see cover) */
    bool special; /* floating values include NaN, infinities and -0.0 */
    bool sampled; /* the case completes a sample (ta_synth_case_with's override) */
} synth;

static const int64_t shapes[][TA_CASE_MAX_DIM + 1] = {
    /* ndim, sizes... */
    {2, 3, 4}, {1, 5}, {0}, {2, 2, 3}, {3, 2, 3, 4}, {1, 0}, {2, 4, 0}, {2, 1, 3}, {2, 3, 1},
    {1, 7}, {2, 4, 4},
};

/* Larger main shapes, for the paths kernels take from some size on
 * (vectorized and blocked loops from 64 or 1,024 elements, higher ranks);
 * and one above ATen's parallel grain size (32,768 elements). */
static const int64_t large_shapes[][TA_CASE_MAX_DIM + 1] = {
    {1, 65}, {2, 9, 16}, {1, 1031}, {2, 33, 32}, {5, 3, 4, 5, 6, 7}, {6, 4, 1, 3, 5, 2, 3},
};
static const int64_t huge_shape[] = {2, 33, 1001};

/* Which cases are what, by the low byte of their seed (the case's index
 * within its operator's run, as the verifier makes seeds, so that every
 * run of a few cases has each kind, and every case replays by its seed):
 *   - bytes 0 .. TA_COVER_ROWS-1: rows of a covering design (cover below);
 *   - byte % 4 == 2: floating values include NaN, +-inf and -0.0;
 *   - byte % 16 == 15: a large main shape; byte 31 (of each 256): a huge one. */
enum { TA_COVER_ROWS = 6 };

/* The level (of `levels`) factor k of the case takes in a covering row, or
 * -1 outside them (then it is drawn). Row r gives factor k the level
 * (r + k) % levels, so the first TA_COVER_ROWS cases of an operator take
 * every level of every factor of up to TA_COVER_ROWS levels: the case's
 * dtype (factor 0), and each bool, ScalarType, MemoryFormat and reduction
 * argument (factor 1 + its index). */
static int cover(const synth *y, int factor, int levels)
{
    return y->row < 0 || levels <= 0 ? -1 : (y->row + factor) % levels;
}

static const DLDataType cover_dtypes[] = {{kDLFloat, 32, 1}, {kDLFloat, 64, 1}, {kDLInt, 64, 1},
                                          {kDLInt, 32, 1}, {TA_DL_BOOL, 8, 1}};

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

/* One element's value, from one draw w of the generator (its bit fields
 * are independent enough for test values, and large cases make millions). */
static void write_value(DLDataType dt, void *p, uint64_t w, int64_t lo, int64_t hi, bool index,
                        bool special)
{
    bool floating = dt.code == kDLFloat || dt.code == kDLBfloat || dt.code == kDLComplex;
    if (floating && !index) {
        static const double specials[] = {NAN, INFINITY, -INFINITY, -0.0};
        double f = (double)((int64_t)(w % 33) - 16) / 4.0;
        if (((w >> 8) & 15) == 0) f = -0.0;
        if (special && ((w >> 12) & 3) == 0) f = specials[(w >> 14) & 3];
        if (dt.code == kDLComplex) /* the imaginary part from bits the real one did not use */
            ta_elem_put_complex(dt, p, f, (double)((int64_t)((w >> 40) % 33) - 16) / 4.0);
        else ta_elem_put_double(dt, p, f);
        return;
    }
    int64_t v = hi > lo ? lo + (int64_t)((w >> 32) % (uint64_t)(hi - lo)) : lo;
    if (dt.code == TA_DL_BOOL) *(uint8_t *)p = (uint8_t)((w >> 16) & 1);
    else ta_elem_put_int(dt, p, v);
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

/* How a synthesized tensor lies in its storage: contiguous, transposed
 * (last two dimensions), sliced (every other element of the last
 * dimension, one element in), or padded (contiguous, in the middle of a
 * storage TA_PAD elements larger at each end: a view of a larger tensor,
 * whose neighbours a kernel may not touch). */
typedef enum layout {
    LAYOUT_CONTIGUOUS = 0,
    LAYOUT_TRANSPOSED = 1,
    LAYOUT_SLICED = 2,
    LAYOUT_PADDED = 3
} layout;
enum { TA_PAD = 2 };

/* What a synthesized tensor holds: values in [lo, hi) (INDICES: whole
 * numbers even in a floating dtype; OFFSETS: whole numbers from lo, never
 * decreasing, in row-major order), or MARKER: every byte TA_FILL_BYTE
 * (an out= argument, whose unwritten elements observation finds). */
typedef struct contents {
    enum { VALUES, INDICES, OFFSETS, MARKER } kind;
    int64_t lo, hi;
} contents;

static const contents MARKED = {MARKER, 0, 0};
static contents values_in(int64_t lo, int64_t hi) { return (contents){VALUES, lo, hi}; }
static contents indices_in(int64_t lo, int64_t hi) { return (contents){INDICES, lo, hi}; }

/* Strides (st), byte offset and storage size in elements of a tensor of
 * shape laid out as `lay`. */
static int64_t lay_out(layout lay, int ndim, const int64_t *shape, size_t es, int64_t *st, uint64_t *off)
{
    int64_t sshape[TA_CASE_MAX_DIM], s = 1;
    *off = 0;
    if (lay == LAYOUT_TRANSPOSED && ndim >= 2) {
        /* Storage laid out with the last two dimensions swapped. */
        int64_t cs[TA_CASE_MAX_DIM];
        memcpy(sshape, shape, (size_t)ndim * sizeof *sshape);
        sshape[ndim - 1] = shape[ndim - 2];
        sshape[ndim - 2] = shape[ndim - 1];
        for (int d = ndim - 1; d >= 0; d--) {
            cs[d] = s;
            s *= sshape[d];
        }
        memcpy(st, cs, (size_t)ndim * sizeof *st);
        st[ndim - 1] = cs[ndim - 2];
        st[ndim - 2] = cs[ndim - 1];
        return s;
    }
    if (lay == LAYOUT_SLICED) {
        /* Last dimension 2n+1 wide in storage, the view takes odd positions. */
        if (ndim) memcpy(sshape, shape, (size_t)ndim * sizeof *sshape);
        if (ndim) sshape[ndim - 1] = 2 * shape[ndim - 1] + 1;
        for (int d = ndim - 1; d >= 0; d--) {
            st[d] = s;
            s *= sshape[d];
        }
        if (ndim) st[ndim - 1] = 2;
        *off = es;
        return s + 1;
    }
    if (lay == LAYOUT_PADDED) *off = TA_PAD * es;
    for (int d = ndim - 1; d >= 0; d--) {
        st[d] = s;
        s *= shape[d];
    }
    return lay == LAYOUT_PADDED ? s + 2 * TA_PAD : s;
}

/* The element values of t, written into its storage's bytes at host: in
 * row-major order, the strided offset kept by an odometer (large cases
 * make hundreds of thousands). */
static void fill_values(synth *y, const DLTensor *t, unsigned char *host, contents what)
{
    int64_t n = ta_numel(t), st[TA_CASE_MAX_DIM], idx[TA_CASE_MAX_DIM] = {0};
    int64_t es = (int64_t)ta_dtype_size(t->dtype), off = (int64_t)t->byte_offset;
    int64_t at = what.lo; /* OFFSETS: the value so far */
    ta_strides_of(t, st);
    for (int64_t i = 0; i < n; i++) {
        if (what.kind == OFFSETS) {
            if (i) at += (int64_t)(next(&y->r) % 3);
            if (at >= what.hi) at = what.hi - 1;
            write_value(t->dtype, host + off, 0, at, at + 1, true, false);
        } else {
            write_value(t->dtype, host + off, next(&y->r), what.lo, what.hi, what.kind == INDICES, y->special);
        }
        for (int d = t->ndim - 1; d >= 0; d--) {
            off += st[d] * es;
            if (++idx[d] < t->shape[d]) break;
            off -= st[d] * es * t->shape[d];
            idx[d] = 0;
        }
    }
}

/* A tensor of the given shape and dtype in a fresh storage, laid out and
 * filled as asked. */
static DLTensor *make_tensor(synth *y, DLDataType dt, int ndim, const int64_t *shape, layout lay,
                             contents what)
{
    ta_exec *x = y->x;
    size_t es = ta_dtype_size(dt);
    int64_t st[TA_CASE_MAX_DIM];
    uint64_t off;
    size_t bytes = (size_t)lay_out(lay, ndim, shape, es, st, &off) * es;
    uint32_t sid;
    if (ta_exec_storage_new(x, bytes, &sid) != TA_OK) return NULL;
    DLTensor *t;
    if (ta_exec_tensor(x, sid, dt, ndim, shape, st, off, &t) != TA_OK) return NULL;
    /* On the CPU the storage itself; elsewhere a host buffer copied over. */
    bool cpu = x->dev->type == kDLCPU;
    ta_storage_info si;
    ta_exec_storage_get(x, sid, &si);
    unsigned char *host = cpu ? si.base : ta_malloc(bytes ? bytes : 1);
    if (!host) return NULL;
    if (what.kind == MARKER) {
        memset(host, TA_FILL_BYTE, bytes);
    } else {
        int64_t n = ta_numel(t);
        /* Random bytes under the gaps of views that do not fill their
         * storage (sliced, padded), eight at a time. */
        for (size_t i = 0; (size_t)n * es != bytes && i < bytes; i += 8) {
            uint64_t w = next(&y->r);
            memcpy(host + i, &w, bytes - i < 8 ? bytes - i : 8);
        }
        fill_values(y, t, host, what);
    }
    if (cpu) return t;
    ta_status s = put_bytes(x, sid, host, bytes);
    free(host);
    return s == TA_OK ? t : NULL;
}

/* Mostly contiguous; in a case that varies layouts, sometimes transposed,
 * sliced or padded. */
static layout pick_layout(synth *y)
{
    if (!y->layout_mode) return LAYOUT_CONTIGUOUS;
    int64_t v = below(&y->r, 5);
    return v < 2 ? LAYOUT_CONTIGUOUS : (layout)(v - 1);
}

/* An out= argument of the right shape: contiguous, or a view of a larger
 * storage (padded, or sliced) that the kernel must write through. */
static layout pick_out_layout(synth *y)
{
    int64_t v = below(&y->r, 4);
    return v < 2 ? LAYOUT_CONTIGUOUS : v == 2 ? LAYOUT_PADDED : LAYOUT_SLICED;
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

/* A default's number (0 when it spells none). */
static int64_t int_of(ta_str text)
{
    int64_t v = 0;
    ta_str_to_int(text, &v);
    return v;
}

static double double_of(ta_str text)
{
    double v = 0;
    ta_str_to_double(text, &v);
    return v;
}

static int64_t default_int(const ta_arg *a, int64_t dflt)
{
    if (a->def.kind == TA_DEFAULT_INT) return int_of(a->def.text);
    if (a->def.kind == TA_DEFAULT_BOOL) return ta_str_eq(a->def.text, "True");
    return dflt;
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
        /* kernel_size, stride, padding, normalized_shape...: the plan's */
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
        k = (int)ta_str_to_int_list(a->def.text, v, sizeof v / sizeof *v);
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

static int dtype_category(DLDataType t)
{
    switch (t.code) {
    case TA_DL_BOOL: return 0;
    case kDLInt:
    case kDLUInt: return 1;
    case kDLComplex: return 3;
    default: return 2;
    }
}

/* The dtype ATen's type promotion gives tensors of a and b: the higher
 * category (bool, integers, floating, complex), within one the wider. */
static DLDataType promote(DLDataType a, DLDataType b)
{
    int ka = dtype_category(a), kb = dtype_category(b);
    if (ka != kb) return ka > kb ? a : b;
    return b.bits > a.bits ? b : a;
}

/* The dtype the case's tensor inputs so far promote to (those of a sample
 * too): self's and other's when the operator has them, as its result's dtype
 * is theirs; else every input tensor's, lists included. The case's dtype
 * when there is none. */
static DLDataType inputs_dtype(const synth *y)
{
    DLDataType dt = y->dtype;
    bool any = false;
    for (int pass = 0; pass < 2 && !any; pass++) /* self and other; else every input */
        for (int i = 0; i < y->c->nargs; i++) {
            const ta_decl_slot *a = &y->d->args[i];
            const ta_value *v = &y->c->args[i];
            if (a->is_out || (pass == 0 && strcmp(a->name, "self") && strcmp(a->name, "other"))) continue;
            size_t n = v->tag == TA_VAL_TENSOR ? 1 : v->tag == TA_VAL_TENSOR_LIST ? v->u.tensors.n : 0;
            for (size_t k = 0; k < n; k++) {
                const DLTensor *t = v->tag == TA_VAL_TENSOR ? v->u.tensor : v->u.tensors.items[k];
                if (!t) continue;
                dt = any ? promote(dt, t->dtype) : t->dtype;
                any = true;
            }
        }
    return dt;
}

/* An out= argument's dtype: what the kernel computes its result in, mostly;
 * in a synthesized case, now and then another (ATen then computes in its
 * own dtype and casts into out, or refuses). */
static DLDataType out_dtype(synth *y, int argi)
{
    if (!y->sampled && chance(&y->r, 10)) return other_dtype(y);
    return ta_synth_plan_out_dtype(y->plan, &y->d->args[argi], inputs_dtype(y));
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
    int64_t mshape[TA_CASE_MAX_DIM], lo, hi;
    DLDataType dt = y->dtype;
    int mnd;
    int partner = alias_partner(y, argi);
    if (partner >= 0) {
        /* A second view of the partner's storage, same geometry. */
        DLTensor *p = y->c->args[partner].u.tensor;
        ta_exec_tensor(y->x, ta_exec_storage_of(y->x, p), p->dtype, p->ndim, p->shape, p->strides,
                       p->byte_offset, &t); /* t NULL when it fails, checked below */
        for (int i = 0; i < y->c->nslots; i++)
            if (y->c->slots[i].t == p) fill = y->c->slots[i].fill;
    } else if (d->is_out) {
        DLDataType dt = out_dtype(y, argi);
        if (chance(&y->r, 50)) {
            int64_t zero = 0;
            t = make_tensor(y, dt, 1, &zero, LAYOUT_CONTIGUOUS, MARKED);
        } else {
            t = make_tensor(y, dt, y->ndim, y->shape, pick_out_layout(y), MARKED);
        }
        fill = true;
    } else if (y->matrix && (mnd = matrix_operand(y, n, mshape)) >= 0) {
        t = make_tensor(y, y->dtype, mnd, mshape, pick_layout(y), values_in(-4, 5));
    } else if ((mnd = ta_synth_plan_tensor(y->plan, d, y->ndim, y->shape, mshape, &lo, &hi, &dt)) >= 0) {
        /* Sized and valued by the plan: positive or integer values are exact. */
        bool exact = lo >= 0 || !ta_dtype_eq(dt, y->dtype);
        t = make_tensor(y, dt, mnd, mshape, pick_layout(y), exact ? indices_in(lo, hi) : values_in(lo, hi));
    } else if (!strcmp(n, "index") || !strcmp(n, "indices")) {
        int64_t m = min_size(y);
        if ((op_name_has(y, "gather") || op_name_has(y, "scatter")) && y->ndim)
            t = make_tensor(y, TA_DTYPE_I64, y->ndim, y->shape, LAYOUT_CONTIGUOUS, indices_in(0, m));
        else {
            int64_t two = 2;
            t = make_tensor(y, TA_DTYPE_I64, 1, &two, LAYOUT_CONTIGUOUS, indices_in(0, m));
        }
    } else if (!strcmp(n, "start") || !strcmp(n, "end") || !strcmp(n, "length") ||
               !strcmp(n, "step")) {
        /* An integer passed as a 0-dim tensor (narrow.Tensor). */
        int64_t v = synth_int(y, d->arg, n);
        t = make_tensor(y, TA_DTYPE_I64, 0, NULL, LAYOUT_CONTIGUOUS, indices_in(v, v + 1));
    } else if (!strcmp(n, "value") && partner < 0) {
        /* fill_(Tensor value): a 0-dim tensor. */
        t = make_tensor(y, y->dtype, 0, NULL, LAYOUT_CONTIGUOUS, values_in(-4, 5));
    } else if (!strcmp(n, "mask") || !strcmp(n, "condition")) {
        t = make_tensor(y, TA_DTYPE_BOOL, y->ndim, y->shape, pick_layout(y), values_in(0, 2));
    } else {
        t = make_tensor(y, y->dtype, y->ndim, y->shape, pick_layout(y), values_in(-4, 5));
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
    int k = y->plan->list_len; /* one length for all the case's lists (foreach) */
    bool fill = d->is_out;
    DLDataType dt = fill ? out_dtype(y, argi) : y->dtype;
    for (int i = 0; i < k; i++) {
        if (d->list_opt_items) {
            /* Tensor?[] indices: one index tensor for the first dimension, then None. */
            int64_t two = 2;
            items[i] = i == 0 ? make_tensor(y, TA_DTYPE_I64, 1, &two, LAYOUT_CONTIGUOUS,
                                            indices_in(0, y->ndim ? y->shape[0] : 1))
                              : NULL;
            if (i == 0 && !items[i]) return TA_ERR_NOMEM;
            if (i > 0) {
                k = 1;
                break;
            }
        } else {
            items[i] = make_tensor(y, dt, y->ndim, y->shape, fill ? LAYOUT_CONTIGUOUS : pick_layout(y),
                                   fill ? MARKED : values_in(-4, 5));
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

/* How many values the covering design gives an argument: both bools, the
 * covered dtypes of a ScalarType, contiguous and preserve of a
 * MemoryFormat, none, mean and sum of a reduction; 0 for the others. An
 * optional one has None as one more. */
static int enum_levels(const ta_decl_slot *d)
{
    switch (d->type) {
    case TA_DT_BOOL: return 2;
    case TA_DT_SCALAR_TYPE: return (int)(sizeof cover_dtypes / sizeof *cover_dtypes);
    case TA_DT_MEMORY_FORMAT: return 2;
    case TA_DT_INT: return !strcmp(d->name, "reduction") ? 3 : 0;
    default: return 0;
    }
}

/* The covered value of argument argi, an enum_levels one: its level in a
 * covering row (an optional one's level 0 is None, taken by synth_none), or
 * -1 outside them. */
static int covered_level(const synth *y, int argi)
{
    const ta_decl_slot *d = &y->d->args[argi];
    int levels = enum_levels(d);
    if (!levels) return -1;
    int lv = cover(y, 1 + argi, d->optional ? levels + 1 : levels);
    return lv < 0 ? -1 : d->optional ? lv - 1 : lv;
}

/* An optional argument is mostly None (its default), sometimes a value;
 * one the verifier cannot make is always None, an out= one never; the plan
 * decides the ones that go in pairs. */
static bool synth_none(synth *y, int argi, const ta_decl_slot *d)
{
    uint8_t choice = argi < TA_PLAN_MAX_ARGS ? y->plan->optional[argi] : TA_OPT_FREE;
    if (choice != TA_OPT_FREE) return choice == TA_OPT_NONE;
    int levels = enum_levels(d);
    if (levels > 0 && cover(y, 1 + argi, levels + 1) >= 0) return cover(y, 1 + argi, levels + 1) == 0;
    bool none = d->type == TA_DT_GENERATOR || d->type == TA_DT_OTHER || d->type == TA_DT_DEVICE ||
                d->type == TA_DT_LAYOUT || d->type == TA_DT_MEMORY_FORMAT ||
                d->type == TA_DT_STRING || chance(&y->r, d->type == TA_DT_TENSOR ? 60 : 70);
    return none && !d->is_out;
}

/* float: its default when it has a number, else 0.5. */
static ta_value synth_float(const ta_arg *a)
{
    ta_value v = {.tag = TA_VAL_FLOAT};
    v.u.f = a->def.kind == TA_DEFAULT_FLOAT || a->def.kind == TA_DEFAULT_INT ? double_of(a->def.text)
                                                                              : 0.5;
    return v;
}

/* bool: what the plan says (pin_memory), mostly its default when it has
 * one, else a coin. */
static ta_value synth_bool(synth *y, const ta_decl_slot *d)
{
    const ta_arg *a = d->arg;
    ta_value v = {.tag = TA_VAL_BOOL};
    if (ta_synth_plan_bool(y->plan, d->name, &v.u.b)) return v;
    int lv = covered_level(y, (int)(d - y->d->args));
    if (lv >= 0) {
        v.u.b = lv == 1;
        return v;
    }
    if (a->def.kind != TA_DEFAULT_BOOL) {
        v.u.b = chance(&y->r, 50);
        return v;
    }
    bool dflt = ta_str_eq(a->def.text, "True");
    v.u.b = chance(&y->r, 75) ? dflt : !dflt;
    return v;
}

/* A small Scalar of the case's dtype's kind (a divisor of an integer
 * division not 0). */
static ta_scalar draw_scalar(synth *y, const char *name)
{
    ta_scalar v;
    if (y->dtype.code == kDLFloat) {
        v.kind = TA_SCALAR_FLOAT;
        v.u.f = (double)(below(&y->r, 9) - 4) / 2.0;
    } else if (y->dtype.code == TA_DL_BOOL) {
        v.kind = TA_SCALAR_BOOL;
        v.u.b = chance(&y->r, 50);
    } else {
        v.kind = TA_SCALAR_INT;
        v.u.i = below(&y->r, 7) - 3;
    }
    bool divisor = !strcmp(name, "other") || !strcmp(name, "divisor");
    if (y->plan->names->nonzero_divisor && divisor && v.kind == TA_SCALAR_INT && v.u.i == 0) v.u.i = 1;
    return v;
}

/* A Scalar as a value. */
static ta_value scalar_value(ta_scalar s)
{
    ta_value v = {.tag = TA_VAL_SCALAR, .scalar_kind = s.kind};
    if (s.kind == TA_SCALAR_FLOAT) v.u.f = s.u.f;
    else if (s.kind == TA_SCALAR_BOOL) v.u.b = s.u.b;
    else v.u.i = s.u.i;
    return v;
}

/* Scalar: its default, else a drawn one. */
static ta_value synth_scalar(synth *y, const ta_decl_slot *d)
{
    const ta_arg *a = d->arg;
    ta_value v = {.tag = TA_VAL_SCALAR};
    if (a->def.kind == TA_DEFAULT_INT) {
        v.scalar_kind = TA_SCALAR_INT;
        v.u.i = int_of(a->def.text);
    } else if (a->def.kind == TA_DEFAULT_FLOAT) {
        v.scalar_kind = TA_SCALAR_FLOAT;
        v.u.f = double_of(a->def.text);
    } else {
        v = scalar_value(draw_scalar(y, d->name));
    }
    return v;
}

/* Whether the operator has an argument of type t (named n, when n is not NULL). */
static bool has_arg(const synth *y, ta_decl_type t, const char *n)
{
    for (int i = 0; i < y->d->nargs; i++)
        if (y->d->args[i].type == t && (!n || !strcmp(y->d->args[i].name, n))) return true;
    return false;
}

/* Scalar[]: drawn scalars (integers never 0: the foreach divisions), one
 * per item of the case's tensor lists (foreach's scalars), else one per
 * dimension of the main shape (gradient's spacing), or one for the one
 * dimension a dim list names. */
static ta_status synth_scalar_list(synth *y, const ta_decl_slot *d)
{
    ta_scalar items[TA_CASE_MAX_DIM];
    int n = has_arg(y, TA_DT_TENSOR_LIST, NULL) ? y->plan->list_len
            : has_arg(y, TA_DT_INT_LIST, "dim") ? 1 : y->ndim;
    for (int i = 0; i < n; i++) {
        items[i] = draw_scalar(y, d->name);
        if (items[i].kind == TA_SCALAR_INT && !items[i].u.i) items[i].u.i = 1;
    }
    ta_value v = {.tag = TA_VAL_SCALAR_LIST};
    v.u.scalars.items = items;
    v.u.scalars.n = (size_t)n;
    return push(y, v);
}

/* ---- named dimensions (TA_DIM_NAMES) ------------------------------------ */

_Static_assert(sizeof TA_DIM_NAMES - 1 == TA_CASE_MAX_DIM, "a name for each dimension a case's tensors have");

/* The name of dimension dim of the main shape, into buf[2]. */
static const char *dim_name(const synth *y, int64_t dim, char *buf)
{
    buf[0] = TA_DIM_NAMES[TA_CASE_MAX_DIM - y->ndim + dim];
    buf[1] = '\0';
    return buf;
}

/* Dimname: a dimension of self (the main shape), which later int
 * arguments (select's index) fit; a new dimension's name (flatten's
 * out_dim, diagonal's outdim) is one no tensor has. */
static ta_status synth_dimname(synth *y, const ta_decl_slot *d)
{
    char buf[2];
    ta_value v = {.tag = TA_VAL_DIMNAME};
    if (!strcmp(d->name, "out_dim") || !strcmp(d->name, "outdim") || !y->ndim) {
        v.u.s = "out";
    } else {
        y->last_dim = below(&y->r, y->ndim);
        v.u.s = dim_name(y, y->last_dim, buf);
    }
    return push(y, v);
}

/* Dimname[] (unsized): every dimension of the main shape in order for a whole
 * tensor's names (refine_names, align_to, rename, the factories' names,
 * flatten's dims), else N (1 when unsized) drawn dimensions of self. */
static ta_status synth_dimname_list(synth *y, const ta_decl_slot *d)
{
    char buf[TA_CASE_MAX_DIM][2];
    const char *items[TA_CASE_MAX_DIM];
    static const char *const whole[] = {"names", "order", "dims", NULL};
    bool all = d->fixed_size <= 0 && name_is(d->name, whole);
    int n = all ? y->ndim : d->fixed_size > 0 && d->fixed_size <= y->ndim ? d->fixed_size : 1;
    for (int i = 0; i < n && y->ndim; i++) {
        int64_t dim = all ? i : below(&y->r, y->ndim);
        items[i] = dim_name(y, dim, buf[i]);
        y->last_dim = dim;
    }
    ta_value v = {.tag = TA_VAL_DIMNAME_LIST};
    v.u.names.items = items;
    v.u.names.n = y->ndim ? (size_t)n : 0;
    return push(y, v);
}

/* str: its default without the quotes, "sum" for a reduce, else "". The
 * stack copies it. */
static ta_status synth_string(synth *y, const ta_decl_slot *d, const ta_arg *a)
{
    char buf[64] = "";
    if (a->def.kind == TA_DEFAULT_STRING && a->def.text.len >= 2) {
        size_t n = a->def.text.len - 2 < sizeof buf - 1 ? a->def.text.len - 2 : sizeof buf - 1;
        memcpy(buf, a->def.text.ptr + 1, n);
        buf[n] = '\0';
    } else if (!strcmp(d->name, "reduce")) {
        strcpy(buf, "sum");
    }
    ta_value v = {.tag = TA_VAL_STRING};
    v.u.s = buf;
    return push(y, v);
}

/* float[N] and bool[N]: all ones (true), N items (1 when unsized), or what
 * the plan says (scale_factors). The stack copies them. */
static ta_status synth_constant_list(synth *y, const ta_decl_slot *d)
{
    double f[TA_PLAN_MAX_SPATIAL] = {1.0, 1.0, 1.0};
    bool b[4] = {true, true, true, true};
    ta_value v = {.tag = d->type == TA_DT_FLOAT_LIST ? TA_VAL_FLOAT_LIST : TA_VAL_BOOL_LIST};
    int planned = d->type == TA_DT_FLOAT_LIST ? ta_synth_plan_floats(y->plan, d, f) : -1;
    if (planned >= 0) { /* scale_factors */
        v.u.floats.items = f;
        v.u.floats.n = (size_t)planned;
    } else if (d->type == TA_DT_FLOAT_LIST) {
        v.u.floats.items = f;
        v.u.floats.n = d->fixed_size > 0 && d->fixed_size <= 2 ? (size_t)d->fixed_size : 1;
    } else {
        v.u.bools.items = b;
        v.u.bools.n = d->fixed_size > 0 && d->fixed_size <= 4 ? (size_t)d->fixed_size : 1;
    }
    return push(y, v);
}

/* An int-valued enum or an int. */
static ta_status push_int(synth *y, int64_t i)
{
    ta_value v = {.tag = TA_VAL_INT};
    v.u.i = i;
    return push(y, v);
}

/* Argument argi of the case, by its declared type. */
static ta_status synth_arg(synth *y, int argi)
{
    const ta_decl_slot *d = &y->d->args[argi];
    const ta_arg *a = d->arg;
    ta_value device = {.tag = TA_VAL_STRING};
    if (d->optional && synth_none(y, argi, d)) return push(y, (ta_value){.tag = TA_VAL_NONE});
    int lv = covered_level(y, argi);
    switch (d->type) {
    case TA_DT_TENSOR: return synth_tensor_arg(y, argi);
    case TA_DT_TENSOR_LIST: return synth_tensor_list(y, argi);
    case TA_DT_INT: return push_int(y, lv >= 0 ? lv : synth_int(y, a, d->name));
    case TA_DT_INT_LIST: return synth_int_list(y, d, a);
    case TA_DT_FLOAT: return push(y, synth_float(a));
    case TA_DT_FLOAT_LIST:
    case TA_DT_BOOL_LIST: return synth_constant_list(y, d);
    case TA_DT_BOOL: return push(y, synth_bool(y, d));
    case TA_DT_SCALAR: return push(y, synth_scalar(y, d));
    case TA_DT_SCALAR_TYPE:
        if (lv >= 0) return push_int(y, ta_scalar_type_of(cover_dtypes[lv]));
        return push_int(y, ta_scalar_type_of(chance(&y->r, 50) ? y->dtype : other_dtype(y)));
    case TA_DT_LAYOUT: return push_int(y, 0); /* Strided: the only dense layout */
    case TA_DT_MEMORY_FORMAT: return push_int(y, lv > 0 ? 1 : 0); /* contiguous, preserve */
    case TA_DT_DEVICE:
        device.u.s = y->x->dev->type == kDLCUDA ? "cuda" : "cpu";
        return push(y, device);
    case TA_DT_STRING: return synth_string(y, d, a);
    case TA_DT_SCALAR_LIST: return synth_scalar_list(y, d);
    case TA_DT_DIMNAME: return synth_dimname(y, d);
    case TA_DT_DIMNAME_LIST: return synth_dimname_list(y, d);
    case TA_DT_GENERATOR:
    case TA_DT_OTHER: break;
    }
    snprintf(y->c->note, sizeof y->c->note, "cannot synthesize argument '%s'", d->name);
    return TA_ERR_UNSUPPORTED;
}

ta_status ta_synth_tensor(ta_exec *x, uint64_t seed, DLDataType dt, int ndim, const int64_t *shape,
                          bool contiguous, bool fill, ta_synth_values vals, int64_t lo, int64_t hi, DLTensor **out)
{
    synth y = {.x = x, .r = {ta_mix64(seed)}, .special = false};
    layout lay = contiguous || ndim == 0 ? LAYOUT_CONTIGUOUS : LAYOUT_SLICED;
    contents what = fill                       ? MARKED
                    : vals == TA_SYNTH_OFFSETS ? (contents){OFFSETS, lo, hi + 1}
                    : vals == TA_SYNTH_RANGED  ? indices_in(lo, hi + 1)
                                               : values_in(-4, 5);
    *out = make_tensor(&y, dt, ndim, shape, lay, what);
    return *out ? TA_OK : TA_ERR_NOMEM;
}

ta_status ta_synth_case(ta_exec *x, const ta_schema *s, const ta_decl *d, uint64_t seed,
                        ta_case *c)
{
    return ta_synth_case_with(x, s, d, seed, c, NULL, NULL);
}

/* The case's dtype and main shape: drawn, then as the plan wants them (a
 * dtype the operator takes, the shape of a pooling or loss operator, or a
 * table shape with enough dimensions for a dim argument). */
static void pick_main(synth *y, uint64_t seed)
{
    static const DLDataType dts[] = {{kDLFloat, 32, 1}, {kDLFloat, 32, 1}, {kDLFloat, 32, 1},
                                     {kDLFloat, 64, 1}, {kDLInt, 64, 1},   {kDLInt, 64, 1},
                                     {kDLInt, 32, 1},   {TA_DL_BOOL, 8, 1}};
    size_t nshapes = sizeof shapes / sizeof *shapes, nlarge = sizeof large_shapes / sizeof *large_shapes;
    int ndt = (int)(sizeof cover_dtypes / sizeof *cover_dtypes), lv = cover(y, 0, ndt);
    DLDataType drawn = dts[below(&y->r, sizeof dts / sizeof *dts)];
    y->dtype = ta_synth_plan_dtype(y->plan, lv >= 0 ? cover_dtypes[lv] : drawn, seed >> 7);
    size_t si = (size_t)below(&y->r, (int64_t)nshapes);
    int planned = ta_synth_plan_shape(y->plan, y->shape);
    if (planned >= 0) {
        y->ndim = planned;
        return;
    }
    const int64_t *pick = shapes[si];
    if ((seed & 255) == 31 && huge_shape[0] >= y->plan->min_ndim && !y->d->names.no_huge) {
        pick = huge_shape;
    } else if ((seed & 15) == 15) {
        size_t li = (size_t)below(&y->r, (int64_t)nlarge);
        while (large_shapes[li][0] < y->plan->min_ndim) li = (li + 1) % nlarge;
        pick = large_shapes[li];
    } else {
        /* A covering row's values must reach the kernel: no empty shape there. */
        while (shapes[si][0] < y->plan->min_ndim ||
               (y->row >= 0 && numel_of(shapes[si] + 1, (int)shapes[si][0]) == 0))
            si = (si + 1) % nshapes;
        pick = shapes[si];
    }
    y->ndim = (int)pick[0];
    if (y->ndim) memcpy(y->shape, pick + 1, (size_t)y->ndim * sizeof *y->shape);
}

ta_status ta_synth_case_with(ta_exec *x, const ta_schema *s, const ta_decl *d, uint64_t seed,
                             ta_case *c, ta_synth_override over, void *ud)
{
    c->seed = seed;
    c->found = NULL;
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
    synth y = {.x = x, .s = s, .d = d, .c = c, .r = {ta_mix64(seed)}, .last_dim = -1,
               .row = (seed & 0xff) < TA_COVER_ROWS ? (int)(seed & 0xff) : -1,
               .special = (seed & 3) == 2, .sampled = over != NULL};
    ta_synth_plan plan;
    ta_synth_plan_make(&plan, d, seed);
    y.plan = &plan;
    pick_main(&y, seed);
    y.layout_mode = chance(&y.r, 50);
    y.alias_views = chance(&y.r, 33);
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
