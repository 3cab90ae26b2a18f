/* diag_report.c - diagnostics as JSON lines and as a SARIF 2.1.0 log (see
 * tensoralias/report.h; the SARIF envelope and rule catalogue are sarif.c's,
 * shared with verify's reports). JSON goes through jansson so every string
 * is escaped correctly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/sarif.h"
#include "base/writer.h"
#include "tensoralias/report.h"

static json_t *json_str_or_null(const char *s) { return s ? json_string(s) : json_null(); }

static json_t *diag_json(const ta_diag *g)
{
    json_t *o = json_pack("{s:s, s:I, s:I, s:s, s:s, s:s, s:o}", "file", g->source, "line",
                          (json_int_t)g->line, "col", (json_int_t)g->col, "severity",
                          ta_severity_str(g->severity), "rule", g->rule, "message", g->message,
                          "hint", json_str_or_null(g->hint));
    if (o && g->op && json_object_set_new(o, "operator", json_string(g->op))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

ta_status ta_diags_write_json(const ta_diags *d, ta_write_fn write, void *ud)
{
    ta_writer w = ta_writer_to(write, ud);
    for (size_t i = 0; i < ta_diags_count(d) && w.status == TA_OK; i++) {
        json_t *o = diag_json(ta_diags_get(d, i));
        ta_writer_json(&w, o, JSON_PRESERVE_ORDER | JSON_COMPACT);
        json_decref(o);
        ta_writer_put(&w, "\n", 1);
    }
    return w.status;
}

/* The result's physical location: the file, and the region when the line
 * is known. NULL on failure. */
static json_t *physical_location(const ta_diag *g)
{
    json_t *art = ta_sarif_artifact(g->source);
    json_t *phys = art ? json_pack("{s:o}", "artifactLocation", art) : NULL;
    if (phys && g->line) {
        json_t *region = json_pack("{s:I, s:I}", "startLine", (json_int_t)g->line, "startColumn",
                                   (json_int_t)(g->col ? g->col : 1));
        if (region && g->length > 1)
            json_object_set_new(region, "endColumn",
                                json_integer((json_int_t)(g->col ? g->col : 1) + g->length));
        json_object_set_new(phys, "region", region);
    }
    return phys;
}

static json_t *sarif_result(const ta_diag *g, size_t rule_index)
{
    char *text = NULL;
    if (g->hint ? asprintf(&text, "%s (hint: %s)", g->message, g->hint) < 0
                : !(text = strdup(g->message)))
        return NULL;
    json_t *r = ta_sarif_result(g->rule, rule_index, ta_sarif_level(g->severity), text);
    free(text);
    json_t *phys = physical_location(g);
    if (!r || !phys) {
        json_decref(r);
        json_decref(phys);
        return NULL;
    }
    json_t *loc = json_pack("{s:o}", "physicalLocation", phys);
    /* the operator, named as verify names it, so results of check and
     * verify on one library line up */
    if (loc && g->op)
        json_object_set_new(loc, "logicalLocations",
                            json_pack("[{s:s, s:s}]", "fullyQualifiedName", g->op, "kind", "function"));
    if (!loc || json_object_set_new(r, "locations", json_pack("[o]", loc))) {
        json_decref(r);
        return NULL;
    }
    return r;
}

/* The log of the diagnostics with the catalogue; NULL on failure. */
static json_t *sarif_log(const ta_diags *d, const ta_rule_info *rules, size_t nrules)
{
    json_t *jr = json_array(), *results = json_array();
    if (!jr || !results) goto fail;
    /* The catalogue first, then any rule id only the diagnostics know. */
    for (size_t i = 0; i < nrules; i++)
        if (ta_sarif_rule_add(jr, rules[i].id, rules[i].summary, ta_sarif_level(rules[i].severity)))
            goto fail;
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *g = ta_diags_get(d, i);
        long idx = ta_sarif_rule_find(jr, g->rule);
        if (idx < 0) {
            idx = (long)json_array_size(jr);
            if (ta_sarif_rule_add(jr, g->rule, g->rule, ta_sarif_level(g->severity))) goto fail;
        }
        if (json_array_append_new(results, sarif_result(g, (size_t)idx))) goto fail;
    }
    return ta_sarif_log(jr, results);
fail:
    json_decref(jr);
    json_decref(results);
    return NULL;
}

ta_status ta_diags_write_sarif(const ta_diags *d, const ta_rule_info *rules, size_t nrules,
                               ta_write_fn write, void *ud)
{
    ta_writer w = ta_writer_to(write, ud);
    ta_sarif_write(&w, sarif_log(d, rules, nrules));
    return w.status;
}
