/* report_verify.c - verification reports: text for people, JSON lines for
 * tools and baselines, SARIF 2.1.0 for code-scanning UIs, JUnit XML for CI
 * test dashboards (one testcase per operator, a failure per error finding).
 * The SARIF envelope and rule catalogue are sarif.c's, shared with check.
 * JSON is built with jansson so every string is escaped correctly. */
#include <errno.h>
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

static bool add_known(ta_vbaseline *b, const char *op, const char *kind, const char *arg)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        known *nv = realloc(b->v, cap * sizeof *nv);
        if (!nv) return false;
        b->v = nv;
        b->cap = cap;
    }
    known k = {strdup(op), strdup(kind), strdup(arg ? arg : "")};
    if (!k.op || !k.kind || !k.arg) {
        free(k.op);
        free(k.kind);
        free(k.arg);
        return false;
    }
    b->v[b->n++] = k;
    return true;
}

static void clear_known(ta_vbaseline *b)
{
    for (size_t i = 0; i < b->n; i++) {
        free(b->v[i].op);
        free(b->v[i].kind);
        free(b->v[i].arg);
    }
    b->n = 0;
}

/* What a JSON value is, for messages. */
static const char *json_kind(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: case JSON_REAL: return "a number";
    case JSON_TRUE: case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

/* One operator's result of a JSON report; NULL, or what is wrong with it. */
static const char *take_object(ta_vbaseline *b, json_t *o, char *why, size_t cap)
{
    if (!json_is_object(o)) {
        snprintf(why, cap, "%s, not an operator's result", json_kind(o));
        return why;
    }
    if (json_object_get(o, "runs") && json_object_get(o, "version"))
        return "a SARIF log; a baseline is a report written by --format json";
    const char *op = json_string_value(json_object_get(o, "op"));
    json_t *fs = json_object_get(o, "findings");
    if (!op || !json_is_array(fs)) return "an object without \"op\" and \"findings\", not an operator's result";
    size_t i;
    json_t *f;
    json_array_foreach(fs, i, f) {
        const char *kind = json_string_value(json_object_get(f, "kind"));
        const char *arg = json_string_value(json_object_get(f, "argument"));
        ta_verdict_kind k;
        if (!kind || !ta_verdict_kind_parse(kind, &k)) {
            snprintf(why, cap, "finding %zu of %.200s has no known \"kind\"", i + 1, op);
            return why;
        }
        if (!add_known(b, op, kind, arg)) return "out of memory";
    }
    return NULL;
}

/* A JSON document: one result, or an array of them. */
static const char *take_value(ta_vbaseline *b, json_t *v, char *why, size_t cap)
{
    if (!json_is_array(v)) return take_object(b, v, why, cap);
    if (!json_array_size(v)) return "an empty array";
    size_t i;
    json_t *o;
    json_array_foreach(v, i, o) {
        char inner[256];
        const char *e = take_object(b, o, inner, sizeof inner);
        if (e) {
            snprintf(why, cap, "element %zu is %s", i + 1, e);
            return why;
        }
    }
    return NULL;
}

/* JSON lines (what --format json writes); NULL, or what is wrong, with
 * *line set to where. *syntax tells a line that is no JSON. */
static const char *read_lines(ta_vbaseline *b, FILE *f, char *why, size_t cap, size_t *line,
                              bool *syntax)
{
    char *text = NULL;
    size_t tcap = 0;
    ssize_t n;
    const char *err = NULL;
    *line = 0;
    while (!err && (n = getline(&text, &tcap, f)) > 0) {
        ++*line;
        if (strspn(text, " \t\r\n") == (size_t)n) continue;
        json_error_t e;
        json_t *v = json_loadb(text, (size_t)n, JSON_DISABLE_EOF_CHECK, &e);
        if (!v) {
            snprintf(why, cap, "%s", e.text);
            *syntax = true;
            err = why;
            break;
        }
        err = take_value(b, v, why, cap);
        json_decref(v);
    }
    free(text);
    if (!err && b->n == 0 && *line == 0) err = "the file is empty";
    return err;
}

ta_vbaseline *ta_vbaseline_load(const char *path, ta_diags *diags)
{
    ta_loc at = {.file = path};
    FILE *f = fopen(path, "rb");
    if (!f) {
        ta_diag_error(diags, &at, "baseline", "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    ta_vbaseline *b = calloc(1, sizeof *b);
    char why[512];
    size_t line = 0;
    bool syntax = false;
    const char *err = b ? read_lines(b, f, why, sizeof why, &line, &syntax) : "out of memory";
    if (err && syntax) {
        /* Maybe one pretty-printed document. */
        rewind(f);
        json_error_t e;
        json_t *v = json_loadf(f, 0, &e);
        clear_known(b);
        if (v) {
            err = take_value(b, v, why, sizeof why);
            json_decref(v);
        } else {
            snprintf(why, sizeof why, "%s", e.text);
            line = (size_t)e.line;
        }
    }
    fclose(f);
    if (err) {
        ta_diag_error(diags, &at, "baseline", "%s:%zu: not a verify JSON report: %s", path, line, err);
        ta_vbaseline_destroy(b);
        return NULL;
    }
    return b;
}

void ta_vbaseline_destroy(ta_vbaseline *b)
{
    if (!b) return;
    clear_known(b);
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

/* "1 operator", "2 operators". */
static const char *plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

static void write_text_op(FILE *out, const ta_op_result *o, const ta_vbaseline *bl)
{
    fprintf(out, "%s%s: %s (%u %s, %u exercised)\n", o->op, o->derived ? " (derived)" : "",
            ta_verdict_kind_str(o->verdict), o->cases, plural(o->cases, "case", "cases"),
            o->exercised);
    for (size_t k = 0; k < o->nfindings; k++) {
        const ta_finding *f = &o->findings[k];
        bool old = ta_vbaseline_has(bl, o->op, ta_verdict_kind_str(f->kind), f->argument);
        fprintf(out, "  %s: %s%s%s%s: %s [seed 0x%llx]%s\n", finding_severity(f->severity),
                ta_verdict_kind_str(f->kind), f->argument[0] ? " (" : "", f->argument,
                f->argument[0] ? ")" : "", f->message, (unsigned long long)f->seed,
                old ? " (in baseline)" : "");
    }
}

/* Findings by kind, on a line of their own when there are any (a clean run
 * prints only the summary line). */
static void write_text_findings(FILE *out, const ta_verify_report *r)
{
    size_t findings[TA_V_NKINDS] = {0}, any = 0;
    for (size_t i = 0; i < r->nops; i++)
        for (size_t k = 0; k < r->ops[i].nfindings; k++) {
            ta_verdict_kind kind = r->ops[i].findings[k].kind;
            if (kind == TA_V_NO_KERNEL || kind == TA_V_NOT_EXERCISED) continue;
            findings[kind]++;
            any++;
        }
    if (!any) return;
    fprintf(out, "findings:");
    const char *sep = " ";
    for (int k = 1; k < TA_V_NKINDS; k++)
        if (findings[k]) {
            fprintf(out, "%s%zu %s", sep, findings[k], ta_verdict_kind_str((ta_verdict_kind)k));
            sep = ", ";
        }
    fprintf(out, "\n");
}

static void write_text(FILE *out, const ta_verify_report *r, const ta_vreport_opts *opt)
{
    size_t counts[TA_V_NKINDS] = {0};
    for (size_t i = 0; i < r->nops; i++) {
        const ta_op_result *o = &r->ops[i];
        counts[o->verdict]++;
        if (opt->verbose || (o->verdict != TA_V_OK && o->severity >= TA_SEV_WARNING))
            write_text_op(out, o, opt->baseline);
    }
    /* One summary line, the last, which scripts read: operators and cases,
     * with how many operators no case ran to completion in and how many
     * cases the kernel did not accept (rejected, or crashed) when there are
     * any, then the verdicts. */
    size_t exercised = 0;
    unsigned long long accepted = 0;
    for (size_t i = 0; i < r->nops; i++) {
        exercised += r->ops[i].exercised > 0;
        accepted += r->ops[i].exercised;
    }
    write_text_findings(out, r);
    fprintf(out, "%zu %s", r->nops, plural(r->nops, "operator", "operators"));
    if (exercised < r->nops) fprintf(out, " (%zu exercised)", exercised);
    fprintf(out, ", %llu %s", (unsigned long long)r->total_cases,
            plural(r->total_cases, "case", "cases"));
    if (accepted < r->total_cases)
        fprintf(out, " (%llu not accepted)", (unsigned long long)r->total_cases - accepted);
    fprintf(out, " in %.2f s:", r->seconds);
    const char *sep = " ";
    for (int k = 0; k < TA_V_NKINDS; k++)
        if (counts[k]) {
            fprintf(out, "%s%zu %s", sep, counts[k], ta_verdict_kind_str((ta_verdict_kind)k));
            sep = ", ";
        }
    fprintf(out, "\n");
}

/* ---- JSON lines -------------------------------------------------------- */

static json_t *op_json(const ta_op_result *o, const ta_vbaseline *bl)
{
    json_t *fs = json_array();
    for (size_t k = 0; k < o->nfindings; k++) {
        const ta_finding *f = &o->findings[k];
        char seed[32];
        snprintf(seed, sizeof seed, "0x%llx", (unsigned long long)f->seed);
        const char *kind = ta_verdict_kind_str(f->kind);
        json_t *jf = json_pack("{s:s, s:s, s:s, s:s, s:s}", "kind", kind, "severity",
                               finding_severity(f->severity), "argument", f->argument, "seed",
                               seed, "message", f->message);
        if (jf && ta_vbaseline_has(bl, o->op, kind, f->argument))
            json_object_set_new(jf, "baseline", json_true());
        json_array_append_new(fs, jf);
    }
    json_t *j = json_pack("{s:s, s:s, s:s, s:i, s:i, s:o}", "op", o->op, "verdict",
                          ta_verdict_kind_str(o->verdict), "severity", result_severity(o),
                          "cases", (json_int_t)o->cases, "exercised", (json_int_t)o->exercised,
                          "findings", fs);
    if (j && o->derived) json_object_set_new(j, "derived", json_true());
    if (j && o->discovery_calls)
        json_object_set_new(j, "discovery",
                            json_pack("{s:i, s:i, s:i}", "calls", (json_int_t)o->discovery_calls, "found",
                                      (json_int_t)o->discovered, "screened", (json_int_t)o->screened));
    return j;
}

static int write_json(FILE *out, const ta_verify_report *r, const ta_vbaseline *bl)
{
    for (size_t i = 0; i < r->nops; i++) {
        json_t *o = op_json(&r->ops[i], bl);
        int bad = !o || json_dumpf(o, out, JSON_COMPACT | JSON_PRESERVE_ORDER);
        json_decref(o);
        if (bad) return -1;
        fputc('\n', out);
    }
    return 0;
}

/* ---- SARIF ------------------------------------------------------------- */

static int write_sarif(FILE *out, const ta_verify_report *r, const ta_vbaseline *bl,
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
    int rc = ta_sarif_write(doc, out);
    json_decref(doc);
    return rc;
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

/* An error finding the baseline does not know: a <failure>. */
static bool junit_fails(const ta_op_result *o, const ta_finding *f, const ta_vbaseline *bl)
{
    return f->severity == TA_SEV_ERROR &&
           !ta_vbaseline_has(bl, o->op, ta_verdict_kind_str(f->kind), f->argument);
}

static void write_junit_failure(FILE *out, const ta_finding *f)
{
    fprintf(out, "      <failure type=\"%s\" message=\"", ta_verdict_kind_str(f->kind));
    xml_escape(out, f->message);
    fprintf(out, "\">%s", ta_verdict_kind_str(f->kind));
    if (f->argument[0]) {
        fprintf(out, " (");
        xml_escape(out, f->argument);
        fprintf(out, ")");
    }
    fprintf(out, " seed 0x%llx: ", (unsigned long long)f->seed);
    xml_escape(out, f->message);
    fprintf(out, "</failure>\n");
}

static void write_junit_case(FILE *out, const ta_op_result *o, const ta_vbaseline *bl)
{
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
    for (size_t k = 0; k < o->nfindings; k++)
        if (junit_fails(o, &o->findings[k], bl)) write_junit_failure(out, &o->findings[k]);
    /* Known findings stay visible without failing the test. */
    for (size_t k = 0; k < o->nfindings; k++)
        if (o->findings[k].severity == TA_SEV_ERROR && !junit_fails(o, &o->findings[k], bl)) {
            fprintf(out, "      <system-out>in baseline: %s", ta_verdict_kind_str(o->findings[k].kind));
            fprintf(out, " (");
            xml_escape(out, o->findings[k].argument);
            fprintf(out, ")</system-out>\n");
            break;
        }
    fprintf(out, "    </testcase>\n");
}

/* Counts agree with the exit status: a test fails when it has an error
 * finding outside the baseline. */
static void write_junit(FILE *out, const ta_verify_report *r, const ta_vbaseline *bl)
{
    size_t failures = 0, skipped = 0;
    for (size_t i = 0; i < r->nops; i++) {
        const ta_op_result *o = &r->ops[i];
        bool fails = false;
        for (size_t k = 0; k < o->nfindings && !fails; k++) fails = junit_fails(o, &o->findings[k], bl);
        if (fails) failures++;
        else if (o->verdict == TA_V_NO_KERNEL || o->verdict == TA_V_NOT_EXERCISED) skipped++;
    }
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(out, "<testsuites name=\"tensoralias verify\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
                 "time=\"%.3f\">\n", r->nops, failures, r->seconds);
    fprintf(out, "  <testsuite name=\"tensoralias verify\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
                 "skipped=\"%zu\" time=\"%.3f\">\n", r->nops, failures, skipped, r->seconds);
    for (size_t i = 0; i < r->nops; i++) write_junit_case(out, &r->ops[i], bl);
    fprintf(out, "  </testsuite>\n</testsuites>\n");
}

int ta_vreport_write(FILE *out, const ta_vreport_opts *o, const ta_verify_report *r)
{
    int rc = 0;
    switch (o->fmt) {
    case TA_VFMT_TEXT: write_text(out, r, o); break;
    case TA_VFMT_JSON: rc = write_json(out, r, o->baseline); break;
    case TA_VFMT_SARIF: rc = write_sarif(out, r, o->baseline, o->locate, o->locate_ud); break;
    case TA_VFMT_JUNIT: write_junit(out, r, o->baseline); break;
    }
    return rc || ferror(out) ? -1 : 0;
}
