/* decl.h - what a schema declares about memory, in the form the verifier
 * asks for it: which arguments may be written, which values may share
 * storage, which returns must be an argument (inplace, out=) or a view of
 * one.
 *
 * Which values may share storage comes from the alias module's queries
 * (torch's SchemaInfo answers, element sets included), precomputed into a
 * matrix; the annotations read directly (alias sets as bitmasks) give the
 * rest, and the answer too when a schema is beyond the queries' limits. */
#ifndef TA_EXEC_REGISTRY_DECL_H
#define TA_EXEC_REGISTRY_DECL_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/synth/synth_names.h"
#include "tensoralias/schema.h"

typedef enum ta_decl_type {
    TA_DT_TENSOR,       /* Tensor */
    TA_DT_TENSOR_LIST,  /* Tensor[], Tensor?[] */
    TA_DT_INT,          /* int, SymInt */
    TA_DT_INT_LIST,     /* int[], SymInt[], int[N] */
    TA_DT_FLOAT,
    TA_DT_FLOAT_LIST,
    TA_DT_BOOL,
    TA_DT_BOOL_LIST,
    TA_DT_SCALAR,
    TA_DT_SCALAR_TYPE,
    TA_DT_LAYOUT,
    TA_DT_MEMORY_FORMAT,
    TA_DT_DEVICE,
    TA_DT_GENERATOR,
    TA_DT_STRING,
    TA_DT_SCALAR_LIST,  /* Scalar[] */
    TA_DT_DIMNAME,      /* Dimname */
    TA_DT_DIMNAME_LIST, /* Dimname[], Dimname[N] */
    TA_DT_OTHER         /* Storage, Stream, t, ...: not synthesized */
} ta_decl_type;

typedef struct ta_decl_slot {
    char name[64];
    ta_decl_type type;
    bool optional;     /* T? */
    bool list_opt_items; /* Tensor?[] */
    int32_t fixed_size;  /* int[N]: N, else -1 */
    bool write;        /* (a!) or Tensor! */
    /* Not declared written, but torch's SchemaInfo counts it written when
     * the call trains (running_mean of batch_norm, noise of
     * rrelu_with_noise): a write of it is a special-case-write finding. */
    bool special_write;
    bool is_out;       /* out= argument */
    bool wildcard;     /* in set * (before or after) */
    bool annotated;    /* carries any alias annotation */
    uint64_t sets;     /* alias sets, before and after, as bits */
    const ta_arg *arg; /* NULL for returns */
    const ta_ret *ret; /* NULL for arguments */
} ta_decl_slot;

typedef struct ta_decl {
    ta_decl_slot *args;
    int nargs;
    ta_decl_slot *rets;
    int nrets;
    /* Per return: the argument it must be (a written set it shares with a
     * written argument: inplace and out= returns), or -1. */
    int *ret_is_arg;
    /* Per return: true when it is declared a view (a non-written set shared
     * with a tensor argument) and so must share that argument's storage. */
    bool *ret_is_view;
    /* aten::reshape, aten::contiguous, aten::to.dtype...: a view return
     * documented to be a copy at times */
    bool may_copy;
    bool has_out;   /* any out= argument */
    /* aten::empty.out, aten::empty_like.out...: out= need not be written */
    bool contents_unspecified;
    char unsupported[96]; /* first argument type the verifier cannot synthesize, or "" */
    /* may[a] bit b: slots a and b may share storage (slot = argument index,
     * or nargs + return index); NULL when the queries could not answer. */
    uint64_t *may;
    ta_synth_names names; /* what the names say about inputs (synth_plan.c) */
} ta_decl;

/* Builds the declaration of s in arena memory. */
ta_status ta_decl_build(ta_arena *arena, const ta_schema *s, ta_decl **out);
/* Whether the two slots may share storage by their declaration. */
bool ta_decl_may_alias(const ta_decl *d, const ta_decl_slot *a, const ta_decl_slot *b);

#endif
