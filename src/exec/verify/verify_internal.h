/* verify_internal.h - what the files of ta_verify share: an operator's job,
 * the report a child sends its parent, and who calls whom across them.
 *
 * verify.c holds the entry point and each operator's result, verify_child.c
 * what runs in a child (an operator's cases, the report writer),
 * verify_parent.c the scheduling of children (batches, timeouts, restarts,
 * re-running alone) and the reading of their reports. Names shared by these
 * files carry the prefix verify_ (the public ones are ta_verify_*).
 *
 * The parent gives each child one operator (operator isolation) or a batch
 * of them, run one after another (not one per case: a child runs many
 * cases), and keeps up to `jobs` children at once. A child reports what it
 * sees as lines, one per event, into its mailbox (memory it shares with the
 * parent, so reporting wakes nobody), and sends them through a pipe when
 * the mailbox is full and when it is done; the parent reads a mailbox
 * itself only after its child died or was killed, so whatever the child
 * reported before is kept either way. The lines:
 *   O <job>                        an operator starts (every child, first)
 *   S <case>                       a case starts (its deadline starts now)
 *   C <arguments>                  its arguments, described, before the call
 *   F <kind>\t<arg>\t<seed>\t<msg> a finding
 *   X <case> / R <case>\t<msg>     the case ran / was rejected
 *   N <case>\t<msg>                it was rejected as no input could run
 *                                  the operator (ta_kernel_cannot_run)
 *   T                              a trapped write was reported; exiting
 *   L <case>                       the device faulted in the case (reported
 *                                  as a finding); exiting, since a CUDA
 *                                  context does not survive its fault
 *   D                              all the operator's cases done */
#ifndef TA_EXEC_VERIFY_VERIFY_INTERNAL_H
#define TA_EXEC_VERIFY_VERIFY_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "exec/verify/child_state.h"
#include "exec/registry/decl.h"

typedef struct op_job {
    const char *name;
    ta_arena *arena;
    ta_schema *schema;
    ta_decl *decl;
    ta_kernel_fn fn;
    void *ud;
    ta_kernel_fn screen; /* ta_register_screen's, or NULL */
    void *screen_ud;
    ta_op_result *res;
    size_t nprep; /* findings the parent made before any case (schema-mismatch) */
    uint32_t total, next_case, nsamples;
    uint32_t first_sample; /* the sample case 0 runs (a --case-seed naming a sample) */
    int restarts;
    bool done;
    bool strict; /* special-case writes are errors */
    /* what its child reported last */
    int64_t cur_case;
    bool got_done, trapped, device_lost;
    /* A child of this operator reported a trapped write or a guard page hit:
     * the later children run on snapshots alone (no read-only pages), so a
     * kernel that writes an input in every case is restarted once, not in
     * every case; the write is reported already. */
    bool pages_off;
    size_t capfindings;
    /* cases refused as no input could run the operator (ta_kernel_cannot_run), and the first's reason */
    uint32_t cannot_run;
    char cannot_run_why[256];
} op_job;

/* A child's mailbox: its report lines not yet sent through the pipe, when
 * its current case started (for the parent's timeout), and whether it is
 * in the operator's screen (a crash there is the Meta kernel's). */
enum { MAILBOX_BYTES = 64 << 10 };
typedef struct mailbox {
    volatile size_t len;        /* bytes of data holding whole lines */
    volatile double case_start; /* monotonic seconds; 0 before the first case */
    volatile uint32_t screening; /* 1 while the operator's screen (its Meta kernel) runs */
    char data[MAILBOX_BYTES - 4 * sizeof(double)];
} mailbox;

/* What the parent sends a spare child through its control pipe: jobs
 * [job, job + count), the first from case `from`, its discovery having
 * spent spent_calls calls and spent_seconds already (children before this
 * one, which died in a case). */
typedef struct assignment {
    uint32_t job, count, from;
    uint8_t pages_off;
    uint32_t spent_calls;
    double spent_seconds;
} assignment;

/* What a spare child runs its assignment with, as the parent had it at the
 * fork. */
typedef struct child_work {
    op_job *jobs;
    size_t n;
    const ta_verify_opts *o;
    ta_child_state *state; /* what a child puts back between operators */
    const ta_registry *reg;
} child_work;

/* Where the cases of an operator run: in a child process that reports
 * through a pipe, or (tests, benchmarks) in this process, straight into
 * the result. */
typedef enum run_mode { RUN_IN_CHILD, RUN_IN_PROCESS } run_mode;

/* verify.c */

/* Monotonic seconds. */
double verify_now(void);
/* Case c of j: a sample (its index is its seed) or a synthesized case. */
uint64_t verify_seed_of_case(const op_job *j, const ta_verify_opts *o, uint32_t c, bool *sample);
/* Adds a finding to j's result, once per (kind, argument). */
void verify_add_finding(op_job *j, const ta_finding *given);
void verify_add_simple(op_job *j, ta_verdict_kind k, uint64_t seed, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A case of j was refused as no input could run the operator: why. */
void verify_cannot_run(op_job *j, const char *why);
/* j's cases are done: its verdict, from its findings, which are sorted. */
void verify_finish_result(op_job *j);

/* verify_child.c */

/* Runs cases [from, total) of j, reporting through fd (in a child) or into
 * j (in process); spent (NULL: none) is what its discovery spent before. In a child, false when it must end: the device faulted
 * (nothing more runs in this process) or the cases could not be set up;
 * else it has reported D. */
bool verify_run_cases(op_job *j, uint32_t from, const assignment *spent, const ta_verify_opts *o, int fd,
                      run_mode mode);
/* In a spare child just forked: reports into box (NULL: through the pipe
 * only), prints into errfd (-1: stderr), waits for its assignment on ctl,
 * runs it reporting to out; exits. */
_Noreturn void verify_spare_main(const child_work *w, mailbox *box, int errfd, int ctl, int out, pid_t parent);

/* verify_parent.c */

/* Runs every job in children; false when out of memory before any ran. */
bool verify_run_parallel(op_job *jobs, size_t n, const ta_verify_opts *o, const ta_registry *reg,
                             ta_verify_stats *stats);

#endif
