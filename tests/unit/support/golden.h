/* golden.h - comparing our values with the fields of a golden JSON row
 * (torchgen's rows in tests/data/golden): each field that differs is counted
 * as a mismatch and the first few are printed, so a golden test reports every
 * difference at once and then asserts the count is zero. */
#ifndef TA_TEST_GOLDEN_H
#define TA_TEST_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

typedef struct ta_golden {
    int mismatches; /* counted so far */
    int show;       /* how many to print on stderr */
} ta_golden;

/* Counts (and maybe prints) one mismatch of row's field. */
void ta_golden_mismatch(ta_golden *g, const json_t *row, const char *field, const char *want, const char *got);
/* row[field] is the string got (a JSON null or no field: got is NULL). */
void ta_golden_str(ta_golden *g, const json_t *row, const char *field, const char *got);
/* row[field] is the boolean got. */
void ta_golden_bool(ta_golden *g, const json_t *row, const char *field, bool got);
/* row[field] is a list of exactly the strings got[0..n), in that order. */
void ta_golden_list(ta_golden *g, const json_t *row, const char *field, const char *const *got, size_t n);

/* ta_alias_query_write_json's members as a jansson object (NULL on failure). */
struct ta_alias_query;
json_t *ta_golden_query_json(const struct ta_alias_query *q);

#endif
