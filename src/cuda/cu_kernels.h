/* cu_kernels.h - what the CUDA reference kernel files share: argument checks,
 * Scalar reading, launching, and each family's registration. */
#ifndef TA_CUDA_CU_KERNELS_H
#define TA_CUDA_CU_KERNELS_H

#include "cuda/cu_tensor.h"
#include "tensoralias/kernel.h"

/* A Scalar argument as read from the stack: kind is TA_CU_I64 (integral),
 * TA_CU_F32 (floating: the default dtype) or TA_CU_BOOL. */
typedef struct ta_cu_sval {
    int kind;
    double f;
    int64_t i;
} ta_cu_sval;

/* Returns from the calling kernel when x (a ta_status) is not TA_OK. */
#define TA_CU_TRY(x)                                  \
    do {                                              \
        ta_status ta_cu_try_s_ = (x);                 \
        if (ta_cu_try_s_ != TA_OK) return ta_cu_try_s_; \
    } while (0)

/* The Scalar at i, or dflt (integral) when it is None or absent. */
ta_cu_sval ta_cu_read_scalar(ta_stack *st, size_t i, int64_t dflt);

/* A tensor argument the CUDA kernels can work on: present, on a CUDA
 * device, of a supported dtype and rank. */
ta_status ta_cu_check(ta_kernel_ctx *ctx, const char *op, const char *arg, const DLTensor *t);

/* Launches and turns a launch failure into a kernel error. */
ta_status ta_cu_run(ta_kernel_ctx *ctx, const char *op, const ta_cu_iter *it, ta_cu_opcode code,
                    const ta_cu_scalars *s, bool via_scratch);

/* Copies src (broadcast to dst's shape, converting dtype) into dst. */
ta_status ta_cu_copy_into(ta_kernel_ctx *ctx, const char *op, DLTensor *dst, const DLTensor *src);

/* Leaves t as the only return. */
ta_status ta_cu_return(ta_stack *st, DLTensor *t);

/* Registers fn for op under TA_KEY_CUDA, unless the registry's schema source
 * (the loaded native_functions.yaml) does not declare op: one library then
 * serves both PyTorch versions, and autogen names the source does not list. */
ta_status ta_cu_register(ta_registry *reg, const char *op, ta_kernel_fn fn, const void *user_data);

/* One line of a kernel table; ta_cu_register_table registers each line. */
typedef struct ta_cu_entry {
    const char *op;
    ta_kernel_fn fn;
    const void *user_data; /* a descriptor the kernel reads back, or NULL */
} ta_cu_entry;
ta_status ta_cu_register_table(ta_registry *reg, const ta_cu_entry *table, size_t n);

ta_status ta_cu_register_pointwise(ta_registry *reg);
ta_status ta_cu_register_views(ta_registry *reg);

#endif
