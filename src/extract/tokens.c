/* tokens.c - the token array of a file being scanned, and the few ways the
 * scanners walk it: comparing a token with a word, finding the bracket that
 * closes a call, splitting a call's arguments at top-level commas. Both
 * languages use the same brackets, so both scanners share these. */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/alloc.h"
#include "extract/extract_internal.h"

bool xtoks_push(xfile *f, xtoks *v, xkind kind, uint32_t off, uint32_t len, uint8_t flags)
{
    xtok t = {off, len, off, len, off, 0, (uint8_t)kind, flags, 0};
    if (kind == XT_PUNCT)
        t.punct = len == 1 ? (uint16_t)(unsigned char)f->s[off] : XP2(f->s[off], f->s[off + 1]);
    return xtoks_add(f, v, &t);
}

bool xtoks_add(xfile *f, xtoks *v, const xtok *t)
{
    if (TA_GROW_ONE(v->v, v->n, v->cap, 256) != TA_OK) {
        f->st = TA_ERR_NOMEM;
        return false;
    }
    v->v[v->n++] = *t;
    return true;
}

bool xf_push(xfile *f, xkind kind, uint32_t off, uint32_t len, uint8_t flags)
{
    xtoks v = {f->tok, f->ntok, f->captok};
    bool ok = xtoks_push(f, &v, kind, off, len, flags);
    f->tok = v.v;
    f->ntok = v.n;
    f->captok = v.cap;
    return ok;
}

/* Spellings past the source: at most this many bytes beyond it, so that
 * hostile macros cannot make a file's text grow without end. */
static uint64_t spell_limit(const xfile *f) { return (uint64_t)f->n * 8 + (1u << 20); }

uint32_t xf_spell(xfile *f, const char *bytes, uint32_t n)
{
    uint64_t need = (uint64_t)(f->buf ? f->nbuf : f->n) + n;
    if (need - f->n > spell_limit(f)) return UINT32_MAX;
    if (need > f->capbuf) {
        size_t cap = f->capbuf ? f->capbuf : (size_t)f->n + 4096;
        while (cap < need) cap *= 2;
        char *b = ta_realloc(f->buf, cap);
        if (!b) {
            f->st = TA_ERR_NOMEM;
            return UINT32_MAX;
        }
        if (!f->buf) {
            memcpy(b, f->s, f->n);
            f->nbuf = f->n;
        }
        f->buf = b;
        f->capbuf = cap;
        f->s = b;
    }
    uint32_t off = f->nbuf;
    memcpy(f->buf + off, bytes, n);
    f->nbuf += n;
    return off;
}

bool xf_is(const xfile *f, const xtok *t, const char *word)
{
    size_t n = strlen(word);
    return t->len == n && !memcmp(f->s + t->off, word, n);
}

bool xf_punct(const xtok *t, uint16_t p) { return t->kind == XT_PUNCT && t->punct == p; }

const xtok *xf_tok(const xfile *f, uint32_t i)
{
    static const xtok eof = {0, 0, 0, 0, 0, 0, XT_EOF, 0, 0};
    return i < f->ntok ? &f->tok[i] : &eof;
}

bool xf_ident(const xfile *f, uint32_t i, const char *word)
{
    const xtok *t = xf_tok(f, i);
    return t->kind == XT_IDENT && (!word || xf_is(f, t, word));
}

uint32_t xf_close(const xfile *f, uint32_t open)
{
    int d = 0;
    for (uint32_t i = open; i < f->ntok; i++) {
        const xtok *t = &f->tok[i];
        if (t->kind != XT_PUNCT || t->len != 1) continue;
        char c = (char)t->punct;
        if (c == '(' || c == '[' || c == '{') d++;
        else if ((c == ')' || c == ']' || c == '}') && --d <= 0) return d == 0 ? i : f->ntok;
    }
    return f->ntok;
}

int xf_split(const xfile *f, uint32_t open, uint32_t close, xspan *args, int max)
{
    int n = 0, d = 0;
    uint32_t start = open + 1;
    if (start >= close) return 0;
    for (uint32_t i = start; i <= close; i++) {
        const xtok *t = &f->tok[i];
        if (t->kind == XT_PUNCT && t->len == 1 && i < close) {
            char c = (char)t->punct;
            if (c == '(' || c == '[' || c == '{') d++;
            else if (c == ')' || c == ']' || c == '}') d--;
        }
        if (i == close || (d == 0 && xf_punct(t, ','))) {
            if (i > start || i < close) { /* a trailing comma ends no argument */
                if (n < max) args[n] = (xspan){start, i};
                n++;
            }
            start = i + 1;
        }
    }
    return n;
}

uint32_t xf_dotted_start(const xfile *f, uint32_t end)
{
    uint32_t lo = end;
    while (lo > 0 && f->tok[lo - 1].kind == XT_IDENT) {
        lo--;
        if (lo == 0 || !xf_punct(&f->tok[lo - 1], '.')) break;
        if (lo < 2 || f->tok[lo - 2].kind != XT_IDENT) break;
        lo--;
    }
    return lo;
}

bool xf_same_tokens(const xfile *f, uint32_t alo, uint32_t ahi, uint32_t blo, uint32_t bhi)
{
    if (ahi - alo != bhi - blo) return false;
    for (uint32_t k = 0; k < ahi - alo; k++) {
        const xtok *a = &f->tok[alo + k], *b = &f->tok[blo + k];
        if (a->len != b->len || memcmp(f->s + a->off, f->s + b->off, a->len)) return false;
    }
    return true;
}

int xf_nesting(const xtok *t)
{
    if (t->kind != XT_PUNCT || t->len != 1) return 0;
    return strchr("([{", (char)t->punct) ? 1 : strchr(")]}", (char)t->punct) ? -1 : 0;
}
