/* diags.c - see diags.h. */
#include <string.h>

#include "diags.h"

size_t ta_test_count_rule(const ta_diags *d, const char *rule, const ta_diag **first)
{
    size_t n = 0;
    for (size_t i = 0; i < ta_diags_count(d); i++)
        if (!strcmp(ta_diags_get(d, i)->rule, rule)) {
            if (!n && first) *first = ta_diags_get(d, i);
            n++;
        }
    return n;
}

const char *ta_test_last_message(const ta_diags *d)
{
    size_t n = ta_diags_count(d);
    return n ? ta_diags_get(d, n - 1)->message : "";
}
