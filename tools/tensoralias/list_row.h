/* list_row.h - one row of "tensoralias list": what it says about one native
 * function. The row is built in one place (ta_list_row) so new columns
 * (kind, is_view_op, signature, generated rows) are added there. */
#ifndef TA_LIST_ROW_H
#define TA_LIST_ROW_H

#include <stdio.h>

#include <jansson.h>

#include "tensoralias/native.h"
#include "tensoralias/torchgen.h"

/* The row as a JSON object, keys in output order, values meaning what they
 * mean in torchgen-functions.jsonl. fn is the yaml entry (NULL for a function
 * torchgen derives); tf is torchgen's view of it (kind, is_view_op,
 * signature, and every field of a derived one), NULL when its schema did not
 * parse. NULL on allocation failure. */
json_t *ta_list_row(const ta_native_file *f, const ta_native_func *fn,
                    const ta_tg_function *tf);

/* The row as one text line: line, name and func, then key=value for every
 * field that differs from its default. */
void ta_list_row_text(const json_t *row, FILE *out);

#endif
