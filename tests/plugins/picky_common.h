/* picky_common.h - what the discovery test plugins (pickykernels.c,
 * pickytables.c) share: a kernel's accepted result. Each plugin is a .so
 * of its own; this is included, not linked. */
#ifndef TA_TESTS_PICKY_COMMON_H
#define TA_TESTS_PICKY_COMMON_H

#include <tensoralias/kernel.h>

/* A new float32 tensor of x's shape, zeroed, as the only result. */
static inline ta_status fresh(ta_kernel_ctx *ctx, ta_stack *st, const DLTensor *x)
{
    DLTensor *y;
    if (ta_kernel_empty(ctx, TA_DTYPE_F32, x->ndim, x->shape, &y) != TA_OK)
        return ta_kernel_error(ctx, "out of memory");
    for (int64_t i = 0, n = ta_numel(y); i < n; i++) *(float *)ta_elem_ptr(y, i) = 0.0f;
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, y);
}

#endif
