/* cpp_expand.c - macro expansion over a C++ file's tokens (see cpp_pp.h).
 *
 * The file's tokens are read in order; a directive updates the macros (or,
 * a conditional, is passed on for the scanner); a name that is a macro is
 * replaced by its expansion, which is read again before the rest of the
 * file, so that a macro's replacement may name another macro and take its
 * arguments from what follows. Each token carries the set of macros that
 * must not expand it (its hide set, C17 6.10.3.4): a macro's own name in
 * its replacement is painted and stays as written. The arguments of a
 * function-like macro are expanded on their own before they are
 * substituted, except next to # and ##. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/grow.h"
#include "base/map.h"
#include "extract/cpp_pp.h"

/* A hide set: a list of macro ids (in the file's arena; short). */
typedef struct xhide {
    uint32_t id;
    const struct xhide *next;
} xhide;

typedef struct pptok {
    xtok t;
    const xhide *hs;
} pptok;

typedef struct pvec {
    pptok *v;
    uint32_t n;
    size_t cap;
} pvec;

/* Where tokens are read from: pending ones (the last read first), then,
 * for the file's stream, the file's own. */
typedef struct xstream {
    pvec pend;
    bool raw;
} xstream;

typedef struct xpp {
    xfile *f;
    xpp_shared *sh;
    ta_arena *arena;     /* this file's macros and hide sets */
    ta_map macros;       /* name -> const xmacro *, NULL once undefined */
    ta_map included;     /* header path -> 1 */
    uint32_t nincluded;
    const char *dir;     /* the file's directory */
    xtoks out;
    uint32_t raw;        /* the next of the file's own tokens */
    uint32_t max_out;
    uint32_t depth;      /* of argument pre-expansion */
    bool stopped;        /* a bound was met: the rest is read as written */
    /* conditionals, as xm_conditional keeps them */
    uint32_t cdepth, dead_from;
    uint8_t mode[XPP_MAX_DEPTH];
    uint8_t emitted[XPP_MAX_DEPTH]; /* whether the conditional's directives are passed on */
} xpp;

static bool oom(xpp *pp)
{
    pp->f->st = TA_ERR_NOMEM;
    return false;
}

static bool push(xpp *pp, pvec *v, const pptok *t)
{
    if (TA_GROW_ONE(v->v, v->n, v->cap, 16) != TA_OK) return oom(pp);
    v->v[v->n++] = *t;
    return true;
}

/* ---- hide sets ------------------------------------------------------------ */

static bool hs_has(const xhide *h, uint32_t id)
{
    for (; h; h = h->next)
        if (h->id == id) return true;
    return false;
}

static const xhide *hs_add(xpp *pp, const xhide *h, uint32_t id)
{
    if (hs_has(h, id)) return h;
    xhide *n = ta_arena_alloc(pp->arena, sizeof *n);
    if (!n) {
        oom(pp);
        return h;
    }
    n->id = id;
    n->next = h;
    return n;
}

static const xhide *hs_union(xpp *pp, const xhide *a, const xhide *b)
{
    for (; a; a = a->next) b = hs_add(pp, b, a->id);
    return b;
}

static const xhide *hs_intersect(xpp *pp, const xhide *a, const xhide *b)
{
    const xhide *r = NULL;
    for (; a; a = a->next)
        if (hs_has(b, a->id)) r = hs_add(pp, r, a->id);
    return r;
}

/* ---- bounds --------------------------------------------------------------- */

static void stop(xpp *pp, const xtok *at, const char *what)
{
    if (pp->stopped) return;
    pp->stopped = true;
    xf_report(pp->f, TA_SEV_NOTE, at->org, at->orglen, XR_UNRESOLVED, NULL,
              "macro expansion stopped here (%s); the rest of the file is read as written", what);
}

/* ---- macros ----------------------------------------------------------------- */

static void set_macro(xpp *pp, const char *name, uint32_t len, const xmacro *m)
{
    ta_map_entry *e = ta_map_find(&pp->macros, name, len);
    if (e) {
        e->value = ta_map_ptr((void *)m);
        return;
    }
    char *k = ta_arena_strndup(pp->arena, name, len);
    if (!k || ta_map_add(&pp->macros, k, len, ta_map_ptr((void *)m), NULL) != TA_OK) oom(pp);
}

static const xmacro *macro_of(const xpp *pp, const xtok *t)
{
    const ta_map_entry *e = ta_map_find(&pp->macros, pp->f->s + t->off, t->len);
    return e ? e->value.ptr : NULL;
}

/* A name a build defines rather than one written out: upper case, digits
 * and underscores with at least two capitals (TORCH_EXTENSION_NAME). */
static bool build_macro_like(const xfile *f, const xtok *t)
{
    int caps = 0;
    for (uint32_t i = 0; i < t->len; i++) {
        char c = f->s[t->off + i];
        if (c >= 'a' && c <= 'z') return false;
        caps += c >= 'A' && c <= 'Z';
    }
    return t->kind == XT_IDENT && caps >= 2;
}

static void include(xpp *pp, const char *name, const char *dir, uint32_t depth);

static void replay(xpp *pp, const xheader *h, uint32_t depth)
{
    for (uint32_t i = 0; i < h->nev && pp->f->st == TA_OK; i++) {
        const xhevent *e = &h->ev[i];
        if (e->kind == XH_DEFINE) set_macro(pp, e->m->name, e->m->name_len, e->m);
        else if (e->kind == XH_UNDEF) set_macro(pp, e->name, e->len, NULL);
        else include(pp, e->name, h->dir, depth + 1);
    }
}

static void include(xpp *pp, const char *name, const char *dir, uint32_t depth)
{
    xfile *f = pp->f;
    if (depth > XPP_MAX_INCLUDE_DEPTH || pp->nincluded >= XPP_MAX_HEADERS) return;
    ta_status st = TA_OK;
    const char *path = xs_resolve(pp->sh, dir, name, f->root, f->include_dirs, &st);
    if (st != TA_OK) f->st = st;
    if (!path) return;
    ta_map_entry *e = NULL;
    if (ta_map_add(&pp->included, path, strlen(path), ta_map_int(1), &e) != TA_OK) {
        oom(pp);
        return;
    }
    if (e->value.i != 1) return; /* included already */
    e->value = ta_map_int(2);
    pp->nincluded++;
    const xheader *h = xs_header(pp->sh, f, path);
    if (h) replay(pp, h, depth);
}

/* ---- directives --------------------------------------------------------------- */

static bool spelled(const xfile *f, const xtok *t, const char *w)
{
    size_t n = strlen(w);
    return t->len == n && !memcmp(f->s + t->off, w, n);
}

static bool dead(const xpp *pp) { return pp->dead_from != 0; }

/* Whether the conditional #ifndef NAME being opened (tokens t[0..n)) is
 * an include guard: the file's next token is "#define NAME". */
static bool guard(xpp *pp, const xtok *t, uint32_t n)
{
    xfile *f = pp->f;
    if (n != 2 || !spelled(f, &t[0], "ifndef") || pp->raw >= f->ntok) return false;
    const xtok *d = &f->tok[pp->raw];
    if (d->kind != XT_DIRECTIVE) return false;
    xtoks v = {0};
    ta_xcpp_lex_range(f, d->off + 1, d->off + d->len, false, &v);
    bool yes = v.n >= 2 && spelled(f, &v.v[0], "define") && v.v[1].len == t[1].len &&
               !memcmp(f->s + v.v[1].off, f->s + t[1].off, t[1].len);
    free(v.v);
    return yes;
}

/* A conditional: passed on (for the scanner's branches and notes) unless
 * it has a branch no build compiles or sits in one. */
static void conditional(xpp *pp, const xtok *d, const xtok *t, uint32_t n, uint8_t kind, bool was_dead)
{
    uint32_t level = kind == 1 ? pp->cdepth : pp->cdepth + (kind == 3 ? 1 : 0);
    if (!level || level > XPP_MAX_DEPTH) return;
    if (kind == 1) pp->emitted[level - 1] = !was_dead && pp->mode[level - 1] == 0;
    if (!pp->emitted[level - 1]) return;
    xtok c = *d;
    if (kind == 1 && guard(pp, t, n)) c.pp |= XP_GUARD;
    if (!xtoks_add(pp->f, &pp->out, &c)) oom(pp);
}

static void directive(xpp *pp, const xtok *d)
{
    xfile *f = pp->f;
    xtoks v = {0};
    ta_xcpp_lex_range(f, d->off + 1, d->off + d->len, false, &v);
    const xtok *t = v.v;
    uint32_t n = v.n;
    bool was_dead = dead(pp);
    uint8_t kind = f->st == TA_OK ? xm_conditional(f, t, n, &pp->cdepth, &pp->dead_from, pp->mode) : 0;
    if (kind) {
        conditional(pp, d, t, n, kind, was_dead);
    } else if (f->st == TA_OK && !was_dead && n >= 2) {
        if (spelled(f, &t[0], "define")) {
            const xmacro *m = xm_parse(f, pp->arena, t + 1, n - 1, false, 0, 0, xs_next_id(pp->sh));
            if (m) set_macro(pp, m->name, m->name_len, m);
        } else if (spelled(f, &t[0], "undef") && t[1].kind == XT_IDENT) {
            set_macro(pp, f->s + t[1].off, t[1].len, NULL);
        } else if (spelled(f, &t[0], "include") && t[1].kind == XT_STRING && !t[1].flags &&
                   f->s[t[1].off] == '"' && t[1].len >= 2 && t[1].len < 1024) {
            char name[1024];
            memcpy(name, f->s + t[1].off + 1, t[1].len - 2);
            name[t[1].len - 2] = '\0';
            include(pp, name, pp->dir, 0);
        }
    }
    free(v.v);
}

/* ---- reading ---------------------------------------------------------------- */

static bool next(xpp *pp, xstream *s, pptok *out)
{
    xfile *f = pp->f;
    for (;;) {
        if (s->pend.n) {
            *out = s->pend.v[--s->pend.n];
            return true;
        }
        if (!s->raw || pp->raw >= f->ntok || f->st != TA_OK) return false;
        const xtok *t = &f->tok[pp->raw++];
        if (t->kind == XT_DIRECTIVE) {
            directive(pp, t);
        } else if (!dead(pp)) {
            out->t = *t;
            out->hs = NULL;
            return true;
        }
    }
}

/* Puts tokens back to be read first, in their order. */
static void unread(xpp *pp, xstream *s, const pptok *t, uint32_t n)
{
    for (uint32_t k = n; k-- > 0;)
        if (!push(pp, &s->pend, &t[k])) return;
}

static bool is_punct(const xtok *t, char c) { return t->kind == XT_PUNCT && t->punct == (uint16_t)(unsigned char)c; }

/* The arguments of an invocation whose "(" was read: each a run of
 * tokens in all (split at top-level commas into arg[]), up to the ")"
 * (*rp). false, with everything read put back, when the stream ends first
 * or the count does not fit the macro. */
typedef struct args {
    pvec all;
    uint32_t start[257], count[257];
    uint32_t n;
} args;

static bool collect(xpp *pp, xstream *s, const xmacro *m, const pptok *lp, args *a, pptok *rp)
{
    int depth = 0;
    a->n = 1;
    a->start[0] = 0;
    a->count[0] = 0;
    pptok t;
    while (next(pp, s, &t)) {
        if (is_punct(&t.t, ')') && depth == 0) {
            *rp = t;
            uint32_t np = m->nparams;
            if (a->n == 1 && a->count[0] == 0 && np == 0) a->n = 0; /* F() of a macro without parameters */
            bool fits = a->n == np || (m->variadic && a->n + 1 == np); /* F(a) of F(x, ...) */
            if (fits && a->n < np) a->count[a->n] = 0, a->start[a->n] = a->all.n, a->n++;
            if (fits) return true;
            push(pp, &a->all, &t);
            break;
        }
        if (is_punct(&t.t, '(')) depth++;
        if (is_punct(&t.t, ')')) depth--;
        if (is_punct(&t.t, ',') && depth == 0 && !(m->variadic && a->n >= m->nparams)) {
            if (a->n == 256) break;
            a->start[a->n] = a->all.n;
            a->count[a->n++] = 0;
            continue;
        }
        if (!push(pp, &a->all, &t)) return false;
        a->count[a->n - 1]++;
    }
    /* not an invocation after all: read it again as written */
    unread(pp, s, a->all.v, a->all.n);
    unread(pp, s, lp, 1);
    return false;
}

/* ---- making tokens ----------------------------------------------------------------- */

/* Body token k of m as it stands at the invocation inv. */
static bool body_token(xpp *pp, const xmacro *m, uint32_t k, const pptok *inv, pptok *out)
{
    xtok b = m->body[k];
    if (m->text) { /* spelled elsewhere: spelled again past the source */
        uint32_t off = xf_spell(pp->f, m->text + b.off, b.len);
        if (off == UINT32_MAX) {
            stop(pp, &inv->t, "its output would outgrow the file");
            return false;
        }
        b.off = off;
        b.org = inv->t.org;
        b.orglen = inv->t.orglen;
    }
    b.site = inv->t.site;
    out->t = b;
    out->hs = NULL;
    return true;
}

/* A token made of bytes [p, p + n), standing for org/orglen. */
static bool made(xpp *pp, const char *p, uint32_t n, const xtok *at, xkind kind, pptok *out)
{
    uint32_t off = xf_spell(pp->f, p, n);
    if (off == UINT32_MAX) {
        stop(pp, at, "its output would outgrow the file");
        return false;
    }
    xtok t = {off, n, at->org, at->orglen, at->site, 0, (uint8_t)kind, 0, (uint8_t)(at->pp & XP_SPACE)};
    out->t = t;
    out->hs = NULL;
    return true;
}

/* #x: the argument's spelling as a string literal. */
static bool stringify(xpp *pp, const pptok *arg, uint32_t n, const pptok *inv, pptok *out)
{
    const xfile *f = pp->f;
    size_t need = 3;
    for (uint32_t k = 0; k < n; k++) need += 2 * (size_t)arg[k].t.len + 1;
    if (need > (1u << 20)) {
        stop(pp, &inv->t, "a stringified argument is too long");
        return false;
    }
    char *b = ta_malloc(need);
    if (!b) return oom(pp);
    size_t len = 0;
    b[len++] = '"';
    for (uint32_t k = 0; k < n; k++) {
        const xtok *t = &arg[k].t;
        if (k && (t->pp & XP_SPACE)) b[len++] = ' ';
        bool quote = t->kind == XT_STRING || t->kind == XT_CHAR;
        for (uint32_t i = 0; i < t->len; i++) {
            char c = f->s[t->off + i];
            if (quote && (c == '"' || c == '\\')) b[len++] = '\\';
            b[len++] = c;
        }
    }
    b[len++] = '"';
    xtok at = inv->t;
    if (n) { /* the argument as written, when it is one run of the file */
        const xtok *first = &arg[0].t, *last = &arg[n - 1].t;
        at.org = first->org;
        at.orglen = last->org >= first->org && last->org + last->orglen > first->org
                        ? last->org + last->orglen - first->org : first->orglen;
    }
    bool ok = made(pp, b, (uint32_t)len, &at, XT_STRING, out);
    free(b);
    return ok;
}

/* a ## b: one token spelled as both, lexed again (what does not lex as
 * one token stays as the tokens it lexes as, as compilers that accept it
 * do). Appended to res. */
static bool paste(xpp *pp, pvec *res, const pptok *b)
{
    xfile *f = pp->f;
    pptok a = res->v[--res->n];
    uint32_t la = a.t.len, lb = b->t.len;
    char small[256], *buf = la + lb <= sizeof small ? small : ta_malloc(la + lb);
    if (!buf) return oom(pp);
    memcpy(buf, f->s + a.t.off, la);
    memcpy(buf + la, f->s + b->t.off, lb);
    uint32_t off = xf_spell(f, buf, la + lb);
    if (buf != small) free(buf);
    if (off == UINT32_MAX) {
        stop(pp, &a.t, "its output would outgrow the file");
        return false;
    }
    /* a name the sources do not define pasted into another taints it */
    bool taint = ((a.t.pp | b->t.pp) & XP_TAINTED) ||
                 (build_macro_like(f, &a.t) && !macro_of(pp, &a.t)) ||
                 (build_macro_like(f, &b->t) && !macro_of(pp, &b->t));
    xtoks v = {0};
    ta_xcpp_lex_range(f, off, off + la + lb, false, &v);
    for (uint32_t k = 0; k < v.n && f->st == TA_OK; k++) {
        pptok t = {v.v[k], a.hs};
        t.t.org = a.t.org;
        t.t.orglen = a.t.orglen;
        t.t.site = a.t.site;
        t.t.pp = (uint8_t)((k ? 0 : (a.t.pp & XP_SPACE)) | (taint ? XP_TAINTED : 0));
        push(pp, res, &t);
    }
    free(v.v);
    return f->st == TA_OK;
}

/* ---- expansion -------------------------------------------------------------------- */

static void expand(xpp *pp, xstream *s, pvec *dst);

/* Argument p fully expanded (once; kept in ex[p]). */
static const pvec *expanded(xpp *pp, args *a, uint32_t p, pvec *ex, bool *done)
{
    if (done[p]) return &ex[p];
    done[p] = true;
    if (pp->depth >= XPP_MAX_DEPTH) {
        stop(pp, a->count[p] ? &a->all.v[a->start[p]].t : &pp->f->tok[pp->raw ? pp->raw - 1 : 0],
             "macros nest too deep");
        for (uint32_t k = 0; k < a->count[p]; k++) push(pp, &ex[p], &a->all.v[a->start[p] + k]);
        return &ex[p];
    }
    xstream sub = {{0}, false};
    unread(pp, &sub, a->all.v + a->start[p], a->count[p]);
    pp->depth++;
    expand(pp, &sub, &ex[p]);
    pp->depth--;
    free(sub.pend.v);
    return &ex[p];
}

static bool body_is(const xmacro *m, uint32_t k, uint16_t p2)
{
    return k < m->nbody && m->body[k].kind == XT_PUNCT && m->body[k].punct == p2;
}

/* The tokens m's replacement makes at inv (with the arguments a), hide
 * set hs added, put back to be read again. */
static void substitute(xpp *pp, xstream *s, const xmacro *m, const pptok *inv, args *a, const xhide *hs)
{
    pvec res = {0};
    uint32_t na = a ? a->n : 0;
    pvec *ex = ta_calloc(na + 1, sizeof *ex);
    bool *done = ta_calloc(na + 1, sizeof *done);
    if (!ex || !done) {
        free(ex);
        free(done);
        oom(pp);
        return;
    }
    bool placemarker = false; /* the last operand of ## was an empty argument */
    for (uint32_t k = 0; k < m->nbody && pp->f->st == TA_OK && !pp->stopped; k++) {
        int16_t p = m->param[k];
        pptok t;
        if (m->fnlike && body_is(m, k, '#') && k + 1 < m->nbody && m->param[k + 1] >= 0) {
            uint32_t q = (uint32_t)m->param[++k];
            if (stringify(pp, a->all.v + a->start[q], a->count[q], inv, &t)) push(pp, &res, &t);
            placemarker = false;
            continue;
        }
        if (body_is(m, k, XP2('#', '#')) && k + 1 < m->nbody) {
            /* the right operand: the next body token, or an argument as written */
            pvec rhs = {0};
            int16_t q = m->param[++k];
            if (q >= 0) {
                for (uint32_t j = 0; j < a->count[q]; j++) push(pp, &rhs, &a->all.v[a->start[q] + j]);
            } else if (body_token(pp, m, k, inv, &t)) {
                push(pp, &rhs, &t);
            }
            if (rhs.n && !placemarker && res.n) paste(pp, &res, &rhs.v[0]);
            else if (rhs.n) push(pp, &res, &rhs.v[0]);
            for (uint32_t j = 1; j < rhs.n; j++) push(pp, &res, &rhs.v[j]);
            placemarker = placemarker && !rhs.n;
            free(rhs.v);
            continue;
        }
        placemarker = false;
        if (p >= 0) {
            bool raw_arg = body_is(m, k + 1, XP2('#', '#'));
            if (raw_arg) {
                for (uint32_t j = 0; j < a->count[p]; j++) push(pp, &res, &a->all.v[a->start[p] + j]);
                placemarker = a->count[p] == 0;
            } else {
                const pvec *e = expanded(pp, a, (uint32_t)p, ex, done);
                for (uint32_t j = 0; j < e->n; j++) push(pp, &res, &e->v[j]);
            }
            continue;
        }
        if (body_token(pp, m, k, inv, &t)) push(pp, &res, &t);
    }
    for (uint32_t k = 0; k < res.n; k++) {
        res.v[k].hs = hs_union(pp, res.v[k].hs, hs);
        res.v[k].t.site = inv->t.site;
        if (k == 0) res.v[k].t.pp = (uint8_t)((res.v[k].t.pp & ~XP_SPACE) | (inv->t.pp & XP_SPACE));
    }
    if (res.n + pp->out.n > pp->max_out || res.n > pp->max_out) stop(pp, &inv->t, "its output would outgrow the file");
    else unread(pp, s, res.v, res.n);
    for (uint32_t k = 0; k <= na; k++) free(ex[k].v);
    free(ex);
    free(done);
    free(res.v);
}

static void emit(xpp *pp, pvec *dst, const pptok *t)
{
    if (dst) {
        push(pp, dst, t);
    } else if (pp->out.n >= pp->max_out) {
        stop(pp, &t->t, "its output would outgrow the file");
        if (!xtoks_add(pp->f, &pp->out, &t->t)) oom(pp);
    } else if (!xtoks_add(pp->f, &pp->out, &t->t)) {
        oom(pp);
    }
}

/* Reads s to its end, expanding, into dst (the file's output when NULL). */
static void expand(xpp *pp, xstream *s, pvec *dst)
{
    pptok t;
    while (pp->f->st == TA_OK && next(pp, s, &t)) {
        const xmacro *m = t.t.kind == XT_IDENT && !(t.t.pp & XP_PAINTED) && !pp->stopped ? macro_of(pp, &t.t) : NULL;
        if (!m) {
            emit(pp, dst, &t);
            continue;
        }
        if (hs_has(t.hs, m->id)) {
            t.t.pp |= XP_PAINTED;
            emit(pp, dst, &t);
            continue;
        }
        if (!m->fnlike) {
            substitute(pp, s, m, &t, NULL, hs_add(pp, t.hs, m->id));
            continue;
        }
        pptok lp, rp;
        if (!next(pp, s, &lp)) {
            emit(pp, dst, &t);
            continue;
        }
        if (!is_punct(&lp.t, '(')) {
            unread(pp, s, &lp, 1);
            emit(pp, dst, &t);
            continue;
        }
        args *a = ta_malloc(sizeof *a);
        if (!a) {
            oom(pp);
            break;
        }
        a->all = (pvec){0};
        if (collect(pp, s, m, &lp, a, &rp))
            substitute(pp, s, m, &t, a, hs_add(pp, hs_intersect(pp, t.hs, rp.hs), m->id));
        else
            emit(pp, dst, &t);
        free(a->all.v);
        free(a);
    }
}

/* ---- the file ------------------------------------------------------------------------ */

void ta_xcpp_preprocess(xfile *f)
{
    xpp pp;
    memset(&pp, 0, sizeof pp);
    pp.f = f;
    pp.sh = xs_pp(f->x);
    if (ta_arena_create(&pp.arena) != TA_OK) {
        f->st = TA_ERR_NOMEM;
        return;
    }
    ta_map_init(&pp.macros, NULL);
    ta_map_init(&pp.included, NULL);
    const char *slash = strrchr(f->name, '/');
    pp.dir = ta_arena_strndup(pp.arena, f->name, slash ? (size_t)(slash - f->name) : 0);
    pp.max_out = f->ntok > UINT32_MAX / 32 ? UINT32_MAX / 2 : f->ntok * 16 + 65536;
    if (!pp.dir) f->st = TA_ERR_NOMEM;
    /* the build's macros first (compile_commands.json, then -D: the
     * command line has the last word), then the file's own */
    for (uint32_t i = 0; i < f->ndefines && f->st == TA_OK; i++)
        set_macro(&pp, f->defines[i]->name, f->defines[i]->name_len, f->defines[i]);
    uint32_t nd;
    const xmacro *const *d = xs_defines(pp.sh, &nd);
    for (uint32_t i = 0; i < nd && f->st == TA_OK; i++) set_macro(&pp, d[i]->name, d[i]->name_len, d[i]);
    xstream s = {{0}, true};
    if (f->st == TA_OK) expand(&pp, &s, NULL);
    /* what a bound left unread, as written */
    for (uint32_t k = s.pend.n; k-- > 0 && f->st == TA_OK;) xtoks_add(f, &pp.out, &s.pend.v[k].t);
    for (; pp.raw < f->ntok && f->st == TA_OK; pp.raw++)
        if (f->tok[pp.raw].kind != XT_DIRECTIVE) xtoks_add(f, &pp.out, &f->tok[pp.raw]);
    free(s.pend.v);
    ta_map_clear(&pp.macros);
    ta_map_clear(&pp.included);
    ta_arena_destroy(pp.arena);
    free(f->tok);
    f->tok = pp.out.v;
    f->ntok = pp.out.n;
    f->captok = pp.out.cap;
}
