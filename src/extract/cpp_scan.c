/* cpp_scan.c - the C++ call shapes that declare operator schemas, read
 * from the preprocessed tokens (cpp_pp.h: macros are expanded already).
 *
 *   TORCH_LIBRARY(ns, m) { m.def("op(...) -> ..."); m.impl("op", fn); }
 *   TORCH_LIBRARY_FRAGMENT(ns, m) { ... }     STABLE_TORCH_LIBRARY(ns, m) { ... }
 *   TORCH_LIBRARY_IMPL(ns, CPU, m) { m.impl("op", fn); }   (kernels, not schemas)
 *   m.def(TORCH_SELECTIVE_SCHEMA("...")), m.def(torch::schema("...", ...))
 *   m.def("op", &fn)                          (schema inferred from fn: a note)
 *   void f(torch::Library& m) { m.def("op(...) -> ..."); }
 *       (namespace from the blocks that call f(m), anywhere in the tree)
 *   torch::RegisterOperators().op("ns::op(...) -> ...", options)
 *   TORCH_SELECTIVE_SCHEMA("ns::op(...) -> ...")   (anywhere else)
 *
 * Blocks are tracked by brace depth; the module variable named in the block
 * header is the receiver whose def/impl calls count. A block macro the
 * sources do not define (a wrapper from a header that is not in the tree)
 * is recognized by its TORCH_LIBRARY prefix. A namespace that is still a
 * macro name after preprocessing (TORCH_EXTENSION_NAME without -D) is a
 * note, as is a schema spelled with something that is not a literal. The
 * #if branches a declaration sits in are remembered (two branches of one
 * #if are alternatives, not duplicates), and a branch that declares
 * operators gets a note saying they depend on its condition. */
#include <stdio.h>
#include <string.h>

#include "extract/extract_internal.h"

enum { BLOCK_DEF = 0, BLOCK_FRAGMENT = 1, BLOCK_IMPL = 2, MAX_BLOCKS = 16, MAX_ARGS = 8 };

typedef struct cblock {
    int kind;
    const char *ns;      /* NULL when unresolved */
    uint32_t ns_len, ns_off;
    uint32_t var;        /* token of the module variable */
    uint32_t depth;      /* brace depth of the block's body */
    char fn[160];        /* a function given a Library: its key ("" for a block) */
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
    /* per open #if: where its current branch starts, how many operators
     * it declared, whether it is an include guard */
    uint32_t branch_tok[MAX_COND], branch_ops[MAX_COND];
    bool guard[MAX_COND];
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

/* Decodes the argument [a.lo, a.hi) into cs->text when it is made of
 * string literals, looking through TORCH_SELECTIVE_SCHEMA(...),
 * TORCH_SELECTIVE_NAME(...) and torch::schema(...). Otherwise returns false
 * with *bad the first token it could not resolve. */
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
        if (t->kind != XT_STRING || !ta_xcpp_decode(f, t, &cs->text)) {
            *bad = i;
            if (t->kind == XT_STRING && (t->flags & XS_UNTERMINATED))
                xf_report(f, TA_SEV_WARNING, t->org, t->orglen, XR_LITERAL, NULL,
                          "unterminated string literal");
            return false;
        }
    }
    return !cs->text.oom;
}

/* Whether a token came out of a macro expansion. */
static bool expanded(const xtok *t) { return t->site != t->org; }

static bool any_expanded(const xfile *f, xspan a)
{
    for (uint32_t i = a.lo; i < a.hi; i++)
        if (expanded(&f->tok[i])) return true;
    return false;
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

/* Whether the name t opens a block, and of which kind: torch's macros, or
 * a wrapper the sources do not define spelled like them
 * (TORCH_LIBRARY_EXPAND from a header outside the tree). */
static bool block_kind(const xfile *f, const xtok *t, int *kind)
{
    const char *s = f->s + t->off;
    for (size_t k = 0; k < sizeof block_macros / sizeof block_macros[0]; k++)
        if (strlen(block_macros[k].name) == t->len && !memcmp(block_macros[k].name, s, t->len)) {
            *kind = block_macros[k].kind;
            return true;
        }
    const char *pre = "TORCH_LIBRARY_";
    const char *p = t->len > 7 && !memcmp(s, "STABLE_", 7) ? s + 7 : s;
    uint32_t rest = t->len - (uint32_t)(p - s);
    if (rest <= strlen(pre) || memcmp(p, pre, strlen(pre))) return false;
    *kind = memmem(p, rest, "IMPL", 4) ? BLOCK_IMPL
            : memmem(p, rest, "FRAGMENT", 8) ? BLOCK_FRAGMENT : BLOCK_DEF;
    return true;
}

static void resolve_block_ns(cscan *cs, cblock *b, const xtok *t)
{
    xfile *f = cs->f;
    const char *s = f->s + t->off;
    b->ns_off = t->org;
    b->ns = NULL;
    if (t->pp & XP_TAINTED) {
        xf_report(f, TA_SEV_NOTE, t->org, t->orglen, XR_UNRESOLVED,
                  "pass -D NAME=VALUE (or compile_commands.json) to give the macro its value",
                  "the namespace of this block is pasted together from a macro the sources do not define ('%.*s' as written); its operators are listed without a namespace",
                  (int)t->len, s);
    } else if (macro_like(s, t->len)) {
        xf_report(f, TA_SEV_NOTE, t->org, t->orglen, XR_UNRESOLVED,
                  "pass -D NAME=VALUE (or compile_commands.json) to give the macro its value",
                  "the namespace of this block is the macro '%.*s', which the sources do not define; its operators are listed without a namespace",
                  (int)t->len, s);
    } else {
        b->ns = s;
        b->ns_len = t->len;
    }
}

static cblock *push_block(cscan *cs, int kind, uint32_t var)
{
    if (cs->nblocks == MAX_BLOCKS) return NULL;
    cblock *b = &cs->blocks[cs->nblocks++];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->var = var;
    b->depth = cs->depth + 1;
    return b;
}

/* NAME(ns, m) { ...  at i: pushes the block; returns the index before "{". */
static uint32_t open_block(cscan *cs, uint32_t i)
{
    xfile *f = cs->f;
    int kind;
    if (!xf_punct(xf_tok(f, i + 1), '(') || !block_kind(f, xf_tok(f, i), &kind)) return i;
    uint32_t close = xf_close(f, i + 1);
    xspan a[MAX_ARGS];
    int n = xf_split(f, i + 1, close, a, MAX_ARGS), want = kind == BLOCK_IMPL ? 3 : 2;
    if (close >= f->ntok || n != want || !xf_punct(xf_tok(f, close + 1), '{')) return i;
    xspan ns = a[0], var = a[want - 1];
    if (ns.hi != ns.lo + 1 || var.hi != var.lo + 1 || !xf_ident(f, ns.lo, NULL) || !xf_ident(f, var.lo, NULL))
        return close;
    cblock *b = push_block(cs, kind, var.lo);
    if (b) resolve_block_ns(cs, b, xf_tok(f, ns.lo));
    return close;
}

/* The innermost block whose module variable is the token at i. */
static const cblock *block_of(const cscan *cs, uint32_t i)
{
    const xfile *f = cs->f;
    const xtok *t = xf_tok(f, i);
    if (t->kind != XT_IDENT) return NULL;
    for (int k = cs->nblocks; k-- > 0;)
        if (xf_same_tokens(f, cs->blocks[k].var, cs->blocks[k].var + 1, i, i + 1)) return &cs->blocks[k];
    return NULL;
}

/* ---- functions given a Library ------------------------------------------- */

static bool keyword(const xfile *f, uint32_t i)
{
    static const char *const kw[] = {"if", "for", "while", "switch", "return", "sizeof", "catch",
                                     "decltype", "alignof", "static_assert", "defined"};
    for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
        if (xf_ident(f, i, kw[k])) return true;
    return false;
}

/* The key of parameter k of function name (see xdecl.defer). */
static void fn_key(const xfile *f, const xtok *name, int k, char *buf, size_t cap)
{
    snprintf(buf, cap, "c:%.*s#%d", (int)(name->len < 100 ? name->len : 100), f->s + name->off, k);
}

/* In parameter [p.lo, p.hi): "Library & m" (torch::Library&, const or
 * not, or a pointer): the token of m. */
static uint32_t library_param(const xfile *f, xspan p)
{
    for (uint32_t i = p.lo; i + 2 < p.hi + 1 && i + 1 < p.hi; i++)
        if (xf_ident(f, i, "Library") &&
            (xf_punct(xf_tok(f, i + 1), '&') || xf_punct(xf_tok(f, i + 1), '*'))) {
            uint32_t v = i + 2;
            if (v < p.hi && xf_ident(f, v, NULL)) return v;
        }
    return UINT32_MAX;
}

/* NAME(..., torch::Library& m, ...) { at i, outside any block: the body
 * is a block whose namespace is deferred to the callers. */
static uint32_t open_function(cscan *cs, uint32_t i)
{
    xfile *f = cs->f;
    if (cs->nblocks || !xf_punct(xf_tok(f, i + 1), '(') || keyword(f, i) ||
        (i > 0 && (xf_punct(xf_tok(f, i - 1), '.') || xf_punct(xf_tok(f, i - 1), XP2('-', '>')))))
        return i;
    uint32_t close = xf_close(f, i + 1), body = close + 1;
    if (close >= f->ntok) return i;
    while (xf_ident(f, body, "const") || xf_ident(f, body, "noexcept") || xf_ident(f, body, "override"))
        body++;
    if (!xf_punct(xf_tok(f, body), '{')) return i;
    xspan p[MAX_ARGS];
    int n = xf_split(f, i + 1, close, p, MAX_ARGS);
    for (int k = 0; k < n && k < MAX_ARGS; k++) {
        uint32_t v = library_param(f, p[k]);
        if (v == UINT32_MAX) continue;
        cblock *b = push_block(cs, BLOCK_FRAGMENT, v);
        if (b) fn_key(f, xf_tok(f, i), k, b->fn, sizeof b->fn);
        return body - 1;
    }
    return i;
}

/* NAME(..., m, ...) inside a block or a function given a Library, m its
 * variable: NAME's parameter gets that library. */
static void pass_library(cscan *cs, uint32_t i, uint32_t close)
{
    xfile *f = cs->f;
    xspan a[MAX_ARGS];
    int n = xf_split(f, i + 1, close, a, MAX_ARGS);
    for (int k = 0; k < n && k < MAX_ARGS; k++) {
        const cblock *b = a[k].hi == a[k].lo + 1 ? block_of(cs, a[k].lo) : NULL;
        if (!b || b->kind == BLOCK_IMPL) continue;
        char key[160];
        fn_key(f, xf_tok(f, i), k, key, sizeof key);
        xf_add_link(f, key, b->fn[0] ? NULL : b->ns, b->ns_len, b->fn[0] ? b->fn : NULL);
    }
}

/* ---- the calls ----------------------------------------------------------- */

static bool looks_like_schema(const xtext *t)
{
    return t->n && memchr(t->s, '(', t->n) && memmem(t->s, t->n, "->", 2);
}

/* Counts a declaration for the notes of the #if branches around it. */
static void count_in_branches(cscan *cs)
{
    for (uint32_t k = 0; k < cs->ncond && k < MAX_COND; k++) cs->branch_ops[k]++;
}

static void add(cscan *cs, ta_extract_how how, const cblock *b, xspan arg, bool name_only,
                bool has_kernel)
{
    xfile *f = cs->f;
    const xtok *first = xf_tok(f, arg.lo);
    xdecl d = {how, b && !b->fn[0] ? b->ns : NULL, b ? b->ns_len : 0, b ? b->ns_off : 0, &cs->text,
               name_only, false, has_kernel, first->site, cs->cond, cs->ncond,
               b && b->fn[0] ? b->fn : NULL, any_expanded(f, arg)};
    if (name_only)
        xf_report(f, TA_SEV_NOTE, cs->text.nseg ? cs->text.seg[0].src : first->org,
                  cs->text.nseg ? cs->text.seg[0].src_len : 1, XR_INFERRED,
                  "write the whole schema to have it checked (and annotated)",
                  "operator '%.*s' takes its schema from the kernel's C++ signature, which is not in the source",
                  (int)cs->text.n, cs->text.s);
    xf_add_op(f, &d);
    count_in_branches(cs);
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
            xf_report(f, TA_SEV_NOTE, xf_tok(f, bad)->org, xf_tok(f, bad)->orglen, XR_UNRESOLVED, NULL,
                      "the schema of this def is spelled with '%.*s', which the scanner does not resolve",
                      (int)xf_tok(f, bad)->len, f->s + xf_tok(f, bad)->off);
        return;
    }
    bool schema = memchr(cs->text.s, '(', cs->text.n) != NULL;
    if (b) {
        ta_extract_how how = b->fn[0] ? TA_HOW_DEF_FUNCTION : b->kind == BLOCK_FRAGMENT ? TA_HOW_FRAGMENT : TA_HOW_DEF;
        add(cs, how, b, a[0], !schema, kernel_arg(f, a, n));
        return;
    }
    if (!looks_like_schema(&cs->text)) return; /* pybind11's m.def("name", fn) and the like */
    const char *paren = memchr(cs->text.s, '(', cs->text.n);
    bool qualified = memmem(cs->text.s, (size_t)(paren - cs->text.s), "::", 2) != NULL;
    if (!qualified && !cs->noted_outside) {
        const xtok *r = xf_tok(f, recv);
        cs->noted_outside = true;
        xf_report(f, TA_SEV_NOTE, r->org, r->orglen, XR_UNRESOLVED, NULL,
                  "'%.*s.def' outside a TORCH_LIBRARY block and outside a function given a torch::Library: the namespace is unknown, so the operators of this file are listed without one",
                  (int)r->len, f->s + r->off);
    }
    add(cs, TA_HOW_DEF_FUNCTION, NULL, a[0], false, kernel_arg(f, a, n));
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
    bool known = b && !b->fn[0];
    if (!known && !memmem(cs->text.s, cs->text.n, "::", 2)) return;
    xf_add_kernel(f, known ? b->ns : NULL, known ? b->ns_len : 0, cs->text.s, cs->text.n);
}

/* The ".schema(STRING)" of a RegisterOperators::options() chain in a. */
static bool options_schema(cscan *cs, xspan a, xspan *arg)
{
    xfile *f = cs->f;
    for (uint32_t i = a.lo; i + 2 < a.hi; i++)
        if (xf_punct(xf_tok(f, i), '.') && xf_ident(f, i + 1, "schema") && xf_punct(xf_tok(f, i + 2), '(')) {
            uint32_t close = xf_close(f, i + 2), bad;
            xspan inner[MAX_ARGS];
            if (close >= a.hi || xf_split(f, i + 2, close, inner, MAX_ARGS) < 1) return false;
            xt_reset(&cs->text);
            *arg = inner[0];
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
    xspan arg = a[0];
    bool ok = resolve(cs, a[0], &bad);
    if (!ok && !(ok = options_schema(cs, a[0], &arg))) return;
    if (!memmem(cs->text.s, cs->text.n, "::", 2)) return; /* registrations are qualified */
    bool schema = memchr(cs->text.s, '(', cs->text.n) != NULL;
    add(cs, TA_HOW_REGISTER, NULL, arg, !schema, n >= 2 || mentions_kernel(f, a[0]));
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
        add(cs, TA_HOW_SELECTIVE, NULL, a[0], false, false);
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

/* ---- conditionals -------------------------------------------------------- */

/* The directive's name ("if", "else", ...): bytes after '#' and blanks. */
static const char *directive_name(const xfile *f, const xtok *t, uint32_t *len)
{
    const char *p = f->s + t->off + 1, *e = f->s + t->off + t->len;
    while (p < e && (*p == ' ' || *p == '\t')) p++;
    const char *w = p;
    while (p < e && ((*p >= 'a' && *p <= 'z') || *p == '_')) p++;
    *len = (uint32_t)(p - w);
    return w;
}

static bool word_is(const char *w, uint32_t n, const char *s) { return strlen(s) == n && !memcmp(w, s, n); }

/* The note of a branch that declared operators: they exist only in the
 * builds that compile it. */
static void branch_note(cscan *cs, uint32_t level)
{
    xfile *f = cs->f;
    if (level >= MAX_COND || !cs->branch_ops[level] || cs->guard[level]) return;
    const xtok *t = xf_tok(f, cs->branch_tok[level]);
    uint32_t len = t->len;
    const char *nl = memchr(f->s + t->off, '\n', len);
    if (nl) len = (uint32_t)(nl - (f->s + t->off));
    xf_report(f, TA_SEV_NOTE, t->org, len, XR_CONDITIONAL, NULL,
              "%u operator%s declared in this branch exist%s only in builds where '%.*s' selects it; both ways of every #if are read",
              cs->branch_ops[level], cs->branch_ops[level] == 1 ? "" : "s",
              cs->branch_ops[level] == 1 ? "s" : "", (int)(len > 80 ? 80 : len), f->s + t->off);
}

/* #if/#ifdef/#ifndef open a conditional, #elif/#else move to its next
 * branch, #endif closes it (the preprocessor passes only these on). */
static void conditional(cscan *cs, uint32_t i)
{
    const xtok *t = xf_tok(cs->f, i);
    uint32_t n;
    const char *w = directive_name(cs->f, t, &n);
    bool open = word_is(w, n, "if") || word_is(w, n, "ifdef") || word_is(w, n, "ifndef");
    bool next = word_is(w, n, "elif") || word_is(w, n, "else") || word_is(w, n, "elifdef") ||
                word_is(w, n, "elifndef");
    bool close = word_is(w, n, "endif");
    if (open) {
        if (cs->cond_depth++ < MAX_COND) {
            uint32_t k = cs->ncond++;
            cs->cond[2 * k] = cs->next_cond++;
            cs->cond[2 * k + 1] = 0;
            cs->branch_tok[k] = i;
            cs->branch_ops[k] = 0;
            cs->guard[k] = (t->pp & XP_GUARD) != 0;
        }
    } else if (next) {
        if (cs->cond_depth && cs->cond_depth <= MAX_COND) {
            uint32_t k = cs->ncond - 1;
            branch_note(cs, k);
            cs->cond[2 * k + 1]++;
            cs->branch_tok[k] = i;
            cs->branch_ops[k] = 0;
        }
    } else if (close) {
        if (cs->cond_depth && cs->cond_depth-- <= MAX_COND) branch_note(cs, --cs->ncond);
    }
}

/* ---- the walk ------------------------------------------------------------ */

static uint32_t at_name(cscan *cs, uint32_t i)
{
    xfile *f = cs->f;
    const xtok *t = &f->tok[i];
    if (xf_is(f, t, "TORCH_SELECTIVE_SCHEMA") && xf_punct(xf_tok(f, i + 1), '(')) {
        uint32_t close = xf_close(f, i + 1);
        if (close < f->ntok) {
            selective(cs, i + 1, close);
            return close;
        }
        return i;
    }
    uint32_t j = open_block(cs, i);
    if (j != i) return j;
    if (cs->nblocks && xf_punct(xf_tok(f, i + 1), '(') && !keyword(f, i)) {
        uint32_t close = xf_close(f, i + 1);
        if (close < f->ntok) pass_library(cs, i, close);
        return i;
    }
    return open_function(cs, i);
}

void ta_xcpp_scan(xfile *f)
{
    cscan cs = {0};
    cs.f = f;
    for (uint32_t i = 0; i < f->ntok && f->st == TA_OK; i++) {
        const xtok *t = &f->tok[i];
        if (t->kind == XT_DIRECTIVE) {
            conditional(&cs, i);
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
            i = at_name(&cs, i);
        }
    }
    if (cs.text.oom && f->st == TA_OK) f->st = TA_ERR_NOMEM;
    xt_free(&cs.text);
}
