/* py_defs.c - Python helpers that make, wrap or fill a Library (see
 * py_internal.h).
 *
 * Projects register operators through their own functions:
 *
 *     tosa_lib = Library("tosa", "DEF")
 *     def register_tosa_dialect_op(op_schema, fake_func): tosa_lib.define(op_schema) ...
 *     def register_tosa_op(op_schema, specs): ... register_tosa_dialect_op(op_schema, ...)
 *     @register_tosa_op("CLAMP(Tensor input, ...) -> Tensor", specs)        (another file)
 *
 *     def direct_register_custom_op(op_name, op_func, mutates_args=None, target_lib=None):
 *         schema_str = infer_schema(op_func, mutates_args=mutates_args)
 *         my_lib = target_lib or vllm_lib
 *         my_lib.define(op_name + schema_str)
 *
 *     class TorchLibraryFragment:
 *         def __init__(self, namespace): self.lib = torch.library.Library(namespace, "FRAGMENT")
 *
 * Each module-level function is summarized once for the whole set: where a
 * parameter (or a string made of parameters and constants, or the schema
 * infer_schema makes of a function parameter) reaches X.define, with X a
 * Library of the module, an imported one, or a parameter; and which calls
 * pass its parameters on to another such function. A call of a summarized
 * function anywhere in the tree then declares the schemas its arguments
 * make, in the library they name. A function that returns a Library made
 * from a parameter (or with a literal namespace), or a class whose __init__
 * makes one, tells ta_extract_finish what a library made by calling it is
 * (links "p:wraps:NAME#k" and "p:call:NAME"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/grow.h"
#include "base/map.h"
#include "extract/py_internal.h"

enum { MAX_PARAMS = 32, MAX_FWD_DEPTH = 8, MAX_EXPR_DEPTH = 24, MAX_MUT = 64 };

typedef enum { PE_NONE, PE_STR, PE_PARAM, PE_CAT, PE_OR, PE_INFER, PE_LIB, PE_SPLIT } pekind;

/* An expression over a function's parameters. */
typedef struct pyexpr {
    pekind kind;
    const char *s;        /* STR: the text; LIB: the namespace (NULL: key) */
    uint32_t len;
    const char *key;      /* LIB: the deferred key */
    int param;            /* PARAM; SPLIT: the piece (negative: from the end) */
    const struct pyexpr *a, *b; /* CAT a b; OR a b; INFER function, mutates; SPLIT a.split(s) */
} pyexpr;

typedef struct pysite {
    const pyexpr *lib, *schema;
} pysite;

/* A call that passes parameters on to another helper. */
typedef struct pyfwd {
    const char *callee;
    uint32_t npos, nkw;
    const pyexpr **pos, **kw;
    const char **kwname;
} pyfwd;

typedef struct pyfunc {
    const char *file, *name;
    uint32_t nparams;
    const char **pname;
    const pyexpr **pdefault; /* NULL entries: no default */
    pysite *sites;
    uint32_t nsites;
    pyfwd *fwd;
    uint32_t nfwd;
    struct pyfunc *next;     /* another of the same name */
} pyfunc;

/* A file that defines a function of some name at module level. */
typedef struct pydefsite {
    const char *path;
    struct pydefsite *next;
} pydefsite;

struct xpy_shared {
    ta_arena *arena;
    ta_map funcs;  /* name -> pyfunc list */
    ta_map files;  /* file name -> 1: summarized */
    ta_map defs;   /* name -> pydefsite list: files not summarized yet that define it */
    ta_map mods;   /* path -> module read for its constants (py_import.c) */
};

ta_status xpy_shared_create(ta_arena *a, xpy_shared **out)
{
    xpy_shared *s = *out = ta_arena_alloc(a, sizeof *s);
    if (!s) return TA_ERR_NOMEM;
    s->arena = a;
    ta_map_init(&s->funcs, NULL);
    ta_map_init(&s->files, NULL);
    ta_map_init(&s->defs, NULL);
    xpy_modules_init(&s->mods);
    return TA_OK;
}

void xpy_shared_free(xpy_shared *s)
{
    if (!s) return;
    ta_map_clear(&s->funcs);
    ta_map_clear(&s->files);
    ta_map_clear(&s->defs);
    ta_map_clear(&s->mods);
}

ta_map *xpy_module_cache(ta_extract *x) { return &xs_py(x)->mods; }

/* Remembers the module-level "def NAME(" lines of a file that is not
 * summarized now, so that a call of NAME can have it summarized then. */
ta_status xpy_index_defs(ta_extract *x, const char *file, const char *text, size_t len)
{
    xpy_shared *sh = xs_py(x);
    const char *path = NULL;
    for (const char *p = text, *e = text + len; p < e;) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        const char *end = nl ? nl : e, *q = p;
        if (end - q > 6 && !memcmp(q, "async ", 6)) q += 6;
        if (end - q > 4 && !memcmp(q, "def ", 4)) {
            q += 4;
            const char *n = q;
            while (q < end && (((*q | 32) >= 'a' && (*q | 32) <= 'z') || *q == '_' || (q > n && *q >= '0' && *q <= '9')))
                q++;
            if (q > n && q < end && *q == '(') {
                pydefsite *d = ta_arena_alloc(sh->arena, sizeof *d);
                char *name = ta_arena_strndup(sh->arena, n, (size_t)(q - n));
                if (!path) path = ta_arena_strndup(sh->arena, file, strlen(file));
                ta_map_entry *en = NULL;
                if (!d || !name || !path || ta_map_add(&sh->defs, name, (size_t)(q - n), ta_map_ptr(NULL), &en) != TA_OK)
                    return TA_ERR_NOMEM;
                d->path = path;
                d->next = en->value.ptr;
                en->value = ta_map_ptr(d);
            }
        }
        p = end + 1;
    }
    return TA_OK;
}

/* ---- summarizing ---------------------------------------------------------------- */

typedef struct sumctx {
    pscan *ps;
    xpy_shared *sh;
    uint32_t def;   /* the statement of the function summarized */
    int depth;
    bool failed;
} sumctx;

static const pyexpr NONE_EXPR = {PE_NONE, NULL, 0, NULL, 0, NULL, NULL};
/* The schema of a define into a parameter Library that the summary does
 * not follow (a transformed string): each call is a note. */
static const pyexpr OPAQUE_EXPR = {PE_NONE, NULL, 0, NULL, 0, NULL, NULL};

static const pyexpr *mk(sumctx *c, pekind kind, const char *s, uint32_t len, int param,
                        const pyexpr *a, const pyexpr *b)
{
    pyexpr *e = ta_arena_alloc(c->sh->arena, sizeof *e);
    char *copy = s ? ta_arena_strndup(c->sh->arena, s, len) : NULL;
    if (!e || (s && !copy)) {
        c->ps->f->st = TA_ERR_NOMEM;
        c->failed = true;
        return &NONE_EXPR;
    }
    *e = (pyexpr){kind, copy, len, NULL, param, a, b};
    return e;
}

static const pyexpr *fail(sumctx *c)
{
    c->failed = true;
    return &NONE_EXPR;
}

static bool mentions_param(const pyexpr *e)
{
    if (!e) return false;
    return e->kind == PE_PARAM || e->kind == PE_INFER || mentions_param(e->a) || mentions_param(e->b);
}

/* The index of parameter NAME of def statement k, or -1. */
static int param_index(const pyfile *pf, uint32_t k, const xtok *name)
{
    const xfile *f = pf->f;
    uint32_t i = pf->st[k].lo;
    while (i < pf->st[k].hi && !xf_punct(xf_tok(f, i), '(')) i++;
    if (i >= pf->st[k].hi) return -1;
    xspan p[MAX_PARAMS];
    int n = xf_split(f, i, xf_close(f, i), p, MAX_PARAMS), idx = 0;
    for (int j = 0; j < n && j < MAX_PARAMS; j++) {
        if (p[j].hi == p[j].lo + 1 && (xf_punct(xf_tok(f, p[j].lo), '*') || xf_punct(xf_tok(f, p[j].lo), '/')))
            continue; /* the keyword-only and positional-only markers */
        const xtok *t = xf_tok(f, p[j].lo);
        if (t->kind == XT_IDENT && t->len == name->len && !memcmp(f->s + t->off, f->s + name->off, t->len))
            return idx;
        idx++;
    }
    return -1;
}

static const pyexpr *to_expr(sumctx *c, xspan e);

/* Library(NS, ...) made at module level: its namespace, known or not. */
static const pyexpr *library_value(sumctx *c, xspan v, uint32_t stmt)
{
    pscan *ps = c->ps;
    xfile *f = ps->f;
    uint32_t end = v.lo;
    while (end + 2 < v.hi && xf_ident(f, end, NULL) && xf_punct(xf_tok(f, end + 1), '.')) end += 2;
    if (!xf_ident(f, end, NULL) || !xf_punct(xf_tok(f, end + 1), '(') || xf_close(f, end + 1) != v.hi - 1)
        return NULL;
    const xtok *callee = xf_tok(f, end);
    if (xf_is(f, callee, "Library")) {
        pargs a;
        xpy_read_args(f, end + 1, v.hi - 1, &a);
        uint32_t bad;
        xt_reset(&ps->part);
        if (a.npos < 1 || !xpy_eval(&ps->pf, a.pos[0], &ps->part, &bad)) return fail(c);
        return mk(c, PE_LIB, ps->part.s, ps->part.n, 0, NULL, NULL);
    }
    char key[256];
    snprintf(key, sizeof key, "p:v:%s#%u", f->name, stmt); /* as py_scan.c's assignment() names it */
    pyexpr *e = (pyexpr *)mk(c, PE_LIB, NULL, 0, 0, NULL, NULL);
    if (e != &NONE_EXPR && !(e->key = ta_arena_strndup(c->sh->arena, key, strlen(key)))) return fail(c);
    return e;
}

/* What name token i means in the function summarized: a parameter, a
 * local or module value (its expression), a module Library, an imported
 * one. */
static const pyexpr *name_expr(sumctx *c, uint32_t i)
{
    pscan *ps = c->ps;
    pyfile *pf = &ps->pf;
    const xtok *t = xf_tok(ps->f, i);
    if (xf_is(ps->f, t, "None")) return &NONE_EXPR;
    /* parameters and locals, from the innermost def out to the function */
    uint32_t u = xpy_stmt_of(pf, i);
    for (int32_t s = pf->st[u].scope; s >= 0; s = pf->st[s].scope) {
        int k = param_index(pf, (uint32_t)s, t);
        if (k >= 0) return (uint32_t)s == c->def ? mk(c, PE_PARAM, NULL, 0, k, NULL, NULL) : fail(c);
        if ((uint32_t)s == c->def) break;
    }
    xspan v;
    if (xpy_lookup(pf, t->off, t->len, i, &v)) {
        uint32_t k = xpy_stmt_of(pf, v.lo);
        const pyexpr *lib = pf->st[k].scope < 0 ? library_value(c, v, k) : NULL;
        return lib ? lib : to_expr(c, v);
    }
    const pbind *b = xpy_binding(ps, i, i + 1); /* an imported Library */
    if (b && b->defer) {
        pyexpr *e = (pyexpr *)mk(c, PE_LIB, NULL, 0, 0, NULL, NULL);
        if (e != &NONE_EXPR && !(e->key = ta_arena_strndup(c->sh->arena, b->defer, strlen(b->defer)))) return fail(c);
        return e;
    }
    return fail(c);
}

/* An f-string's field in a summary: a parameter becomes "\1k\2" (split
 * into PE_PARAM afterwards), a constant its text. */
typedef struct fstrctx {
    sumctx *c;
    uint32_t at;
} fstrctx;

static bool summary_field(void *ctx, uint32_t off, uint32_t len, uint32_t at, uint32_t at_len, xtext *out)
{
    fstrctx *fc = ctx;
    pscan *ps = fc->c->ps;
    (void)at_len;
    /* the name as a token of its own: find it among the file's names */
    xtok name = {off, len, off, len, off, 0, XT_IDENT, 0, 0};
    int32_t s = ps->pf.st[xpy_stmt_of(&ps->pf, fc->at)].scope;
    for (; s >= 0; s = ps->pf.st[s].scope) {
        int k = param_index(&ps->pf, (uint32_t)s, &name);
        if (k >= 0 && (uint32_t)s == fc->c->def && k < 100) {
            char m[8];
            int n = snprintf(m, sizeof m, "\1%d\2", k);
            xt_stand(out, m, (uint32_t)n, at, 1);
            return true;
        }
        if (k >= 0 || (uint32_t)s == fc->c->def) break;
    }
    xspan v;
    uint32_t bad;
    return xpy_lookup(&ps->pf, off, len, fc->at, &v) && xpy_eval(&ps->pf, v, out, &bad);
}

/* Text with "\1k\2" markers as STR and PARAM pieces. */
static const pyexpr *split_markers(sumctx *c, const xtext *t)
{
    const pyexpr *r = NULL;
    uint32_t run = 0;
    for (uint32_t i = 0; i <= t->n; i++) {
        bool marker = i < t->n && t->s[i] == '\1';
        if (i < t->n && !marker) continue;
        const pyexpr *piece = i > run ? mk(c, PE_STR, t->s + run, i - run, 0, NULL, NULL) : NULL;
        if (piece) r = r ? mk(c, PE_CAT, NULL, 0, 0, r, piece) : piece;
        if (!marker) break;
        int k = atoi(t->s + i + 1);
        const pyexpr *p = mk(c, PE_PARAM, NULL, 0, k, NULL, NULL);
        r = r ? mk(c, PE_CAT, NULL, 0, 0, r, p) : p;
        const char *e = memchr(t->s + i, '\2', t->n - i);
        i = e ? (uint32_t)(e - t->s) : t->n;
        run = i + 1;
    }
    return r ? r : mk(c, PE_STR, "", 0, 0, NULL, NULL);
}

static const pyexpr *strings_expr(sumctx *c, xspan e)
{
    pscan *ps = c->ps;
    xtext t = {0};
    fstrctx fc = {c, e.lo};
    xt_reset(&t);
    bool ok = true;
    for (uint32_t j = e.lo; j < e.hi && ok; j++)
        ok = xf_tok(ps->f, j)->kind == XT_STRING && ta_xpy_decode_f(ps->f, xf_tok(ps->f, j), &t, summary_field, &fc);
    if (t.oom) ps->f->st = TA_ERR_NOMEM;
    const pyexpr *r = ok && !t.oom ? split_markers(c, &t) : fail(c);
    xt_free(&t);
    return r;
}

/* infer_schema(FN, mutates_args=M) or infer_schema(FN, M). */
static const pyexpr *infer_expr(sumctx *c, uint32_t open, uint32_t close)
{
    pargs a;
    xpy_read_args(c->ps->f, open, close, &a);
    if (a.npos < 1) return fail(c);
    const xspan *m = xpy_kwarg(c->ps->f, &a, "mutates_args");
    const pyexpr *fn = to_expr(c, a.pos[0]);
    const pyexpr *mut = m ? to_expr(c, *m) : a.npos > 1 ? to_expr(c, a.pos[1]) : &NONE_EXPR;
    return mk(c, PE_INFER, NULL, 0, 0, fn, mut);
}

/* X.split("sep")[k], k a literal integer (negative or not): PE_SPLIT of
 * X's expression (a qualified name "ns::op..." cut to its last piece, as
 * executorch's bind_pattern_to_op does); NULL when e is not that shape. */
static const pyexpr *split_call_expr(sumctx *c, xspan e)
{
    const xfile *f = c->ps->f;
    if (e.hi < e.lo + 9 || !xf_punct(xf_tok(f, e.hi - 1), ']') || xf_tok(f, e.hi - 2)->kind != XT_NUMBER)
        return NULL;
    bool neg = xf_punct(xf_tok(f, e.hi - 3), '-');
    uint32_t lb = e.hi - (neg ? 4 : 3);
    if (lb < e.lo + 6 || !xf_punct(xf_tok(f, lb), '[') || !xf_punct(xf_tok(f, lb - 1), ')') ||
        xf_tok(f, lb - 2)->kind != XT_STRING || !xf_punct(xf_tok(f, lb - 3), '(') || !xf_ident(f, lb - 4, "split") ||
        !xf_punct(xf_tok(f, lb - 5), '.'))
        return NULL;
    const xtok *num = xf_tok(f, e.hi - 2);
    long k = 0;
    for (uint32_t j = 0; j < num->len && k < 1000; j++) {
        char d = f->s[num->off + j];
        if (d < '0' || d > '9') return NULL;
        k = k * 10 + (d - '0');
    }
    xtext sep = {0};
    xt_reset(&sep);
    bool ok = ta_xpy_decode(c->ps->f, xf_tok(f, lb - 2), &sep) && sep.n > 0;
    if (sep.oom) c->ps->f->st = TA_ERR_NOMEM;
    const pyexpr *r = ok && !sep.oom ? mk(c, PE_SPLIT, sep.s, sep.n, neg ? (int)-k : (int)k, to_expr(c, (xspan){e.lo, lb - 5}), NULL)
                         : fail(c);
    xt_free(&sep);
    return r;
}

static const pyexpr *operand_expr(sumctx *c, xspan e)
{
    const xfile *f = c->ps->f;
    while (e.hi > e.lo + 1 && xf_punct(xf_tok(f, e.lo), '(') && xf_close(f, e.lo) == e.hi - 1) {
        e.lo++;
        e.hi--;
    }
    if (e.lo >= e.hi) return fail(c);
    const xtok *t = xf_tok(f, e.lo);
    if (t->kind == XT_STRING) {
        uint32_t j = e.lo;
        while (j < e.hi && xf_tok(f, j)->kind == XT_STRING) j++;
        if (j == e.hi) return strings_expr(c, e);
    }
    if (t->kind == XT_IDENT && e.hi == e.lo + 1) return name_expr(c, e.lo);
    const pyexpr *sp = split_call_expr(c, e);
    if (sp) return sp;
    uint32_t end = e.lo; /* a call: a.b.infer_schema(...) */
    while (end + 2 < e.hi && xf_ident(f, end, NULL) && xf_punct(xf_tok(f, end + 1), '.')) end += 2;
    if (xf_ident(f, end, "infer_schema") && xf_punct(xf_tok(f, end + 1), '(') && xf_close(f, end + 1) == e.hi - 1)
        return infer_expr(c, end + 1, e.hi - 1);
    xtext t2 = {0}; /* anything else that evaluates to a constant */
    uint32_t bad;
    xt_reset(&t2);
    const pyexpr *r = xpy_eval(&c->ps->pf, e, &t2, &bad) && !t2.oom ? mk(c, PE_STR, t2.s, t2.n, 0, NULL, NULL) : fail(c);
    if (t2.oom) c->ps->f->st = TA_ERR_NOMEM;
    xt_free(&t2);
    return r;
}

/* Splits e at top-level occurrences of the operator (the name "or", or
 * "+") and joins the pieces as kind. */
static const pyexpr *split_expr(sumctx *c, xspan e, bool at_or)
{
    const xfile *f = c->ps->f;
    const pyexpr *r = NULL;
    uint32_t start = e.lo;
    int depth = 0;
    for (uint32_t i = e.lo; i <= e.hi; i++) {
        const xtok *t = xf_tok(f, i);
        if (i < e.hi) depth += xf_nesting(t);
        bool at = i < e.hi && depth == 0 && (at_or ? xf_ident(f, i, "or") : xf_punct(t, '+'));
        if (i < e.hi && !at) continue;
        if (at_or && start == e.lo && i == e.hi) return split_expr(c, e, false);
        const pyexpr *p = at_or ? split_expr(c, (xspan){start, i}, false) : operand_expr(c, (xspan){start, i});
        r = r ? mk(c, at_or ? PE_OR : PE_CAT, NULL, 0, 0, r, p) : p;
        start = i + 1;
    }
    return r ? r : fail(c);
}

static const pyexpr *to_expr(sumctx *c, xspan e)
{
    if (c->depth >= MAX_EXPR_DEPTH) return fail(c);
    c->depth++;
    const pyexpr *r = split_expr(c, e, true);
    c->depth--;
    return r;
}

/* ---- one function ----------------------------------------------------------------- */

typedef struct fbuild {
    pysite *sites;
    uint32_t nsites;
    size_t capsites;
    pyfwd *fwd;
    uint32_t nfwd;
    size_t capfwd;
} fbuild;

/* R.define(ARG, ...) with "define" at i: a site when ARG uses a parameter. */
static void site_at(sumctx *c, fbuild *b, uint32_t i, uint32_t close)
{
    xfile *f = c->ps->f;
    uint32_t rlo = xf_dotted_start(f, i - 1);
    pargs a;
    xpy_read_args(f, i + 1, close, &a);
    if (a.npos < 1 || rlo + 1 != i - 1) return; /* a plain name as the receiver */
    c->failed = false;
    const pyexpr *lib = to_expr(c, (xspan){rlo, i - 1});
    if (c->failed) return;
    const pyexpr *schema = to_expr(c, a.pos[0]);
    if (c->failed) schema = mentions_param(lib) ? &OPAQUE_EXPR : NULL;
    else if (!mentions_param(schema)) schema = NULL;
    if (!schema || TA_GROW_ONE(b->sites, b->nsites, b->capsites, 4) != TA_OK) return;
    b->sites[b->nsites++] = (pysite){lib, schema};
}

/* G(args) at i: a forward when some argument uses a parameter. */
static void forward_at(sumctx *c, fbuild *b, uint32_t i, uint32_t close)
{
    xfile *f = c->ps->f;
    ta_arena *ar = c->sh->arena;
    pargs a;
    xpy_read_args(f, i + 1, close, &a);
    if (!a.npos && !a.nkw) return;
    pyfwd w = {0};
    w.pos = ta_arena_alloc(ar, (size_t)(a.npos + 1) * sizeof *w.pos);
    w.kw = ta_arena_alloc(ar, (size_t)(a.nkw + 1) * sizeof *w.kw);
    w.kwname = ta_arena_alloc(ar, (size_t)(a.nkw + 1) * sizeof *w.kwname);
    w.callee = ta_arena_strndup(ar, f->s + xf_tok(f, i)->off, xf_tok(f, i)->len);
    if (!w.pos || !w.kw || !w.kwname || !w.callee) {
        f->st = TA_ERR_NOMEM;
        return;
    }
    bool uses = false;
    for (int k = 0; k < a.npos + a.nkw; k++) {
        c->failed = false;
        const pyexpr *e = to_expr(c, k < a.npos ? a.pos[k] : a.kw[k - a.npos]);
        if (c->failed) e = &NONE_EXPR;
        uses = uses || mentions_param(e) || e->kind == PE_LIB;
        if (k < a.npos) {
            w.pos[w.npos++] = e;
        } else {
            const xtok *n = xf_tok(f, a.kwname[k - a.npos]);
            if (!(w.kwname[w.nkw] = ta_arena_strndup(ar, f->s + n->off, n->len))) f->st = TA_ERR_NOMEM;
            w.kw[w.nkw++] = e;
        }
    }
    if (!uses || TA_GROW_ONE(b->fwd, b->nfwd, b->capfwd, 4) != TA_OK) return;
    b->fwd[b->nfwd++] = w;
}

/* "return Library(P, ...)" or "X = Library(P, ...)" in the block of
 * statement k: links saying what calling name makes. skip: parameters
 * before the first (self). */
static void library_maker(sumctx *c, uint32_t k, const char *name, uint32_t nlen, int skip)
{
    pscan *ps = c->ps;
    xfile *f = ps->f;
    for (uint32_t i = ps->pf.st[k].lo, end = ps->pf.st[xpy_block_end(&ps->pf, k) - 1].hi; i + 1 < end; i++) {
        if (!xf_ident(f, i, "Library") || !xf_punct(xf_tok(f, i + 1), '(')) continue;
        pargs a;
        xpy_read_args(f, i + 1, xf_close(f, i + 1), &a);
        if (a.npos < 1) continue;
        c->failed = false;
        const pyexpr *e = to_expr(c, a.pos[0]);
        char key[200];
        if (e->kind == PE_PARAM && e->param >= skip) {
            snprintf(key, sizeof key, "p:wraps:%.*s#%d", (int)nlen, name, e->param - skip);
            xf_add_link(f, key, "wrap", 4, NULL);
            const xtok *pn = NULL; /* and by its name, for keyword calls */
            uint32_t j = ps->pf.st[c->def].lo;
            while (j < ps->pf.st[c->def].hi && !xf_punct(xf_tok(f, j), '(')) j++;
            xspan p[MAX_PARAMS];
            int np = xf_split(f, j, xf_close(f, j), p, MAX_PARAMS);
            if (e->param < np && e->param < MAX_PARAMS) pn = xf_tok(f, p[e->param].lo);
            if (pn && pn->kind == XT_IDENT) {
                snprintf(key, sizeof key, "p:wraps:%.*s#=%.*s", (int)nlen, name, (int)pn->len, f->s + pn->off);
                xf_add_link(f, key, "wrap", 4, NULL);
            }
        } else if (e->kind == PE_STR) {
            snprintf(key, sizeof key, "p:call:%.*s", (int)nlen, name);
            xf_add_link(f, key, e->s, e->len, NULL);
        }
    }
}

/* The number of parameters of def statement k (more than MAX_PARAMS when
 * it has too many to be summarized). */
static int count_params(const pscan *ps, uint32_t k, xspan *p)
{
    const xfile *f = ps->f;
    uint32_t i = ps->pf.st[k].lo;
    while (i < ps->pf.st[k].hi && !xf_punct(xf_tok(f, i), '(')) i++;
    return i < ps->pf.st[k].hi ? xf_split(f, i, xf_close(f, i), p, MAX_PARAMS) : 0;
}

/* Parameter names and defaults of def statement k (at most MAX_PARAMS);
 * false when out of memory. */
static bool parameters(sumctx *c, uint32_t k, pyfunc *fn)
{
    pscan *ps = c->ps;
    xfile *f = ps->f;
    xspan p[MAX_PARAMS];
    int n = count_params(ps, k, p);
    fn->pname = ta_arena_alloc(c->sh->arena, (size_t)(n + 1) * sizeof *fn->pname);
    fn->pdefault = ta_arena_alloc(c->sh->arena, (size_t)(n + 1) * sizeof *fn->pdefault);
    if (!fn->pname || !fn->pdefault) return false;
    for (int j = 0; j < n; j++) {
        const xtok *t = xf_tok(f, p[j].lo);
        if (t->kind != XT_IDENT) continue; /* *, /, *args */
        uint32_t eq = p[j].lo;
        while (eq < p[j].hi && !xf_punct(xf_tok(f, eq), '=')) {
            const xtok *u = xf_tok(f, eq);
            eq = u->kind == XT_PUNCT && u->len == 1 && strchr("([{", (char)u->punct) ? xf_close(f, eq) + 1 : eq + 1;
        }
        c->failed = false;
        fn->pdefault[fn->nparams] = eq + 1 < p[j].hi ? to_expr(c, (xspan){eq + 1, p[j].hi}) : NULL;
        if (c->failed) fn->pdefault[fn->nparams] = &NONE_EXPR;
        if (!(fn->pname[fn->nparams++] = ta_arena_strndup(c->sh->arena, f->s + t->off, t->len))) return false;
    }
    return true;
}

static bool calls_skipped(const xfile *f, uint32_t i)
{
    static const char *const skip[] = {"define", "impl", "Library", "infer_schema", "print", "len",
                                       "isinstance", "getattr", "hasattr", "str", "format"};
    for (size_t k = 0; k < sizeof skip / sizeof skip[0]; k++)
        if (xf_ident(f, i, skip[k])) return true;
    return false;
}

/* Module-level def statement k. */
static void summarize_def(sumctx *c, uint32_t k)
{
    pscan *ps = c->ps;
    xfile *f = ps->f;
    uint32_t name = ps->pf.st[k].lo + (xpy_starts(&ps->pf, k, "async") ? 2 : 1);
    if (!xf_ident(f, name, NULL)) return;
    c->def = k;
    const xtok *nt = xf_tok(f, name);
    library_maker(c, k, f->s + nt->off, nt->len, 0);
    xspan p[MAX_PARAMS];
    if (count_params(ps, k, p) > MAX_PARAMS) return; /* (calls cannot be bound to it here) */
    fbuild b = {0};
    uint32_t end = xpy_block_end(&ps->pf, k);
    for (uint32_t i = ps->pf.st[k].hi; end > k + 1 && i + 1 < ps->pf.st[end - 1].hi && f->st == TA_OK; i++) {
        if (!xf_ident(f, i, NULL) || !xf_punct(xf_tok(f, i + 1), '(')) continue;
        uint32_t close = xf_close(f, i + 1);
        if (close >= f->ntok) break;
        bool method = i > 0 && xf_punct(xf_tok(f, i - 1), '.');
        if (method && xf_ident(f, i, "define")) site_at(c, &b, i, close);
        else if (!method && !calls_skipped(f, i) && !xf_ident(f, i - 1, "def")) forward_at(c, &b, i, close);
    }
    pyfunc *fn = b.nsites || b.nfwd ? ta_arena_alloc(c->sh->arena, sizeof *fn) : NULL;
    if (fn) {
        fn->file = f->name;
        fn->name = ta_arena_strndup(c->sh->arena, f->s + nt->off, nt->len);
        fn->sites = ta_arena_alloc(c->sh->arena, (b.nsites + 1) * sizeof *fn->sites);
        fn->fwd = ta_arena_alloc(c->sh->arena, (b.nfwd + 1) * sizeof *fn->fwd);
        ta_map_entry *e = NULL;
        if (!fn->name || !fn->sites || !fn->fwd || !parameters(c, k, fn) ||
            ta_map_add(&c->sh->funcs, fn->name, nt->len, ta_map_ptr(NULL), &e) != TA_OK) {
            f->st = TA_ERR_NOMEM;
        } else {
            if (b.nsites) memcpy(fn->sites, b.sites, b.nsites * sizeof *fn->sites);
            if (b.nfwd) memcpy(fn->fwd, b.fwd, b.nfwd * sizeof *fn->fwd); /* none: b.fwd is NULL */
            fn->nsites = b.nsites;
            fn->nfwd = b.nfwd;
            fn->next = e->value.ptr;
            e->value = ta_map_ptr(fn);
        }
    } else if (b.nsites || b.nfwd) {
        f->st = TA_ERR_NOMEM;
    }
    free(b.sites);
    free(b.fwd);
}

/* Module-level class statement k: an __init__ that makes a Library. */
static void summarize_class(sumctx *c, uint32_t k)
{
    pscan *ps = c->ps;
    xfile *f = ps->f;
    const xtok *name = xf_tok(f, ps->pf.st[k].lo + 1);
    if (name->kind != XT_IDENT) return;
    for (uint32_t j = k + 1, end = xpy_block_end(&ps->pf, k); j < end; j++)
        if (xpy_starts(&ps->pf, j, "def") && xf_ident(f, ps->pf.st[j].lo + 1, "__init__")) {
            c->def = j;
            library_maker(c, j, f->s + name->off, name->len, 1);
        }
}

void xpy_summarize(pscan *ps, bool always)
{
    xfile *f = ps->f;
    xpy_shared *sh = xs_py(f->x);
    ta_map_entry *e = NULL;
    if (!always && !memmem(f->s, f->n, "define(", 7) && !memmem(f->s, f->n, "Library(", 8)) return;
    if (ta_map_add(&sh->files, f->name, strlen(f->name), ta_map_int(1), &e) != TA_OK) {
        f->st = TA_ERR_NOMEM;
        return;
    }
    if (e->value.i != 1) return;
    e->value = ta_map_int(2); /* summarized once */
    sumctx c = {ps, sh, 0, 0, false};
    for (uint32_t k = 0; k < ps->pf.nst && f->st == TA_OK; k++) {
        if (ps->pf.st[k].col != 1) continue;
        if (xpy_starts(&ps->pf, k, "def") || (xpy_starts(&ps->pf, k, "async") && xf_ident(f, ps->pf.st[k].lo + 1, "def")))
            summarize_def(&c, k);
        else if (xpy_starts(&ps->pf, k, "class"))
            summarize_class(&c, k);
    }
}

/* ---- calling one ------------------------------------------------------------------- */

/* What a parameter is bound to: the caller's tokens (top), or an
 * expression of the calling helper's (then evaluated in env->parent). */
typedef struct penv {
    const pyfunc *fn;
    const pargs *args;       /* the call in the scanned file */
    const pyfwd *fwd;        /* or a forward of parent's function */
    const struct penv *parent;
    uint32_t anchor;         /* the call's name, where made text stands */
    int depth;
} penv;

/* The binding of parameter k: a span of the caller (top) or an
 * expression in the parent environment; the default in env's own. */
static bool bound(const xfile *f, const penv *env, int k, const xspan **span, const pyexpr **e,
                  const penv **in)
{
    *span = NULL;
    *e = NULL;
    *in = env;
    if (k < 0 || (uint32_t)k >= env->fn->nparams) return false;
    const char *pname = env->fn->pname[k];
    size_t pl = strlen(pname);
    if (env->args) {
        const pargs *a = env->args;
        if (k < a->npos) *span = &a->pos[k];
        for (int j = 0; j < a->nkw && !*span; j++) {
            const xtok *t = xf_tok(f, a->kwname[j]);
            if (t->len == pl && !memcmp(f->s + t->off, pname, pl)) *span = &a->kw[j];
        }
    } else {
        const pyfwd *w = env->fwd;
        if ((uint32_t)k < w->npos) *e = w->pos[k];
        for (uint32_t j = 0; j < w->nkw && !*e; j++)
            if (!strcmp(w->kwname[j], pname)) *e = w->kw[j];
        *in = env->parent;
    }
    if (*span || *e) return true;
    *e = env->fn->pdefault[k];
    *in = env;
    return *e != NULL;
}

static bool eval_str(pscan *ps, const pyexpr *e, const penv *env, xtext *out);

static bool param_str(pscan *ps, const pyexpr *e, const penv *env, xtext *out)
{
    const xspan *span;
    const pyexpr *x;
    const penv *in;
    uint32_t bad;
    if (!bound(ps->f, env, e->param, &span, &x, &in)) return false;
    if (span) return xpy_eval(&ps->pf, *span, out, &bad);
    return eval_str(ps, x, in, out);
}

/* The def a function-valued expression names in the scanned file. */
static uint32_t eval_fn(pscan *ps, const pyexpr *e, const penv *env)
{
    const xspan *span;
    const pyexpr *x;
    const penv *in;
    if (e->kind != PE_PARAM || !bound(ps->f, env, e->param, &span, &x, &in)) return 0;
    if (!span) return x ? eval_fn(ps, x, in) : 0;
    if (span->hi != span->lo + 1 || !xf_ident(ps->f, span->lo, NULL)) return 0;
    return xpy_def_named(ps->f, xf_tok(ps->f, span->lo));
}

/* The mutated names an expression gives: false when it cannot be read. */
static bool eval_mutates(pscan *ps, const pyexpr *e, const penv *env, xpy_sig *sig, const char **names,
                         uint32_t *lens)
{
    const xspan *span;
    const pyexpr *x;
    const penv *in;
    if (e->kind == PE_NONE) return xpy_read_mutates(ps, NULL, sig, names, lens);
    if (e->kind != PE_PARAM || !bound(ps->f, env, e->param, &span, &x, &in))
        return e->kind == PE_PARAM && xpy_read_mutates(ps, NULL, sig, names, lens);
    if (!span) return eval_mutates(ps, x, in, sig, names, lens);
    return xpy_read_mutates(ps, span, sig, names, lens);
}

static bool eval_str(pscan *ps, const pyexpr *e, const penv *env, xtext *out)
{
    switch (e->kind) {
    case PE_STR:
        xt_stand(out, e->s, e->len, xf_tok(ps->f, env->anchor)->off, xf_tok(ps->f, env->anchor)->len);
        return !e->len || !out->oom;
    case PE_PARAM:
        return param_str(ps, e, env, out);
    case PE_CAT:
        return eval_str(ps, e->a, env, out) && eval_str(ps, e->b, env, out);
    case PE_OR: {
        uint32_t n = out->n, nseg = out->nseg;
        if (eval_str(ps, e->a, env, out)) return true;
        out->n = n;
        out->nseg = nseg;
        if (out->s) out->s[n] = '\0';
        return eval_str(ps, e->b, env, out);
    }
    case PE_SPLIT: {
        xtext whole = {0};
        xt_reset(&whole);
        bool ok = eval_str(ps, e->a, env, &whole) && !whole.oom;
        uint32_t cut[64], n = 0, from = 0; /* the pieces' starts */
        cut[n++] = 0;
        for (uint32_t j = 0; ok && j + e->len <= whole.n && n < 64; j++)
            if (!memcmp(whole.s + j, e->s, e->len)) {
                cut[n++] = j + e->len;
                j += e->len - 1;
            }
        long k = e->param < 0 ? (long)n + e->param : e->param;
        ok = ok && k >= 0 && k < (long)n && n < 64;
        if (ok) {
            from = cut[k];
            uint32_t to = (uint32_t)k + 1 < n ? cut[k + 1] - e->len : whole.n;
            xt_append_range(out, &whole, from, to);
        }
        if (whole.oom) out->oom = true;
        xt_free(&whole);
        return ok && !out->oom;
    }
    case PE_INFER: {
        uint32_t fn = eval_fn(ps, e->a, env);
        xpy_sig sig = {0};
        const char *names[MAX_MUT];
        uint32_t lens[MAX_MUT];
        if (!fn || !xpy_signature(ps->f, fn, &sig) || !eval_mutates(ps, e->b, env, &sig, names, lens)) return false;
        return ta_xpy_infer(ps->f, &sig, out);
    }
    default:
        return false;
    }
}

/* The library an expression names: its namespace, or a deferred key. */
static bool eval_lib(pscan *ps, const pyexpr *e, const penv *env, const char **ns, uint32_t *ns_len,
                     const char **key)
{
    const xspan *span;
    const pyexpr *x;
    const penv *in;
    switch (e->kind) {
    case PE_LIB:
        *ns = e->s;
        *ns_len = e->len;
        *key = e->key;
        return true;
    case PE_OR:
        return eval_lib(ps, e->a, env, ns, ns_len, key) || eval_lib(ps, e->b, env, ns, ns_len, key);
    case PE_PARAM: {
        if (!bound(ps->f, env, e->param, &span, &x, &in)) return false;
        if (!span) return x && eval_lib(ps, x, in, ns, ns_len, key);
        const pbind *b = xpy_binding(ps, span->lo, span->hi);
        if (!b || b->impl) return false;
        *ns = b->ns;
        *ns_len = b->ns_len;
        *key = b->defer;
        return b->ns || b->defer;
    }
    default:
        return false;
    }
}

static bool infers(const pyexpr *e)
{
    return e && (e->kind == PE_INFER || infers(e->a) || infers(e->b));
}

static const pyfunc *helper_named(const xpy_shared *sh, const xfile *f, const char *name, uint32_t len)
{
    const ta_map_entry *e = ta_map_find(&sh->funcs, name, len);
    const pyfunc *fn = e ? e->value.ptr : NULL, *own = NULL;
    for (const pyfunc *g = fn; g; g = g->next)
        if (!strcmp(g->file, f->name)) own = g;
    return own ? own : fn && !fn->next ? fn : NULL; /* several elsewhere: which one is unknown */
}

/* Summarizes the files that define name at module level (found by
 * xpy_index_defs, not summarized yet), reading them from disk. */
static void summarize_defs_of(pscan *ps, const char *name, uint32_t len)
{
    xpy_shared *sh = xs_py(ps->f->x);
    ta_map_entry *e = ta_map_find(&sh->defs, name, len);
    if (!e || !e->value.ptr) return;
    const pydefsite *d = e->value.ptr;
    e->value = ta_map_ptr(NULL); /* once */
    for (; d && ps->f->st == TA_OK; d = d->next) {
        ta_status st = xpy_summarize_file(ps->f->x, d->path);
        if (st != TA_OK) ps->f->st = st;
    }
}

static const pyfunc *helper_or_summarize(pscan *ps, const char *name, uint32_t len)
{
    const pyfunc *fn = helper_named(xs_py(ps->f->x), ps->f, name, len);
    if (fn) return fn;
    summarize_defs_of(ps, name, len);
    return helper_named(xs_py(ps->f->x), ps->f, name, len);
}

static void apply(pscan *ps, const penv *env)
{
    xfile *f = ps->f;
    const pyfunc *fn = env->fn;
    bool noted = false;
    for (uint32_t k = 0; k < fn->nsites && f->st == TA_OK; k++) {
        const char *ns = NULL, *key = NULL;
        uint32_t ns_len = 0;
        if (fn->sites[k].schema == &OPAQUE_EXPR) {
            const xtok *t = xf_tok(f, env->anchor);
            if (!noted)
                xf_report(f, TA_SEV_NOTE, t->off, t->len, XR_UNRESOLVED, NULL,
                          "'%s' defines into a Library it is given a schema it computes in a way the scanner does not follow",
                          fn->name);
            noted = true;
            continue;
        }
        xt_reset(&ps->text);
        if (!eval_str(ps, fn->sites[k].schema, env, &ps->text) || !memchr(ps->text.s, '(', ps->text.n))
            continue;
        eval_lib(ps, fn->sites[k].lib, env, &ns, &ns_len, &key);
        xpy_declare(ps, ns, ns_len, xf_tok(f, env->anchor)->off, key, xf_tok(f, env->anchor)->off,
                    infers(fn->sites[k].schema));
    }
    for (uint32_t k = 0; k < fn->nfwd && env->depth < MAX_FWD_DEPTH && f->st == TA_OK; k++) {
        const pyfwd *w = &fn->fwd[k];
        const pyfunc *callee = helper_or_summarize(ps, w->callee, (uint32_t)strlen(w->callee));
        if (!callee || callee == fn) continue;
        penv sub = {callee, NULL, w, env, env->anchor, env->depth + 1};
        apply(ps, &sub);
    }
}

/* Whether some argument of a call evaluates to text that reads like a
 * schema (worth reading the callee's file for). */
static bool schema_argument(pscan *ps, const pargs *a)
{
    for (int k = 0; k < a->npos + a->nkw; k++) {
        uint32_t bad;
        xt_reset(&ps->part);
        if (xpy_eval(&ps->pf, k < a->npos ? a->pos[k] : a->kw[k - a->npos], &ps->part, &bad) &&
            memchr(ps->part.s, '(', ps->part.n) && memmem(ps->part.s, ps->part.n, "->", 2))
            return true;
    }
    return false;
}

uint32_t xpy_helper_call(pscan *ps, uint32_t i)
{
    xfile *f = ps->f;
    const xtok *t = xf_tok(f, i);
    if (i > 0 && xf_ident(f, i - 1, "def")) return i;
    xpy_shared *sh = xs_py(f->x);
    const pyfunc *fn = helper_named(sh, f, f->s + t->off, t->len);
    bool indexed = !fn && ta_map_find(&sh->defs, f->s + t->off, t->len);
    uint32_t close = fn || indexed ? xf_close(f, i + 1) : f->ntok;
    if (close >= f->ntok) return i;
    pargs a;
    xpy_read_args(f, i + 1, close, &a);
    if (!fn && !(schema_argument(ps, &a) && (fn = helper_or_summarize(ps, f->s + t->off, t->len)))) return i;
    penv env = {fn, &a, NULL, NULL, i, 0};
    apply(ps, &env);
    return close;
}
