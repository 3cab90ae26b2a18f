/* kinds_internal.h - what the torchgen-model files (kinds, signature, groups,
 * autogen) share: torchgen's reading of operator names and argument lists,
 * a growable string, a string-keyed index, and the context's layout. */
#ifndef TA_TG_INTERNAL_H
#define TA_TG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tensoralias/torchgen.h"

/* torchgen's BaseOperatorName: "add_" is base "add" inplace; "__iand__" is
 * base "and", dunder, inplace; "foo_functional" is base "foo" with the
 * functional overload. */
typedef struct tg_opname {
    ta_str base;
    bool inplace;
    bool dunder;
    bool functional;
} tg_opname;

tg_opname tg_opname_parse(ta_str name);

/* torchgen's annotation of an argument or return: the alias written on the
 * type itself or on the Tensor inside Tensor?, Tensor[] (NULL if none). */
const ta_alias *tg_annotation(const ta_type *t);
bool tg_alias_is_write(const ta_alias *a);
/* torchgen's Annotation equality: before sets, write flag, after sets (empty
 * when no arrow was written); NULL equals NULL only. */
bool tg_alias_eq(const ta_alias *a, const ta_alias *b);

/* torchgen's partition of an argument list. */
typedef struct tg_args {
    int32_t self;       /* index of the first positional "self", or -1 */
    uint32_t npos;      /* positional arguments are [0, npos) */
    uint32_t first_out; /* out arguments are [first_out, nargs) */
    int32_t tensor_options; /* index of "dtype" of the TensorOptions run, or -1 */
} tg_args;

void tg_args_split(const ta_schema *s, tg_args *out);

/* Growable NUL-terminated string; on allocation failure `failed` is set and
 * further appends are ignored. Short strings (schemas are) stay in the inline
 * array, so most never touch malloc; a tg_buf must not be copied once used. */
typedef struct tg_buf {
    char *p; /* NULL until the first append, then small or the heap */
    size_t len, cap;
    bool failed;
    char small[480];
} tg_buf;

void tg_buf_grow_put(tg_buf *b, const char *s, size_t n); /* the slow path */
static inline void tg_buf_put(tg_buf *b, const char *s, size_t n)
{
    if (b->p && b->len + n < b->cap) { /* room for n bytes and the NUL */
        memcpy(b->p + b->len, s, n);
        b->len += n;
        b->p[b->len] = '\0';
    } else {
        tg_buf_grow_put(b, s, n);
    }
}
static inline void tg_buf_puts(tg_buf *b, const char *s) { tg_buf_put(b, s, strlen(s)); }
static inline void tg_buf_str(tg_buf *b, ta_str s)
{
    if (s.len) tg_buf_put(b, s.ptr, s.len);
}
void tg_buf_free(tg_buf *b);

/* Prints into b as ta_schema_print_torchgen does. */
void tg_print_schema(tg_buf *b, const ta_schema *s);
void tg_print_name(tg_buf *b, const ta_schema *s); /* "name.overload" */

/* String -> int32 index (open addressing; keys are not copied, their hashes
 * are kept so growing never rehashes a string). */
typedef struct tg_map {
    const char **keys;
    int32_t *vals;
    uint64_t *hashes;
    size_t cap, n;
} tg_map;

bool tg_map_reserve(tg_map *m, size_t n); /* room for n keys; false on OOM */

bool tg_map_put(tg_map *m, const char *key, int32_t val); /* false on OOM */
int32_t tg_map_get(const tg_map *m, const char *key);    /* -1 if absent */
void tg_map_free(tg_map *m);

/* Schema-building helpers (arena-allocated). */
ta_type *tg_type_strip(ta_arena *a, const ta_type *t); /* no annotations */
ta_type *tg_type_annotate(ta_arena *a, const ta_type *t, ta_alias *ann);
ta_str tg_arena_str(ta_arena *a, const char *s, size_t n);
/* Fills the name fields of a built schema: ns as given, name, overload. */
bool tg_schema_set_name(ta_arena *a, ta_schema *s, ta_str ns, const char *name,
                        const char *overload);
/* Sets kwarg_marker, rets_parenthesized and text (torchgen's spelling). */
bool tg_schema_finish(ta_arena *a, ta_schema *s);

struct ta_torchgen {
    ta_arena *arena;
    ta_tg_function **fns;
    size_t nfns, cap;
    size_t nyaml;
    bool derived;
    tg_map by_name;
    ta_tg_group *groups;
    size_t ngroups;
};

/* Appends a function record already filled in; computes nothing. */
ta_status tg_push(ta_torchgen *tg, ta_tg_function *f);
/* Fills func, name, kind, is_view_op and signature from f->schema and tags. */
ta_status tg_describe(ta_torchgen *tg, ta_tg_function *f);
bool tg_has_tag(const ta_tg_function *f, const char *tag);

/* torchgen's pre_group_native_functions over functions [0, n): one entry per
 * distinct signature, in order of first appearance, with the member of each
 * kind (indexed by ta_schema_kind) or -1. A second function of a kind that
 * is already taken is left out (torchgen asserts) with a warning when diags
 * is not NULL. *out is malloc'd. */
typedef struct tg_pregroup {
    int32_t m[5];
} tg_pregroup;

ta_status tg_pregroup_build(ta_torchgen *tg, size_t n, tg_pregroup **out,
                            size_t *nout, ta_diags *diags);

/* Appends a diagnostic located at the function's yaml entry. */
void tg_diag(ta_diags *d, ta_severity sev, const char *rule,
             const ta_tg_function *f, const char *hint, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

#endif
