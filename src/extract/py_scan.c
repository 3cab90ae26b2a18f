/* py_scan.c - the Python call shapes that declare operator schemas.
 *
 *   lib = torch.library.Library("ns", "DEF")      (or "FRAGMENT"; "IMPL" adds kernels)
 *   lib.define("op(Tensor x) -> Tensor")          (the Library's namespace applied)
 *   torch.library.define("ns::op", "(Tensor x) -> Tensor")   (joined: ns::op(Tensor x) -> ...)
 *   @torch.library.custom_op("ns::op", mutates_args=(...)) def op(x: Tensor) -> Tensor: ...
 *       (the schema= given, or built from the type hints as infer_schema does)
 *   lib.impl("op", fn, "CPU"), torch.library.impl("ns::op", "CPU")   (kernels)
 *
 * A Library is known by the name it is assigned to (lib = ..., self.lib =
 * ..., with ... as lib) anywhere in the file. A schema spelled with an
 * f-string, a variable or a call is a note naming the place. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "extract/extract_internal.h"

enum { MAX_ARGS = 16, MAX_BINDINGS = 64, MAX_MUTATES = 64 };

/* A name a Library was assigned to. */
typedef struct pbind {
    uint32_t lo, hi;  /* the target's tokens */
    char *ns;         /* NULL when not a literal */
    uint32_t ns_len;
    uint32_t ns_off;  /* source offset of the namespace argument */
    bool impl;        /* an "IMPL" library: kernels only */
} pbind;

typedef struct pscan {
    xfile *f;
    pbind binds[MAX_BINDINGS];
    int nbinds;
    xtext text, part;
    bool noted_receiver; /* the unknown-receiver note, once a file */
} pscan;

/* Positional arguments, and keyword arguments by name. */
typedef struct pargs {
    xspan pos[MAX_ARGS];
    int npos;
    xspan kw[MAX_ARGS]; /* the value's tokens */
    uint32_t kwname[MAX_ARGS];
    int nkw;
} pargs;

static void read_args(const xfile *f, uint32_t open, uint32_t close, pargs *a)
{
    xspan all[MAX_ARGS];
    int n = xf_split(f, open, close, all, MAX_ARGS);
    a->npos = a->nkw = 0;
    for (int k = 0; k < n && k < MAX_ARGS; k++) {
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

static const xspan *kwarg(const xfile *f, const pargs *a, const char *name)
{
    for (int k = 0; k < a->nkw; k++)
        if (xf_ident(f, a->kwname[k], name)) return &a->kw[k];
    return NULL;
}

/* Decodes an argument made only of string literals (implicit
 * concatenation, in parentheses or not) into out; otherwise false with *bad
 * the first token that is not one. */
static bool resolve(pscan *ps, xspan a, xtext *out, uint32_t *bad)
{
    xfile *f = ps->f;
    *bad = a.lo;
    while (a.hi > a.lo + 1 && xf_punct(xf_tok(f, a.lo), '(') && xf_close(f, a.lo) == a.hi - 1) {
        a.lo++;
        a.hi--;
    }
    if (a.lo >= a.hi) return false;
    for (uint32_t i = a.lo; i < a.hi; i++) {
        const xtok *t = xf_tok(f, i);
        if (t->kind != XT_STRING || !ta_xpy_decode(f, t, out)) {
            *bad = i;
            if (t->kind == XT_STRING && (t->flags & XS_UNTERMINATED))
                xf_report(f, TA_SEV_WARNING, t->off, t->len, XR_LITERAL, NULL,
                          "unterminated string literal");
            return false;
        }
    }
    return !out->oom;
}

static void note_unresolved(pscan *ps, uint32_t bad, const char *what)
{
    xfile *f = ps->f;
    const xtok *t = xf_tok(f, bad);
    const char *why = t->kind == XT_STRING && (t->flags & XS_FORMAT) ? "an f-string"
                      : t->kind == XT_IDENT ? "a variable or call" : "an expression";
    uint32_t len = t->len > 40 ? 40 : t->len;
    xf_report(f, TA_SEV_NOTE, t->off, t->len, XR_UNRESOLVED, NULL,
              "the %s is %s ('%.*s'), which the scanner does not resolve", what, why, (int)len,
              f->s + t->off);
}

static bool looks_like_schema(const xtext *t)
{
    return t->n && memchr(t->s, '(', t->n) && memmem(t->s, t->n, "->", 2);
}

/* ---- Library objects ------------------------------------------------------ */

static const pbind *binding(const pscan *ps, uint32_t lo, uint32_t hi)
{
    for (int k = ps->nbinds; k-- > 0;)
        if (xf_same_tokens(ps->f, ps->binds[k].lo, ps->binds[k].hi, lo, hi)) return &ps->binds[k];
    return NULL;
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

/* Library("ns", "KIND") at i. */
static uint32_t library_call(pscan *ps, uint32_t i)
{
    xfile *f = ps->f;
    uint32_t close = xf_close(f, i + 1);
    pargs a;
    xspan tg;
    if (close >= f->ntok) return i;
    read_args(f, i + 1, close, &a);
    if (a.npos < 2 || !target_of(f, i, close, &tg) || ps->nbinds == MAX_BINDINGS) return close;
    pbind *b = &ps->binds[ps->nbinds];
    memset(b, 0, sizeof *b);
    b->lo = tg.lo;
    b->hi = tg.hi;
    b->ns_off = xf_tok(f, a.pos[0].lo)->off;
    uint32_t bad;
    xt_reset(&ps->part);
    if (resolve(ps, a.pos[1], &ps->part, &bad)) b->impl = ps->part.n == 4 && !memcmp(ps->part.s, "IMPL", 4);
    xt_reset(&ps->part);
    if (resolve(ps, a.pos[0], &ps->part, &bad)) {
        if (!(b->ns = ta_malloc(ps->part.n + 1))) {
            f->st = TA_ERR_NOMEM;
            return close;
        }
        memcpy(b->ns, ps->part.s, ps->part.n + 1);
        b->ns_len = ps->part.n;
    }
    ps->nbinds++;
    return close;
}

/* ---- define ----------------------------------------------------------------- */

static void add(pscan *ps, ta_extract_how how, const pbind *b, uint32_t anchor, bool inferred,
                bool has_kernel)
{
    xdecl d = {how, b ? b->ns : NULL, b ? b->ns_len : 0, b ? b->ns_off : 0, &ps->text,
               false, inferred, has_kernel, anchor, NULL, 0};
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
    read_args(f, i + 1, close, &a);
    if (a.npos < 1) return close;
    const xtok *last = rhi > rlo ? xf_tok(f, rhi - 1) : NULL;
    bool module = !dotted || (last && xf_is(f, last, "library"));
    const pbind *b = dotted ? binding(ps, rlo, rhi) : NULL;
    uint32_t bad, anchor = xf_tok(f, i)->off;
    if (a.npos >= 2 && !b) {
        /* the two-string form, when the second reads as an argument list */
        xt_reset(&ps->part);
        bool pair = module || (resolve(ps, a.pos[1], &ps->part, &bad) && starts_with_paren(&ps->part));
        if (pair) define_pair(ps, &a, anchor, module);
        return close;
    }
    if (module && !dotted) return close;
    xt_reset(&ps->text);
    if (!resolve(ps, a.pos[0], &ps->text, &bad)) {
        if (b) note_unresolved(ps, bad, "schema of this define");
        return close;
    }
    if (!b && !looks_like_schema(&ps->text)) return close;
    if (!b && !ps->noted_receiver) {
        ps->noted_receiver = true;
        xf_report(f, TA_SEV_NOTE, xf_tok(f, rlo)->off, xf_tok(f, rhi - 1)->off + xf_tok(f, rhi - 1)->len - xf_tok(f, rlo)->off,
                  XR_UNRESOLVED, NULL,
                  "'%.*s' is not a Library this file creates, so the namespace of its definitions is unknown",
                  (int)(xf_tok(f, rhi - 1)->off + xf_tok(f, rhi - 1)->len - xf_tok(f, rlo)->off),
                  f->s + xf_tok(f, rlo)->off);
    }
    if (b && b->impl) return close;
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
    const pbind *b = binding(ps, rlo, i - 1);
    pargs a;
    uint32_t bad;
    read_args(f, i + 1, close, &a);
    xt_reset(&ps->part);
    if (a.npos < 1 || !resolve(ps, a.pos[0], &ps->part, &bad) || !ps->part.n) return close;
    if (b) xf_add_kernel(f, b->ns, b->ns_len, ps->part.s, ps->part.n);
    else if (memmem(ps->part.s, ps->part.n, "::", 2)) xf_add_kernel(f, NULL, 0, ps->part.s, ps->part.n);
    return close;
}

/* ---- custom_op ------------------------------------------------------------ */

/* The names in mutates_args=(...): a tuple, list or set of strings, or
 * "unknown". false when it is anything else. */
static bool read_mutates(pscan *ps, const xspan *v, xpy_sig *sig, const char **names,
                         uint32_t *lens)
{
    xfile *f = ps->f;
    sig->nmutates = 0;
    sig->mutates_unknown = false;
    if (!v) return true; /* the older API: nothing mutated */
    uint32_t bad;
    const xtok *t = xf_tok(f, v->lo);
    if (t->kind == XT_STRING) {
        xt_reset(&ps->part);
        if (!resolve(ps, *v, &ps->part, &bad) || strcmp(ps->part.s ? ps->part.s : "", "unknown"))
            return false;
        sig->mutates_unknown = true;
        return true;
    }
    char open = t->kind == XT_PUNCT ? (char)t->punct : 0;
    if ((open != '(' && open != '[' && open != '{') || xf_close(f, v->lo) != v->hi - 1) return false;
    xspan items[MAX_MUTATES];
    int n = xf_split(f, v->lo, v->hi - 1, items, MAX_MUTATES);
    if (n > MAX_MUTATES) return false;
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

/* "def NAME(" anywhere in the file: the index of NAME, or 0. */
static uint32_t def_named(const xfile *f, const xtok *name)
{
    for (uint32_t i = 0; i + 2 < f->ntok; i++)
        if (xf_ident(f, i, "def") && f->tok[i + 1].len == name->len &&
            !memcmp(f->s + f->tok[i + 1].off, f->s + name->off, name->len) &&
            xf_punct(&f->tok[i + 2], '('))
            return i + 1;
    return 0;
}

/* The signature of the def whose name is at fn. */
static bool signature(const xfile *f, uint32_t fn, xpy_sig *sig)
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
    read_args(f, i + 1, close, &a);
    if (a.npos < 1) return close;
    uint32_t bad, anchor = xf_tok(f, i)->off;
    xt_reset(&ps->text);
    if (!resolve(ps, a.pos[0], &ps->text, &bad)) {
        note_unresolved(ps, bad, "name of this custom_op");
        return close;
    }
    const xspan *schema = kwarg(f, &a, "schema");
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
        fn = def_named(f, xf_tok(f, a.pos[1].lo));
    xpy_sig sig = {0};
    const char *names[MAX_MUTATES];
    uint32_t lens[MAX_MUTATES];
    const xspan *mut = kwarg(f, &a, "mutates_args");
    if (!fn || !signature(f, fn, &sig)) {
        xf_report(f, TA_SEV_NOTE, ps->text.nseg ? ps->text.seg[0].src : anchor, ps->text.n,
                  XR_INFERRED, NULL,
                  "the schema of custom_op '%.*s' is inferred from a function the scanner cannot find",
                  (int)ps->text.n, ps->text.s);
        return close;
    }
    if (!read_mutates(ps, mut, &sig, names, lens)) {
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

void ta_xpy_scan(xfile *f)
{
    pscan ps = {0};
    ps.f = f;
    for (uint32_t i = 0; i + 1 < f->ntok && f->st == TA_OK; i++) {
        const xtok *t = &f->tok[i];
        if (t->kind != XT_IDENT || !xf_punct(&f->tok[i + 1], '(')) continue;
        if (xf_is(f, t, "Library") || xf_is(f, t, "_scoped_library")) i = library_call(&ps, i);
        else if (xf_is(f, t, "define")) i = define_call(&ps, i);
        else if (xf_is(f, t, "custom_op") || xf_is(f, t, "triton_op")) i = custom_op_call(&ps, i);
        else if (xf_is(f, t, "impl")) i = impl_call(&ps, i);
    }
    if ((ps.text.oom || ps.part.oom) && f->st == TA_OK) f->st = TA_ERR_NOMEM;
    for (int k = 0; k < ps.nbinds; k++) free(ps.binds[k].ns);
    xt_free(&ps.text);
    xt_free(&ps.part);
}
