/* strbuf.c - the string builder's slow paths (see strbuf.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "base/strbuf.h"

/* Room for n more bytes and the NUL in a growable buffer; false (and
 * `failed`) when memory runs out. */
static bool reserve(ta_strbuf *b, size_t n)
{
    if (b->failed) return false;
    if (!b->p) {
        b->p = b->small;
        b->cap = sizeof b->small;
        b->len = 0;
    }
    if (b->len + n + 1 <= b->cap) return true;
    size_t cap = b->cap * 2;
    while (cap < b->len + n + 1) cap *= 2;
    char *p = b->p == b->small ? ta_malloc(cap) : ta_realloc(b->p, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    if (b->p == b->small) memcpy(p, b->small, b->len + 1);
    b->p = p;
    b->cap = cap;
    return true;
}

void ta_strbuf_put_slow(ta_strbuf *b, const char *s, size_t n)
{
    if (b->fixed) { /* what fits, then the NUL; the rest only counted */
        if (b->len + 1 < b->cap) {
            size_t room = b->cap - 1 - b->len, k = n < room ? n : room;
            memcpy(b->p + b->len, s, k);
            b->p[b->len + k] = '\0';
        }
        b->len += n;
        return;
    }
    if (!reserve(b, n)) return;
    if (n) memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void ta_strbuf_printf(ta_strbuf *b, const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    size_t room = b->fixed ? (b->len + 1 < b->cap ? b->cap - b->len : 0) : 0;
    int k = vsnprintf(room ? b->p + b->len : NULL, room, fmt, ap);
    if (k > 0 && !b->fixed && reserve(b, (size_t)k)) vsnprintf(b->p + b->len, (size_t)k + 1, fmt, again);
    if (k > 0 && (b->fixed || !b->failed)) b->len += (size_t)k;
    va_end(again);
    va_end(ap);
}

void ta_strbuf_free(ta_strbuf *b)
{
    if (!b->fixed && b->p != b->small) free(b->p);
    ta_strbuf_init(b);
}
