/* py_eval.c - the statements of a Python file and the strings its
 * expressions evaluate to (see py_internal.h).
 *
 * Only what a schema is built from: literals, names bound to them (a
 * module constant, a local of the same function), f-string fields naming
 * such names, "+", "...".format(...) and "..." % (...), and the values a
 * for-loop over a literal list gives its target. Scopes are approximated
 * by indentation: a def's body is the statements after it that start
 * right of it. A name evaluates through at most 16 other names. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/grow.h"
#include "extract/py_internal.h"

enum { MAX_NAME_DEPTH = XPY_MAX_NAME_DEPTH, MAX_ITEMS = 64 };

/* ---- statements ------------------------------------------------------------- */

bool xpy_starts(const pyfile *pf, uint32_t k, const char *word)
{
    return k < pf->nst && xf_ident(pf->f, pf->st[k].lo, word);
}

static bool is_def(const pyfile *pf, uint32_t k)
{
    return xpy_starts(pf, k, "def") || (xpy_starts(pf, k, "async") && xf_ident(pf->f, pf->st[k].lo + 1, "def"));
}

uint32_t xpy_block_end(const pyfile *pf, uint32_t k)
{
    uint32_t j = k + 1;
    while (j < pf->nst && pf->st[j].col > pf->st[k].col) j++;
    return j;
}

bool xpy_structure(pyfile *pf)
{
    xfile *f = pf->f;
    size_t cap = 0;
    pf->st = NULL;
    pf->nst = 0;
    for (uint32_t i = 0; i < f->ntok;) {
        uint32_t e = i;
        while (e < f->ntok && f->tok[e].kind != XT_NEWLINE) e++;
        if (e > i) {
            if (TA_GROW_ONE(pf->st, pf->nst, cap, 64) != TA_OK) {
                f->st = TA_ERR_NOMEM;
                return false;
            }
            uint32_t line, col;
            xf_pos(f, f->tok[i].off, &line, &col);
            pf->st[pf->nst++] = (pystmt){i, e, col, -1};
        }
        i = e + 1;
    }
    for (uint32_t k = 0; k < pf->nst; k++)
        if (is_def(pf, k))
            for (uint32_t j = k + 1, end = xpy_block_end(pf, k); j < end; j++) pf->st[j].scope = (int32_t)k;
    return true;
}

void xpy_structure_free(pyfile *pf)
{
    free(pf->st);
    pf->st = NULL;
    pf->nst = 0;
}

uint32_t xpy_stmt_of(const pyfile *pf, uint32_t i)
{
    uint32_t lo = 0, hi = pf->nst;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (pf->st[mid].lo <= i) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* ---- names ------------------------------------------------------------------ */

static bool same_text(const xfile *f, uint32_t i, const char *name, uint32_t len)
{
    const xtok *t = xf_tok(f, i);
    return t->kind == XT_IDENT && t->len == len && !memcmp(f->s + t->off, name, len);
}

static bool same_name(const xfile *f, uint32_t i, uint32_t off, uint32_t len)
{
    return same_text(f, i, f->s + off, len);
}

/* Statement k assigns NAME: "NAME = v" or "NAME: T = v" (not "NAME == v",
 * not a chain); its value's span. */
static bool assigns_text(const pyfile *pf, uint32_t k, const char *name, uint32_t len, xspan *value)
{
    const xfile *f = pf->f;
    const pystmt *s = &pf->st[k];
    if (!same_text(f, s->lo, name, len)) return false;
    uint32_t eq = s->lo + 1;
    if (xf_punct(xf_tok(f, eq), ':')) /* an annotation: to its "=" */
        while (eq < s->hi && !xf_punct(xf_tok(f, eq), '=')) {
            const xtok *t = xf_tok(f, eq);
            eq = t->kind == XT_PUNCT && t->len == 1 && strchr("([{", (char)t->punct) ? xf_close(f, eq) + 1 : eq + 1;
        }
    if (eq + 1 >= s->hi || !xf_punct(xf_tok(f, eq), '=') || xf_punct(xf_tok(f, eq + 1), '=')) return false;
    *value = (xspan){eq + 1, s->hi};
    return true;
}

static bool assigns(const pyfile *pf, uint32_t k, uint32_t off, uint32_t len, xspan *value)
{
    return assigns_text(pf, k, pf->f->s + off, len, value);
}

/* Whether def statement k has a parameter NAME. */
static bool is_param(const pyfile *pf, uint32_t k, uint32_t off, uint32_t len)
{
    const xfile *f = pf->f;
    uint32_t i = pf->st[k].lo;
    while (i < pf->st[k].hi && !xf_punct(xf_tok(f, i), '(')) i++;
    uint32_t close = xf_close(f, i);
    xspan p[64];
    int n = i < pf->st[k].hi ? xf_split(f, i, close, p, 64) : 0;
    for (int j = 0; j < n && j < 64; j++) {
        uint32_t a = p[j].lo;
        while (a < p[j].hi && (xf_punct(xf_tok(f, a), '*') || xf_punct(xf_tok(f, a), XP2('*', '*')))) a++;
        if (same_name(f, a, off, len)) return true;
    }
    return false;
}

bool xpy_lookup(pyfile *pf, uint32_t off, uint32_t len, uint32_t at, xspan *value)
{
    if (!pf->nst) return false;
    uint32_t u = xpy_stmt_of(pf, at);
    int32_t scope = pf->st[u].scope;
    if (scope >= 0 && is_param(pf, (uint32_t)scope, off, len)) return false;
    for (uint32_t j = u; j-- > 0;)
        if (pf->st[j].scope == scope && assigns(pf, j, off, len, value)) return true;
    if (scope < 0) return false;
    for (uint32_t j = u; j-- > 0;)
        if (pf->st[j].scope < 0 && assigns(pf, j, off, len, value)) return true;
    for (uint32_t j = u + 1; j < pf->nst; j++)
        if (pf->st[j].scope < 0 && assigns(pf, j, off, len, value)) return true;
    return false;
}

/* ---- evaluating --------------------------------------------------------------- */

static bool eval(pyfile *pf, xspan e, xtext *out, uint32_t *bad);

/* The value of the name at off (len bytes) used at token at. */
static bool eval_name(pyfile *pf, uint32_t off, uint32_t len, uint32_t at, xtext *out)
{
    xspan v;
    uint32_t bad;
    if (pf->depth >= MAX_NAME_DEPTH) return false;
    if (!xpy_lookup(pf, off, len, at, &v))
        return xpy_eval_import(pf, pf->f->s + off, len, NULL, 0, off, len, out);
    pf->depth++;
    bool ok = eval(pf, v, out, &bad);
    pf->depth--;
    return ok;
}

typedef struct fieldctx {
    pyfile *pf;
    uint32_t at;
} fieldctx;

static bool fill_field(void *ctx, uint32_t off, uint32_t len, uint32_t at, uint32_t at_len, xtext *out)
{
    (void)at;
    (void)at_len;
    fieldctx *c = ctx;
    return eval_name(c->pf, off, len, c->at, out);
}

/* A "{...}" placeholder of str.format in t at i: its key (empty: the next
 * positional; digits: a position; a name: a keyword) and the index past it. */
static bool placeholder(const xtext *t, uint32_t i, uint32_t *klo, uint32_t *khi, uint32_t *end)
{
    uint32_t j = i + 1;
    *klo = j;
    while (j < t->n && t->s[j] != '}' && t->s[j] != '{' && t->s[j] != ':' && t->s[j] != '!') j++;
    *khi = j;
    if (j + 1 < t->n && t->s[j] == '!' && t->s[j + 1] == 's') j += 2;
    if (j >= t->n || t->s[j] != '}') return false;
    *end = j + 1;
    return true;
}

/* The argument of call args a (n of them) a placeholder key names. */
static bool format_arg(pyfile *pf, const xspan *a, int n, const xtext *t, uint32_t klo, uint32_t khi,
                       int *next, xspan *arg)
{
    const xfile *f = pf->f;
    uint32_t kl = khi - klo;
    if (!kl || (t->s[klo] >= '0' && t->s[klo] <= '9')) {
        int idx = kl ? atoi(t->s + klo) : (*next)++;
        if (idx < 0 || idx >= n || (a[idx].hi > a[idx].lo + 1 && xf_punct(xf_tok(f, a[idx].lo + 1), '=')))
            return false;
        *arg = a[idx];
        return true;
    }
    for (int k = 0; k < n; k++)
        if (a[k].hi > a[k].lo + 2 && xf_punct(xf_tok(f, a[k].lo + 1), '=') &&
            xf_tok(f, a[k].lo)->len == kl && !memcmp(f->s + xf_tok(f, a[k].lo)->off, t->s + klo, kl)) {
            *arg = (xspan){a[k].lo + 2, a[k].hi};
            return true;
        }
    return false;
}

/* t.format(args) with "(" at open. */
static bool format(pyfile *pf, const xtext *t, uint32_t open, uint32_t close, xtext *out, uint32_t *bad)
{
    xspan a[32];
    int n = xf_split(pf->f, open, close, a, 32), next = 0;
    if (n > 32) return false;
    uint32_t run = 0;
    for (uint32_t i = 0; i < t->n;) {
        char c = t->s[i];
        uint32_t klo, khi, end;
        xspan arg;
        if ((c == '{' || c == '}') && i + 1 < t->n && t->s[i + 1] == c) {
            xt_append_range(out, t, run, i + 1);
            i += 2;
            run = i;
        } else if (c == '{' && placeholder(t, i, &klo, &khi, &end)) {
            xt_append_range(out, t, run, i);
            if (!format_arg(pf, a, n, t, klo, khi, &next, &arg) || !eval(pf, arg, out, bad)) return false;
            i = run = end;
        } else if (c == '{' || c == '}') {
            return false;
        } else {
            i++;
        }
    }
    xt_append_range(out, t, run, t->n);
    return true;
}

/* t % operand (a tuple in parentheses, or one value) at [lo, hi). */
static bool percent(pyfile *pf, const xtext *t, xspan v, xtext *out, uint32_t *bad)
{
    const xfile *f = pf->f;
    xspan a[32];
    int n = 1, next = 0;
    a[0] = v;
    if (xf_punct(xf_tok(f, v.lo), '(') && xf_close(f, v.lo) == v.hi - 1) n = xf_split(f, v.lo, v.hi - 1, a, 32);
    if (n > 32) return false;
    uint32_t run = 0;
    for (uint32_t i = 0; i < t->n;) {
        if (t->s[i] != '%') {
            i++;
            continue;
        }
        if (i + 1 >= t->n) return false;
        char c = t->s[i + 1];
        xt_append_range(out, t, run, c == '%' ? i + 1 : i);
        if (c != '%' && ((c != 's' && c != 'd' && c != 'i') || next >= n || !eval(pf, a[next++], out, bad)))
            return false;
        i = run = i + 2;
    }
    xt_append_range(out, t, run, t->n);
    return next == n;
}

/* One operand of "+": literals (then .format or %), a name, a number. */
static bool operand(pyfile *pf, xspan e, xtext *out, uint32_t *bad)
{
    xfile *f = pf->f;
    *bad = e.lo;
    while (e.hi > e.lo + 1 && xf_punct(xf_tok(f, e.lo), '(') && xf_close(f, e.lo) == e.hi - 1) {
        e.lo++;
        e.hi--;
    }
    if (e.lo >= e.hi) return false;
    const xtok *t = xf_tok(f, e.lo);
    if (t->kind == XT_IDENT && e.hi == e.lo + 1) return eval_name(pf, t->off, t->len, e.lo, out);
    if (t->kind == XT_IDENT && e.hi == e.lo + 3 && xf_punct(xf_tok(f, e.lo + 1), '.') && xf_ident(f, e.lo + 2, NULL)) {
        const xtok *a = xf_tok(f, e.lo + 2); /* module.NAME */
        if (xpy_lookup(pf, t->off, t->len, e.lo, &(xspan){0})) return false; /* a local, not a module */
        return xpy_eval_import(pf, f->s + t->off, t->len, f->s + a->off, a->len, t->off, a->off + a->len - t->off, out);
    }
    if (t->kind == XT_NUMBER && e.hi == e.lo + 1) {
        for (uint32_t k = 0; k < t->len; k++)
            if (f->s[t->off + k] < '0' || f->s[t->off + k] > '9') return false;
        xt_copy(out, f->s, t->off, t->len);
        return true;
    }
    xtext lit = {0};
    uint32_t j = e.lo;
    fieldctx ctx = {pf, e.lo};
    xt_reset(&lit);
    for (; j < e.hi && xf_tok(f, j)->kind == XT_STRING; j++)
        if (!ta_xpy_decode_f(f, xf_tok(f, j), &lit, fill_field, &ctx)) {
            *bad = j;
            if (lit.oom) out->oom = true; /* the caller's file reports it */
            xt_free(&lit);
            return false;
        }
    bool ok = j > e.lo;
    if (ok && j == e.hi) {
        xt_append(out, &lit);
    } else if (ok && j + 3 < e.hi + 1 && xf_punct(xf_tok(f, j), '.') && xf_ident(f, j + 1, "format") &&
               xf_punct(xf_tok(f, j + 2), '(') && xf_close(f, j + 2) == e.hi - 1) {
        ok = format(pf, &lit, j + 2, e.hi - 1, out, bad);
    } else if (ok && j + 1 < e.hi && xf_punct(xf_tok(f, j), '%')) {
        ok = percent(pf, &lit, (xspan){j + 1, e.hi}, out, bad);
    } else {
        *bad = j < e.hi ? j : e.lo;
        ok = false;
    }
    if (lit.oom) out->oom = true;
    xt_free(&lit);
    return ok;
}

static bool eval(pyfile *pf, xspan e, xtext *out, uint32_t *bad)
{
    const xfile *f = pf->f;
    uint32_t start = e.lo;
    int depth = 0;
    for (uint32_t i = e.lo; i <= e.hi; i++) {
        const xtok *t = xf_tok(f, i);
        if (i < e.hi) depth += xf_nesting(t);
        if (i == e.hi || (depth == 0 && xf_punct(t, '+'))) {
            if (!operand(pf, (xspan){start, i}, out, bad)) return false;
            start = i + 1;
        }
    }
    return !out->oom;
}

bool xpy_eval(pyfile *pf, xspan e, xtext *out, uint32_t *bad)
{
    pf->depth = 0;
    return eval(pf, e, out, bad);
}

bool xpy_eval_module_value(pyfile *pf, const char *name, uint32_t len, int depth, xtext *out)
{
    for (uint32_t k = pf->nst; k-- > 0;) {
        xspan v;
        uint32_t bad;
        if (pf->st[k].scope >= 0 || !assigns_text(pf, k, name, len, &v)) continue;
        pf->depth = depth;
        return eval(pf, v, out, &bad);
    }
    return false;
}

/* ---- collections and loops ------------------------------------------------------- */

int xpy_elements(pyfile *pf, xspan e, xspan *items, int max)
{
    const xfile *f = pf->f;
    for (int hops = 0; hops < MAX_NAME_DEPTH && e.hi == e.lo + 1 && xf_ident(f, e.lo, NULL); hops++) {
        const xtok *t = xf_tok(f, e.lo);
        if (!xpy_lookup(pf, t->off, t->len, e.lo, &e)) return -1;
    }
    if (e.hi < e.lo + 2) return -1;
    const xtok *t = xf_tok(f, e.lo);
    if (!(xf_punct(t, '(') || xf_punct(t, '[') || xf_punct(t, '{')) || xf_close(f, e.lo) != e.hi - 1) return -1;
    int n = xf_split(f, e.lo, e.hi - 1, items, max);
    return n > max ? -1 : n;
}

/* "for TARGETS in ITER:" statement k: the position of the name whose
 * offset and length are given among the targets (-1 when absent; 0 for a
 * lone name), the number of targets, and ITER. */
static int loop_target(const pyfile *pf, uint32_t k, uint32_t off, uint32_t len, int *ntargets, xspan *iter)
{
    const xfile *f = pf->f;
    const pystmt *s = &pf->st[k];
    uint32_t in = s->lo + 1;
    int depth = 0;
    while (in < s->hi && !(depth == 0 && xf_ident(f, in, "in"))) {
        const xtok *t = xf_tok(f, in);
        if (t->kind == XT_PUNCT && t->len == 1 && strchr("([", (char)t->punct)) depth++;
        if (t->kind == XT_PUNCT && t->len == 1 && strchr(")]", (char)t->punct)) depth--;
        in++;
    }
    uint32_t colon = s->hi;
    while (colon > in && !xf_punct(xf_tok(f, colon - 1), ':')) colon--;
    if (in >= s->hi || colon <= in + 1) return -1;
    *iter = (xspan){in + 1, colon - 1};
    int pos = -1, n = 0;
    for (uint32_t i = s->lo + 1; i < in; i++)
        if (xf_ident(f, i, NULL)) {
            if (same_name(f, i, off, len)) pos = n;
            n++;
        }
    *ntargets = n;
    return pos;
}

int xpy_loop_values(pyfile *pf, uint32_t i, xspan *values, int max)
{
    const xfile *f = pf->f;
    const xtok *name = xf_tok(f, i);
    if (!pf->nst || name->kind != XT_IDENT) return -1;
    uint32_t u = xpy_stmt_of(pf, i);
    for (uint32_t k = u; k-- > 0;) {
        if (!xpy_starts(pf, k, "for") || xpy_block_end(pf, k) <= u) continue;
        int nt;
        xspan iter, items[MAX_ITEMS];
        int pos = loop_target(pf, k, name->off, name->len, &nt, &iter);
        if (pos < 0) continue;
        int n = xpy_elements(pf, iter, items, MAX_ITEMS);
        if (n < 0 || n > max) return -1;
        for (int j = 0; j < n; j++) {
            values[j] = items[j];
            if (nt > 1) { /* unpacked: the component at pos */
                xspan parts[16];
                int np = xpy_elements(pf, items[j], parts, 16);
                if (np != nt) return -1;
                values[j] = parts[pos];
            }
        }
        return n;
    }
    return -1;
}
