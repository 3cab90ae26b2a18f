/* baseline.c - the known findings of a previous JSON report (see
 * tensoralias/verify.h): what a gate lets pass. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/alloc.h"
#include "base/grow.h"
#include "exec/report/report_internal.h"

/* The reason reading stopped when memory ran out (no diagnostic then). */
static const char OUT_OF_MEMORY[] = "out of memory";

typedef struct known {
    char *op, *kind, *arg;
} known;

struct ta_verify_baseline {
    known *v;
    size_t n, cap;
};

static bool add_known(ta_verify_baseline *b, const char *op, const char *kind, const char *arg)
{
    if (TA_GROW_ONE(b->v, b->n, b->cap, 64) != TA_OK) return false;
    known k = {ta_strdup(op), ta_strdup(kind), ta_strdup(arg ? arg : "")};
    if (!k.op || !k.kind || !k.arg) {
        free(k.op);
        free(k.kind);
        free(k.arg);
        return false;
    }
    b->v[b->n++] = k;
    return true;
}

static void clear_known(ta_verify_baseline *b)
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
static const char *take_object(ta_verify_baseline *b, json_t *o, char *why, size_t cap)
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
        if (!add_known(b, op, kind, arg)) return OUT_OF_MEMORY;
    }
    return NULL;
}

/* A JSON document: one result, or an array of them. */
static const char *take_value(ta_verify_baseline *b, json_t *v, char *why, size_t cap)
{
    if (!json_is_array(v)) return take_object(b, v, why, cap);
    if (!json_array_size(v)) return "an empty array";
    size_t i;
    json_t *o;
    json_array_foreach(v, i, o) {
        char inner[256];
        const char *e = take_object(b, o, inner, sizeof inner);
        if (e == OUT_OF_MEMORY) return e;
        if (e) {
            snprintf(why, cap, "element %zu is %s", i + 1, e);
            return why;
        }
    }
    return NULL;
}

/* JSON lines (what --format json writes); NULL, or what is wrong, with
 * *line set to where. *syntax tells a line that is no JSON. */
static const char *read_lines(ta_verify_baseline *b, FILE *f, char *why, size_t cap, size_t *line,
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

/* Maybe one pretty-printed document, when a line was no JSON. */
static const char *read_document(ta_verify_baseline *b, FILE *f, char *why, size_t cap, size_t *line)
{
    rewind(f);
    json_error_t e;
    json_t *v = json_loadf(f, 0, &e);
    clear_known(b);
    if (!v) {
        snprintf(why, cap, "%s", e.text);
        *line = (size_t)e.line;
        return why;
    }
    const char *err = take_value(b, v, why, cap);
    json_decref(v);
    return err;
}

ta_status ta_verify_baseline_load(const char *path, ta_verify_baseline **out, ta_diags *diags)
{
    *out = NULL;
    ta_loc at = {.file = path};
    FILE *f = fopen(path, "rb");
    if (!f) {
        ta_status st = ta_diag_error(diags, &at, "baseline", "%s: cannot open: %s", path, strerror(errno));
        return st == TA_OK ? TA_ERR_IO : st;
    }
    ta_verify_baseline *b = ta_calloc(1, sizeof *b);
    char why[512];
    size_t line = 0;
    bool syntax = false;
    const char *err = b ? read_lines(b, f, why, sizeof why, &line, &syntax) : OUT_OF_MEMORY;
    if (err && syntax) err = read_document(b, f, why, sizeof why, &line);
    fclose(f);
    if (!err) {
        *out = b;
        return TA_OK;
    }
    ta_verify_baseline_destroy(b);
    if (err == OUT_OF_MEMORY) return TA_ERR_NOMEM;
    ta_status st = ta_diag_error(diags, &at, "baseline", "%s:%zu: not a verify JSON report: %s", path, line, err);
    return st == TA_OK ? TA_ERR_PARSE : st;
}

void ta_verify_baseline_destroy(ta_verify_baseline *b)
{
    if (!b) return;
    clear_known(b);
    free(b->v);
    free(b);
}

bool ta_verify_baseline_has(const ta_verify_baseline *b, const char *op, const char *kind,
                            const char *argument)
{
    if (!b) return false;
    for (size_t i = 0; i < b->n; i++)
        if (!strcmp(b->v[i].op, op) && !strcmp(b->v[i].kind, kind) && !strcmp(b->v[i].arg, argument))
            return true;
    return false;
}

bool vreport_known(const ta_verify_baseline *b, const ta_op_result *o, const ta_finding *f)
{
    return ta_verify_baseline_has(b, o->op, ta_verdict_kind_str(f->kind), f->argument);
}

size_t ta_verify_report_new_errors(const ta_verify_report *r, const ta_verify_baseline *b)
{
    size_t n = 0;
    for (size_t i = 0; r && i < r->nops; i++)
        for (size_t k = 0; k < r->ops[i].nfindings; k++) {
            const ta_finding *f = &r->ops[i].findings[k];
            n += f->severity == TA_SEV_ERROR && !vreport_known(b, &r->ops[i], f);
        }
    return n;
}
