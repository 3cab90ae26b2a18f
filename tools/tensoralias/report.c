/* report.c - diagnostics as text, JSON lines and SARIF 2.1.0 (see report.h;
 * the SARIF envelope and rule catalogue are sarif.c's, shared with verify).
 * JSON goes through jansson so every string is escaped correctly. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "report.h"
#include "sarif.h"

int ta_report_format_parse(const char *s, ta_report_format *out)
{
    if (!strcmp(s, "text")) *out = TA_REPORT_TEXT;
    else if (!strcmp(s, "json")) *out = TA_REPORT_JSON;
    else if (!strcmp(s, "sarif")) *out = TA_REPORT_SARIF;
    else return -1;
    return 0;
}

void ta_report_text(const ta_diags *d, FILE *out)
{
    for (size_t i = 0; i < ta_diags_count(d); i++) ta_cli_render(ta_diags_get(d, i), out);
}

void ta_report_summary(const ta_diags *d, bool notes, const char *what, FILE *out)
{
    size_t e = ta_diags_count_severity(d, TA_SEV_ERROR), w = ta_diags_count_severity(d, TA_SEV_WARNING);
    size_t n = ta_diags_count_severity(d, TA_SEV_NOTE);
    fprintf(out, "%zu error%s, %zu warning%s", e, e == 1 ? "" : "s", w, w == 1 ? "" : "s");
    if (notes) fprintf(out, ", %zu note%s", n, n == 1 ? "" : "s");
    fprintf(out, " in %s\n", what);
}

/* The order ta_report_shown gives: file, line, column, then as found. */
typedef struct shown_key {
    size_t file, index;
    uint32_t line, col;
} shown_key;

static int shown_cmp(const void *a, const void *b)
{
    const shown_key *x = a, *y = b;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    if (x->col != y->col) return x->col < y->col ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

ta_status ta_report_shown(const ta_diags *src, bool notes, ta_diags *out)
{
    size_t n = ta_diags_count(src), k = 0;
    shown_key *keys = malloc((n ? n : 1) * sizeof *keys);
    if (!keys) return TA_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        const ta_diag *g = ta_diags_get(src, i);
        if (g->severity == TA_SEV_NOTE && !notes) continue;
        size_t file = i; /* the first diagnostic of the same file */
        if (k && !strcmp(ta_diags_get(src, keys[k - 1].index)->source, g->source))
            file = keys[k - 1].file; /* a file's diagnostics mostly come together */
        else
            for (size_t j = 0; j < k; j++)
                if (keys[j].file == keys[j].index &&
                    !strcmp(ta_diags_get(src, keys[j].index)->source, g->source)) {
                    file = keys[j].file;
                    break;
                }
        keys[k++] = (shown_key){file, i, g->line, g->col};
    }
    qsort(keys, k, sizeof *keys, shown_cmp);
    ta_status st = TA_OK;
    for (size_t i = 0; i < k && st == TA_OK; i++) st = ta_diags_append(out, ta_diags_get(src, keys[i].index));
    free(keys);
    return st;
}

static json_t *json_str_or_null(const char *s) { return s ? json_string(s) : json_null(); }

int ta_report_json(const ta_diags *d, FILE *out)
{
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *g = ta_diags_get(d, i);
        json_t *o = json_pack("{s:s, s:I, s:I, s:s, s:s, s:s, s:o}",
                              "file", g->source, "line", (json_int_t)g->line,
                              "col", (json_int_t)g->col, "severity",
                              ta_severity_str(g->severity), "rule", g->rule,
                              "message", g->message, "hint", json_str_or_null(g->hint));
        if (o && g->op && json_object_set_new(o, "operator", json_string(g->op))) {
            json_decref(o);
            return -1;
        }
        if (!o) return -1;
        int r = json_dumpf(o, out, JSON_PRESERVE_ORDER | JSON_COMPACT);
        json_decref(o);
        if (r) return -1;
        fputc('\n', out);
    }
    return 0;
}

static json_t *sarif_result(const ta_diag *g, size_t rule_index)
{
    char *text = NULL;
    if (g->hint ? asprintf(&text, "%s (hint: %s)", g->message, g->hint) < 0
                : !(text = strdup(g->message)))
        return NULL;
    json_t *r = ta_sarif_result(g->rule, rule_index, ta_sarif_level(g->severity), text);
    free(text);
    json_t *art = ta_sarif_artifact(g->source);
    json_t *phys = art ? json_pack("{s:o}", "artifactLocation", art) : NULL;
    if (phys && g->line) {
        json_t *region = json_pack("{s:I, s:I}", "startLine", (json_int_t)g->line,
                                   "startColumn", (json_int_t)(g->col ? g->col : 1));
        if (region && g->length > 1)
            json_object_set_new(region, "endColumn",
                                json_integer((json_int_t)(g->col ? g->col : 1) + g->length));
        json_object_set_new(phys, "region", region);
    }
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

void *ta_report_sarif_build(const ta_diags *d, const ta_rule_info *rules, size_t nrules)
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

int ta_report_sarif(const ta_diags *d, const ta_rule_info *rules, size_t nrules, FILE *out)
{
    json_t *log = ta_report_sarif_build(d, rules, nrules);
    int r = ta_sarif_write(log, out);
    json_decref(log);
    return r;
}
