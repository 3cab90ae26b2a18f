/* report.h - the command's side of reporting diagnostics: the --format
 * names, compiler-style text (in colour on a terminal) in source order and
 * the summary line. JSON lines and SARIF 2.1.0 are the library's
 * (tensoralias/report.h). Shared by every command that reports findings. */
#ifndef TA_REPORT_H
#define TA_REPORT_H

#include <stdbool.h>
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

/* Each diagnostic as ta_diag_render draws it (source line and caret), in
 * colour when the command's --color says so for out. */
void ta_report_text(const ta_diags *d, FILE *out);

/* "1 error, 2 warnings in WHAT" and a newline; ", N notes" before "in"
 * when notes were shown (d holds what was shown). */
void ta_report_summary(const ta_diags *d, bool notes, const char *what, FILE *out);

/* Appends to out the diagnostics of src that are shown (notes only when
 * notes is set) in source order: by file (in order of first appearance),
 * then line and column; diagnostics without a position keep their place
 * before the positioned ones of their file. Returns TA_OK or TA_ERR_NOMEM. */
ta_status ta_report_shown(const ta_diags *src, bool notes, ta_diags *out);

#endif
