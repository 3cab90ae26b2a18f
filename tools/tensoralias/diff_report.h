/* diff_report.h - how `tensoralias diff` writes what it found: the
 * diagnostics as text (each record's together, in the library's order),
 * the records as JSON lines, and the summary line. */
#ifndef TA_DIFF_REPORT_H
#define TA_DIFF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "tensoralias/diff.h"

/* The diagnostics of d as a compiler's, without notes unless notes is set;
 * a "diff-old" note is shown with the diagnostic it follows. */
void ta_diff_text(const ta_diags *d, bool notes, FILE *out);

/* One JSON object per record a line: op, change, bc, fc (torch's verdicts;
 * "raises": true when torch throws rather than answers), alias_changed,
 * breaks, allowed, old and new (the schemas as written, or null), old_at
 * and new_at ("file:line"), bc_why, fc_why, and changes (each: what, slot,
 * is_return, old_index, new_index, detail). 0, or -1 on failure. */
int ta_diff_json(const ta_diff *d, FILE *out);

/* "OLD -> NEW: N overloads in both, N changed (...), N added, N removed; ..." */
void ta_diff_summary_line(const ta_diff *d, const char *old_name, const char *new_name, FILE *out);

#endif
