/* tensoralias/report.h - where reports go, and diagnostics as reports.
 *
 * The library never prints: a report is handed, piece by piece, to a write
 * callback the caller gives (a FILE through ta_write_file, a buffer, a
 * Python callable). Diagnostics are written as JSON lines or as a SARIF
 * 2.1.0 log (GitHub code scanning); their compiler-style text is
 * ta_diag_render's (diag.h). Verification reports are in verify.h.
 */
#ifndef TENSORALIAS_REPORT_H
#define TENSORALIAS_REPORT_H

#include <stddef.h>

#include "tensoralias/diag.h"
#include "tensoralias/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Takes the next n bytes of a report; returns 0, or nonzero when they
 * could not be written (the writer then stops, reporting TA_ERR_IO). */
typedef int (*ta_write_fn)(void *ud, const char *bytes, size_t n);

/* A ta_write_fn for a FILE * passed as ud (fwrite; the caller flushes and
 * closes it, and sees a delayed error there). */
TA_API int ta_write_file(void *file, const char *bytes, size_t n);

/* One JSON object a diagnostic a line: file, line, col, severity, rule,
 * message, hint (null when there is none), and operator when it names one.
 * TA_OK; TA_ERR_IO when a write failed; TA_ERR_NOMEM. */
TA_API ta_status ta_diags_write_json(const ta_diags *d, ta_write_fn write, void *ud);

/* A SARIF 2.1.0 log, indented, with one run: tool.driver (name, version,
 * informationUri, rules: the catalogue rules[0..nrules) and then any other
 * rule id the diagnostics use, each with its docs/rules.md section as
 * helpUri) and one result per diagnostic, at its file (a relative name
 * against %SRCROOT%, an absolute one a file:// URI), line and columns.
 * Returns as ta_diags_write_json does. */
TA_API ta_status ta_diags_write_sarif(const ta_diags *d, const ta_rule_info *rules, size_t nrules,
                                      ta_write_fn write, void *ud);

#ifdef __cplusplus
}
#endif
#endif
