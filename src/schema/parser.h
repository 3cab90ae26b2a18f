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
 * default: where d's text is in its schema) to the offending part, and may
 * set *hint to a fix-it. */
bool ta_schema_check_default(const ta_type *t, const ta_default *d, char *msg,
                             size_t cap, uint32_t *off, uint32_t *len,
                             const char **hint);

/* How torch 1.13.1 reads a default for an argument of type t
 * (parseDefaultValue): None only (Tensor, Generator), a device string, one
 * constant (the scalar types, str, Scalar and every optional), a list (or,
 * with a fixed size, one value repeated), or no default at all (t, Any,
 * Dict, tuples ...). *elem gets the kind of constant the type asks for (of
 * its elements, for a list): a number is read as that kind. */
typedef enum ta_default_form {
    TA_DF_TENSOR, TA_DF_SINGLE, TA_DF_DEVICE, TA_DF_LIST, TA_DF_NO_DEFAULT
} ta_default_form;
typedef enum ta_default_elem {
    TA_DE_OTHER, TA_DE_INT, TA_DE_FLOAT, TA_DE_COMPLEX, TA_DE_BOOL
} ta_default_elem;
ta_default_form ta_default_form_of(const ta_type *t, ta_default_elem *elem);

/* The dtype names newer PyTorch reads as ScalarType defaults (its
 * str2dtype: each dtype's name and legacy alias). */
bool ta_default_dtype_name(const char *s, uint32_t n);

/* Whether default da of an argument of type ta equals default db of one of
 * type tb as torch 1.13.1 compares them (default_value() != ...): each is
 * read into the value torch's schema parser makes of it for its type
 * (default_value.c) and the two compared as IValues are: None, bool, int,
 * double, complex, string and Device each equal only to their own kind
 * (1 is not 1.0, True is not 1), numbers by value (1e-05 is
 * 1.0000000000000001e-05, -0.0 is 0.0), strings after their escapes, the
 * enum names as the integers torch makes of them (Mean is 1), lists by
 * element kind, length and elements (int[2] x=1 is [1, 1]). Both must be
 * given (kind != TA_DEFAULT_NONE_GIVEN). */
bool ta_default_equal(const ta_type *ta, const ta_default *da, const ta_type *tb,
                      const ta_default *db);
/* Whether torch reads d (of an argument of type t) as a list (the forward
 * compatibility check refuses new arguments with container defaults). */
bool ta_default_is_list(const ta_type *t, const ta_default *d);

/* The index of torchgen's TensorOptions group (keyword-only dtype, layout,
 * device, pin_memory, in that order, each optional of its type), or -1. */
int ta_schema_tensor_options_at(const ta_schema *s);

/* Types shared by the schemas of one arena (type_pool.c): a loader that
 * parses many schemas into one arena gives each parse the pool. */
typedef struct ta_type_pool ta_type_pool;
ta_type_pool *ta_type_pool_create(void);
void ta_type_pool_destroy(ta_type_pool *pool);
/* The pool's scratch arena, emptied: where one parse builds its types. */
ta_arena *ta_type_pool_scratch(ta_type_pool *pool);
/* t (in the scratch arena) moved to a: a tree without annotations is the
 * pool's shared copy of it, span {0, 0}; *plain says which. NULL on OOM. */
ta_type *ta_type_pool_commit(ta_type_pool *pool, ta_arena *a, const ta_type *t, bool *plain);

/* ta_schema_parse for a loader that keeps what it parses from: the schema
 * points at opts->source rather than copying it (it must outlive arena),
 * and, when pool is not NULL, its types are the pool's (see above). */
ta_status ta_schema_parse_kept(ta_arena *arena, const char *text, size_t len,
                               const ta_parse_opts *opts, ta_type_pool *pool,
                               ta_schema **out, ta_diags *diags);

/* torchgen's is_out_fn: some keyword-only argument is written. */
bool ta_schema_has_out_args(const ta_schema *s);

#endif
