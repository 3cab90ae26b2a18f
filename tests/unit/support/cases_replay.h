/* cases_replay.h - replaying the differential cases of
 * $BUILD/data/refkernels/cases.jsonl (made with torch 1.13 by
 * tools/refkernel_cases.py; see tests/data/README.md) on a set of kernels.
 * Each case gives an operator, its arguments (tensors with their exact
 * storage, strides and offset) and what torch did: raised, or returned
 * tensors (or a list of them) of some dtype, shape and values, for views also
 * strides, offset and which input's storage they share, and for out= and
 * in-place which argument they are. The kernels must agree. Shared by the
 * CPU (test_refkernel_cases.c) and CUDA (test_cuda_cases.c) replays, so both
 * read the file and judge a result the same way. */
#ifndef TA_TEST_CASES_REPLAY_H
#define TA_TEST_CASES_REPLAY_H

#include <stdbool.h>

#include "tensoralias/exec.h"

/* The kernel under test for op (its user data in *ud), or NULL. */
typedef ta_kernel_fn (*ta_replay_kernel_fn)(const ta_registry_op *op, void **ud);

typedef struct ta_replay {
    ta_exec *ex;                /* arguments live on its device (read and written through it) */
    const ta_registry *reg;
    ta_replay_kernel_fn kernel;
    bool skip_missing; /* an operator without a kernel: skip its cases (else they disagree) */
    int show;          /* how many disagreements to print on stderr */
    /* Set by ta_replay_cases: */
    int seen; /* cases in the file */
    int ran;  /* cases replayed */
    int bad;  /* replayed cases that disagree with torch */
} ta_replay;

/* Replays every case of the file; fails the running cmocka test when the
 * file cannot be read. */
void ta_replay_cases(ta_replay *r);

#endif
