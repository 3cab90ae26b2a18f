/* list_row.c - builds and prints a "tensoralias list" row (see list_row.h). */
#include <stdlib.h>
#include <string.h>

#include "list_row.h"

static json_t *row_str_or_null(const char *s) { return s ? json_string(s) : json_null(); }

static int row_cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* torchgen keeps tags in a set; list them sorted so the order is stable. */
static json_t *tag_list(const ta_native_func *fn)
{
    json_t *a = json_array();
    const char **v = malloc((fn->ntags + 1) * sizeof *v);
    if (!a || !v) {
        free(v);
        json_decref(a);
        return NULL;
    }
    for (uint32_t i = 0; i < fn->ntags; i++) v[i] = fn->tags[i].s;
    qsort(v, fn->ntags, sizeof *v, row_cmp_str);
    for (uint32_t i = 0; i < fn->ntags; i++)
        if (!i || strcmp(v[i], v[i - 1])) json_array_append_new(a, json_string(v[i]));
    free(v);
    return a;
}

static json_t *str_list(const char *const *v, uint32_t n)
{
    json_t *a = json_array();
    for (uint32_t i = 0; a && i < n; i++) json_array_append_new(a, json_string(v[i]));
    return a;
}

/* A sorted list of torchgen's (a set): each name once. */
static json_t *sorted_set(const char *const *v, uint32_t n)
{
    json_t *a = json_array();
    for (uint32_t i = 0; a && i < n; i++)
        if (!i || strcmp(v[i], v[i - 1])) json_array_append_new(a, json_string(v[i]));
    return a;
}

/* torchgen's kind, view-ness and signature (omitted when the schema did not
 * parse). */
static json_t *add_family(json_t *row, const ta_tg_function *tf)
{
    if (!row || !tf) return row;
    json_object_set_new(row, "kind", json_string(ta_schema_kind_str(tf->kind)));
    json_object_set_new(row, "is_view_op", json_boolean(tf->is_view_op));
    json_object_set_new(row, "signature", json_string(tf->signature));
    return row;
}

/* A function torchgen derives for autogen: (it has no yaml entry). */
static json_t *derived_row(const ta_tg_function *tf)
{
    json_t *row = json_pack(
        "{s:s, s:s, s:I, s:o, s:o, s:o, s:b, s:o, s:b, s:b, s:b, s:b}", "func", tf->func,
        "name", tf->name, "line", (json_int_t)tf->line, "variants",
        str_list(tf->variants, tf->nvariants), "tags", str_list(tf->tags, tf->ntags), "autogen",
        str_list(tf->autogen, tf->nautogen), "structured", tf->structured,
        "structured_delegate", row_str_or_null(tf->structured_delegate), "manual_cpp_binding",
        tf->manual_cpp_binding, "has_composite_implicit_autograd_kernel",
        tf->has_composite_implicit_autograd_kernel, "has_composite_explicit_autograd_kernel",
        tf->has_composite_explicit_autograd_kernel, "generated", 1);
    return add_family(row, tf);
}

json_t *ta_list_row(const ta_native_file *f, const ta_native_func *fn, const ta_tg_function *tf)
{
    (void)f;
    if (!fn) return tf ? derived_row(tf) : NULL;
    json_t *variants = json_array(), *autogen = json_array();
    if (variants && (fn->variants & TA_VARIANT_FUNCTION))
        json_array_append_new(variants, json_string("function"));
    if (variants && (fn->variants & TA_VARIANT_METHOD))
        json_array_append_new(variants, json_string("method"));
    for (uint32_t i = 0; autogen && i < fn->nautogen; i++)
        json_array_append_new(autogen, json_string(fn->autogen[i].s));
    json_t *row = json_pack(
        "{s:s, s:s, s:I, s:o, s:o, s:o, s:b, s:o, s:b, s:b, s:b, s:b}",
        "func", fn->func.s, "name", fn->name, "line", (json_int_t)fn->pos.line,
        "variants", variants, "tags", tf ? sorted_set(tf->tags, tf->ntags) : tag_list(fn),
        "autogen", autogen,
        "structured", fn->structured, "structured_delegate",
        row_str_or_null(fn->structured_delegate.s), "manual_cpp_binding",
        fn->manual_cpp_binding, "has_composite_implicit_autograd_kernel",
        fn->has_composite_implicit_autograd_kernel,
        "has_composite_explicit_autograd_kernel",
        fn->has_composite_explicit_autograd_kernel, "generated", 0);
    return add_family(row, tf);
}

/* A value left out of the text line: false, null, [], [] and the default
 * variants ["function"], the signature (long; the JSON has it). */
static bool is_default(const char *key, const json_t *v)
{
    if (json_is_false(v) || json_is_null(v)) return true;
    if (!strcmp(key, "signature")) return true;
    if (json_is_array(v) && json_array_size(v) == 0) return true;
    return !strcmp(key, "variants") && json_array_size(v) == 1 &&
           !strcmp(json_string_value(json_array_get(v, 0)), "function");
}

static void put_value(const json_t *v, FILE *out)
{
    if (json_is_string(v)) fputs(json_string_value(v), out);
    else if (json_is_true(v)) fputs("true", out);
    else if (json_is_integer(v)) fprintf(out, "%lld", (long long)json_integer_value(v));
    else if (json_is_array(v))
        for (size_t i = 0; i < json_array_size(v); i++) {
            if (i) fputc(',', out);
            put_value(json_array_get(v, i), out);
        }
}

void ta_list_row_text(const json_t *row, FILE *out)
{
    fprintf(out, "%lld\t%s\t%s", (long long)json_integer_value(json_object_get(row, "line")),
            json_string_value(json_object_get(row, "name")),
            json_string_value(json_object_get(row, "func")));
    const char *key;
    json_t *v;
    bool first = true;
    json_object_foreach((json_t *)row, key, v)
    {
        if (!strcmp(key, "line") || !strcmp(key, "name") || !strcmp(key, "func") ||
            is_default(key, v))
            continue;
        fprintf(out, "%s%s=", first ? "\t" : " ", key);
        put_value(v, out);
        first = false;
    }
    fputc('\n', out);
}
