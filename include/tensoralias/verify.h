/* tensoralias/verify.h - a verification as `tensoralias verify` makes it:
 * a session set up from one configuration, run, and reported; and the
 * reports and baselines on their own.
 *
 *     ta_verify_config c = {0};              // zero: every default
 *     const char *ops[] = {"aten::abs*"};
 *     c.ops = ops;
 *     c.nops = 1;
 *     ta_verify_session *s;
 *     if (ta_verify_session_create(&c, &s, diags) == TA_OK &&
 *         ta_verify_session_run(s, diags) == TA_OK)
 *         ta_verify_session_write(s, TA_VERIFY_JSON, false, ta_write_file, stdout);
 *     bool failed = ta_verify_session_failed(s); // an error finding outside the baseline
 *     ta_verify_session_destroy(s);
 *
 * The session decides what the command's options mean: which yaml, which
 * kernel libraries (the reference kernels, the CUDA device's, the libtorch
 * bridge for the torch in use, built on first use), samples, isolation and
 * the baseline. Everything it has to say is a diagnostic: set-up messages
 * that concern the run as a whole (no file position) have rule
 * "verify-config" when the configuration asks for something impossible
 * (--torch without torch kernels, an empty selection) and "verify"
 * otherwise; the rest are the loaders' and plugins' own. Only the bridge's
 * build, which takes minutes, speaks while it happens, through the log
 * callback.
 */
#ifndef TENSORALIAS_VERIFY_H
#define TENSORALIAS_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensoralias/diag.h"
#include "tensoralias/exec.h"
#include "tensoralias/export.h"
#include "tensoralias/report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Operators a batch child runs when the session chooses batches (torch's
 * kernels): past some 16 the fork a batch saves is a small part of its time
 * (tools/torch/schemacheck_speed.py). */
#define TA_VERIFY_BATCH 32

/* ---- baselines ---------------------------------------------------------- */

/* Known findings (operator, kind, argument) from a previous JSON report. */
typedef struct ta_verify_baseline ta_verify_baseline;

/* Reads a report `verify --format json` wrote (JSON lines, or one document:
 * a result or an array of them). TA_ERR_IO (cannot be opened) or
 * TA_ERR_PARSE (not such a report) with an error diagnostic (rule
 * "baseline", "PATH:LINE: not a verify JSON report: why"); TA_ERR_NOMEM. */
TA_API ta_status ta_verify_baseline_load(const char *path, ta_verify_baseline **out,
                                         ta_diags *diags);
TA_API void ta_verify_baseline_destroy(ta_verify_baseline *b);
/* Whether b (NULL: none) knows the finding; kind as ta_verdict_kind_str
 * names it, argument "" for none. */
TA_API bool ta_verify_baseline_has(const ta_verify_baseline *b, const char *op, const char *kind,
                                   const char *argument);
/* The error findings of r that b does not know: what fails a gate. */
TA_API size_t ta_verify_report_new_errors(const ta_verify_report *r, const ta_verify_baseline *b);

/* ---- reports ------------------------------------------------------------ */

typedef enum ta_verify_format {
    TA_VERIFY_TEXT,  /* for people: operators with findings, and a summary line */
    TA_VERIFY_JSON,  /* one object an operator a line (what a baseline is read from) */
    TA_VERIFY_SARIF, /* SARIF 2.1.0, for code-scanning UIs */
    TA_VERIFY_JUNIT  /* JUnit XML: a testcase an operator, a failure an error finding */
} ta_verify_format;

/* Where an operator's schema was written (a yaml file and line), for SARIF
 * physical locations; false when unknown (custom operators). */
typedef bool (*ta_verify_locate_fn)(void *ud, const char *op, const char **file, unsigned *line);

typedef struct ta_verify_write_opts {
    ta_verify_format format;
    bool verbose;                       /* text: every operator, not only those with findings */
    const ta_verify_baseline *baseline; /* or NULL; findings in it are marked in every format */
    ta_verify_locate_fn locate;         /* or NULL */
    void *locate_ud;
} ta_verify_write_opts;

/* Writes r. Text shows the operators with a warning or an error (all of
 * them when verbose) and ends with one summary line counting every verdict.
 * A finding the baseline knows is "(in baseline)" in text, "baseline": true
 * in JSON, baselineState "unchanged" in SARIF, and no <failure> in JUnit
 * (whose counts then agree with ta_verify_report_new_errors). TA_OK;
 * TA_ERR_IO when a write failed; TA_ERR_NOMEM. */
TA_API ta_status ta_verify_report_write(const ta_verify_report *r, const ta_verify_write_opts *o,
                                        ta_write_fn write, void *ud);

/* ---- sessions ----------------------------------------------------------- */

/* What a session says while it sets up, before create returns: a message
 * of its own (output false: "building the libtorch bridge for torch 2.4.1
 * into DIR (once for this torch; a few minutes)"), or a line that
 * tools/torch-config.sh printed while it looked at a torch or built the
 * bridge for it (output true). */
typedef void (*ta_verify_log_fn)(void *ud, bool output, const char *line);

/* What to verify, and how. All zero is the default run: the bundled
 * native_functions.yaml, the reference kernels, 40 synthesized cases an
 * operator, every operator with a kernel. Fields are only ever added at
 * the end. */
typedef struct ta_verify_config {
    /* Schemas: the yaml verified against (NULL: the torch_dir torch's own,
     * none with torch_libraries, else the bundled one); files of schemas
     * registered without kernels (ta_registry_load_schemas); C++ and Python
     * sources whose declared schemas the torch_libraries' kernels are
     * verified against (extract.h; needs torch_libraries). */
    const char *yaml;
    const char *const *schema_files;
    size_t nschema_files;
    const char *const *schema_sources;
    size_t nschema_sources;
    /* Kernels: kernel libraries, "torch" for ATen's own through the libtorch
     * bridge (a name without a '/' is looked for in the current folder);
     * TORCH_LIBRARY extensions loaded into libtorch, in order; the torch
     * whose libtorch runs them (a torch package or libtorch folder; NULL:
     * Debian's libtorch-dev). The reference kernels come unless
     * no_default_kernels or torch kernels are verified. */
    const char *const *kernels;
    size_t nkernels;
    const char *const *torch_libraries;
    size_t ntorch_libraries;
    const char *torch_dir;
    bool no_default_kernels;
    ta_compose_mode compose; /* derived operators: composed where missing, or all */
    bool cuda;               /* run on the CUDA device (libtensoralias_cuda.so) */
    /* Cases: a samples file (NULL: with "torch" kernels, PyTorch 1.13.1's
     * OpInfo samples bundled, unless no_default_samples), and the run's
     * options as ta_verify takes them, except that dev and samples are the
     * session's and batch 0 lets it choose (TA_VERIFY_BATCH with torch kernels,
     * whose child processes are slow to start and end; else 1). */
    const char *samples;
    bool no_default_samples;
    ta_verify_opts run;
    /* The operators verified: fnmatch patterns on names ("aten::abs.out");
     * none: every operator with a kernel. */
    const char *const *ops;
    size_t nops;
    const char *baseline; /* a previous JSON report whose findings do not fail the run */
    const char *data_dir; /* the bundled files' folder (bundled.h); NULL: found */
    ta_verify_log_fn log; /* or NULL */
    void *log_ud;
} ta_verify_config;

typedef struct ta_verify_session ta_verify_session;

/* Sets up everything the run needs: loads the yaml, the schema files and
 * sources, the kernel libraries (the libtorch bridge found or built for the
 * torch in use, that torch's libtorch loaded first), the samples and the
 * baseline. The configuration's strings are copied. TA_OK; TA_ERR_INVALID
 * (rule "verify-config": options that contradict each other or name no
 * usable torch), TA_ERR_IO, TA_ERR_PARSE, TA_ERR_UNSUPPORTED (no CUDA
 * device), TA_ERR_NOMEM, each with its diagnostics; *out is NULL then.
 * Warnings (a missing bundled samples file, notes of extraction) are in
 * diags on success too. */
TA_API ta_status ta_verify_session_create(const ta_verify_config *config, ta_verify_session **out,
                                          ta_diags *diags);

/* Verifies the selected operators (once; a second call is TA_ERR_INVALID).
 * TA_ERR_INVALID with a "verify-config" diagnostic when nothing is
 * selected, or when none of the selected operators has a kernel (there is a
 * report then: every operator's no-kernel result). */
TA_API ta_status ta_verify_session_run(ta_verify_session *s, ta_diags *diags);

/* The report of the run; NULL before it. */
TA_API const ta_verify_report *ta_verify_session_report(const ta_verify_session *s);
/* The run's options as the session settled them (batch, dev, samples). */
TA_API const ta_verify_opts *ta_verify_session_opts(const ta_verify_session *s);

/* Writes the report (ta_verify_report_write) with the session's baseline,
 * and yaml lines as SARIF physical locations of aten operators. */
TA_API ta_status ta_verify_session_write(const ta_verify_session *s, ta_verify_format format,
                                         bool verbose, ta_write_fn write, void *ud);

/* True when the report has an error finding the baseline does not know. */
TA_API bool ta_verify_session_failed(const ta_verify_session *s);

TA_API void ta_verify_session_destroy(ta_verify_session *s);

#ifdef __cplusplus
}
#endif
#endif
