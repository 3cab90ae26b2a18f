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

/* Writes the report; baseline may be NULL (findings in it are marked as
 * known); locate may be NULL. */
void ta_vreport_write(FILE *out, ta_vformat fmt, const ta_verify_report *r,
                      const ta_vbaseline *baseline, ta_vlocate_fn locate, void *locate_ud);

#endif
