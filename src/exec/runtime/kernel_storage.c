/* kernel_storage.c - the kernel ABI's storage-level calls (kernel.h):
 * storages by tensor, by address and new, tensors over a given storage,
 * and moving a tensor onto another storage. They let a bridge run another
 * framework's kernels on the engine's own bytes and tell the engine of
 * every allocation that framework makes. */
#include "exec/runtime/exec_internal.h"

static bool info_of(const ta_exec *x, uint32_t id, ta_kernel_storage *out)
{
    ta_storage_info si;
    if (!ta_exec_storage_get(x, id, &si)) return false;
    *out = (ta_kernel_storage){si.id, si.base, si.bytes};
    return true;
}

bool ta_kernel_storage_of(ta_kernel_ctx *ctx, const DLTensor *t, ta_kernel_storage *out)
{
    return info_of(ctx->x, ta_exec_storage_of(ctx->x, t), out);
}

bool ta_kernel_storage_at(ta_kernel_ctx *ctx, const void *p, ta_kernel_storage *out)
{
    return info_of(ctx->x, ta_exec_storage_at(ctx->x, p), out);
}

ta_status ta_kernel_storage_new(ta_kernel_ctx *ctx, size_t bytes, ta_kernel_storage *out)
{
    uint32_t id;
    ta_status st = ta_exec_storage_new(ctx->x, bytes, &id);
    if (st != TA_OK) return st;
    if (!info_of(ctx->x, id, out)) return TA_ERR_INVALID;
    return ta_exec_fill_marker(ctx->x, out->base, bytes) == 0 ? TA_OK : TA_ERR_KERNEL;
}

ta_status ta_kernel_tensor_on(ta_kernel_ctx *ctx, uint32_t storage, DLDataType dtype, int ndim,
                              const int64_t *shape, const int64_t *strides, uint64_t byte_offset,
                              DLTensor **out)
{
    return ta_exec_tensor(ctx->x, storage, dtype, ndim, shape, strides, byte_offset, out);
}

ta_status ta_kernel_rebind(ta_kernel_ctx *ctx, DLTensor *t, uint32_t storage, int ndim,
                           const int64_t *shape, const int64_t *strides, uint64_t byte_offset)
{
    ta_tensor_rec *r = ta_exec_rec_of(ctx->x, t);
    ta_storage_info si;
    if (!r || !ta_exec_storage_get(ctx->x, storage, &si)) return TA_ERR_INVALID;
    uint32_t old_id = r->storage;
    void *old_data = t->data;
    r->storage = storage;
    t->data = si.base;
    ta_status s = ta_kernel_restride(ctx, t, ndim, shape, strides, byte_offset);
    if (s != TA_OK) {
        r->storage = old_id;
        t->data = old_data;
    }
    return s;
}
