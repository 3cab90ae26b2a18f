/* strbuf.h - the library's one string builder.
 *
 * A ta_strbuf is text appended piece by piece, always NUL-terminated, in one
 * of two kinds:
 *   - growable (ta_strbuf_init): short text stays in the inline array, so
 *     most strings (schemas, signatures) never touch malloc; longer text
 *     moves to the heap (ta_malloc / ta_realloc, so `make fault` can fail
 *     it). When memory runs out `failed` is set and later appends are
 *     ignored. Free it with ta_strbuf_free; do not copy one once used.
 *   - fixed (ta_strbuf_init_fixed): the caller's buffer of cap bytes, as
 *     snprintf fills one: what does not fit is not written but counted, so
 *     len is the length the whole text needs (cap 0 measures only).
 * Appends that fit are inlined; the rest goes through ta_strbuf_put_slow.
 * Not public. */
#ifndef TA_BASE_STRBUF_H
#define TA_BASE_STRBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "tensoralias/diag.h"
#include "tensoralias/schema.h"

typedef struct ta_strbuf {
    char *p;         /* the text: NULL until the first append of a growable one */
    size_t len, cap; /* bytes of text (fixed: that the text needs), bytes at p */
    bool fixed;      /* p is the caller's: never grown */
    bool failed;     /* growing ran out of memory */
    char small[480];
} ta_strbuf;

/* An empty growable buffer. Cheaper than `= {0}`, which would clear the
 * inline array (half a KiB) for every string built; it is written before
 * it is read. */
static inline void ta_strbuf_init(ta_strbuf *b)
{
    b->p = NULL;
    b->len = b->cap = 0;
    b->fixed = b->failed = false;
}

/* Text into buf[0..cap), NUL-terminated when cap > 0. */
static inline void ta_strbuf_init_fixed(ta_strbuf *b, char *buf, size_t cap)
{
    b->p = buf;
    b->len = 0;
    b->cap = cap;
    b->fixed = true;
    b->failed = false;
    if (cap) buf[0] = '\0';
}

void ta_strbuf_put_slow(ta_strbuf *b, const char *s, size_t n);

/* Appends s[0..n). */
static inline void ta_strbuf_put(ta_strbuf *b, const char *s, size_t n)
{
    if (b->p && b->len + n < b->cap) { /* room for n bytes and the NUL */
        memcpy(b->p + b->len, s, n);
        b->len += n;
        b->p[b->len] = '\0';
    } else {
        ta_strbuf_put_slow(b, s, n);
    }
}

static inline void ta_strbuf_puts(ta_strbuf *b, const char *s) { ta_strbuf_put(b, s, strlen(s)); }

static inline void ta_strbuf_str(ta_strbuf *b, ta_str s)
{
    if (s.len) ta_strbuf_put(b, s.ptr, s.len);
}

/* Appends what printf would print. */
void ta_strbuf_printf(ta_strbuf *b, const char *fmt, ...) TA_PRINTF(2, 3);

/* Frees the heap text of a growable buffer and leaves it empty. */
void ta_strbuf_free(ta_strbuf *b);

#endif
