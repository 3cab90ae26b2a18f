/* cu_tensor.h - host-side tensor helpers of the CUDA reference kernels (no CUDA header).
 *
 * dtypes and PyTorch's type promotion, broadcasting, the overlap tests that
 * decide whether a pointwise kernel may write straight into its output, and
 * turning DLTensors into the ta_cu_iter a launch takes. Pure geometry on
 * pointers: nothing here touches device memory.
 */
#ifndef TA_CUDA_CU_TENSOR_H
#define TA_CUDA_CU_TENSOR_H

#include <stdbool.h>
#include <stdint.h>

#include "cuda/cuda_iface.h"
#include "tensoralias/kernel.h"

/* A dtype slot that holds nothing yet; also "unsupported dtype". */
#define TA_CU_UNDEF (-1)

/* The ta_cu_dtype of a DLPack dtype, or TA_CU_UNDEF when unsupported. */
int ta_cu_dtype_of(DLDataType dt);
DLDataType ta_cu_dl_dtype(int cu_dtype);
/* PyTorch's name of a dtype ("Float", "Long"), for messages. */
const char *ta_cu_dtype_name(int cu_dtype);
bool ta_cu_is_float(int cu_dtype);

/* PyTorch's result_type: dimensioned tensors over zero-dim tensors over
 * wrapped Scalars, by category (integral < floating). */
typedef struct ta_cu_result_type {
    int dim, zero, wrapped;
} ta_cu_result_type;
void ta_cu_rt_init(ta_cu_result_type *rt);
void ta_cu_rt_tensor(ta_cu_result_type *rt, const DLTensor *t);
/* A Scalar argument: integral (I64), floating (the default dtype, F32) or BOOL. */
void ta_cu_rt_scalar(ta_cu_result_type *rt, int cu_dtype);
int ta_cu_rt_result(const ta_cu_result_type *rt);
/* Whether a computed dtype may be stored into an output of another dtype. */
bool ta_cu_can_cast(int from, int to);

/* Element strides of t (contiguous ones when t->strides is NULL). */
void ta_cu_strides(const DLTensor *t, int64_t *strides);
bool ta_cu_same_shape(const DLTensor *t, int ndim, const int64_t *shape);
/* The broadcast of two shapes into out (TA_CU_MAXDIM long); false when they
 * do not broadcast. */
bool ta_cu_broadcast(int na, const int64_t *a, int nb, const int64_t *b, int *nout, int64_t *out);
/* "[2, 3]" into buf. */
const char *ta_cu_shape_str(int ndim, const int64_t *shape, char *buf, size_t cap);

/* PyTorch's is_contiguous: row-major strides on every dimension longer than
 * one; an empty tensor is contiguous. */
bool ta_cu_is_contiguous(const DLTensor *t);
/* More than one element of t at the same address (a zero stride on a
 * dimension longer than one): a kernel cannot write through it. */
bool ta_cu_internal_overlap(const DLTensor *t);
/* Whether the bytes out writes may be read through in by other elements:
 * false when they are disjoint or out and in have the same geometry. */
bool ta_cu_needs_scratch(const DLTensor *out, const DLTensor *in);

/* Fills the iteration (shape) and its operand k from t, broadcasting t's
 * trailing dimensions against the shape. */
void ta_cu_iter_init(ta_cu_iter *it, int ndim, const int64_t *shape, int nops);
void ta_cu_iter_operand(ta_cu_iter *it, int k, const DLTensor *t);

#endif
