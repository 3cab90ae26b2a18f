/* py_scan.c - the Python call shapes that declare operator schemas.
 *
 *   lib = torch.library.Library("ns", "DEF")      (or "FRAGMENT"; "IMPL" adds kernels)
 *   lib.define("op(Tensor x) -> Tensor")          (the Library's namespace applied)
 *   torch.library.define("ns::op", "(Tensor x) -> Tensor")   (joined: ns::op(Tensor x) -> ...)
 *   @torch.library.custom_op("ns::op", mutates_args=(...)) def op(x: Tensor) -> Tensor: ...
 *       (the schema= given, or built from the type hints as infer_schema does)
 *   lib.impl("op", fn, "CPU"), torch.library.impl("ns::op", "CPU")   (kernels)
 *   register_op("op(Tensor x) -> Tensor")        (a helper that calls lib.define: py_defs.c)
 *
 * A schema or namespace may be any expression py_eval.c evaluates (module
 * constants, f-strings, format, %), and a define in a loop over a literal
 * list declares each element. A Library is known by the name it is
 * assigned to (lib = ..., self.lib = ..., with ... as lib, other = lib)
 * anywhere in the file; one made by a helper (lib = MyFragment("ns")) or
 * imported from another module (from .ops import lib) takes its namespace
 * from the whole tree, at ta_extract_finish. What stays unresolved is a
 * note naming the place. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/file.h"
#include "extract/py_internal.h"

enum { MAX_MUTATES = 64, MAX_LOOP = 64 };

void xpy_read_args(const xfile *f, uint32_t open, uint32_t close, pargs *a)
{
    xspan all[XPY_MAX_ARGS];
    int n = xf_split(f, open, close, all, XPY_MAX_ARGS);
    a->npos = a->nkw = 0;
    for (int k = 0; k < n && k < XPY_MAX_ARGS; k++) {
        xspan s = all[k];
        if (s.hi > s.lo + 1 && xf_ident(f, s.lo, NULL) && xf_punct(xf_tok(f, s.lo + 1), '=') &&
            !xf_punct(xf_tok(f, s.lo + 2), '=')) {
            a->kwname[a->nkw] = s.lo;
            a->kw[a->nkw++] = (xspan){s.lo + 2, s.hi};
        } else if (!a->nkw) {
            a->pos[a->npos++] = s;
        }
    }
}

const xspan *xpy_kwarg(const xfile *f, const pargs *a, const char *name)
{
    for (int k = 0; k < a->nkw; k++)
        if (xf_ident(f, a->kwname[k], name)) return &a->kw[k];
    return NULL;
}

/* Evaluates argument a into out (see xpy_eval); otherwise false with *bad
 * the first token that does not evaluate. */
static bool resolve(pscan *ps, xspan a, xtext *out, uint32_t *bad)
{
    xfile *f = ps->f;
    *bad = a.lo;
    if (a.lo >= a.hi) return false;
    bool ok = xpy_eval(&ps->pf, a, out, bad);
    const xtok *t = xf_tok(f, *bad);
    if (!ok && t->kind == XT_STRING && (t->flags & XS_UNTERMINATED))
        xf_report(f, TA_SEV_WARNING, t->off, t->len, XR_LITERAL, NULL, "unterminated string literal");
    return ok && !out->oom;
}

static void note_unresolved(pscan *ps, uint32_t bad, const char *what)
{
    xfile *f = ps->f;
    const xtok *t = xf_tok(f, bad);
    const char *why = t->kind == XT_STRING && (t->flags & XS_FORMAT) ? "an f-string with a field"
                      : t->kind == XT_IDENT ? "a variable or call" : "an expression";
    uint32_t len = t->len > 40 ? 40 : t->len;
    xf_report(f, TA_SEV_NOTE, t->off, t->len, XR_UNRESOLVED, NULL,
              "the %s is %s ('%.*s') that does not evaluate to a string here", what, why, (int)len,
              f->s + t->off);
}

static bool looks_like_schema(const xtext *t)
{
    return t->n && memchr(t->s, '(', t->n) && memmem(t->s, t->n, "->", 2);
}

/* ---- Library objects ------------------------------------------------------ */

static pbind *new_binding(pscan *ps, uint32_t lo, uint32_t hi)
{
    if (ps->nbinds == XPY_MAX_BINDINGS) return NULL;
    pbind *b = &ps->binds[ps->nbinds++];
    memset(b, 0, sizeof *b);
    b->lo = lo;
    b->hi = hi;
    return b;
}

static char *copy_str(pscan *ps, const char *s, size_t n)
{
    char *c = ta_malloc(n + 1);
    if (!c) {
        ps->f->st = TA_ERR_NOMEM;
        return NULL;
    }
    memcpy(c, s, n);
    c[n] = '\0';
    return c;
}

/* "from M import ... NAME [as ALIAS] ...": the name ALIAS (the token at
 * i) stands for; 0 when it is not imported so. */
static uint32_t imported(const pscan *ps, uint32_t i)
{
    const xfile *f = ps->f;
    const pyfile *pf = &ps->pf;
    for (uint32_t k = 0; k < pf->nst; k++) {
        if (!xpy_starts(pf, k, "from")) continue;
        const pystmt *s = &pf->st[k];
        uint32_t j = s->lo;
        while (j < s->hi && !xf_ident(f, j, "import")) j++;
        for (j++; j < s->hi; j++) {
            if (!xf_ident(f, j, NULL)) continue;
            bool alias = xf_ident(f, j + 1, "as") && xf_ident(f, j + 2, NULL);
            uint32_t name = alias ? j + 2 : j;
            if (xf_same_tokens(f, name, name + 1, i, i + 1)) return j;
            if (alias) j += 2;
        }
    }
    return 0;
}

static const pbind *bound_by_call(pscan *ps, uint32_t lo, uint32_t hi);

const pbind *xpy_binding(pscan *ps, uint32_t lo, uint32_t hi)
{
    for (int k = ps->nbinds; k-- > 0;)
        if (xf_same_tokens(ps->f, ps->binds[k].lo, ps->binds[k].hi, lo, hi)) return &ps->binds[k];
    const pbind *made = bound_by_call(ps, lo, hi);
    if (made) return made;
    /* imported: NAME, or module.NAME of an imported module */
    uint32_t name = hi - 1, src = lo + 1 == hi ? imported(ps, lo) : 0;
    if (lo + 1 != hi && !(hi == lo + 3 && xf_punct(xf_tok(ps->f, lo + 1), '.') && imported(ps, lo)))
        return NULL;
    if (lo + 1 == hi && !src) return NULL;
    const xtok *t = xf_tok(ps->f, src ? src : name);
    char key[160];
    snprintf(key, sizeof key, "p:name:%.*s", (int)(t->len < 120 ? t->len : 120), ps->f->s + t->off);
    pbind *b = new_binding(ps, lo, hi);
    if (b && !(b->defer = copy_str(ps, key, strlen(key)))) ps->nbinds--;
    return b && b->defer ? b : NULL;
}

/* The target the call at [callee, close] is assigned to: "T = call",
 * "T: Type = call", or "with call as T". */
static bool target_of(const xfile *f, uint32_t callee, uint32_t close, xspan *tg)
{
    uint32_t c = xf_dotted_start(f, callee + 1);
    if (xf_ident(f, close + 1, "as")) {
        uint32_t e = close + 2;
        while (e + 1 < f->ntok && xf_ident(f, e, NULL) && xf_punct(xf_tok(f, e + 1), '.')) e += 2;
        if (!xf_ident(f, e, NULL)) return false;
        *tg = (xspan){close + 2, e + 1};
        return true;
    }
    if (c == 0 || !xf_punct(xf_tok(f, c - 1), '=')) return false;
    uint32_t end = c - 1, lo = xf_dotted_start(f, end);
    if (lo > 0 && xf_punct(xf_tok(f, lo - 1), ':')) { /* an annotation */
        end = lo - 1;
        lo = xf_dotted_start(f, end);
    }
    if (lo == end) return false;
    *tg = (xspan){lo, end};
    return true;
}

/* A binding made at module level under a plain name is what other
 * modules import by that name. */
static void export_binding(pscan *ps, const pbind *b)
{
    const pyfile *pf = &ps->pf;
    if (b->hi != b->lo + 1 || !pf->nst || pf->st[xpy_stmt_of(pf, b->lo)].col != 1 ||
        pf->st[xpy_stmt_of(pf, b->lo)].lo != b->lo)
        return;
    const xtok *t = xf_tok(ps->f, b->lo);
    char key[160];
    snprintf(key, sizeof key, "p:name:%.*s", (int)(t->len < 120 ? t->len : 120), ps->f->s + t->off);
    if (b->ns || b->defer) xf_add_link(ps->f, key, b->ns, b->ns_len, b->defer);
}

/* Library("ns", "KIND") at i. */
static uint32_t library_call(pscan *ps, uint32_t i)
{
    xfile *f = ps->f;
    uint32_t close = xf_close(f, i + 1);
    pargs a;
    xspan tg;
    if (close >= f->ntok) return i;
    xpy_read_args(f, i + 1, close, &a);
    if (a.npos < 2 || !target_of(f, i, close, &tg)) return close;
    pbind *b = new_binding(ps, tg.lo, tg.hi);
    if (!b) return close;
    b->ns_off = xf_tok(f, a.pos[0].lo)->off;
    uint32_t bad;
    xt_reset(&ps->part);
    if (resolve(ps, a.pos[1], &ps->part, &bad)) b->impl = ps->part.n == 4 && !memcmp(ps->part.s, "IMPL", 4);
    xt_reset(&ps->part);
    if (resolve(ps, a.pos[0], &ps->part, &bad) && (b->ns = copy_str(ps, ps->part.s, ps->part.n)))
        b->ns_len = ps->part.n;
    export_binding(ps, b);
    return close;
}

/* The callee of "T = CALL(...)" (statement k, value v), CALL not Library
 * itself: its name token, or UINT32_MAX. */
static uint32_t made_by_call(const xfile *f, xspan v)
{
    uint32_t end = v.lo;
    while (end + 2 < v.hi && xf_ident(f, end, NULL) && xf_punct(xf_tok(f, end + 1), '.')) end += 2;
    if (!xf_ident(f, end, NULL) || !xf_punct(xf_tok(f, end + 1), '(') || xf_close(f, end + 1) != v.hi - 1 ||
        xf_ident(f, end, "Library") || xf_ident(f, end, "_scoped_library"))
        return UINT32_MAX;
    return end;
}

/* "T = CALL(...)": T is a Library if CALL makes or wraps one, which only
 * the whole tree tells. The links from key ("p:v:FILE#k") to what would
 * make it one: the first string argument if CALL passes its parameter 0
 * (or that keyword) to Library, or CALL's own literal namespace. */
static void call_links(pscan *ps, uint32_t k, uint32_t callee, xspan v, const char *key)
{
    xfile *f = ps->f;
    const xtok *c = xf_tok(f, callee);
    char req[200];
    pargs a;
    uint32_t bad;
    xpy_read_args(f, callee + 1, v.hi - 1, &a);
    for (int j = -1; j < a.nkw; j++) {
        const xspan *arg = j < 0 ? (a.npos ? &a.pos[0] : NULL) : &a.kw[j];
        xt_reset(&ps->part);
        if (!arg || !resolve(ps, *arg, &ps->part, &bad)) continue;
        if (j < 0) snprintf(req, sizeof req, "p:wraps:%.*s#0", (int)c->len, f->s + c->off);
        else snprintf(req, sizeof req, "p:wraps:%.*s#=%.*s", (int)c->len, f->s + c->off,
                      (int)xf_tok(f, a.kwname[j])->len, f->s + xf_tok(f, a.kwname[j])->off);
        xf_add_link_if(f, key, ps->part.s, ps->part.n, NULL, req);
    }
    snprintf(req, sizeof req, "p:call:%.*s", (int)c->len, f->s + c->off);
    xf_add_link(f, key, NULL, 0, req);
    (void)k;
}

static void call_key(const xfile *f, uint32_t k, char *key, size_t cap)
{
    snprintf(key, cap, "p:v:%s#%u", f->name, k);
}

/* The statement nearest before token at that assigns exactly the tokens
 * [lo, hi) ("T = v", "self.lib = v"): its index and value, or false. */
static bool assigned(const pscan *ps, uint32_t lo, uint32_t hi, uint32_t at, uint32_t *k, xspan *v)
{
    const xfile *f = ps->f;
    const pyfile *pf = &ps->pf;
    if (!pf->nst) return false;
    for (uint32_t j = xpy_stmt_of(pf, at) + 1; j-- > 0;) {
        const pystmt *s = &pf->st[j];
        uint32_t n = hi - lo;
        if (s->lo + n + 1 >= s->hi || s->lo >= at || !xf_same_tokens(f, s->lo, s->lo + n, lo, hi) ||
            !xf_punct(xf_tok(f, s->lo + n), '=') || xf_punct(xf_tok(f, s->lo + n + 1), '='))
            continue;
        *k = j;
        *v = (xspan){s->lo + n + 1, s->hi};
        return true;
    }
    return false;
}

/* A Library the tokens [lo, hi) were assigned from a call: deferred. */
static const pbind *bound_by_call(pscan *ps, uint32_t lo, uint32_t hi)
{
    uint32_t k, callee;
    xspan v;
    if (!assigned(ps, lo, hi, lo, &k, &v) || (callee = made_by_call(ps->f, v)) == UINT32_MAX) return NULL;
    char key[300];
    call_key(ps->f, k, key, sizeof key);
    call_links(ps, k, callee, v, key);
    pbind *b = new_binding(ps, lo, hi);
    if (b && !(b->defer = copy_str(ps, key, strlen(key)))) ps->nbinds--;
    return b && b->defer ? b : NULL;
}

/* "T = OTHER" where OTHER is a Library: T is one too. At module level,
 * "T = CALL(...)" is exported for other modules to import (statement k). */
static void assignment(pscan *ps, uint32_t k)
{
    xfile *f = ps->f;
    const pystmt *s = &ps->pf.st[k];
    uint32_t eq = s->lo;
    while (eq < s->hi && xf_ident(f, eq, NULL) && xf_punct(xf_tok(f, eq + 1), '.')) eq += 2;
    if (eq >= s->hi || !xf_ident(f, eq, NULL) || !xf_punct(xf_tok(f, eq + 1), '=') ||
        xf_punct(xf_tok(f, eq + 2), '='))
        return;
    xspan tg = {s->lo, eq + 1}, v = {eq + 2, s->hi};
    uint32_t callee;
    if (v.hi == v.lo + 1 || (v.hi == v.lo + 3 && xf_punct(xf_tok(f, v.lo + 1), '.'))) { /* an alias */
        const pbind *o = xf_ident(f, v.hi - 1, NULL) ? xpy_binding(ps, v.lo, v.hi) : NULL;
        pbind *b = o ? new_binding(ps, tg.lo, tg.hi) : NULL;
        if (!b) return;
        b->ns = o->ns ? copy_str(ps, o->ns, o->ns_len) : NULL;
        b->ns_len = o->ns_len;
        b->ns_off = o->ns_off;
        b->impl = o->impl;
        b->defer = o->defer ? copy_str(ps, o->defer, strlen(o->defer)) : NULL;
        export_binding(ps, b);
    } else if (s->col == 1 && tg.hi == tg.lo + 1 && (callee = made_by_call(f, v)) != UINT32_MAX) {
        char key[300], name[160];
        const xtok *t = xf_tok(f, tg.lo);
        call_key(f, k, key, sizeof key);
        call_links(ps, k, callee, v, key);
        snprintf(name, sizeof name, "p:name:%.*s", (int)(t->len < 120 ? t->len : 120), f->s + t->off);
        xf_add_link(f, name, NULL, 0, key);
    }
}

/* ---- define ----------------------------------------------------------------- */

/* A schema whose text starts before its call (a module constant, an
 * f-string's first field) is placed at the call. */
static bool from_elsewhere(const pscan *ps, uint32_t anchor)
{
    return ps->text.nseg && ps->text.seg[0].src < anchor;
}

void xpy_declare(pscan *ps, const char *ns, uint32_t ns_len, uint32_t ns_off, const char *defer,
                 uint32_t anchor, bool inferred)
{
    xdecl d = {TA_HOW_PY_LIBRARY, ns, ns_len, ns_off, &ps->text, false, inferred, inferred, anchor,
               NULL, 0, ns ? NULL : defer, from_elsewhere(ps, anchor)};
    xf_add_op(ps->f, &d);
}

static void add(pscan *ps, ta_extract_how how, const pbind *b, uint32_t anchor, bool inferred,
                bool has_kernel)
{
    xdecl d = {how, b ? b->ns : NULL, b ? b->ns_len : 0, b ? b->ns_off : 0, &ps->text,
               false, inferred, has_kernel, anchor, NULL, 0, b && !b->ns ? b->defer : NULL,
               from_elsewhere(ps, anchor)};
    xf_add_op(ps->f, &d);
}

/* torch.library.define("ns::op", "(args) -> rets"): PyTorch registers the
 * name and the rest joined. */
static void define_pair(pscan *ps, const pargs *a, uint32_t anchor, bool certain)
{
    uint32_t bad;
    xt_reset(&ps->text);
    xt_reset(&ps->part);
    if (!resolve(ps, a->pos[0], &ps->text, &bad) || !resolve(ps, a->pos[1], &ps->part, &bad)) {
        if (certain) note_unresolved(ps, bad, "schema of this define");
        return;
    }
    xt_append(&ps->text, &ps->part);
    add(ps, TA_HOW_PY_DEFINE, NULL, anchor, false, false);
}

static bool starts_with_paren(const xtext *t)
{
    uint32_t k = 0;
    while (k < t->n && (t->s[k] == ' ' || t->s[k] == '\n' || t->s[k] == '\t')) k++;
    return k < t->n && t->s[k] == '(';
}

/* lib.define(NAME) in "for NAME in [...]": a declaration per element. */
static bool define_loop(pscan *ps, const pbind *b, xspan arg, uint32_t anchor)
{
    xspan v[MAX_LOOP];
    uint32_t bad;
    int n = arg.hi == arg.lo + 1 ? xpy_loop_values(&ps->pf, arg.lo, v, MAX_LOOP) : -1;
    for (int k = 0; k < n; k++) {
        xt_reset(&ps->text);
        if (resolve(ps, v[k], &ps->text, &bad)) add(ps, TA_HOW_PY_LIBRARY, b, anchor, false, false);
    }
    return n >= 0;
}

/* X.define(...) or define(...) at i ("define"). */
static uint32_t define_call(pscan *ps, uint32_t i)
{
    xfile *f = ps->f;
    uint32_t close = xf_close(f, i + 1);
    if (close >= f->ntok) return i;
    bool dotted = i > 0 && xf_punct(xf_tok(f, i - 1), '.');
    if (!dotted && i > 0 && xf_ident(f, i - 1, "def")) return i; /* def define(...) */
    uint32_t rlo = dotted ? xf_dotted_start(f, i - 1) : i, rhi = dotted ? i - 1 : i;
    pargs a;
    xpy_read_args(f, i + 1, close, &a);
    if (a.npos < 1) return close;
    const xtok *last = rhi > rlo ? xf_tok(f, rhi - 1) : NULL;
    /* torch.library.define, unless "library" is a Library of this file */
    bool own = false;
    for (int k = ps->nbinds; dotted && k-- > 0 && !own;)
        own = xf_same_tokens(f, ps->binds[k].lo, ps->binds[k].hi, rlo, rhi);
    bool module = !dotted || (!own && last && xf_is(f, last, "library"));
    const pbind *b = dotted && !module ? xpy_binding(ps, rlo, rhi) : NULL;
    uint32_t bad, anchor = xf_tok(f, i)->off;
    if (a.npos >= 2 && !b) {
        /* the two-string form, when the second reads as an argument list */
        xt_reset(&ps->part);
        bool pair = module || (resolve(ps, a.pos[1], &ps->part, &bad) && starts_with_paren(&ps->part));
        if (pair) define_pair(ps, &a, anchor, module);
        return close;
    }
    if (module && !dotted) return close;
    if (b && b->impl) return close;
    xt_reset(&ps->text);
    if (!resolve(ps, a.pos[0], &ps->text, &bad)) {
        if (b && !define_loop(ps, b, a.pos[0], anchor)) note_unresolved(ps, bad, "schema of this define");
        return close;
    }
    if (!b && !looks_like_schema(&ps->text)) return close;
    if (!b && !ps->noted_receiver) {
        ps->noted_receiver = true;
        uint32_t end = xf_tok(f, rhi - 1)->off + xf_tok(f, rhi - 1)->len, start = xf_tok(f, rlo)->off;
        xf_report(f, TA_SEV_NOTE, start, end - start, XR_UNRESOLVED, NULL,
                  "'%.*s' is not a Library this file makes or imports, so the namespace of its definitions is unknown",
                  (int)(end - start), f->s + start);
    }
    add(ps, TA_HOW_PY_LIBRARY, b, anchor, false, false);
    return close;
}

/* ---- kernels -------------------------------------------------------------- */

/* X.impl("op", fn, ...) on a known Library, or torch.library.impl("ns::op", ...). */
static uint32_t impl_call(pscan *ps, uint32_t i)
{
    xfile *f = ps->f;
    uint32_t close = xf_close(f, i + 1);
    if (close >= f->ntok || i == 0 || !xf_punct(xf_tok(f, i - 1), '.')) return i;
    uint32_t rlo = xf_dotted_start(f, i - 1);
    const pbind *b = xpy_binding(ps, rlo, i - 1);
    pargs a;
    uint32_t bad;
    xpy_read_args(f, i + 1, close, &a);
    xt_reset(&ps->part);
    if (a.npos < 1 || !resolve(ps, a.pos[0], &ps->part, &bad) || !ps->part.n) return close;
    if (b && b->ns) xf_add_kernel(f, b->ns, b->ns_len, ps->part.s, ps->part.n);
    else if (b || memmem(ps->part.s, ps->part.n, "::", 2)) xf_add_kernel(f, NULL, 0, ps->part.s, ps->part.n);
    return close;
}

/* ---- custom_op ------------------------------------------------------------ */

bool xpy_read_mutates(pscan *ps, const xspan *v, xpy_sig *sig, const char **names, uint32_t *lens)
{
    xfile *f = ps->f;
    sig->nmutates = 0;
    sig->mutates_unknown = false;
    if (!v || xf_ident(f, v->lo, "None")) return true; /* the older API, or nothing: nothing mutated */
    uint32_t bad;
    const xtok *t = xf_tok(f, v->lo);
    if (t->kind == XT_STRING) {
        xt_reset(&ps->part);
        if (!resolve(ps, *v, &ps->part, &bad) || strcmp(ps->part.s ? ps->part.s : "", "unknown"))
            return false;
        sig->mutates_unknown = true;
        return true;
    }
    xspan items[MAX_MUTATES];
    int n = xpy_elements(&ps->pf, *v, items, MAX_MUTATES);
    if (n < 0) return false;
    for (int k = 0; k < n; k++) {
        const xtok *s = xf_tok(f, items[k].lo);
        if (items[k].hi != items[k].lo + 1 || s->kind != XT_STRING || (s->flags & ~XS_RAW))
            return false;
        /* a plain name in quotes: the bytes between them */
        uint32_t q = 0;
        while (f->s[s->off + q] != '"' && f->s[s->off + q] != '\'') q++;
        names[k] = f->s + s->off + q + 1;
        lens[k] = s->len - q - 2;
    }
    sig->mutates = names;
    sig->mutates_len = lens;
    sig->nmutates = (uint32_t)n;
    return true;
}

/* "def NAME(" at or after i, past blank lines and decorators: the index of
 * NAME, or 0. */
static uint32_t decorated_def(const xfile *f, uint32_t i)
{
    while (i < f->ntok) {
        if (f->tok[i].kind == XT_NEWLINE) {
            i++;
        } else if (xf_punct(&f->tok[i], '@')) { /* another decorator: to its line's end */
            while (i < f->ntok && f->tok[i].kind != XT_NEWLINE) i++;
        } else if (xf_ident(f, i, "async")) {
            i++;
        } else {
            break;
        }
    }
    return xf_ident(f, i, "def") && xf_ident(f, i + 1, NULL) ? i + 1 : 0;
}

uint32_t xpy_def_named(const xfile *f, const xtok *name)
{
    for (uint32_t i = 0; i + 2 < f->ntok; i++)
        if (xf_ident(f, i, "def") && f->tok[i + 1].len == name->len &&
            !memcmp(f->s + f->tok[i + 1].off, f->s + name->off, name->len) &&
            xf_punct(&f->tok[i + 2], '('))
            return i + 1;
    return 0;
}

bool xpy_signature(const xfile *f, uint32_t fn, xpy_sig *sig)
{
    uint32_t open = fn + 1, close = xf_close(f, open);
    if (!xf_punct(xf_tok(f, open), '(') || close >= f->ntok) return false;
    sig->params_lo = open + 1;
    sig->params_hi = close;
    sig->ret_lo = sig->ret_hi = close + 1;
    if (xf_punct(xf_tok(f, close + 1), XP2('-', '>'))) {
        uint32_t e = close + 2;
        while (e < f->ntok && !xf_punct(&f->tok[e], ':')) {
            const xtok *t = &f->tok[e];
            if (t->kind == XT_PUNCT && t->len == 1 && strchr("([{", (char)t->punct)) e = xf_close(f, e);
            if (e < f->ntok) e++;
        }
        sig->ret_lo = close + 2;
        sig->ret_hi = e;
    }
    return true;
}

/* custom_op("ns::op", ...) at i, as a decorator or a call. */
static uint32_t custom_op_call(pscan *ps, uint32_t i)
{
    xfile *f = ps->f;
    uint32_t close = xf_close(f, i + 1);
    if (close >= f->ntok || (i > 0 && xf_ident(f, i - 1, "def"))) return i;
    uint32_t start = xf_dotted_start(f, i + 1);
    bool decorator = start > 0 && xf_punct(xf_tok(f, start - 1), '@');
    pargs a;
    xpy_read_args(f, i + 1, close, &a);
    if (a.npos < 1) return close;
    uint32_t bad, anchor = xf_tok(f, i)->off;
    xt_reset(&ps->text);
    if (!resolve(ps, a.pos[0], &ps->text, &bad)) {
        note_unresolved(ps, bad, "name of this custom_op");
        return close;
    }
    const xspan *schema = xpy_kwarg(f, &a, "schema");
    if (schema && !xf_ident(f, schema->lo, "None")) {
        xt_reset(&ps->part);
        if (!resolve(ps, *schema, &ps->part, &bad)) {
            note_unresolved(ps, bad, "schema of this custom_op");
            return close;
        }
        xt_append(&ps->text, &ps->part);
        add(ps, TA_HOW_PY_CUSTOM_OP, NULL, anchor, false, true);
        return close;
    }
    uint32_t fn = decorator ? decorated_def(f, close + 1) : 0;
    if (!decorator && a.npos >= 2 && xf_ident(f, a.pos[1].lo, NULL) && a.pos[1].hi == a.pos[1].lo + 1)
        fn = xpy_def_named(f, xf_tok(f, a.pos[1].lo));
    xpy_sig sig = {0};
    const char *names[MAX_MUTATES];
    uint32_t lens[MAX_MUTATES];
    const xspan *mut = xpy_kwarg(f, &a, "mutates_args");
    if (!fn || !xpy_signature(f, fn, &sig)) {
        xf_report(f, TA_SEV_NOTE, ps->text.nseg ? ps->text.seg[0].src : anchor, ps->text.n,
                  XR_INFERRED, NULL,
                  "the schema of custom_op '%.*s' is inferred from a function the scanner cannot find",
                  (int)ps->text.n, ps->text.s);
        return close;
    }
    if (!xpy_read_mutates(ps, mut, &sig, names, lens)) {
        note_unresolved(ps, mut->lo, "mutates_args of this custom_op");
        return close;
    }
    xt_reset(&ps->part);
    if (!ta_xpy_infer(f, &sig, &ps->part)) return close;
    xt_append(&ps->text, &ps->part);
    add(ps, TA_HOW_PY_CUSTOM_OP, NULL, anchor, true, true);
    return close;
}

/* ---- the walk ------------------------------------------------------------- */

static uint32_t call_at(pscan *ps, uint32_t i)
{
    xfile *f = ps->f;
    const xtok *t = &f->tok[i];
    if (xf_is(f, t, "Library") || xf_is(f, t, "_scoped_library")) return library_call(ps, i);
    if (xf_is(f, t, "define")) return define_call(ps, i);
    if (xf_is(f, t, "custom_op") || xf_is(f, t, "triton_op")) return custom_op_call(ps, i);
    if (xf_is(f, t, "impl")) return impl_call(ps, i);
    uint32_t close = xpy_helper_call(ps, i);
    return close == i ? i : i + 1; /* its arguments may hold calls too */
}

/* What a scan of one file holds, freed. */
static void pscan_free(pscan *ps)
{
    for (int k = 0; k < ps->nbinds; k++) {
        free(ps->binds[k].ns);
        free(ps->binds[k].defer);
    }
    xpy_structure_free(&ps->pf);
    xt_free(&ps->text);
    xt_free(&ps->part);
}

void ta_xpy_scan(xfile *f)
{
    pscan ps;
    memset(&ps, 0, sizeof ps);
    ps.f = f;
    ps.pf.f = f;
    if (xpy_structure(&ps.pf)) {
        xpy_summarize(&ps, false);
        uint32_t k = 0;
        for (uint32_t i = 0; i + 1 < f->ntok && f->st == TA_OK; i++) {
            while (k < ps.pf.nst && ps.pf.st[k].lo < i) k++;
            if (k < ps.pf.nst && ps.pf.st[k].lo == i) assignment(&ps, k);
            if (f->tok[i].kind == XT_IDENT && xf_punct(&f->tok[i + 1], '(')) i = call_at(&ps, i);
        }
    }
    if ((ps.text.oom || ps.part.oom) && f->st == TA_OK) f->st = TA_ERR_NOMEM;
    pscan_free(&ps);
}

/* Lexes and summarizes text as file. */
static ta_status summarize_text(ta_extract *x, const char *file, const char *text, size_t len)
{
    xfile f = {0};
    f.x = x;
    f.name = xf_intern(x, file);
    f.s = text;
    f.n = (uint32_t)len;
    if (!f.name || !xf_index_lines(&f)) {
        free(f.lines);
        return TA_ERR_NOMEM;
    }
    pscan ps;
    memset(&ps, 0, sizeof ps);
    ps.f = &f;
    ps.pf.f = &f;
    ta_xpy_lex(&f);
    if (f.st == TA_OK && xpy_structure(&ps.pf)) xpy_summarize(&ps, true);
    pscan_free(&ps);
    free(f.tok);
    free(f.lines);
    return f.st;
}

ta_status ta_xpy_prepass(ta_extract *x, const char *file, const char *text, size_t len)
{
    if (len >= UINT32_MAX / 2) return TA_OK;
    if (memmem(text, len, "define(", 7) || memmem(text, len, "Library(", 8))
        return summarize_text(x, file, text, len);
    return xpy_index_defs(x, file, text, len);
}

ta_status xpy_summarize_file(ta_extract *x, const char *path)
{
    static const ta_file_rules rules = {.max_bytes = 16u << 20, .regular_only = true};
    char *buf = NULL;
    size_t cap = 0, len = 0;
    int err = ta_file_read(path, &rules, &buf, &cap, &len);
    ta_status st = err == ENOMEM ? TA_ERR_NOMEM : err ? TA_OK : summarize_text(x, path, buf, len);
    free(buf);
    return st;
}
