/* test_tg_signature_text.c - the fast paths of the family model give the
 * same text as the straightforward ones, on every schema of both corpora
 * (PyTorch 1.13.1 and main):
 *   - tg_print_signature(s, flags) equals the text of the schema
 *     ta_schema_signature(s, flags) builds, for all eight flag combinations;
 *   - tg_print_schema of a derived function equals its schema's own text,
 *     which ta_tg_function.func reuses (and the model's func equals
 *     ta_schema_print_torchgen for every function, yaml or derived);
 *   - every function's name is tg_print_name of its schema (the yaml ones
 *     take the loader's name).
 * Mismatches are counted (the first few printed) and must be zero. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "alias/torchgen/internal.h"
#include "support/testdata.h"
#include "tensoralias/native.h"
#include "tensoralias/torchgen.h"

static ta_native_file *load(const char *corpus)
{
    char rel[256];
    snprintf(rel, sizeof rel, "corpus/%s/native_functions.yaml", corpus);
    size_t len;
    char *text = ta_test_read_data(rel, &len);
    assert_non_null(text);
    ta_native_file *f = NULL;
    ta_native_load_buffer(text, len, rel, NULL, 0, NULL, &f, NULL);
    free(text);
    assert_non_null(f);
    return f;
}

static int mismatch(int *n, const char *what, const char *want, const char *got)
{
    if ((*n)++ < 5) fprintf(stderr, "%s:\n  want %s\n  got  %s\n", what, want, got);
    return 0;
}

static void check_corpus(const char *corpus)
{
    ta_native_file *f = load(corpus);
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    int bad = 0;
    size_t checked = 0;
    for (size_t i = 0; i < ta_native_count(f); i++) {
        const ta_schema *s = ta_native_get(f, i)->schema;
        if (!s) continue;
        for (unsigned flags = 0; flags < 8; flags++) {
            ta_schema *sig;
            assert_int_equal(ta_schema_signature(a, s, flags, &sig), TA_OK);
            ta_strbuf b = {0};
            tg_print_signature(&b, s, flags);
            assert_false(b.failed);
            if (strcmp(sig->text, b.p ? b.p : "")) mismatch(&bad, s->text, sig->text, b.p);
            ta_strbuf_free(&b);
            checked++;
        }
    }
    ta_torchgen *tg = NULL;
    assert_int_equal(ta_torchgen_from_native(f, &tg, NULL), TA_OK);
    size_t nderived = 0;
    for (size_t i = 0; i < ta_torchgen_count(tg); i++) {
        const ta_tg_function *fn = ta_torchgen_get(tg, i);
        char buf[4096];
        assert_true(ta_schema_print_torchgen(fn->schema, buf, sizeof buf) < sizeof buf);
        if (strcmp(buf, fn->func)) mismatch(&bad, fn->name, buf, fn->func);
        ta_strbuf nb = {0};
        tg_print_name(&nb, fn->schema);
        assert_false(nb.failed);
        if (strcmp(nb.p, fn->name)) mismatch(&bad, "name", nb.p, fn->name);
        ta_strbuf_free(&nb);
        if (fn->generated) {
            nderived++;
            if (strcmp(buf, fn->schema->text)) mismatch(&bad, fn->name, buf, fn->schema->text);
        }
    }
    fprintf(stderr, "%s: %zu signatures, %zu functions (%zu derived), %d mismatches\n", corpus,
            checked, ta_torchgen_count(tg), nderived, bad);
    assert_true(checked > 8 * 2000);
    assert_true(nderived > 400);
    assert_int_equal(bad, 0);
    ta_torchgen_destroy(tg);
    ta_arena_destroy(a);
    ta_native_destroy(f);
}

static void test_corpus_1_13_1(void **state)
{
    (void)state;
    check_corpus("pytorch-1.13.1");
}

static void test_corpus_main(void **state)
{
    (void)state;
    check_corpus("pytorch-main");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_1_13_1),
        cmocka_unit_test(test_corpus_main),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
