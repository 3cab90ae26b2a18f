/* child_state.h - the process state a verify child puts back between the
 * operators it runs one after another (--isolate=batch), so that each one
 * runs as it would in a fresh child forked from the parent. */
#ifndef TA_EXEC_VERIFY_CHILD_STATE_H
#define TA_EXEC_VERIFY_CHILD_STATE_H

#include <fenv.h>
#include <signal.h>
#include <stdbool.h>

#include "exec/registry/registry_internal.h"

enum { TA_CHILD_SIGNALS = 16 };

typedef struct ta_child_state {
    fenv_t fenv; /* rounding, exception masks, x86's flush-to-zero */
    sigset_t mask;
    struct sigaction acts[TA_CHILD_SIGNALS];
    int threads; /* the process's threads, -1 when unknown */
    /* The plugins' resets (ta_registry_on_process_reset). */
    int nresets;
    ta_process_reset_fn resets[TA_MAX_PROCESS_RESETS];
    void *reset_ud[TA_MAX_PROCESS_RESETS];
} ta_child_state;

/* Records the calling process's state and the registry's plugin resets:
 * called in a child before it runs its first operator. */
void ta_child_state_save(ta_child_state *s, const ta_registry *reg);
/* Puts the recorded state back and runs the plugins' resets; NULL when the
 * process is as recorded, else what changed that could not be put back. */
const char *ta_child_state_restore(const ta_child_state *s);

#endif
