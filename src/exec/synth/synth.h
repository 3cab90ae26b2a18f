/* synth.h - synthesizing one verification case: the arguments of an
 * operator, deterministic from a seed, pushed on an execution context's
 * stack, with a record of every tensor handed in (so observation knows
 * what to snapshot and compare). */
#ifndef TA_EXEC_SYNTH_SYNTH_H
#define TA_EXEC_SYNTH_SYNTH_H

#include "exec/registry/decl.h"
#include "exec/runtime/exec_internal.h"

enum { TA_CASE_MAX_ARGS = 64, TA_CASE_MAX_SLOTS = 160, TA_CASE_MAX_DIM = 8 };

/* One tensor handed to the kernel, and its geometry before the call. */
typedef struct ta_case_slot {
    int arg;  /* argument index */
    int item; /* index in a tensor list, or -1 */
    DLTensor *t;
    uint32_t storage;
    bool fill; /* its storage holds TA_FILL_BYTE only (out= arguments) */
    DLTensor before;
    int64_t shape[TA_CASE_MAX_DIM], strides[TA_CASE_MAX_DIM];
} ta_case_slot;

typedef struct ta_case {
    uint64_t seed;
    /* The facts input discovery applied to the synthesized case (its
     * discovery path: with the seed, what replays it), or NULL. */
    const char *found;
    ta_value args[TA_CASE_MAX_ARGS]; /* the values pushed, in schema order */
    int nargs;
    ta_case_slot slots[TA_CASE_MAX_SLOTS];
    int nslots;
    char note[256]; /* why synthesis failed */
} ta_case;

/* Fills c and pushes the arguments of s on x's stack (x was reset).
 * TA_ERR_UNSUPPORTED with c->note when an argument cannot be synthesized. */
ta_status ta_synth_case(ta_exec *x, const ta_schema *s, const ta_decl *d, uint64_t seed,
                        ta_case *c);

/* Like ta_synth_case, but asks over(ud, arg, ...) first for each argument:
 * it pushes the value itself and returns TA_OK, or returns TA_ERR_NOTFOUND
 * to have it synthesized. */
typedef ta_status (*ta_synth_override)(void *ud, int arg, ta_exec *x, const ta_decl *d,
                                       ta_case *c);
ta_status ta_synth_case_with(ta_exec *x, const ta_schema *s, const ta_decl *d, uint64_t seed,
                             ta_case *c, ta_synth_override over, void *ud);
/* The case as a record (case.c). */

/* Pushes v on x's stack and records it as the case's next argument. */
ta_status ta_case_push(ta_case *c, ta_exec *x, ta_value v);

/* Records t (already made by the caller) as slot of argument arg. */
ta_status ta_case_add_slot(ta_case *c, ta_exec *x, int arg, int item, DLTensor *t, bool fill);

/* Replaces argument arg's value (on x's stack too), dropping its slots:
 * the caller records the tensors of the new value (ta_case_add_slot). */
ta_status ta_case_replace(ta_case *c, ta_exec *x, int arg, ta_value v);

/* The values of a tensor made for discovery: as synthesis draws them,
 * whole numbers in [lo, hi], or offsets (whole numbers from lo, never
 * decreasing, at most hi: where each row of a jagged tensor begins). */
typedef enum ta_synth_values { TA_SYNTH_DRAWN, TA_SYNTH_RANGED, TA_SYNTH_OFFSETS } ta_synth_values;

/* A tensor made as synthesis makes them, for a case discovery changed: in
 * a fresh storage, contiguous or strided (the last dimension sliced), with
 * values as vals says, or every byte TA_FILL_BYTE when fill (an out=
 * argument); values drawn from seed. */
ta_status ta_synth_tensor(ta_exec *x, uint64_t seed, DLDataType dt, int ndim, const int64_t *shape,
                          bool contiguous, bool fill, ta_synth_values vals, int64_t lo, int64_t hi, DLTensor **out);

/* "self=float32[3,4] strides [1,3], dim=1, ..." for messages and replay
 * (and " {found: ...}" with the discovery path). */
size_t ta_case_describe(const ta_case *c, const ta_decl *d, char *buf, size_t cap);

uint64_t ta_mix64(uint64_t x);

#endif
