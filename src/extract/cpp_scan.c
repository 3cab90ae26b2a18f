/* cpp_scan.c - the C++ call shapes that declare operator schemas.
 *
 *   TORCH_LIBRARY(ns, m) { m.def("op(...) -> ..."); m.impl("op", fn); }
 *   TORCH_LIBRARY_FRAGMENT(ns, m) { ... }     STABLE_TORCH_LIBRARY(ns, m) { ... }
 *   TORCH_LIBRARY_IMPL(ns, CPU, m) { m.impl("op", fn); }   (kernels, not schemas)
 *   m.def(TORCH_SELECTIVE_SCHEMA("...")), m.def(torch::schema("...", ...))
 *   m.def("op", &fn)                          (schema inferred from fn: a note)
 *   void f(torch::Library& m) { m.def("op(...) -> ..."); }   (namespace from the caller)
 *   torch::RegisterOperators().op("ns::op(...) -> ...", options)
 *   TORCH_SELECTIVE_SCHEMA("ns::op(...) -> ...")   (anywhere else)
 *
 * Blocks are tracked by brace depth; the module variable named in the block
 * header is the receiver whose def/impl calls count. Macro wrappers of the
 * block macros are learned from "#define W(A, B) TORCH_LIBRARY(A, B)" and,
 * failing that, recognized by a TORCH_LIBRARY prefix. A namespace or schema
 * spelled with a macro is resolved from -D and object-like #defines seen so
 * far, or reported as a note. */
#include <string.h>

#include "extract/extract_internal.h"

enum { BLOCK_DEF = 0, BLOCK_FRAGMENT = 1, BLOCK_IMPL = 2, MAX_BLOCKS = 16, MAX_ARGS = 8 };

typedef struct cblock {
    int kind;
    const char *ns; /* NULL when unresolved */
    uint32_t ns_len, ns_off;
    uint32_t var_off, var_len; /* the module variable */
    uint32_t depth;            /* brace depth of the block's body */
} cblock;

enum { MAX_COND = 64 };

typedef struct cscan {
    xfile *f;
    cblock blocks[MAX_BLOCKS];
    int nblocks;
    uint32_t depth;
    xtext text;
    bool noted_outside; /* the def-function namespace note, once a file */
    /* the open #if's: pairs (id, branch); deeper nesting is not tracked */
    uint32_t cond[2 * MAX_COND];
    uint32_t ncond, cond_depth, next_cond;
} cscan;

/* ---- resolving an argument to a string ---------------------------------- */

/* A name a build defines rather than a namespace written out: upper case,
 * digits and underscores with at least two capitals (TORCH_EXTENSION_NAME;
 * not _C). */
static bool macro_like(const char *s, uint32_t n)
{
    int caps = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (s[i] >= 'a' && s[i] <= 'z') return false;
        caps += s[i] >= 'A' && s[i] <= 'Z';
    }
    return caps >= 2;
}

/* Decodes the argument [a.lo, a.hi) into out when it is made of string
 * literals and macros with string values, looking through
 * TORCH_SELECTIVE_SCHEMA(...), TORCH_SELECTIVE_NAME(...) and torch::schema(...).
 * Otherwise returns
 * false with *bad the first token it could not resolve. */
static bool resolve(cscan *cs, xspan a, uint32_t *bad)
{
    xfile *f = cs->f;
    *bad = a.lo;
    if (a.lo >= a.hi) return false;
    uint32_t j = a.lo;
    while (j + 1 < a.hi && xf_ident(f, j, NULL) && xf_punct(xf_tok(f, j + 1), XP2(':', ':'))) j += 2;
    if (j + 1 < a.hi &&
        (xf_ident(f, j, "TORCH_SELECTIVE_SCHEMA") || xf_ident(f, j, "TORCH_SELECTIVE_NAME") ||
         xf_ident(f, j, "schema")) &&
        xf_punct(xf_tok(f, j + 1), '(') && xf_close(f, j + 1) == a.hi - 1) {
        xspan inner[MAX_ARGS];
        int n = xf_split(f, j + 1, a.hi - 1, inner, MAX_ARGS);
        if (n < 1) return false;
        return resolve(cs, inner[0], bad);
    }
    for (uint32_t i = a.lo; i < a.hi; i++) {
        const xtok *t = &f->tok[i];
        const char *v;
        if (t->kind == XT_STRING) {
            if (!ta_xcpp_decode(f, t, &cs->text)) {
                *bad = i;
                if (t->flags & XS_UNTERMINATED)
                    xf_report(f, TA_SEV_WARNING, t->off, t->len, XR_LITERAL, NULL,
                              "unterminated string literal");
                return false;
            }
        } else if (t->kind == XT_IDENT && (v = xf_macro(f, f->s + t->off, t->len))) {
            xt_stand(&cs->text, v, (uint32_t)strlen(v), t->off, t->len);
        } else {
            *bad = i;
            return false;
        }
    }
    return !cs->text.oom;
}

/* ---- blocks -------------------------------------------------------------- */

static const struct {
    const char *name;
    int kind;
} block_macros[] = {
    {"TORCH_LIBRARY", BLOCK_DEF},          {"TORCH_LIBRARY_FRAGMENT", BLOCK_FRAGMENT},
    {"TORCH_LIBRARY_IMPL", BLOCK_IMPL},    {"STABLE_TORCH_LIBRARY", BLOCK_DEF},
    {"STABLE_TORCH_LIBRARY_FRAGMENT", BLOCK_FRAGMENT}, {"STABLE_TORCH_LIBRARY_IMPL", BLOCK_IMPL},
};

static bool builtin_block(const char *s, uint32_t n, int *kind)
{
    for (size_t k = 0; k < sizeof block_macros / sizeof block_macros[0]; k++)
        if (strlen(block_macros[k].name) == n && !memcmp(block_macros[k].name, s, n)) {
            *kind = block_macros[k].kind;
            return true;
        }
    return false;
}

/* Whether the name at token i opens a block, and how its arguments read. */
static bool block_shape(const xfile *f, const xtok *t, int *kind, int *ns_arg, int *var_arg,
                        int *nparams)
{
    const char *s = f->s + t->off;
    if (builtin_block(s, t->len, kind) ||
        xf_block_macro(f, s, t->len, kind, ns_arg, var_arg, nparams)) {
        if (builtin_block(s, t->len, kind)) {
            *ns_arg = 0;
            *nparams = *kind == BLOCK_IMPL ? 3 : 2;
            *var_arg = *nparams - 1;
        }
        return true;
    }
    /* an unknown wrapper spelled like the macros (TORCH_LIBRARY_EXPAND) */
    const char *pre = "TORCH_LIBRARY_";
    const char *p = t->len > 7 && !memcmp(s, "STABLE_", 7) ? s + 7 : s;
    uint32_t rest = t->len - (uint32_t)(p - s);
    if (rest <= strlen(pre) || memcmp(p, pre, strlen(pre))) return false;
    *kind = memmem(p, rest, "IMPL", 4) ? BLOCK_IMPL
            : memmem(p, rest, "FRAGMENT", 8) ? BLOCK_FRAGMENT : BLOCK_DEF;
    *ns_arg = 0;
    *nparams = *kind == BLOCK_IMPL ? 3 : 2;
    *var_arg = *nparams - 1;
    return true;
}

static void resolve_block_ns(cscan *cs, cblock *b, const xtok *t)
{
    xfile *f = cs->f;
    const char *s = f->s + t->off;
    const char *v = xf_macro(f, s, t->len);
    b->ns_off = t->off;
    if (v) {
        b->ns = v;
        b->ns_len = (uint32_t)strlen(v);
    } else if (macro_like(s, t->len)) {
        b->ns = NULL;
        xf_report(f, TA_SEV_NOTE, t->off, t->len, XR_UNRESOLVED,
                  "pass -D NAME=VALUE to give the macro its value",
                  "the namespace of this block is the macro '%.*s', which the sources do not define; its operators are listed without a namespace",
                  (int)t->len, s);
    } else {
        b->ns = s;
        b->ns_len = t->len;
    }
}

/* NAME(ns, m) { ...  at i: pushes the block; returns the index before "{". */
static uint32_t open_block(cscan *cs, uint32_t i)
{
    xfile *f = cs->f;
    int kind, ns_arg, var_arg, nparams;
    if (!xf_punct(xf_tok(f, i + 1), '(') || !block_shape(f, xf_tok(f, i), &kind, &ns_arg, &var_arg, &nparams))
        return i;
    uint32_t close = xf_close(f, i + 1);
    xspan a[MAX_ARGS];
    int n = xf_split(f, i + 1, close, a, MAX_ARGS);
    if (close >= f->ntok || n != nparams || n > MAX_ARGS || !xf_punct(xf_tok(f, close + 1), '{'))
        return i;
    xspan ns = a[ns_arg], var = a[var_arg];
    if (ns.hi != ns.lo + 1 || var.hi != var.lo + 1 || !xf_ident(f, ns.lo, NULL) ||
        !xf_ident(f, var.lo, NULL) || cs->nblocks == MAX_BLOCKS)
        return close;
    cblock *b = &cs->blocks[cs->nblocks++];
    b->kind = kind;
    resolve_block_ns(cs, b, xf_tok(f, ns.lo));
    b->var_off = xf_tok(f, var.lo)->off;
    b->var_len = xf_tok(f, var.lo)->len;
    b->depth = cs->depth + 1;
    return close;
}

/* The innermost block whose module variable is the token at i. */
static const cblock *block_of(const cscan *cs, uint32_t i)
{
    const xfile *f = cs->f;
    const xtok *t = xf_tok(f, i);
    if (t->kind != XT_IDENT) return NULL;
    for (int k = cs->nblocks; k-- > 0;) {
        const cblock *b = &cs->blocks[k];
        if (b->var_len == t->len && !memcmp(f->s + b->var_off, f->s + t->off, t->len)) return b;
    }
    return NULL;
}

/* ---- the calls ----------------------------------------------------------- */

static bool looks_like_schema(const xtext *t)
{
    return t->n && memchr(t->s, '(', t->n) && memmem(t->s, t->n, "->", 2);
}

static void add(cscan *cs, ta_extract_how how, const cblock *b, uint32_t anchor, bool name_only,
                bool has_kernel)
{
    xfile *f = cs->f;
    xdecl d = {how, b ? b->ns : NULL, b ? b->ns_len : 0, b ? b->ns_off : 0, &cs->text,
               name_only, false, has_kernel, anchor, cs->cond, cs->ncond};
    if (name_only)
        xf_report(f, TA_SEV_NOTE, cs->text.nseg ? cs->text.seg[0].src : anchor,
                  cs->text.nseg ? cs->text.seg[0].src_len : 1, XR_INFERRED,
                  "write the whole schema to have it checked (and annotated)",
                  "operator '%.*s' takes its schema from the kernel's C++ signature, which is not in the source",
                  (int)cs->text.n, cs->text.s);
    xf_add_op(f, &d);
}

/* A def/op call's kernel argument: anything but a brace-enclosed tag list. */
static bool kernel_arg(const xfile *f, const xspan *a, int n)
{
    return n >= 2 && a[1].lo < a[1].hi && !xf_punct(xf_tok(f, a[1].lo), '{');
}

/* recv.def(args) with "(" at open. */
static void def_call(cscan *cs, uint32_t recv, uint32_t open, uint32_t close)
{
    xfile *f = cs->f;
    const cblock *b = block_of(cs, recv);
    if (b && b->kind == BLOCK_IMPL) return;
    xspan a[MAX_ARGS];
    int n = xf_split(f, open, close, a, MAX_ARGS);
    if (n < 1) return;
    uint32_t bad;
    xt_reset(&cs->text);
    if (!resolve(cs, a[0], &bad)) {
        if (b)
            xf_report(f, TA_SEV_NOTE, xf_tok(f, bad)->off, xf_tok(f, bad)->len, XR_UNRESOLVED, NULL,
                      "the schema of this def is spelled with '%.*s', which the scanner does not resolve",
                      (int)xf_tok(f, bad)->len, f->s + xf_tok(f, bad)->off);
        return;
    }
    bool schema = memchr(cs->text.s, '(', cs->text.n) != NULL;
    if (b) {
        add(cs, b->kind == BLOCK_FRAGMENT ? TA_HOW_FRAGMENT : TA_HOW_DEF, b, xf_tok(f, open)->off,
            !schema, kernel_arg(f, a, n));
        return;
    }
    if (!looks_like_schema(&cs->text)) return; /* pybind11's m.def("name", fn) and the like */
    const char *paren = memchr(cs->text.s, '(', cs->text.n);
    bool qualified = memmem(cs->text.s, (size_t)(paren - cs->text.s), "::", 2) != NULL;
    if (!qualified && !cs->noted_outside) {
        cs->noted_outside = true;
        xf_report(f, TA_SEV_NOTE, xf_tok(f, recv)->off, xf_tok(f, recv)->len, XR_UNRESOLVED, NULL,
                  "'%.*s.def' outside a TORCH_LIBRARY block: the namespace comes from the caller, so the operators of this file are listed without one",
                  (int)xf_tok(f, recv)->len, f->s + xf_tok(f, recv)->off);
    }
    add(cs, TA_HOW_DEF_FUNCTION, NULL, xf_tok(f, open)->off, false, kernel_arg(f, a, n));
}

/* recv.impl("op", kernel): a kernel for the block's namespace. */
static void impl_call(cscan *cs, uint32_t recv, uint32_t open, uint32_t close)
{
    xfile *f = cs->f;
    const cblock *b = block_of(cs, recv);
    xspan a[MAX_ARGS];
    int n = xf_split(f, open, close, a, MAX_ARGS);
    uint32_t bad;
    xt_reset(&cs->text);
    if (n < 2 || !resolve(cs, a[0], &bad) || !cs->text.n) return;
    if (!b && !memmem(cs->text.s, cs->text.n, "::", 2)) return;
    xf_add_kernel(f, b ? b->ns : NULL, b ? b->ns_len : 0, cs->text.s, cs->text.n);
}

/* The ".schema(STRING)" of a RegisterOperators::options() chain in a. */
static bool options_schema(cscan *cs, xspan a)
{
    xfile *f = cs->f;
    for (uint32_t i = a.lo; i + 2 < a.hi; i++)
        if (xf_punct(xf_tok(f, i), '.') && xf_ident(f, i + 1, "schema") && xf_punct(xf_tok(f, i + 2), '(')) {
            uint32_t close = xf_close(f, i + 2), bad;
            xspan inner[MAX_ARGS];
            if (close >= a.hi || xf_split(f, i + 2, close, inner, MAX_ARGS) < 1) return false;
            xt_reset(&cs->text);
            return resolve(cs, inner[0], &bad);
        }
    return false;
}

static bool mentions_kernel(const xfile *f, xspan a)
{
    for (uint32_t i = a.lo; i < a.hi; i++)
        if (xf_ident(f, i, "kernel") || xf_ident(f, i, "catchAllKernel")) return true;
    return false;
}

/* .op("ns::op(...) -> ...", options) of torch::RegisterOperators. */
static void op_call(cscan *cs, uint32_t open, uint32_t close)
{
    xfile *f = cs->f;
    xspan a[MAX_ARGS];
    int n = xf_split(f, open, close, a, MAX_ARGS);
    uint32_t bad;
    if (n < 1) return;
    xt_reset(&cs->text);
    bool ok = resolve(cs, a[0], &bad);
    if (!ok && !(ok = options_schema(cs, a[0]))) return;
    if (!memmem(cs->text.s, cs->text.n, "::", 2)) return; /* registrations are qualified */
    bool schema = memchr(cs->text.s, '(', cs->text.n) != NULL;
    add(cs, TA_HOW_REGISTER, NULL, xf_tok(f, open)->off, !schema, n >= 2 || mentions_kernel(f, a[0]));
}

/* TORCH_SELECTIVE_SCHEMA("...") not inside a def: a schema declared with
 * its kernel (PyTorch's own operator generators). */
static void selective(cscan *cs, uint32_t open, uint32_t close)
{
    xspan a[MAX_ARGS];
    uint32_t bad;
    if (xf_split(cs->f, open, close, a, MAX_ARGS) < 1) return;
    xt_reset(&cs->text);
    if (resolve(cs, a[0], &bad) && memchr(cs->text.s, '(', cs->text.n))
        add(cs, TA_HOW_SELECTIVE, NULL, xf_tok(cs->f, open)->off, false, false);
}

/* At "." or "->" before name "(": the call's last token, or i. */
static uint32_t method(cscan *cs, uint32_t i)
{
    xfile *f = cs->f;
    if (!xf_ident(f, i + 1, NULL) || !xf_punct(xf_tok(f, i + 2), '(')) return i;
    uint32_t open = i + 2, close = xf_close(f, open);
    if (close >= f->ntok) return i;
    if (xf_ident(f, i + 1, "def")) def_call(cs, i - 1, open, close);
    else if (xf_ident(f, i + 1, "impl")) impl_call(cs, i - 1, open, close);
    else if (xf_ident(f, i + 1, "op")) op_call(cs, open, close);
    else return i;
    return close;
}

/* ---- directives ---------------------------------------------------------- */

typedef struct dcur {
    const char *p, *e;
} dcur;

static void dblank(dcur *c)
{
    while (c->p < c->e) {
        if (*c->p == ' ' || *c->p == '\t' || *c->p == '\r') c->p++;
        else if (*c->p == '\\' && c->p + 1 < c->e && (c->p[1] == '\n' || c->p[1] == '\r')) c->p += 2;
        else if (*c->p == '\n') c->p++;
        else break;
    }
}

static uint32_t dword(dcur *c, const char **w)
{
    dblank(c);
    *w = c->p;
    while (c->p < c->e && (((*c->p | 32) >= 'a' && (*c->p | 32) <= 'z') || *c->p == '_' ||
                           (*c->p >= '0' && *c->p <= '9')))
        c->p++;
    return (uint32_t)(c->p - *w);
}

static bool dpunct(dcur *c, char ch)
{
    dblank(c);
    if (c->p < c->e && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

static bool drest_empty(dcur *c)
{
    dblank(c);
    return c->p == c->e || (c->e - c->p >= 2 && c->p[0] == '/' && (c->p[1] == '/' || c->p[1] == '*'));
}

/* #define W(P0, P1) BLOCKMACRO(Pi, Pj): W opens blocks too. */
static void define_wrapper(xfile *f, const char *name, uint32_t nlen, dcur *c)
{
    const char *params[MAX_ARGS];
    uint32_t plen[MAX_ARGS];
    int np = 0;
    do {
        if (np == MAX_ARGS || !(plen[np] = dword(c, &params[np]))) return;
        np++;
    } while (dpunct(c, ','));
    if (!dpunct(c, ')')) return;
    const char *inner;
    uint32_t ilen = dword(c, &inner);
    int kind, ns_arg = 0, var_arg, nparams;
    if (!ilen || !dpunct(c, '(')) return;
    if (builtin_block(inner, ilen, &kind)) {
        nparams = kind == BLOCK_IMPL ? 3 : 2;
        var_arg = nparams - 1;
    } else if (!xf_block_macro(f, inner, ilen, &kind, &ns_arg, &var_arg, &nparams)) {
        return;
    }
    int ns_param = -1, var_param = -1;
    for (int k = 0; k < nparams; k++) {
        const char *w;
        uint32_t wl = dword(c, &w);
        for (int p = 0; p < np; p++)
            if (wl == plen[p] && !memcmp(w, params[p], wl)) {
                if (k == ns_arg) ns_param = p;
                if (k == var_arg) var_param = p;
            }
        if (k + 1 < nparams && !dpunct(c, ',')) return;
    }
    if (ns_param >= 0 && var_param >= 0 && dpunct(c, ')'))
        xf_define_block(f, name, nlen, kind, ns_param, var_param, np);
}

/* Whether the first argument of a def( at p reads like a schema: a string
 * with a "(" in it, or strings pasted with a macro parameter (#DIM). A
 * pybind11 def("name", fn, "doc") does not. */
static bool schema_argument(const char *p, const char *e)
{
    bool quoted = false, paren = false;
    for (; p < e; p++) {
        if (quoted) {
            if (*p == '\\' && p + 1 < e) p++;
            else if (*p == '"') quoted = false;
            else if (*p == '(') paren = true;
        } else if (*p == '"') {
            quoted = true;
        } else if (*p == '#') {
            return true;
        } else if (*p == ',' || *p == ')') {
            break;
        }
    }
    return paren;
}

/* A macro whose body calls def with a schema: the schemas are made where
 * it is expanded, often with its parameters pasted in (#DIM), so they
 * cannot be read here. A note, once for the macro. */
static void note_macro_defs(xfile *f, const xtok *t, const char *name, uint32_t nlen)
{
    const char *s = f->s + t->off, *e = s + t->len;
    for (const char *p = s; (p = memmem(p, (size_t)(e - p), "def(", 4)); p += 4) {
        if (p > s && (p[-1] == '.' || p[-1] == '>') && schema_argument(p + 4, e)) {
            xf_report(f, TA_SEV_NOTE, (uint32_t)(p - f->s), 4, XR_UNRESOLVED, NULL,
                      "macro '%.*s' declares schemas that are made where it is expanded; they are not checked here",
                      (int)nlen, name);
            return;
        }
    }
}

/* #if/#ifdef/#ifndef open a conditional, #elif/#else move to its next
 * branch, #endif closes it. */
static bool conditional(cscan *cs, const char *w, uint32_t n)
{
    bool open = (n == 2 && !memcmp(w, "if", 2)) || (n == 5 && !memcmp(w, "ifdef", 5)) ||
                (n == 6 && !memcmp(w, "ifndef", 6));
    bool next = (n == 4 && (!memcmp(w, "elif", 4) || !memcmp(w, "else", 4))) ||
                (n == 7 && !memcmp(w, "elifdef", 7)) || (n == 8 && !memcmp(w, "elifndef", 8));
    bool close = n == 5 && !memcmp(w, "endif", 5);
    if (open) {
        if (cs->cond_depth++ < MAX_COND) {
            cs->cond[2 * cs->ncond] = cs->next_cond++;
            cs->cond[2 * cs->ncond + 1] = 0;
            cs->ncond++;
        }
    } else if (next) {
        if (cs->cond_depth && cs->cond_depth <= MAX_COND) cs->cond[2 * cs->ncond - 1]++;
    } else if (close) {
        if (cs->cond_depth && cs->cond_depth-- <= MAX_COND) cs->ncond--;
    }
    return open || next || close;
}

/* "#define NAME value" with a single identifier or plain string as value,
 * block wrappers, and conditionals. */
static void directive(cscan *cs, const xtok *t)
{
    xfile *f = cs->f;
    dcur c = {f->s + t->off + 1, f->s + t->off + t->len};
    const char *w, *name;
    uint32_t wl = dword(&c, &w);
    if (conditional(cs, w, wl) || wl != 6 || memcmp(w, "define", 6)) return;
    uint32_t nlen = dword(&c, &name);
    if (!nlen) return;
    note_macro_defs(f, t, name, nlen);
    if (c.p < c.e && *c.p == '(') {
        c.p++;
        define_wrapper(f, name, nlen, &c);
        return;
    }
    dblank(&c);
    if (c.p < c.e && *c.p == '"') {
        const char *v = ++c.p;
        while (c.p < c.e && *c.p != '"' && *c.p != '\\' && *c.p != '\n') c.p++;
        if (c.p < c.e && *c.p == '"') {
            uint32_t vlen = (uint32_t)(c.p - v);
            c.p++;
            if (drest_empty(&c)) xf_define(f, name, nlen, v, vlen);
        }
        return;
    }
    const char *v;
    uint32_t vlen = dword(&c, &v);
    if (vlen && !(v[0] >= '0' && v[0] <= '9') && drest_empty(&c)) xf_define(f, name, nlen, v, vlen);
}

/* ---- the walk ------------------------------------------------------------ */

void ta_xcpp_scan(xfile *f)
{
    cscan cs = {0};
    cs.f = f;
    for (uint32_t i = 0; i < f->ntok && f->st == TA_OK; i++) {
        const xtok *t = &f->tok[i];
        if (t->kind == XT_DIRECTIVE) {
            directive(&cs, t);
        } else if (t->kind == XT_PUNCT) {
            if (t->punct == '{') {
                cs.depth++;
            } else if (t->punct == '}') {
                if (cs.depth) cs.depth--;
                while (cs.nblocks && cs.blocks[cs.nblocks - 1].depth > cs.depth) cs.nblocks--;
            } else if (t->punct == '.' || t->punct == XP2('-', '>')) {
                i = method(&cs, i);
            }
        } else if (t->kind == XT_IDENT) {
            if (xf_is(f, t, "TORCH_SELECTIVE_SCHEMA") && xf_punct(xf_tok(f, i + 1), '(')) {
                uint32_t close = xf_close(f, i + 1);
                if (close < f->ntok) {
                    selective(&cs, i + 1, close);
                    i = close;
                }
            } else {
                i = open_block(&cs, i);
            }
        }
    }
    if (cs.text.oom && f->st == TA_OK) f->st = TA_ERR_NOMEM;
    xt_free(&cs.text);
}
