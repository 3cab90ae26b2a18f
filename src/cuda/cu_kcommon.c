/* cu_kcommon.c - argument checks, Scalars, launching and returning for the CUDA kernels. */
#include <stdio.h>

#include "cuda/cu_kernels.h"

ta_cu_sval ta_cu_read_scalar(ta_stack *st, size_t i, int64_t dflt)
{
    ta_cu_sval s = {TA_CU_I64, (double)dflt, dflt};
    const ta_value *v = ta_stack_at(st, i);
    if (!v) return s;
    switch (v->tag) {
    case TA_VAL_SCALAR:
        if (v->scalar_kind == TA_SCALAR_FLOAT) {
            s.kind = TA_CU_F32;
            s.f = v->u.f;
            s.i = (int64_t)v->u.f;
        } else if (v->scalar_kind == TA_SCALAR_BOOL) {
            s.kind = TA_CU_BOOL;
            s.i = v->u.b;
            s.f = v->u.b;
        } else {
            s.i = v->u.i;
            s.f = (double)v->u.i;
        }
        break;
    case TA_VAL_INT:
        s.i = v->u.i;
        s.f = (double)v->u.i;
        break;
    case TA_VAL_FLOAT:
        s.kind = TA_CU_F32;
        s.f = v->u.f;
        s.i = (int64_t)v->u.f;
        break;
    case TA_VAL_BOOL:
        s.kind = TA_CU_BOOL;
        s.i = v->u.b;
        s.f = v->u.b;
        break;
    default: break;
    }
    return s;
}

ta_status ta_cu_check(ta_kernel_ctx *ctx, const char *op, const char *arg, const DLTensor *t)
{
    if (!t) return ta_kernel_error(ctx, "%s: argument '%s' must be a tensor", op, arg);
    if (t->device.device_type != kDLCUDA)
        return ta_kernel_error(ctx, "%s: expected '%s' on a CUDA device, got DLPack device type %d", op, arg,
                               (int)t->device.device_type);
    if (ta_cu_dtype_of(t->dtype) == TA_CU_UNDEF)
        return ta_kernel_error(ctx,
                               "%s: '%s' has a dtype the CUDA reference kernels do not support "
                               "(DLPack code %u, %u bits, %u lanes)",
                               op, arg, (unsigned)t->dtype.code, (unsigned)t->dtype.bits, (unsigned)t->dtype.lanes);
    if (t->ndim < 0 || t->ndim > TA_CU_MAXDIM)
        return ta_kernel_error(ctx, "%s: '%s' has %d dimensions; the CUDA reference kernels take at most %d", op,
                               arg, t->ndim, TA_CU_MAXDIM);
    return TA_OK;
}

ta_status ta_cu_run(ta_kernel_ctx *ctx, const char *op, const ta_cu_iter *it, ta_cu_opcode code,
                    const ta_cu_scalars *s, bool via_scratch)
{
    char err[256];
    if (ta_cu_launch(it, code, s, via_scratch, err, sizeof err) != 0) return ta_kernel_error(ctx, "%s: %s", op, err);
    return TA_OK;
}

ta_status ta_cu_copy_into(ta_kernel_ctx *ctx, const char *op, DLTensor *dst, const DLTensor *src)
{
    ta_cu_iter it;
    ta_cu_scalars s = {0, 0, 1.0, 0.0, 1, 0};
    int dd = ta_cu_dtype_of(dst->dtype), sd = ta_cu_dtype_of(src->dtype);
    /* Integers move exactly through int64; anything with a float through double. */
    s.use_float = ta_cu_is_float(dd) || ta_cu_is_float(sd);
    ta_cu_iter_init(&it, dst->ndim, dst->shape, 2);
    ta_cu_iter_operand(&it, 0, dst);
    ta_cu_iter_operand(&it, 1, src);
    return ta_cu_run(ctx, op, &it, TA_CU_COPY, &s, ta_cu_needs_scratch(dst, src));
}

/* Weak: a host whose registry predates ta_registry_lacks_schema still loads
 * the library (and then every name is registered). */
#pragma weak ta_registry_lacks_schema

ta_status ta_cu_register(ta_registry *reg, const char *op, ta_kernel_fn fn, const void *user_data)
{
    if (ta_registry_lacks_schema && ta_registry_lacks_schema(reg, op)) return TA_OK;
    /* The descriptors are never written; the ABI's user data is untyped. */
    return ta_register_op(reg, op, TA_KEY_CUDA, fn, (void *)(uintptr_t)user_data);
}

ta_status ta_cu_register_table(ta_registry *reg, const ta_cu_entry *table, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ta_status s = ta_cu_register(reg, table[i].op, table[i].fn, table[i].user_data);
        if (s != TA_OK) return s;
    }
    return TA_OK;
}

ta_status ta_cu_return(ta_stack *st, DLTensor *t)
{
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, t);
}
