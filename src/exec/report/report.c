/* report.c - a verification report in the format asked for (see
 * tensoralias/verify.h): text for people, JSON lines for tools and
 * baselines, SARIF 2.1.0 for code-scanning UIs, JUnit XML for CI test
 * dashboards. Each format is a file of its own; this one chooses and holds
 * what they share. */
#include "exec/report/report_internal.h"

const char *vreport_finding_severity(ta_severity s)
{
    return s == TA_SEV_NOTE ? "info" : ta_severity_str(s);
}

const char *vreport_result_severity(const ta_op_result *o)
{
    return o->verdict == TA_V_OK ? "none" : vreport_finding_severity(o->severity);
}

ta_status ta_verify_report_write(const ta_verify_report *r, const ta_verify_write_opts *o,
                                 ta_write_fn write, void *ud)
{
    if (!r || !o || !write) return TA_ERR_INVALID;
    ta_writer w = ta_writer_to(write, ud);
    switch (o->format) {
    case TA_VERIFY_TEXT: vreport_text(&w, r, o); break;
    case TA_VERIFY_JSON: vreport_json(&w, r, o->baseline); break;
    case TA_VERIFY_SARIF: vreport_sarif(&w, r, o); break;
    case TA_VERIFY_JUNIT: vreport_junit(&w, r, o->baseline); break;
    default: return TA_ERR_INVALID;
    }
    return w.status;
}
