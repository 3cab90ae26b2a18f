/* parser.h - what the files of src/schema share beyond the public API:
 * the nesting cap, position lookup for diagnostics, and the check of a
 * default value against its argument's type. */
#ifndef TA_SCHEMA_PARSER_H
#define TA_SCHEMA_PARSER_H

#include "tensoralias/schema.h"

/* Deepest type nesting the parser follows before it reports an error; deep
 * enough for any real schema, shallow enough for any stack. */
#define TA_SCHEMA_MAX_DEPTH 256

/* Line and column (1-based, base position applied) of byte off of s[0..n),
 * and where that line starts and how long it is. */
void ta_schema_text_locate(const char *s, uint32_t n, uint32_t base_line,
                           uint32_t base_col, uint32_t off, uint32_t *line,
                           uint32_t *col, uint32_t *line_start,
                           uint32_t *line_len);

/* True when torch accepts default d for an argument of type t. Otherwise
 * writes a message to msg, narrows *off and *len (preset to the whole
 * default) to the offending part, and may set *hint to a fix-it. */
bool ta_schema_check_default(const ta_type *t, const ta_default *d, char *msg,
                             size_t cap, uint32_t *off, uint32_t *len,
                             const char **hint);

#endif
