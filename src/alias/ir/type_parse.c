/* type_parse.c - types from text, as torch prints them in IR, and from the
 * schema model, as TorchScript's schema type parser maps schema spellings
 * to JIT types (ScalarType, Layout and MemoryFormat are int; SymInt is int
 * for matching, as c10::Argument::type() gives the "fake" type; Dimname is
 * str; a lower-case name that is no type is a type variable).
 *
 * Grammar of IR types (one function per rule):
 *   type    := primary { '?' | '[' ']' }
 *   primary := '(' [type {',' type}] ')'
 *            | ('Dict' | 'Future' | 'RRef' | 'Await' | 'Union') '(' type {',' type} ')'
 *            | ('Optional' | 'List' | 'Dict' | 'Tuple' | 'Union' | 'Future' | 'RRef' | 'Await')
 *              '[' types ']'     (torch prints Future[T] and RRef[T] so)
 *            | NAME '(' details ')'            a tensor with details, kept as text
 *            | NAME                            simple, class (has a '.') or other
 */
#include <ctype.h>
#include <string.h>

#include "alias/ir/ir_internal.h"

enum { MAX_DEPTH = 64, MAX_ELEMS = 256 };

typedef struct type_parser {
    ir_types *types;
    const char *s;
    size_t len, pos;
    size_t err_pos;
    const char *err_msg;
    int depth;
} type_parser;

static const ta_ir_type *parse_type(type_parser *p);

static void skip_space(type_parser *p)
{
    while (p->pos < p->len && p->s[p->pos] == ' ') p->pos++;
}

static const ta_ir_type *fail(type_parser *p, const char *msg)
{
    if (p->err_pos == (size_t)-2) {
        p->err_pos = p->pos;
        p->err_msg = msg;
    }
    return NULL;
}

static const ta_ir_type *oom(type_parser *p)
{
    p->err_pos = SIZE_MAX;
    p->err_msg = "out of memory";
    return NULL;
}

static bool name_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.'; }

static bool is_name(const char *s, size_t n, const char *name)
{
    return strlen(name) == n && !memcmp(s, name, n);
}

static ta_ir_type_kind simple_kind(const char *s, size_t n)
{
    for (int k = 0; k <= TA_IR_ANY_CLASS; k++) {
        const char *nm = ir_type_simple_name((ta_ir_type_kind)k);
        if (strlen(nm) == n && !memcmp(nm, s, n)) return (ta_ir_type_kind)k;
    }
    return TA_IR_OTHER;
}

static ta_ir_type_kind constructor_kind(const char *s, size_t n)
{
    static const struct { const char *name; ta_ir_type_kind kind; } ctors[] = {
        {"Dict", TA_IR_DICT}, {"Future", TA_IR_FUTURE}, {"RRef", TA_IR_RREF},
        {"Await", TA_IR_AWAIT}, {"Union", TA_IR_UNION},
    };
    for (size_t i = 0; i < sizeof ctors / sizeof ctors[0]; i++)
        if (strlen(ctors[i].name) == n && !memcmp(ctors[i].name, s, n)) return ctors[i].kind;
    return TA_IR_OTHER;
}

/* type {',' type} close, after the opening bracket; fills elems. */
static bool parse_elems_to(type_parser *p, const ta_ir_type **elems, uint32_t *n, bool allow_empty, char close)
{
    *n = 0;
    skip_space(p);
    if (p->pos < p->len && p->s[p->pos] == close) {
        p->pos++;
        if (!allow_empty) return fail(p, "expected a type"), false;
        return true;
    }
    for (;;) {
        if (*n == MAX_ELEMS) return fail(p, "too many element types"), false;
        const ta_ir_type *t = parse_type(p);
        if (!t) return false;
        elems[(*n)++] = t;
        skip_space(p);
        if (p->pos < p->len && p->s[p->pos] == ',') {
            p->pos++;
            skip_space(p);
            continue;
        }
        if (p->pos < p->len && p->s[p->pos] == close) {
            p->pos++;
            return true;
        }
        return fail(p, close == ')' ? "expected ',' or ')' in a type" : "expected ',' or ']' in a type"), false;
    }
}

static bool parse_elems(type_parser *p, const ta_ir_type **elems, uint32_t *n, bool allow_empty)
{
    return parse_elems_to(p, elems, n, allow_empty, ')');
}

/* Python's spelling, as torch prints types inside some others:
 * Optional[T], List[T], Dict[K, V], Tuple[T, ...], Union[T, ...], Future[T] */
static const ta_ir_type *parse_annotation(type_parser *p, ta_ir_type_kind k)
{
    p->pos++; /* '[' */
    const ta_ir_type *elems[MAX_ELEMS];
    uint32_t ne;
    if (!parse_elems_to(p, elems, &ne, k == TA_IR_TUPLE, ']')) return NULL;
    uint32_t want = k == TA_IR_DICT ? 2 : k == TA_IR_TUPLE || k == TA_IR_UNION ? ne : 1;
    if (ne != want || (k == TA_IR_UNION && !ne)) return fail(p, "wrong number of type arguments");
    const ta_ir_type *t = k == TA_IR_UNION ? ir_type_union(p->types, elems, ne) : ir_type_make(p->types, k, elems, ne, NULL, 0);
    return t ? t : oom(p);
}

static ta_ir_type_kind annotation_kind(const char *s, size_t n)
{
    static const struct { const char *name; ta_ir_type_kind kind; } forms[] = {
        {"Optional", TA_IR_OPTIONAL}, {"List", TA_IR_LIST}, {"Dict", TA_IR_DICT},
        {"Tuple", TA_IR_TUPLE}, {"Union", TA_IR_UNION}, {"Future", TA_IR_FUTURE},
        {"RRef", TA_IR_RREF}, {"Await", TA_IR_AWAIT},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        if (strlen(forms[i].name) == n && !memcmp(forms[i].name, s, n)) return forms[i].kind;
    return TA_IR_OTHER;
}

/* '(' details ')' of a tensor type: balanced parentheses, kept as text. */
static const ta_ir_type *parse_tensor_details(type_parser *p, size_t name_start)
{
    int depth = 0;
    for (; p->pos < p->len; p->pos++) {
        char c = p->s[p->pos];
        if (c == '\n') break;
        if (c == '(') depth++;
        else if (c == ')' && --depth == 0) {
            p->pos++;
            const ta_ir_type *t = ir_type_make(p->types, TA_IR_TENSOR, NULL, 0,
                                               p->s + name_start, p->pos - name_start);
            return t ? t : oom(p);
        }
    }
    return fail(p, "unclosed '(' in a tensor type");
}

/* NAME, NAME '(' ... ')' */
static const ta_ir_type *parse_named(type_parser *p)
{
    size_t start = p->pos;
    while (p->pos < p->len && name_char(p->s[p->pos])) p->pos++;
    size_t n = p->pos - start;
    if (!n) return fail(p, "expected a type");
    const char *name = p->s + start;
    if (p->pos < p->len && p->s[p->pos] == '[' && annotation_kind(name, n) != TA_IR_OTHER)
        return parse_annotation(p, annotation_kind(name, n));
    if (p->pos < p->len && p->s[p->pos] == '(') {
        ta_ir_type_kind ck = constructor_kind(name, n);
        if (ck == TA_IR_OTHER) return parse_tensor_details(p, start);
        p->pos++;
        const ta_ir_type *elems[MAX_ELEMS];
        uint32_t ne;
        if (!parse_elems(p, elems, &ne, false)) return NULL;
        if ((ck == TA_IR_DICT && ne != 2) || ((ck == TA_IR_FUTURE || ck == TA_IR_RREF || ck == TA_IR_AWAIT) && ne != 1))
            return fail(p, "wrong number of type arguments");
        const ta_ir_type *t = ck == TA_IR_UNION ? ir_type_union(p->types, elems, ne)
                                                : ir_type_make(p->types, ck, elems, ne, NULL, 0);
        return t ? t : oom(p);
    }
    ta_ir_type_kind k = simple_kind(name, n);
    /* the IR's type parser is the schema's: these enums are ints in TorchScript */
    if (k == TA_IR_OTHER && (is_name(name, n, "Layout") || is_name(name, n, "ScalarType") ||
                             is_name(name, n, "MemoryFormat")))
        k = TA_IR_INT;
    const ta_ir_type *t;
    if (k != TA_IR_OTHER) t = ir_type_simple(p->types, k);
    else t = ir_type_make(p->types, memchr(name, '.', n) ? TA_IR_CLASS : TA_IR_OTHER, NULL, 0, name, n);
    return t ? t : oom(p);
}

/* primary := '(' [type {',' type}] ')' | named */
static const ta_ir_type *parse_primary(type_parser *p)
{
    if (p->pos < p->len && p->s[p->pos] == '(') {
        p->pos++;
        const ta_ir_type *elems[MAX_ELEMS];
        uint32_t ne;
        if (!parse_elems(p, elems, &ne, true)) return NULL;
        const ta_ir_type *t = ir_type_make(p->types, TA_IR_TUPLE, elems, ne, NULL, 0);
        return t ? t : oom(p);
    }
    return parse_named(p);
}

/* type := primary { '?' | '[' ']' } */
static const ta_ir_type *parse_type(type_parser *p)
{
    if (++p->depth > MAX_DEPTH) return fail(p, "type nested too deeply");
    const ta_ir_type *t = parse_primary(p);
    while (t && p->pos < p->len) {
        ta_ir_type_kind k;
        if (p->s[p->pos] == '?') {
            p->pos++;
            k = TA_IR_OPTIONAL;
        } else if (p->s[p->pos] == '[' && p->pos + 1 < p->len && p->s[p->pos + 1] == ']') {
            p->pos += 2;
            k = TA_IR_LIST;
        } else {
            break;
        }
        t = ir_type_make(p->types, k, &t, 1, NULL, 0);
        if (!t) return oom(p);
    }
    p->depth--;
    return t;
}

const ta_ir_type *ir_type_parse_at(ir_types *types, const char *text, size_t len,
                                   size_t *pos, size_t *err_pos, const char **err_msg)
{
    type_parser p = {types, text, len, *pos, (size_t)-2, NULL, 0};
    const ta_ir_type *t = parse_type(&p);
    if (!t) {
        *err_pos = p.err_pos == (size_t)-2 ? p.pos : p.err_pos;
        *err_msg = p.err_msg ? p.err_msg : "expected a type";
        return NULL;
    }
    *pos = p.pos;
    return t;
}

ta_status ta_ir_type_parse(ta_ir_graph *g, const char *text, size_t len,
                           const ta_ir_type **out, ta_diags *diags)
{
    size_t pos = 0, err = 0;
    const char *msg = NULL;
    *out = NULL;
    const ta_ir_type *t = ir_type_parse_at(&g->types, text, len, &pos, &err, &msg);
    if (t && pos != len) {
        err = pos;
        msg = "unexpected text after the type";
        t = NULL;
    }
    if (!t) {
        if (err == SIZE_MAX) return TA_ERR_NOMEM;
        ta_loc loc = {"<type>", 1, (uint32_t)err + 1, 1, text, (uint32_t)len};
        ta_diag_error(diags, &loc, "ir-syntax", "%s", msg);
        return TA_ERR_PARSE;
    }
    *out = t;
    return TA_OK;
}

/* ---- from the schema model ------------------------------------------------ */

typedef struct schema_name {
    const char *name;
    ta_ir_type_kind kind;
} schema_name;

static const schema_name schema_names[] = {
    {"Tensor", TA_IR_TENSOR},      {"int", TA_IR_INT},          {"SymInt", TA_IR_INT},
    {"ScalarType", TA_IR_INT},     {"Layout", TA_IR_INT},       {"MemoryFormat", TA_IR_INT},
    {"ConstQuantizerPtr", TA_IR_INT}, {"DeviceIndex", TA_IR_INT}, {"float", TA_IR_FLOAT},
    {"SymFloat", TA_IR_FLOAT},     {"complex", TA_IR_COMPLEX},  {"Scalar", TA_IR_NUMBER},
    {"bool", TA_IR_BOOL},          {"SymBool", TA_IR_BOOL},     {"str", TA_IR_STR},
    {"Dimname", TA_IR_STR},        {"None", TA_IR_NONE},        {"NoneType", TA_IR_NONE},
    {"Device", TA_IR_DEVICE},      {"Generator", TA_IR_GENERATOR}, {"Storage", TA_IR_STORAGE},
    {"Stream", TA_IR_STREAM},      {"QScheme", TA_IR_QSCHEME},  {"Capsule", TA_IR_CAPSULE},
    {"Any", TA_IR_ANY},            {"AnyClassType", TA_IR_ANY_CLASS},
};

static const ta_ir_type *from_schema_name(ir_types *t, ta_str name)
{
    for (size_t i = 0; i < sizeof schema_names / sizeof schema_names[0]; i++)
        if (ta_str_eq(name, schema_names[i].name)) return ir_type_simple(t, schema_names[i].kind);
    ta_ir_type_kind k = TA_IR_OTHER;
    if (name.len && memchr(name.ptr, '.', name.len)) k = TA_IR_CLASS;
    else if (name.len && islower((unsigned char)name.ptr[0])) k = TA_IR_VAR;
    return ir_type_make(t, k, NULL, 0, name.ptr, name.len);
}

static ta_ir_type_kind apply_kind(ta_str name)
{
    if (ta_str_eq(name, "Dict")) return TA_IR_DICT;
    if (ta_str_eq(name, "Future")) return TA_IR_FUTURE;
    if (ta_str_eq(name, "RRef")) return TA_IR_RREF;
    if (ta_str_eq(name, "Await")) return TA_IR_AWAIT;
    if (ta_str_eq(name, "Union")) return TA_IR_UNION;
    return TA_IR_OTHER;
}

const ta_ir_type *ir_type_from_schema(ir_types *t, const ta_type *st)
{
    const ta_ir_type *elems[MAX_ELEMS];
    uint32_t n = st->nelems < MAX_ELEMS ? st->nelems : MAX_ELEMS;
    for (uint32_t i = 0; i < n; i++)
        if (!(elems[i] = ir_type_from_schema(t, st->elems[i]))) return NULL;
    switch (st->kind) {
    case TA_TYPE_NAME: return from_schema_name(t, st->name);
    case TA_TYPE_OPTIONAL: return ir_type_make(t, TA_IR_OPTIONAL, elems, 1, NULL, 0);
    case TA_TYPE_LIST: return ir_type_make(t, TA_IR_LIST, elems, 1, NULL, 0);
    case TA_TYPE_TUPLE: return ir_type_make(t, TA_IR_TUPLE, elems, n, NULL, 0);
    case TA_TYPE_APPLY: {
        ta_ir_type_kind k = apply_kind(st->name);
        if (k == TA_IR_OTHER) return ir_type_make(t, TA_IR_OTHER, NULL, 0, st->name.ptr, st->name.len);
        if (k == TA_IR_UNION) return ir_type_union(t, elems, n);
        return ir_type_make(t, k, elems, n, NULL, 0);
    }
    }
    return NULL;
}
