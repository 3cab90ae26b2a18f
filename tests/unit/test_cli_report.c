/* test_cli_report.c - the command's report writers and list rows, compiled
 * in from tools/tensoralias: check's and verify's SARIF logs (one shared
 * envelope, sarif.c) are structurally valid SARIF 2.1.0 as GitHub code
 * scanning reads it, JSON lines parse with the promised keys,
 * and every "tensoralias list" row of the 1.13.1 yaml equals torchgen's
 * (torchgen-functions.jsonl, non-generated rows) in each field it has. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/testdata.h"

#include "../../tools/tensoralias/list_row.c"
#include "../../tools/tensoralias/report.c"
#include "../../tools/tensoralias/report_verify.c"
#include "../../tools/tensoralias/sarif.c"
#include "../../tools/tensoralias/check_sources.c"
#include "../../tools/tensoralias/cli.c"
#include "../../tools/tensoralias/extract_cli.c"

/* Diagnostics of a few broken files (and an absolute path, for the URI). */
static ta_diags *some_diags(void)
{
    static const char *const files[] = {
        "tests/data/broken-yaml/tag-unknown.yaml",
        "tests/data/broken-yaml/entry-duplicate-key.yaml",
        "tests/data/broken-yaml/structured-misc.yaml",
    };
    ta_diags *d = ta_diags_create();
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
    assert_string_equal(get_s(driver, "version"), TA_VERSION);
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

static void sarif_valid(void **state)
{
    (void)state;
    ta_diags *d = some_diags();
    size_t nrules;
    const ta_rule_info *rules = ta_native_rules(&nrules);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_int_equal(ta_report_sarif(d, rules, nrules, out), 0);
    fclose(out);
    json_error_t err;
    json_t *log = json_loads(buf, 0, &err);
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
    free(buf);
    ta_diags_destroy(d);
}

/* A report of two operators: one finding on a yaml operator (with a
 * physical location, and in the baseline), one on a custom operator. */
static bool locate_abs(void *ud, const char *op, const char **file, unsigned *line)
{
    (void)ud;
    if (strncmp(op, "aten::", 6)) return false;
    *file = "/data dir/native_functions.yaml";
    *line = 42;
    return true;
}

static void verify_sarif_valid(void **state)
{
    (void)state;
    ta_finding f1 = {.kind = TA_V_UNDECLARED_MUTATION, .severity = TA_SEV_ERROR, .seed = 0x1f};
    snprintf(f1.argument, sizeof f1.argument, "self");
    snprintf(f1.message, sizeof f1.message, "argument 'self' changed");
    ta_finding f2 = {.kind = TA_V_NOT_EXERCISED, .severity = TA_SEV_WARNING};
    snprintf(f2.message, sizeof f2.message, "no case was accepted");
    ta_op_result ops[2] = {{.verdict = TA_V_UNDECLARED_MUTATION, .severity = TA_SEV_ERROR,
                            .cases = 4, .exercised = 4, .findings = &f1, .nfindings = 1},
                           {.verdict = TA_V_NOT_EXERCISED, .severity = TA_SEV_WARNING,
                            .cases = 4, .findings = &f2, .nfindings = 1}};
    snprintf(ops[0].op, sizeof ops[0].op, "aten::abs_");
    snprintf(ops[1].op, sizeof ops[1].op, "mylib::f");
    ta_verify_report rep = {.ops = ops, .nops = 2, .total_cases = 8};
    char blpath[] = "/tmp/ta_baseline_XXXXXX";
    int fd = mkstemp(blpath);
    assert_true(fd >= 0);
    static const char bl_line[] =
        "{\"op\":\"aten::abs_\",\"findings\":[{\"kind\":\"undeclared-mutation\",\"argument\":\"self\"}]}\n";
    assert_int_equal(write(fd, bl_line, sizeof bl_line - 1), (ssize_t)(sizeof bl_line - 1));
    close(fd);
    ta_vbaseline *bl = ta_vbaseline_load(blpath, NULL);
    unlink(blpath);
    assert_non_null(bl);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ta_vreport_opts ro = {TA_VFMT_SARIF, false, bl, locate_abs, NULL};
    assert_int_equal(ta_vreport_write(out, &ro, &rep), 0);
    ta_vbaseline_destroy(bl);
    fclose(out);
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
    assert_int_equal(ta_report_json(d, out), 0);
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

static void list_rows_golden(void **state)
{
    (void)state;
    ta_native_file *f = NULL;
    assert_int_equal(ta_test_load_corpus("pytorch-1.13.1", &f, NULL), TA_OK);
    size_t ngolden = 0, pos = 0, compared = 0;
    json_t **golden = ta_test_read_jsonl("golden/torch-1.13.1/torchgen-functions.jsonl", &ngolden);
    assert_non_null(golden);
    int mismatches = 0;
    for (size_t r = 0; r < ngolden; r++) {
        const json_t *want = golden[r];
        if (json_is_true(json_object_get(want, "generated"))) continue;
        json_t *row = ta_list_row(f, ta_native_get(f, pos++), NULL);
        assert_non_null(row);
        const char *key;
        json_t *v;
        json_object_foreach(row, key, v)
        {
            compared++;
            if (json_equal(v, json_object_get(want, key))) continue;
            if (mismatches++ < 10) {
                char *a = json_dumps(v, JSON_ENCODE_ANY), *b = json_dumps(json_object_get(want, key), JSON_ENCODE_ANY);
                fprintf(stderr, "row %zu %s: ours %s, torchgen %s\n", pos, key, a, b ? b : "(missing)");
                free(a);
                free(b);
            }
        }
        json_decref(row);
    }
    ta_test_free_jsonl(golden, ngolden);
    fprintf(stderr, "%zu rows, %zu fields compared, %d mismatches\n", pos, compared, mismatches);
    assert_int_equal(pos, 2493);
    assert_int_equal(mismatches, 0);
    ta_native_destroy(f);
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
    ta_extract *x = ta_extract_create(NULL);
    ta_diags *d = ta_diags_create();
    assert_int_equal(ta_extract_scan(x, "csrc/ops.cpp", TA_LANG_CPP, src, strlen(src), d), TA_OK);
    assert_int_equal(ta_alias_check_extracted(x, d), TA_OK);
    assert_int_equal(ta_diags_count(d), 3); /* syntax error, unresolved note, the finding */
    ta_rule_info rules[64];
    size_t nrules = 0;
    assert_true(ta_check_sources_nrules() <= 64);
    ta_check_sources_rules(rules, &nrules);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_int_equal(ta_report_sarif(d, rules, nrules, out), 0);
    fclose(out);
    json_error_t err;
    json_t *log = json_loads(buf, 0, &err);
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
    free(buf);
    ta_diags_destroy(d);
    ta_extract_destroy(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sarif_valid),
        cmocka_unit_test(verify_sarif_valid),
        cmocka_unit_test(sarif_sources),
        cmocka_unit_test(json_lines),
        cmocka_unit_test(list_rows_golden),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
