/* report_text.c - a verification report for people: the operators with a
 * warning or an error (every one when verbose), their findings, and one
 * summary line, the last, which scripts read. */
#include "exec/report/report_internal.h"

/* "1 operator", "2 operators". */
static const char *plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

static void text_op(ta_writer *w, const ta_op_result *o, const ta_verify_baseline *bl)
{
    ta_writer_printf(w, "%s%s: %s (%u %s, %u exercised)\n", o->op, o->derived ? " (derived)" : "",
                     ta_verdict_kind_str(o->verdict), o->cases, plural(o->cases, "case", "cases"),
                     o->exercised);
    for (size_t k = 0; k < o->nfindings; k++) {
        const ta_finding *f = &o->findings[k];
        ta_writer_printf(w, "  %s: %s%s%s%s: %s [seed 0x%llx]%s\n", vreport_finding_severity(f->severity),
                         ta_verdict_kind_str(f->kind), f->argument[0] ? " (" : "", f->argument,
                         f->argument[0] ? ")" : "", f->message, (unsigned long long)f->seed,
                         vreport_known(bl, o, f) ? " (in baseline)" : "");
    }
}

/* ", "-separated "N kind" for every kind from `first` on that has a count,
 * after a space. */
static void kind_counts(ta_writer *w, const size_t *counts, int first)
{
    const char *sep = " ";
    for (int k = first; k < TA_V_NKINDS; k++)
        if (counts[k]) {
            ta_writer_printf(w, "%s%zu %s", sep, counts[k], ta_verdict_kind_str((ta_verdict_kind)k));
            sep = ", ";
        }
    ta_writer_puts(w, "\n");
}

/* Findings by kind, on a line of their own when there are any (a clean run
 * prints only the summary line). */
static void text_findings(ta_writer *w, const ta_verify_report *r)
{
    size_t findings[TA_V_NKINDS] = {0}, any = 0;
    for (size_t i = 0; i < r->nops; i++)
        for (size_t k = 0; k < r->ops[i].nfindings; k++) {
            ta_verdict_kind kind = r->ops[i].findings[k].kind;
            if (kind == TA_V_NO_KERNEL || kind == TA_V_NOT_EXERCISED || kind == TA_V_NOT_RUNNABLE) continue;
            findings[kind]++;
            any++;
        }
    if (!any) return;
    ta_writer_puts(w, "findings:");
    kind_counts(w, findings, 1);
}

/* How many operators were exercised: of those with a kernel, and when
 * some are not-runnable, of those that can run too (both ratios). */
static void text_exercised(ta_writer *w, size_t exercised, const size_t *verdicts, size_t nops)
{
    size_t with_kernel = nops - verdicts[TA_V_NO_KERNEL], runnable = with_kernel - verdicts[TA_V_NOT_RUNNABLE];
    if (!verdicts[TA_V_NOT_RUNNABLE]) {
        ta_writer_printf(w, " (%zu exercised)", exercised);
        return;
    }
    ta_writer_printf(w, " (%zu exercised: %.1f%% of the %zu with a kernel, %.1f%% of the %zu that can run)",
                     exercised, 100.0 * (double)exercised / (double)with_kernel, with_kernel,
                     runnable ? 100.0 * (double)exercised / (double)runnable : 0.0, runnable);
}

/* Operators and cases, with how many operators no case ran to completion
 * in and how many cases the kernel did not accept (rejected, or crashed)
 * when there are any, then the verdicts. */
static void text_summary(ta_writer *w, const ta_verify_report *r, const size_t *verdicts)
{
    size_t exercised = 0;
    unsigned long long accepted = 0;
    for (size_t i = 0; i < r->nops; i++) {
        exercised += r->ops[i].exercised > 0;
        accepted += r->ops[i].exercised;
    }
    ta_writer_printf(w, "%zu %s", r->nops, plural(r->nops, "operator", "operators"));
    if (exercised < r->nops) text_exercised(w, exercised, verdicts, r->nops);
    ta_writer_printf(w, ", %llu %s", (unsigned long long)r->total_cases,
                     plural(r->total_cases, "case", "cases"));
    if (accepted < r->total_cases)
        ta_writer_printf(w, " (%llu not accepted)", (unsigned long long)r->total_cases - accepted);
    ta_writer_printf(w, " in %.2f s:", r->seconds);
    kind_counts(w, verdicts, 0);
}

void vreport_text(ta_writer *w, const ta_verify_report *r, const ta_verify_write_opts *o)
{
    size_t verdicts[TA_V_NKINDS] = {0};
    for (size_t i = 0; i < r->nops; i++) {
        const ta_op_result *op = &r->ops[i];
        verdicts[op->verdict]++;
        if (o->verbose || (op->verdict != TA_V_OK && op->severity >= TA_SEV_WARNING))
            text_op(w, op, o->baseline);
    }
    text_findings(w, r);
    text_summary(w, r, verdicts);
}
