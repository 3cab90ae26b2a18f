/* py_infer.c - the schema torch.library.custom_op infers from type hints.
 *
 * torch.library.infer_schema turns a function's parameters into schema
 * arguments (torch.Tensor -> Tensor, int -> SymInt, float, bool, str,
 * types.Number -> Scalar, torch.dtype -> ScalarType, torch.device ->
 * Device; Optional[T] -> T?, a Sequence/List of T -> T[] for the types that
 * allow it, List[Optional[Tensor]] -> Tensor?[], Optional[List[int]] ->
 * SymInt[]?), marks each argument named in mutates_args Tensor(a<i>!) (i its
 * position), puts "*" before the first keyword-only one, writes defaults as
 * Python's str() does, and the return annotation as (), Tensor, Tensor[],
 * SymInt, float, bool, Scalar or a tuple of them. This file does the same
 * from the tokens of the def, so that the schema can be checked like a
 * written one. Whatever it cannot translate exactly (a string annotation, a
 * default that is an expression, a type torch rejects) is a note, and no
 * schema is made. Each piece of the result points at the tokens it came
 * from. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "extract/extract_internal.h"

enum { MAX_PARAMS = 64 };

/* The base types and which container forms infer_schema accepts for each. */
typedef struct base_type {
    const char *hint;   /* last component of the annotation's dotted name */
    const char *schema;
    bool list, optional_elems, optional_list; /* T[], T?[], T[]? */
    bool ret;           /* a return type */
} base_type;

static const base_type bases[] = {
    {"Tensor", "Tensor", true, true, false, true},
    {"int", "SymInt", true, false, true, true},
    {"float", "float", true, false, true, true},
    {"bool", "bool", true, false, true, true},
    {"str", "str", false, false, false, false},
    {"Number", "Scalar", true, false, false, true},
    {"dtype", "ScalarType", false, false, false, false},
    {"device", "Device", false, false, false, false},
};

/* A parsed annotation: a base, optionally in a list, optionally optional,
 * with optional elements. */
typedef struct hint {
    const base_type *base;
    bool list, optional, optional_elems, none, tuple;
    const base_type *elems[16]; /* tuple returns */
    int nelems;
    bool list_is_list; /* list/List rather than Sequence (returns allow only these) */
} hint;

typedef struct icx {
    xfile *f;
    const char *why; /* what stopped the inference */
    uint32_t why_tok;
} icx;

static bool fail(icx *c, uint32_t t, const char *why)
{
    if (!c->why) {
        c->why = why;
        c->why_tok = t;
    }
    return false;
}

/* The last component of the dotted name at [*i, hi), advancing *i. */
static const xtok *dotted_last(const xfile *f, uint32_t *i, uint32_t hi)
{
    if (*i >= hi || !xf_ident(f, *i, NULL)) return NULL;
    const xtok *last = xf_tok(f, *i);
    (*i)++;
    while (*i + 1 < hi && xf_punct(xf_tok(f, *i), '.') && xf_ident(f, *i + 1, NULL)) {
        last = xf_tok(f, *i + 1);
        *i += 2;
    }
    return last;
}

static const base_type *base_named(const xfile *f, const xtok *t)
{
    for (size_t k = 0; k < sizeof bases / sizeof bases[0]; k++)
        if (xf_is(f, t, bases[k].hint)) return &bases[k];
    return NULL;
}

static bool parse_hint(icx *c, uint32_t lo, uint32_t hi, hint *h);

/* X[args] after a generic's name: its arguments' spans. */
static int generic_args(icx *c, uint32_t *i, uint32_t hi, xspan *args, int max)
{
    const xfile *f = c->f;
    if (*i >= hi || !xf_punct(xf_tok(f, *i), '[')) return -1;
    uint32_t close = xf_close(f, *i);
    if (close >= hi) return -1;
    int n = xf_split(f, *i, close, args, max);
    *i = close + 1;
    return n;
}

/* One alternative of an annotation (no "|"): None, a base, or a generic. */
static bool parse_primary(icx *c, uint32_t *i, uint32_t hi, hint *h)
{
    const xfile *f = c->f;
    memset(h, 0, sizeof *h);
    uint32_t at = *i;
    const xtok *name = dotted_last(f, i, hi);
    if (!name) return fail(c, at, "an annotation that is not a type name");
    if (xf_is(f, name, "None")) return h->none = true;
    const base_type *b = base_named(f, name);
    if (b) return h->base = b, true;
    xspan args[16];
    int n = generic_args(c, i, hi, args, 16);
    if (n < 0) return fail(c, at, "a type infer_schema does not support");
    bool optional = xf_is(f, name, "Optional");
    bool list = xf_is(f, name, "List") || xf_is(f, name, "list");
    bool seq = xf_is(f, name, "Sequence");
    bool tuple = xf_is(f, name, "Tuple") || xf_is(f, name, "tuple");
    bool uni = xf_is(f, name, "Union");
    if ((optional || list || seq) && n == 1) {
        hint in;
        if (!parse_hint(c, args[0].lo, args[0].hi, &in) || in.none || in.tuple) return fail(c, at, "a nested type infer_schema does not support");
        if (optional) {
            *h = in;
            if (h->optional) return fail(c, at, "a doubly optional type");
            h->optional = true;
            return true;
        }
        if (in.list) return fail(c, at, "a list of lists");
        *h = in;
        h->list = true;
        h->list_is_list = list;
        h->optional_elems = in.optional;
        h->optional = false;
        return true;
    }
    if (uni && n == 2) {
        hint a, b2;
        if (!parse_hint(c, args[0].lo, args[0].hi, &a) || !parse_hint(c, args[1].lo, args[1].hi, &b2))
            return false;
        if (a.none == b2.none) return fail(c, at, "a Union other than Optional");
        *h = a.none ? b2 : a;
        h->optional = true;
        return true;
    }
    if (tuple) {
        h->tuple = true;
        for (int k = 0; k < n && k < 16; k++) {
            hint e;
            if (!parse_hint(c, args[k].lo, args[k].hi, &e)) return false;
            if (e.optional || e.none || e.tuple || (e.list && !(e.base && !strcmp(e.base->hint, "Tensor") && e.list_is_list)))
                return fail(c, at, "a tuple element infer_schema does not return");
            h->elems[h->nelems++] = e.list ? NULL : e.base; /* NULL: Tensor[] */
        }
        return true;
    }
    return fail(c, at, "a type infer_schema does not support");
}

/* An annotation: alternatives joined by "|" (X | None). */
static bool parse_hint(icx *c, uint32_t lo, uint32_t hi, hint *h)
{
    uint32_t i = lo;
    if (!parse_primary(c, &i, hi, h)) return false;
    while (i < hi && xf_punct(xf_tok(c->f, i), '|')) {
        hint other;
        uint32_t at = i++;
        if (!parse_primary(c, &i, hi, &other)) return false;
        if (h->none == other.none) return fail(c, at, "a union other than X | None");
        if (h->none) *h = other;
        if (h->optional) return fail(c, at, "a doubly optional type");
        h->optional = true;
    }
    if (i != hi) return fail(c, i, "an annotation the scanner does not read");
    return true;
}

/* The schema type of an argument annotation. */
static bool arg_type(icx *c, uint32_t lo, uint32_t hi, char *buf, size_t cap)
{
    hint h;
    if (!parse_hint(c, lo, hi, &h)) return false;
    if (h.none || h.tuple || !h.base) return fail(c, lo, "an argument type infer_schema does not support");
    const base_type *b = h.base;
    const char *suffix = "";
    if (h.list && h.optional_elems) suffix = b->optional_elems && !h.optional ? "?[]" : NULL;
    else if (h.list && h.optional) suffix = b->optional_list ? "[]?" : NULL;
    else if (h.list) suffix = b->list ? "[]" : NULL;
    else if (h.optional) suffix = "?";
    if (!suffix) return fail(c, lo, "a container of a type infer_schema does not allow there");
    snprintf(buf, cap, "%s%s", b->schema, suffix);
    return true;
}

/* The schema returns of a return annotation. */
static bool ret_type(icx *c, uint32_t lo, uint32_t hi, char *buf, size_t cap)
{
    if (lo == hi) return fail(c, lo, "no return annotation");
    hint h;
    if (!parse_hint(c, lo, hi, &h)) return false;
    if (h.none) return snprintf(buf, cap, "()"), true;
    if (h.optional) return fail(c, lo, "an optional return, which infer_schema does not support");
    if (h.tuple) {
        ta_strbuf o;
        ta_strbuf_init_fixed(&o, buf, cap);
        ta_strbuf_puts(&o, "(");
        for (int k = 0; k < h.nelems; k++) {
            const base_type *e = h.elems[k];
            ta_strbuf_printf(&o, "%s%s", k ? ", " : "", e ? e->schema : "Tensor[]");
        }
        ta_strbuf_puts(&o, ")");
        return true;
    }
    if (h.list) {
        if (strcmp(h.base->hint, "Tensor") || !h.list_is_list || h.optional_elems)
            return fail(c, lo, "a list return other than List[Tensor]");
        return snprintf(buf, cap, "Tensor[]"), true;
    }
    if (!h.base->ret) return fail(c, lo, "a return type infer_schema does not support");
    snprintf(buf, cap, "%s", h.base->schema);
    return true;
}

/* ---- defaults ------------------------------------------------------------ */

/* Python's repr of a float: the shortest digits that read back, fixed
 * notation for decimal exponents -4 < e <= 16, else scientific with a
 * two-digit exponent at least. */
static void py_float(double v, char *buf, size_t cap)
{
    if (isnan(v) || isinf(v)) {
        snprintf(buf, cap, "%s", isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
        return;
    }
    char e[40];
    for (int p = 1; p <= 17; p++) {
        snprintf(e, sizeof e, "%.*e", p - 1, v);
        if (strtod(e, NULL) == v) break;
    }
    char digits[24] = {0}, out[80];
    int nd = 0, n = 0;
    const char *p = e;
    if (*p == '-') out[n++] = *p++;
    for (; *p && *p != 'e' && nd < 20; p++)
        if (*p != '.') digits[nd++] = *p;
    int exp = *p ? atoi(p + 1) : 0, decpt = exp + 1;
    if (decpt > -4 && decpt <= 16) {
        if (decpt <= 0) {
            out[n++] = '0';
            out[n++] = '.';
            for (int k = 0; k < -decpt; k++) out[n++] = '0';
            for (int k = 0; k < nd; k++) out[n++] = digits[k];
        } else if (decpt >= nd) {
            for (int k = 0; k < nd; k++) out[n++] = digits[k];
            for (int k = nd; k < decpt; k++) out[n++] = '0';
            out[n++] = '.';
            out[n++] = '0';
        } else {
            for (int k = 0; k < nd; k++) {
                if (k == decpt) out[n++] = '.';
                out[n++] = digits[k];
            }
        }
        snprintf(buf, cap, "%.*s", n, out);
        return;
    }
    out[n++] = digits[0];
    if (nd > 1) out[n++] = '.';
    for (int k = 1; k < nd; k++) out[n++] = digits[k];
    snprintf(buf, cap, "%.*se%c%02d", n, out, exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
}

/* torch.dtype names as str() spells them, aliases resolved. */
static const char *dtype_name(const xfile *f, const xtok *t)
{
    static const char *const alias[][2] = {
        {"float", "float32"}, {"double", "float64"}, {"half", "float16"}, {"long", "int64"},
        {"int", "int32"}, {"short", "int16"}, {"cfloat", "complex64"}, {"cdouble", "complex128"},
        {"chalf", "complex32"}};
    static const char *const names[] = {
        "float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8",
        "uint8", "bool", "complex64", "complex128", "complex32", "uint16", "uint32", "uint64",
        "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"};
    for (size_t k = 0; k < sizeof alias / sizeof alias[0]; k++)
        if (xf_is(f, t, alias[k][0])) return alias[k][1];
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (xf_is(f, t, names[k])) return names[k];
    return NULL;
}

/* str() of a default value, as infer_schema writes it. */
static bool default_repr(icx *c, uint32_t lo, uint32_t hi, char *buf, size_t cap)
{
    const xfile *f = c->f;
    bool neg = lo + 1 < hi && xf_punct(xf_tok(f, lo), '-');
    const xtok *t = xf_tok(f, lo + (neg ? 1 : 0));
    if (hi - lo == 1u + neg && t->kind == XT_NUMBER) {
        char lit[64];
        size_t n = 0;
        for (uint32_t k = 0; k < t->len && n + 1 < sizeof lit; k++)
            if (f->s[t->off + k] != '_') lit[n++] = f->s[t->off + k];
        lit[n] = '\0';
        bool is_float = strpbrk(lit, ".eE") && !(lit[0] == '0' && (lit[1] | 32) == 'x');
        if ((lit[n ? n - 1 : 0] | 32) == 'j') return fail(c, lo, "a complex default");
        char *end;
        if (is_float) {
            double v = strtod(lit, &end);
            if (*end) return fail(c, lo, "a number the scanner does not read");
            py_float(neg ? -v : v, buf, cap);
            return true;
        }
        int base = lit[0] == '0' && lit[1] ? ((lit[1] | 32) == 'x' ? 16 : (lit[1] | 32) == 'o' ? 8 : (lit[1] | 32) == 'b' ? 2 : 10) : 10;
        unsigned long long v = strtoull(base == 10 ? lit : lit + 2, &end, base);
        if (*end) return fail(c, lo, "a number the scanner does not read");
        snprintf(buf, cap, "%s%llu", neg && v ? "-" : "", v);
        return true;
    }
    if (neg) return fail(c, lo, "a default that is an expression");
    if (hi - lo == 1 && t->kind == XT_IDENT &&
        (xf_is(f, t, "None") || xf_is(f, t, "True") || xf_is(f, t, "False"))) {
        snprintf(buf, cap, "%.*s", (int)t->len, f->s + t->off);
        return true;
    }
    if (hi - lo == 1 && t->kind == XT_STRING) {
        xtext s = {0};
        bool ok = ta_xpy_decode((xfile *)f, t, &s) && s.n + 3 <= cap;
        if (ok) snprintf(buf, cap, "\"%s\"", s.s ? s.s : "");
        if (s.oom && ((xfile *)f)->st == TA_OK) ((xfile *)f)->st = TA_ERR_NOMEM;
        xt_free(&s);
        return ok ? true : fail(c, lo, "a string default the scanner does not read");
    }
    uint32_t i = lo;
    const xtok *last = dotted_last(f, &i, hi);
    const char *dt = last && i == hi && hi - lo == 3 && xf_ident(f, lo, "torch") ? dtype_name(f, last) : NULL;
    if (dt) {
        snprintf(buf, cap, "%s", dt);
        return true;
    }
    return fail(c, lo, "a default that is an expression");
}

/* ---- the schema ----------------------------------------------------------- */

static uint32_t span_off(const xfile *f, uint32_t lo) { return xf_tok(f, lo)->off; }
static uint32_t span_len(const xfile *f, uint32_t lo, uint32_t hi)
{
    const xtok *a = xf_tok(f, lo), *b = xf_tok(f, hi - 1);
    return hi > lo ? b->off + b->len - a->off : 1;
}

static bool mutated(const xpy_sig *sig, const char *name, uint32_t len)
{
    for (uint32_t k = 0; k < sig->nmutates; k++)
        if (sig->mutates_len[k] == len && !memcmp(sig->mutates[k], name, len)) return true;
    return false;
}

/* One parameter "name: hint [= default]" (index idx) appended to out. */
static bool param(icx *c, const xpy_sig *sig, xspan p, int idx, xtext *out, uint32_t *seen)
{
    xfile *f = c->f;
    const xtok *name = xf_tok(f, p.lo);
    if (!xf_ident(f, p.lo, NULL)) return fail(c, p.lo, "*args, **kwargs or a positional-only marker");
    if (p.hi == p.lo + 1 || !xf_punct(xf_tok(f, p.lo + 1), ':'))
        return fail(c, p.lo, "a parameter without a type annotation");
    uint32_t ann = p.lo + 2, eq = ann;
    while (eq < p.hi && !xf_punct(xf_tok(f, eq), '=')) {
        const xtok *t = xf_tok(f, eq);
        eq = t->kind == XT_PUNCT && t->len == 1 && strchr("([{", (char)t->punct) ? xf_close(f, eq) + 1 : eq + 1;
    }
    if (eq > p.hi) eq = p.hi;
    char type[64];
    if (!arg_type(c, ann, eq, type, sizeof type)) return false;
    bool mut = sig->mutates_unknown ? !strncmp(type, "Tensor", 6)
                                    : mutated(sig, f->s + name->off, name->len);
    if (mut && strncmp(type, "Tensor", 6)) return fail(c, p.lo, "a mutated argument that is not a Tensor");
    if (mut) {
        char rest[8] = {0}; /* "", "?", "[]", "?[]" or "[]?" */
        memcpy(rest, type + 6, strnlen(type + 6, sizeof rest - 1));
        snprintf(type, sizeof type, "Tensor(a%d!)%s", idx, rest);
        (*seen)++;
    }
    xt_stand(out, type, (uint32_t)strlen(type), span_off(f, ann), span_len(f, ann, eq));
    xt_stand(out, " ", 1, name->off, name->len);
    xt_copy(out, f->s, name->off, name->len);
    if (eq < p.hi) {
        char def[80];
        if (eq + 1 >= p.hi || !default_repr(c, eq + 1, p.hi, def + 1, sizeof def - 1)) return false;
        def[0] = '=';
        xt_stand(out, def, (uint32_t)strlen(def), span_off(f, eq), span_len(f, eq, p.hi));
    }
    return true;
}

bool ta_xpy_infer(xfile *f, const xpy_sig *sig, xtext *out)
{
    icx c = {f, NULL, 0};
    xspan ps[MAX_PARAMS];
    uint32_t open = sig->params_lo - 1;
    int n = xf_split(f, open, sig->params_hi, ps, MAX_PARAMS);
    bool ok = n <= MAX_PARAMS || fail(&c, open, "more parameters than the scanner reads");
    uint32_t seen = 0;
    xt_stand(out, "(", 1, xf_tok(f, open)->off, 1);
    bool kwonly = false, first = true;
    for (int k = 0, idx = 0; ok && k < n; k++) {
        xspan p = ps[k];
        if (p.hi == p.lo + 1 && xf_punct(xf_tok(f, p.lo), '*')) {
            kwonly = true;
            continue;
        }
        if (!first) xt_stand(out, ", ", 2, xf_tok(f, p.lo)->off, 1);
        if (kwonly) {
            xt_stand(out, "*, ", 3, xf_tok(f, p.lo)->off, 1);
            kwonly = false;
        }
        first = false;
        ok = param(&c, sig, p, idx++, out, &seen);
    }
    if (ok && !sig->mutates_unknown && seen < sig->nmutates)
        ok = fail(&c, open, "mutates_args names an argument the function does not have");
    char ret[256];
    if (ok && (ok = ret_type(&c, sig->ret_lo, sig->ret_hi, ret, sizeof ret))) {
        xt_stand(out, ") -> ", 5, xf_tok(f, sig->params_hi)->off, 1);
        uint32_t rlo = sig->ret_lo, rhi = sig->ret_hi;
        xt_stand(out, ret, (uint32_t)strlen(ret), span_off(f, rlo), span_len(f, rlo, rhi));
    }
    if (!ok) {
        const xtok *t = xf_tok(f, c.why_tok);
        xf_report(f, TA_SEV_NOTE, t->off, t->len, XR_INFERRED, NULL,
                  "torch infers this custom_op's schema from its type hints, but the scanner cannot build it exactly (%s)",
                  c.why ? c.why : "unknown reason");
    }
    return ok && !out->oom;
}
