/* test_native_tokens.c - the yaml reader's token path against its event
 * path: for both corpora (native_functions.yaml, tags.yaml), every
 * broken-yaml file, the fuzz seed corpus and a set of unusual snippets, the
 * two must hand over the same nodes (every field, in order, with the same
 * begin_seq/item/other_root calls) and the same diagnostics and status.
 * The corpora must also be read without falling back, or the token path
 * would be dead code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schema/native_internal.h"
#include "support/testdata.h"

/* A growing text the handler writes every node into. */
typedef struct out {
    char *buf;
    size_t len, cap;
    int stop_after; /* >0: the handler fails at that item (tests the stop) */
    int items;
} out;

static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[256];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < sizeof tmp);
    if (o->len + (size_t)n + 1 > o->cap) {
        o->cap = (o->cap + (size_t)n + 1) * 2;
        o->buf = realloc(o->buf, o->cap);
        assert_non_null(o->buf);
    }
    memcpy(o->buf + o->len, tmp, (size_t)n + 1);
    o->len += (size_t)n;
}

static void put_bytes(out *o, const char *s, size_t len)
{
    if (o->len + len * 4 + 2 > o->cap) {
        o->cap = (o->cap + len * 4 + 2) * 2;
        o->buf = realloc(o->buf, o->cap);
        assert_non_null(o->buf);
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == '|' || c >= 0x7f)
            o->len += (size_t)sprintf(o->buf + o->len, "\\%02x", c);
        else
            o->buf[o->len++] = (char)c;
    }
    o->buf[o->len] = '\0';
}

static void put_node(out *o, const ynode *n, int depth)
{
    put(o, "%d:k%d t%d b%d p%d l%u n%u @%u,%u,%u,%u|", depth, (int)n->kind, (int)n->type,
        (int)n->bval, (int)n->plain, n->len, n->n, n->pos.line, n->pos.col, n->pos.off,
        n->pos.len);
    if (n->kind == YN_SCALAR) {
        assert_non_null(n->text);
        assert_int_equal(n->text[n->len], '\0');
        put_bytes(o, n->text, n->len);
    }
    put(o, "\n");
    uint32_t count = 0;
    for (const ynode *c = n->first; c; c = c->next, count++) put_node(o, c, depth + 1);
    if (n->kind == YN_MAP) assert_int_equal(count, n->n * 2);
    else if (n->kind == YN_SEQ) assert_int_equal(count, n->n);
}

static ta_status on_begin(void *ctx, const ynode *seq)
{
    out *o = ctx;
    put(o, "begin ");
    put_node(o, seq, 0);
    return TA_OK;
}

static ta_status on_item(void *ctx, const ynode *item)
{
    out *o = ctx;
    put(o, "item ");
    put_node(o, item, 1);
    if (++o->items == o->stop_after) return TA_ERR_INVALID;
    return TA_OK;
}

static ta_status on_other(void *ctx, const ynode *root)
{
    out *o = ctx;
    put(o, "other ");
    if (root) put_node(o, root, 0);
    else put(o, "none\n");
    return TA_OK;
}

static void put_diags(out *o, const ta_diags *d)
{
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *g = ta_diags_get(d, i);
        put(o, "diag %d %s %s %u %u %u|", (int)g->severity, g->rule, g->source, g->line,
            g->col, g->length);
        put_bytes(o, g->message, strlen(g->message));
        put(o, "|");
        if (g->source_line) put_bytes(o, g->source_line, strlen(g->source_line));
        put(o, "|");
        if (g->hint) put_bytes(o, g->hint, strlen(g->hint));
        put(o, "\n");
    }
}

/* Reads text both ways; returns whether the token path fell back. */
static bool compare(const char *name, const char *text, size_t len, int stop_after)
{
    ta_yaml_src src = {text, len, name};
    out a = {.stop_after = stop_after}, b = {.stop_after = stop_after};
    ta_yaml_handler ha = {&a, on_begin, on_item, on_other};
    ta_yaml_handler hb = {&b, on_begin, on_item, on_other};
    ta_diags *da, *db;
    assert_int_equal(ta_diags_create(&da), TA_OK);
    assert_int_equal(ta_diags_create(&db), TA_OK);
    bool fell_back = false;
    ta_status sa = ta_yaml_read_ex(&src, &ha, da, &fell_back);
    ta_status sb = ta_yaml_read_events(&src, &hb, db);
    put(&a, "status %d\n", (int)sa);
    put(&b, "status %d\n", (int)sb);
    put_diags(&a, da);
    put_diags(&b, db);
    if (strcmp(a.buf, b.buf)) {
        size_t i = 0;
        while (a.buf[i] && a.buf[i] == b.buf[i]) i++;
        size_t s = i > 200 ? i - 200 : 0;
        fprintf(stderr, "%s: token path differs at byte %zu\n--- tokens:\n%.400s\n--- events:\n%.400s\n",
                name, i, a.buf + s, b.buf + s);
        fail();
    }
    free(a.buf);
    free(b.buf);
    ta_diags_destroy(da);
    ta_diags_destroy(db);
    return fell_back;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n + 65536 + 1 > cap) {
            cap = (n + 65536 + 1) * 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        got = fread(buf + n, 1, 65536, fp);
        n += got;
    } while (got);
    fclose(fp);
    buf[n] = '\0';
    *len = n;
    return buf;
}

static bool compare_file(const char *path, int stop_after)
{
    size_t len = 0;
    char *text = slurp(path, &len);
    if (!text) {
        fprintf(stderr, "cannot read %s\n", path);
        fail();
    }
    bool fb = compare(path, text, len, stop_after);
    free(text);
    return fb;
}

static void test_corpora(void **state)
{
    (void)state;
    const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
    static const char *const files[] = {
        "data/corpus/pytorch-1.13.1/native_functions.yaml",
        "data/corpus/pytorch-main/native_functions.yaml",
    };
    for (size_t i = 0; i < 2; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", build, files[i]);
        assert_false(compare_file(path, 0)); /* no fallback: the fast path is used */
        assert_false(compare_file(path, 100)); /* a handler that stops */
    }
    assert_false(compare_file("tests/data/corpus/pytorch-1.13.1/tags.yaml", 0));
    assert_false(compare_file("tests/data/corpus/pytorch-main/tags.yaml", 0));
}

static void compare_both(const char *path, void *ctx)
{
    (void)ctx;
    compare_file(path, 0);
    compare_file(path, 2);
}

static size_t compare_dir(const char *dir) { return ta_test_each_file(dir, "", compare_both, NULL); }

static void test_broken_and_fuzz(void **state)
{
    (void)state;
    assert_true(compare_dir("tests/data/broken-yaml") > 10);
    assert_true(compare_dir("tests/fuzz/corpus/fuzz_native") > 10);
}

/* Snippets at the edges of what the token path takes, and past them. */
static void test_snippets(void **state)
{
    (void)state;
    static const char *const snips[] = {
        "",
        "# only a comment\n",
        "- a\n",
        "- a: 1\n  b: [x, y]\n- c: {d: e}\n",
        "- func: f(Tensor self) -> Tensor\n  dispatch:\n    CPU: f_cpu\n    CUDA: f_cuda\n",
        "- a: &x 1\n  b: *x\n",
        "- a: !!str 1\n",
        "- a:\n- b: c\n",
        "- a: [x, ]\n- b: c\n",
        "- a: []\n  b: ['q', \"r\"]\n",
        "- a:\n  - x\n  - y\n",
        "- a:\n    - x\n",
        "- - x\n  - y\n- z\n",
        "- \n- a\n",
        "---\n- a\n",
        "- a\n---\n- b\n",
        "- a\n...\n",
        "- a: b\n  c\n",
        "- a: b\n - c\n",
        "- a: [b\n- c: d\n",
        "- a: \"unterminated\n",
        "- a: b\n\t- c\n",
        "- a: |\n    lit\n    eral\n  b: >\n    folded\n",
        "- ? a\n  : b\n",
        "- a: b: c\n",
        "- a: True\n  b: no\n  c: 0x1F\n  d: 1.5e+3\n  e: ~\n  f: 'True'\n",
        "\xef\xbb\xbf- a: \xc3\xa9t\xc3\xa9\n  b: [\xc3\xa9, x]\n",
        "- x: \xc3\xa9\n- y: [z,\n",
        "key: value\n",
        "- a: 1\nb: 2\n",
        "[a, b]\n",
        "- [a, [b, c]]\n",
        "- a: [b: c]\n",
        "- %YAML 1.1\n",
        "%YAML 1.1\n---\n- a\n",
        "- a: b\n  a: c\n",
        "- \"\\x00z\": 1\n",
        "- a: 1\n- !t b\n",
        "- a: 1\n-\n",
        "- a: {}\n  b: {c: d, e: 'f'}\n  g: {h: i, }\n",
        "- a: {b}\n",
        "- a: {b: }\n",
        "- a: {b: [c]}\n",
        "- a:\n  - x\n  -\n  - y\n",
        "- a:\n  - x: 1\n    y: 2\n  - z\n  b: c\n",
        "- a:\n  - - x\n    - y\n",
        "- a:\n  - x\n- b\n",
    };
    int fell = 0;
    for (size_t i = 0; i < sizeof snips / sizeof snips[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "snippet-%zu", i);
        for (int stop = 0; stop < 3; stop++)
            fell += compare(name, snips[i], strlen(snips[i]), stop);
    }
    assert_true(fell > 0); /* the fallback itself is exercised */
}

/* Every prefix of a realistic file: errors and fallbacks at every point. */
static void test_prefixes(void **state)
{
    (void)state;
    static const char text[] =
        "# c\n- func: add.Tensor(Tensor self, Tensor other) -> Tensor\n"
        "  variants: function, method\n  structured_delegate: add.out\n"
        "  dispatch:\n    SparseCPU, SparseCUDA: add_sparse\n  tags: [core, pointwise]\n"
        "- func: x(Tensor self) -> Tensor\n  ufunc_inner_loop:\n    Generic: add (AllAndComplex)\n"
        "  autogen: x.out\n  precomputed:\n  - dim -> int dim\n  dispatch: {}\n"
        "- tag: t\n  desc: |\n    a\n    b\n";
    for (size_t n = 0; n <= sizeof text - 1; n++) {
        char *buf = malloc(n + 1);
        assert_non_null(buf);
        memcpy(buf, text, n);
        buf[n] = '\0';
        compare("prefix", buf, n, 0);
        free(buf);
    }
    /* and every byte replaced by each yaml indicator: mostly fallbacks */
    static const char marks[] = " :-[]{},#&*!|>'\"\n\t?%@`~.x0";
    char buf[sizeof text];
    for (size_t i = 0; i < sizeof text - 1; i++) {
        for (size_t m = 0; m < sizeof marks - 1; m++) {
            memcpy(buf, text, sizeof text);
            buf[i] = marks[m];
            compare("mutant", buf, sizeof text - 1, (int)(m % 3));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpora),
        cmocka_unit_test(test_broken_and_fuzz),
        cmocka_unit_test(test_snippets),
        cmocka_unit_test(test_prefixes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
