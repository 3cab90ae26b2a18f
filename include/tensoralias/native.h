/* tensoralias/native.h - PyTorch's native_functions.yaml (and tags.yaml),
 * loaded the way torchgen loads it.
 *
 * A ta_native_file owns everything it loaded in one arena: the yaml text, one
 * ta_native_func per "- func:" entry in yaml order, every field typed, each
 * with the position it was written at, and the ta_schema parsed from `func`.
 * Loading reports what makes the file unreadable (yaml syntax, shape, value
 * types, schema syntax); ta_native_check runs the rule passes over a loaded
 * file (tags, dispatch keys, overloads, composite keys, ...). Both append to
 * a ta_diags list; neither prints.
 */
#ifndef TENSORALIAS_NATIVE_H
#define TENSORALIAS_NATIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensoralias/diag.h"
#include "tensoralias/export.h"
#include "tensoralias/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where something was written in a yaml file: 1-based line and byte column,
 * byte offset and byte length. line == 0 means "not written". */
typedef struct ta_native_pos {
    uint32_t line, col;
    uint32_t off, len;
} ta_native_pos;

/* A string value as written (NUL-terminated arena copy) and its position. */
typedef struct ta_native_str {
    const char *s; /* NULL when absent */
    uint32_t len;
    ta_native_pos pos;
} ta_native_str;

typedef struct ta_native_file ta_native_file;

/* The keys an entry may have (every key PyTorch 1.13.1 and main use). */
typedef enum ta_native_key {
    TA_NK_FUNC = 0,
    TA_NK_VARIANTS,
    TA_NK_DISPATCH,
    TA_NK_AUTOGEN,
    TA_NK_STRUCTURED,
    TA_NK_STRUCTURED_DELEGATE,
    TA_NK_STRUCTURED_INHERITS,
    TA_NK_PRECOMPUTED,
    TA_NK_TAGS,
    TA_NK_DEVICE_GUARD,
    TA_NK_DEVICE_CHECK,
    TA_NK_PYTHON_MODULE,
    TA_NK_CATEGORY_OVERRIDE,
    TA_NK_MANUAL_KERNEL_REGISTRATION,
    TA_NK_MANUAL_CPP_BINDING,
    TA_NK_USE_CONST_REF_FOR_MUTABLE_TENSORS,
    TA_NK_CPP_NO_DEFAULT_ARGS,
    TA_NK_UFUNC_INNER_LOOP,
    TA_NK_COUNT
} ta_native_key;

/* "func", "variants", ...; NULL out of range. */
TA_API const char *ta_native_key_name(ta_native_key k);

enum { TA_VARIANT_FUNCTION = 1u, TA_VARIANT_METHOD = 2u };

/* device_check: ExactSame (also when the key is absent) or NoCheck. */
enum { TA_DEVICE_CHECK_EXACT_SAME = 0, TA_DEVICE_CHECK_NO_CHECK = 1 };

/* One dispatch key -> kernel pair. "CPU, CUDA: f" gives two entries, each
 * with its own key position and the same kernel. */
typedef struct ta_native_dispatch {
    ta_native_str key;    /* "CPU" */
    ta_native_str kernel; /* "abs_out" (as written, namespace included) */
    bool known;           /* a dispatch key torchgen knows */
} ta_native_dispatch;

/* One ufunc_inner_loop entry ("Generic: add (AllAndComplex, ...)"); a plain
 * string value gives one entry with key "Generic". */
typedef struct ta_native_ufunc {
    ta_native_str key;
    ta_native_str value;
} ta_native_ufunc;

/* Where a key of an entry was written and where its value starts, as byte
 * offsets into the file's text; their lines and columns are counted from the
 * entry's position when asked (ta_native_key_pos, ta_native_val_pos). */
typedef struct ta_native_keyval {
    uint32_t key_off, val_off;
    uint32_t val_len;  /* the value's bytes when it is on one line, else 0 */
    uint16_t key_len;  /* the key's bytes as written, quotes included */
    uint8_t key;       /* a ta_native_key */
} ta_native_keyval;

/* The keys most entries do not write (in PyTorch 1.13.1's yaml, python_module
 * is the commonest, on a quarter of them), kept apart so that an entry that
 * writes none of them costs one pointer for all of them. */
typedef struct ta_native_extra {
    ta_native_str structured_inherits; /* s == NULL when absent */
    ta_native_str python_module;
    ta_native_str category_override;
    ta_native_str *precomputed;        /* one per list item, as written */
    uint32_t nprecomputed;
    ta_native_str *cpp_no_default_args;
    uint32_t ncpp_no_default_args;
    ta_native_ufunc *ufunc_inner_loop;
    uint32_t nufunc_inner_loop;
} ta_native_extra;

/* One entry. Its fields are laid out without padding between them (a yaml
 * holds hundreds of thousands of entries): the flags come last. */
typedef struct ta_native_func {
    const ta_native_file *file; /* the file it was read from */
    /* The keys torchgen knows, in the order written (a key written twice
     * once, at its last place): see ta_native_key_pos. */
    const ta_native_keyval *keys;
    ta_native_pos pos;     /* the entry: line of "- func:" as torchgen's __line__ */
    uint32_t index;        /* position in yaml order, from 0 */
    uint32_t nkeys;

    ta_native_str func;    /* the raw schema text */
    ta_schema *schema;     /* parsed from func; NULL when it did not parse */
    const char *name;      /* "abs.out": name[.overload] without namespace */
    const char *ns;        /* "aten" unless the func names another */
    const char *full_name; /* "aten::abs.out": ns::name[.overload]; name is its tail */

    ta_native_dispatch *dispatch; /* ordered as written */
    ta_native_str *autogen; /* operator names, "abs.out" */
    ta_native_str *tags;   /* as written (a string is split at ", ") */
    uint32_t ndispatch, nautogen, ntags;
    unsigned variants;     /* TA_VARIANT_* bits; "function" when absent */

    ta_native_str structured_delegate; /* s == NULL when absent */
    const ta_native_extra *extra; /* never NULL (all absent: a shared empty one) */

    bool has_dispatch;     /* a non-null dispatch table was written */
    bool structured;
    bool device_guard;     /* true when absent */
    uint8_t device_check;  /* TA_DEVICE_CHECK_* */
    bool manual_kernel_registration;
    bool manual_cpp_binding;
    bool use_const_ref_for_mutable_tensors;

    /* Derived from the dispatch table as torchgen does. An entry without a
     * dispatch table that is neither structured nor a structured delegate
     * gets an implicit CompositeImplicitAutograd kernel. */
    bool has_composite_implicit_autograd_kernel;
    bool has_composite_implicit_autograd_nested_tensor_kernel;
    bool has_composite_explicit_autograd_kernel;
    bool has_composite_explicit_autograd_non_functional_kernel;
    bool is_abstract; /* torchgen's is_abstract: needs a backend kernel */
} ta_native_func;

/* Loads native_functions.yaml from text[0..len). source names the file in
 * diagnostics (NULL: "<string>"). tags_text (NULL: no tags.yaml) is tags.yaml,
 * named tags_source. The file is returned in *out whenever it could be
 * allocated, even with errors (entries that could be read are kept). Returns
 * TA_OK, TA_ERR_PARSE when any error-level diagnostic was added, or
 * TA_ERR_NOMEM. The texts are copied. */
TA_API ta_status ta_native_load_buffer(const char *text, size_t len, const char *source,
                                const char *tags_text, size_t tags_len,
                                const char *tags_source, ta_native_file **out,
                                ta_diags *diags);

/* The same from files; tags_path may be NULL. TA_ERR_IO (with a diagnostic,
 * rule "io") when a file cannot be read. */
TA_API ta_status ta_native_load_path(const char *path, const char *tags_path,
                              ta_native_file **out, ta_diags *diags);

TA_API void ta_native_destroy(ta_native_file *f);

/* Whether fn's entry writes key k. */
TA_API bool ta_native_has_key(const ta_native_func *fn, ta_native_key k);
/* Where key k of fn was written and where its value starts; line 0 when fn
 * has no such key. */
TA_API ta_native_pos ta_native_key_pos(const ta_native_func *fn, ta_native_key k);
TA_API ta_native_pos ta_native_val_pos(const ta_native_func *fn, ta_native_key k);

/* Entries in yaml order; an entry without `func` (reported) is not one.
 * Pointers stay valid until ta_native_destroy. */
TA_API size_t ta_native_count(const ta_native_file *f);
TA_API const ta_native_func *ta_native_get(const ta_native_file *f, size_t i);

/* Looks a function up by "abs.out", "abs" (empty overload) or
 * "aten::abs.out" (no namespace means aten). When a name is defined twice
 * (reported by the overload check) the first one is found. NULL when there
 * is none. */
TA_API const ta_native_func *ta_native_find(const ta_native_file *f, const char *name);

TA_API const char *ta_native_source(const ta_native_file *f);
/* The yaml text the file was loaded from (NUL-terminated, *len bytes when
 * len is not NULL); positions' byte offsets index it. Valid while f lives. */
TA_API const char *ta_native_text(const ta_native_file *f, size_t *len);
/* The arena that owns the file; others may allocate derived data in it. */
TA_API ta_arena *ta_native_arena(const ta_native_file *f);

/* Tags from tags.yaml, in file order. ta_native_has_tag_set is false when
 * no tags.yaml was given, in which case tags are not checked. */
TA_API bool ta_native_has_tag_set(const ta_native_file *f);
TA_API size_t ta_native_tag_count(const ta_native_file *f);
TA_API const char *ta_native_tag(const ta_native_file *f, size_t i);
TA_API bool ta_native_tag_known(const ta_native_file *f, const char *tag);

/* Dispatch keys torchgen knows (its DispatchKey enum, plus the keys PyTorch
 * main's yaml uses). */
TA_API bool ta_dispatch_key_known(const char *key, size_t len);

/* ---- rules and checks -------------------------------------------------- */

/* Every rule the loader and the built-in passes report. */
TA_API const ta_rule_info *ta_native_rules(size_t *n);

/* Where pos is in the file's yaml, for ta_diag_error/warning/note: the
 * file name, line, column, length and the source line (pointing into the
 * file's text, valid while f lives) for a caret. For rule passes. */
TA_API ta_loc ta_native_loc(const ta_native_file *f, ta_native_pos pos);

/* Where bytes [off, off + len) of fn's parsed schema are in f's yaml (the
 * func value sits on one line), as ta_native_loc gives it. fn->schema must
 * not be NULL. */
TA_API ta_loc ta_native_schema_loc(const ta_native_file *f, const ta_native_func *fn,
                                   uint32_t off, uint32_t len);

/* One rule pass over a loaded file. */
typedef ta_status (*ta_native_pass_fn)(const ta_native_file *f, ta_diags *diags);
typedef struct ta_native_pass {
    const char *name;
    ta_native_pass_fn run;
} ta_native_pass;

/* The built-in structural passes, in the order ta_native_check runs them. */
TA_API const ta_native_pass *ta_native_builtin_passes(size_t *n);

/* Runs passes[0..n) in order. Returns TA_ERR_PARSE when any of them added
 * an error-level diagnostic, else TA_OK (or the first failing status). */
TA_API ta_status ta_native_check_with(const ta_native_file *f,
                               const ta_native_pass *passes, size_t n,
                               ta_diags *diags);

/* ta_native_check_with(the built-in passes). */
TA_API ta_status ta_native_check(const ta_native_file *f, ta_diags *diags);

/* ---- a streaming check -------------------------------------------------
 *
 * A check that never holds the whole loaded file. The yaml is read in
 * windows of entries; the stages see each window as a ta_native_file of its
 * own, then it is dropped. A window is a view: it shares the file's text,
 * source name and tag set; ta_native_count and ta_native_get give its
 * entries (their index is still their place in the whole yaml), and
 * ta_native_find on it finds nothing. The built-in passes run on a window
 * as on a whole file: the stream keeps a compact index of every name read
 * (the line of its first entry and whether that is structured) for the
 * overload and structured_delegate checks, and reports a delegate named
 * before its target at the end. The diagnostics are the loader's and the
 * stages' as a whole-file load and the same passes give them: the same
 * ones, and at any one line and column in the same order (a report sorted
 * by position, as `tensoralias check` prints, is the same). */
typedef struct ta_native_stage {
    const char *name;
    void *ctx;
    /* Each window, in yaml order; its entries live until it returns.
     * TA_ERR_PARSE is taken as TA_OK (errors found); any other status
     * ends the check. */
    ta_status (*window)(void *ctx, const ta_native_file *w, ta_diags *diags);
    /* Once, after the last window (w then holds no entries); may be NULL. */
    ta_status (*finish)(void *ctx, const ta_native_file *w, ta_diags *diags);
} ta_native_stage;

/* Whether f holds every entry of its yaml: a loaded file always; a window
 * when it is the stream's only one, handed over at the end of the yaml (a
 * yaml of fewer entries than a window; one of exactly a window's worth is
 * handed over as it fills, before the end is known, and is not). A stage
 * may then run a whole-file pass on it instead of its streamed form. */
TA_API bool ta_native_is_whole(const ta_native_file *f);

/* The built-in passes (ta_native_builtin_passes) as one stage. */
TA_API ta_native_stage ta_native_builtin_stage(void);

/* Entries a window holds when the caller does not say (0). */
enum { TA_NATIVE_WINDOW_DEFAULT = 4096 };

/* Reads path (and tags_path, which may be NULL) as ta_native_load_path
 * does and runs stages[0..n) over it, window entries at a time (0: the
 * default). *count (when not NULL) gets how many entries were read.
 * Returns TA_ERR_IO, TA_ERR_INVALID or TA_ERR_NOMEM as the loader does, or
 * the status a stage failed with; else TA_ERR_PARSE when an error-level
 * diagnostic was added, else TA_OK. */
TA_API ta_status ta_native_check_stream_path(const char *path, const char *tags_path,
                                             const ta_native_stage *stages, size_t n,
                                             size_t window, size_t *count, ta_diags *diags);
/* The same over text as ta_native_load_buffer reads it. */
TA_API ta_status ta_native_check_stream_buffer(const char *text, size_t len, const char *source,
                                               const char *tags_text, size_t tags_len,
                                               const char *tags_source,
                                               const ta_native_stage *stages, size_t n,
                                               size_t window, size_t *count, ta_diags *diags);

#ifdef __cplusplus
}
#endif
#endif
