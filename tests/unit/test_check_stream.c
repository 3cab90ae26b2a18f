/* test_check_stream.c - the streaming check (ta_check_stream_buffer) and
 * the whole-file one (ta_native_load_buffer, then ta_check_all) give the
 * same diagnostics, every field of each, in the same order once sorted by
 * file, line and column as reports sort them (ta_report_shown: emission
 * order breaks ties); with a window that holds the whole file, in the same
 * order as emitted. Inputs: both corpora with and without their tags.yaml,
 * every broken-yaml file, the native and autogen fuzz corpora, and yamls whose windows
 * split signature groups, duplicate names and delegate pairs (delegates
 * before and after their targets), checked with every small window size. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/testdata.h"
#include "tensoralias/check.h"

static size_t bad;

/* Positions in d in report order: file (first seen), line, column, emission. */
typedef struct order_key {
    size_t file, index;
    uint32_t line, col;
} order_key;

static int order_cmp(const void *a, const void *b)
{
    const order_key *x = a, *y = b;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    if (x->col != y->col) return x->col < y->col ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static size_t *report_order(const ta_diags *d, bool sorted)
{
    size_t n = ta_diags_count(d);
    order_key *k = calloc(n + 1, sizeof *k);
    size_t *idx = calloc(n + 1, sizeof *idx);
    assert_true(k && idx);
    for (size_t i = 0; i < n; i++) {
        const ta_diag *g = ta_diags_get(d, i);
        size_t file = i;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(ta_diags_get(d, j)->source, g->source)) {
                file = j;
                break;
            }
        k[i] = (order_key){file, i, g->line, g->col};
    }
    if (sorted) qsort(k, n, sizeof *k, order_cmp);
    for (size_t i = 0; i < n; i++) idx[i] = k[i].index;
    free(k);
    return idx;
}

static bool same_str(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

static bool same_diag(const ta_diag *a, const ta_diag *b)
{
    return a->severity == b->severity && same_str(a->rule, b->rule) &&
           same_str(a->message, b->message) && same_str(a->source, b->source) &&
           a->line == b->line && a->col == b->col && a->length == b->length &&
           same_str(a->source_line, b->source_line) && same_str(a->hint, b->hint) &&
           same_str(a->op, b->op) && a->line_skipped == b->line_skipped &&
           a->line_cut == b->line_cut;
}

static void print_diag(const char *who, const ta_diag *g)
{
    fprintf(stderr, "  %s: %s:%u:%u %s: %s (%s)\n", who, g->source, g->line, g->col, g->rule,
            g->message, g->hint ? g->hint : "");
}

/* Whether whole and streamed hold the same diagnostics (in report order,
 * or as emitted when !sorted); the first difference is printed. */
static bool same_diags(const char *name, size_t window, const ta_diags *whole,
                       const ta_diags *streamed, bool sorted)
{
    size_t n = ta_diags_count(whole), m = ta_diags_count(streamed);
    size_t *a = report_order(whole, sorted), *b = report_order(streamed, sorted);
    bool same = n == m;
    for (size_t i = 0; i < n && i < m && same; i++) {
        const ta_diag *x = ta_diags_get(whole, a[i]), *y = ta_diags_get(streamed, b[i]);
        if (same_diag(x, y)) continue;
        fprintf(stderr, "%s, window %zu%s: diagnostic %zu differs\n", name, window,
                sorted ? "" : " (as emitted)", i);
        print_diag("whole", x);
        print_diag("streamed", y);
        same = false;
    }
    if (n != m) fprintf(stderr, "%s, window %zu: %zu diagnostics whole, %zu streamed\n", name, window, n, m);
    free(a);
    free(b);
    return same;
}

/* What `check` did before streaming: load, and check what loaded. */
static ta_status whole_check(const char *name, const char *text, size_t len, const char *tags,
                             size_t tags_len, size_t *count, ta_diags *d)
{
    ta_native_file *f = NULL;
    ta_status st = ta_native_load_buffer(text, len, name, tags, tags_len, tags ? "tags.yaml" : NULL,
                                         &f, d);
    *count = ta_native_count(f);
    if (f && st != TA_ERR_NOMEM && st != TA_ERR_INVALID) {
        ta_status c = ta_check_all(f, d);
        if (c != TA_OK) st = c;
    }
    ta_native_destroy(f);
    return st;
}

/* Compares the two checks of text with a window of `window` entries. */
static void compare(const char *name, const char *text, size_t len, const char *tags,
                    size_t tags_len, size_t window)
{
    ta_diags *d1, *d2;
    assert_int_equal(ta_diags_create(&d1), TA_OK);
    assert_int_equal(ta_diags_create(&d2), TA_OK);
    size_t n1 = 0, n2 = 0;
    ta_status s1 = whole_check(name, text, len, tags, tags_len, &n1, d1);
    ta_status s2 = ta_check_stream_buffer(text, len, name, tags, tags_len,
                                          tags ? "tags.yaml" : NULL, window, &n2, d2);
    bool ok = s1 == s2 && n1 == n2 && same_diags(name, window, d1, d2, true);
    /* one window for the whole file (flushed at its end, so no lookup
     * waits): the order is the same as emitted */
    if (ok && (window ? window : TA_NATIVE_WINDOW_DEFAULT) > n1) ok = same_diags(name, window, d1, d2, false);
    if (s1 != s2 || n1 != n2)
        fprintf(stderr, "%s, window %zu: status %d/%d, entries %zu/%zu\n", name, window, s1, s2, n1,
                n2);
    if (!ok) bad++;
    ta_diags_destroy(d1);
    ta_diags_destroy(d2);
}

static char *read_tags(const char *version, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "tests/data/corpus/%s/tags.yaml", version);
    char *t = ta_test_read_file(path, len);
    assert_non_null(t);
    return t;
}

static void test_corpora(void **state)
{
    (void)state;
    static const char *const versions[] = {"pytorch-1.13.1", "pytorch-main"};
    static const size_t windows[] = {0, 1, 5, 64, 1000, 100000};
    for (size_t v = 0; v < 2; v++) {
        char rel[256];
        snprintf(rel, sizeof rel, "corpus/%s/native_functions.yaml", versions[v]);
        size_t len = 0, tlen = 0;
        char *text = ta_test_read_data(rel, &len), *tags = read_tags(versions[v], &tlen);
        assert_non_null(text);
        for (size_t w = 0; w < sizeof windows / sizeof *windows; w++) {
            compare(rel, text, len, tags, tlen, windows[w]);
            compare(rel, text, len, NULL, 0, windows[w]);
        }
        free(text);
        free(tags);
    }
    assert_int_equal(bad, 0);
}

typedef struct tags_text {
    const char *text;
    size_t len;
} tags_text;

static void compare_windows(const char *path, void *ctx)
{
    const tags_text *t = ctx;
    size_t len = 0;
    char *text = ta_test_read_file(path, &len);
    assert_non_null(text);
    for (size_t w = 1; w <= 4; w++) compare(path, text, len, t->text, t->len, w);
    compare(path, text, len, t->text, t->len, 0);
    compare(path, text, len, NULL, 0, 1);
    free(text);
}

static size_t compare_dir(const char *dir, const char *tags, size_t tlen)
{
    tags_text t = {tags, tlen};
    return ta_test_each_file(dir, "", compare_windows, &t);
}

static void test_broken_and_fuzz(void **state)
{
    (void)state;
    size_t tlen = 0;
    char *tags = read_tags("pytorch-1.13.1", &tlen);
    size_t n = compare_dir("tests/data/broken-yaml", tags, tlen) +
               compare_dir("tests/fuzz/corpus/fuzz_native", tags, tlen) +
               compare_dir("tests/fuzz/corpus/fuzz_autogen", tags, tlen);
    free(tags);
    assert_true(n > 30);
    assert_int_equal(bad, 0);
}

/* Entries whose relations cross any window boundary: a delegate before and
 * one after its target, a delegate to an unknown and to an unstructured
 * function, a name defined twice and an empty overload twice (in another
 * namespace too), a signature group (functional, inplace, out=) and
 * autogen names derived across it, and a flow-style pair on one line. */
static const char split_yaml[] =
    "- func: abs(Tensor self) -> Tensor\n"
    "  structured_delegate: abs.out\n"
    "- func: abs_(Tensor(a!) self) -> Tensor(a!)\n"
    "  structured_delegate: abs.out\n"
    "  dispatch:\n"
    "    CPU: abs_\n"
    "- func: neg(Tensor self) -> Tensor\n"
    "  structured_delegate: nowhere.out\n"
    "- func: sgn(Tensor self) -> Tensor\n"
    "  structured_delegate: sgn.out\n"
    "- func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
    "  structured: True\n"
    "  dispatch:\n"
    "    CPU, CUDA: abs_out\n"
    "- func: sgn.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
    "  dispatch:\n"
    "    CPU: sgn_out\n"
    "- func: exp(Tensor self) -> Tensor\n"
    "  structured_delegate: abs.out\n"
    "- func: abs(Tensor self) -> Tensor\n"
    "  dispatch:\n"
    "    CPU: abs2\n"
    "- func: scale_(Tensor(a!) self, Scalar s) -> Tensor(a!)\n"
    "  dispatch:\n"
    "    CPU: scale_\n"
    "  autogen: scale, scale.out\n"
    "- func: custom::op(Tensor self) -> Tensor\n"
    "  structured_delegate: op.out\n"
    "- func: exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
    "  dispatch:\n"
    "    CPU: exp_out\n"
    "- func: custom::op.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
    "  structured: True\n"
    "  dispatch:\n"
    "    CPU: op_out\n"
    "- func: custom::op(Tensor self) -> Tensor\n"
    "  dispatch:\n"
    "    CPU: op2\n"
    "- func: exp_(Tensor(a!) self) -> Tensor(a!)\n"
    "  dispatch:\n"
    "    CPU: exp_\n"
    "  autogen: exp.out\n"
    "- {func: 'pair.a(Tensor self) -> Tensor', structured_delegate: pair.out}\n"
    "- {func: 'pair.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', structured: True, "
    "dispatch: {CPU: p}}\n"
    "- func: scale.out(Tensor self, Scalar s, *, Tensor(a!) out) -> Tensor(a!)\n"
    "  dispatch:\n"
    "    CPU: scale_out\n";

static void test_split_windows(void **state)
{
    (void)state;
    size_t tlen = 0;
    char *tags = read_tags("pytorch-1.13.1", &tlen);
    /* the yaml reports what it should: otherwise this would compare little */
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    size_t count = 0;
    assert_int_equal(ta_check_stream_buffer(split_yaml, sizeof split_yaml - 1, "split.yaml", tags,
                                            tlen, "tags.yaml", 1, &count, d),
                     TA_ERR_PARSE);
    assert_int_equal(count, 17);
    static const char *const rules[] = {"delegate-unknown", "delegate-not-structured",
                                        "overload-empty-twice"};
    for (size_t r = 0; r < 3; r++) {
        bool seen = false;
        for (size_t i = 0; i < ta_diags_count(d); i++)
            seen |= !strcmp(ta_diags_get(d, i)->rule, rules[r]);
        if (!seen) fprintf(stderr, "split.yaml: no %s\n", rules[r]);
        assert_true(seen);
    }
    ta_diags_destroy(d);
    for (size_t w = 0; w <= 20; w++) {
        compare("split.yaml", split_yaml, sizeof split_yaml - 1, tags, tlen, w);
        compare("split.yaml", split_yaml, sizeof split_yaml - 1, NULL, 0, w);
    }
    free(tags);
    assert_int_equal(bad, 0);
}

/* ta_native_is_whole: which windows a stage is told hold the whole yaml
 * (where the torchgen stage runs the whole-file pass instead of its
 * stream): only the one window of a yaml that fits in it. */
typedef struct whole_seen {
    size_t windows, whole;
    bool finish_whole;
} whole_seen;

static ta_status note_window(void *ctx, const ta_native_file *w, ta_diags *diags)
{
    (void)diags;
    whole_seen *s = ctx;
    s->windows++;
    s->whole += ta_native_is_whole(w);
    return TA_OK;
}

static ta_status note_finish(void *ctx, const ta_native_file *w, ta_diags *diags)
{
    (void)diags;
    ((whole_seen *)ctx)->finish_whole = ta_native_is_whole(w);
    return TA_OK;
}

static void test_whole_window(void **state)
{
    (void)state;
    /* 17 entries: a window of exactly 17 is handed over as it fills, before
     * the end is known, so it is not told whole (the stream is then used) */
    const size_t windows[] = {0, 18, 17, 16, 5, 1}, want[] = {1, 1, 1, 2, 4, 17};
    const size_t whole[] = {1, 1, 0, 0, 0, 0};
    for (size_t k = 0; k < 6; k++) {
        whole_seen s = {0, 0, false};
        ta_native_stage st = {"note", &s, note_window, note_finish};
        ta_diags *d;
        assert_int_equal(ta_diags_create(&d), TA_OK);
        ta_native_check_stream_buffer(split_yaml, sizeof split_yaml - 1, "split.yaml", NULL, 0, NULL,
                                      &st, 1, windows[k], NULL, d);
        ta_diags_destroy(d);
        assert_int_equal(s.windows, want[k]);
        assert_int_equal(s.whole, whole[k]);
        assert_false(s.finish_whole); /* finish sees an empty view past the last entry */
    }
    /* a loaded file is whole */
    ta_native_file *f = NULL;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_native_load_buffer(split_yaml, sizeof split_yaml - 1, "split.yaml", NULL, 0, NULL, &f, d);
    assert_non_null(f);
    assert_true(ta_native_is_whole(f));
    ta_native_destroy(f);
    ta_diags_destroy(d);
}

/* A file that cannot be read fails as the loader does, with its
 * diagnostic, and reads no entry. */
static void test_unreadable(void **state)
{
    (void)state;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    size_t count = 7;
    assert_int_equal(ta_check_stream_path("tests/data/no-such.yaml", NULL, 0, &count, d), TA_ERR_IO);
    assert_int_equal(count, 0);
    assert_int_equal(ta_diags_count(d), 1);
    assert_string_equal(ta_diags_get(d, 0)->rule, "io");
    ta_diags_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpora),
        cmocka_unit_test(test_broken_and_fuzz),
        cmocka_unit_test(test_split_windows),
        cmocka_unit_test(test_whole_window),
        cmocka_unit_test(test_unreadable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
