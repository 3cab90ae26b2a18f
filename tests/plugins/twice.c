/* twice.c - the example kernel library of kernel.h, used by the registry and
 * plugin-loading tests: mylib::twice on CPU, plus a schema-only operator. */
#include <tensoralias/kernel.h>

static ta_status twice(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *x = ta_stack_tensor(st, 0);
    if (!x || x->dtype.code != kDLFloat || x->dtype.bits != 32)
        return ta_kernel_error(ctx, "twice: expected a float32 tensor");
    DLTensor *y;
    if (ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape, &y) != TA_OK)
        return ta_kernel_error(ctx, "twice: out of memory");
    int64_t n = ta_numel(x);
    for (int64_t i = 0; i < n; i++)
        *(float *)ta_elem_ptr(y, i) = 2.0f * *(const float *)ta_elem_ptr(x, i);
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, y);
}

ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version);
ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version)
{
    if (abi_version != TA_KERNEL_ABI_VERSION) return TA_ERR_UNSUPPORTED;
    ta_status s = ta_register_op(reg, "mylib::twice(Tensor self) -> Tensor", TA_KEY_CPU, twice, NULL);
    if (s != TA_OK) return s;
    return ta_register_op(reg, "mylib::later(Tensor a, Tensor b) -> Tensor", TA_KEY_CATCHALL, NULL,
                          NULL);
}
