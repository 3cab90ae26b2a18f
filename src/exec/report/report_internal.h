/* report_internal.h - what the verification report's formats share: the
 * severity words and the baseline test of a finding. Not public. */
#ifndef TA_EXEC_REPORT_INTERNAL_H
#define TA_EXEC_REPORT_INTERNAL_H

#include "base/writer.h"
#include "tensoralias/verify.h"

/* The severity words of verify's reports (and of the baselines they
 * become): a finding's "info", "warning" or "error"; an ok result's "none". */
const char *vreport_finding_severity(ta_severity s);
const char *vreport_result_severity(const ta_op_result *o);

/* Whether the baseline knows finding f of operator o. */
bool vreport_known(const ta_verify_baseline *b, const ta_op_result *o, const ta_finding *f);

void vreport_text(ta_writer *w, const ta_verify_report *r, const ta_verify_write_opts *o);
void vreport_json(ta_writer *w, const ta_verify_report *r, const ta_verify_baseline *b);
void vreport_sarif(ta_writer *w, const ta_verify_report *r, const ta_verify_write_opts *o);
void vreport_junit(ta_writer *w, const ta_verify_report *r, const ta_verify_baseline *b);

#endif
