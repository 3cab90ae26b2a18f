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

#include "support/golden.h"
#include "support/testdata.h"
#include "tensoralias/native.h"

static ta_golden G = {.show = 10};

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void golden_functions(void **state)
{
    (void)state;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_native_file *f = NULL;
    ta_status st = ta_test_load_corpus("pytorch-1.13.1", &f, d);
    for (size_t i = 0; i < ta_diags_count(d) && i < 5; i++) ta_diag_render(ta_diags_get(d, i), stderr);
    assert_int_equal(st, TA_OK);
    assert_non_null(f);
    assert_int_equal(ta_diags_count(d), 0);

    size_t ngolden = 0, rows = 0, pos = 0;
    json_t **golden = ta_test_read_jsonl("golden/torch-1.13.1/torchgen-functions.jsonl", &ngolden);
    assert_non_null(golden);
    G.mismatches = 0;
    for (size_t r = 0; r < ngolden; r++) {
        const json_t *row = golden[r];
        if (json_is_true(json_object_get(row, "generated"))) continue;
        rows++;
        const ta_native_func *fn = ta_native_get(f, pos++);
        if (!fn) {
            ta_golden_mismatch(&G, row, "entry", "present", "missing");
            continue;
        }
        long long want_line = json_integer_value(json_object_get(row, "line"));
        if (want_line != fn->pos.line) {
            char w[32], o[32];
            snprintf(w, sizeof w, "%lld", want_line);
            snprintf(o, sizeof o, "%u", fn->pos.line);
            ta_golden_mismatch(&G, row, "line", w, o);
        }
        ta_golden_str(&G, row, "func", fn->func.s);
        ta_golden_str(&G, row, "name", fn->name);
        ta_golden_str(&G, row, "structured_delegate", fn->structured_delegate.s);
        ta_golden_bool(&G, row, "structured", fn->structured);
        ta_golden_bool(&G, row, "manual_cpp_binding", fn->manual_cpp_binding);
        ta_golden_bool(&G, row, "has_composite_implicit_autograd_kernel",
                   fn->has_composite_implicit_autograd_kernel);
        ta_golden_bool(&G, row, "has_composite_explicit_autograd_kernel",
                   fn->has_composite_explicit_autograd_kernel);
        const char *list[64];
        size_t n = 0;
        if (fn->variants & TA_VARIANT_FUNCTION) list[n++] = "function";
        if (fn->variants & TA_VARIANT_METHOD) list[n++] = "method";
        ta_golden_list(&G, row, "variants", list, n);
        n = 0;
        for (uint32_t i = 0; i < fn->ntags && n < 64; i++) list[n++] = fn->tags[i].s;
        qsort(list, n, sizeof *list, cmp_str); /* torchgen holds a set, sorted */
        ta_golden_list(&G, row, "tags", list, n);
        n = 0;
        for (uint32_t i = 0; i < fn->nautogen && n < 64; i++) list[n++] = fn->autogen[i].s;
        ta_golden_list(&G, row, "autogen", list, n);
        /* ta_native_find must return this very entry by its name. */
        char full[300];
        snprintf(full, sizeof full, "aten::%s", fn->name);
        if (ta_native_find(f, fn->name) != fn || ta_native_find(f, full) != fn)
            ta_golden_mismatch(&G, row, "find", "itself", "another entry");
    }
    ta_test_free_jsonl(golden, ngolden);
    fprintf(stderr, "%zu rows compared, %d mismatches\n", rows, G.mismatches);
    assert_int_equal(rows, 2493);
    assert_int_equal(ta_native_count(f), rows);
    assert_int_equal(G.mismatches, 0);
    ta_native_destroy(f);
    ta_diags_destroy(d);
}

/* Both corpora load and pass the built-in checks with no diagnostic at all. */
static void corpus_clean(const char *name)
{
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_native_file *f = NULL;
    assert_int_equal(ta_test_load_corpus(name, &f, d), TA_OK);
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
