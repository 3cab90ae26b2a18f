/* test_native_key_pos.c - a loaded entry keeps its keys as byte offsets and
 * counts their lines and columns when asked (ta_native_key_pos,
 * ta_native_val_pos): those must be the positions libyaml gave the yaml
 * reader, key for key. Inputs: both corpora, every broken-yaml file, the
 * native fuzz corpus, and snippets whose lines break as "\r\n", "\r", NEL,
 * LS and PS (libyaml counts each as a line), inside quoted values, comments
 * and flow mappings. The reader's own nodes are the reference. */
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

/* What the reader saw of one entry: where it starts, and for each key the
 * loader keeps (a string naming a key torchgen knows; the last one written
 * wins) the key's and its value's positions. */
typedef struct seen_entry {
    uint32_t off;
    bool has[TA_NK_COUNT];
    ta_native_pos key[TA_NK_COUNT], val[TA_NK_COUNT];
} seen_entry;

typedef struct seen {
    seen_entry *v;
    size_t n, cap;
} seen;

static ta_status on_begin(void *ctx, const ynode *seq)
{
    (void)ctx;
    (void)seq;
    return TA_OK;
}

static ta_status on_item(void *ctx, const ynode *m)
{
    seen *s = ctx;
    if (m->kind != YN_MAP) return TA_OK;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        assert_non_null(s->v);
    }
    seen_entry *e = &s->v[s->n++];
    memset(e, 0, sizeof *e);
    e->off = m->pos.off;
    for (const ynode *k = m->first; k && k->next; k = k->next->next) {
        if (k->kind != YN_SCALAR || k->type != YT_STR) continue;
        int id = ta_native_key_id(k->text);
        if (id < 0) continue;
        e->has[id] = true;
        e->key[id] = k->pos;
        e->val[id] = k->next->pos;
    }
    return TA_OK;
}

static ta_status on_other(void *ctx, const ynode *root)
{
    (void)ctx;
    (void)root;
    return TA_OK;
}

static int bad;

static void same_pos(const char *name, const char *what, ta_native_pos want, ta_native_pos got)
{
    if (want.line == got.line && want.col == got.col && want.off == got.off && want.len == got.len)
        return;
    if (bad++ < 8)
        fprintf(stderr, "%s: %s at %u:%u (+%u, %u bytes), counted %u:%u (+%u, %u bytes)\n", name,
                what, want.line, want.col, want.off, want.len, got.line, got.col, got.off, got.len);
}

/* Compares every kept key of every entry; returns how many were compared. */
static size_t compare(const char *name, const char *text, size_t len)
{
    seen s = {0};
    ta_yaml_src src = {text, len, name};
    ta_yaml_handler h = {&s, on_begin, on_item, on_other};
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_yaml_read(&src, &h, d);
    ta_native_file *f = NULL;
    ta_native_load_buffer(text, len, name, NULL, 0, NULL, &f, d);
    size_t compared = 0, j = 0;
    /* the file's text is the input's, byte for byte, so offsets index both */
    size_t kept = 0;
    if (f && (ta_native_text(f, &kept) == NULL || kept != len || memcmp(ta_native_text(f, NULL), text, len)))
        if (bad++ < 8) fprintf(stderr, "%s: ta_native_text is not the input\n", name);
    for (size_t i = 0; f && i < ta_native_count(f); i++) {
        const ta_native_func *fn = ta_native_get(f, i);
        while (j < s.n && s.v[j].off != fn->pos.off) j++;
        if (j == s.n) {
            if (bad++ < 8) fprintf(stderr, "%s: entry %zu not seen by the reader\n", name, i);
            break;
        }
        const seen_entry *e = &s.v[j++];
        for (int k = 0; k < TA_NK_COUNT; k++) {
            bool has = ta_native_has_key(fn, (ta_native_key)k);
            if (has != e->has[k]) {
                if (bad++ < 8) fprintf(stderr, "%s: entry %zu key %d kept %d\n", name, i, k, has);
                continue;
            }
            if (!has) continue;
            same_pos(name, ta_native_key_name((ta_native_key)k), e->key[k],
                     ta_native_key_pos(fn, (ta_native_key)k));
            same_pos(name, "value", e->val[k], ta_native_val_pos(fn, (ta_native_key)k));
            compared++;
        }
    }
    ta_native_destroy(f);
    ta_diags_destroy(d);
    free(s.v);
    return compared;
}

static size_t compare_file(const char *path)
{
    size_t len = 0;
    char *text = ta_test_read_file(path, &len);
    assert_non_null(text);
    size_t n = compare(path, text, len);
    free(text);
    return n;
}

static void test_corpora(void **state)
{
    (void)state;
    static const char *const corpora[] = {"corpus/pytorch-1.13.1/native_functions.yaml",
                                          "corpus/pytorch-main/native_functions.yaml"};
    for (size_t i = 0; i < 2; i++) {
        char path[512];
        size_t n = compare_file(ta_test_data_path(path, sizeof path, corpora[i]));
        assert_true(n > 2000); /* every entry has func at least */
    }
    assert_int_equal(bad, 0);
}

static void compare_each(const char *path, void *ctx) { *(size_t *)ctx += compare_file(path); }

/* The keys compared in dir's files. */
static size_t compare_dir(const char *dir)
{
    size_t n = 0;
    ta_test_each_file(dir, "", compare_each, &n);
    return n;
}

static void test_broken_and_fuzz(void **state)
{
    (void)state;
    size_t n = compare_dir("tests/data/broken-yaml") + compare_dir("tests/fuzz/corpus/fuzz_native");
    assert_true(n > 0);
    assert_int_equal(bad, 0);
}

static void test_line_breaks(void **state)
{
    (void)state;
    /* each break in turn: between entries and keys, inside a quoted value,
     * a comment and a flow mapping, before the keys whose positions count */
    static const char *const breaks[] = {"\n", "\r\n", "\r", "\xc2\x85", "\xe2\x80\xa8",
                                         "\xe2\x80\xa9"};
    static const char *const shapes[] = {
        "- func: a(Tensor self) -> Tensor%s  category_override: \"x%sy\"%s  python_module: nn%s"
        "  variants: function, method%s",
        "- func: b(Tensor self) -> Tensor%s  # a comment%s  structured: True%s  dispatch:%s"
        "    CPU: f%s%s",
        "- {func: 'c(Tensor self) -> Tensor', variants: 'method',%s tags: 'x%sy',%s"
        " autogen: c.out}%s%s%s",
        "- func: \"d(Tensor self)%s  -> Tensor\"%s  tags: core%s  func: e(Tensor x) -> Tensor%s%s%s",
    };
    size_t compared = 0;
    for (size_t b = 0; b < sizeof breaks / sizeof *breaks; b++)
        for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
            char text[512];
            const char *x = breaks[b];
            int len = snprintf(text, sizeof text, shapes[s], x, x, x, x, x, x);
            assert_true(len > 0 && (size_t)len < sizeof text);
            char name[32];
            snprintf(name, sizeof name, "shape %zu, break %zu", s, b);
            compared += compare(name, text, (size_t)len);
        }
    assert_true(compared > 0);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpora),
        cmocka_unit_test(test_broken_and_fuzz),
        cmocka_unit_test(test_line_breaks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
