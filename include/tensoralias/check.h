/* tensoralias/check.h - the rule passes `tensoralias check` runs over a
 * loaded native_functions.yaml, as one public list: the loader's structural
 * passes (native.h), the alias rules (alias.h), then torchgen's autogen
 * derivation (torchgen.h). The command, the benchmarks and any other caller
 * run exactly the same passes through it: over a loaded file
 * (ta_check_all), or streamed through the yaml a window of entries at a
 * time (ta_check_stream_*, what the command runs), with the same findings.
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

/* The same passes as stages of a streaming check (native.h): the built-in
 * passes, the alias passes, and torchgen's derivation fed one entry at a
 * time (ta_torchgen_stream_*). ta_native_check_stream_path and _buffer with
 * them; window 0 is TA_NATIVE_WINDOW_DEFAULT. The diagnostics are
 * ta_native_load_path's and ta_check_all's (see native.h for their order). */
TA_API ta_status ta_check_stream_path(const char *path, const char *tags_path, size_t window,
                                      size_t *count, ta_diags *diags);
TA_API ta_status ta_check_stream_buffer(const char *text, size_t len, const char *source,
                                        const char *tags_text, size_t tags_len,
                                        const char *tags_source, size_t window, size_t *count,
                                        ta_diags *diags);

#ifdef __cplusplus
}
#endif
#endif
