/* observe.h - observing one verification case: build the arguments,
 * snapshot every input storage and geometry, call the kernel, and compare
 * what it did with what the schema declares, reporting findings through a
 * callback. */
#ifndef TA_EXEC_OBSERVE_OBSERVE_H
#define TA_EXEC_OBSERVE_OBSERVE_H

#include "exec/synth/synth.h"

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

typedef enum ta_observe_flags {
    TA_OBSERVE_TRAP_WRITES = 1u << 0 /* read-only pages on inputs nobody may write (CPU) */
} ta_observe_flags;

ta_observer *ta_observer_create(ta_exec *x, const ta_schema *s, const ta_decl *d, ta_kernel_fn fn,
                                void *user_data, unsigned flags, ta_finding_fn emit, void *emit_ud);
void ta_observer_destroy(ta_observer *ck);

/* Where a case's arguments come from: build (with ud), or, when build is
 * NULL, synthesis from the seed. A strict source's cases are meant to be
 * accepted (a samples file): a rejection is a kernel-error finding. */
typedef struct ta_case_source {
    ta_case_builder build;
    void *ud;
    bool strict;
    bool screen; /* the operator's screen first, when it has one (discovery's cases) */
} ta_case_source;

/* Runs one case of seed; from NULL means synthesized, not strict. What
 * rejected the case, or why it could not be made, is ta_observer_note's. */
ta_case_outcome ta_observer_run(ta_observer *ck, uint64_t seed, const ta_case_source *from);
/* The last case's rejection or synthesis message ("" after a case that ran). */
const char *ta_observer_note(const ta_observer *ck);
/* fn(ud, case, decl) is called after the arguments are built, before the call. */
void ta_observer_set_hook(ta_observer *ck, void (*fn)(void *, const ta_case *, const ta_decl *),
                         void *ud);
/* The operator's screen (ta_register_screen): a case whose source asks for
 * it is refused without a call when the screen refuses it. */
void ta_observer_set_screen(ta_observer *ck, ta_kernel_fn fn, void *ud);
/* *flag is 1 while the screen runs, else 0: whoever sees the process die
 * (verify's parent, reading it from shared memory) can tell a crash of the
 * screen (a Meta kernel) from one of the kernel. NULL: none. */
void ta_observer_set_screen_flag(ta_observer *ck, volatile uint32_t *flag);
/* Whether the last case was refused by the screen alone. */
bool ta_observer_screened(const ta_observer *ck);
/* Whether the last case was refused as no input could run the operator on
 * the device (the kernel's ta_kernel_cannot_run). */
bool ta_observer_cannot_run(const ta_observer *ck);
/* Read-only pages instead of byte copies for CPU input storages of at least
 * `bytes` that no argument may write (0, the default: never). Only where a
 * fault handler reports trapped writes (a child process). */
void ta_observer_set_protect_min(ta_observer *ck, size_t bytes);
/* The case being run (for a signal handler naming the argument a trapped
 * write hit). */
const ta_case *ta_observer_case(const ta_observer *ck);
/* The current case's arguments as ta_case_describe wrote them before the
 * call (a kernel may restride its inputs), or "" before one is built. */
const char *ta_observer_case_text(const ta_observer *ck);
const ta_decl *ta_observer_decl(const ta_observer *ck);

/* Byte offset of element i of t from its storage base (t->data). */
int64_t ta_elem_offset(const DLTensor *t, int64_t i);
/* Element index of t whose bytes contain byte offset off, or -1. */
int64_t ta_elem_at_offset(const DLTensor *t, int64_t off);

/* The first byte of storage sid (bytes long) that differs between before
 * (NULL: every byte was TA_FILL_BYTE) and after and that no written
 * argument's view covers: its elements with the geometry it had before the
 * call or has now (observe_cover.c). -1 when there is none. */
int64_t ta_first_uncovered_change(ta_exec *x, const ta_case *c, const ta_decl *d, uint32_t sid,
                                  const unsigned char *before, const unsigned char *after,
                                  size_t bytes);

#endif
