/* report_junit.c - a verification report as JUnit XML for CI test
 * dashboards: a testcase an operator, a <failure> an error finding the
 * baseline does not know, <skipped> for an operator without a kernel or
 * without an accepted case. */
#include <string.h>

#include "exec/report/report_internal.h"

static void xml_escape(ta_writer *w, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': ta_writer_puts(w, "&lt;"); break;
        case '>': ta_writer_puts(w, "&gt;"); break;
        case '&': ta_writer_puts(w, "&amp;"); break;
        case '"': ta_writer_puts(w, "&quot;"); break;
        case '\'': ta_writer_puts(w, "&apos;"); break;
        default:
            if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t') ta_writer_put(w, " ", 1);
            else ta_writer_put(w, s, 1);
        }
    }
}

/* An error finding the baseline does not know: a <failure>. */
static bool junit_fails(const ta_op_result *o, const ta_finding *f, const ta_verify_baseline *bl)
{
    return f->severity == TA_SEV_ERROR && !vreport_known(bl, o, f);
}

static void junit_failure(ta_writer *w, const ta_finding *f)
{
    ta_writer_printf(w, "      <failure type=\"%s\" message=\"", ta_verdict_kind_str(f->kind));
    xml_escape(w, f->message);
    ta_writer_printf(w, "\">%s", ta_verdict_kind_str(f->kind));
    if (f->argument[0]) {
        ta_writer_puts(w, " (");
        xml_escape(w, f->argument);
        ta_writer_puts(w, ")");
    }
    ta_writer_printf(w, " seed 0x%llx: ", (unsigned long long)f->seed);
    xml_escape(w, f->message);
    ta_writer_puts(w, "</failure>\n");
}

/* The first known error finding, visible without failing the test. */
static void junit_known(ta_writer *w, const ta_op_result *o, const ta_verify_baseline *bl)
{
    for (size_t k = 0; k < o->nfindings; k++)
        if (o->findings[k].severity == TA_SEV_ERROR && !junit_fails(o, &o->findings[k], bl)) {
            ta_writer_printf(w, "      <system-out>in baseline: %s (", ta_verdict_kind_str(o->findings[k].kind));
            xml_escape(w, o->findings[k].argument);
            ta_writer_puts(w, ")</system-out>\n");
            return;
        }
}

static void junit_case(ta_writer *w, const ta_op_result *o, const ta_verify_baseline *bl)
{
    char cls[256];
    snprintf(cls, sizeof cls, "%s", o->op);
    char *colon = strstr(cls, "::");
    if (colon) *colon = '\0';
    ta_writer_puts(w, "    <testcase classname=\"");
    xml_escape(w, cls);
    ta_writer_puts(w, "\" name=\"");
    xml_escape(w, o->op);
    ta_writer_puts(w, "\">\n");
    if (o->verdict == TA_V_NO_KERNEL || o->verdict == TA_V_NOT_RUNNABLE ||
        (o->verdict == TA_V_NOT_EXERCISED && o->severity != TA_SEV_ERROR)) {
        ta_writer_puts(w, "      <skipped message=\"");
        xml_escape(w, o->nfindings ? o->findings[0].message : ta_verdict_kind_str(o->verdict));
        ta_writer_puts(w, "\"/>\n");
    }
    for (size_t k = 0; k < o->nfindings; k++)
        if (junit_fails(o, &o->findings[k], bl)) junit_failure(w, &o->findings[k]);
    junit_known(w, o, bl);
    ta_writer_puts(w, "    </testcase>\n");
}

/* Counts agree with the gate: a test fails when it has an error finding
 * outside the baseline. */
void vreport_junit(ta_writer *w, const ta_verify_report *r, const ta_verify_baseline *bl)
{
    size_t failures = 0, skipped = 0;
    for (size_t i = 0; i < r->nops; i++) {
        const ta_op_result *o = &r->ops[i];
        bool fails = false;
        for (size_t k = 0; k < o->nfindings && !fails; k++) fails = junit_fails(o, &o->findings[k], bl);
        if (fails) failures++;
        else if (o->verdict == TA_V_NO_KERNEL || o->verdict == TA_V_NOT_EXERCISED || o->verdict == TA_V_NOT_RUNNABLE)
            skipped++;
    }
    ta_writer_puts(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    ta_writer_printf(w, "<testsuites name=\"tensoralias verify\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
                        "time=\"%.3f\">\n", r->nops, failures, r->seconds);
    ta_writer_printf(w, "  <testsuite name=\"tensoralias verify\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
                        "skipped=\"%zu\" time=\"%.3f\">\n", r->nops, failures, skipped, r->seconds);
    for (size_t i = 0; i < r->nops; i++) junit_case(w, &r->ops[i], bl);
    ta_writer_puts(w, "  </testsuite>\n</testsuites>\n");
}
