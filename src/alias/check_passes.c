/* check_passes.c - the pass list of `tensoralias check` (tensoralias/check.h). */
#include <string.h>

#include "tensoralias/check.h"
#include "tensoralias/alias.h"
#include "tensoralias/torchgen.h"

size_t ta_check_passes(ta_native_pass *out, size_t cap)
{
    size_t nb, na, n = 0;
    const ta_native_pass *b = ta_native_builtin_passes(&nb);
    const ta_native_pass *a = ta_alias_native_passes(&na);
    for (size_t i = 0; i < nb; i++, n++)
        if (n < cap) out[n] = b[i];
    for (size_t i = 0; i < na; i++, n++)
        if (n < cap) out[n] = a[i];
    if (n < cap) out[n] = ta_torchgen_pass;
    return n + 1;
}

ta_status ta_check_all(const ta_native_file *f, ta_diags *diags)
{
    ta_native_pass passes[TA_CHECK_MAX_PASSES];
    size_t n = ta_check_passes(passes, TA_CHECK_MAX_PASSES);
    if (n > TA_CHECK_MAX_PASSES) return TA_ERR_INVALID;
    return ta_native_check_with(f, passes, n, diags);
}
