/* internal.h - what the files of torchgen's model (kind, context, native,
 * signature, groups, autogen*) share, all under the one prefix tg_:
 * torchgen's reading of operator names and argument lists, a growable
 * string, a string-keyed index, and the context's layout. The public side
 * is include/tensoralias/torchgen.h (prefix ta_torchgen_, ta_schema_*). */
#ifndef TA_TG_INTERNAL_H
#define TA_TG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "alias/str_lit.h"
#include "base/map.h"
#include "base/strbuf.h"
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
/* Inline: every pass over a schema's arguments asks this of each one. */
static inline const ta_alias *tg_annotation(const ta_type *t)
{
    while (t) {
        if (t->alias) return t->alias;
        if ((t->kind == TA_TYPE_OPTIONAL || t->kind == TA_TYPE_LIST) && t->nelems == 1)
            t = t->elems[0];
        else
            return NULL;
    }
    return NULL;
}
static inline bool tg_alias_is_write(const ta_alias *a) { return a && (a->write || a->bare_write); }
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

/* ta_schema_kind_of from the schema's split and name, when the caller has
 * them already (the model computes them once per function). */
ta_schema_kind tg_kind_of(const ta_schema *s, const tg_args *sp, const tg_opname *op);

/* Prints into b as ta_schema_print_torchgen does. */
void tg_print_schema(ta_strbuf *b, const ta_schema *s);
void tg_print_name(ta_strbuf *b, const ta_schema *s); /* "name.overload" */
/* Prints tg_print_schema(ta_schema_signature(s, flags)) without building the
 * signature schema. */
void tg_print_signature(ta_strbuf *b, const ta_schema *s, unsigned flags);
/* The same, given s's split and name. */
void tg_print_signature_of(ta_strbuf *b, const ta_schema *s, const tg_args *sp,
                           const tg_opname *op, unsigned flags);

/* Schema-building helpers (arena-allocated). */
ta_type *tg_type_strip(ta_arena *a, const ta_type *t); /* no annotations */
ta_type *tg_type_annotate(ta_arena *a, const ta_type *t, ta_alias *ann);
ta_str tg_arena_str(ta_arena *a, const char *s, size_t n);
/* Fills the name fields of a built schema: ns as given, name, overload. */
bool tg_schema_set_name(ta_arena *a, ta_schema *s, ta_str ns, const char *name,
                        const char *overload);
/* ta_schema_signature's arguments, with room for out_room more after them,
 * and (when with_returns) its returns; unnamed and without text: the caller
 * adds what it derives, names it (tg_schema_set_name) and finishes it. */
ta_status tg_signature_build(ta_arena *arena, const ta_schema *s, unsigned flags,
                             uint32_t out_room, bool with_returns, ta_schema **out);
/* Sets kwarg_marker and rets_parenthesized only (text stays NULL): for a
 * model whose func strings nobody reads (ta_torchgen.no_func). */
void tg_schema_finish_shape(ta_schema *s);
/* Sets kwarg_marker, rets_parenthesized and text (torchgen's spelling). */
bool tg_schema_finish(ta_arena *a, ta_schema *s);

struct ta_torchgen {
    ta_arena *arena;
    ta_tg_function **fns;
    size_t nfns, cap;
    size_t nyaml;
    bool derived;
    bool no_func;       /* yaml functions get no func string (see native.c) */
    /* A check model's (no_func) out= variants are described from a schema
     * built here and dropped at once (their schema is NULL), unless their
     * name is a view copy's, which view grouping reads again. */
    ta_arena *scratch;
    bool derived_keep_view_copy; /* derived variants inherit view_copy (torch >= 2.0) */
    ta_map by_name;     /* "name.overload" -> function index */
    /* Per function, the index of the first function with the same signature
     * (its signature class), set as the function is added (tg_push); sig_idx
     * maps a signature to that first index, and the functions of one class
     * share the first one's signature text. Grouping by signature happens
     * three times (derive, kinds groups, view groups): they share this one
     * index instead of hashing and comparing every signature each time. */
    int32_t *sig_first;
    ta_map sig_idx;
    uint64_t described_hash; /* of the signature tg_describe last gave, for tg_push */
    ta_tg_group *groups;
    size_t ngroups;
    /* A stream model (stream.c) holds its yaml functions without a schema
     * (NULL); derivation asks `load` for a base's schema (into load_arena,
     * reset after the group, whose derived functions then drop theirs too).
     * What is read of a schema outside a derivation comes from here:
     * yaml_bits per yaml function (TG_BIT_*), and view_keys, per function
     * index (uint32_t bytes) of a schema-less view copy ("x_copy"), its
     * signature as TA_SIG_STRIP_VIEW_COPY_NAME prints it. */
    const uint8_t *yaml_bits;
    ta_status (*load)(void *ctx, const ta_tg_function *f, ta_arena *a, const ta_schema **out);
    void *load_ctx;
    ta_arena *load_arena;
    ta_map view_keys;
    /* When not NULL, by_name holds only the names this map holds (a stream
     * model's: the names autogen lists give, all that is looked up). */
    const ta_map *name_filter;
    /* Grouping reports what torchgen would assert on but keeps no groups
     * (a stream model, which is read only for its diagnostics). */
    bool no_groups;
};

enum { TG_BIT_TENSOR_LIKE_RETURN = 1u << 0 };

/* f's operator name: the schema's, or (a function held without its schema)
 * its name up to the overload. */
ta_str tg_fn_opname(const ta_tg_function *f);
/* Whether f returns something tensor-like (tg_has_tensor_like_return). */
bool tg_fn_tensor_like_return(const ta_torchgen *tg, const ta_tg_function *f);
/* The view grouping key of a schema-less view copy (tg->view_keys), or NULL. */
const char *tg_fn_view_key(const ta_torchgen *tg, const ta_tg_function *f);
/* Records the view grouping key of function f, held without its schema
 * from now on (key is kept: it must outlive tg). */
ta_status tg_set_view_key(ta_torchgen *tg, const ta_tg_function *f, const char *key);
/* Prints into b the view grouping key of a view copy's schema s; the
 * same as a copy in a (NULL on OOM). */
void tg_print_view_key(ta_strbuf *b, const ta_schema *s);
const char *tg_view_key_dup(ta_arena *a, const ta_schema *s);

#define TG_TAG_PT2_COMPLIANT "pt2_compliant_tag"

/* How an entry's strings are kept: copied into the context, or borrowed
 * (ta_torchgen_add_native: the file outlives the context anyway, since its
 * schemas are never copied); borrowed variants are a static array, sorted,
 * kept as it is. */
typedef enum tg_strings { TG_COPY_STRINGS, TG_BORROW_STRINGS } tg_strings;

/* ta_torchgen_add, keeping the entry's strings as asked. `name`, when not
 * NULL, is the schema's "name.overload" already spelled (and kept, so
 * borrowed too). */
ta_status tg_add(ta_torchgen *tg, const ta_tg_entry *e, tg_strings strings, const char *name);
/* Room for cap functions in all. */
ta_status tg_reserve(ta_torchgen *tg, size_t cap);
/* Appends a function record already filled in; computes nothing. */
ta_status tg_push(ta_torchgen *tg, ta_tg_function *f);
/* The same for a function whose signature class is known: first is the
 * index of the first function with its signature (its own index when it is
 * the first), and sig_idx holds that signature already. */
ta_status tg_push_in(ta_torchgen *tg, ta_tg_function *f, int32_t first);
/* Fills func, name, kind, is_view_op and signature from f->schema and tags;
 * a signature some function added already has is that function's text. */
ta_status tg_describe(ta_torchgen *tg, ta_tg_function *f);
/* What tg_describe computes of a schema: its kind, whether it is a view op
 * (tagged_inplace_view: its function has that tag) and, printed into sig,
 * its signature. */
void tg_describe_schema(const ta_schema *s, bool tagged_inplace_view, ta_schema_kind *kind,
                        bool *is_view_op, ta_strbuf *sig);
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

/* Whether an operator's base name is a view copy's ("x_copy", "x_scatter"),
 * which view grouping files under the view's signature. */
bool tg_is_view_copy_name(ta_str base);

/* Appends a diagnostic located at the function's yaml entry (file and
 * line), then the fix-it hint when it is not NULL. d may be NULL. */
ta_status tg_diag(ta_diags *d, ta_severity sev, const char *rule, const ta_tg_function *f,
                  const char *hint, const char *fmt, ...) TA_PRINTF(6, 7);

/* What a model of a yaml is built for: everything (ta_torchgen_from_native),
 * or only the check pass's diagnostics: no func strings, no derived schema
 * text, out= plans that keep only kind, base and callee, and derived out=
 * variants without their schema (see ta_torchgen.scratch).
 * tests/unit/test_tg_check_model.c compares the two. */
typedef enum tg_model { TG_FULL_MODEL, TG_CHECK_MODEL } tg_model;

ta_status tg_from_native(const ta_native_file *f, ta_torchgen **out, ta_diags *diags, tg_model what);

/* Where the diagnostics of one yaml entry go: the entry, its autogen: value
 * (when has_autogen_key) and its autogen names. */
typedef struct tg_entry_where {
    ta_native_pos pos, autogen_val;
    const ta_native_str *autogen;
    uint32_t nautogen;
    bool has_autogen_key;
} tg_entry_where;

/* A yaml's entries as repositioning sees them: n, in yaml order; the line
 * of entry i and where it puts its diagnostics. */
typedef struct tg_entries {
    size_t n;
    const void *ctx;
    uint32_t (*line)(const void *ctx, size_t i);
    void (*where)(const void *ctx, size_t i, tg_entry_where *out);
} tg_entries;

/* Moves a derivation's diagnostics (each at its function's line) to diags,
 * each at the entry of that line in f's yaml text (autogen-* rules at the
 * autogen name, else at the autogen: value); notes only when with_notes. */
/* What a ta_torchgen_stream holds (arena and tables), for benchmarks. */
size_t tg_stream_bytes(const ta_torchgen_stream *s);

ta_status tg_reposition(const ta_native_file *f, const tg_entries *es, const ta_diags *mine,
                        bool with_notes, ta_diags *diags);

#endif
