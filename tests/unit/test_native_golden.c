/* test_native_golden.c - the loader against torchgen 1.13.1: for every
 * non-generated row of torchgen-functions.jsonl, the entry at the same
 * position in yaml order must have the same line, func, name, variants,
 * tags, autogen, structured, structured_delegate, manual_cpp_binding and
 * composite-kernel flags. Mismatches are counted, the first few printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "tensoralias/native.h"

static const char *build_dir(void)
{
    const char *b = getenv("BUILD");
    return b && *b ? b : "build";
}

static int mismatches;

static void mismatch(const json_t *row, const char *field, const char *want, const char *got)
{
    if (mismatches++ < 10)
        fprintf(stderr, "line %lld %s: %s: torchgen %s, ours %s\n",
                (long long)json_integer_value(json_object_get(row, "line")),
                json_string_value(json_object_get(row, "name")), field, want, got);
}

static void check_str(const json_t *row, const char *field, const char *got)
{
    const json_t *v = json_object_get(row, field);
    const char *want = json_is_string(v) ? json_string_value(v) : NULL;
    if ((want == NULL) != (got == NULL) || (want && strcmp(want, got)))
        mismatch(row, field, want ? want : "null", got ? got : "null");
}

static void check_bool(const json_t *row, const char *field, bool got)
{
    const json_t *v = json_object_get(row, field);
    if (!json_is_boolean(v) || json_is_true(v) != got)
        mismatch(row, field, json_is_true(v) ? "true" : "false", got ? "true" : "false");
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Compares a JSON list of strings with ours (sorted when torchgen holds a set). */
static void check_list(const json_t *row, const char *field, const char **got, size_t n, bool sort)
{
    if (sort) qsort(got, n, sizeof *got, cmp_str);
    const json_t *v = json_object_get(row, field);
    char want[512] = "", ours[512] = "";
    for (size_t i = 0; i < json_array_size(v); i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", i ? "," : "",
                 json_string_value(json_array_get(v, i)));
    for (size_t i = 0; i < n; i++)
        snprintf(ours + strlen(ours), sizeof ours - strlen(ours), "%s%s", i ? "," : "", got[i]);
    if (strcmp(want, ours)) mismatch(row, field, want, ours);
}

static void golden_functions(void **state)
{
    (void)state;
    char yaml[512], tags[512], golden[512];
    snprintf(yaml, sizeof yaml, "%s/data/corpus/pytorch-1.13.1/native_functions.yaml", build_dir());
    snprintf(tags, sizeof tags, "tests/data/corpus/pytorch-1.13.1/tags.yaml");
    snprintf(golden, sizeof golden, "%s/data/golden/torch-1.13.1/torchgen-functions.jsonl", build_dir());

    ta_diags *d = ta_diags_create();
    ta_native_file *f = NULL;
    ta_status st = ta_native_load_path(yaml, tags, &f, d);
    for (size_t i = 0; i < ta_diags_count(d) && i < 5; i++) ta_diag_render(ta_diags_get(d, i), stderr);
    assert_int_equal(st, TA_OK);
    assert_non_null(f);
    assert_int_equal(ta_diags_count(d), 0);

    FILE *g = fopen(golden, "r");
    assert_non_null(g);
    char *line = NULL;
    size_t cap = 0, rows = 0, pos = 0;
    mismatches = 0;
    while (getline(&line, &cap, g) > 0) {
        json_error_t err;
        json_t *row = json_loads(line, 0, &err);
        assert_non_null(row);
        if (json_is_true(json_object_get(row, "generated"))) {
            json_decref(row);
            continue;
        }
        rows++;
        const ta_native_func *fn = ta_native_get(f, pos++);
        if (!fn) {
            mismatch(row, "entry", "present", "missing");
            json_decref(row);
            continue;
        }
        long long want_line = json_integer_value(json_object_get(row, "line"));
        if (want_line != fn->pos.line) {
            char w[32], o[32];
            snprintf(w, sizeof w, "%lld", want_line);
            snprintf(o, sizeof o, "%u", fn->pos.line);
            mismatch(row, "line", w, o);
        }
        check_str(row, "func", fn->func.s);
        check_str(row, "name", fn->name);
        check_str(row, "structured_delegate", fn->structured_delegate.s);
        check_bool(row, "structured", fn->structured);
        check_bool(row, "manual_cpp_binding", fn->manual_cpp_binding);
        check_bool(row, "has_composite_implicit_autograd_kernel",
                   fn->has_composite_implicit_autograd_kernel);
        check_bool(row, "has_composite_explicit_autograd_kernel",
                   fn->has_composite_explicit_autograd_kernel);
        const char *list[64];
        size_t n = 0;
        if (fn->variants & TA_VARIANT_FUNCTION) list[n++] = "function";
        if (fn->variants & TA_VARIANT_METHOD) list[n++] = "method";
        check_list(row, "variants", list, n, false);
        n = 0;
        for (uint32_t i = 0; i < fn->ntags && n < 64; i++) list[n++] = fn->tags[i].s;
        check_list(row, "tags", list, n, true);
        n = 0;
        for (uint32_t i = 0; i < fn->nautogen && n < 64; i++) list[n++] = fn->autogen[i].s;
        check_list(row, "autogen", list, n, false);
        /* ta_native_find must return this very entry by its name. */
        char full[300];
        snprintf(full, sizeof full, "aten::%s", fn->name);
        if (ta_native_find(f, fn->name) != fn || ta_native_find(f, full) != fn)
            mismatch(row, "find", "itself", "another entry");
        json_decref(row);
    }
    free(line);
    fclose(g);
    fprintf(stderr, "%zu rows compared, %d mismatches\n", rows, mismatches);
    assert_int_equal(rows, 2493);
    assert_int_equal(ta_native_count(f), rows);
    assert_int_equal(mismatches, 0);
    ta_native_destroy(f);
    ta_diags_destroy(d);
}

/* Both corpora load and pass the built-in checks with no diagnostic at all. */
static void corpus_clean(const char *name)
{
    char yaml[512], tags[512];
    snprintf(yaml, sizeof yaml, "%s/data/corpus/%s/native_functions.yaml", build_dir(), name);
    snprintf(tags, sizeof tags, "tests/data/corpus/%s/tags.yaml", name);
    ta_diags *d = ta_diags_create();
    ta_native_file *f = NULL;
    assert_int_equal(ta_native_load_path(yaml, tags, &f, d), TA_OK);
    assert_int_equal(ta_native_check(f, d), TA_OK);
    for (size_t i = 0; i < ta_diags_count(d) && i < 10; i++) ta_diag_render(ta_diags_get(d, i), stderr);
    assert_int_equal(ta_diags_count(d), 0);
    assert_true(ta_native_count(f) > 2000);
    assert_true(ta_native_has_tag_set(f));
    ta_native_destroy(f);
    ta_diags_destroy(d);
}

static void corpus_1_13_1_clean(void **state)
{
    (void)state;
    corpus_clean("pytorch-1.13.1");
}

static void corpus_main_clean(void **state)
{
    (void)state;
    corpus_clean("pytorch-main");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(golden_functions),
        cmocka_unit_test(corpus_1_13_1_clean),
        cmocka_unit_test(corpus_main_clean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
