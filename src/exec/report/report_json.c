/* report_json.c - a verification report as JSON lines: one object an
 * operator, what baselines are read from (baseline.c). Built with jansson
 * so every string is escaped correctly. */
#include <stdio.h>

#include <jansson.h>

#include "exec/report/report_internal.h"

static json_t *finding_json(const ta_op_result *o, const ta_finding *f, const ta_verify_baseline *bl)
{
    char seed[32];
    snprintf(seed, sizeof seed, "0x%llx", (unsigned long long)f->seed);
    json_t *jf = json_pack("{s:s, s:s, s:s, s:s, s:s}", "kind", ta_verdict_kind_str(f->kind), "severity",
                           vreport_finding_severity(f->severity), "argument", f->argument, "seed",
                           seed, "message", f->message);
    if (jf && vreport_known(bl, o, f)) json_object_set_new(jf, "baseline", json_true());
    return jf;
}

static json_t *op_json(const ta_op_result *o, const ta_verify_baseline *bl)
{
    json_t *fs = json_array();
    for (size_t k = 0; fs && k < o->nfindings; k++) json_array_append_new(fs, finding_json(o, &o->findings[k], bl));
    json_t *j = json_pack("{s:s, s:s, s:s, s:i, s:i, s:o}", "op", o->op, "verdict",
                          ta_verdict_kind_str(o->verdict), "severity", vreport_result_severity(o),
                          "cases", (json_int_t)o->cases, "exercised", (json_int_t)o->exercised,
                          "findings", fs);
    if (j && o->derived) json_object_set_new(j, "derived", json_true());
    if (j && o->discovery_calls)
        json_object_set_new(j, "discovery",
                            json_pack("{s:i, s:i, s:i}", "calls", (json_int_t)o->discovery_calls, "found",
                                      (json_int_t)o->discovered, "screened", (json_int_t)o->screened));
    return j;
}

void vreport_json(ta_writer *w, const ta_verify_report *r, const ta_verify_baseline *bl)
{
    for (size_t i = 0; i < r->nops && w->status == TA_OK; i++) {
        json_t *o = op_json(&r->ops[i], bl);
        ta_writer_json(w, o, JSON_COMPACT | JSON_PRESERVE_ORDER);
        json_decref(o);
        ta_writer_put(w, "\n", 1);
    }
}
