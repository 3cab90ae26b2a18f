/* test_schema_golden.c - the parser against PyTorch's own data.
 *
 * 1. Every schema torch 1.13.1 registers (registered-schemas.txt) parses,
 *    prints back byte for byte, and prints canonically as torch printed it.
 * 2. Every "- func:" of both native_functions.yaml corpora parses and prints
 *    back as written.
 * 3. For every registered schema, name, overload and per argument / return
 *    name, alias (before, after, write), kwarg_only and is_out equal what
 *    torch itself reported (schema-alias.jsonl). torch keeps alias sets in
 *    a hash set, so sets compare as sets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "support/testdata.h"
#include "tensoralias/schema.h"

#define REGISTERED "golden/torch-1.13.1/registered-schemas.txt"
#define ALIASES "golden/torch-1.13.1/schema-alias.jsonl"

static void test_registered_round_trip(void **state)
{
    (void)state;
    size_t len, n;
    char *buf = ta_test_read_data(REGISTERED, &len);
    assert_non_null(buf);
    size_t *lens;
    char **lines = ta_test_lines(buf, len, &n, &lens);
    assert_int_equal(n, 4165);
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    char out[8192];
    size_t bad_parse = 0, bad_print = 0, bad_canon = 0;
    for (size_t i = 0; i < n; i++) {
        ta_schema *s;
        if (ta_schema_parse(a, lines[i], lens[i], NULL, &s, d) != TA_OK) {
            if (bad_parse++ < 5)
                fprintf(stderr, "line %zu does not parse: %s\n  %s\n", i + 1,
                        ta_diags_get(d, 0)->message, lines[i]);
            ta_diags_clear(d);
            continue;
        }
        assert_int_equal(ta_diags_count(d), 0);
        size_t k = ta_schema_print(s, out, sizeof out);
        if (k != lens[i] || memcmp(out, lines[i], k) != 0) {
            if (bad_print++ < 5) fprintf(stderr, "print differs:\n  %s\n  %s\n", lines[i], out);
        }
        k = ta_schema_print_canonical(s, out, sizeof out);
        if (k != lens[i] || memcmp(out, lines[i], k) != 0) {
            if (bad_canon++ < 5)
                fprintf(stderr, "canonical print differs:\n  %s\n  %s\n", lines[i], out);
        }
        ta_arena_reset(a);
    }
    fprintf(stderr, "registered: %zu schemas, %zu do not parse, %zu print differently, "
                    "%zu print differently in canonical form\n",
            n, bad_parse, bad_print, bad_canon);
    assert_int_equal(bad_parse, 0);
    assert_int_equal(bad_print, 0);
    assert_int_equal(bad_canon, 0);
    ta_arena_destroy(a);
    ta_diags_destroy(d);
    free(lines);
    free(lens);
    free(buf);
}

static void corpus_funcs(const char *rel, size_t expect_at_least)
{
    size_t len, n;
    char *buf = ta_test_read_data(rel, &len);
    assert_non_null(buf);
    size_t *lens;
    char **lines = ta_test_lines(buf, len, &n, &lens);
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    char out[8192];
    size_t funcs = 0, bad = 0;
    for (size_t i = 0; i < n; i++) {
        static const char prefix[] = "- func: ";
        if (strncmp(lines[i], prefix, sizeof prefix - 1) != 0) continue;
        const char *f = lines[i] + sizeof prefix - 1;
        size_t fl = lens[i] - (sizeof prefix - 1);
        while (fl && (f[fl - 1] == ' ' || f[fl - 1] == '\r')) fl--;
        funcs++;
        ta_parse_opts o = {rel, (uint32_t)i + 1, sizeof prefix};
        ta_schema *s;
        if (ta_schema_parse(a, f, fl, &o, &s, d) != TA_OK) {
            const ta_diag *g = ta_diags_get(d, 0);
            if (bad++ < 5)
                fprintf(stderr, "%s:%u:%u: %s\n", g->source, g->line, g->col, g->message);
            ta_diags_clear(d);
            continue;
        }
        size_t k = ta_schema_print(s, out, sizeof out);
        if (k != fl || memcmp(out, f, fl) != 0) {
            if (bad++ < 5) fprintf(stderr, "print differs: %.*s\n", (int)fl, f);
        }
        ta_arena_reset(a);
    }
    fprintf(stderr, "%s: %zu func entries, %zu failures\n", rel, funcs, bad);
    assert_true(funcs >= expect_at_least);
    assert_int_equal(bad, 0);
    ta_arena_destroy(a);
    ta_diags_destroy(d);
    free(lines);
    free(lens);
    free(buf);
}

static void test_corpus_1_13_1(void **state)
{
    (void)state;
    corpus_funcs("corpus/pytorch-1.13.1/native_functions.yaml", 2000);
}

static void test_corpus_main(void **state)
{
    (void)state;
    corpus_funcs("corpus/pytorch-main/native_functions.yaml", 2000);
}

/* ---- torch's parse, slot by slot -------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Compares a JSON array of set names with our views, as sets. */
static bool same_set(json_t *arr, const ta_str *v, uint32_t n)
{
    if (!json_is_array(arr) || json_array_size(arr) != n) return false;
    char *ours[64], *theirs[64];
    if (n > 64) return false;
    for (uint32_t i = 0; i < n; i++) {
        ours[i] = strndup(v[i].ptr, v[i].len);
        theirs[i] = (char *)json_string_value(json_array_get(arr, i));
        if (!theirs[i]) theirs[i] = "";
    }
    qsort(ours, n, sizeof *ours, cmp_str);
    qsort(theirs, n, sizeof *theirs, cmp_str);
    bool same = true;
    for (uint32_t i = 0; i < n; i++) {
        same = same && strcmp(ours[i], theirs[i]) == 0;
        free(ours[i]);
    }
    return same;
}

static bool same_alias(json_t *j, const ta_type *t)
{
    ta_alias_view v;
    ta_type_alias_view(t, &v);
    if (json_is_null(j)) return !v.present;
    if (!json_is_object(j) || !v.present) return false;
    if (json_is_true(json_object_get(j, "write")) != v.write) return false;
    if (v.set)
        return same_set(json_object_get(j, "before"), v.set->before, v.set->nbefore) &&
               same_set(json_object_get(j, "after"), v.set->after, v.set->nafter);
    return same_set(json_object_get(j, "before"), NULL, 0) &&
           same_set(json_object_get(j, "after"), NULL, 0);
}

static bool str_is(json_t *j, ta_str v)
{
    const char *s = json_string_value(j);
    return s && strlen(s) == v.len && (v.len == 0 || memcmp(s, v.ptr, v.len) == 0);
}

/* Returns a description of the first difference, or NULL. */
static const char *compare(json_t *g, const ta_schema *s)
{
    if (!str_is(json_object_get(g, "name"), s->full_name)) return "name";
    if (!str_is(json_object_get(g, "overload"), s->overload)) return "overload";
    json_t *args = json_object_get(g, "args"), *rets = json_object_get(g, "returns");
    if (json_array_size(args) != s->nargs) return "argument count";
    if (json_array_size(rets) != s->nrets) return "return count";
    for (uint32_t i = 0; i < s->nargs; i++) {
        json_t *a = json_array_get(args, i);
        if (!str_is(json_object_get(a, "name"), s->args[i].name)) return "argument name";
        if (!same_alias(json_object_get(a, "alias"), s->args[i].type)) return "argument alias";
        if (json_is_true(json_object_get(a, "kwarg_only")) != s->args[i].kwarg_only)
            return "kwarg_only";
        if (json_is_true(json_object_get(a, "is_out")) != s->args[i].is_out) return "is_out";
    }
    for (uint32_t i = 0; i < s->nrets; i++) {
        json_t *r = json_array_get(rets, i);
        if (!str_is(json_object_get(r, "name"), s->rets[i].name)) return "return name";
        if (!same_alias(json_object_get(r, "alias"), s->rets[i].type)) return "return alias";
    }
    return NULL;
}

static void test_schema_alias_golden(void **state)
{
    (void)state;
    size_t n = 0;
    json_t **rows = ta_test_read_jsonl(ALIASES, &n);
    assert_non_null(rows);
    assert_int_equal(n, 4165);
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    size_t mismatches = 0, slots = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *g = rows[i];
        const char *text = json_string_value(json_object_get(g, "schema"));
        assert_non_null(text);
        ta_schema *s;
        assert_int_equal(ta_schema_parse(a, text, strlen(text), NULL, &s, d), TA_OK);
        slots += s->nargs + s->nrets;
        const char *what = compare(g, s);
        if (what && mismatches++ < 10)
            fprintf(stderr, "line %zu: %s differs: %s\n", i + 1, what, text);
        ta_arena_reset(a);
    }
    fprintf(stderr, "schema-alias.jsonl: %zu schemas, %zu argument/return slots, "
                    "%zu mismatches\n", n, slots, mismatches);
    assert_int_equal(mismatches, 0);
    ta_arena_destroy(a);
    ta_diags_destroy(d);
    ta_test_free_jsonl(rows, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registered_round_trip),
        cmocka_unit_test(test_corpus_1_13_1),
        cmocka_unit_test(test_corpus_main),
        cmocka_unit_test(test_schema_alias_golden),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
