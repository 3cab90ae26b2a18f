/* report_sarif.c - a verification report as a SARIF 2.1.0 log: a rule for
 * every verdict kind, a result for every finding, at the operator (a
 * logical location) and, where the yaml it came from is known, at its
 * line. The envelope and catalogue are base/sarif.c's, shared with the
 * diagnostics' log. */
#include <stdio.h>

#include <jansson.h>

#include "base/sarif.h"
#include "exec/report/report_internal.h"

/* The operator, and the schema's line in the yaml next to it when known. */
static json_t *locations(const ta_op_result *o, const ta_verify_write_opts *opt)
{
    json_t *loc = json_pack("{s:[{s:s, s:s}]}", "logicalLocations", "fullyQualifiedName", o->op,
                            "kind", "function");
    const char *file;
    unsigned line;
    if (loc && opt->locate && opt->locate(opt->locate_ud, o->op, &file, &line)) {
        json_t *art = ta_sarif_artifact(file);
        if (art)
            json_object_set_new(loc, "physicalLocation",
                                json_pack("{s:o, s:{s:i}}", "artifactLocation", art, "region",
                                          "startLine", (json_int_t)line));
    }
    return json_pack("[o]", loc);
}

static json_t *finding_result(const json_t *rules, const ta_op_result *o, const ta_finding *f,
                              const ta_verify_write_opts *opt)
{
    char text[1400], seed[32];
    snprintf(text, sizeof text, "%s: %s", o->op, f->message);
    snprintf(seed, sizeof seed, "0x%llx", (unsigned long long)f->seed);
    const char *kind = ta_verdict_kind_str(f->kind);
    long idx = ta_sarif_rule_find(rules, kind);
    json_t *res = ta_sarif_result(kind, idx < 0 ? 0 : (size_t)idx, ta_sarif_level(f->severity), text);
    if (!res) return NULL;
    json_object_set_new(res, "locations", locations(o, opt));
    json_object_set_new(res, "properties",
                        json_pack("{s:s, s:s, s:s}", "argument", f->argument, "seed", seed, "operator", o->op));
    if (vreport_known(opt->baseline, o, f)) json_object_set_new(res, "baselineState", json_string("unchanged"));
    return res;
}

void vreport_sarif(ta_writer *w, const ta_verify_report *r, const ta_verify_write_opts *opt)
{
    /* The catalogue: every verdict kind but ok, in enum order. */
    json_t *rules = json_array(), *results = json_array();
    for (int k = 1; rules && k < TA_V_NKINDS; k++) {
        const char *kind = ta_verdict_kind_str((ta_verdict_kind)k);
        ta_sarif_rule_add(rules, kind, kind, ta_sarif_level(ta_verdict_kind_severity((ta_verdict_kind)k)));
    }
    for (size_t i = 0; results && i < r->nops; i++)
        for (size_t k = 0; k < r->ops[i].nfindings; k++) {
            json_t *res = finding_result(rules, &r->ops[i], &r->ops[i].findings[k], opt);
            if (res) json_array_append_new(results, res);
        }
    ta_sarif_write(w, ta_sarif_log(rules, results));
}
