/* cond.c - the condition language of discovery (cond.h): a recursive
 * descent parser over C++'s expression syntax (one function per precedence
 * level, as C++ ranks them), evaluation over a case model with unknowns,
 * the solver that adjusts one atom, and the printer. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "exec/discover/cond.h"
#include "exec/discover/model.h"

/* ---- dtypes ------------------------------------------------------------- */

typedef struct dtype_name {
    const char *name;
    DLDataType t;
} dtype_name;

/* Printed spelling first for each dtype (dsc_dtype_spelling finds it). */
static const dtype_name dtype_names[] = {
    {"Float", {kDLFloat, 32, 1}},   {"Double", {kDLFloat, 64, 1}},  {"Long", {kDLInt, 64, 1}},
    {"Int", {kDLInt, 32, 1}},       {"Short", {kDLInt, 16, 1}},     {"Char", {kDLInt, 8, 1}},
    {"Byte", {kDLUInt, 8, 1}},      {"Bool", {TA_DL_BOOL, 8, 1}},   {"Half", {kDLFloat, 16, 1}},
    {"BFloat16", {kDLBfloat, 16, 1}}, {"ComplexFloat", {kDLComplex, 64, 1}}, {"ComplexDouble", {kDLComplex, 128, 1}},
    {"Float32", {kDLFloat, 32, 1}}, {"Float64", {kDLFloat, 64, 1}},
    {"Int64", {kDLInt, 64, 1}},     {"Int32", {kDLInt, 32, 1}},     {"Int16", {kDLInt, 16, 1}},
    {"Int8", {kDLInt, 8, 1}},       {"UInt8", {kDLUInt, 8, 1}},     {"Float16", {kDLFloat, 16, 1}},
};

int64_t dsc_dtype_pack(DLDataType t) { return (int64_t)t.code << 16 | (int64_t)t.bits << 8 | t.lanes; }

DLDataType dsc_dtype_unpack(int64_t v)
{
    return (DLDataType){(uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint16_t)(v & 0xff)};
}

bool dsc_dtype_by_name(const char *name, size_t len, DLDataType *out)
{
    /* torch's Python names (float32, int64, long...) and c10's (Float, kFloat32). */
    static const dtype_name py[] = {
        {"float32", {kDLFloat, 32, 1}}, {"float", {kDLFloat, 32, 1}},   {"float64", {kDLFloat, 64, 1}},
        {"double", {kDLFloat, 64, 1}},  {"int64", {kDLInt, 64, 1}},     {"long", {kDLInt, 64, 1}},
        {"int32", {kDLInt, 32, 1}},     {"int", {kDLInt, 32, 1}},       {"int16", {kDLInt, 16, 1}},
        {"int8", {kDLInt, 8, 1}},       {"uint8", {kDLUInt, 8, 1}},     {"bool", {TA_DL_BOOL, 8, 1}},
        {"float16", {kDLFloat, 16, 1}}, {"half", {kDLFloat, 16, 1}},    {"bfloat16", {kDLBfloat, 16, 1}},
        {"complex64", {kDLComplex, 64, 1}}, {"cfloat", {kDLComplex, 64, 1}},
        {"complex128", {kDLComplex, 128, 1}}, {"cdouble", {kDLComplex, 128, 1}},
        /* FBGEMM's short spellings ("indices dtype is double(!= I64)") */
        {"I64", {kDLInt, 64, 1}},       {"I32", {kDLInt, 32, 1}},       {"F32", {kDLFloat, 32, 1}},
    };
    if (len > 1 && name[0] == 'k' && isupper((unsigned char)name[1])) name++, len--;
    for (size_t i = 0; i < sizeof dtype_names / sizeof *dtype_names; i++)
        if (strlen(dtype_names[i].name) == len && !memcmp(dtype_names[i].name, name, len)) {
            *out = dtype_names[i].t;
            return true;
        }
    for (size_t i = 0; i < sizeof py / sizeof *py; i++)
        if (strlen(py[i].name) == len && !memcmp(py[i].name, name, len)) {
            *out = py[i].t;
            return true;
        }
    return false;
}

const char *dsc_dtype_spelling(DLDataType t)
{
    static const char *const k[] = {"kFloat", "kDouble", "kLong", "kInt",      "kShort",       "kChar",
                                    "kByte",  "kBool",   "kHalf", "kBFloat16", "kComplexFloat", "kComplexDouble"};
    for (size_t i = 0; i < sizeof k / sizeof *k; i++)
        if (ta_dtype_eq(dtype_names[i].t, t)) return k[i];
    return NULL;
}

/* ---- lexer --------------------------------------------------------------- */

typedef enum tok_kind { T_END, T_NUM, T_IDENT, T_PUNCT, T_BAD } tok_kind;

typedef struct lexer {
    const char *p, *end;
    tok_kind kind;
    const char *start; /* the token's text */
    size_t len;
    int64_t num;
} lexer;

static void lex_next(lexer *L)
{
    static const char *const two[] = {"==", "!=", "<=", ">=", "&&", "||", "::", "->", NULL};
    while (L->p < L->end && isspace((unsigned char)*L->p)) L->p++;
    L->start = L->p;
    if (L->p >= L->end) {
        L->kind = T_END;
        L->len = 0;
        return;
    }
    unsigned char ch = (unsigned char)*L->p;
    if (isdigit(ch)) {
        char *e;
        L->num = (int64_t)strtoll(L->p, &e, 0);
        L->p = e;
        while (L->p < L->end && strchr("uUlL", *L->p)) L->p++; /* 1L, 0u */
        L->kind = L->p < L->end && (*L->p == '.' && L->p + 1 < L->end && isdigit((unsigned char)L->p[1]))
                      ? T_BAD /* a float literal: not in the language */
                      : T_NUM;
    } else if (isalpha(ch) || ch == '_') {
        /* a name, with its qualifiers: torch::kFloat32, at::ScalarType::Long */
        while (L->p < L->end && (isalnum((unsigned char)*L->p) || *L->p == '_' ||
                                 (*L->p == ':' && L->p + 1 < L->end && L->p[1] == ':' &&
                                  L->p + 2 < L->end && (isalpha((unsigned char)L->p[2]) || L->p[2] == '_'))))
            L->p += *L->p == ':' ? 2 : 1;
        L->kind = T_IDENT;
    } else {
        L->kind = T_PUNCT;
        L->p++;
        for (int i = 0; two[i]; i++)
            if (L->p < L->end && L->start[0] == two[i][0] && *L->p == two[i][1]) {
                L->p++;
                break;
            }
    }
    L->len = (size_t)(L->p - L->start);
}

static bool is_punct(const lexer *L, const char *s)
{
    return L->kind == T_PUNCT && L->len == strlen(s) && !memcmp(L->start, s, L->len);
}

/* ---- parser -------------------------------------------------------------- */

typedef struct parser {
    lexer L;
    dsc_cond *c;
    const ta_decl *d;
    bool bad;
} parser;

static int node(parser *P, dsc_op op, int a, int b, int64_t v)
{
    dsc_cond *c = P->c;
    if (c->nn >= DSC_COND_NODES) {
        P->bad = true;
        return 0;
    }
    c->n[c->nn] = (dsc_node){(uint8_t)op, (int16_t)a, (int16_t)b, v};
    return c->nn++;
}

static bool accept(parser *P, const char *s)
{
    if (!is_punct(&P->L, s)) return false;
    lex_next(&P->L);
    return true;
}

static void expect(parser *P, const char *s)
{
    if (!accept(P, s)) P->bad = true;
}

static int parse_or(parser *P);

/* The last component of a qualified name: at::ScalarType::Long -> Long. */
static const char *last_part(const char *s, size_t len, size_t *out_len)
{
    const char *p = s;
    for (size_t i = 0; i + 1 < len; i++)
        if (s[i] == ':' && s[i + 1] == ':') p = s + i + 2;
    *out_len = len - (size_t)(p - s);
    return p;
}

/* A name: an argument, a dtype constant, true/false, or a free variable. */
static int name_node(parser *P, const char *s, size_t len)
{
    size_t n;
    const char *tail = last_part(s, len, &n);
    DLDataType dt;
    if ((len == 4 && !memcmp(s, "true", 4)) || (len == 5 && !memcmp(s, "false", 5)))
        return node(P, DSC_NUM, -1, -1, len == 4);
    if (n > 1 && tail != s && dsc_dtype_by_name(tail, n, &dt)) return node(P, DSC_DTYPEC, -1, -1, dsc_dtype_pack(dt));
    if (n > 1 && tail[0] == 'k' && isupper((unsigned char)tail[1]) && dsc_dtype_by_name(tail, n, &dt))
        return node(P, DSC_DTYPEC, -1, -1, dsc_dtype_pack(dt));
    for (int i = 0; P->d && i < P->d->nargs; i++)
        if (strlen(P->d->args[i].name) == len && !memcmp(P->d->args[i].name, s, len))
            return node(P, DSC_REF, -1, -1, i);
    dsc_cond *c = P->c;
    for (int f = 0; f < c->nfree; f++)
        if (strlen(c->free[f]) == len && !memcmp(c->free[f], s, len)) return node(P, DSC_REF, -1, -1, -(f + 1));
    if (c->nfree == DSC_MAX_FREE || len >= DSC_NAME_MAX) return node(P, DSC_UNKNOWN, -1, -1, 0);
    memcpy(c->free[c->nfree], s, len);
    c->free[c->nfree][len] = '\0';
    c->nfree++;
    return node(P, DSC_REF, -1, -1, -c->nfree);
}

/* Skips a template argument list <...> (static_cast<int64_t>). */
static void skip_template(parser *P)
{
    int depth = 0;
    do {
        if (is_punct(&P->L, "<")) depth++;
        else if (is_punct(&P->L, ">")) depth--;
        if (P->L.kind == T_END) {
            P->bad = true;
            return;
        }
        lex_next(&P->L);
    } while (depth > 0);
}

/* Skips a call's arguments, from after '(' to after ')'. */
static void skip_args(parser *P)
{
    int depth = 1;
    while (depth > 0 && P->L.kind != T_END) {
        if (is_punct(&P->L, "(")) depth++;
        else if (is_punct(&P->L, ")")) depth--;
        lex_next(&P->L);
    }
    if (depth) P->bad = true;
}

static bool name_is_one(const char *s, size_t len, const char *const *names)
{
    for (; *names; names++)
        if (strlen(*names) == len && !memcmp(*names, s, len)) return true;
    return false;
}

static const DLDataType complexes[] = {{kDLComplex, 64, 1}, {kDLComplex, 128, 1}, {0, 0, 0}};
static const DLDataType floats[] = {{kDLFloat, 32, 1}, {kDLFloat, 64, 1}, {kDLFloat, 16, 1}, {kDLBfloat, 16, 1}, {0, 0, 0}};

/* base's dtype is one of dts (up to the one with no bits): is_complex(),
 * is_floating_point(). */
static int dtype_in(parser *P, int base, const DLDataType *dts)
{
    int any = -1;
    for (; dts->bits; dts++) {
        int eq = node(P, DSC_EQ, node(P, DSC_DTYPE, base, -1, 0), node(P, DSC_DTYPEC, -1, -1, dsc_dtype_pack(*dts)), 0);
        any = any < 0 ? eq : node(P, DSC_OR, any, eq, 0);
    }
    return any;
}

/* base.method(...), after the '.' (or '->'). */
static int method(parser *P, int base)
{
    static const char *const dims[] = {"dim", "ndimension", "ndim", NULL};
    static const char *const cpu[] = {"is_cpu", "device", "get_device", "is_same_size", NULL};
    static const char *const defined[] = {"defined", "has_value", NULL};
    static const char *const dtypes[] = {"dtype", "scalar_type", NULL};
    if (P->L.kind != T_IDENT) {
        P->bad = true;
        return base;
    }
    const char *m = P->L.start;
    size_t len = P->L.len;
    lex_next(&P->L);
    bool call = accept(P, "(");
    if (call && len == 4 && !memcmp(m, "size", 4) && !is_punct(&P->L, ")")) {
        int k = parse_or(P);
        expect(P, ")");
        return node(P, DSC_SIZE, base, k, 0);
    }
    if (call) skip_args(P);
    const dsc_node *b = &P->c->n[base];
    if (name_is_one(m, len, dims)) return node(P, DSC_DIM, base, -1, 0);
    if (len == 5 && !memcmp(m, "sizes", 5)) return node(P, DSC_SIZES, base, -1, 0);
    if (len == 5 && !memcmp(m, "shape", 5)) return node(P, DSC_SIZES, base, -1, 0);
    if (len == 4 && !memcmp(m, "size", 4))
        return b->op == DSC_SIZES ? node(P, DSC_DIM, b->a, -1, 0) : node(P, DSC_LEN, base, -1, 0);
    if (len == 5 && !memcmp(m, "numel", 5)) return node(P, DSC_NUMEL, base, -1, 0);
    if (name_is_one(m, len, dtypes)) return node(P, DSC_DTYPE, base, -1, 0);
    if (len == 10 && !memcmp(m, "is_complex", 10)) return dtype_in(P, base, complexes);
    if (len == 17 && !memcmp(m, "is_floating_point", 17)) return dtype_in(P, base, floats);
    if (len == 13 && !memcmp(m, "is_contiguous", 13)) return node(P, DSC_CONTIG, base, -1, 0);
    if (name_is_one(m, len, defined)) return node(P, DSC_DEFINED, base, -1, 0);
    if (len == 3 && !memcmp(m, "min", 3)) return node(P, DSC_MIN, base, -1, 0);
    if (len == 3 && !memcmp(m, "max", 3)) return node(P, DSC_MAX, base, -1, 0);
    if (len == 5 && !memcmp(m, "value", 5)) return base;
    if (len == 5 && !memcmp(m, "empty", 5) && b->op == DSC_SIZES) return node(P, DSC_EQ, node(P, DSC_DIM, b->a, -1, 0), node(P, DSC_NUM, -1, -1, 0), 0);
    if (name_is_one(m, len, cpu) || (b->op == DSC_TRUE)) return node(P, DSC_TRUE, -1, -1, 0);
    return node(P, DSC_UNKNOWN, -1, -1, 0);
}

static int parse_postfix(parser *P, int base)
{
    for (;;) {
        if (accept(P, ".") || accept(P, "->")) {
            base = method(P, base);
        } else if (accept(P, "[")) {
            int k = is_punct(&P->L, "]") ? -1 : parse_or(P);
            expect(P, "]");
            if (P->c->n[base].op == DSC_SIZES) base = node(P, DSC_SIZE, P->c->n[base].a, k, 0);
            else base = node(P, DSC_ITEM, base, k, 0);
        } else {
            return base;
        }
        if (P->bad) return base;
    }
}

static int parse_unary(parser *P);

static int parse_primary(parser *P)
{
    lexer *L = &P->L;
    if (L->kind == T_NUM) {
        int k = node(P, DSC_NUM, -1, -1, L->num);
        lex_next(L);
        return k;
    }
    if (accept(P, "(")) {
        int k = parse_or(P);
        expect(P, ")");
        return parse_postfix(P, k);
    }
    if (L->kind != T_IDENT) {
        P->bad = true;
        return 0;
    }
    const char *s = L->start;
    size_t len = L->len, n;
    const char *tail = last_part(s, len, &n);
    lex_next(L);
    if (n >= 5 && !memcmp(tail + n - 5, "_cast", 5) && is_punct(L, "<")) {
        skip_template(P); /* static_cast<int64_t>(e) is e */
        expect(P, "(");
        int k = parse_or(P);
        expect(P, ")");
        return parse_postfix(P, k);
    }
    if (is_punct(L, "(")) { /* a function call: int64_t(x), std::abs(...): unknown */
        lex_next(L);
        skip_args(P);
        return parse_postfix(P, node(P, DSC_UNKNOWN, -1, -1, 0));
    }
    return parse_postfix(P, name_node(P, s, len));
}

static int parse_unary(parser *P)
{
    if (accept(P, "-")) return node(P, DSC_NEG, parse_unary(P), -1, 0);
    if (accept(P, "!")) return node(P, DSC_NOT, parse_unary(P), -1, 0);
    if (accept(P, "+")) return parse_unary(P);
    return parse_primary(P);
}

/* The binary operators by precedence, loosest first: each level's
 * operands are the next level's, the last level's unary expressions. */
static const struct {
    const char *tok;
    dsc_op op;
} bin_levels[][4] = {
    {{"==", DSC_EQ}, {"!=", DSC_NE}},
    {{"<", DSC_LT}, {"<=", DSC_LE}, {">", DSC_GT}, {">=", DSC_GE}},
    {{"+", DSC_ADD}, {"-", DSC_SUB}},
    {{"*", DSC_MUL}, {"/", DSC_DIV}, {"%", DSC_MOD}},
};
enum { BIN_LEVELS = sizeof bin_levels / sizeof *bin_levels };

/* The operator of level at the lexer's token, or DSC_NUM. */
static dsc_op bin_op_at(parser *P, size_t level)
{
    for (size_t i = 0; i < 4 && bin_levels[level][i].tok; i++)
        if (is_punct(&P->L, bin_levels[level][i].tok)) return bin_levels[level][i].op;
    return DSC_NUM;
}

/* A left-associative chain of level's operators. */
static int parse_level(parser *P, size_t level)
{
    if (level == BIN_LEVELS) return parse_unary(P);
    int k = parse_level(P, level + 1);
    for (;;) {
        dsc_op op = bin_op_at(P, level);
        if (op == DSC_NUM || P->bad) return k;
        lex_next(&P->L);
        k = node(P, op, k, parse_level(P, level + 1), 0);
    }
}

static int parse_and(parser *P)
{
    int k = parse_level(P, 0);
    while (!P->bad && accept(P, "&&")) k = node(P, DSC_AND, k, parse_level(P, 0), 0);
    return k;
}

static int parse_or(parser *P)
{
    int k = parse_and(P);
    while (!P->bad && accept(P, "||")) k = node(P, DSC_OR, k, parse_and(P), 0);
    return k;
}

bool dsc_cond_parse(dsc_cond *c, const char *text, size_t len, const ta_decl *d)
{
    memset(c, 0, sizeof *c);
    parser P = {.L = {.p = text, .end = text + len}, .c = c, .d = d};
    lex_next(&P.L);
    if (P.L.kind == T_END) return false;
    c->root = parse_or(&P);
    return !P.bad && P.L.kind == T_END;
}

/* ---- evaluation ---------------------------------------------------------- */

typedef enum vkind { V_UNKNOWN, V_INT, V_DTYPE, V_REF } vkind;

/* A value: a number (bools are 0 and 1), a dtype, or a reference to an
 * argument (item -1: the argument itself; >= 0: an item of its list). */
typedef struct cval {
    vkind k;
    int64_t v;
    int arg, item;
} cval;

typedef struct evalctx {
    const dsc_cond *c;
    const dsc_model *m;
    const int *binding;
    int every; /* the item an "every" index stands for now */
} evalctx;

static const cval UNKNOWN = {V_UNKNOWN, 0, -1, -1};

static cval num(int64_t v) { return (cval){V_INT, v, -1, -1}; }

static cval eval(const evalctx *e, int k);

static int bound_arg(const evalctx *e, const dsc_node *n)
{
    if (n->v >= 0) return (int)n->v;
    int f = (int)(-n->v - 1);
    return e->binding && f < e->c->nfree ? e->binding[f] : -1;
}

/* The tensor a reference value names, or NULL. */
static const dsc_tensor *tensor_of(const evalctx *e, cval r)
{
    if (r.k != V_REF || r.arg < 0 || r.arg >= e->m->nargs) return NULL;
    return dsc_model_tensor_c(e->m, r.arg, r.item);
}

static cval ref_value(const evalctx *e, int arg)
{
    if (arg < 0 || arg >= e->m->nargs) return UNKNOWN;
    const dsc_arg *a = &e->m->args[arg];
    if (a->kind == DSC_K_INT || a->kind == DSC_K_BOOL) return a->present ? num(a->i) : UNKNOWN;
    return (cval){V_REF, 0, arg, -1};
}

static cval eval_item(const evalctx *e, const dsc_node *n)
{
    cval base = eval(e, n->a);
    if (base.k != V_REF || base.item >= 0) return UNKNOWN;
    int64_t idx;
    if (n->b < 0 || e->c->n[n->b].op == DSC_REF) {
        idx = e->every; /* [i] with i a loop variable: every item */
    } else {
        cval i = eval(e, n->b);
        if (i.k != V_INT) return UNKNOWN;
        idx = i.v;
    }
    const dsc_arg *a = &e->m->args[base.arg];
    int count = a->kind == DSC_K_LIST || a->kind == DSC_K_INTS ? a->n : 0;
    if (idx < 0) idx += count;
    if (idx < 0 || idx >= count) return UNKNOWN;
    if (a->kind == DSC_K_INTS) return num(a->ints[idx]);
    return (cval){V_REF, 0, base.arg, (int)idx};
}

static cval eval_atom(const evalctx *e, const dsc_node *n)
{
    cval r = eval(e, n->a);
    const dsc_tensor *t = tensor_of(e, r);
    const dsc_arg *a = r.k == V_REF ? &e->m->args[r.arg] : NULL;
    switch ((dsc_op)n->op) {
    case DSC_LEN:
        if (a && r.item < 0 && (a->kind == DSC_K_LIST || a->kind == DSC_K_INTS)) return num(a->n);
        return UNKNOWN;
    case DSC_DEFINED:
        if (t) return num(t->defined);
        return a && a->kind != DSC_K_OTHER ? num(a->present) : UNKNOWN;
    default: break;
    }
    if (!t || !t->defined) return UNKNOWN;
    switch ((dsc_op)n->op) {
    case DSC_DIM: return num(t->ndim);
    case DSC_NUMEL: return num(dsc_tensor_numel(t));
    case DSC_DTYPE: return (cval){V_DTYPE, dsc_dtype_pack(t->dtype), -1, -1};
    case DSC_CONTIG: return num(t->contig);
    case DSC_MIN: return t->ranged ? num(t->lo) : t->seen ? num(t->vlo) : UNKNOWN;
    case DSC_MAX: return t->ranged ? num(t->hi) : t->seen ? num(t->vhi) : UNKNOWN;
    case DSC_SIZE: {
        cval k = eval(e, n->b);
        if (k.k != V_INT) return UNKNOWN;
        int64_t d = k.v < 0 ? k.v + t->ndim : k.v;
        return d >= 0 && d < t->ndim ? num(t->shape[d]) : UNKNOWN;
    }
    default: return UNKNOWN;
    }
}

static bool truth(cval v, int *out)
{
    if (v.k != V_INT) return false;
    *out = v.v != 0;
    return true;
}

static cval eval_binary(const evalctx *e, const dsc_node *n)
{
    cval x = eval(e, n->a), y = eval(e, n->b);
    int tx, ty;
    if (n->op == DSC_AND || n->op == DSC_OR) {
        bool kx = truth(x, &tx), ky = truth(y, &ty);
        int absorb = n->op == DSC_OR; /* true absorbs an or, false an and */
        if ((kx && tx == absorb) || (ky && ty == absorb)) return num(absorb);
        return kx && ky ? num(!absorb) : UNKNOWN;
    }
    if (n->op == DSC_EQ || n->op == DSC_NE) {
        if (x.k == V_UNKNOWN || y.k == V_UNKNOWN || x.k == V_REF || y.k == V_REF) return UNKNOWN;
        if (x.k != y.k) return UNKNOWN; /* a dtype against a number */
        return num((x.v == y.v) == (n->op == DSC_EQ));
    }
    if (x.k != V_INT || y.k != V_INT) return UNKNOWN;
    switch ((dsc_op)n->op) {
    case DSC_ADD: return num(x.v + y.v);
    case DSC_SUB: return num(x.v - y.v);
    case DSC_MUL: return num(x.v * y.v);
    case DSC_DIV: return y.v ? num(x.v / y.v) : UNKNOWN;
    case DSC_MOD: return y.v ? num(x.v % y.v) : UNKNOWN;
    case DSC_LT: return num(x.v < y.v);
    case DSC_LE: return num(x.v <= y.v);
    case DSC_GT: return num(x.v > y.v);
    case DSC_GE: return num(x.v >= y.v);
    default: return UNKNOWN;
    }
}

static cval eval(const evalctx *e, int k)
{
    if (k < 0 || k >= e->c->nn) return UNKNOWN;
    const dsc_node *n = &e->c->n[k];
    switch ((dsc_op)n->op) {
    case DSC_NUM: return num(n->v);
    case DSC_DTYPEC: return (cval){V_DTYPE, n->v, -1, -1};
    case DSC_REF: return ref_value(e, bound_arg(e, n));
    case DSC_ITEM: return eval_item(e, n);
    case DSC_TRUE: return num(1);
    case DSC_SIZES:
    case DSC_UNKNOWN: return UNKNOWN;
    case DSC_NEG: {
        cval x = eval(e, n->a);
        return x.k == V_INT ? num(-x.v) : UNKNOWN;
    }
    case DSC_NOT: {
        int t;
        return truth(eval(e, n->a), &t) ? num(!t) : UNKNOWN;
    }
    case DSC_DIM: case DSC_SIZE: case DSC_NUMEL: case DSC_DTYPE: case DSC_CONTIG:
    case DSC_DEFINED: case DSC_MIN: case DSC_MAX: case DSC_LEN: return eval_atom(e, n);
    default: return eval_binary(e, n);
    }
}

/* The list an "every" index ranges over in node k's subtree: its argument, or -1. */
static int every_list(const dsc_cond *c, int k, const int *binding, const dsc_model *m)
{
    if (k < 0) return -1;
    const dsc_node *n = &c->n[k];
    if (n->op == DSC_ITEM && (n->b < 0 || c->n[n->b].op == DSC_REF)) {
        int arg = dsc_cond_ref_arg(c, n->a, binding);
        if (arg >= 0 && arg < m->nargs && m->args[arg].kind == DSC_K_LIST) return arg;
    }
    int a = every_list(c, n->a, binding, m);
    return a >= 0 ? a : every_list(c, n->b, binding, m);
}

int dsc_cond_eval(const dsc_cond *c, const dsc_model *m, const int *binding)
{
    evalctx e = {c, m, binding, 0};
    int list = every_list(c, c->root, binding, m);
    int count = list >= 0 ? m->args[list].n : 1, result = 1;
    for (e.every = 0; e.every < count; e.every++) {
        int t;
        if (!truth(eval(&e, c->root), &t)) result = -1;
        else if (!t) return 0;
    }
    return result;
}

bool dsc_cond_value(const dsc_cond *c, int k, const dsc_model *m, const int *binding, int64_t *v)
{
    evalctx e = {c, m, binding, 0};
    cval x = eval(&e, k);
    if (x.k != V_INT && x.k != V_DTYPE) return false;
    *v = x.v;
    return true;
}

int dsc_cond_ref_arg(const dsc_cond *c, int k, const int *binding)
{
    while (k >= 0 && k < c->nn) {
        const dsc_node *n = &c->n[k];
        if (n->op == DSC_REF) {
            if (n->v >= 0) return (int)n->v;
            int f = (int)(-n->v - 1);
            return binding && f < c->nfree ? binding[f] : -1;
        }
        if (n->op == DSC_NUM || n->op == DSC_DTYPEC || n->op == DSC_UNKNOWN || n->op == DSC_TRUE) return -1;
        k = n->a;
    }
    return -1;
}

/* ---- atoms and solving ------------------------------------------------- */

/* A constant index: a number, or a negated one. */
static bool const_index(const dsc_cond *c, int k, int64_t *v)
{
    if (k < 0 || k >= c->nn) return false;
    if (c->n[k].op == DSC_NUM) {
        *v = c->n[k].v;
        return true;
    }
    if (c->n[k].op == DSC_NEG && const_index(c, c->n[k].a, v)) {
        *v = -*v;
        return true;
    }
    return false;
}

static bool atom_op(uint8_t op)
{
    return op == DSC_DIM || op == DSC_SIZE || op == DSC_NUMEL || op == DSC_DTYPE || op == DSC_CONTIG ||
           op == DSC_DEFINED || op == DSC_MIN || op == DSC_MAX || op == DSC_LEN;
}

bool dsc_cond_is_atom(const dsc_cond *c, int k, const dsc_model *m, const int *binding)
{
    if (k < 0 || k >= c->nn) return false;
    const dsc_node *n = &c->n[k];
    int arg = dsc_cond_ref_arg(c, k, binding);
    if (arg < 0 || arg >= m->nargs) return false;
    const dsc_arg *a = &m->args[arg];
    if (n->op == DSC_REF) return a->kind == DSC_K_INT || a->kind == DSC_K_BOOL;
    if (n->op == DSC_ITEM) return a->kind == DSC_K_INTS && n->b >= 0 && c->n[n->b].op == DSC_NUM;
    if (!atom_op(n->op)) return false;
    if (n->op == DSC_LEN) return a->kind == DSC_K_LIST || a->kind == DSC_K_INTS;
    if (n->op == DSC_DEFINED) return m->d && arg < m->d->nargs && m->d->args[arg].optional;
    int64_t idx;
    if (n->op == DSC_SIZE && !const_index(c, n->b, &idx)) return false;
    return a->kind == DSC_K_TENSOR || a->kind == DSC_K_LIST;
}

int dsc_cond_atoms(const dsc_cond *c, const dsc_model *m, const int *binding, int *out, int cap)
{
    int n = 0;
    /* Nodes are made operands first: in node order, atoms come as written. */
    for (int k = 0; k < c->nn && n < cap; k++)
        if (dsc_cond_is_atom(c, k, m, binding)) out[n++] = k;
    return n;
}

/* The tensors an atom's reference stands for: one, or every item of a list. */
typedef struct targets {
    dsc_tensor *t[DSC_MAX_ITEMS];
    int n;
    int arg;
} targets;

static void atom_targets(const dsc_cond *c, int k, dsc_model *m, const int *binding, targets *out)
{
    out->n = 0;
    out->arg = dsc_cond_ref_arg(c, k, binding);
    if (out->arg < 0 || out->arg >= m->nargs) return;
    dsc_arg *a = &m->args[out->arg];
    int ref = c->n[k].a;
    if (a->kind == DSC_K_TENSOR) {
        out->t[out->n++] = &a->t;
    } else if (a->kind == DSC_K_LIST && ref >= 0 && c->n[ref].op == DSC_ITEM) {
        int64_t idx;
        if (const_index(c, c->n[ref].b, &idx)) {
            if (idx < 0) idx += a->n;
            if (idx >= 0 && idx < a->n) out->t[out->n++] = &a->items[idx];
        } else {
            for (int i = 0; i < a->n; i++) out->t[out->n++] = &a->items[i];
        }
    }
}

/* Sets atom k to v in m; false when it cannot take v. */
static bool set_atom(const dsc_cond *c, int k, dsc_model *m, const int *binding, int64_t v)
{
    const dsc_node *n = &c->n[k];
    int arg = dsc_cond_ref_arg(c, k, binding);
    dsc_arg *a = &m->args[arg];
    if (n->op == DSC_REF) {
        a->i = a->kind == DSC_K_BOOL ? v != 0 : v;
        a->present = true;
        return true;
    }
    if (n->op == DSC_ITEM) {
        int64_t idx;
        if (!const_index(c, n->b, &idx) || idx < 0 || idx >= a->n) return false;
        a->ints[idx] = v;
        return true;
    }
    if (n->op == DSC_LEN) {
        if (v < 0 || v > (a->kind == DSC_K_LIST ? DSC_MAX_ITEMS : DSC_MAX_INTS)) return false;
        for (int i = a->n; i < v; i++) {
            if (a->kind == DSC_K_INTS) a->ints[i] = 1;
            else dsc_tensor_set_defined(&a->items[i], true, i ? &a->items[0] : dsc_model_first_tensor(m));
        }
        a->n = (int)v;
        return true;
    }
    if (n->op == DSC_DEFINED && a->kind != DSC_K_TENSOR && a->kind != DSC_K_LIST) {
        a->present = v != 0;
        return true;
    }
    targets ts;
    atom_targets(c, k, m, binding, &ts);
    int64_t idx = 0;
    if (n->op == DSC_SIZE && !const_index(c, n->b, &idx)) return false;
    for (int i = 0; i < ts.n; i++) {
        dsc_tensor *t = ts.t[i];
        bool ok = true;
        switch ((dsc_op)n->op) {
        case DSC_DIM: ok = dsc_tensor_set_dim(t, v); break;
        case DSC_SIZE: ok = dsc_tensor_set_size(t, idx, v); break;
        case DSC_NUMEL: ok = dsc_tensor_set_numel(t, v); break;
        case DSC_DTYPE: t->dtype = dsc_dtype_unpack(v); break;
        case DSC_CONTIG: t->contig = v != 0; break;
        case DSC_DEFINED: dsc_tensor_set_defined(t, v != 0, dsc_model_first_tensor(m)); break;
        case DSC_MIN:
            if (!t->ranged) t->hi = v + 4;
            t->lo = v;
            t->ranged = t->hi >= t->lo;
            break;
        case DSC_MAX:
            if (!t->ranged) t->lo = v < 0 ? v : 0;
            t->hi = v;
            t->ranged = t->hi >= t->lo;
            break;
        default: ok = false;
        }
        if (!ok) return false;
    }
    return ts.n > 0;
}

enum { MAX_CANDIDATES = 96 };

/* The values atom k may take, nearest its present value cur first. */
static int candidates(const dsc_cond *c, int k, int64_t cur, int64_t *out)
{
    static const DLDataType dts[] = {{kDLFloat, 32, 1}, {kDLFloat, 64, 1}, {kDLInt, 64, 1}, {kDLInt, 32, 1},
                                     {TA_DL_BOOL, 8, 1}, {kDLUInt, 8, 1},  {kDLInt, 8, 1},  {kDLInt, 16, 1},
                                     {kDLFloat, 16, 1}, {kDLBfloat, 16, 1}, {kDLComplex, 64, 1}, {kDLComplex, 128, 1}};
    static const int64_t big[] = {96, 128, 256, 512, 1024, 4096};
    const dsc_node *n = &c->n[k];
    int cnt = 0;
    int64_t lo = 0, hi = 64;
    bool nonzero = false, with_big = false;
    switch ((dsc_op)n->op) {
    case DSC_DTYPE:
        for (size_t i = 0; i < sizeof dts / sizeof *dts; i++) out[cnt++] = dsc_dtype_pack(dts[i]);
        return cnt;
    case DSC_CONTIG:
    case DSC_DEFINED: out[0] = 1, out[1] = 0; return 2;
    case DSC_DIM: hi = DSC_MAX_RANK; break;
    case DSC_LEN: hi = DSC_MAX_ITEMS; nonzero = true; break;
    case DSC_SIZE:
    case DSC_NUMEL: nonzero = true; with_big = true; break;
    case DSC_MIN:
    case DSC_MAX: lo = -8; with_big = true; break;
    default: /* an int or bool argument, an int list's item */
        lo = -8;
        with_big = true;
        break;
    }
    for (int64_t v = lo; v <= hi && cnt < MAX_CANDIDATES; v++) out[cnt++] = v;
    for (size_t i = 0; with_big && i < sizeof big / sizeof *big; i++) out[cnt++] = big[i];
    /* Nearest first (a zero size last: an empty tensor is rarely what a check wants). */
    for (int i = 1; i < cnt; i++) {
        int64_t v = out[i], key = (nonzero && v == 0) ? INT64_MAX : llabs(v - cur);
        int j = i;
        for (; j > 0; j--) {
            int64_t w = out[j - 1], wk = (nonzero && w == 0) ? INT64_MAX : llabs(w - cur);
            if (wk < key || (wk == key && w > v)) break;
            out[j] = w;
        }
        out[j] = v;
    }
    return cnt;
}

bool dsc_cond_solve(const dsc_cond *c, int k, dsc_model *m, const int *binding)
{
    if (!dsc_cond_is_atom(c, k, m, binding)) return false;
    int arg = dsc_cond_ref_arg(c, k, binding);
    dsc_arg saved = m->args[arg];
    int64_t cur = 1, vals[MAX_CANDIDATES + 8];
    dsc_cond_value(c, k, m, binding, &cur);
    int n = candidates(c, k, cur, vals);
    for (int i = 0; i < n; i++) {
        if (set_atom(c, k, m, binding, vals[i]) && dsc_cond_eval(c, m, binding) == 1) {
            m->args[arg].changed = true;
            return true;
        }
        m->args[arg] = saved;
    }
    return false;
}

/* ---- printing -------------------------------------------------------------- */

static int prec(uint8_t op)
{
    switch ((dsc_op)op) {
    case DSC_OR: return 1;
    case DSC_AND: return 2;
    case DSC_EQ: case DSC_NE: return 3;
    case DSC_LT: case DSC_LE: case DSC_GT: case DSC_GE: return 4;
    case DSC_ADD: case DSC_SUB: return 5;
    case DSC_MUL: case DSC_DIV: case DSC_MOD: return 6;
    case DSC_NEG: case DSC_NOT: return 7;
    default: return 8;
    }
}

static const char *op_text(uint8_t op)
{
    static const char *const t[] = {[DSC_ADD] = " + ", [DSC_SUB] = " - ", [DSC_MUL] = " * ",
                                    [DSC_DIV] = " / ", [DSC_MOD] = " % ", [DSC_EQ] = " == ",
                                    [DSC_NE] = " != ", [DSC_LT] = " < ", [DSC_LE] = " <= ",
                                    [DSC_GT] = " > ", [DSC_GE] = " >= ", [DSC_AND] = " && ",
                                    [DSC_OR] = " || "};
    return op < sizeof t / sizeof *t && t[op] ? t[op] : " ? ";
}

typedef struct printer {
    const dsc_cond *c;
    const ta_decl *d;
    const int *binding;
    ta_strbuf *o;
} printer;

static void print_node(const printer *p, int k, int outer);

static void print_method(const printer *p, const dsc_node *n, const char *m)
{
    print_node(p, n->a, 8);
    ta_strbuf_puts(p->o, m);
}

static void print_ref(const printer *p, const dsc_node *n)
{
    int arg = n->v >= 0 ? (int)n->v : -1;
    int f = n->v < 0 ? (int)(-n->v - 1) : -1;
    if (f >= 0 && p->binding && f < p->c->nfree && p->binding[f] >= 0) arg = p->binding[f];
    if (arg >= 0 && p->d && arg < p->d->nargs) ta_strbuf_puts(p->o, p->d->args[arg].name);
    else ta_strbuf_puts(p->o, f >= 0 && f < p->c->nfree ? p->c->free[f] : "?");
}

static void print_node(const printer *p, int k, int outer)
{
    if (k < 0 || k >= p->c->nn) {
        ta_strbuf_puts(p->o, "?");
        return;
    }
    const dsc_node *n = &p->c->n[k];
    ta_strbuf *o = p->o;
    const char *dt;
    switch ((dsc_op)n->op) {
    case DSC_NUM: ta_strbuf_printf(o, "%lld", (long long)n->v); return;
    case DSC_DTYPEC:
        dt = dsc_dtype_spelling(dsc_dtype_unpack(n->v));
        ta_strbuf_puts(o, dt ? dt : "kUnknown");
        return;
    case DSC_REF: print_ref(p, n); return;
    case DSC_ITEM:
        print_node(p, n->a, 8);
        ta_strbuf_puts(o, "[");
        if (n->b < 0) ta_strbuf_puts(o, "i");
        else print_node(p, n->b, 0);
        ta_strbuf_puts(o, "]");
        return;
    case DSC_SIZES: print_method(p, n, ".sizes()"); return;
    case DSC_DIM: print_method(p, n, ".dim()"); return;
    case DSC_SIZE:
        print_node(p, n->a, 8);
        ta_strbuf_puts(o, ".size(");
        print_node(p, n->b, 0);
        ta_strbuf_puts(o, ")");
        return;
    case DSC_NUMEL: print_method(p, n, ".numel()"); return;
    case DSC_DTYPE: print_method(p, n, ".dtype()"); return;
    case DSC_CONTIG: print_method(p, n, ".is_contiguous()"); return;
    case DSC_DEFINED: print_method(p, n, ".defined()"); return;
    case DSC_MIN: print_method(p, n, ".min()"); return;
    case DSC_MAX: print_method(p, n, ".max()"); return;
    case DSC_LEN: print_method(p, n, ".size()"); return;
    case DSC_TRUE: ta_strbuf_puts(o, "true"); return;
    case DSC_UNKNOWN: ta_strbuf_puts(o, "unknown()"); return;
    case DSC_NEG:
    case DSC_NOT:
        ta_strbuf_puts(o, n->op == DSC_NEG ? "-" : "!");
        print_node(p, n->a, 7);
        return;
    default: break;
    }
    int me = prec(n->op);
    if (me < outer) ta_strbuf_puts(o, "(");
    print_node(p, n->a, me);
    ta_strbuf_puts(o, op_text(n->op));
    print_node(p, n->b, me + 1); /* left-associative */
    if (me < outer) ta_strbuf_puts(o, ")");
}

size_t dsc_cond_print(const dsc_cond *c, int k, const ta_decl *d, const int *binding, char *buf, size_t cap)
{
    ta_strbuf sb;
    ta_strbuf_init_fixed(&sb, buf, cap);
    printer p = {c, d, binding, &sb};
    print_node(&p, k, 0);
    return sb.len;
}

bool dsc_cond_solvable(const dsc_cond *c, int k, dsc_model *m, const int *binding)
{
    int arg = dsc_cond_ref_arg(c, k, binding);
    if (arg < 0 || arg >= m->nargs) return false;
    dsc_arg saved = m->args[arg];
    bool ok = dsc_cond_solve(c, k, m, binding);
    m->args[arg] = saved;
    return ok;
}
