/* test_report.c - the library's report writers, through the public API
 * (tensoralias/report.h, verify.h): the diagnostics' and verify's SARIF logs
 * (one shared envelope) are structurally valid SARIF 2.1.0 as GitHub code
 * scanning reads it, JSON lines parse with the promised keys, a baseline
 * marks its findings in every format and keeps them from failing a gate,
 * what is not a baseline is refused with the reason, and a write that fails
 * is TA_ERR_IO. (`tensoralias list` rows against torchgen's are
 * test_list_golden's.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/testdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tensoralias/alias.h"
#include "tensoralias/extract.h"
#include "tensoralias/native.h"
#include "tensoralias/report.h"
#include "tensoralias/verify.h"
#include "tensoralias/version.h"

/* Diagnostics of a few broken files (and an absolute path, for the URI). */
static ta_diags *some_diags(void)
{
    static const char *const files[] = {
        "tests/data/broken-yaml/tag-unknown.yaml",
        "tests/data/broken-yaml/entry-duplicate-key.yaml",
        "tests/data/broken-yaml/structured-misc.yaml",
    };
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    for (size_t i = 0; i < 3; i++) {
        ta_native_file *f = NULL;
        ta_native_load_path(files[i], "tests/data/corpus/pytorch-main/tags.yaml", &f, d);
        assert_non_null(f);
        ta_native_check(f, d);
        ta_native_destroy(f);
    }
    ta_loc custom = {"/tmp/a b.yaml", 3, 4, 2, NULL, 0}, nowhere = {.file = "nowhere.yaml"};
    assert_int_equal(ta_diag_error(d, &custom, "custom-rule", "x"), TA_OK);
    assert_int_equal(ta_diag_note(d, &nowhere, "io", "no line"), TA_OK);
    return d;
}

static const char *get_s(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    assert_true(json_is_string(v));
    return json_string_value(v);
}

static bool level_ok(const char *l)
{
    return !strcmp(l, "error") || !strcmp(l, "warning") || !strcmp(l, "note") ||
           !strcmp(l, "none");
}

/* A rule's documentation: helpUri is absolute (SARIF 2.1.0 wants it so)
 * and names the rule's section of docs/rules.md; help, which GitHub shows
 * next to an alert, carries the same link. (tests/cli/docs.sh checks
 * that the section exists.) */
static void help_ok(const json_t *rule, const char *id)
{
    const char *uri = get_s(rule, "helpUri");
    size_t n = strlen(uri), k = strlen(id);
    assert_true(!strncmp(uri, "https://", 8));
    assert_true(n > k + 1 && uri[n - k - 1] == '#' && !strcmp(uri + n - k, id));
    assert_true(strstr(uri, "docs/rules.md#") != NULL);
    const json_t *help = json_object_get(rule, "help");
    assert_non_null(strstr(get_s(help, "text"), uri));
    assert_non_null(strstr(get_s(help, "markdown"), uri));
}

/* The envelope both logs share: version, $schema, one run, tool.driver with
 * name, version, informationUri and a catalogue of at least min_rules
 * distinct rules, each with a summary, its documentation and a valid level.
 * Returns the run. */
static json_t *check_envelope(json_t *log, size_t min_rules)
{
    assert_non_null(log);
    assert_string_equal(get_s(log, "version"), "2.1.0");
    assert_non_null(strstr(get_s(log, "$schema"), "sarif-2.1.0"));
    json_t *runs = json_object_get(log, "runs");
    assert_int_equal(json_array_size(runs), 1);
    json_t *run = json_array_get(runs, 0);
    json_t *driver = json_object_get(json_object_get(run, "tool"), "driver");
    assert_string_equal(get_s(driver, "name"), "tensoralias");
    assert_string_equal(get_s(driver, "version"), TA_VERSION_STRING);
    assert_true(!strncmp(get_s(driver, "informationUri"), "https://", 8));
    json_t *jr = json_object_get(driver, "rules");
    assert_true(json_array_size(jr) >= min_rules);
    for (size_t i = 0; i < json_array_size(jr); i++) {
        json_t *r = json_array_get(jr, i);
        const char *id = get_s(r, "id");
        for (size_t k = 0; k < i; k++)
            assert_string_not_equal(id, get_s(json_array_get(jr, k), "id"));
        assert_true(strlen(get_s(json_object_get(r, "shortDescription"), "text")) > 0);
        assert_true(level_ok(get_s(json_object_get(r, "defaultConfiguration"), "level")));
        help_ok(r, id);
    }
    /* Every result names a rule of the catalogue, by id and by index. */
    json_t *results = json_object_get(run, "results");
    assert_true(json_is_array(results));
    for (size_t i = 0; i < json_array_size(results); i++) {
        json_t *r = json_array_get(results, i);
        json_t *idx = json_object_get(r, "ruleIndex");
        assert_true(json_is_integer(idx));
        assert_string_equal(get_s(json_array_get(jr, (size_t)json_integer_value(idx)), "id"),
                            get_s(r, "ruleId"));
        assert_true(level_ok(get_s(r, "level")));
        assert_true(strlen(get_s(json_object_get(r, "message"), "text")) > 0);
        assert_true(json_array_size(json_object_get(r, "locations")) >= 1);
    }
    return run;
}

/* The SARIF log of d with the catalogue, parsed. */
static json_t *sarif_of(const ta_diags *d, const ta_rule_info *rules, size_t nrules)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_int_equal(ta_diags_write_sarif(d, rules, nrules, ta_write_file, out), TA_OK);
    fclose(out);
    json_error_t err;
    json_t *log = json_loads(buf, 0, &err);
    free(buf);
    return log;
}

static void sarif_valid(void **state)
{
    (void)state;
    ta_diags *d = some_diags();
    size_t nrules;
    const ta_rule_info *rules = ta_native_rules(&nrules);
    json_t *log = sarif_of(d, rules, nrules);
    json_t *run = check_envelope(log, nrules + 1); /* + custom-rule */
    json_t *jr = json_object_get(json_object_get(json_object_get(run, "tool"), "driver"), "rules");
    json_t *results = json_object_get(run, "results");
    assert_int_equal(json_array_size(results), ta_diags_count(d));
    for (size_t i = 0; i < json_array_size(results); i++) {
        json_t *r = json_array_get(results, i);
        const ta_diag *g = ta_diags_get(d, i);
        assert_string_equal(get_s(r, "ruleId"), g->rule);
        json_t *idx = json_object_get(r, "ruleIndex");
        assert_true(json_is_integer(idx));
        assert_string_equal(get_s(json_array_get(jr, (size_t)json_integer_value(idx)), "id"), g->rule);
        assert_true(level_ok(get_s(r, "level")));
        assert_true(strlen(get_s(json_object_get(r, "message"), "text")) > 0);
        json_t *loc = json_array_get(json_object_get(r, "locations"), 0);
        json_t *phys = json_object_get(loc, "physicalLocation");
        const char *uri = get_s(json_object_get(phys, "artifactLocation"), "uri");
        assert_null(strchr(uri, ' '));
        json_t *region = json_object_get(phys, "region");
        if (g->line) {
            assert_int_equal(json_integer_value(json_object_get(region, "startLine")), g->line);
            assert_true(json_integer_value(json_object_get(region, "startColumn")) >= 1);
        } else {
            assert_null(region);
        }
    }
    /* Relative paths hang off %SRCROOT%; absolute ones are file:// URIs. */
    json_t *first = json_object_get(json_object_get(json_array_get(json_object_get(
                        json_array_get(results, 0), "locations"), 0), "physicalLocation"),
                        "artifactLocation");
    assert_string_equal(get_s(first, "uri"), "tests/data/broken-yaml/tag-unknown.yaml");
    assert_string_equal(get_s(first, "uriBaseId"), "%SRCROOT%");
    size_t n = json_array_size(results);
    json_t *abs = json_object_get(json_object_get(json_array_get(json_object_get(
                      json_array_get(results, n - 2), "locations"), 0), "physicalLocation"),
                      "artifactLocation");
    assert_string_equal(get_s(abs, "uri"), "file:///tmp/a%20b.yaml");
    json_decref(log);
    ta_diags_destroy(d);
}

/* A report of two operators: one error finding on a yaml operator (with a
 * physical location, and in the baseline), one warning on a custom
 * operator; the baseline in a file. */
static bool locate_abs(void *ud, const char *op, const char **file, unsigned *line)
{
    (void)ud;
    if (strncmp(op, "aten::", 6)) return false;
    *file = "/data dir/native_functions.yaml";
    *line = 42;
    return true;
}

typedef struct two_ops {
    ta_finding f1, f2;
    ta_op_result ops[2];
    ta_verify_report rep;
    ta_verify_baseline *bl;
} two_ops;

static void two_ops_make(two_ops *t)
{
    memset(t, 0, sizeof *t);
    t->f1 = (ta_finding){.kind = TA_V_UNDECLARED_MUTATION, .severity = TA_SEV_ERROR, .seed = 0x1f};
    snprintf(t->f1.argument, sizeof t->f1.argument, "self");
    snprintf(t->f1.message, sizeof t->f1.message, "argument 'self' changed <&>");
    t->f2 = (ta_finding){.kind = TA_V_NOT_EXERCISED, .severity = TA_SEV_WARNING};
    snprintf(t->f2.message, sizeof t->f2.message, "no case was accepted");
    t->ops[0] = (ta_op_result){.verdict = TA_V_UNDECLARED_MUTATION, .severity = TA_SEV_ERROR, .cases = 4,
                               .exercised = 4, .findings = &t->f1, .nfindings = 1};
    t->ops[1] = (ta_op_result){.verdict = TA_V_NOT_EXERCISED, .severity = TA_SEV_WARNING, .cases = 4,
                               .findings = &t->f2, .nfindings = 1};
    snprintf(t->ops[0].op, sizeof t->ops[0].op, "aten::abs_");
    snprintf(t->ops[1].op, sizeof t->ops[1].op, "mylib::f");
    t->rep = (ta_verify_report){.ops = t->ops, .nops = 2, .total_cases = 8};
    char blpath[] = "/tmp/ta_baseline_XXXXXX";
    assert_non_null(ta_test_temp_file(blpath, "{\"op\":\"aten::abs_\",\"findings\":[{\"kind\":\"undeclared-mutation\",\"argument\":\"self\"}]}\n"));
    assert_int_equal(ta_verify_baseline_load(blpath, &t->bl, NULL), TA_OK);
    unlink(blpath);
    assert_non_null(t->bl);
}

/* The report in format f (with the baseline when bl is set), as text. */
static char *written(const two_ops *t, ta_verify_format f, bool bl)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ta_verify_write_opts o = {f, false, bl ? t->bl : NULL, locate_abs, NULL};
    assert_int_equal(ta_verify_report_write(&t->rep, &o, ta_write_file, out), TA_OK);
    fclose(out);
    return buf;
}

static void verify_sarif_valid(void **state)
{
    (void)state;
    two_ops t;
    two_ops_make(&t);
    char *buf = written(&t, TA_VERIFY_SARIF, true);
    ta_verify_baseline_destroy(t.bl);
    json_error_t err;
    json_t *log = json_loads(buf, 0, &err);
    json_t *run = check_envelope(log, TA_V_NKINDS - 1); /* every verdict kind but ok */
    json_t *results = json_object_get(run, "results");
    assert_int_equal(json_array_size(results), 2);
    json_t *r0 = json_array_get(results, 0), *r1 = json_array_get(results, 1);
    assert_string_equal(get_s(r0, "ruleId"), "undeclared-mutation");
    assert_string_equal(get_s(r0, "level"), "error");
    assert_string_equal(get_s(r1, "level"), "warning");
    json_t *loc0 = json_array_get(json_object_get(r0, "locations"), 0);
    json_t *ll = json_array_get(json_object_get(loc0, "logicalLocations"), 0);
    assert_string_equal(get_s(ll, "fullyQualifiedName"), "aten::abs_");
    json_t *phys = json_object_get(loc0, "physicalLocation");
    assert_string_equal(get_s(json_object_get(phys, "artifactLocation"), "uri"),
                        "file:///data%20dir/native_functions.yaml");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(phys, "region"), "startLine")), 42);
    assert_string_equal(get_s(json_object_get(r0, "properties"), "seed"), "0x1f");
    assert_string_equal(get_s(r0, "baselineState"), "unchanged");
    assert_null(json_object_get(r1, "baselineState"));
    /* A custom operator has no yaml line: a logical location only. */
    json_t *loc1 = json_array_get(json_object_get(r1, "locations"), 0);
    assert_null(json_object_get(loc1, "physicalLocation"));
    json_decref(log);
    free(buf);
}

static void json_lines(void **state)
{
    (void)state;
    ta_diags *d = some_diags();
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_int_equal(ta_diags_write_json(d, ta_write_file, out), TA_OK);
    fclose(out);
    size_t lines = 0;
    for (char *s = buf, *e; *s; s = e + 1) {
        e = strchr(s, '\n');
        assert_non_null(e);
        *e = '\0';
        json_error_t err;
        json_t *o = json_loads(s, 0, &err);
        assert_non_null(o);
        static const char *const keys[] = {"file", "line", "col", "severity", "rule", "message", "hint"};
        for (size_t k = 0; k < 7; k++) assert_non_null(json_object_get(o, keys[k]));
        assert_int_equal(json_object_size(o), 7);
        assert_string_equal(json_string_value(json_object_get(o, "rule")), ta_diags_get(d, lines)->rule);
        json_decref(o);
        lines++;
    }
    assert_int_equal(lines, ta_diags_count(d));
    free(buf);
    ta_diags_destroy(d);
}

/* The baseline in the other formats: JSON marks the finding, text says
 * "(in baseline)", JUnit counts no failure for it; and the gate's count. */
static void verify_baseline_formats(void **state)
{
    (void)state;
    two_ops t;
    two_ops_make(&t);
    assert_int_equal(ta_verify_report_new_errors(&t.rep, NULL), 1);
    assert_int_equal(ta_verify_report_new_errors(&t.rep, t.bl), 0);
    assert_true(ta_verify_baseline_has(t.bl, "aten::abs_", "undeclared-mutation", "self"));
    assert_false(ta_verify_baseline_has(t.bl, "aten::abs_", "undeclared-mutation", "other"));
    char *json = written(&t, TA_VERIFY_JSON, true), *plain = written(&t, TA_VERIFY_JSON, false);
    assert_non_null(strstr(json, "\"argument\":\"self\",\"seed\":\"0x1f\",\"message\":\"argument 'self' changed <&>\",\"baseline\":true}"));
    assert_null(strstr(plain, "baseline"));
    assert_int_equal(strchr(strchr(json, '\n') + 1, '\n')[1], '\0'); /* two lines */
    char *text = written(&t, TA_VERIFY_TEXT, true);
    assert_non_null(strstr(text, "aten::abs_: undeclared-mutation (4 cases, 4 exercised)\n"
                                 "  error: undeclared-mutation (self): argument 'self' changed <&> [seed 0x1f] (in baseline)\n"));
    assert_non_null(strstr(text, "\n2 operators (1 exercised), 8 cases (4 not accepted) in 0.00 s: 1 undeclared-mutation, 1 not-exercised\n"));
    char *junit = written(&t, TA_VERIFY_JUNIT, true), *failing = written(&t, TA_VERIFY_JUNIT, false);
    assert_non_null(strstr(junit, "tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"1\""));
    assert_non_null(strstr(junit, "<system-out>in baseline: undeclared-mutation (self)</system-out>"));
    assert_non_null(strstr(failing, "tests=\"2\" failures=\"1\""));
    assert_non_null(strstr(failing, "message=\"argument &apos;self&apos; changed &lt;&amp;&gt;\""));
    free(json);
    free(plain);
    free(text);
    free(junit);
    free(failing);
    ta_verify_baseline_destroy(t.bl);
}

/* A writer that takes `room` bytes, then fails. */
static int limited(void *ud, const char *bytes, size_t n)
{
    (void)bytes;
    size_t *room = ud;
    if (n > *room) return -1;
    *room -= n;
    return 0;
}

static void write_failure(void **state)
{
    (void)state;
    two_ops t;
    two_ops_make(&t);
    for (int f = TA_VERIFY_TEXT; f <= TA_VERIFY_JUNIT; f++) {
        size_t room = 20;
        ta_verify_write_opts o = {(ta_verify_format)f, true, t.bl, NULL, NULL};
        assert_int_equal(ta_verify_report_write(&t.rep, &o, limited, &room), TA_ERR_IO);
    }
    ta_diags *d = some_diags();
    size_t room = 100;
    assert_int_equal(ta_diags_write_json(d, limited, &room), TA_ERR_IO);
    room = 100;
    assert_int_equal(ta_diags_write_sarif(d, NULL, 0, limited, &room), TA_ERR_IO);
    ta_verify_write_opts bad = {(ta_verify_format)99, false, NULL, NULL, NULL};
    assert_int_equal(ta_verify_report_write(&t.rep, &bad, limited, &room), TA_ERR_INVALID);
    ta_diags_destroy(d);
    ta_verify_baseline_destroy(t.bl);
}

/* What is not a verify JSON report is refused with where and why. */
static void baseline_refused(void **state)
{
    (void)state;
    static const struct {
        const char *text, *why;
    } cases[] = {
        {"", ":0: not a verify JSON report: the file is empty"},
        {"{\"op\":\"a::b\",\"findings\":[{\"kind\":\"nonsense\"}]}\n", ":1: not a verify JSON report: finding 1 of a::b has no known \"kind\""},
        {"{\"version\":\"2.1.0\",\"runs\":[]}", "a SARIF log; a baseline is a report written by --format json"},
        {"[]", "an empty array"},
        {"[1]", "element 1 is a number, not an operator's result"},
        {"{\n  \"op\": \"a::b\",\n  \"findings\": []\n}\n", NULL}, /* one pretty-printed document */
        {"{\"op\": \n", ":2: not a verify JSON report: "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[] = "/tmp/ta_baseline_XXXXXX";
        assert_non_null(ta_test_temp_file(path, cases[i].text));
        ta_diags *d;
        assert_int_equal(ta_diags_create(&d), TA_OK);
        ta_verify_baseline *b = NULL;
        ta_status st = ta_verify_baseline_load(path, &b, d);
        unlink(path);
        if (!cases[i].why) {
            assert_int_equal(st, TA_OK);
            assert_false(ta_verify_baseline_has(b, "a::b", "crash", ""));
        } else {
            assert_int_equal(st, TA_ERR_PARSE);
            assert_null(b);
            assert_int_equal(ta_diags_count(d), 1);
            assert_string_equal(ta_diags_get(d, 0)->rule, "baseline");
            assert_non_null(strstr(ta_diags_get(d, 0)->message, cases[i].why));
        }
        ta_verify_baseline_destroy(b);
        ta_diags_destroy(d);
    }
    ta_verify_baseline *b = NULL;
    assert_int_equal(ta_verify_baseline_load("/nonexistent/r.json", &b, NULL), TA_ERR_IO);
    assert_null(b);
}

/* check on C++ sources: SARIF that code scanning places in the source
 * files (a relative uri against %SRCROOT%, a region inside the literal),
 * every rule it reports in the catalogue. */
static void sarif_sources(void **state)
{
    (void)state;
    static const char src[] = "TORCH_LIBRARY(mylib, m) {\n"
                              "  m.def(\"moe_sum(Tensor! input, Tensor output) -> ()\");\n"
                              "  m.def(\"broken(Tensor x -> Tensor\");\n"
                              "  m.def(SCHEMA);\n"
                              "}\n";
    ta_extract *x;
    assert_int_equal(ta_extract_create(NULL, &x), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_extract_scan(x, "csrc/ops.cpp", TA_LANG_CPP, src, strlen(src), d), TA_OK);
    assert_int_equal(ta_alias_check_extracted(x, d), TA_OK);
    assert_int_equal(ta_diags_count(d), 3); /* syntax error, unresolved note, the finding */
    /* The catalogue check gives for sources: the custom-operator rules and
     * extraction's. */
    ta_rule_info rules[64];
    size_t nrules = 0, nc, nx;
    const ta_rule_info *c = ta_alias_custom_rules(&nc);
    const ta_extract_rule *xr = ta_extract_rules(&nx);
    assert_true(nc + nx <= 64);
    for (size_t i = 0; i < nc; i++) rules[nrules++] = c[i];
    for (size_t i = 0; i < nx; i++) {
        bool known = false; /* schema-syntax is both's */
        for (size_t k = 0; k < nc; k++) known = known || !strcmp(c[k].id, xr[i].id);
        if (!known) rules[nrules++] = (ta_rule_info){xr[i].id, xr[i].severity, xr[i].summary};
    }
    json_t *log = sarif_of(d, rules, nrules);
    json_t *run = check_envelope(log, nrules);
    json_t *jr = json_object_get(json_object_get(json_object_get(run, "tool"), "driver"), "rules");
    assert_int_equal(json_array_size(jr), nrules); /* nothing outside the catalogue */
    json_t *results = json_object_get(run, "results");
    assert_int_equal(json_array_size(results), 3);
    for (size_t i = 0; i < 3; i++) {
        const ta_diag *g = ta_diags_get(d, i);
        json_t *phys = json_object_get(json_array_get(json_object_get(json_array_get(results, i), "locations"), 0),
                                       "physicalLocation");
        json_t *art = json_object_get(phys, "artifactLocation");
        assert_string_equal(get_s(art, "uri"), "csrc/ops.cpp");
        assert_string_equal(get_s(art, "uriBaseId"), "%SRCROOT%");
        json_t *region = json_object_get(phys, "region");
        assert_int_equal(json_integer_value(json_object_get(region, "startLine")), g->line);
        assert_int_equal(json_integer_value(json_object_get(region, "startColumn")), g->col);
        if (g->length > 1)
            assert_int_equal(json_integer_value(json_object_get(region, "endColumn")), g->col + g->length);
    }
    /* the finding: "Tensor output" on line 2 */
    const ta_diag *g = ta_diags_get(d, 2);
    assert_string_equal(g->rule, "custom-dest-not-written");
    assert_int_equal(g->line, 2);
    assert_int_equal(g->col, 33);
    json_decref(log);
    ta_diags_destroy(d);
    ta_extract_destroy(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sarif_valid),
        cmocka_unit_test(verify_sarif_valid),
        cmocka_unit_test(verify_baseline_formats),
        cmocka_unit_test(write_failure),
        cmocka_unit_test(baseline_refused),
        cmocka_unit_test(sarif_sources),
        cmocka_unit_test(json_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
