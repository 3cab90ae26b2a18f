/* fuzz_native.c - libFuzzer target for the native_functions.yaml loader:
 * any bytes are loaded (with a small tags.yaml), checked, looked up by name,
 * and every field is read. Nothing may crash, leak or read out of bounds.
 * The yaml reader's token path must also hand over exactly what its event
 * path does (every node field, every call, every diagnostic), and the
 * streaming check of the built-in passes, in windows of one and of two
 * entries, must report what the whole-file load and check do (sorted by
 * position, as reports are). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/native_internal.h"
#include "tensoralias/native.h"

static const char tags[] = "- tag: core\n  desc: c\n- tag: pointwise\n  desc: p\n";

/* Everything a reader hands over, written out in full. */
typedef struct trace {
    unsigned char *buf;
    size_t len, cap;
} trace;

static void put(trace *t, const void *p, size_t n)
{
    if (t->len + n > t->cap) {
        t->cap = (t->len + n) * 2 + 256;
        t->buf = realloc(t->buf, t->cap);
        if (!t->buf) abort();
    }
    memcpy(t->buf + t->len, p, n);
    t->len += n;
}

static void put_str(trace *t, const char *s)
{
    put(t, s ? s : "(null)", strlen(s ? s : "(null)") + 1);
}

static void put_node(trace *t, const ynode *n)
{
    uint32_t f[] = {n->kind, n->type, n->bval, n->plain, n->len, n->n,
                    n->pos.line, n->pos.col, n->pos.off, n->pos.len};
    put(t, f, sizeof f);
    if (n->kind == YN_SCALAR) put(t, n->text, n->len + 1);
    for (const ynode *c = n->first; c; c = c->next) put_node(t, c);
    put(t, "/", 1);
}

static ta_status on_begin(void *ctx, const ynode *seq)
{
    put(ctx, "B", 1);
    put_node(ctx, seq);
    return TA_OK;
}

static ta_status on_item(void *ctx, const ynode *item)
{
    put(ctx, "I", 1);
    put_node(ctx, item);
    return TA_OK;
}

static ta_status on_other(void *ctx, const ynode *root)
{
    put(ctx, "O", 1);
    if (root) put_node(ctx, root);
    return TA_OK;
}

static void read_trace(const uint8_t *data, size_t size, bool events, trace *t)
{
    char *text = malloc(size + 1); /* the reader wants NUL-terminated text */
    if (!text) abort();
    memcpy(text, data, size);
    text[size] = '\0';
    ta_yaml_src src = {text, size, "fuzz.yaml"};
    ta_yaml_handler h = {t, on_begin, on_item, on_other};
    ta_diags *d;
    if (ta_diags_create(&d) != TA_OK) abort();
    ta_status st = events ? ta_yaml_read_events(&src, &h, d) : ta_yaml_read(&src, &h, d);
    put(t, &st, sizeof st);
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *g = ta_diags_get(d, i);
        uint32_t f[] = {g->severity, g->line, g->col, g->length};
        put(t, f, sizeof f);
        put_str(t, g->rule);
        put_str(t, g->message);
        put_str(t, g->source_line);
        put_str(t, g->hint);
    }
    ta_diags_destroy(d);
    free(text);
}

/* The diagnostics' order in a report: line, column, then as emitted (one
 * file here). */
static const ta_diags *sort_of;
static int by_position(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    const ta_diag *x = ta_diags_get(sort_of, i), *y = ta_diags_get(sort_of, j);
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    if (x->col != y->col) return x->col < y->col ? -1 : 1;
    return i < j ? -1 : i > j;
}

static size_t *sorted(const ta_diags *d)
{
    size_t n = ta_diags_count(d);
    size_t *v = malloc((n + 1) * sizeof *v);
    if (!v) abort();
    for (size_t i = 0; i < n; i++) v[i] = i;
    sort_of = d;
    qsort(v, n, sizeof *v, by_position);
    return v;
}

static bool same(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* The streaming check against whole (the load's and ta_native_check's). */
static void check_stream(const uint8_t *data, size_t size, const ta_diags *whole, size_t count,
                         size_t window)
{
    ta_diags *d;
    if (ta_diags_create(&d) != TA_OK) abort();
    ta_native_stage stage = ta_native_builtin_stage();
    size_t n = 0;
    ta_status st = ta_native_check_stream_buffer((const char *)data, size, "fuzz.yaml", tags,
                                                 sizeof tags - 1, "tags.yaml", &stage, 1, window,
                                                 &n, d);
    if (st == TA_ERR_NOMEM) abort();
    if (n != count || ta_diags_count(d) != ta_diags_count(whole)) abort();
    size_t *a = sorted(whole), *b = sorted(d);
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *x = ta_diags_get(whole, a[i]), *y = ta_diags_get(d, b[i]);
        if (x->severity != y->severity || x->line != y->line || x->col != y->col ||
            x->length != y->length || !same(x->rule, y->rule) || !same(x->message, y->message) ||
            !same(x->source_line, y->source_line) || !same(x->hint, y->hint))
            abort();
    }
    free(a);
    free(b);
    ta_diags_destroy(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trace a = {0}, b = {0};
    read_trace(data, size, false, &a);
    read_trace(data, size, true, &b);
    if (a.len != b.len || memcmp(a.buf, b.buf, a.len)) abort();
    free(a.buf);
    free(b.buf);

    ta_diags *d;
    if (ta_diags_create(&d) != TA_OK) abort();
    ta_native_file *f = NULL;
    ta_native_load_buffer((const char *)data, size, "fuzz.yaml", tags, sizeof tags - 1,
                          "tags.yaml", &f, d);
    if (f) {
        ta_native_check(f, d);
        volatile size_t sink = 0;
        for (size_t i = 0; i < ta_native_count(f); i++) {
            const ta_native_func *fn = ta_native_get(f, i);
            sink += strlen(fn->func.s) + strlen(fn->name) + strlen(fn->ns);
            char full[512];
            snprintf(full, sizeof full, "%s::%s", fn->ns, fn->name);
            /* every entry is found by its full name (the first of that name) */
            const ta_native_func *found = ta_native_find(f, full);
            bool plain = !strchr(fn->name, ':') && !strchr(fn->ns, ':');
            if (plain && strlen(full) < sizeof full - 1 &&
                (!found || strcmp(found->name, fn->name)))
                abort();
            for (uint32_t k = 0; k < fn->ndispatch; k++)
                sink += strlen(fn->dispatch[k].key.s) + strlen(fn->dispatch[k].kernel.s);
            for (uint32_t k = 0; k < fn->ntags; k++) sink += strlen(fn->tags[k].s);
            for (uint32_t k = 0; k < fn->nautogen; k++) sink += strlen(fn->autogen[k].s);
            for (uint32_t k = 0; k < fn->extra->nufunc_inner_loop; k++)
                sink += strlen(fn->extra->ufunc_inner_loop[k].value.s);
        }
        (void)sink;
    }
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *g = ta_diags_get(d, i);
        /* Positions stay inside the input. */
        if (g->line > size + 1) abort();
        if (g->source_line && strlen(g->source_line) > size) abort();
    }
    if (f) {
        check_stream(data, size, d, ta_native_count(f), 1);
        check_stream(data, size, d, ta_native_count(f), 2);
    }
    ta_native_destroy(f);
    ta_diags_destroy(d);
    return 0;
}
