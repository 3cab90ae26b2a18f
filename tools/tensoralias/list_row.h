/* list_row.h - one row of "tensoralias list": what it says about one native
 * function. The row is built in one place (ta_list_row) so new columns
 * (kind, is_view_op, signature, generated rows) are added there. */
#ifndef TA_LIST_ROW_H
#define TA_LIST_ROW_H

#include <stdio.h>

#include <jansson.h>

#include "tensoralias/native.h"

/* The row as a JSON object, keys in output order, values meaning what they
 * mean in torchgen-functions.jsonl. NULL on allocation failure. */
json_t *ta_list_row(const ta_native_file *f, const ta_native_func *fn);

/* The row as one text line: line, name and func, then key=value for every
 * field that differs from its default. */
void ta_list_row_text(const json_t *row, FILE *out);

#endif
