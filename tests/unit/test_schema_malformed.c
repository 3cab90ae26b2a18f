/* test_schema_malformed.c - every malformed schema gets exactly one
 * positioned diagnostic, and nothing crashes, hangs or recurses without
 * bound on hostile input.
 *
 * tests/data/malformed-schemas.txt lists "COLUMN SCHEMA" lines; each schema
 * is parsed as if it sat at that line of a file, after an 8-byte prefix, so
 * the test also checks that the caller's line and column are applied. The
 * rest are cases a text file cannot hold or that are generated: line breaks,
 * NUL and non-UTF-8 bytes, 20,000 nested brackets, a 100,000-byte name,
 * 20,000 arguments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/testdata.h"
#include "tensoralias/schema.h"

#define MALFORMED "tests/data/malformed-schemas.txt"

/* Parses text expecting failure; returns the single diagnostic (valid until
 * the next call). */
static const ta_diag *expect_error(ta_arena *a, ta_diags *d, const char *text, size_t len,
                                   const ta_parse_opts *o)
{
    ta_diags_clear(d);
    ta_schema *s = (ta_schema *)1;
    ta_status st = ta_schema_parse(a, text, len, o, &s, d);
    if (st != TA_ERR_PARSE) fprintf(stderr, "accepted or odd status %d: %.*s\n", st, (int)(len > 200 ? 200 : len), text);
    assert_int_equal(st, TA_ERR_PARSE);
    assert_null(s);
    assert_int_equal(ta_diags_count(d), 1);
    const ta_diag *g = ta_diags_get(d, 0);
    assert_int_equal(g->severity, TA_SEV_ERROR);
    assert_string_equal(g->rule, "schema-syntax");
    assert_true(g->length >= 1);
    assert_non_null(g->message);
    assert_true(strlen(g->message) > 0);
    assert_null(strchr(g->message, '\n'));
    return g;
}

static void test_malformed_file(void **state)
{
    (void)state;
    size_t len = 0;
    char *buf = ta_test_read_file(MALFORMED, &len);
    assert_non_null(buf);
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    size_t count = 0, wrong_col = 0;
    uint32_t lineno = 0;
    for (char *line = buf, *end; line < buf + len; line = end + 1) {
        end = memchr(line, '\n', (size_t)(buf + len - line));
        if (!end) end = buf + len;
        lineno++;
        if (end == line || line[0] == '#') continue;
        char *sp = memchr(line, ' ', (size_t)(end - line));
        assert_non_null(sp);
        uint32_t want = (uint32_t)strtoul(line, NULL, 10);
        const char *schema = sp + 1;
        size_t slen = (size_t)(end - schema);
        /* As if the schema followed "- func: " on line lineno of a yaml file. */
        ta_parse_opts o = {"malformed.yaml", lineno, 9};
        const ta_diag *g = expect_error(a, d, schema, slen, &o);
        assert_string_equal(g->source, "malformed.yaml");
        assert_int_equal(g->line, lineno);
        assert_true(g->col >= 9 && g->col <= 9 + slen);
        assert_non_null(g->source_line);
        /* The line itself, or of a long one an excerpt of it around the column. */
        size_t shown = strlen(g->source_line);
        if (slen <= TA_DIAG_LINE_MAX) {
            assert_int_equal(shown, slen);
        } else {
            assert_true(shown <= TA_DIAG_LINE_MAX && g->line_skipped + shown <= slen);
            assert_memory_equal(g->source_line, schema + g->line_skipped, shown);
            assert_true(g->col - 9 >= g->line_skipped && g->col - 9 <= g->line_skipped + shown);
        }
        if (g->col - 8 != want && wrong_col++ < 10)
            fprintf(stderr, "line %u: column %u, expected %u: %s\n  %.*s\n", lineno,
                    g->col - 8, want, g->message, (int)slen, schema);
        count++;
        ta_arena_reset(a);
    }
    fprintf(stderr, "%zu malformed schemas, %zu at an unexpected column\n", count, wrong_col);
    assert_true(count >= 250);
    assert_int_equal(wrong_col, 0);
    ta_arena_destroy(a);
    ta_diags_destroy(d);
    free(buf);
}

/* A few diagnostics spelled out in full. */
static void test_samples(void **state)
{
    (void)state;
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    const char *s = "foo(int x int y) -> ()";
    const ta_diag *g = expect_error(a, d, s, strlen(s), NULL);
    assert_string_equal(g->source, "<string>");
    assert_int_equal(g->line, 1);
    assert_int_equal(g->col, 11);
    assert_int_equal(g->length, 3);
    assert_string_equal(g->message, "expected ',' or ')' after an argument, found 'int'");
    assert_string_equal(g->source_line, s);

    s = "aten::add_.Tensor(Tensor(a! self, Tensor other) -> Tensor(a!)";
    ta_parse_opts o = {"native_functions.yaml", 40, 9};
    g = expect_error(a, d, s, strlen(s), &o);
    assert_int_equal(g->line, 40);
    assert_int_equal(g->col, 9 + 28);
    assert_string_equal(g->message, "expected ')' to close the alias annotation, found 'self'");

    s = "f(Tensor(*|a) x) -> ()";
    g = expect_error(a, d, s, strlen(s), NULL);
    assert_int_equal(g->col, 12);
    assert_non_null(strstr(g->message, "wildcard"));

    s = "f(int x=1, int y) -> ()"; /* torch 1.13.1 crashes on this one */
    g = expect_error(a, d, s, strlen(s), NULL);
    assert_int_equal(g->col, 12);
    assert_int_equal(g->length, 5);

    s = "";
    g = expect_error(a, d, s, 0, NULL);
    assert_string_equal(g->message, "empty schema");
    g = expect_error(a, d, NULL, 0, NULL);
    assert_string_equal(g->message, "empty schema");

    ta_arena_destroy(a);
    ta_diags_destroy(d);
}

/* Line breaks: inside brackets they are blanks, outside they end the
 * schema (torch's lexer); positions count lines within the schema. */
static void test_line_breaks(void **state)
{
    (void)state;
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_parse_opts o = {"x.yaml", 10, 5};
    const char *s = "foo(int x,\n    int $y) -> ()";
    const ta_diag *g = expect_error(a, d, s, strlen(s), &o);
    assert_int_equal(g->line, 11);
    assert_int_equal(g->col, 9); /* columns restart on a new line */
    assert_string_equal(g->source_line, "    int $y) -> ()");
    assert_string_equal(g->message, "unexpected character '$'");

    s = "foo(int x)\n -> ()";
    g = expect_error(a, d, s, strlen(s), &o);
    assert_int_equal(g->line, 10);
    assert_non_null(strstr(g->message, "line break"));

    ta_schema *sch;
    s = "foo(int x,\n    int y) -> ()\n";
    assert_int_equal(ta_schema_parse(a, s, strlen(s), &o, &sch, d), TA_OK);
    assert_int_equal(sch->nargs, 2);
    uint32_t line, col;
    ta_schema_locate(sch, sch->args[1].span.off, &line, &col);
    assert_int_equal(line, 11);
    assert_int_equal(col, 5);
    ta_schema_locate(sch, sch->args[0].span.off, &line, &col);
    assert_int_equal(line, 10);
    assert_int_equal(col, 5 + 4);
    ta_arena_destroy(a);
    ta_diags_destroy(d);
}

static void test_bytes(void **state)
{
    (void)state;
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    static const char nul[] = "foo(int\0 x) -> ()";
    const ta_diag *g = expect_error(a, d, nul, sizeof nul - 1, NULL);
    assert_int_equal(g->col, 8);
    assert_string_equal(g->message, "unexpected character '\\x00'");
    assert_int_equal(strlen(g->source_line), sizeof nul - 1); /* NUL shown as a blank */
    static const char ff[] = "foo(int x) -> ()\xff";
    g = expect_error(a, d, ff, sizeof ff - 1, NULL);
    assert_int_equal(g->col, 17);
    /* A text that is not NUL-terminated: only len bytes are read. */
    char *heap = malloc(9);
    memcpy(heap, "f() -> ()", 9);
    ta_schema *s;
    assert_int_equal(ta_schema_parse(a, heap, 9, NULL, &s, d), TA_OK);
    g = expect_error(a, d, heap, 7, NULL);
    free(heap);
    ta_arena_destroy(a);
    ta_diags_destroy(d);
}

/* Text made of a head, n copies of a unit, and a tail. */
static char *repeat(const char *head, const char *unit, int n, const char *tail, size_t *len)
{
    size_t h = strlen(head), u = strlen(unit), t = strlen(tail);
    *len = h + u * (size_t)n + t;
    char *b = malloc(*len + 1), *p = b;
    memcpy(p, head, h);
    p += h;
    for (int i = 0; i < n; i++, p += u) memcpy(p, unit, u);
    memcpy(p, tail, t + 1);
    return b;
}

static void test_deep_nesting(void **state)
{
    (void)state;
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    static const char *const units[] = {"(", "Future(", "Dict(str, ", "Union(", "RRef(", NULL};
    for (int i = 0; units[i]; i++) {
        size_t len;
        char *s = repeat("f(", units[i], 20000, "int x) -> ()", &len);
        const ta_diag *g = expect_error(a, d, s, len, NULL);
        assert_non_null(strstr(g->message, "nested deeper than"));
        free(s);
        s = repeat("f(int x) -> ", units[i], 20000, "", &len);
        g = expect_error(a, d, s, len, NULL);
        free(s);
    }
    size_t len;
    char *s = repeat("f(Tensor", "[]", 20000, " x) -> ()", &len);
    const ta_diag *g = expect_error(a, d, s, len, NULL);
    assert_non_null(strstr(g->message, "nested deeper than"));
    free(s);
    s = repeat("f(Tensor", "?", 20000, " x) -> ()", &len);
    expect_error(a, d, s, len, NULL);
    free(s);
    s = repeat("f(int[] x=", "[", 20000, ") -> ()", &len);
    expect_error(a, d, s, len, NULL);
    free(s);
    s = repeat("f(Tensor", "(", 20000, " x) -> ()", &len);
    expect_error(a, d, s, len, NULL);
    free(s);
    s = repeat("f(int x) -> ", "(", 20000, "", &len);
    expect_error(a, d, s, len, NULL);
    free(s);
    /* Just under the cap still parses. */
    s = repeat("f(", "(", 200, "int", &len);
    char *full = malloc(len + 300 + 20);
    memcpy(full, s, len);
    for (int i = 0; i < 200; i++) full[len + (size_t)i] = ')';
    strcpy(full + len + 200, " x) -> ()");
    ta_schema *sch;
    assert_int_equal(ta_schema_parse(a, full, strlen(full), NULL, &sch, d), TA_OK);
    char *out = malloc(strlen(full) + 1);
    assert_int_equal(ta_schema_print(sch, out, strlen(full) + 1), strlen(full));
    assert_string_equal(out, full);
    free(out);
    free(full);
    free(s);
    ta_arena_destroy(a);
    ta_diags_destroy(d);
}

static void test_huge(void **state)
{
    (void)state;
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_schema *s;
    size_t len;
    /* a 100,000-character operator name parses */
    char *t = repeat("", "n", 100000, "(int x) -> ()", &len);
    assert_int_equal(ta_schema_parse(a, t, len, NULL, &s, d), TA_OK);
    assert_int_equal(s->name.len, 100000);
    free(t);
    /* a 100,000-character unknown type is one diagnostic, message kept short */
    t = repeat("f(", "T", 100000, " x) -> ()", &len);
    const ta_diag *g = expect_error(a, d, t, len, NULL);
    assert_int_equal(g->col, 3);
    assert_int_equal(g->length, 100000);
    assert_true(strlen(g->message) < 200);
    free(t);
    /* 20,000 arguments and 20,000 returns */
    t = repeat("f(int a0", ", int a", 19999, ") -> (", &len);
    char *big = malloc(len + 20000 * 8 + 16);
    memcpy(big, t, len);
    size_t k = len;
    for (int i = 0; i < 20000; i++) k += (size_t)sprintf(big + k, i ? ", Tensor" : "Tensor");
    strcpy(big + k, ")");
    k++;
    assert_int_equal(ta_schema_parse(a, big, k, NULL, &s, d), TA_OK);
    assert_int_equal(s->nargs, 20000);
    assert_int_equal(s->nrets, 20000);
    assert_true(ta_str_eq(s->args[19999].name, "a"));
    char *out = malloc(k + 1);
    assert_int_equal(ta_schema_print(s, out, k + 1), k);
    assert_memory_equal(out, big, k);
    free(out);
    free(big);
    free(t);
    /* 20,000 alias sets in one annotation */
    t = repeat("f(Tensor(a", "|b", 19999, ") x) -> ()", &len);
    assert_int_equal(ta_schema_parse(a, t, len, NULL, &s, d), TA_OK);
    assert_int_equal(s->args[0].type->alias->nbefore, 20000);
    free(t);
    /* 20,000 arguments with a default list of 20,000 elements */
    t = repeat("f(int[] x=[0", ", 1", 19999, "]) -> ()", &len);
    assert_int_equal(ta_schema_parse(a, t, len, NULL, &s, d), TA_OK);
    free(t);
    ta_arena_destroy(a);
    ta_diags_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_malformed_file), cmocka_unit_test(test_samples),
        cmocka_unit_test(test_line_breaks),    cmocka_unit_test(test_bytes),
        cmocka_unit_test(test_deep_nesting),   cmocka_unit_test(test_huge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
