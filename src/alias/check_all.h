/* check_all.h - the whole rule-pass list `tensoralias check` runs over a
 * loaded native_functions.yaml: the loader's structural passes, the alias
 * rules, then torchgen's autogen derivation. Shared by the command and the
 * benchmarks so both run exactly the same passes. Internal (tools include it
 * from src/). */
#ifndef TA_ALIAS_CHECK_ALL_H
#define TA_ALIAS_CHECK_ALL_H

#include "tensoralias/native.h"

enum { TA_CHECK_MAX_PASSES = 32 };

/* Writes the passes, in the order check runs them, to out[0..cap); returns
 * how many there are (more than cap: out holds the first cap). */
size_t ta_check_passes(ta_native_pass *out, size_t cap);

/* ta_native_check_with(f, every pass above): TA_OK, TA_ERR_PARSE when a pass
 * reported an error, or the status a pass failed with. */
ta_status ta_check_all(const ta_native_file *f, ta_diags *diags);

#endif
