/* tensoralias/torchgen.h - torchgen's model of operator families.
 *
 * PyTorch's code generator (torchgen 1.13.1) sorts the operators of
 * native_functions.yaml into families: a schema has a kind (functional,
 * inplace, out, mutable, scratch), related schemas share a normalized
 * "signature" and form a group (add, add_, add.out), views pair with their
 * _copy and inplace variants, and `autogen:` entries ask for the missing
 * functional and out= members to be derived. This module reproduces those
 * rules exactly, in C:
 *
 *   - per schema: ta_schema_kind_of, ta_schema_is_view_op,
 *     ta_schema_signature, ta_schema_print_torchgen;
 *   - per yaml file: a ta_torchgen context holds every function (the yaml's,
 *     then the derived ones, in torchgen's order), derives the autogen
 *     variants (ta_torchgen_derive) with a plan the exec layer can run, and
 *     forms the groups (ta_torchgen_group).
 *
 * Nothing here prints; what torchgen would refuse or assert on is reported
 * as a diagnostic (rules autogen-*, group-*).
 */
#ifndef TENSORALIAS_TORCHGEN_H
#define TENSORALIAS_TORCHGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensoralias/diag.h"
#include "tensoralias/export.h"
#include "tensoralias/native.h"
#include "tensoralias/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- one schema ------------------------------------------------------- */

/* torchgen's SchemaKind. Precedence: a trailing "_" (or __iop__) makes an
 * inplace op; else an out argument named _scratch_* a scratch op; else any
 * out argument (a written keyword-only argument) an out op; else a written
 * positional argument after self a mutable op; else functional. */
typedef enum ta_schema_kind {
    TA_KIND_FUNCTIONAL = 0,
    TA_KIND_INPLACE,
    TA_KIND_OUT,
    TA_KIND_MUTABLE,
    TA_KIND_SCRATCH
} ta_schema_kind;

TA_API const char *ta_schema_kind_str(ta_schema_kind k); /* "functional", ... */
TA_API ta_schema_kind ta_schema_kind_of(const ta_schema *s);

/* torchgen's NativeFunction.is_view_op: some return carries a non-written
 * alias annotation, or the function is tagged inplace_view (and is not
 * resize_), or some argument's alias set enters the wildcard ("a -> *"). */
TA_API bool ta_schema_is_view_op(const ta_schema *s, bool tagged_inplace_view);

/* Index of the first out argument (torchgen's Arguments.out: the keyword-only
 * arguments from the first written one on), or s->nargs when there is none. */
TA_API uint32_t ta_schema_first_out(const ta_schema *s);

/* Options of torchgen's FunctionSchema.signature(). */
enum {
    TA_SIG_STRIP_DEFAULT = 1u << 0,        /* drop "=default" */
    TA_SIG_STRIP_VIEW_COPY_NAME = 1u << 1, /* "foo_copy" -> "foo", "foo_scatter" ->
                                            * "foo_inverse" (view groups) */
    TA_SIG_KEEP_RETURN_NAMES = 1u << 2     /* keep names; written inputs return as "<arg>_out" */
};

/* torchgen's FunctionSchema.signature(): the overload, the inplace "_", the
 * "_functional" suffix, out arguments, the TensorOptions arguments (dtype,
 * layout, device, pin_memory) and every alias annotation are dropped;
 * written inputs that are not returned become extra returns (self first,
 * then out, then the other positional ones); return names are dropped
 * unless TA_SIG_KEEP_RETURN_NAMES. bernoulli.p gains "p=0.5" as torchgen
 * does. The result lives in the arena (see ta_torchgen_function for how
 * built schemas are filled in). */
TA_API ta_status ta_schema_signature(ta_arena *arena, const ta_schema *s,
                              unsigned flags, ta_schema **out);

/* Prints a schema as torchgen's FunctionSchema.__str__ does: no namespace,
 * "name.overload(args) -> rets", defaults as written, a bare "*" before the
 * first keyword-only argument, one return without parentheses, annotations
 * as "Tensor(a! -> a|b)". Returns the length needed; buf is NUL-terminated
 * when cap > 0. */
TA_API size_t ta_schema_print_torchgen(const ta_schema *s, char *buf, size_t cap);

/* ---- a whole yaml ----------------------------------------------------- */

/* One native_functions.yaml entry, as far as torchgen's families need it.
 * Strings are copied by ta_torchgen_add; the schema is not and must outlive
 * the context. */
typedef struct ta_tg_entry {
    const ta_schema *schema;
    const char *source; /* file name for diagnostics, may be NULL */
    uint32_t line;      /* line of "- func:" */
    const char *const *tags;
    uint32_t ntags;
    const char *const *autogen; /* operator names, as split from "a, b" */
    uint32_t nautogen;
    const char *const *variants; /* "function", "method" */
    uint32_t nvariants;
    bool manual_cpp_binding;
    bool structured;
    const char *structured_delegate; /* NULL when absent */
    bool has_composite_implicit_autograd_kernel;
    bool has_composite_explicit_autograd_kernel;
    int32_t id; /* the caller's index for it (ta_native_func.index), kept */
} ta_tg_entry;

typedef struct ta_autogen_plan ta_autogen_plan;

/* A function of the family model: a yaml entry or a derived one. Tags and
 * variants are sorted (torchgen keeps them as sets). Its fields are laid out
 * without padding (pointers, then 32-bit fields, then flags): a model holds
 * one for every function of a yaml and every derived one. */
typedef struct ta_tg_function {
    const ta_schema *schema;   /* derived functions: a model built in the context's
                                * arena; its text is torchgen's spelling and its spans
                                * are zero, so print it with ta_schema_print_canonical
                                * or ta_schema_print_torchgen (not ta_schema_print) */
    const char *func;          /* torchgen's str(func) */
    const char *name;          /* "add.out", "__iand__.Scalar" */
    const char *signature;     /* torchgen's str(func.signature()) */
    const char *source;
    const char **tags;
    const char **autogen;
    const char *const *variants;
    const char *structured_delegate;
    const ta_autogen_plan *plan; /* derived functions only, else NULL */
    uint32_t index;            /* position in the context, torchgen's order */
    ta_schema_kind kind;
    uint32_t line;             /* derived: the base entry's line */
    uint32_t ntags;
    uint32_t nautogen;
    uint32_t nvariants;
    int32_t id;                /* ta_tg_entry.id; -1 for derived functions */
    bool is_view_op;
    bool generated;            /* derived by autogen (tag "generated") */
    bool manual_cpp_binding;
    bool structured;
    bool has_composite_implicit_autograd_kernel;
    bool has_composite_explicit_autograd_kernel;
} ta_tg_function;

/* How to run a derived function by composing existing kernels; torchgen
 * writes the same composition as C++ (gen_composite_functional_kernel,
 * gen_composite_out_kernel). Indices are 0-based positions in the schemas'
 * argument and return lists.
 *
 * Derived functional (kind TA_KIND_FUNCTIONAL), from an inplace or mutable
 * base: call `callee` (the base), passing argument arg_from[j] of the derived
 * function as the callee's argument j; every callee argument listed in
 * `clone` is written by the callee, so pass a fresh clone of the value
 * instead. Then the derived function's return i is ret_src[i]: either the
 * callee's return `index` (TA_AG_CALLEE_RETURN: the base's returns that alias
 * no input) or the clone made for callee argument `index`
 * (TA_AG_CLONED_ARG), after the call.
 *
 * Derived out= (kind TA_KIND_OUT): call `callee` (the group's functional op,
 * which may itself be derived), passing arg_from as above; then for each out
 * argument k (in order, out_args[k] its position among the arguments) resize
 * it to and copy into it the callee's return out_from[k]. The derived
 * function's return i is ret_src[i]: its own argument `index`
 * (TA_AG_OWN_ARG: an out argument, returned for chaining) or the callee's
 * return `index` (TA_AG_CALLEE_RETURN: a non-tensor return passed through).
 * For an out= derived from a mutable op, the positional arguments the base
 * writes stay written in the out= schema; writeback[k] (k over those, in
 * argument order, written_args[k] their positions) names the callee return
 * holding their new value. torchgen's generated kernel does not copy them
 * back; an executor that honours the schema should. (out_from is the return
 * each out argument was made from; torchgen's kernel indexes by position,
 * which differs only when a non-tensor return precedes a tensor one.)
 *
 * Example, from `foo_(Tensor(a!) self, Scalar s) -> Tensor(a!)` (autogen:
 * foo, foo.out):
 *   foo(Tensor self, Scalar s) -> Tensor
 *       callee foo_, arg_from {0, 1}, clone {0}, ret_src {CLONED_ARG 0}
 *   foo.out(Tensor self, Scalar s, *, Tensor(a!) out) -> Tensor(a!)
 *       callee foo, arg_from {0, 1}, out_args {2}, out_from {0},
 *       ret_src {OWN_ARG 2} */
typedef enum ta_ag_src_kind {
    TA_AG_CALLEE_RETURN = 0,
    TA_AG_CLONED_ARG,
    TA_AG_OWN_ARG
} ta_ag_src_kind;

typedef struct ta_ag_src {
    ta_ag_src_kind kind;
    uint32_t index;
} ta_ag_src;

struct ta_autogen_plan {
    ta_schema_kind kind;        /* TA_KIND_FUNCTIONAL or TA_KIND_OUT */
    uint32_t base;              /* function index of the yaml entry derived from */
    ta_schema_kind base_kind;   /* inplace, mutable or functional */
    uint32_t callee;            /* function index to call */
    const int32_t *arg_from;    /* per callee argument: the own argument passed, or -1
                                 * when there is none (a TensorOptions argument the
                                 * signature dropped: pass its default) */
    uint32_t ncallee_args;
    const uint32_t *clone;      /* functional: callee arguments to clone */
    uint32_t nclone;
    const ta_ag_src *ret_src;   /* per own return */
    uint32_t nrets;
    const uint32_t *out_args;   /* out=: own out argument positions */
    const uint32_t *out_from;   /* out=: callee return copied into each */
    uint32_t nouts;
    const uint32_t *written_args; /* out= from mutable: own written positional args */
    const uint32_t *writeback;    /* ... and the callee return with their value */
    uint32_t nwritten;
};

typedef enum ta_tg_group_kind {
    TA_GROUP_KINDS = 0, /* NativeFunctionsGroup */
    TA_GROUP_VIEW       /* NativeFunctionsViewGroup */
} ta_tg_group_kind;

/* A group; members are function indices, -1 when absent. */
typedef struct ta_tg_group {
    ta_tg_group_kind kind;
    const char *signature; /* TA_GROUP_KINDS: the shared signature */
    int32_t functional, inplace, mutable_fn, out; /* TA_GROUP_KINDS */
    int32_t view, view_copy, view_inplace;        /* TA_GROUP_VIEW */
} ta_tg_group;

typedef struct ta_torchgen ta_torchgen;

TA_API ta_status ta_torchgen_create(ta_torchgen **out); /* TA_ERR_NOMEM, *out NULL */
TA_API void ta_torchgen_destroy(ta_torchgen *tg);

/* Appends one yaml entry (in file order). Fails with TA_ERR_INVALID after
 * ta_torchgen_derive. */
TA_API ta_status ta_torchgen_add(ta_torchgen *tg, const ta_tg_entry *e);

/* torchgen's add_generated_native_functions, then the checks its groups make:
 * appends the derived functions after the yaml's, in torchgen's order.
 * Every refusal or mismatch becomes a diagnostic: errors
 * autogen-underivable, autogen-name-mismatch and autogen-missing when the
 * `autogen:` entries and what torchgen derives disagree, autogen-lone-out and
 * autogen-no-out-variant where torchgen itself would stop; a note
 * autogen-ignored for an entry torchgen accepts and silently skips (view,
 * CompositeImplicitAutograd, manual binding); warnings group-* where
 * torchgen could not group. Returns TA_OK unless memory runs out (look at the diagnostics
 * for errors). Call at most once. */
TA_API ta_status ta_torchgen_derive(ta_torchgen *tg, ta_diags *diags);

/* torchgen's get_grouped_native_functions (kinds groups, in its order) then
 * get_grouped_by_view_native_functions (view groups), over every function
 * added and derived so far. May be called again after ta_torchgen_derive. */
TA_API ta_status ta_torchgen_group(ta_torchgen *tg, ta_diags *diags);

TA_API size_t ta_torchgen_count(const ta_torchgen *tg);
TA_API const ta_tg_function *ta_torchgen_get(const ta_torchgen *tg, size_t i);
TA_API size_t ta_torchgen_count_derived(const ta_torchgen *tg); /* the generated ones, at the end */
TA_API size_t ta_torchgen_group_count(const ta_torchgen *tg);
TA_API const ta_tg_group *ta_torchgen_group_get(const ta_torchgen *tg, size_t i);
/* Function index of "name.overload" (torchgen's str(func.name)), or -1. */
TA_API int32_t ta_torchgen_find(const ta_torchgen *tg, const char *name);

/* ---- from a loaded native_functions.yaml ------------------------------- */

/* Adds every entry of a loaded file whose schema parsed (entry id = its
 * index in the file). */
TA_API ta_status ta_torchgen_add_native(ta_torchgen *tg, const ta_native_file *f);

/* A ta_torchgen over the file with its derived functions and groups, in one
 * call; diagnostics of derivation are appended to diags (positioned at the
 * entries, autogen rules at their autogen: value). NULL *out on NOMEM. */
TA_API ta_status ta_torchgen_from_native(const ta_native_file *f, ta_torchgen **out,
                                  ta_diags *diags);

/* The check pass for ta_native_check_with: runs the derivation and reports
 * autogen-underivable, autogen-name-mismatch, autogen-missing and torchgen's
 * own refusals (warnings) at the yaml entries. */
TA_API ta_status ta_torchgen_check_pass(const ta_native_file *f, ta_diags *diags);
TA_API extern const ta_native_pass ta_torchgen_pass; /* {"autogen", ta_torchgen_check_pass} */

/* ---- the same check, fed one entry at a time (a streaming check) -------
 *
 * For a check that does not hold the whole loaded file: the stream keeps a
 * compact summary of each entry it is given (referring to the yaml text by
 * byte offsets, re-reading what it needs from that text at the end) and
 * ta_torchgen_stream_finish reports exactly the diagnostics ta_torchgen_check_pass
 * reports on the whole file, in the same order.
 *
 * f in each call is any view of the one yaml (the whole loaded file, or a
 * part of it that shares its text, source name and tags.yaml): the stream
 * uses only ta_native_text, ta_native_source, the tag set and ta_native_loc
 * of it, never its entries. Entries are added in yaml order; an entry (and
 * its schema, which may be NULL) need not outlive the call that adds it. The
 * text must outlive the stream. Every entry of the yaml is added, those
 * whose schema did not parse included (they derive nothing, but diagnostics
 * are placed by searching all entries by line, as the pass does).
 * ta_torchgen_stream_finish runs once (TA_ERR_INVALID after); adding after it is
 * TA_ERR_INVALID too. What the stream keeps is about 210 bytes an entry of
 * a 1.13.1-like yaml; finish then builds the check model from it (about
 * 230 bytes an entry more while it runs), parsing again from the text only
 * the schemas of the groups torchgen derives for (tools/bench/
 * bench_torchgen_stream). */
typedef struct ta_torchgen_stream ta_torchgen_stream;
TA_API ta_status ta_torchgen_stream_create(const ta_native_file *f, ta_torchgen_stream **out);
TA_API ta_status ta_torchgen_stream_add(ta_torchgen_stream *s, const ta_native_file *f,
                                  const ta_native_func *fn);
TA_API ta_status ta_torchgen_stream_finish(ta_torchgen_stream *s, const ta_native_file *f,
                                     ta_diags *diags);
TA_API void ta_torchgen_stream_destroy(ta_torchgen_stream *s);

/* Every rule the pass reports, for report catalogues (SARIF rules[]). */
TA_API const ta_rule_info *ta_torchgen_rules(size_t *n);

#ifdef __cplusplus
}
#endif
#endif
