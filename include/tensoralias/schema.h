/* tensoralias/schema.h - the operator schema language: model, parser, printer.
 *
 * A schema such as
 *     aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
 * parses into a ta_schema. Every node keeps the byte span it came from, and
 * every name is a view into the arena's copy of the source text, so printing
 * a schema reproduces it exactly. All nodes live in a ta_arena and are freed
 * with it in one call; nothing in the model is freed separately. (The
 * schemas of a loaded native_functions.yaml share their types without
 * annotations: such a type's span is {0, 0} and its names are views into
 * the text of the schema that first used it.)
 */
#ifndef TENSORALIAS_SCHEMA_H
#define TENSORALIAS_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tensoralias/diag.h"
#include "tensoralias/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- arena ------------------------------------------------------------ */

typedef struct ta_arena ta_arena;

TA_API ta_status ta_arena_create(ta_arena **out); /* TA_ERR_NOMEM, *out NULL */
TA_API void ta_arena_destroy(ta_arena *a);
/* Zeroed, 16-byte aligned memory that lives as long as the arena. NULL on OOM. */
TA_API void *ta_arena_alloc(ta_arena *a, size_t size);
/* A NUL-terminated copy of s[0..len). */
TA_API char *ta_arena_strndup(ta_arena *a, const char *s, size_t len);
TA_API size_t ta_arena_bytes(const ta_arena *a); /* bytes reserved, for benchmarks */
/* Forgets every allocation but keeps the largest chunk for reuse, so a loop
 * that parses one schema at a time allocates (almost) nothing. */
TA_API void ta_arena_reset(ta_arena *a);

/* ---- strings and spans ----------------------------------------------- */

/* A view of len bytes; ptr is NULL only for the empty view. Not NUL-terminated. */
typedef struct ta_str {
    const char *ptr;
    uint32_t len;
} ta_str;

/* Byte offset and length within the schema text the node came from. */
typedef struct ta_span {
    uint32_t off;
    uint32_t len;
} ta_span;

TA_API bool ta_str_eq(ta_str s, const char *cstr);
TA_API bool ta_str_eq_str(ta_str a, ta_str b);
/* The number a whole view spells, read as C's strtoll (base 0) and strtod
 * read it; false, *out untouched, when it spells none (or is over 63
 * bytes). A view is no C string: never hand its ptr to strto*. */
TA_API bool ta_str_to_int(ta_str s, int64_t *out);
TA_API bool ta_str_to_double(ta_str s, double *out);
/* The integers of a list default ("[0, 1]", "[]", or one "2"), up to cap
 * of them into out; returns how many. */
TA_API size_t ta_str_to_int_list(ta_str s, int64_t *out, size_t cap);

/* ---- alias annotations ----------------------------------------------- */

/* (a), (a!), (a|b), (a -> *), (a! -> a|b), (*), and the bare Tensor! .
 * A set name is a view of its spelling ("a", "*"). For an annotation without
 * an arrow, after equals before (the same views). Tensor! has no names: it is
 * a fresh written set (bare_write). */
typedef struct ta_alias {
    ta_str *before;
    uint32_t nbefore;
    ta_str *after;
    uint32_t nafter;
    bool write;      /* "!" */
    bool has_arrow;  /* "->" was written */
    bool bare_write; /* Tensor! */
    ta_span span;    /* "(...)" or "!" */
} ta_alias;

/* ---- types ------------------------------------------------------------ */

typedef enum ta_type_kind {
    TA_TYPE_NAME,     /* Tensor, int, SymInt, float, t, Any, __torch__.x.Y ... */
    TA_TYPE_OPTIONAL, /* elem? */
    TA_TYPE_LIST,     /* elem[] or elem[N] */
    TA_TYPE_TUPLE,    /* (T1, T2, ...) */
    TA_TYPE_APPLY     /* Dict(K, V), Future(t), RRef(t), Await(t), Union(...) ... */
} ta_type_kind;

typedef struct ta_type ta_type;
struct ta_type {
    ta_type_kind kind;
    ta_str name;          /* NAME: the type name; APPLY: the constructor */
    ta_type **elems;      /* OPTIONAL/LIST: 1; TUPLE/APPLY: n */
    uint32_t nelems;
    int32_t fixed_size;   /* LIST: N in elem[N], else -1 */
    ta_alias *alias;      /* annotation written right after this type, or NULL */
    ta_span span;         /* the whole type as spelled, annotations included;
                           * {0, 0} when shared (see the top of this file) */
};

/* Well-known type names, for quick tests. */
TA_API bool ta_type_is_tensor_like(const ta_type *t);    /* Tensor, Tensor?, Tensor[], Tensor?[] */
TA_API bool ta_type_is_name(const ta_type *t, const char *name);
/* The type with all annotations dropped, as torchgen prints it ("Tensor[]",
 * "int[2]", "Tensor?"). Written into buf (always NUL-terminated); returns the
 * length it needed. */
TA_API size_t ta_type_print_plain(const ta_type *t, char *buf, size_t cap);
/* Writes the type in canonical spelling with its annotations
 * ("Tensor(a!)[]", "Dict(str, t)(a!)"); same contract as ta_type_print_plain. */
TA_API size_t ta_type_print(const ta_type *t, char *buf, size_t cap);

/* How torch (c10::Argument::alias_info) sees the annotations of a type.
 * torch keeps one alias info per argument: the annotation written on the
 * value itself (Tensor(a), t[](a!), Dict(str, t)(a!); "?" is transparent),
 * or, for a list whose elements are annotated (Tensor(a!)[]), a synthesized
 * list-level one with no sets and the element's write flag, holding the
 * element's sets. Annotations inside tuples and Dict/Future parameters are
 * dropped by torch and do not show here. */
typedef struct ta_alias_view {
    const ta_alias *set;  /* written on the value itself, or NULL */
    const ta_alias *elem; /* written on the (innermost) list element, or NULL */
    bool present;         /* torch has an alias info: set or elem */
    bool write;           /* torch's isWrite() of it */
} ta_alias_view;
TA_API void ta_type_alias_view(const ta_type *t, ta_alias_view *v);

/* ---- arguments and returns ------------------------------------------- */

typedef enum ta_default_kind {
    TA_DEFAULT_NONE_GIVEN = 0, /* no "=..." */
    TA_DEFAULT_INT,
    TA_DEFAULT_FLOAT,
    TA_DEFAULT_BOOL,    /* True / False */
    TA_DEFAULT_NONE,    /* None */
    TA_DEFAULT_STRING,  /* "..." or '...' (text includes the quotes) */
    TA_DEFAULT_LIST,    /* [..] */
    TA_DEFAULT_IDENT    /* Mean, contiguous_format, long, ... */
} ta_default_kind;

typedef struct ta_default {
    ta_default_kind kind;
    ta_str text; /* as spelled, e.g. "1e-05", "[0, 1]", "'mean'"; in a parsed
                  * schema a view of its text, whose offset is its position */
} ta_default;

typedef struct ta_arg {
    ta_str name;
    ta_type *type;
    ta_default def;
    bool kwarg_only; /* after the bare "*" */
    bool is_out;     /* kwarg-only and written through its alias annotation */
    ta_span span;    /* from the type to the end of the default */
} ta_arg;

typedef struct ta_ret {
    ta_str name; /* empty when unnamed */
    ta_type *type;
    ta_span span;
} ta_ret;

/* ---- schemas ---------------------------------------------------------- */

/* (Its fields are laid out without padding between them: a loaded yaml
 * holds one schema per entry.) */
typedef struct ta_schema {
    const char *text; /* arena copy of the source, NUL-terminated */
    ta_str ns;        /* "aten" in aten::add; empty when absent */
    ta_str name;      /* "add" (without namespace and overload) */
    ta_str overload;  /* "Tensor"; empty when absent */
    ta_str full_name; /* "aten::add" (namespace and name as spelled) */
    ta_arg *args;
    ta_ret *rets;
    const char *source;      /* from ta_parse_opts, for diagnostics */
    uint32_t text_len;
    uint32_t nargs;
    uint32_t nrets;
    int32_t kwarg_marker;    /* index of the first kwarg-only arg after "*", or -1 */
    ta_span name_span;       /* "aten::add.Tensor" */
    ta_span args_span;       /* "(...)" */
    ta_span rets_span;       /* after "->" */
    uint32_t base_line, base_col;
    bool rets_parenthesized; /* "-> (...)" rather than a single return */
    bool vararg;             /* "..." among the arguments */
    bool varret;             /* "..." as returns */
} ta_schema;

/* Where the text sits in a larger file, so diagnostics point into it. */
typedef struct ta_parse_opts {
    const char *source; /* file name for diagnostics; NULL means "<string>" */
    uint32_t line;      /* line of the first byte (1-based); 0 means 1 */
    uint32_t col;       /* column of the first byte (1-based); 0 means 1 */
} ta_parse_opts;

/* Parses one schema. On success *out points into the arena. On failure
 * returns TA_ERR_PARSE, leaves *out NULL and appends one diagnostic (rule
 * "schema-syntax") positioned at the offending byte. Never crashes, never
 * recurses without bound, whatever the input. opts may be NULL. */
TA_API ta_status ta_schema_parse(ta_arena *arena, const char *text, size_t len,
                          const ta_parse_opts *opts, ta_schema **out,
                          ta_diags *diags);

/* Writes the schema back as text; for a parsed schema this reproduces the
 * input byte for byte. Returns the length needed (buf is always
 * NUL-terminated when cap > 0). */
TA_API size_t ta_schema_print(const ta_schema *s, char *buf, size_t cap);
/* Writes a schema in torch's canonical spelling from its model (used for
 * schemas built in memory, e.g. derived variants): "ns::name.overload(args) -> rets". */
TA_API size_t ta_schema_print_canonical(const ta_schema *s, char *buf, size_t cap);

/* Index of the argument named name, or -1 when s has none of that name. */
TA_API int32_t ta_schema_arg_index(const ta_schema *s, const char *name);
/* Index of the return named name, or -1 (an unnamed return has no name). */
TA_API int32_t ta_schema_ret_index(const ta_schema *s, const char *name);
/* The operator's full name with its overload, as torch's OperatorName
 * prints it: "aten::add.Tensor", "aten::abs" (no overload, no '.'),
 * "add.Tensor" (no namespace written). Returns the length needed (buf is
 * NUL-terminated when cap > 0). */
TA_API size_t ta_schema_op_name(const ta_schema *s, char *buf, size_t cap);

/* 1-based line and column of a byte offset in s->text, with opts applied. */
TA_API void ta_schema_locate(const ta_schema *s, uint32_t off, uint32_t *line,
                      uint32_t *col);

#ifdef __cplusplus
}
#endif
#endif
