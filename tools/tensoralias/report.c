/* report.c - diagnostics as text, JSON lines and SARIF 2.1.0 (see report.h).
 * JSON goes through jansson so every string is escaped correctly. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define TA_URI "https://github.com/tensoralias/tensoralias"

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
    for (size_t i = 0; i < ta_diags_count(d); i++) ta_diag_render(ta_diags_get(d, i), out);
}

void ta_report_summary(const ta_diags *d, const char *what, FILE *out)
{
    fprintf(out, "%zu errors, %zu warnings in %s\n",
            ta_diags_count_severity(d, TA_SEV_ERROR),
            ta_diags_count_severity(d, TA_SEV_WARNING), what);
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
        if (!o) return -1;
        int r = json_dumpf(o, out, JSON_PRESERVE_ORDER | JSON_COMPACT);
        json_decref(o);
        if (r) return -1;
        fputc('\n', out);
    }
    return 0;
}

static const char *sarif_level(ta_severity s)
{
    return s == TA_SEV_ERROR ? "error" : s == TA_SEV_WARNING ? "warning" : "note";
}

/* A file name as a URI reference: unreserved characters and '/' stay, the
 * rest is percent-encoded; absolute paths become file:// URIs. */
static char *to_uri(const char *path, bool *relative)
{
    while (path[0] == '.' && path[1] == '/') path += 2;
    *relative = path[0] != '/';
    size_t n = strlen(path);
    char *u = malloc(3 * n + 8), *p = u;
    if (!u) return NULL;
    if (!*relative) p += sprintf(p, "file://");
    for (const unsigned char *s = (const unsigned char *)path; *s; s++) {
        if (isalnum(*s) || strchr("-._~/", *s)) *p++ = (char)*s;
        else p += sprintf(p, "%%%02X", *s);
    }
    *p = '\0';
    return u;
}

static json_t *sarif_rule(const char *id, const char *summary, ta_severity sev)
{
    return json_pack("{s:s, s:{s:s}, s:{s:s}}", "id", id, "shortDescription", "text",
                     summary, "defaultConfiguration", "level", sarif_level(sev));
}

static json_t *sarif_result(const ta_diag *g, size_t rule_index)
{
    char *text = NULL;
    if (g->hint ? asprintf(&text, "%s (hint: %s)", g->message, g->hint) < 0
                : !(text = strdup(g->message)))
        return NULL;
    bool rel;
    char *uri = to_uri(g->source, &rel);
    json_t *art = uri ? json_pack("{s:s}", "uri", uri) : NULL;
    free(uri);
    if (art && rel) json_object_set_new(art, "uriBaseId", json_string("%SRCROOT%"));
    json_t *phys = art ? json_pack("{s:o}", "artifactLocation", art) : NULL;
    if (phys && g->line) {
        json_t *region = json_pack("{s:I, s:I}", "startLine", (json_int_t)g->line,
                                   "startColumn", (json_int_t)(g->col ? g->col : 1));
        if (region && g->length > 1)
            json_object_set_new(region, "endColumn",
                                json_integer((json_int_t)(g->col ? g->col : 1) + g->length));
        json_object_set_new(phys, "region", region);
    }
    json_t *r = phys ? json_pack("{s:s, s:I, s:s, s:{s:s}, s:[{s:o}]}", "ruleId", g->rule,
                                 "ruleIndex", (json_int_t)rule_index, "level",
                                 sarif_level(g->severity), "message", "text", text,
                                 "locations", "physicalLocation", phys)
                     : NULL;
    free(text);
    return r;
}

void *ta_report_sarif_build(const ta_diags *d, const ta_rule_info *rules, size_t nrules)
{
    json_t *jr = json_array(), *results = json_array();
    if (!jr || !results) goto fail;
    /* The catalogue first, then any rule id only the diagnostics know. */
    for (size_t i = 0; i < nrules; i++)
        if (json_array_append_new(jr, sarif_rule(rules[i].id, rules[i].summary, rules[i].severity)))
            goto fail;
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *g = ta_diags_get(d, i);
        size_t idx = json_array_size(jr);
        for (size_t k = 0; k < json_array_size(jr); k++)
            if (!strcmp(json_string_value(json_object_get(json_array_get(jr, k), "id")), g->rule)) {
                idx = k;
                break;
            }
        if (idx == json_array_size(jr) &&
            json_array_append_new(jr, sarif_rule(g->rule, g->rule, g->severity)))
            goto fail;
        if (json_array_append_new(results, sarif_result(g, idx))) goto fail;
    }
    json_t *log = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:s, s:o}}, s:o}]}",
                            "$schema", SARIF_SCHEMA, "version", "2.1.0", "runs", "tool",
                            "driver", "name", "tensoralias", "version", TA_VERSION,
                            "informationUri", TA_URI, "rules", jr, "results", results);
    return log;
fail:
    json_decref(jr);
    json_decref(results);
    return NULL;
}

int ta_report_sarif(const ta_diags *d, const ta_rule_info *rules, size_t nrules, FILE *out)
{
    json_t *log = ta_report_sarif_build(d, rules, nrules);
    if (!log) return -1;
    int r = json_dumpf(log, out, JSON_PRESERVE_ORDER | JSON_INDENT(2));
    json_decref(log);
    if (r) return -1;
    fputc('\n', out);
    return 0;
}
