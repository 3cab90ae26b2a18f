/* tensoralias/check.h - the rule passes `tensoralias check` runs over a
 * loaded native_functions.yaml, as one public list: the loader's structural
 * passes (native.h), the alias rules (alias.h), then torchgen's autogen
 * derivation (torchgen.h). The command, the benchmarks and any other caller
 * run exactly the same passes through it.
 */
#ifndef TENSORALIAS_CHECK_H
#define TENSORALIAS_CHECK_H

#include <stddef.h>

#include "tensoralias/diag.h"
#include "tensoralias/export.h"
#include "tensoralias/native.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TA_CHECK_MAX_PASSES = 32 };

/* Writes the passes, in the order check runs them, to out[0..cap); returns
 * how many there are (more than cap: out holds the first cap). */
TA_API size_t ta_check_passes(ta_native_pass *out, size_t cap);

/* ta_native_check_with(f, every pass above): TA_OK, TA_ERR_PARSE when a pass
 * reported an error, or the status a pass failed with. */
TA_API ta_status ta_check_all(const ta_native_file *f, ta_diags *diags);

#ifdef __cplusplus
}
#endif
#endif
