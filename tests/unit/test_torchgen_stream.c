/* test_torchgen_stream.c - the streaming torchgen check (ta_torchgen_stream_*) reports
 * exactly what ta_torchgen_check_pass reports on the whole file: the same
 * diagnostics (rule, severity, file, line, column, length, source line,
 * message, hint) in the same order. Inputs: both bundled corpora with their
 * tags.yaml, as they are and with their autogen: lists damaged (so that
 * autogen errors occur by the hundred); every broken yaml of tests/data;
 * the native and autogen fuzz corpora; and tests/data/torchgen-stream, written to hit
 * every rule of the pass (each file's "# expect:" line lists them), also
 * under a late torchgen's tags.yaml.
 *
 * Each entry is handed to the stream as a copy that dies when the add
 * returns: the struct, its name, func, tags and autogen strings, and its
 * schema (parsed again into an arena destroyed at once), so that a stream
 * keeping any of them is caught (under ASan, at once). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "alias/torchgen/internal.h"
#include "support/autogen_damage.h"
#include "support/diags.h"
#include "support/testdata.h"
#include "tensoralias/native.h"
#include "tensoralias/torchgen.h"

static int bad;

static void mismatch(const char *what, const char *want, const char *got)
{
    if (bad++ < 8) fprintf(stderr, "%s:\n  pass   %s\n  stream %s\n", what, want, got);
}

static void same_str(const char *what, const char *a, const char *b)
{
    if ((a == NULL) != (b == NULL) || (a && strcmp(a, b)))
        mismatch(what, a ? a : "(null)", b ? b : "(null)");
}

static void same_int(const char *what, long a, long b)
{
    if (a == b) return;
    char x[32], y[32];
    snprintf(x, sizeof x, "%ld", a);
    snprintf(y, sizeof y, "%ld", b);
    mismatch(what, x, y);
}

static void same_diag(const ta_diag *a, const ta_diag *b)
{
    same_str("rule", a->rule, b->rule);
    same_int("severity", a->severity, b->severity);
    same_str("file", a->source, b->source);
    same_int("line", a->line, b->line);
    same_int("col", a->col, b->col);
    same_int("length", a->length, b->length);
    same_str("source line", a->source_line, b->source_line);
    same_int("line skipped", a->line_skipped, b->line_skipped);
    same_int("line cut", a->line_cut, b->line_cut);
    same_str("message", a->message, b->message);
    same_str("hint", a->hint, b->hint);
    same_str("op", a->op, b->op);
}

static ta_native_str *copy_strs(const ta_native_str *src, uint32_t n)
{
    ta_native_str *c = calloc(n ? n : 1, sizeof *c);
    assert_non_null(c);
    for (uint32_t k = 0; k < n; k++) {
        c[k] = src[k];
        c[k].s = strdup(src[k].s);
        assert_non_null(c[k].s);
    }
    return c;
}

static void kill_strs(ta_native_str *c, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        memset((char *)c[k].s, 'X', c[k].len);
        free((char *)c[k].s);
    }
    free(c);
}

/* Adds a copy of fn that dies when the add returns (see the file comment). */
static void add_dying_copy(ta_torchgen_stream *s, const ta_native_file *f, const ta_native_func *fn)
{
    ta_native_func *c = malloc(sizeof *c);
    assert_non_null(c);
    *c = *fn;
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_schema *sc = NULL;
    if (fn->schema)
        assert_int_equal(ta_schema_parse(a, fn->func.s, fn->func.len, NULL, &sc, NULL), TA_OK);
    c->schema = sc;
    c->func.s = strdup(fn->func.s);
    c->name = strdup(fn->name);
    c->tags = copy_strs(fn->tags, fn->ntags);
    c->autogen = copy_strs(fn->autogen, fn->nautogen);
    assert_int_equal(ta_torchgen_stream_add(s, f, c), TA_OK);
    kill_strs(c->tags, c->ntags);
    kill_strs(c->autogen, c->nautogen);
    memset((char *)c->func.s, 'X', c->func.len);
    free((char *)c->func.s);
    free((char *)c->name);
    ta_arena_destroy(a);
    memset(c, 0xA5, sizeof *c);
    free(c);
}

/* Runs both on f; returns how many diagnostics were compared. */
static size_t compare_file(const ta_native_file *f)
{
    ta_diags *dp, *ds;
    assert_int_equal(ta_diags_create(&dp), TA_OK);
    assert_int_equal(ta_diags_create(&ds), TA_OK);
    assert_int_equal(ta_torchgen_check_pass(f, dp), TA_OK);
    ta_torchgen_stream *s = NULL;
    assert_int_equal(ta_torchgen_stream_create(f, &s), TA_OK);
    for (size_t i = 0; i < ta_native_count(f); i++) add_dying_copy(s, f, ta_native_get(f, i));
    assert_int_equal(ta_torchgen_stream_finish(s, f, ds), TA_OK);
    ta_torchgen_stream_destroy(s);
    size_t n = ta_diags_count(dp);
    same_int("diagnostic count", (long)n, (long)ta_diags_count(ds));
    for (size_t i = 0; i < n && i < ta_diags_count(ds); i++)
        same_diag(ta_diags_get(dp, i), ta_diags_get(ds, i));
    ta_diags_destroy(dp);
    ta_diags_destroy(ds);
    return n;
}

static size_t compare_text(const char *yaml, size_t len, const char *name, const char *tags,
                           size_t tags_len)
{
    ta_native_file *f = NULL;
    ta_native_load_buffer(yaml, len, name, tags, tags_len, tags ? "tags.yaml" : NULL, &f, NULL);
    if (!f) return 0; /* not loadable at all: nothing for either to see */
    size_t n = compare_file(f);
    ta_native_destroy(f);
    return n;
}

/* What a stream keeps of f, per entry (tools/bench/bench_torchgen_stream measures
 * it at scale). */
static double kept_per_entry(const ta_native_file *f)
{
    ta_torchgen_stream *s = NULL;
    assert_int_equal(ta_torchgen_stream_create(f, &s), TA_OK);
    for (size_t i = 0; i < ta_native_count(f); i++)
        assert_int_equal(ta_torchgen_stream_add(s, f, ta_native_get(f, i)), TA_OK);
    double per = (double)tg_stream_bytes(s) / (double)ta_native_count(f);
    ta_torchgen_stream_destroy(s);
    return per;
}

static void check_corpus(const char *version)
{
    bad = 0;
    ta_native_file *f = NULL;
    assert_int_equal(ta_test_load_corpus(version, &f, NULL), TA_OK);
    size_t clean = compare_file(f);
    /* compact: a fraction of the ~1,700 bytes an entry the loaded file holds */
    double per = kept_per_entry(f);
    fprintf(stderr, "%s: the stream keeps %.0f bytes an entry\n", version, per);
    assert_true(per < 320);
    ta_native_destroy(f);

    char rel[256], tpath[256];
    snprintf(rel, sizeof rel, "corpus/%s/native_functions.yaml", version);
    snprintf(tpath, sizeof tpath, "tests/data/corpus/%s/tags.yaml", version);
    size_t len, tlen, dlen;
    char *text = ta_test_read_data(rel, &len), *tags = ta_test_read_file(tpath, &tlen);
    assert_true(text && tags);
    char *dmg = ta_test_damage_autogen(text, len, &dlen);
    size_t damaged = compare_text(dmg, dlen, rel, tags, tlen);
    fprintf(stderr, "%s: %zu diagnostics compared as is, %zu damaged; %d mismatches\n", version,
            clean, damaged, bad);
    assert_true(damaged > 100); /* the damage is seen */
    assert_int_equal(bad, 0);
    free(dmg);
    free(tags);
    free(text);
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

/* Compares every regular file of dir (files ending in `suffix`); returns
 * the diagnostics compared, *nfiles the files. */
static void compare_each(const char *path, void *ctx)
{
    size_t len;
    char *text = ta_test_read_file(path, &len);
    assert_non_null(text);
    *(size_t *)ctx += compare_text(text, len, path, NULL, 0);
    free(text);
}

static size_t compare_dir(const char *dir, const char *suffix, size_t *nfiles)
{
    size_t n = 0;
    *nfiles = ta_test_each_file(dir, suffix, compare_each, &n);
    return n;
}

static void test_broken_yamls(void **state)
{
    (void)state;
    bad = 0;
    size_t nfiles, n = compare_dir("tests/data/broken-yaml", ".yaml", &nfiles);
    fprintf(stderr, "broken-yaml: %zu files, %zu diagnostics compared; %d mismatches\n", nfiles,
            n, bad);
    assert_true(nfiles > 20);
    assert_int_equal(bad, 0);
}

static void test_fuzz_corpus(void **state)
{
    (void)state;
    bad = 0;
    size_t nfiles, n = compare_dir("tests/fuzz/corpus/fuzz_native", "", &nfiles);
    fprintf(stderr, "fuzz_native corpus: %zu files, %zu diagnostics compared; %d mismatches\n",
            nfiles, n, bad);
    assert_true(nfiles > 10);
    assert_int_equal(bad, 0);
    size_t nag, m = compare_dir("tests/fuzz/corpus/fuzz_autogen", "", &nag);
    fprintf(stderr, "fuzz_autogen corpus: %zu files, %zu diagnostics compared; %d mismatches\n",
            nag, m, bad);
    assert_true(nag >= 5 && m > 0);
    assert_int_equal(bad, 0);
}

/* A file of tests/data/torchgen-stream: compared with and without the late
 * tags.yaml; every rule its "# expect:" line names must be reported. */
static void check_synthetic(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "tests/data/torchgen-stream/%s", name);
    size_t len, tlen;
    char *text = ta_test_read_file(path, &len);
    char *tags = ta_test_read_file("tests/data/torchgen-stream/tags-late.yaml", &tlen);
    assert_true(text && tags);
    bad = 0;
    size_t plain = compare_text(text, len, path, NULL, 0);
    size_t late = compare_text(text, len, path, tags, tlen);
    fprintf(stderr, "%s: %zu diagnostics compared, %zu under the late tags.yaml; %d mismatches\n",
            name, plain, late, bad);
    assert_int_equal(bad, 0);
    assert_true(plain > 0 && late > 0);

    ta_native_file *f = NULL;
    ta_native_load_buffer(text, len, path, NULL, 0, NULL, &f, NULL);
    assert_non_null(f);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_torchgen_stream *s = NULL;
    assert_int_equal(ta_torchgen_stream_create(f, &s), TA_OK);
    for (size_t i = 0; i < ta_native_count(f); i++)
        assert_int_equal(ta_torchgen_stream_add(s, f, ta_native_get(f, i)), TA_OK);
    assert_int_equal(ta_torchgen_stream_finish(s, f, d), TA_OK);
    ta_torchgen_stream_destroy(s);
    const char *expect = strstr(text, "# expect:");
    for (char *p = expect ? strchr(expect, ':') + 1 : NULL; p && *p && *p != '\n';) {
        char rule[64];
        int used = 0;
        if (sscanf(p, " %63[a-z-]%n", rule, &used) != 1) break;
        if (!ta_test_count_rule(d, rule, NULL)) fprintf(stderr, "%s: no %s\n", name, rule);
        assert_true(ta_test_count_rule(d, rule, NULL) > 0);
        p += used;
    }
    ta_diags_destroy(d);
    ta_native_destroy(f);
    free(tags);
    free(text);
}

static void test_synthetic_rules(void **state)
{
    (void)state;
    check_synthetic("rules.yaml");
}

static void test_synthetic_late(void **state)
{
    (void)state;
    check_synthetic("late.yaml");
}

/* Two entries on one line (a flow sequence): each diagnostic goes to the
 * entry the pass's search by line finds, the same one in both. */
static void test_synthetic_flow(void **state)
{
    (void)state;
    check_synthetic("flow.yaml");
}

/* An entry whose schema did not parse is no function: its autogen list
 * derives nothing and reports nothing; the entries around it still do. */
static void test_unparsed_entry_skipped(void **state)
{
    (void)state;
    const char *yaml = "- func: broken(Tensor self ->\n"
                       "  autogen: broken.out\n"
                       "- func: fine_(Tensor(a!) self) -> Tensor(a!)\n"
                       "  dispatch:\n    CPU: fine_\n"
                       "  autogen: fine.wrong\n";
    ta_native_file *f = NULL;
    ta_native_load_buffer(yaml, strlen(yaml), "u.yaml", NULL, 0, NULL, &f, NULL);
    assert_non_null(f);
    assert_int_equal(ta_native_count(f), 2);
    assert_null(ta_native_get(f, 0)->schema);
    bad = 0;
    assert_true(compare_file(f) > 0);
    assert_int_equal(bad, 0);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_torchgen_stream *s = NULL;
    assert_int_equal(ta_torchgen_stream_create(f, &s), TA_OK);
    for (size_t i = 0; i < 2; i++)
        assert_int_equal(ta_torchgen_stream_add(s, f, ta_native_get(f, i)), TA_OK);
    assert_int_equal(ta_torchgen_stream_finish(s, f, d), TA_OK);
    /* finish runs once, and nothing is added after it */
    assert_int_equal(ta_torchgen_stream_finish(s, f, d), TA_ERR_INVALID);
    assert_int_equal(ta_torchgen_stream_add(s, f, ta_native_get(f, 1)), TA_ERR_INVALID);
    ta_torchgen_stream *none = s;
    assert_int_equal(ta_torchgen_stream_create(NULL, &none), TA_ERR_INVALID);
    assert_null(none);
    ta_torchgen_stream_destroy(s);
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        assert_null(strstr(ta_diags_get(d, i)->message, "broken"));
        assert_int_not_equal(ta_diags_get(d, i)->line, 1);
    }
    assert_true(ta_test_count_rule(d, "autogen-underivable", NULL) > 0);
    ta_diags_destroy(d);
    ta_native_destroy(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_1_13_1),   cmocka_unit_test(test_corpus_main),
        cmocka_unit_test(test_broken_yamls),    cmocka_unit_test(test_fuzz_corpus),
        cmocka_unit_test(test_synthetic_rules), cmocka_unit_test(test_synthetic_late),
        cmocka_unit_test(test_synthetic_flow),  cmocka_unit_test(test_unparsed_entry_skipped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
