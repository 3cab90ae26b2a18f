/* rk.h - the toolkit shared by the CPU reference kernels (internal).
 *
 * Kernels compute in two domains only, double and int64: every element is
 * loaded into one of them, transformed, and stored back in the output dtype,
 * so one implementation serves every dtype. This header declares the dtype
 * table (dtype.c), PyTorch's type promotion (dtype.c), a strided
 * multi-operand iterator with broadcasting, argument readers, and the output
 * preparation shared by functional, in-place and out= variants (iter.c).
 */
#ifndef TA_REFKERNELS_RK_H
#define TA_REFKERNELS_RK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tensoralias/kernel.h>

#define RK_MAXDIM 64 /* PyTorch's own limit on tensor rank */
#define RK_MAXOPS 5  /* operands of one iterator: output plus up to four inputs */

/* ---- dtypes (dtype.c) ---------------------------------------------------- */

typedef enum rk_dtype {
    RK_BAD = -1, /* unsupported, and "undefined" in promotion */
    RK_BOOL = 0,
    RK_U8, RK_I8, RK_I16, RK_I32, RK_I64,
    RK_F16, RK_BF16, RK_F32, RK_F64
} rk_dtype;

rk_dtype rk_dtype_of(DLDataType dt);
DLDataType rk_dl(rk_dtype d);
size_t rk_size(rk_dtype d);
const char *rk_name(rk_dtype d); /* PyTorch's names: "Float", "Long", ... */
static inline bool rk_is_float(rk_dtype d) { return d >= RK_F16; }
static inline bool rk_is_int(rk_dtype d) { return d >= RK_U8 && d <= RK_I64; }
/* c10::ScalarType numbering, as a `ScalarType dtype` argument carries it. */
rk_dtype rk_from_scalar_type(int64_t st);

double rk_loadf(rk_dtype d, const void *p);
int64_t rk_loadi(rk_dtype d, const void *p);
void rk_storef(rk_dtype d, void *p, double v);
void rk_storei(rk_dtype d, void *p, int64_t v);
/* double -> int64 without undefined behaviour (NaN and overflow give INT64_MIN, as x86 does). */
int64_t rk_f2i(double v);

rk_dtype rk_promote(rk_dtype a, rk_dtype b);
bool rk_can_cast(rk_dtype from, rk_dtype to);

/* A Scalar argument. buf holds it in its own dtype so it can act as a 0-dim tensor. */
typedef struct rk_scalar {
    ta_scalar_kind kind;
    double f;
    int64_t i;
    union { double f; int64_t i; uint8_t b; } buf;
} rk_scalar;
rk_dtype rk_scalar_dtype(const rk_scalar *s); /* Bool, Long or Double */
/* Whether s converts to d without overflow (PyTorch's checked conversion of fill values). */
bool rk_scalar_fits(rk_dtype d, const rk_scalar *s);
/* A 0-dim CPU tensor over s->buf. */
void rk_scalar_tensor(rk_scalar *s, DLTensor *t);

/* PyTorch's result_type: dimensioned tensors beat 0-dim tensors beat wrapped
 * numbers (Scalars), unless a lower-priority operand is of a higher category. */
typedef struct rk_rtype { rk_dtype dim, zero, wrapped; } rk_rtype;
void rk_rtype_init(rk_rtype *r);
void rk_rtype_tensor(rk_rtype *r, const DLTensor *t);
void rk_rtype_scalar(rk_rtype *r, const rk_scalar *s);
rk_dtype rk_rtype_result(const rk_rtype *r);

/* ---- geometry (iter.c) --------------------------------------------------- */

/* Copies n dims; unlike memcpy, fine with the NULL shape of a 0-dim tensor. */
static inline void rk_dims_copy(int64_t *dst, const int64_t *src, int n)
{
    for (int i = 0; i < n; i++) dst[i] = src[i];
}
static inline char *rk_base(const DLTensor *t) { return (char *)t->data + t->byte_offset; }
int64_t rk_stride(const DLTensor *t, int d); /* in elements; NULL strides mean row-major */
void rk_get_strides(const DLTensor *t, int64_t *out);
void rk_contig_strides(int ndim, const int64_t *shape, int64_t *out);
int64_t rk_prod(int ndim, const int64_t *shape);
bool rk_contiguous(const DLTensor *t);            /* PyTorch's rule: size-1 dims ignored */
bool rk_dense(const DLTensor *t);                 /* non-overlapping and dense */
bool rk_shape_eq(const DLTensor *t, int ndim, const int64_t *shape);
/* Wraps a negative dim against ndim (a 0-dim tensor accepts -1 and 0). */
bool rk_wrap_dim(ta_kernel_ctx *ctx, const char *op, int64_t *dim, int64_t ndim);
/* Writes "[2, 3]" into buf. */
const char *rk_shape_str(char *buf, size_t cap, int ndim, const int64_t *shape);

/* ---- the strided iterator ------------------------------------------------- */

typedef struct rk_iter {
    int ndim, nops;
    int64_t n;
    int64_t shape[RK_MAXDIM];
    int64_t idx[RK_MAXDIM];
    char *p[RK_MAXOPS];
    int64_t bs[RK_MAXOPS][RK_MAXDIM]; /* byte strides, 0 along broadcast dims */
    rk_dtype dt[RK_MAXOPS];
} rk_iter;

void rk_iter_init(rk_iter *it, int ndim, const int64_t *shape);
/* Adds t broadcast (right-aligned) to the iterator's shape; t must be broadcastable. */
void rk_iter_add(rk_iter *it, const DLTensor *t);

static inline void rk_iter_step(rk_iter *it)
{
    for (int d = it->ndim - 1; d >= 0; d--) {
        for (int k = 0; k < it->nops; k++) it->p[k] += it->bs[k][d];
        if (++it->idx[d] < it->shape[d]) return;
        for (int k = 0; k < it->nops; k++) it->p[k] -= it->bs[k][d] * it->shape[d];
        it->idx[d] = 0;
    }
}

/* Adds a raw operand: a base address and one byte stride per iterator dim. */
void rk_iter_add_bytes(rk_iter *it, void *base, const int64_t *bs);

/* The broadcast shape of n tensors (NULL entries skipped), or an error. */
bool rk_broadcast(ta_kernel_ctx *ctx, const char *op, const DLTensor *const *ts, int n,
                  int *ndim, int64_t *shape);

/* dst[...] = src[...] with src broadcast to dst's shape and converted to dst's dtype. */
void rk_copy(const DLTensor *dst, const DLTensor *src);

/* ---- arguments ------------------------------------------------------------ */

bool rk_none(ta_stack *st, size_t i); /* None or absent */
int64_t rk_int(ta_stack *st, size_t i, int64_t dflt);
bool rk_bool(ta_stack *st, size_t i, bool dflt);
/* An int list (a single int is a one-item list). False when None or absent. */
bool rk_ints(ta_stack *st, size_t i, const int64_t **items, size_t *n, int64_t *one);
bool rk_tensors(ta_stack *st, size_t i, DLTensor ***items, size_t *n);
bool rk_scalar_arg(ta_stack *st, size_t i, rk_scalar *s); /* false when None or absent */
const char *rk_string(ta_stack *st, size_t i);           /* NULL when None or absent */
/* A `ScalarType? dtype` argument: RK_BAD when None; *ok false when unsupported. */
rk_dtype rk_dtype_arg(ta_stack *st, size_t i, bool *ok);

/* ---- outputs -------------------------------------------------------------- */

/* RK_OUT_ANY: an autogenerated out= variant, which copies the functional
 * result into out (any dtype conversion allowed, as copy_ does). */
typedef enum rk_mode { RK_FUNC, RK_INPLACE, RK_OUT, RK_OUT_ANY } rk_mode;

/* A tensor of a supported dtype, or an error naming the op and argument. */
bool rk_check_tensor(ta_kernel_ctx *ctx, const char *op, const char *arg, const DLTensor *t);
/* The tensor a kernel writes its result of dtype dt and the given shape into:
 * FUNC: a new tensor; INPLACE: `given` (self), which must have that shape and
 * accept dt; OUT: `given`, which must accept dt, resized when its shape
 * differs. NULL after an error was recorded. */
DLTensor *rk_output(ta_kernel_ctx *ctx, const char *op, rk_mode mode, DLTensor *given,
                    rk_dtype dt, int ndim, const int64_t *shape);
/* A new tensor of t's shape that copies t's strides when t is dense (PyTorch's
 * preserve_format). */
DLTensor *rk_empty_like(ta_kernel_ctx *ctx, const DLTensor *t, rk_dtype dt);
/* Whether a written tensor has no two elements at one address (else an error). */
bool rk_check_writable(ta_kernel_ctx *ctx, const char *op, const DLTensor *t);

ta_status rk_return1(ta_stack *st, DLTensor *t);
ta_status rk_return2(ta_stack *st, DLTensor *a, DLTensor *b);
ta_status rk_return_list(ta_kernel_ctx *ctx, ta_stack *st, DLTensor *const *items, size_t n);
/* Records "op: out of memory" and returns the error status. */
ta_status rk_oom(ta_kernel_ctx *ctx, const char *op);

/* ---- registration (rk_register.c) --------------------------------------- */

typedef struct rk_entry {
    const char *name; /* full operator name without "aten::" */
    ta_kernel_fn fn;
    const void *data; /* the kernel's user_data */
} rk_entry;

/* Registers "aten::<name>"; a name the loaded schemas lack is skipped quietly
 * (the two PyTorch corpora differ). */
ta_status rk_reg(ta_registry *reg, const char *name, ta_kernel_fn fn, const void *data);
/* Registers every entry up to the one with a NULL name. */
ta_status rk_reg_table(ta_registry *reg, const rk_entry *tab);

/* One per family. */
ta_status rk_register_unary(ta_registry *reg);
ta_status rk_register_binary(ta_registry *reg);
ta_status rk_register_reduce(ta_registry *reg);
ta_status rk_register_views(ta_registry *reg);
ta_status rk_register_shape(ta_registry *reg);
ta_status rk_register_fill(ta_registry *reg);
ta_status rk_register_linalg(ta_registry *reg);
ta_status rk_register_index(ta_registry *reg);
ta_status rk_register_softmax(ta_registry *reg);

#endif
