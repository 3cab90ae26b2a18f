/* report_verify.h - writing a verification report as text, JSON lines,
 * SARIF 2.1.0 or JUnit XML, and reading a previous JSON report as a
 * baseline of known findings. */
#ifndef TA_REPORT_VERIFY_H
#define TA_REPORT_VERIFY_H

#include <stdbool.h>
#include <stdio.h>

#include "tensoralias/exec.h"

typedef enum ta_vformat { TA_VFMT_TEXT, TA_VFMT_JSON, TA_VFMT_SARIF, TA_VFMT_JUNIT } ta_vformat;

/* Known findings (op, kind, argument) from a previous JSON report. */
typedef struct ta_vbaseline ta_vbaseline;
/* NULL with an error diagnostic (rule "baseline") when path is no report. */
ta_vbaseline *ta_vbaseline_load(const char *path, ta_diags *diags);
void ta_vbaseline_destroy(ta_vbaseline *b);
bool ta_vbaseline_has(const ta_vbaseline *b, const char *op, const char *kind, const char *arg);

/* Where an operator's schema was written (a yaml file and line), for SARIF
 * physical locations; false when unknown (custom operators). */
typedef bool (*ta_vlocate_fn)(void *ud, const char *op, const char **file, unsigned *line);

typedef struct ta_vreport_opts {
    ta_vformat fmt;
    bool verbose;                   /* text: every operator, not only those with findings */
    const ta_vbaseline *baseline;   /* or NULL; findings in it are marked in every format */
    ta_vlocate_fn locate;           /* or NULL */
    void *locate_ud;
} ta_vreport_opts;

/* Writes the report. Text shows the operators with a warning or an error
 * (all of them when verbose) and a summary line counting every verdict.
 * A finding the baseline knows is "(in baseline)" in text, "baseline": true
 * in JSON, baselineState "unchanged" in SARIF, and no <failure> in JUnit
 * (whose counts then agree with the exit status). Returns 0, or -1 when the
 * report could not be built or written. */
int ta_vreport_write(FILE *out, const ta_vreport_opts *o, const ta_verify_report *r);

#endif
