/* test_extract_corpus.c - the custom-operator rules on real schemas.
 *
 * tests/data/extract/custom-corpus.tsv holds schemas of public extension
 * libraries (vLLM, sgl-kernel, FBGEMM, xformers, flash-attention, ...) with
 * the rules tensoralias reports for each and the verdict from reading the
 * kernel behind it. This test holds the rules to exactly those findings,
 * so a change in the name tables shows up here as a changed verdict to
 * review, and prints the precision the table records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/testdata.h"
#include "tensoralias/alias.h"

/* The custom-* rule ids s reports, sorted and comma-separated ("clean"). */
static void rules_of(ta_arena *a, const char *schema, char *out, size_t cap)
{
    ta_schema *s = NULL;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_schema_parse(a, schema, strlen(schema), NULL, &s, d), TA_OK);
    assert_int_equal(ta_alias_check_custom(s, d), TA_OK);
    const char *ids[16];
    size_t n = 0;
    for (size_t i = 0; i < ta_diags_count(d) && n < 16; i++) {
        const char *r = ta_diags_get(d, i)->rule;
        bool seen = strncmp(r, "custom-", 7) != 0;
        for (size_t k = 0; k < n && !seen; k++) seen = !strcmp(ids[k], r);
        if (!seen) ids[n++] = r;
    }
    for (size_t i = 1; i < n; i++) /* insertion sort: a handful at most */
        for (size_t k = i; k > 0 && strcmp(ids[k - 1], ids[k]) > 0; k--) {
            const char *t = ids[k];
            ids[k] = ids[k - 1];
            ids[k - 1] = t;
        }
    out[0] = '\0';
    size_t len = 0;
    for (size_t i = 0; i < n; i++) len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? "," : "", ids[i]);
    if (!n) snprintf(out, cap, "clean");
    ta_diags_destroy(d);
}

static void corpus_verdicts(void **state)
{
    (void)state;
    size_t len;
    char *buf = ta_test_read_file("tests/data/extract/custom-corpus.tsv", &len);
    assert_non_null(buf);
    size_t nlines;
    char **lines = ta_test_lines(buf, len, &nlines, NULL);
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    size_t rows = 0, mismatches = 0, real = 0, intended = 0, noise = 0, clean = 0, missed = 0;
    for (size_t i = 0; i < nlines; i++) {
        if (!lines[i][0] || lines[i][0] == '#') continue;
        char *f[6];
        char *p = lines[i];
        for (int k = 0; k < 6; k++) {
            f[k] = p;
            char *tab = k < 5 ? strchr(p, '\t') : NULL;
            if (k < 5) {
                assert_non_null(tab);
                *tab = '\0';
                p = tab + 1;
            }
        }
        char got[256];
        rules_of(a, f[5], got, sizeof got);
        if (strcmp(got, f[3])) {
            print_error("%s %s: expected %s, got %s\n  %s\n", f[0], f[2], f[3], got, f[5]);
            mismatches++;
        }
        rows++;
        real += !strcmp(f[4], "real");
        intended += !strcmp(f[4], "intended");
        noise += !strcmp(f[4], "noise");
        clean += !strcmp(f[4], "clean");
        missed += !strcmp(f[4], "missed");
        ta_arena_reset(a);
    }
    print_message("%zu operators: %zu with findings judged real, %zu intended, %zu noise; %zu clean, %zu missed\n",
                  rows, real, intended, noise, clean, missed);
    assert_int_equal(mismatches, 0);
    assert_true(rows >= 60);
    assert_int_equal(real + intended + noise + clean + missed, rows);
    /* the gate stays on: noise is a small part of what it reports */
    assert_true(noise * 10 <= real + intended + noise);
    ta_arena_destroy(a);
    free(lines);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(corpus_verdicts)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
