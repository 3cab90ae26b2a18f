/* model.c - small queries on the schema model: string views, type
 * predicates, torch's view of alias annotations, source positions, slots
 * and the operator by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/parser.h"

bool ta_str_eq(ta_str s, const char *cstr)
{
    /* One walk, stopping at the first difference: callers test a name
     * against lists of short words, most of which differ in the first byte,
     * so strlen and memcmp calls cost more than the comparison. */
    if (!cstr) return s.len == 0;
    size_t i = 0;
    for (; i < s.len; i++)
        if (!cstr[i] || cstr[i] != s.ptr[i]) return false;
    return cstr[i] == '\0';
}

bool ta_str_eq_str(ta_str a, ta_str b)
{
    if (a.len != b.len) return false;
    /* names, mostly short and mostly differing early: inline, as ta_str_eq */
    for (uint32_t i = 0; i < a.len; i++)
        if (a.ptr[i] != b.ptr[i]) return false;
    return true;
}

/* A NUL-terminated copy of s in buf; false when it does not fit. */
static bool c_string(ta_str s, char *buf, size_t cap)
{
    if (s.len >= cap) return false;
    if (s.len) memcpy(buf, s.ptr, s.len);
    buf[s.len] = '\0';
    return true;
}

bool ta_str_to_int(ta_str s, int64_t *out)
{
    char buf[64], *end;
    if (!c_string(s, buf, sizeof buf)) return false;
    long long v = strtoll(buf, &end, 0);
    if (end == buf) return false;
    *out = v;
    return true;
}

bool ta_str_to_double(ta_str s, double *out)
{
    char buf[64], *end;
    if (!c_string(s, buf, sizeof buf)) return false;
    double v = strtod(buf, &end);
    if (end == buf) return false;
    *out = v;
    return true;
}

size_t ta_str_to_int_list(ta_str s, int64_t *out, size_t cap)
{
    size_t n = 0;
    const char *p = s.ptr, *e = s.ptr + s.len;
    while (p < e && n < cap) {
        while (p < e && (*p == '[' || *p == ' ' || *p == ',')) p++;
        const char *q = p;
        while (q < e && *q != ',' && *q != ']' && *q != ' ') q++;
        ta_str item = {p, (uint32_t)(q - p)};
        if (q == p || !ta_str_to_int(item, &out[n])) break;
        n++;
        p = q;
    }
    return n;
}

bool ta_type_is_name(const ta_type *t, const char *name)
{
    return t && t->kind == TA_TYPE_NAME && ta_str_eq(t->name, name);
}

bool ta_type_is_tensor_like(const ta_type *t)
{
    if (!t) return false;
    if (t->kind == TA_TYPE_LIST) t = t->elems[0];
    if (t->kind == TA_TYPE_OPTIONAL) t = t->elems[0];
    return ta_type_is_name(t, "Tensor");
}

void ta_type_alias_view(const ta_type *t, ta_alias_view *v)
{
    memset(v, 0, sizeof *v);
    if (!t) return;
    switch (t->kind) {
    case TA_TYPE_OPTIONAL:
        ta_type_alias_view(t->nelems ? t->elems[0] : NULL, v);
        return;
    case TA_TYPE_LIST: {
        ta_alias_view in;
        ta_type_alias_view(t->nelems ? t->elems[0] : NULL, &in);
        v->set = t->alias;
        v->present = t->alias || in.present;
        v->write = t->alias ? t->alias->write : in.write;
        v->elem = in.set ? in.set : in.elem;
        return;
    }
    case TA_TYPE_TUPLE:
        return; /* torch parses no annotation after a tuple */
    case TA_TYPE_NAME:
    case TA_TYPE_APPLY:
        v->set = t->alias;
        v->present = t->alias != NULL;
        v->write = t->alias && t->alias->write;
        return;
    }
}

void ta_schema_locate(const ta_schema *s, uint32_t off, uint32_t *line,
                      uint32_t *col)
{
    ta_schema_text_locate(s->text, s->text_len, s->base_line, s->base_col, off,
                          line, col, NULL, NULL);
}

int32_t ta_schema_arg_index(const ta_schema *s, const char *name)
{
    for (uint32_t i = 0; s && name && i < s->nargs; i++)
        if (ta_str_eq(s->args[i].name, name)) return (int32_t)i;
    return -1;
}

int32_t ta_schema_ret_index(const ta_schema *s, const char *name)
{
    for (uint32_t i = 0; s && name && *name && i < s->nrets; i++)
        if (ta_str_eq(s->rets[i].name, name)) return (int32_t)i;
    return -1;
}

size_t ta_schema_op_name(const ta_schema *s, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%.*s%s%.*s", (int)s->full_name.len,
                     s->full_name.len ? s->full_name.ptr : "",
                     s->overload.len ? "." : "", (int)s->overload.len,
                     s->overload.len ? s->overload.ptr : "");
    return n < 0 ? 0 : (size_t)n;
}

static bool optional_of(const ta_type *t, const char *name)
{
    return t->kind == TA_TYPE_OPTIONAL && t->nelems == 1 && ta_type_is_name(t->elems[0], name);
}

int ta_schema_tensor_options_at(const ta_schema *s)
{
    static const char *const names[4] = {"dtype", "layout", "device", "pin_memory"};
    static const char *const types[4] = {"ScalarType", "Layout", "Device", "bool"};
    for (uint32_t i = 0; i + 4 <= s->nargs; i++) {
        uint32_t k = 0;
        while (k < 4 && s->args[i + k].kwarg_only && ta_str_eq(s->args[i + k].name, names[k]) &&
               optional_of(s->args[i + k].type, types[k]))
            k++;
        if (k == 4) return (int)i;
    }
    return -1;
}

bool ta_schema_has_out_args(const ta_schema *s)
{
    for (uint32_t i = 0; i < s->nargs; i++) {
        if (!s->args[i].kwarg_only) continue;
        ta_alias_view v;
        ta_type_alias_view(s->args[i].type, &v);
        if (v.present && (v.write || (v.elem && v.elem->write))) return true;
    }
    return false;
}
