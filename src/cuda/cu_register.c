/* cu_register.c - the CUDA library's kernel entry point, tensoralias_register.
 *
 * libtensoralias_cuda.so exports this next to tensoralias_device (see
 * cuda_iface.h for why one object holds both): loading the library for
 * `--device cuda` gives the engine the device and, through this function,
 * the CUDA reference kernels under TA_KEY_CUDA, with the same operator names
 * and schemas as the CPU reference kernels so the same checks run.
 */
#include "cuda/cu_kernels.h"

__attribute__((visibility("default"))) ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version)
{
    if (abi_version != TA_KERNEL_ABI_VERSION) return TA_ERR_UNSUPPORTED;
    ta_status s = ta_cu_register_pointwise(reg);
    if (s == TA_OK) s = ta_cu_register_views(reg);
    return s;
}
