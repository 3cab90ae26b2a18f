/* xtext.c - decoded text that remembers where each byte came from.
 *
 * A schema in a source file is rarely one literal copied as is: adjacent
 * literals are joined, escapes stand for other bytes, Python joins a name
 * and an argument list, a custom_op's schema is built from type hints. The
 * text is assembled piece by piece, and each piece records the source bytes
 * it came from, so a diagnostic about byte k of the schema can point at the
 * right line and column of the file (see ta_extract_locate). */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/alloc.h"
#include "extract/extract_internal.h"

static bool room(xtext *t, uint32_t n);

void xt_reset(xtext *t)
{
    t->n = 0;
    t->nseg = 0;
    /* oom stays: a scanner reports it once it is done with the file */
    if (room(t, 0)) t->s[0] = '\0'; /* even an empty text is a string */
}

void xt_free(xtext *t)
{
    free(t->s);
    free(t->seg);
    memset(t, 0, sizeof *t);
}

/* Room for n more bytes (and the NUL). */
static bool room(xtext *t, uint32_t n)
{
    if (t->oom) return false;
    if ((uint64_t)t->n + n + 1 > UINT32_MAX / 2) return !(t->oom = true);
    if (t->n + n + 1 <= t->cap) return true;
    uint32_t cap = t->cap ? t->cap : 64;
    while (cap < t->n + n + 1) cap *= 2;
    char *s = ta_realloc(t->s, cap);
    if (!s) return !(t->oom = true);
    t->s = s;
    t->cap = cap;
    return true;
}

static xseg *new_seg(xtext *t)
{
    if (TA_GROW_ONE(t->seg, t->nseg, t->capseg, 8) != TA_OK) {
        t->oom = true;
        return NULL;
    }
    return &t->seg[t->nseg++];
}

/* One verbatim run within a line: merged into the previous segment when
 * it continues it in both texts. */
static void copy_run(xtext *t, const char *src, uint32_t off, uint32_t len)
{
    if (!len || !room(t, len)) return;
    xseg *last = t->nseg ? &t->seg[t->nseg - 1] : NULL;
    bool joins = last && last->verbatim && last->src + last->src_len == off &&
                 last->dec + last->src_len == t->n && src[off - 1] != '\n';
    if (joins) {
        last->src_len += len;
    } else {
        xseg *g = new_seg(t);
        if (!g) return;
        g->dec = t->n;
        g->src = off;
        g->src_len = len;
        g->verbatim = true;
    }
    memcpy(t->s + t->n, src + off, len);
    t->n += len;
    t->s[t->n] = '\0';
}

void xt_copy(xtext *t, const char *src, uint32_t off, uint32_t len)
{
    /* a verbatim segment never spans a line break, so its columns count
     * from the start of one line */
    uint32_t end = off + len;
    while (off < end) {
        const char *nl = memchr(src + off, '\n', end - off);
        uint32_t stop = nl ? (uint32_t)(nl - src) + 1 : end;
        copy_run(t, src, off, stop - off);
        off = stop;
    }
}

void xt_stand(xtext *t, const char *bytes, uint32_t n, uint32_t off, uint32_t src_len)
{
    if (!n || !room(t, n)) return;
    xseg *g = new_seg(t);
    if (!g) return;
    g->dec = t->n;
    g->src = off;
    g->src_len = src_len ? src_len : 1;
    g->verbatim = false;
    memcpy(t->s + t->n, bytes, n);
    t->n += n;
    t->s[t->n] = '\0';
}

bool xt_codepoint(xtext *t, uint32_t cp, uint32_t off, uint32_t src_len)
{
    char b[4];
    uint32_t n;
    if (cp < 0x80) {
        b[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | cp >> 6);
        b[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        if (cp >= 0xD800 && cp < 0xE000) return false;
        b[0] = (char)(0xE0 | cp >> 12);
        b[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else if (cp < 0x110000) {
        b[0] = (char)(0xF0 | cp >> 18);
        b[1] = (char)(0x80 | (cp >> 12 & 0x3F));
        b[2] = (char)(0x80 | (cp >> 6 & 0x3F));
        b[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    } else {
        return false;
    }
    xt_stand(t, b, n, off, src_len);
    return true;
}

void xt_append(xtext *t, const xtext *src)
{
    if (src->oom) t->oom = true;
    if (!src->n || !room(t, src->n)) return;
    uint32_t base = t->n;
    for (uint32_t i = 0; i < src->nseg; i++) {
        xseg *g = new_seg(t);
        if (!g) return;
        *g = src->seg[i];
        g->dec += base;
    }
    memcpy(t->s + t->n, src->s, src->n);
    t->n += src->n;
    t->s[t->n] = '\0';
}

void xt_append_range(xtext *t, const xtext *src, uint32_t lo, uint32_t hi)
{
    if (src->oom) t->oom = true;
    if (hi > src->n) hi = src->n;
    if (lo >= hi || !room(t, hi - lo)) return;
    uint32_t base = t->n;
    for (uint32_t i = 0; i < src->nseg; i++) {
        const xseg *g = &src->seg[i];
        uint32_t end = i + 1 < src->nseg ? src->seg[i + 1].dec : src->n;
        if (end <= lo || g->dec >= hi) continue;
        uint32_t a = g->dec > lo ? g->dec : lo, b = end < hi ? end : hi;
        xseg *n = new_seg(t);
        if (!n) return;
        *n = *g;
        n->dec = base + (a - lo);
        if (g->verbatim) {
            n->src += a - g->dec;
            n->src_len = b - a;
        }
    }
    memcpy(t->s + t->n, src->s + lo, hi - lo);
    t->n += hi - lo;
    t->s[t->n] = '\0';
}
