/* test_stress.c - hostile inputs at sizes that run in about a second: each
 * shows the bound that keeps time and memory in check (reading stops at the
 * first "yaml-too-deep"; a diagnostic keeps an excerpt of a long line and
 * at most TA_DIAG_TEXT_MAX bytes of message and of hint; the loader
 * refuses input past its limit; a sample's case may not span more storage
 * than a cap). tests/cli/stress.sh does the command's part (parse --json's
 * pair lists cut at a cap, /dev/zero); tools/stress.sh runs them all at full
 * size, with time and peak memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "exec/synth/samples.h"
#include "tensoralias/check.h"
#include "tensoralias/native.h"

/* text of n copies of unit, then tail (malloc'd). */
static char *repeat(const char *head, const char *unit, size_t n, const char *tail)
{
    size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail);
    char *s = malloc(hl + ul * n + tl + 1);
    assert_non_null(s);
    memcpy(s, head, hl);
    for (size_t i = 0; i < n; i++) memcpy(s + hl + i * ul, unit, ul);
    memcpy(s + hl + ul * n, tail, tl + 1);
    return s;
}

static ta_diags *load_check(const char *text)
{
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_native_file *f = NULL;
    ta_status st = ta_native_load_buffer(text, strlen(text), "stress.yaml", NULL, 0, NULL, &f, d);
    assert_true(st == TA_OK || st == TA_ERR_PARSE);
    if (f) assert_true(ta_check_all(f, d) == TA_OK || ta_diags_count(d) > 0);
    ta_native_destroy(f);
    return d;
}

/* 100,000 levels of '[' and of '{a: ': one "yaml-too-deep" and nothing after
 * it (libyaml would take minutes to scan on to the end). */
static void deep_nesting(void **state)
{
    (void)state;
    const char *units[] = {"[", "{a: "};
    for (size_t u = 0; u < 2; u++) {
        char *s = repeat("", units[u], 100000, "\n");
        ta_diags *d = load_check(s);
        assert_int_equal(ta_diags_count(d), 1);
        const ta_diag *g = ta_diags_get(d, 0);
        assert_string_equal(g->rule, "yaml-too-deep");
        assert_int_equal(g->line, 1);
        /* The source line is an excerpt around the column, not 100,000 bytes. */
        assert_true(strlen(g->source_line) <= TA_DIAG_LINE_MAX);
        assert_true(g->line_skipped > 0 && g->line_cut);
        ta_diags_destroy(d);
        free(s);
    }
}

/* One entry on one 100 KB line with 2,500 written arguments and 2,500
 * written returns: thousands of diagnostics, each keeping at most
 * TA_DIAG_LINE_MAX bytes of the line (a copy each would be 500 MB). */
static void long_entry(void **state)
{
    (void)state;
    enum { N = 2500 };
    size_t cap = 64 + (size_t)N * 48;
    char *s = malloc(cap);
    assert_non_null(s);
    size_t n = (size_t)snprintf(s, cap, "- func: big(");
    for (int i = 0; i < N; i++) n += (size_t)snprintf(s + n, cap - n, "%sTensor(a!) arg%d", i ? ", " : "", i);
    n += (size_t)snprintf(s + n, cap - n, ") -> (");
    for (int i = 0; i < N; i++) n += (size_t)snprintf(s + n, cap - n, "%sTensor(a!) ret%d", i ? ", " : "", i);
    snprintf(s + n, cap - n, ")\n");
    ta_diags *d = load_check(s);
    size_t count = ta_diags_count(d), bytes = 0;
    assert_true(count >= N);
    for (size_t i = 0; i < count; i++) {
        const ta_diag *g = ta_diags_get(d, i);
        assert_non_null(g->source_line);
        size_t shown = strlen(g->source_line);
        assert_true(shown <= TA_DIAG_LINE_MAX);
        /* The excerpt is the line's text at line_skipped, and holds the column. */
        assert_memory_equal(g->source_line, s + g->line_skipped, shown);
        assert_true(g->col - 1 >= g->line_skipped && g->col - 1 <= g->line_skipped + shown);
        bytes += shown;
    }
    assert_true(bytes <= count * TA_DIAG_LINE_MAX);
    ta_diags_destroy(d);
    free(s);
}

/* A 100,000-byte argument name: the messages naming it are cut to
 * TA_DIAG_TEXT_MAX bytes (ending in "..."), the line to an excerpt. */
static void long_name(void **state)
{
    (void)state;
    char *name = repeat("", "x", 100000, "");
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_diag_error(d, NULL, "r", "name '%s'", name), TA_OK);
    assert_int_equal(ta_diag_hint(d, "rename '%s'", name), TA_OK);
    const ta_diag *g = ta_diags_get(d, 0);
    assert_int_equal(strlen(g->message), TA_DIAG_TEXT_MAX);
    assert_string_equal(g->message + TA_DIAG_TEXT_MAX - 3, "...");
    assert_int_equal(strlen(g->hint), TA_DIAG_TEXT_MAX);
    ta_diags_destroy(d);

    char *s = repeat("- func: f(Tensor(a!) ", name, 1, ") -> Tensor(a!)\n");
    d = load_check(s);
    assert_true(ta_diags_count(d) >= 1);
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        g = ta_diags_get(d, i);
        assert_non_null(strstr(g->message, "xxxx"));
        assert_true(strlen(g->message) <= TA_DIAG_TEXT_MAX);
        assert_true(!g->hint || strlen(g->hint) <= TA_DIAG_TEXT_MAX);
        assert_true(g->source_line && strlen(g->source_line) <= TA_DIAG_LINE_MAX);
    }
    ta_diags_destroy(d);
    free(s);
    free(name);
}

/* Past TA_MAX_INPUT_BYTES: an "io" error, whether the text is a buffer
 * (refused before it is read) or an endless file (reading stops there). */
static void input_limit(void **state)
{
    (void)state;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_native_file *f = NULL;
    static const char text[] = "- func: abs(Tensor self) -> Tensor\n";
    assert_int_equal(ta_native_load_buffer(text, TA_MAX_INPUT_BYTES + 1, "huge.yaml", NULL, 0, NULL,
                                           &f, d),
                     TA_ERR_INVALID);
    assert_null(f);
    assert_int_equal(ta_diags_count(d), 1);
    assert_string_equal(ta_diags_get(d, 0)->rule, "io");
    assert_non_null(strstr(ta_diags_get(d, 0)->message, "MiB"));
    ta_diags_clear(d);
    assert_int_equal(ta_native_load_path("/dev/zero", NULL, &f, d), TA_ERR_IO);
    assert_null(f);
    assert_int_equal(ta_diags_count(d), 1);
    assert_string_equal(ta_diags_get(d, 0)->rule, "io");
    assert_non_null(strstr(ta_diags_get(d, 0)->message, "larger than"));
    ta_diags_destroy(d);
}

/* Three views with strides of 4,000,000, 64 MB of storage each: the case
 * is rejected before anything is allocated (16 of them made a gigabyte,
 * snapshots aside); a view of that stride alone still builds. */
static void sample_storage_cap(void **state)
{
    (void)state;
    static const char *const text =
        "{\"aten::cat\": [{\"tensors\": ["
        "{\"shape\": [2, 2, 2, 2], \"strides\": [4000000, 4000000, 4000000, 4000000]}, "
        "{\"shape\": [2, 2, 2, 2], \"strides\": [4000000, 4000000, 4000000, 4000000]}, "
        "{\"shape\": [2, 2, 2, 2], \"strides\": [4000000, 4000000, 4000000, 4000000]}]}, "
        "{\"tensors\": [{\"shape\": [2, 2], \"strides\": [4000000, 1]}]}]}";
    static const char *const schema = "aten::cat(Tensor[] tensors, int dim=0) -> Tensor";
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_schema *s = NULL;
    ta_decl *decl = NULL;
    ta_samples *sm = NULL;
    assert_int_equal(ta_schema_parse(a, schema, strlen(schema), NULL, &s, d), TA_OK);
    assert_int_equal(ta_decl_build(a, s, &decl), TA_OK);
    assert_int_equal(ta_samples_load_buffer(text, strlen(text), "huge.json", &sm, d), TA_OK);
    ta_exec *x;
    assert_int_equal(ta_exec_create(NULL, &x), TA_OK);
    ta_case *c = calloc(1, sizeof *c);
    assert_true(x && c);
    assert_int_equal(ta_samples_build(sm, "aten::cat", 0, x, s, decl, c), TA_ERR_INVALID);
    assert_non_null(strstr(c->note, "a case may span"));
    ta_exec_reset(x);
    memset(c, 0, sizeof *c);
    assert_int_equal(ta_samples_build(sm, "aten::cat", 1, x, s, decl, c), TA_OK);
    ta_exec_destroy(x);
    free(c);
    ta_samples_destroy(sm);
    ta_diags_destroy(d);
    ta_arena_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(deep_nesting),
        cmocka_unit_test(long_entry),
        cmocka_unit_test(long_name),
        cmocka_unit_test(input_limit),
        cmocka_unit_test(sample_storage_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
