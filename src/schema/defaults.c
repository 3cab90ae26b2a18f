/* defaults.c - which default values torch accepts for which types.
 *
 * torch 1.13.1 reads a default according to its argument's type: a Tensor
 * (or Generator) takes only None, a Device a device string, a list a
 * bracketed list of its element type (or, with a fixed size, one value that
 * is repeated), and the scalar types (int, float, bool, str, Scalar, the
 * int-like ScalarType / Layout / MemoryFormat, any optional) one constant:
 * True, False, None, a string, a number or one of a few enum names. Other
 * types (t, Any, Dict, tuples, Storage...) take no default at all. This file
 * re-reads the default's tokens with those rules; it rejects what torch
 * rejects, including what torch only rejects with an internal assertion.
 * One addition from newer PyTorch, whose custom operators write it and
 * whose torch.library.infer_schema emits it: a ScalarType (or ScalarType?)
 * argument may default to a dtype's name (float32, bfloat16, ...). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/lexer.h"
#include "schema/parser.h"

typedef enum vkind { V_BOOL, V_NONE, V_STR, V_INT, V_FLOAT, V_COMPLEX } vkind;

static bool name_is(const ta_type *t, const char *const *names)
{
    for (; *names; names++)
        if (ta_str_eq(t->name, *names)) return true;
    return false;
}

ta_default_form ta_default_form_of(const ta_type *t, ta_default_elem *ek)
{
    static const char *const tensors[] = {"Tensor", "Generator", "ConstQuantizerPtr",
                                          "Quantizer", NULL};
    static const char *const ints[] = {"int", "SymInt", "ScalarType", "Layout",
                                       "MemoryFormat", "DeviceIndex", NULL};
    static const char *const others[] = {"str", "Dimname", "Scalar", NULL};
    *ek = TA_DE_OTHER;
    switch (t->kind) {
    case TA_TYPE_OPTIONAL: return TA_DF_SINGLE;
    case TA_TYPE_LIST: {
        ta_default_elem inner;
        ta_default_form d = ta_default_form_of(t->elems[0], &inner);
        *ek = d == TA_DF_SINGLE && t->elems[0]->kind == TA_TYPE_NAME ? inner : TA_DE_OTHER;
        return TA_DF_LIST;
    }
    case TA_TYPE_NAME:
        if (name_is(t, tensors)) return TA_DF_TENSOR;
        if (ta_str_eq(t->name, "Device")) return TA_DF_DEVICE;
        if (name_is(t, ints)) {
            *ek = TA_DE_INT;
            return TA_DF_SINGLE;
        }
        if (ta_str_eq(t->name, "float") || ta_str_eq(t->name, "SymFloat")) {
            *ek = TA_DE_FLOAT;
            return TA_DF_SINGLE;
        }
        if (ta_str_eq(t->name, "complex")) {
            *ek = TA_DE_COMPLEX;
            return TA_DF_SINGLE;
        }
        if (ta_str_eq(t->name, "bool") || ta_str_eq(t->name, "SymBool")) {
            *ek = TA_DE_BOOL;
            return TA_DF_SINGLE;
        }
        if (name_is(t, others)) return TA_DF_SINGLE;
        return TA_DF_NO_DEFAULT;
    case TA_TYPE_TUPLE:
    case TA_TYPE_APPLY: break;
    }
    return TA_DF_NO_DEFAULT;
}

typedef struct checker {
    ta_lexer lx;
    ta_tok cur;
    uint32_t base; /* offset of the default in the schema */
    char *msg;
    size_t cap;
    uint32_t *off, *len;
    const char **hint;
    bool dtype; /* a ScalarType argument: dtype names are values too */
} checker;

bool ta_default_dtype_name(const char *s, uint32_t n)
{
    static const char *const names[] = {
        "float32", "float64", "double", "float16", "half", "bfloat16", "complex32", "chalf",
        "complex64", "cfloat", "complex128", "cdouble", "int8", "int16", "short", "int32",
        "int", "int64", "uint8", "uint16", "uint32", "uint64", "bool", "qint8", "quint8",
        "qint32", "quint4x2", "quint2x4", "float8_e5m2", "float8_e4m3fn", "float8_e5m2fnuz",
        "float8_e4m3fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2", NULL};
    for (int i = 0; names[i]; i++)
        if (strlen(names[i]) == n && !memcmp(names[i], s, n)) return true;
    return false;
}

static void adv(checker *c) { ta_lex_next(&c->lx, &c->cur); }

static bool fail(checker *c, const ta_tok *t, const char *fmt, const char *arg)
{
    snprintf(c->msg, c->cap, fmt, arg);
    *c->off = c->base + t->off;
    *c->len = t->len ? t->len : 1;
    return false;
}

static bool has_any(const char *s, uint32_t n, const char *chars)
{
    for (uint32_t i = 0; i < n; i++)
        if (strchr(chars, s[i])) return true;
    return false;
}

/* torch's string literal escapes: \\ \' \" \<newline> \a \b \f \n \v \t and
 * three octal digits; nothing else. */
static bool check_string(checker *c, const ta_tok *t)
{
    const char *s = c->lx.s + t->off;
    uint32_t q = (t->len >= 6 && s[1] == s[0] && s[2] == s[0]) ? 3 : 1;
    uint32_t end = t->len - q;
    for (uint32_t i = q; i < end; i++) {
        if (s[i] != '\\') continue;
        char e = i + 1 < end ? s[i + 1] : '\0';
        if (strchr("\\'\"\nabfnvt", e) && e) {
            i++;
            continue;
        }
        if (e == 'x') return fail(c, t, "unsupported hex escape in string default%s", "");
        if (e == 'u' || e == 'U')
            return fail(c, t, "unsupported unicode escape in string default%s", "");
        if (i + 3 < end && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
            s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
            i += 3;
            continue;
        }
        return fail(c, t, "ill-formed escape in string default%s", "");
    }
    return true;
}

/* One constant (torch's parseSingleConstant) read as kind ek. */
static bool single(checker *c, ta_default_elem ek, vkind *v)
{
    ta_tok t = c->cur;
    switch (t.kind) {
    case TK_TRUE:
    case TK_FALSE: *v = V_BOOL; break;
    case TK_NONE: *v = V_NONE; break;
    case TK_STRING:
        *v = V_STR;
        if (!check_string(c, &t)) return false;
        break;
    case TK_IDENT: {
        static const char *const ok[] = {"float", "complex", "long", "strided", "Mean",
                                         "contiguous_format", NULL};
        bool found = false;
        for (int i = 0; ok[i] && !found; i++)
            found = strlen(ok[i]) == t.len && !memcmp(ok[i], c->lx.s + t.off, t.len);
        if (!found && c->dtype) found = ta_default_dtype_name(c->lx.s + t.off, t.len);
        if (!found) {
            *c->hint = (t.len == 3 && (!memcmp(c->lx.s + t.off, "inf", 3) ||
                                       !memcmp(c->lx.s + t.off, "nan", 3)))
                           ? "torch 1.13.1 cannot read inf or nan as a default"
                           : "the only names torch accepts as defaults are float, complex, "
                             "long, strided, Mean and contiguous_format";
            char name[48];
            snprintf(name, sizeof name, "%.*s", (int)(t.len < 40 ? t.len : 40), c->lx.s + t.off);
            return fail(c, &t, "invalid default value '%s'", name);
        }
        *v = V_INT;
        break;
    }
    default: {
        bool neg = t.kind == '-';
        if (neg) {
            adv(c);
            t = c->cur;
        }
        if (t.kind != TK_NUMBER) return fail(c, &t, "expected a number%s", "");
        /* (the parser has already reported anything but a number after '-') */
        const char *s = c->lx.s + t.off;
        char buf[400];
        if (t.len + 2 > sizeof buf) return fail(c, &t, "number too long%s", "");
        buf[0] = neg ? '-' : '+';
        memcpy(buf + 1, s, t.len);
        buf[t.len + 1] = '\0';
        if (ek == TA_DE_COMPLEX || has_any(s, t.len, "j")) {
            /* torch drops the last character (the 'j') and reads the rest as
             * the imaginary part: "1.5j" and, oddly, "15" (= 1j) pass, while
             * "1" or ".5" do not. */
            *v = V_COMPLEX;
            buf[t.len] = '\0';
            char *end;
            errno = 0;
            (void)strtod(buf, &end);
            if (end == buf || errno == ERANGE) /* std::stod wants a prefix only */
                return fail(c, &t, "not a complex number (write it as 1.5j)%s", "");
        } else if (ek == TA_DE_FLOAT || has_any(s, t.len, ".eE")) {
            *v = V_FLOAT;
            errno = 0;
            (void)strtod(buf, NULL);
            if (errno == ERANGE)
                return fail(c, &t, "float default out of range%s", "");
        } else {
            *v = V_INT;
            errno = 0;
            (void)strtoll(buf, NULL, 10);
            if (errno == ERANGE)
                return fail(c, &t, "integer default out of range%s", "");
        }
    }
    }
    adv(c);
    return true;
}

static bool element_fits(ta_default_elem ek, vkind v)
{
    switch (ek) {
    case TA_DE_INT: return v == V_INT;
    case TA_DE_FLOAT: return v == V_FLOAT;
    case TA_DE_COMPLEX: return v == V_COMPLEX;
    case TA_DE_BOOL: return v == V_BOOL;
    case TA_DE_OTHER: break;
    }
    return false;
}

static const char *ekind_name(ta_default_elem ek)
{
    switch (ek) {
    case TA_DE_INT: return "an int";
    case TA_DE_FLOAT: return "a float";
    case TA_DE_COMPLEX: return "a complex number";
    case TA_DE_BOOL: return "a bool";
    case TA_DE_OTHER: break;
    }
    return "other";
}

bool ta_schema_check_default(const ta_type *t, const ta_default *d, char *msg,
                             size_t cap, uint32_t *off, uint32_t *len,
                             const char **hint)
{
    checker c = {{d->text.ptr ? d->text.ptr : "", d->text.len, 0}, {0, 0, 0, 0}, *off,
                 msg, cap, off, len, hint, false};
    const ta_type *inner = t->kind == TA_TYPE_OPTIONAL ? t->elems[0] : t;
    c.dtype = inner->kind == TA_TYPE_NAME && ta_str_eq(inner->name, "ScalarType");
    adv(&c);
    ta_default_elem ek;
    vkind v;
    switch (ta_default_form_of(t, &ek)) {
    case TA_DF_TENSOR:
        if (c.cur.kind != TK_NONE)
            return fail(&c, &c.cur, "a Tensor or Generator argument can only default to None%s", "");
        return true;
    case TA_DF_DEVICE: {
        if (c.cur.kind != TK_STRING)
            return fail(&c, &c.cur, "a Device argument defaults to a device string such as "
                                    "\"cpu\"%s", "");
        /* torch reads it as a device: a known type, then optionally ':' and an index */
        static const char *const types[] = {"cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl",
                                            "opencl", "ideep", "hip", "ve", "fpga", "ort",
                                            "xla", "lazy", "vulkan", "mps", "meta", "hpu",
                                            "privateuseone", NULL};
        const char *s = d->text.ptr + c.cur.off + 1;
        uint32_t n = c.cur.len - 2, k = 0;
        while (k < n && s[k] != ':') k++;
        bool known = false;
        for (int i = 0; types[i] && !known; i++)
            known = strlen(types[i]) == k && !memcmp(types[i], s, k);
        bool index_ok = k == n || (k + 1 < n && k + 11 > n);
        for (uint32_t i = k + 1; i < n && index_ok; i++) index_ok = s[i] >= '0' && s[i] <= '9';
        if (!known || !index_ok)
            return fail(&c, &c.cur, "invalid device string (expected e.g. \"cpu\" or "
                                    "\"cuda:0\")%s", "");
        return true;
    }
    case TA_DF_SINGLE:
        if (c.cur.kind == '[')
            return fail(&c, &c.cur, "a list default needs a list type%s", "");
        return single(&c, ek, &v);
    case TA_DF_LIST: {
        if (c.cur.kind == TK_IDENT || (c.cur.kind == TK_NONE && t->fixed_size < 0)) {
            *hint = "write a list such as [] or [0, 1], or make the type optional (int[]?) "
                    "to default to None";
            return fail(&c, &c.cur, "a list argument defaults to a list%s", "");
        }
        if (ek == TA_DE_OTHER)
            return fail(&c, &c.cur, "list defaults are only supported for int, float, "
                                    "complex and bool lists%s", "");
        if (c.cur.kind != '[' && t->fixed_size < 0) {
            *hint = "write the value in brackets ([1]); only a fixed-size list (int[2]) "
                    "repeats a single value";
            return fail(&c, &c.cur, "a list argument defaults to a list%s", "");
        }
        if (c.cur.kind != '[') { /* int[2] x=1 repeats the value */
            ta_tok at = c.cur;
            if (!single(&c, ek, &v)) return false;
            if (!element_fits(ek, v))
                return fail(&c, &at, "default is not %s", ekind_name(ek));
            return true;
        }
        adv(&c);
        while (c.cur.kind != ']') {
            ta_tok at = c.cur;
            if (!single(&c, ek, &v)) return false;
            if (!element_fits(ek, v))
                return fail(&c, &at, "list element is not %s", ekind_name(ek));
            if (c.cur.kind == ',') adv(&c);
        }
        return true;
    }
    case TA_DF_NO_DEFAULT: break;
    }
    *hint = "torch reads defaults only for Tensor, Generator, Device, str, Scalar, the "
            "number types and their optionals and lists";
    return fail(&c, &c.cur, "arguments of this type cannot have a default value%s", "");
}
