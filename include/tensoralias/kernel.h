/* tensoralias/kernel.h - the kernel ABI: how a kernel library plugs into tensoralias.
 *
 * A kernel is boxed: it receives a stack holding its arguments in schema order,
 * replaces them with its returns, and returns a status. Tensors are DLPack
 * DLTensors over storage the engine allocates and tracks, so every new tensor
 * or view a kernel makes must come from the ta_kernel_* allocation calls below
 * (the engine then knows which storage each output shares).
 *
 * A kernel library is a shared object exporting one function,
 *
 *     ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version);
 *
 * that registers kernels (and, for custom operators, schemas) under full
 * operator names. A complete library:
 *
 *     #include <tensoralias/kernel.h>
 *
 *     // mylib::twice(Tensor self) -> Tensor          (float32 only, for brevity)
 *     static ta_status twice(ta_kernel_ctx *ctx, ta_stack *st)
 *     {
 *         const DLTensor *x = ta_stack_tensor(st, 0);
 *         if (!x || x->dtype.code != kDLFloat || x->dtype.bits != 32)
 *             return ta_kernel_error(ctx, "twice: expected a float32 tensor");
 *         DLTensor *y;
 *         if (ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape, &y) != TA_OK)
 *             return ta_kernel_error(ctx, "twice: out of memory");
 *         int64_t n = ta_numel(x);
 *         for (int64_t i = 0; i < n; i++)
 *             *(float *)ta_elem_ptr(y, i) = 2.0f * *(const float *)ta_elem_ptr(x, i);
 *         ta_stack_clear(st);
 *         return ta_stack_push_tensor(st, y);
 *     }
 *
 *     ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version)
 *     {
 *         if (abi_version != TA_KERNEL_ABI_VERSION) return TA_ERR_UNSUPPORTED;
 *         return ta_register_op(reg, "mylib::twice(Tensor self) -> Tensor",
 *                               TA_KEY_CPU, twice, NULL);
 *     }
 *
 * Build it with `cc -shared -fPIC $(pkg-config --cflags tensoralias) -o libmine.so mine.c`
 * and run `tensoralias verify --kernels ./libmine.so --ops 'mylib::*'`.
 *
 * Rules (from PyTorch's custom-operator guide): every kernel registered for one
 * operator overload must carry the same schema; a catch-all kernel
 * (TA_KEY_CATCHALL) cannot be combined with device kernels of the same
 * operator; an operator may be registered with a schema and no kernel.
 */
#ifndef TENSORALIAS_KERNEL_H
#define TENSORALIAS_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dlpack/dlpack.h>

#include "tensoralias/diag.h"
#include "tensoralias/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 2: the storage-level calls (ta_kernel_storage_*, ta_kernel_tensor_on,
 * ta_kernel_rebind) and plugin options (ta_registry_option); since, additions
 * that leave old plugins working: ta_registry_on_process_reset; the value
 * tags TA_VAL_SCALAR_LIST, TA_VAL_DIMNAME and TA_VAL_DIMNAME_LIST (new tags
 * after the old ones, new union members no larger than the old ones, so a
 * ta_value keeps its size and layout; a plugin built before them meets
 * them only in Scalar[] and Dimname arguments, which were given None at
 * most before); ta_register_screen.
 * 3: the calls that make tensors and storages (ta_kernel_empty, _view,
 * _tensor_array, _storage_new, _tensor_on) return a ta_status and their
 * result through an out-parameter, as every fallible call of the library. */
#define TA_KERNEL_ABI_VERSION 3u
#define TA_PLUGIN_ENTRY "tensoralias_register"

/* ---- values ------------------------------------------------------------ */

typedef enum ta_value_tag {
    TA_VAL_NONE = 0,    /* None, and an absent optional */
    TA_VAL_TENSOR,      /* Tensor, Tensor? that is present */
    TA_VAL_TENSOR_LIST, /* Tensor[], Tensor?[] (items may be NULL for the latter) */
    TA_VAL_INT,         /* int, SymInt, and int-like enums (ScalarType, Layout, MemoryFormat) */
    TA_VAL_INT_LIST,    /* int[], SymInt[], int[N] */
    TA_VAL_FLOAT,       /* float */
    TA_VAL_FLOAT_LIST,  /* float[] */
    TA_VAL_BOOL,        /* bool */
    TA_VAL_BOOL_LIST,   /* bool[N] */
    TA_VAL_STRING,      /* str, and enum-like defaults spelled as names */
    TA_VAL_SCALAR,      /* Scalar: see scalar_kind */
    TA_VAL_SCALAR_LIST, /* Scalar[]: u.scalars */
    TA_VAL_DIMNAME,     /* Dimname: u.s, the name of a dimension (see TA_DIM_NAMES) */
    TA_VAL_DIMNAME_LIST /* Dimname[], Dimname[N]: u.names */
} ta_value_tag;

typedef enum ta_scalar_kind { TA_SCALAR_INT, TA_SCALAR_FLOAT, TA_SCALAR_BOOL } ta_scalar_kind;

/* One item of a Scalar[]. */
typedef struct ta_scalar {
    ta_scalar_kind kind;
    union {
        int64_t i;
        double f;
        bool b;
    } u;
} ta_scalar;

/* Named dimensions. A case whose arguments include a Dimname value names
 * its tensor arguments' dimensions (out= ones excepted) by position from
 * the last: dimension i of an n-dimensional tensor (n <= 8) is named by
 * the letter TA_DIM_NAMES[8 - n + i], so a matrix's dimensions are "g" and
 * "h", and tensors that broadcast agree on their names. A framework with
 * named tensors (the libtorch bridge) names them so; a kernel that does not
 * know names reads a Dimname as the dimension its letter stands for. */
#define TA_DIM_NAMES "abcdefgh"

typedef struct ta_value {
    ta_value_tag tag;
    ta_scalar_kind scalar_kind; /* TA_VAL_SCALAR only */
    union {
        DLTensor *tensor;
        struct { DLTensor **items; size_t n; } tensors;
        int64_t i;
        double f;
        bool b;
        struct { const int64_t *items; size_t n; } ints;
        struct { const double *items; size_t n; } floats;
        struct { const bool *items; size_t n; } bools;
        const char *s;
        struct { const ta_scalar *items; size_t n; } scalars;
        struct { const char *const *items; size_t n; } names;
    } u;
} ta_value;

/* ---- the stack --------------------------------------------------------- */

typedef struct ta_stack ta_stack;

TA_API size_t ta_stack_size(const ta_stack *st);
TA_API ta_value *ta_stack_at(ta_stack *st, size_t i); /* NULL past the end */
/* The tensor at i, or NULL when it is None or not a tensor. */
TA_API DLTensor *ta_stack_tensor(ta_stack *st, size_t i);
TA_API int64_t ta_stack_int(ta_stack *st, size_t i, int64_t dflt);   /* INT, BOOL or integral SCALAR */
TA_API double ta_stack_double(ta_stack *st, size_t i, double dflt);  /* FLOAT, INT, BOOL or SCALAR */
TA_API bool ta_stack_is_none(ta_stack *st, size_t i);
TA_API void ta_stack_clear(ta_stack *st);                     /* drop everything */
TA_API ta_status ta_stack_push(ta_stack *st, ta_value v);
TA_API ta_status ta_stack_push_tensor(ta_stack *st, DLTensor *t);

/* ---- the kernel context: allocation and errors -------------------------- */

typedef struct ta_kernel_ctx ta_kernel_ctx;

/* Records the message and returns TA_ERR_KERNEL. */
TA_API ta_status ta_kernel_error(ta_kernel_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The kernel left t, a tensor the engine handed out, with a geometry that
 * reaches past the end of its storage (a bridge finds this after the real
 * kernel returned, when it cannot rebind t): not a rejected case but an
 * out-of-bounds finding on t's argument, with this message. Returns
 * TA_ERR_KERNEL; the case's outputs are not checked. */
TA_API ta_status ta_kernel_bad_geometry(ta_kernel_ctx *ctx, const DLTensor *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Refuses the case as ta_kernel_error does, and says that no input the
 * engine makes could run the operator on this device: its kernel calls
 * another operator that has no kernel for the device (a composite out=
 * variant over a CUDA-only operator), or one that has kernels only for
 * layouts the engine does not make (sparse, quantized, MKLDNN, nested). A
 * bridge that knows its dispatcher says so from it, never from a name. An
 * operator every case of which is refused so gets the verdict not-runnable
 * with this message, instead of not-exercised. Returns TA_ERR_KERNEL. */
TA_API ta_status ta_kernel_cannot_run(ta_kernel_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The device the kernel runs on (kDLCPU or kDLCUDA). */
TA_API DLDevice ta_kernel_device(const ta_kernel_ctx *ctx);

/* The calls that make tensors return a status and the tensor through *out
 * (NULL when they fail). */

/* A new contiguous tensor on the kernel's device, contents unspecified:
 * TA_ERR_INVALID for a negative dimension, TA_ERR_NOMEM when it cannot be
 * allocated. */
TA_API ta_status ta_kernel_empty(ta_kernel_ctx *ctx, DLDataType dtype, int ndim, const int64_t *shape,
                                 DLTensor **out);
/* A new tensor sharing base's storage with the given geometry
 * (byte_offset is relative to the storage start, as in DLTensor):
 * TA_ERR_INVALID when base is not the engine's or the geometry does not fit
 * in its storage. */
TA_API ta_status ta_kernel_view(ta_kernel_ctx *ctx, const DLTensor *base, int ndim,
                                const int64_t *shape, const int64_t *strides, uint64_t byte_offset,
                                DLTensor **out);
/* Changes t's geometry in place (transpose_, squeeze_, as_strided_). */
TA_API ta_status ta_kernel_restride(ta_kernel_ctx *ctx, DLTensor *t, int ndim, const int64_t *shape,
                             const int64_t *strides, uint64_t byte_offset);
/* resize_: gives t the shape, contiguous strides, and storage large enough
 * (reallocated, keeping the old bytes, when it was too small). As in torch,
 * a tensor that has the shape already keeps its strides and offset. */
TA_API ta_status ta_kernel_resize(ta_kernel_ctx *ctx, DLTensor *t, int ndim, const int64_t *shape);
/* An array of n tensor pointers for a tensor-list return, owned by the engine. */
TA_API ta_status ta_kernel_tensor_array(ta_kernel_ctx *ctx, size_t n, DLTensor ***out);

/* ---- storage-level calls: for bridges to other frameworks -------------- */

/* A bridge that runs another framework's kernels on the engine's bytes (the
 * libtorch bridge) works at the level of storages: it wraps each input
 * tensor's whole storage, has every allocation the framework makes during
 * the call served by ta_kernel_storage_new (so fresh outputs and resized
 * out= arguments are engine storages, with guard pages and snapshots like
 * any other), and hands results back over those storages. */
typedef struct ta_kernel_storage {
    uint32_t id; /* unique within the case, from 1 */
    void *base;  /* the storage's first byte (a DLTensor's data is its storage's base) */
    size_t bytes;
} ta_kernel_storage;

/* The storage behind a tensor the engine handed out; false for another. */
TA_API bool ta_kernel_storage_of(ta_kernel_ctx *ctx, const DLTensor *t, ta_kernel_storage *out);
/* The storage whose bytes contain p (or an empty one starting at p); false if none. */
TA_API bool ta_kernel_storage_at(ta_kernel_ctx *ctx, const void *p, ta_kernel_storage *out);
/* A new storage of `bytes`, every byte the engine's marker (so an out=
 * argument moved onto it shows which elements the kernel wrote). It lives
 * until the case ends, whatever the kernel does with it. TA_ERR_NOMEM when
 * out of memory. */
TA_API ta_status ta_kernel_storage_new(ta_kernel_ctx *ctx, size_t bytes, ta_kernel_storage *out);
/* A tensor over storage `storage` (byte_offset from its base), checked to
 * fit: TA_ERR_INVALID (and *out NULL) when it does not. */
TA_API ta_status ta_kernel_tensor_on(ta_kernel_ctx *ctx, uint32_t storage, DLDataType dtype, int ndim,
                                     const int64_t *shape, const int64_t *strides, uint64_t byte_offset,
                                     DLTensor **out);
/* Moves t, a tensor the engine handed out, onto `storage` with the given
 * geometry: what a resize that reallocated did to an argument (in PyTorch
 * the argument then lives in the new storage). TA_ERR_INVALID when t is
 * not the engine's or the geometry does not fit. */
TA_API ta_status ta_kernel_rebind(ta_kernel_ctx *ctx, DLTensor *t, uint32_t storage, int ndim,
                                  const int64_t *shape, const int64_t *strides, uint64_t byte_offset);

/* ---- dtypes ------------------------------------------------------------ */

/* DLPack 0.6 (the installed header) has no bool code; DLPack >= 0.7 and
 * PyTorch use kDLBool = 6 for one-byte bools, and so does tensoralias. */
#define TA_DL_BOOL 6
#define TA_DTYPE_F32 ((DLDataType){kDLFloat, 32, 1})
#define TA_DTYPE_F64 ((DLDataType){kDLFloat, 64, 1})
#define TA_DTYPE_I64 ((DLDataType){kDLInt, 64, 1})
#define TA_DTYPE_I32 ((DLDataType){kDLInt, 32, 1})
#define TA_DTYPE_BOOL ((DLDataType){TA_DL_BOOL, 8, 1})

/* Int-like enums travel as TA_VAL_INT with PyTorch's c10 numbering:
 * ScalarType (Byte 0, Char 1, Short 2, Int 3, Long 4, Half 5, Float 6,
 * Double 7, Bool 11, BFloat16 15), Layout (Strided 0), MemoryFormat
 * (Contiguous 0, Preserve 1, ChannelsLast 2, ChannelsLast3d 3), and
 * at::Reduction (None 0, Mean 1, Sum 2). */
enum {
    TA_ST_BYTE = 0, TA_ST_CHAR = 1, TA_ST_SHORT = 2, TA_ST_INT = 3, TA_ST_LONG = 4,
    TA_ST_HALF = 5, TA_ST_FLOAT = 6, TA_ST_DOUBLE = 7, TA_ST_BOOL = 11, TA_ST_BFLOAT16 = 15
};
/* ScalarType code <-> dtype; false / -1 when there is no counterpart. */
TA_API bool ta_dtype_from_scalar_type(int64_t code, DLDataType *out);
TA_API int64_t ta_scalar_type_of(DLDataType dt);

/* ---- geometry helpers (pure; usable by any kernel) --------------------- */

TA_API int64_t ta_numel(const DLTensor *t);
TA_API size_t ta_dtype_size(DLDataType dt);
/* Address of the i-th element in row-major logical order, honouring strides. */
TA_API void *ta_elem_ptr(const DLTensor *t, int64_t i);
TA_API bool ta_is_contiguous(const DLTensor *t);
/* Strides of t in elements (contiguous ones when t->strides is NULL), into
 * out[0..ndim). */
TA_API void ta_strides_of(const DLTensor *t, int64_t *out);
TA_API bool ta_dtype_eq(DLDataType a, DLDataType b);
/* "float32", "int64", "bool", ... ("?" for others). */
TA_API const char *ta_dtype_name(DLDataType dt);

/* ---- registration ------------------------------------------------------ */

typedef enum ta_dispatch_key {
    TA_KEY_CATCHALL = 0, /* any device */
    TA_KEY_CPU,
    TA_KEY_CUDA
} ta_dispatch_key;

typedef ta_status (*ta_kernel_fn)(ta_kernel_ctx *ctx, ta_stack *st);

typedef struct ta_registry ta_registry;

/* Registers a kernel for an operator known by its schema. `op` is either a
 * full operator name ("aten::abs.out", "aten::add.Tensor") whose schema comes
 * from the loaded native_functions.yaml or an earlier registration, or a whole
 * schema ("mylib::op(Tensor(a!) x) -> Tensor(a!)"). fn may be NULL to
 * register only the schema. */
TA_API ta_status ta_register_op(ta_registry *reg, const char *op, ta_dispatch_key key,
                         ta_kernel_fn fn, void *user_data);
TA_API void *ta_kernel_user_data(const ta_kernel_ctx *ctx);
/* True when the registry has a schema source (a loaded native_functions.yaml)
 * that does not declare the full operator name `op`, and no earlier
 * registration gave it a schema; false otherwise (also when there is no schema
 * source). A library serving several PyTorch versions skips such names
 * instead of registering kernels without a schema. */
TA_API bool ta_registry_lacks_schema(ta_registry *reg, const char *op);

/* An option the host gave the plugins it loads ("torch.library" -> a path),
 * or NULL when it gave none. */
TA_API const char *ta_registry_option(const ta_registry *reg, const char *key);

/* For tensoralias_register of a bridge: the framework whose kernel was
 * registered for `op` holds another schema for it, whose alias annotations
 * differ from the one verified against (message: what differs). verify
 * reports it as a schema-mismatch finding of op. */
TA_API ta_status ta_registry_schema_mismatch(ta_registry *reg, const char *op, const char *message);

/* For tensoralias_register of a bridge to a framework that has kernels
 * computing only what a call's results would look like (PyTorch's Meta
 * kernels; the fake kernels of custom operators): fn, called like a kernel
 * on a case's arguments, checks them as the operator's kernel would without
 * running it, and returns TA_OK (the kernel would accept them),
 * ta_kernel_error with the reason (it would refuse them), or
 * TA_ERR_UNSUPPORTED (it cannot tell). It leaves the stack as it found it.
 * Input discovery screens each case it tries with it before calling the
 * real kernel (cheaper, and safer: a case that would crash an unchecked
 * kernel is refused first). */
TA_API ta_status ta_register_screen(ta_registry *reg, const char *op, ta_kernel_fn fn, void *user_data);

/* For tensoralias_register of a bridge to a framework with process-wide
 * state its kernels can change (a random generator, thread counts, global
 * flags). With `verify --isolate=batch` a child process runs several
 * operators one after another; before each one but the first the engine
 * calls fn(ud), which puts back what it can as a fresh child would have it
 * (the generator's state) and returns false when it finds state changed
 * that it cannot put back: the engine then gives the next operator a fresh
 * child. At most TA_MAX_PROCESS_RESETS per registry. */
#define TA_MAX_PROCESS_RESETS 8
typedef bool (*ta_process_reset_fn)(void *ud);
TA_API ta_status ta_registry_on_process_reset(ta_registry *reg, ta_process_reset_fn fn, void *ud);

/* For tensoralias_register: records an error (rule "plugin", at the
 * library's path) that the host reports, and returns TA_ERR_INVALID. */
TA_API ta_status ta_registry_plugin_error(ta_registry *reg, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

typedef ta_status (*ta_plugin_register_fn)(ta_registry *reg, uint32_t abi_version);

#ifdef __cplusplus
}
#endif
#endif
