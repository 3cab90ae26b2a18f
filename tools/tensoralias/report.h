/* report.h - writes a list of diagnostics as compiler-style text, JSON
 * lines, or SARIF 2.1.0 (for GitHub code scanning). Shared by every command
 * that reports findings (check, verify). */
#ifndef TA_REPORT_H
#define TA_REPORT_H

#include <stdio.h>

#include "tensoralias/diag.h"
#include "tensoralias/native.h"

typedef enum ta_report_format {
    TA_REPORT_TEXT,
    TA_REPORT_JSON,
    TA_REPORT_SARIF
} ta_report_format;

/* "text", "json", "sarif" -> *out; returns -1 for anything else. */
int ta_report_format_parse(const char *s, ta_report_format *out);

/* Each diagnostic as ta_diag_render draws it (source line and caret). */
void ta_report_text(const ta_diags *d, FILE *out);

/* "N errors, N warnings in WHAT" and a newline. */
void ta_report_summary(const ta_diags *d, const char *what, FILE *out);

/* One JSON object per diagnostic per line: file, line, col, severity, rule,
 * message, hint (null when there is none). Returns 0, or -1 on failure. */
int ta_report_json(const ta_diags *d, FILE *out);

/* A SARIF 2.1.0 log with one run: tool.driver (name, version,
 * informationUri, rules[] = the given catalogue plus any other rule id the
 * diagnostics use) and one result per diagnostic. Relative file names are
 * given against %SRCROOT% (the repository root in code scanning), absolute
 * ones as file:// URIs. Returns 0, or -1 on failure. */
int ta_report_sarif(const ta_diags *d, const ta_rule_info *rules, size_t nrules,
                    FILE *out);

/* The SARIF document as a jansson value (json_t *), for callers that add to
 * it before writing; release with json_decref. NULL on failure. */
void *ta_report_sarif_build(const ta_diags *d, const ta_rule_info *rules,
                            size_t nrules);

#endif
