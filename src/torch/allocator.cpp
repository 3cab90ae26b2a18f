/* allocator.cpp - ATen's CPU allocations served from engine storages.
 *
 * ATen allocates every CPU tensor (fresh outputs, temporaries, an out=
 * argument it grows) through c10::GetAllocator(kCPU). While a call runs,
 * AllocatorScope installs an allocator that asks the engine for a storage
 * instead (ta_kernel_storage_new): the memory is then the engine's, with
 * its guard page and its id, and an output over it maps back to it by
 * address. The engine frees its storages when the case ends, so the
 * DataPtr's deleter does nothing.
 *
 * Zero bytes get a null pointer, as torch's own CPU allocator gives them
 * (c10::alloc_cpu(0)): ATen's kernels take a non-null output as one the
 * caller asked for (layer_norm_backward_cpu computes dX, reading rstd[0],
 * when dX's pointer is not null), so a real address there would make a
 * kernel do what it never does in torch. convert.cpp maps such tensors
 * back by their storage, not their address. (The engine's own empty
 * arguments keep an address at their guard page: a read of one is named.) */
#include <c10/util/Exception.h>

#include "torch/bridge.h"

namespace ta_torch {
namespace {

thread_local ta_kernel_ctx *current_ctx = nullptr;

void no_delete(void *) {}

/* allocate became non-const, and copy_data (used by clone) pure virtual,
 * in torch 2.3. */
#if TA_TORCH_AT_LEAST(2, 3)
#define TA_ALLOCATE_CONST
#else
#define TA_ALLOCATE_CONST const
#endif

class EngineAllocator final : public c10::Allocator {
  public:
    c10::DataPtr allocate(size_t n) TA_ALLOCATE_CONST override
    {
        TORCH_CHECK(current_ctx, "tensoralias: an ATen allocation outside a verified call");
        if (n == 0) return {nullptr, nullptr, &no_delete, c10::Device(c10::DeviceType::CPU)};
        ta_kernel_storage s;
        TORCH_CHECK(ta_kernel_storage_new(current_ctx, n, &s) == TA_OK,
                    "tensoralias: the engine could not allocate ", n, " bytes");
        return {s.base, s.base, &no_delete, c10::Device(c10::DeviceType::CPU)};
    }
    c10::DeleterFnPtr raw_deleter() const override { return &no_delete; }
#if TA_TORCH_AT_LEAST(2, 3)
    void copy_data(void *dest, const void *src, std::size_t count) const override
    {
        default_copy_data(dest, src, count);
    }
#endif
};

EngineAllocator engine;

} // namespace

c10::Allocator *engine_allocator() { return &engine; }

AllocatorScope::AllocatorScope(ta_kernel_ctx *ctx) : previous_(c10::GetAllocator(c10::DeviceType::CPU))
{
    current_ctx = ctx;
    c10::SetAllocator(c10::DeviceType::CPU, &engine);
}

AllocatorScope::~AllocatorScope()
{
    c10::SetAllocator(c10::DeviceType::CPU, previous_);
    current_ctx = nullptr;
}

} // namespace ta_torch
