/* session_internal.h - a verify session's state (tensoralias/verify.h) and
 * the steps of its set-up, one file each: the torch and its bridge
 * (session_torch.c), the schemas (session_schemas.c), the kernel libraries
 * (session_kernels.c), the samples and the baseline (session_cases.c).
 * Each step returns a status and leaves its diagnostics in the caller's
 * list. Not public. */
#ifndef TA_EXEC_SESSION_INTERNAL_H
#define TA_EXEC_SESSION_INTERNAL_H

#include <limits.h>
#include <stdbool.h>

#include "base/arena.h"
#include "tensoralias/verify.h"

/* The libtorch bridge a run loads, and the torch it was built for. */
typedef struct session_torch {
    char bridge[PATH_MAX + 64]; /* the bridge library */
    char version[128];          /* the torch's version ("" for Debian's without torch_dir) */
    char yaml[PATH_MAX];        /* that torch's own native_functions.yaml, or "" */
} session_torch;

struct ta_verify_session {
    ta_verify_config c;  /* the caller's, its strings copied into the arena */
    ta_arena *arena;
    ta_registry *reg;
    ta_native_file *native;
    const char *yaml;    /* the yaml verified against, or NULL */
    void *devlib;        /* the CUDA device library's handle */
    char cuda_lib[PATH_MAX + 64]; /* its path, or "" */
    ta_samples *samples;
    ta_verify_baseline *baseline;
    session_torch torch;
    ta_verify_opts opts; /* the run's, as settled */
    ta_verify_report *report;
    bool ran;
    size_t errors0;      /* error diagnostics in the caller's list before create */
};

/* True when the set-up has added an error diagnostic to d. */
bool session_has_errors(const ta_verify_session *s, const ta_diags *d);

/* A set-up message about the run as a whole (rule "verify", or
 * "verify-config" for what the configuration cannot ask for); returns
 * `st`, or TA_ERR_NOMEM when the diagnostic could not be stored. */
ta_status session_fail(ta_diags *d, ta_status st, const char *rule, const char *fmt, ...) TA_PRINTF(4, 5);

/* True when libtorch's kernels are verified ("torch" kernels, torch libraries). */
bool session_uses_torch(const ta_verify_config *c);
/* True when ATen's own kernels are ("torch" among the kernels). */
bool session_uses_aten(const ta_verify_config *c);

/* The steps, in the order create takes them. */
ta_status session_torch_setup(ta_verify_session *s, ta_diags *d);
ta_status session_load_yaml(ta_verify_session *s, ta_diags *d);
ta_status session_open_cuda(ta_verify_session *s, ta_diags *d);
ta_status session_load_schemas(ta_verify_session *s, ta_diags *d);
ta_status session_load_kernels(ta_verify_session *s, ta_diags *d);
ta_status session_load_samples(ta_verify_session *s, ta_diags *d);
ta_status session_load_baseline(ta_verify_session *s, ta_diags *d);

#endif
