/* parser.h - what the files of src/schema (and the rules above them) share
 * beyond the public API: the nesting cap, position lookup for diagnostics,
 * the check of a default value against its argument's type, and torchgen's
 * reading of an argument list (tensor options, out= arguments). */
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

/* The index of torchgen's TensorOptions group (keyword-only dtype, layout,
 * device, pin_memory, in that order, each optional of its type), or -1. */
int ta_schema_tensor_options_at(const ta_schema *s);

/* torchgen's is_out_fn: some keyword-only argument is written. */
bool ta_schema_has_out_args(const ta_schema *s);

#endif
