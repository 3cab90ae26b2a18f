/* printer.c - schemas and types back to text.
 *
 * ta_schema_print returns the source exactly (a parsed schema keeps its
 * text); ta_schema_print_canonical rebuilds torch's spelling from the model
 * fields alone, so schemas made in memory (autogen variants) print too.
 * Every printer follows snprintf's contract: it returns the length it needed
 * and writes at most cap bytes, always NUL-terminated when cap > 0. */
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "schema/parser.h"

static void put_sets(ta_strbuf *o, const ta_str *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i) ta_strbuf_put(o, "|", 1);
        ta_strbuf_str(o, v[i]);
    }
}

static bool same_sets(const ta_alias *a)
{
    if (a->nbefore != a->nafter) return false;
    for (uint32_t i = 0; i < a->nbefore; i++)
        if (!ta_str_eq_str(a->before[i], a->after[i])) return false;
    return true;
}

static void put_alias(ta_strbuf *o, const ta_alias *a)
{
    if (!a) return;
    if (a->bare_write) {
        ta_strbuf_put(o, "!", 1);
        return;
    }
    ta_strbuf_put(o, "(", 1);
    put_sets(o, a->before, a->nbefore);
    if (a->write) ta_strbuf_put(o, "!", 1);
    if (a->has_arrow || !same_sets(a)) {
        ta_strbuf_put(o, " -> ", 4);
        put_sets(o, a->after, a->nafter);
    }
    ta_strbuf_put(o, ")", 1);
}

/* Iterative over the '?' / '[]' chain (the common deep case), recursive
 * only into tuple and constructor parameters, whose depth the parser caps. */
/* Whether a type is written with its alias annotations. */
typedef enum spelling { PLAIN, ANNOTATED } spelling;

static void put_type(ta_strbuf *o, const ta_type *t, spelling how, unsigned depth)
{
    bool annotations = how == ANNOTATED;
    if (!t) return;
    if (depth > TA_SCHEMA_MAX_DEPTH * 4) { /* a model built in memory with a cycle */
        ta_strbuf_put(o, "...", 3);
        return;
    }
    switch (t->kind) {
    case TA_TYPE_NAME:
        ta_strbuf_str(o, t->name);
        break;
    case TA_TYPE_OPTIONAL:
        put_type(o, t->nelems ? t->elems[0] : NULL, how, depth + 1);
        ta_strbuf_put(o, "?", 1);
        break;
    case TA_TYPE_LIST:
        put_type(o, t->nelems ? t->elems[0] : NULL, how, depth + 1);
        if (t->fixed_size >= 0) {
            char b[16];
            int k = snprintf(b, sizeof b, "[%d]", (int)t->fixed_size);
            ta_strbuf_put(o, b, (size_t)k);
        } else {
            ta_strbuf_put(o, "[]", 2);
        }
        break;
    case TA_TYPE_TUPLE:
    case TA_TYPE_APPLY:
        if (t->kind == TA_TYPE_APPLY) ta_strbuf_str(o, t->name);
        ta_strbuf_put(o, "(", 1);
        for (uint32_t i = 0; i < t->nelems; i++) {
            if (i) ta_strbuf_put(o, ", ", 2);
            put_type(o, t->elems[i], how, depth + 1);
        }
        ta_strbuf_put(o, ")", 1);
        break;
    }
    if (annotations) put_alias(o, t->alias);
}

size_t ta_type_print_plain(const ta_type *t, char *buf, size_t cap)
{
    ta_strbuf o;
    ta_strbuf_init_fixed(&o, buf, cap);
    put_type(&o, t, PLAIN, 0);
    return o.len;
}

size_t ta_type_print(const ta_type *t, char *buf, size_t cap)
{
    ta_strbuf o;
    ta_strbuf_init_fixed(&o, buf, cap);
    put_type(&o, t, ANNOTATED, 0);
    return o.len;
}

size_t ta_schema_print(const ta_schema *s, char *buf, size_t cap)
{
    if (!s->text) return ta_schema_print_canonical(s, buf, cap);
    ta_strbuf o;
    ta_strbuf_init_fixed(&o, buf, cap);
    ta_strbuf_put(&o, s->text, s->text_len);
    return o.len;
}

static bool starts_with_paren(const ta_type *t)
{
    while (t && (t->kind == TA_TYPE_LIST || t->kind == TA_TYPE_OPTIONAL))
        t = t->nelems ? t->elems[0] : NULL;
    return t && t->kind == TA_TYPE_TUPLE;
}

static void put_ret(ta_strbuf *o, const ta_ret *r)
{
    put_type(o, r->type, ANNOTATED, 0);
    if (r->name.len) {
        ta_strbuf_put(o, " ", 1);
        ta_strbuf_str(o, r->name);
    }
}

size_t ta_schema_print_canonical(const ta_schema *s, char *buf, size_t cap)
{
    ta_strbuf o;
    ta_strbuf_init_fixed(&o, buf, cap);
    if (s->ns.len) {
        ta_strbuf_str(&o, s->ns);
        ta_strbuf_put(&o, "::", 2);
    }
    ta_strbuf_str(&o, s->name);
    if (s->overload.len) {
        ta_strbuf_put(&o, ".", 1);
        ta_strbuf_str(&o, s->overload);
    }
    ta_strbuf_put(&o, "(", 1);
    bool kw = false, first = true;
    for (uint32_t i = 0; i < s->nargs; i++) {
        const ta_arg *a = &s->args[i];
        if (!first) ta_strbuf_put(&o, ", ", 2);
        first = false;
        if (a->kwarg_only && !kw) {
            ta_strbuf_put(&o, "*, ", 3);
            kw = true;
        }
        put_type(&o, a->type, ANNOTATED, 0);
        ta_strbuf_put(&o, " ", 1);
        ta_strbuf_str(&o, a->name);
        if (a->def.kind != TA_DEFAULT_NONE_GIVEN) {
            ta_strbuf_put(&o, "=", 1);
            ta_strbuf_str(&o, a->def.text);
        }
    }
    if (s->vararg) ta_strbuf_puts(&o, first ? "..." : ", ...");
    ta_strbuf_put(&o, ") -> ", 5);
    if (s->varret && s->nrets == 0) {
        ta_strbuf_put(&o, "...", 3);
    } else if (s->nrets == 1 && !s->varret && !starts_with_paren(s->rets[0].type)) {
        /* A lone return whose type begins with '(' ("(bool, t)[]") keeps
         * the parentheses, or it would read back as several returns. */
        put_ret(&o, &s->rets[0]);
    } else {
        ta_strbuf_put(&o, "(", 1);
        for (uint32_t i = 0; i < s->nrets; i++) {
            if (i) ta_strbuf_put(&o, ", ", 2);
            put_ret(&o, &s->rets[i]);
        }
        if (s->varret) ta_strbuf_put(&o, ", ...", 5);
        ta_strbuf_put(&o, ")", 1);
    }
    return o.len;
}
