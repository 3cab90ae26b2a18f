/* cuda_iface.h - what the host C of the CUDA library shares with its .cu launchers.
 *
 * The CUDA library (build/libtensoralias_cuda.so) is ONE shared object that
 * exports both entry points:
 *   tensoralias_device   (TA_DEVICE_ENTRY, tensoralias/device.h) - the CUDA device
 *                        the engine allocates, snapshots and compares through;
 *   tensoralias_register (TA_PLUGIN_ENTRY, kernel.h) - the CUDA reference
 *                        kernels, registered under TA_KEY_CUDA.
 * One object because the kernels are useless without the device and both need
 * the same CUDA runtime (linked statically, so only the driver libcuda.so is
 * needed where it runs); the core library never links CUDA.
 *
 * Split: .c files hold everything that needs no CUDA header (argument
 * checking, dtype promotion, broadcasting, view geometry) and compile as C17
 * with the rest of the project; .cu files hold device code and the C-callable
 * launchers declared here. Operands cross that line as a ta_cu_iter passed to
 * the kernel by value (sizes and element strides, no device-side metadata).
 */
#ifndef TA_CUDA_IFACE_H
#define TA_CUDA_IFACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Enough for any tensor the engine synthesizes; larger ranks are refused. */
#define TA_CU_MAXDIM 12

/* The dtypes the CUDA reference kernels compute on. */
typedef enum ta_cu_dtype {
    TA_CU_U8 = 0,
    TA_CU_I8,
    TA_CU_I16,
    TA_CU_I32,
    TA_CU_I64,
    TA_CU_F32,
    TA_CU_F64,
    TA_CU_BOOL, /* one byte, 0 or 1 (DLPack code 6, TA_DL_BOOL) */
    TA_CU_NDTYPES
} ta_cu_dtype;

/* One operand of an elementwise launch: where element 0 is, its dtype, and
 * its stride (in elements) along each dimension of the iteration shape
 * (0 along broadcast dimensions). */
typedef struct ta_cu_operand {
    char *data;
    int32_t dtype; /* ta_cu_dtype */
    int32_t elsize;
    int64_t stride[TA_CU_MAXDIM];
} ta_cu_operand;

/* An elementwise launch: operand 0 is written, 1 and 2 are read. */
typedef struct ta_cu_iter {
    int32_t ndim;
    int32_t nops; /* 1 (fill), 2 (unary, copy, tensor op scalar) or 3 (binary) */
    int64_t numel;
    int64_t shape[TA_CU_MAXDIM];
    ta_cu_operand op[3];
} ta_cu_iter;

typedef enum ta_cu_opcode {
    TA_CU_ABS = 0, TA_CU_NEG, TA_CU_EXP, TA_CU_LOG, TA_CU_SQRT, TA_CU_SIN, TA_CU_COS,
    TA_CU_TANH, TA_CU_SIGMOID, TA_CU_RELU, TA_CU_CEIL, TA_CU_FLOOR, TA_CU_RECIPROCAL,
    TA_CU_ADD, TA_CU_SUB, TA_CU_MUL, TA_CU_DIV, TA_CU_MAXIMUM, TA_CU_MINIMUM,
    TA_CU_FILL, TA_CU_COPY,
    TA_CU_NOPCODES
} ta_cu_opcode;

/* Scalars of a launch. Arithmetic is done in double when use_float is set,
 * otherwise in int64 (wrapping), then stored in operand 0's dtype. A binary
 * op whose second operand is a Scalar (add.Scalar) has nops == 2 and reads
 * `other` in its place; fill reads it as the value. */
typedef struct ta_cu_scalars {
    int32_t use_float;
    int32_t unused;
    double alpha_f, other_f; /* add/sub alpha; the Scalar other or fill value */
    int64_t alpha_i, other_i;
} ta_cu_scalars;

/* Runs out = op(in...) over the iteration. When via_scratch is set the
 * result goes through a private contiguous buffer first (the output overlaps
 * an input in a way a parallel kernel would race on). Returns 0, or non-zero
 * with a message (a launch error; faults inside the kernel surface at the
 * device's sync). */
int ta_cu_launch(const ta_cu_iter *it, ta_cu_opcode op, const ta_cu_scalars *s, int via_scratch,
                 char *err, size_t errcap);

/* Whether TA_CUDA_EMULATE is set (and not "0"): the CUDA library then runs
 * on the host, as a device whose memory is host memory (allocations are
 * malloc'd, copies are memmove, launches and the compare kernel run their
 * device code in host loops). For testing without a GPU only. */
int ta_cu_emulated(void);

/* Writes a printf-style message into err (when err is not NULL and errcap >
 * 0) and returns 1: how the .cu side reports a failure (device.cu). */
int ta_cu_fail(char *err, size_t errcap, const char *fmt, ...);

/* Test hook: launches a kernel that writes through a bad device address, so
 * a test can check that sync turns the fault into a message. */
int ta_cuda_debug_fault(char *err, size_t errcap);

#ifdef __cplusplus
}
#endif
#endif
