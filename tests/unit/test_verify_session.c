/* test_verify_session.c - a verification as a program makes it, through
 * tensoralias/verify.h and bundled.h alone: a session from a configuration
 * (the reference kernels found beside the bundled data, a kernel library of
 * tests/plugins, schema files), its run, its report and gate with and
 * without a baseline; what the configuration cannot mean, refused before
 * anything runs, each with its "verify-config" or "verify" diagnostic; and
 * where the bundled files are found. Needs the build's share/ and
 * tests/plugins (make check-build). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/testdata.h"
#include "tensoralias/bundled.h"
#include "tensoralias/verify.h"

static char data_dir[512], wrong[512];

static int set_paths(void **state)
{
    (void)state;
    snprintf(data_dir, sizeof data_dir, "%s/share/tensoralias", ta_test_build_dir());
    snprintf(wrong, sizeof wrong, "%s/tests/plugins/libwrongkernels.so", ta_test_build_dir());
    return 0;
}

/* The messages of d, one a line, for assertions. */
static char *messages(const ta_diags *d)
{
    static char buf[4096];
    buf[0] = '\0';
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *g = ta_diags_get(d, i);
        size_t n = strlen(buf);
        snprintf(buf + n, sizeof buf - n, "%s: %s\n", g->rule, g->message);
    }
    return buf;
}

/* A configuration over the test plugin's kernels alone. */
static ta_verify_config plugin_config(const char *const *kernels, const char *const *ops, size_t nops)
{
    ta_verify_config c = {0};
    c.data_dir = data_dir;
    c.no_default_kernels = true;
    c.kernels = kernels;
    c.nkernels = 1;
    c.ops = ops;
    c.nops = nops;
    c.run.cases = 4;
    return c;
}

static char *report_text(const ta_verify_session *s, ta_verify_format f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_int_equal(ta_verify_session_write(s, f, false, ta_write_file, out), TA_OK);
    fclose(out);
    return buf;
}

/* A kernel library's operators, one good and one that writes its input:
 * the finding fails the gate until a baseline knows it. */
static void plugin_run(void **state)
{
    (void)state;
    const char *kernels[] = {wrong}, *ops[] = {"mylib::good", "mylib::writes_input"};
    ta_verify_config c = plugin_config(kernels, ops, 2);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_verify_session *s = NULL;
    assert_int_equal(ta_verify_session_create(&c, &s, d), TA_OK);
    assert_null(ta_verify_session_report(s));
    assert_int_equal(ta_verify_session_write(s, TA_VERIFY_JSON, false, ta_write_file, stdout), TA_ERR_INVALID);
    assert_int_equal(ta_verify_session_opts(s)->batch, 1); /* no torch: operator isolation */
    assert_int_equal(ta_verify_session_run(s, d), TA_OK);
    assert_int_equal(ta_verify_session_run(s, d), TA_ERR_INVALID); /* once */
    const ta_verify_report *r = ta_verify_session_report(s);
    assert_int_equal(r->nops, 2);
    assert_string_equal(r->ops[0].op, "mylib::good");
    assert_int_equal(r->ops[0].verdict, TA_V_OK);
    assert_int_equal(r->ops[1].verdict, TA_V_UNDECLARED_MUTATION);
    assert_true(ta_verify_session_failed(s));
    char *json = report_text(s, TA_VERIFY_JSON);
    ta_verify_session_destroy(s);
    /* The report, as a baseline: the same run passes. */
    char path[] = "/tmp/ta_session_XXXXXX";
    c.baseline = ta_test_temp_file(path, json);
    assert_non_null(c.baseline);
    assert_int_equal(ta_verify_session_create(&c, &s, d), TA_OK);
    unlink(path);
    assert_int_equal(ta_verify_session_run(s, d), TA_OK);
    assert_false(ta_verify_session_failed(s));
    char *again = report_text(s, TA_VERIFY_JSON);
    assert_non_null(strstr(again, "\"baseline\":true"));
    assert_int_equal(ta_diags_count(d), 0);
    free(json);
    free(again);
    ta_verify_session_destroy(s);
    ta_diags_destroy(d);
}

/* The defaults: the bundled yaml and the reference kernels, found from the
 * data folder; SARIF places an aten operator at its line in that yaml. */
static void reference_kernels(void **state)
{
    (void)state;
    const char *ops[] = {"aten::abs.out"};
    ta_verify_config c = {0};
    c.data_dir = data_dir;
    c.ops = ops;
    c.nops = 1;
    c.run.cases = 2;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_verify_session *s = NULL;
    assert_int_equal(ta_verify_session_create(&c, &s, d), TA_OK);
    assert_int_equal(ta_verify_session_run(s, d), TA_OK);
    const ta_verify_report *r = ta_verify_session_report(s);
    assert_int_equal(r->nops, 1);
    assert_int_equal(r->ops[0].verdict, TA_V_OK);
    assert_int_equal(r->ops[0].cases, 2);
    assert_false(ta_verify_session_failed(s));
    char *text = report_text(s, TA_VERIFY_TEXT);
    assert_non_null(strstr(text, "1 operator, 2 cases in "));
    free(text);
    ta_verify_session_destroy(s);
    ta_diags_destroy(d);
}

/* create's refusal: its status and its one diagnostic. */
static void refused(const ta_verify_config *c, ta_status want, const char *rule, const char *message)
{
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_verify_session *s = (ta_verify_session *)d; /* overwritten with NULL */
    ta_status st = ta_verify_session_create(c, &s, d);
    const char *m = messages(d);
    if (st != want || !strstr(m, message)) fprintf(stderr, "status %s, diagnostics:\n%s", ta_status_str(st), m);
    assert_int_equal(st, want);
    assert_null(s);
    const ta_diag *last = ta_diags_get(d, ta_diags_count(d) - 1);
    assert_string_equal(last->rule, rule);
    assert_non_null(strstr(last->message, message));
    ta_diags_destroy(d);
}

static void contradictions(void **state)
{
    (void)state;
    const char *kernels[] = {wrong}, *ops[] = {"mylib::good"}, *srcs[] = {"x.cpp"};
    ta_verify_config c = plugin_config(kernels, ops, 1);
    c.torch_dir = "/nonexistent";
    refused(&c, TA_ERR_INVALID, "verify-config", "--torch needs --kernels torch or --torch-library");
    c = plugin_config(kernels, ops, 1);
    c.schema_sources = srcs;
    c.nschema_sources = 1;
    refused(&c, TA_ERR_INVALID, "verify-config", "--schemas-from needs --torch-library");
}

/* A folder that is no torch: torch-config.sh's own words go to the log
 * callback, the refusal to the diagnostics. */
static void note_line(void *ud, bool output, const char *line)
{
    char *said = ud;
    if (output && !said[0]) snprintf(said, 512, "%s", line);
}

static void torch_log(void **state)
{
    (void)state;
    const char *torch[] = {"torch"}, *ops[] = {"aten::abs"};
    ta_verify_config c = plugin_config(torch, ops, 1);
    c.torch_dir = "/";
    char said[512] = "";
    c.log = note_line;
    c.log_ud = said;
    refused(&c, TA_ERR_INVALID, "verify-config", "--torch /: not a torch the bridge can use");
    assert_non_null(strstr(said, "torch-config: "));
}

/* Inputs that cannot be used: each a "verify" message (the loaders' own
 * positioned ones before it). */
static void bad_inputs(void **state)
{
    (void)state;
    const char *kernels[] = {wrong}, *ops[] = {"mylib::good"};
    char notyaml[] = "/tmp/ta_session_XXXXXX";
    assert_non_null(ta_test_temp_file(notyaml, "a: 1\n"));
    ta_verify_config c = plugin_config(kernels, ops, 1);
    c.yaml = notyaml;
    refused(&c, TA_ERR_IO, "verify", "no native functions in it (is it a native_functions.yaml?)");
    unlink(notyaml);
    c = plugin_config(kernels, ops, 1);
    c.baseline = "/nonexistent/base.json";
    refused(&c, TA_ERR_IO, "verify", "/nonexistent/base.json: cannot open: ");
    c = plugin_config(kernels, ops, 1);
    c.cuda = true;
    c.data_dir = "/nonexistent";
    refused(&c, TA_ERR_UNSUPPORTED, "verify", "no CUDA device is available");
    const char *none[] = {"/nonexistent/libnone.so"};
    c = plugin_config(none, ops, 1);
    refused(&c, TA_ERR_IO, "plugin", "cannot load kernel library");
}

/* What run refuses: an empty selection (no report), and a selection none of
 * whose operators has a kernel (a report of no-kernel results). */
static void empty_runs(void **state)
{
    (void)state;
    const char *kernels[] = {wrong}, *nomatch[] = {"nomatch::*", "other::*"};
    ta_verify_config c = plugin_config(kernels, nomatch, 2);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_verify_session *s;
    assert_int_equal(ta_verify_session_create(&c, &s, d), TA_OK);
    assert_int_equal(ta_verify_session_run(s, d), TA_ERR_INVALID);
    assert_null(ta_verify_session_report(s));
    assert_string_equal(messages(d), "verify-config: no operator matches --ops 'nomatch::*' (nor the other --ops)\n");
    ta_verify_session_destroy(s);
    ta_diags_clear(d);
    char list[] = "/tmp/ta_session_XXXXXX";
    assert_non_null(ta_test_temp_file(list, "# two operators without kernels\nextra::one(Tensor self) -> Tensor\n"
                                            "extra::two(Tensor self) -> Tensor\n"));
    const char *files[] = {list}, *extra[] = {"extra::*"};
    c = plugin_config(kernels, extra, 1);
    c.schema_files = files;
    c.nschema_files = 1;
    assert_int_equal(ta_verify_session_create(&c, &s, d), TA_OK);
    unlink(list);
    assert_int_equal(ta_verify_session_run(s, d), TA_ERR_INVALID);
    assert_string_equal(messages(d), "verify-config: nothing was verified: none of the 2 selected operators has a kernel\n");
    const ta_verify_report *r = ta_verify_session_report(s);
    assert_int_equal(r->nops, 2);
    assert_int_equal(r->ops[1].verdict, TA_V_NO_KERNEL);
    assert_false(ta_verify_session_failed(s));
    ta_verify_session_destroy(s);
    ta_diags_destroy(d);
}

/* The bundled files: in the data folder given; found from this program's
 * place in the build tree without one; what is not there is NOTFOUND, a
 * buffer too small INVALID. */
static void bundled_files(void **state)
{
    (void)state;
    char buf[1024], want[1024];
    assert_int_equal(ta_bundled_file(data_dir, "tags.yaml", buf, sizeof buf), TA_OK);
    snprintf(want, sizeof want, "%s/tags.yaml", data_dir);
    assert_string_equal(buf, want);
    assert_int_equal(ta_bundled_file(NULL, "native_functions.yaml", buf, sizeof buf), TA_OK);
    assert_int_equal(access(buf, R_OK), 0);
    assert_non_null(strstr(buf, "share/tensoralias/native_functions.yaml"));
    assert_int_equal(ta_bundled_file(data_dir, "nosuch.txt", buf, sizeof buf), TA_ERR_NOTFOUND);
    assert_int_equal(ta_bundled_file(data_dir, "tags.yaml", buf, 8), TA_ERR_INVALID);
    assert_int_equal(ta_bundled_library(data_dir, "libtensoralias_refkernels.so", buf, sizeof buf), TA_OK);
    snprintf(want, sizeof want, "%s/../../libtensoralias_refkernels.so", data_dir);
    assert_string_equal(buf, want);
    assert_int_equal(ta_bundled_library(data_dir, "libnosuch.so", buf, sizeof buf), TA_ERR_NOTFOUND);
    assert_int_equal(ta_bundled_library(NULL, NULL, buf, sizeof buf), TA_ERR_INVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plugin_run),
        cmocka_unit_test(reference_kernels),
        cmocka_unit_test(contradictions),
        cmocka_unit_test(torch_log),
        cmocka_unit_test(bad_inputs),
        cmocka_unit_test(empty_runs),
        cmocka_unit_test(bundled_files),
    };
    return cmocka_run_group_tests(tests, set_paths, NULL);
}
