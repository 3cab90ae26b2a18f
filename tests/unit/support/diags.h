/* diags.h - looking through the diagnostics a test collected. */
#ifndef TA_TEST_DIAGS_H
#define TA_TEST_DIAGS_H

#include <stddef.h>

#include "tensoralias/diag.h"

/* How many diagnostics of d have rule id `rule`; the first of them goes to
 * *first when first is not NULL and there is one. */
size_t ta_test_count_rule(const ta_diags *d, const char *rule, const ta_diag **first);

/* The message of the last diagnostic of d, or "" when there is none. */
const char *ta_test_last_message(const ta_diags *d);

#endif
