/* default_value.c - what torch 1.13.1 makes of a default value, and when
 * two defaults are equal (ta_default_equal, parser.h).
 *
 * torch's schema parser turns a default into an IValue according to its
 * argument's type (parseDefaultValue, parseSingleConstant): a number is a
 * double when the type is float or its spelling holds '.' or 'e' (never
 * 'E': "1E5" is read by stoll, as 1), a complex number when the type is
 * complex or it ends in 'j', else an int read by stoll (so "0x10" is 0);
 * the names float, long, complex, strided, Mean and contiguous_format are
 * the integers of their enums; a fixed-size list of one value repeats it.
 * IValue equality then wants the same kind on both sides. The defaults
 * here have been accepted by the parser already (defaults.c), so each is
 * well formed for its type; reading one never allocates. */
#include <stdlib.h>
#include <string.h>

#include "schema/lexer.h"
#include "schema/parser.h"

typedef enum vkind { V_NONE, V_BOOL, V_INT, V_DOUBLE, V_COMPLEX, V_STRING, V_DEVICE, V_NAME } vkind;

typedef struct value {
    vkind kind;
    int64_t i;     /* BOOL, INT; DEVICE: the index, -1 when none */
    double re, im; /* DOUBLE: re */
    const char *s; /* STRING: the body between the quotes; DEVICE: the type; NAME: it */
    uint32_t n;
} value;

typedef struct reader {
    ta_lexer lx;
    ta_tok cur;
    ta_default_elem elem;
    bool is_list;  /* the value is a list: next_elem gives its elements */
    int32_t left;  /* a fixed-size list of one value: times it is still to come */
    value top;     /* not a list: the value; a repeated list: the element */
} reader;

static void adv(reader *r) { ta_lex_next(&r->lx, &r->cur); }

/* The ScalarType of a dtype name 1.13.1's enum has (Byte 0 ... QUInt2x4 17),
 * or -1 for the newer ones (compared by name). */
static int64_t dtype_value(const char *s, uint32_t n)
{
    static const struct { const char *name; int v; } names[] = {
        {"uint8", 0},    {"int8", 1},       {"int16", 2},      {"short", 2},     {"int32", 3},
        {"int", 3},      {"int64", 4},      {"long", 4},       {"float16", 5},   {"half", 5},
        {"float32", 6},  {"float", 6},      {"float64", 7},    {"double", 7},    {"complex32", 8},
        {"chalf", 8},    {"complex64", 9},  {"cfloat", 9},     {"complex", 9},   {"complex128", 10},
        {"cdouble", 10}, {"bool", 11},      {"qint8", 12},     {"quint8", 13},   {"qint32", 14},
        {"bfloat16", 15}, {"quint4x2", 16}, {"quint2x4", 17},
        /* the names 1.13.1 itself reads for any number type */
        {"strided", 0},  {"Mean", 1},       {"contiguous_format", 0}};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (strlen(names[k].name) == n && !memcmp(names[k].name, s, n)) return names[k].v;
    return -1;
}

static value number(reader *r, bool neg)
{
    const char *s = r->lx.s + r->cur.off;
    uint32_t n = r->cur.len;
    char buf[400];
    value v = {V_INT, 0, 0, 0, NULL, 0};
    if (n + 2 > sizeof buf) n = sizeof buf - 2; /* the parser refuses longer ones */
    buf[0] = neg ? '-' : '+';
    memcpy(buf + 1, s, n);
    buf[n + 1] = '\0';
    if (r->elem == TA_DE_COMPLEX || memchr(s, 'j', n)) {
        buf[n] = '\0'; /* torch drops the last character, the 'j' */
        v.kind = V_COMPLEX;
        v.im = strtod(buf, NULL);
    } else if (r->elem == TA_DE_FLOAT || memchr(s, '.', n) || memchr(s, 'e', n)) {
        v.kind = V_DOUBLE;
        v.re = strtod(buf, NULL);
    } else {
        v.i = strtoll(buf, NULL, 10);
    }
    return v;
}

/* One constant (parseSingleConstant). */
static value single(reader *r)
{
    value v = {V_NONE, 0, 0, 0, NULL, 0};
    bool neg = false;
    switch (r->cur.kind) {
    case TK_TRUE:
    case TK_FALSE: v = (value){V_BOOL, r->cur.kind == TK_TRUE, 0, 0, NULL, 0}; break;
    case TK_NONE: break;
    case TK_STRING: {
        uint32_t q = (r->cur.len >= 6 && r->lx.s[r->cur.off + 1] == r->lx.s[r->cur.off] &&
                      r->lx.s[r->cur.off + 2] == r->lx.s[r->cur.off]) ? 3 : 1;
        v = (value){V_STRING, 0, 0, 0, r->lx.s + r->cur.off + q, r->cur.len - 2 * q};
        break;
    }
    case TK_IDENT: {
        const char *s = r->lx.s + r->cur.off;
        int64_t e = dtype_value(s, r->cur.len);
        v = e >= 0 ? (value){V_INT, e, 0, 0, NULL, 0} : (value){V_NAME, 0, 0, 0, s, r->cur.len};
        break;
    }
    case '-':
        neg = true;
        adv(r);
        /* fall through */
    default:
        v = number(r, neg);
    }
    adv(r);
    return v;
}

/* "cpu", "cuda:1": the type's name and the index (-1 when none). */
static value device(reader *r)
{
    const char *s = r->lx.s + r->cur.off + 1;
    uint32_t n = r->cur.len >= 2 ? r->cur.len - 2 : 0, k = 0;
    while (k < n && s[k] != ':') k++;
    int64_t index = -1;
    if (k < n) {
        index = 0;
        for (uint32_t j = k + 1; j < n && s[j] >= '0' && s[j] <= '9' && index < 1000000000; j++)
            index = index * 10 + (s[j] - '0');
    }
    return (value){V_DEVICE, index, 0, 0, s, k};
}

static void reader_init(reader *r, const ta_type *t, const ta_default *d)
{
    memset(r, 0, sizeof *r);
    r->lx = (ta_lexer){d->text.ptr ? d->text.ptr : "", d->text.len, 0};
    adv(r);
    switch (ta_default_form_of(t, &r->elem)) {
    case TA_DF_DEVICE:
        r->top = device(r);
        return;
    case TA_DF_LIST:
        r->is_list = true;
        if (r->cur.kind == '[') {
            adv(r);
            return;
        }
        r->left = t->kind == TA_TYPE_LIST && t->fixed_size > 0 ? t->fixed_size : 1;
        r->top = single(r);
        return;
    case TA_DF_TENSOR:
    case TA_DF_SINGLE:
    case TA_DF_NO_DEFAULT:
        r->top = single(r);
        return;
    }
}

/* The next element of a list; false after the last. */
static bool next_elem(reader *r, value *v)
{
    if (r->left > 0) {
        r->left--;
        *v = r->top;
        return true;
    }
    if (r->left < 0 || r->cur.kind == ']' || r->cur.kind == TK_EOF) return false;
    *v = single(r);
    if (r->cur.kind == ',') adv(r);
    return true;
}

/* The next byte of a string body from *i, its escapes decoded (those
 * torch's parseStringLiteral knows; a backslash before a line break joins
 * the lines); -1 at the end. */
static int str_next(const char *s, uint32_t n, uint32_t *i)
{
    while (*i < n) {
        char c = s[(*i)++];
        if (c != '\\' || *i >= n) return (unsigned char)c;
        char e = s[(*i)++];
        switch (e) {
        case '\n': continue;
        case 'a': return '\a';
        case 'b': return '\b';
        case 'f': return '\f';
        case 'n': return '\n';
        case 'v': return '\v';
        case 't': return '\t';
        default: break;
        }
        if (e >= '0' && e <= '3' && *i + 1 < n) {
            int v = ((e - '0') << 6) | ((s[*i] - '0') << 3) | (s[*i + 1] - '0');
            *i += 2;
            return v;
        }
        return (unsigned char)e;
    }
    return -1;
}

static bool strings_equal(const value *a, const value *b)
{
    uint32_t i = 0, j = 0;
    for (;;) {
        int x = str_next(a->s, a->n, &i), y = str_next(b->s, b->n, &j);
        if (x != y) return false;
        if (x < 0) return true;
    }
}

/* IValue::equals of two constants. */
static bool values_equal(const value *a, const value *b)
{
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case V_NONE: return true;
    case V_BOOL:
    case V_INT: return a->i == b->i;
    case V_DOUBLE: return a->re == b->re;
    case V_COMPLEX: return a->re == b->re && a->im == b->im;
    case V_STRING: return strings_equal(a, b);
    case V_DEVICE: return a->i == b->i && a->n == b->n && !memcmp(a->s, b->s, a->n);
    case V_NAME: return a->n == b->n && !memcmp(a->s, b->s, a->n);
    }
    return false;
}

bool ta_default_equal(const ta_type *ta, const ta_default *da, const ta_type *tb,
                      const ta_default *db)
{
    reader a, b;
    reader_init(&a, ta, da);
    reader_init(&b, tb, db);
    if (a.is_list != b.is_list) return false;
    if (!a.is_list) return values_equal(&a.top, &b.top);
    /* a list's element type comes from its argument's type */
    if (a.elem != b.elem) return false;
    value x, y;
    for (;;) {
        bool more_a = next_elem(&a, &x), more_b = next_elem(&b, &y);
        if (more_a != more_b) return false;
        if (!more_a) return true;
        if (!values_equal(&x, &y)) return false;
    }
}

bool ta_default_is_list(const ta_type *t, const ta_default *d)
{
    (void)d; /* a list argument's default is always a list (torch refuses None there) */
    ta_default_elem e;
    return ta_default_form_of(t, &e) == TA_DF_LIST;
}
