/* report_verify.c - verification reports: text for people, JSON lines for
 * tools and baselines, SARIF 2.1.0 for code-scanning UIs, JUnit XML for CI
 * test dashboards (one testcase per operator, a failure per error finding).
 * The SARIF envelope and rule catalogue are sarif.c's, shared with check.
 * JSON is built with jansson so every string is escaped correctly. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report_verify.h"
#include "sarif.h"

/* ---- baseline ---------------------------------------------------------- */

typedef struct known {
    char *op, *kind, *arg;
} known;

struct ta_vbaseline {
    known *v;
    size_t n, cap;
};

static void add_known(ta_vbaseline *b, const char *op, const char *kind, const char *arg)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        known *nv = realloc(b->v, cap * sizeof *nv);
        if (!nv) return;
        b->v = nv;
        b->cap = cap;
    }
    b->v[b->n++] = (known){strdup(op), strdup(kind), strdup(arg ? arg : "")};
}

static void take_object(ta_vbaseline *b, json_t *o)
{
    const char *op = json_string_value(json_object_get(o, "op"));
    json_t *fs = json_object_get(o, "findings");
    if (!op || !json_is_array(fs)) return;
    size_t i;
    json_t *f;
    json_array_foreach(fs, i, f) {
        const char *kind = json_string_value(json_object_get(f, "kind"));
        const char *arg = json_string_value(json_object_get(f, "argument"));
        if (kind) add_known(b, op, kind, arg);
    }
}

ta_vbaseline *ta_vbaseline_load(const char *path, ta_diags *diags)
{
    ta_loc at = {.file = path};
    FILE *f = fopen(path, "rb");
    if (!f) {
        ta_diag_error(diags, &at, "baseline", "%s: cannot open", path);
        return NULL;
    }
    ta_vbaseline *b = calloc(1, sizeof *b);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    bool bad = false;
    /* JSON lines (what --format json writes); a single JSON array is accepted too. */
    while (b && (n = getline(&line, &cap, f)) > 0) {
        if (strspn(line, " \t\r\n") == (size_t)n) continue;
        json_error_t e;
        json_t *v = json_loadb(line, (size_t)n, JSON_DISABLE_EOF_CHECK, &e);
        if (!v) {
            bad = true;
            break;
        }
        if (json_is_array(v)) {
            size_t i;
            json_t *o;
            json_array_foreach(v, i, o) take_object(b, o);
        } else {
            take_object(b, v);
        }
        json_decref(v);
    }
    free(line);
    if (bad && b) {
        /* Maybe one pretty-printed document. */
        rewind(f);
        json_error_t e;
        json_t *v = json_loadf(f, 0, &e);
        if (!v) {
            ta_diag_error(diags, &at, "baseline", "%s:%d: not a JSON report: %s", path, e.line, e.text);
            fclose(f);
            ta_vbaseline_destroy(b);
            return NULL;
        }
        if (json_is_array(v)) {
            size_t i;
            json_t *o;
            json_array_foreach(v, i, o) take_object(b, o);
        } else {
            take_object(b, v);
        }
        json_decref(v);
    }
    fclose(f);
    return b;
}

void ta_vbaseline_destroy(ta_vbaseline *b)
{
    if (!b) return;
    for (size_t i = 0; i < b->n; i++) {
        free(b->v[i].op);
        free(b->v[i].kind);
        free(b->v[i].arg);
    }
    free(b->v);
    free(b);
}

bool ta_vbaseline_has(const ta_vbaseline *b, const char *op, const char *kind, const char *arg)
{
    if (!b) return false;
    for (size_t i = 0; i < b->n; i++)
        if (!strcmp(b->v[i].op, op) && !strcmp(b->v[i].kind, kind) && !strcmp(b->v[i].arg, arg))
            return true;
    return false;
}

/* ---- text -------------------------------------------------------------- */

/* The severity words of verify's reports (and of the baselines they
 * become): a finding's "info", "warning" or "error"; an ok result's "none". */
static const char *finding_severity(ta_severity s)
{
    return s == TA_SEV_NOTE ? "info" : ta_severity_str(s);
}

static const char *result_severity(const ta_op_result *o)
{
    return o->verdict == TA_V_OK ? "none" : finding_severity(o->severity);
}

/* The run in figures: operators exercised (a case ran to completion),
 * cases run and rejected by the kernel, findings by kind. */
static void write_text_totals(FILE *out, const ta_verify_report *r)
{
    size_t exercised = 0, findings[TA_V_NKINDS] = {0};
    unsigned long long cases = 0, accepted = 0;
    for (size_t i = 0; i < r->nops; i++) {
        const ta_op_result *o = &r->ops[i];
        exercised += o->exercised > 0;
        cases += o->cases;
        accepted += o->exercised;
        for (size_t k = 0; k < o->nfindings; k++) findings[o->findings[k].kind]++;
    }
    fprintf(out, "%zu operators exercised, %llu cases run, %llu not accepted (rejected by the kernel, or "
                 "crashed); findings:",
            exercised, cases, cases - accepted);
    bool any = false;
    for (int k = 1; k < TA_V_NKINDS; k++)
        if (findings[k] && k != TA_V_NO_KERNEL && k != TA_V_NOT_EXERCISED) {
            fprintf(out, " %zu %s", findings[k], ta_verdict_kind_str((ta_verdict_kind)k));
            any = true;
        }
    fprintf(out, "%s\n", any ? "" : " none");
}

static void write_text(FILE *out, const ta_verify_report *r, const ta_vbaseline *bl)
{
    size_t counts[TA_V_NKINDS] = {0};
    for (size_t i = 0; i < r->nops; i++) {
        const ta_op_result *o = &r->ops[i];
        counts[o->verdict]++;
        fprintf(out, "%s%s: %s (%u cases, %u exercised)\n", o->op, o->derived ? " (derived)" : "",
                ta_verdict_kind_str(o->verdict), o->cases, o->exercised);
        for (size_t k = 0; k < o->nfindings; k++) {
            const ta_finding *f = &o->findings[k];
            bool old = ta_vbaseline_has(bl, o->op, ta_verdict_kind_str(f->kind), f->argument);
            fprintf(out, "  %s: %s%s%s%s: %s [seed 0x%llx]%s\n", finding_severity(f->severity),
                    ta_verdict_kind_str(f->kind), f->argument[0] ? " (" : "", f->argument,
                    f->argument[0] ? ")" : "", f->message, (unsigned long long)f->seed,
                    old ? " (in baseline)" : "");
        }
    }
    /* The verdict counts stay the last line, which scripts read. */
    write_text_totals(out, r);
    fprintf(out, "%zu operators, %llu cases in %.2f s:", r->nops,
            (unsigned long long)r->total_cases, r->seconds);
    for (int k = 0; k < TA_V_NKINDS; k++)
        if (counts[k]) fprintf(out, " %zu %s", counts[k], ta_verdict_kind_str((ta_verdict_kind)k));
    fprintf(out, "\n");
}

/* ---- JSON lines -------------------------------------------------------- */

static json_t *op_json(const ta_op_result *o)
{
    json_t *fs = json_array();
    for (size_t k = 0; k < o->nfindings; k++) {
        const ta_finding *f = &o->findings[k];
        char seed[32];
        snprintf(seed, sizeof seed, "0x%llx", (unsigned long long)f->seed);
        json_array_append_new(fs, json_pack("{s:s, s:s, s:s, s:s, s:s}", "kind",
                                            ta_verdict_kind_str(f->kind), "severity",
                                            finding_severity(f->severity), "argument", f->argument,
                                            "seed", seed, "message", f->message));
    }
    json_t *j = json_pack("{s:s, s:s, s:s, s:i, s:i, s:o}", "op", o->op, "verdict",
                          ta_verdict_kind_str(o->verdict), "severity", result_severity(o),
                          "cases", (json_int_t)o->cases, "exercised", (json_int_t)o->exercised,
                          "findings", fs);
    if (j && o->derived) json_object_set_new(j, "derived", json_true());
    return j;
}

static void write_json(FILE *out, const ta_verify_report *r)
{
    for (size_t i = 0; i < r->nops; i++) {
        json_t *o = op_json(&r->ops[i]);
        json_dumpf(o, out, JSON_COMPACT | JSON_PRESERVE_ORDER);
        fputc('\n', out);
        json_decref(o);
    }
}

/* ---- SARIF ------------------------------------------------------------- */

static void write_sarif(FILE *out, const ta_verify_report *r, const ta_vbaseline *bl,
                        ta_vlocate_fn locate, void *locate_ud)
{
    /* The catalogue: every verdict kind but ok, in enum order. */
    json_t *rules = json_array(), *results = json_array();
    for (int k = 1; rules && k < TA_V_NKINDS; k++) {
        const char *kind = ta_verdict_kind_str((ta_verdict_kind)k);
        ta_sarif_rule_add(rules, kind, kind, ta_sarif_level(ta_verdict_kind_severity((ta_verdict_kind)k)));
    }
    for (size_t i = 0; results && i < r->nops; i++) {
        const ta_op_result *o = &r->ops[i];
        for (size_t k = 0; k < o->nfindings; k++) {
            const ta_finding *f = &o->findings[k];
            char text[1400], seed[32];
            snprintf(text, sizeof text, "%s: %s", o->op, f->message);
            snprintf(seed, sizeof seed, "0x%llx", (unsigned long long)f->seed);
            const char *kind = ta_verdict_kind_str(f->kind);
            long idx = ta_sarif_rule_find(rules, kind);
            json_t *res = ta_sarif_result(kind, idx < 0 ? 0 : (size_t)idx, ta_sarif_level(f->severity), text);
            if (!res) continue;
            json_t *loc = json_pack("{s:[{s:s, s:s}]}", "logicalLocations", "fullyQualifiedName",
                                    o->op, "kind", "function");
            const char *file;
            unsigned line;
            if (loc && locate && locate(locate_ud, o->op, &file, &line)) {
                /* The schema's line in the yaml, next to the logical location. */
                json_t *art = ta_sarif_artifact(file);
                if (art)
                    json_object_set_new(loc, "physicalLocation",
                                        json_pack("{s:o, s:{s:i}}", "artifactLocation", art,
                                                  "region", "startLine", (json_int_t)line));
            }
            json_object_set_new(res, "locations", json_pack("[o]", loc));
            json_object_set_new(res, "properties", json_pack("{s:s, s:s, s:s}", "argument", f->argument,
                                                             "seed", seed, "operator", o->op));
            if (ta_vbaseline_has(bl, o->op, kind, f->argument))
                json_object_set_new(res, "baselineState", json_string("unchanged"));
            json_array_append_new(results, res);
        }
    }
    json_t *doc = ta_sarif_log(rules, results);
    ta_sarif_write(doc, out);
    json_decref(doc);
}

/* ---- JUnit ------------------------------------------------------------- */

static void xml_escape(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default:
            if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t') fputc(' ', out);
            else fputc(*s, out);
        }
    }
}

static void write_junit(FILE *out, const ta_verify_report *r)
{
    size_t failures = 0, skipped = 0;
    for (size_t i = 0; i < r->nops; i++) {
        if (r->ops[i].severity == TA_SEV_ERROR) failures++;
        else if (r->ops[i].verdict == TA_V_NO_KERNEL || r->ops[i].verdict == TA_V_NOT_EXERCISED) skipped++;
    }
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(out, "<testsuites name=\"tensoralias verify\" tests=\"%zu\" failures=\"%zu\" time=\"%.3f\">\n",
            r->nops, failures, r->seconds);
    fprintf(out, "  <testsuite name=\"tensoralias verify\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\" time=\"%.3f\">\n",
            r->nops, failures, skipped, r->seconds);
    for (size_t i = 0; i < r->nops; i++) {
        const ta_op_result *o = &r->ops[i];
        char cls[256];
        snprintf(cls, sizeof cls, "%s", o->op);
        char *colon = strstr(cls, "::");
        if (colon) *colon = '\0';
        fprintf(out, "    <testcase classname=\"");
        xml_escape(out, cls);
        fprintf(out, "\" name=\"");
        xml_escape(out, o->op);
        fprintf(out, "\">\n");
        if (o->verdict == TA_V_NO_KERNEL || (o->verdict == TA_V_NOT_EXERCISED && o->severity != TA_SEV_ERROR)) {
            fprintf(out, "      <skipped message=\"");
            xml_escape(out, o->nfindings ? o->findings[0].message : ta_verdict_kind_str(o->verdict));
            fprintf(out, "\"/>\n");
        }
        for (size_t k = 0; k < o->nfindings; k++) {
            const ta_finding *f = &o->findings[k];
            if (f->severity != TA_SEV_ERROR) continue;
            fprintf(out, "      <failure type=\"%s\" message=\"", ta_verdict_kind_str(f->kind));
            xml_escape(out, f->message);
            fprintf(out, "\">");
            fprintf(out, "%s", ta_verdict_kind_str(f->kind));
            if (f->argument[0]) {
                fprintf(out, " (");
                xml_escape(out, f->argument);
                fprintf(out, ")");
            }
            fprintf(out, " seed 0x%llx: ", (unsigned long long)f->seed);
            xml_escape(out, f->message);
            fprintf(out, "</failure>\n");
        }
        fprintf(out, "    </testcase>\n");
    }
    fprintf(out, "  </testsuite>\n</testsuites>\n");
}

void ta_vreport_write(FILE *out, ta_vformat fmt, const ta_verify_report *r,
                      const ta_vbaseline *baseline, ta_vlocate_fn locate, void *locate_ud)
{
    switch (fmt) {
    case TA_VFMT_TEXT: write_text(out, r, baseline); break;
    case TA_VFMT_JSON: write_json(out, r); break;
    case TA_VFMT_SARIF: write_sarif(out, r, baseline, locate, locate_ud); break;
    case TA_VFMT_JUNIT: write_junit(out, r); break;
    }
}
