/* observe.h - observing one verification case: build the arguments,
 * snapshot every input storage and geometry, call the kernel, and compare
 * what it did with what the schema declares, reporting findings through a
 * callback. */
#ifndef TA_EXEC_OBSERVE_H
#define TA_EXEC_OBSERVE_H

#include "exec/synth.h"

typedef void (*ta_finding_fn)(void *ud, const ta_finding *f);
/* Builds a case's arguments (ta_synth_case, or from a samples file). */
typedef ta_status (*ta_case_builder)(void *ud, ta_exec *x, const ta_schema *s, const ta_decl *d,
                                     uint64_t seed, ta_case *c);

typedef enum ta_case_outcome {
    TA_CASE_RAN,      /* the kernel accepted the arguments; findings were checked */
    TA_CASE_REJECTED, /* the kernel refused them (message) */
    TA_CASE_UNSYNTH,  /* no arguments could be made (message) */
    TA_CASE_DEVICE_LOST /* the device faulted during the call (a kernel-error finding, and
                         * the message): nothing more can run in this process */
} ta_case_outcome;

typedef struct ta_observer ta_observer;

ta_observer *ta_observer_create(ta_exec *x, const ta_schema *s, const ta_decl *d, ta_kernel_fn fn,
                              void *user_data, bool trap_writes, ta_finding_fn emit, void *emit_ud);
void ta_observer_destroy(ta_observer *ck);
/* Runs one case; msg receives the rejection or synthesis message. When
 * build is NULL the arguments are synthesized. strict: a rejection is a
 * kernel-error finding (arguments from a samples file). */
ta_case_outcome ta_observer_run(ta_observer *ck, uint64_t seed, ta_case_builder build, void *build_ud,
                               bool strict, char *msg, size_t cap);
/* fn(ud, case, decl) is called after the arguments are built, before the call. */
void ta_observer_set_hook(ta_observer *ck, void (*fn)(void *, const ta_case *, const ta_decl *),
                         void *ud);
/* Read-only pages instead of byte copies for CPU input storages of at least
 * `bytes` that no argument may write (0, the default: never). Only where a
 * fault handler reports trapped writes (a child process). */
void ta_observer_set_protect_min(ta_observer *ck, size_t bytes);
/* The case being run (for a signal handler naming the argument a trapped
 * write hit). */
const ta_case *ta_observer_case(const ta_observer *ck);
const ta_decl *ta_observer_decl(const ta_observer *ck);

/* Byte offset of element i of t from its storage base (t->data). */
int64_t ta_elem_offset(const DLTensor *t, int64_t i);
/* Element index of t whose bytes contain byte offset off, or -1. */
int64_t ta_elem_at_offset(const DLTensor *t, int64_t off);

#endif
