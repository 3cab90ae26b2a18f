/* arena.c - the bump allocator that owns every node of a parsed schema, a
 * loaded yaml, torchgen's model, and the other memory freed all at once.
 *
 * Chunks grow geometrically; no allocation is freed on its own.
 * ta_arena_destroy releases everything in one walk of the chunk list, and
 * ta_arena_reset frees every chunk but the newest (the largest) and reuses
 * it, so parsing millions of schemas, or reading a yaml one entry at a time,
 * costs a handful of mallocs.
 *
 * Memory is touched only where it is used: strings are packed without
 * alignment, the library's own nodes are 8-byte aligned (schema/arena.h),
 * and large chunks are transparent huge pages (ta_malloc_pages), as large
 * as the arena's owner expects to fill (ta_arena_expect). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "tensoralias/schema.h"

typedef struct chunk {
    struct chunk *next;
    size_t cap;
    size_t used;
    _Alignas(16) unsigned char data[];
} chunk;

struct ta_arena {
    chunk *head;
    size_t reserved;
    size_t expect; /* the next chunk's size at least (ta_arena_expect) */
};

#ifdef TA_FAULT_INJECT
/* The fault tests (alloc.h) want every arena allocation to be an allocation
 * that can fail: chunks as small as the request, never grown. */
enum { FIRST_CHUNK = 16, GROWTH = 1 };
#else
enum { FIRST_CHUNK = 4096, GROWTH = 2 };
#endif
#define MAX_CHUNK ((size_t)1 << 24)

ta_status ta_arena_create(ta_arena **out)
{
    *out = ta_calloc(1, sizeof(ta_arena));
    return *out ? TA_OK : TA_ERR_NOMEM;
}

void ta_arena_destroy(ta_arena *a)
{
    if (!a) return;
    for (chunk *c = a->head, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(a);
}

/* A chunk with room for at least cap bytes (large ones in huge pages). */
static chunk *new_chunk(size_t cap)
{
    size_t total = sizeof(chunk) + cap;
    chunk *n = ta_malloc_pages(&total);
    if (!n) return NULL;
    n->cap = total - sizeof(chunk);
    n->used = 0;
    return n;
}

/* bump's slow path: a new chunk for size bytes, at its start. */
static __attribute__((noinline)) void *bump_new_chunk(ta_arena *a, size_t size)
{
    chunk *c = a->head;
    size_t cap = c ? c->cap * GROWTH : FIRST_CHUNK;
    if (cap < a->expect) cap = a->expect;
    a->expect = 0;
    if (cap > MAX_CHUNK) cap = MAX_CHUNK;
    if (cap < size) cap = size;
    chunk *n = new_chunk(cap);
    if (!n) return NULL;
    n->next = c;
    a->head = n;
    a->reserved += n->cap;
    n->used = size;
    return n->data;
}

/* Room for size bytes aligned to align (a power of two, at most 16), not
 * cleared. */
static inline void *bump(ta_arena *a, size_t size, size_t align)
{
    chunk *c = a->head;
    if (c) {
        size_t at = (c->used + align - 1) & ~(align - 1);
        if (at <= c->cap && c->cap - at >= size) {
            c->used = at + size;
            return c->data + at;
        }
    }
    return bump_new_chunk(a, size);
}

void *ta_arena_alloc(ta_arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (size == 0) size = 16;
    unsigned char *p = bump(a, size, 16);
    if (!p) return NULL;
    /* Most nodes are a few dozen bytes: clear them with a store or four the
     * compiler inlines rather than a call to memset for each. */
    if (size <= 64) {
        for (size_t i = 0; i < size; i += 16) memset(p + i, 0, 16);
    } else {
        memset(p, 0, size);
    }
    return p;
}

void *ta_arena_take(ta_arena *a, size_t size)
{
    return bump(a, size ? (size + 7) & ~(size_t)7 : 8, 8);
}

void *ta_arena_zalloc(ta_arena *a, size_t size)
{
    size = size ? (size + 7) & ~(size_t)7 : 8;
    unsigned char *p = bump(a, size, 8);
    if (!p) return NULL;
    if (size <= 64) {
        for (size_t i = 0; i < size; i += 8) memset(p + i, 0, 8);
    } else {
        memset(p, 0, size);
    }
    return p;
}

char *ta_arena_strndup(ta_arena *a, const char *s, size_t len)
{
    /* every byte is written below: no clearing first */
    char *p = bump(a, len + 1, 1);
    if (!p) return NULL;
    if (len) memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *ta_arena_qualified(ta_arena *a, const char *ns, const char *s, size_t len)
{
    size_t pre = ns ? strlen(ns) + 2 : 0;
    char *p = bump(a, pre + len + 1, 1);
    if (!p) return NULL;
    if (pre) {
        memcpy(p, ns, pre - 2);
        memcpy(p + pre - 2, "::", 2);
    }
    if (len) memcpy(p + pre, s, len);
    p[pre + len] = '\0';
    return p;
}

void ta_arena_expect(ta_arena *a, size_t size)
{
#ifndef TA_FAULT_INJECT /* the fault tests' chunks stay as small as each request */
    a->expect = size;
#else
    (void)a;
    (void)size;
#endif
}

size_t ta_arena_bytes(const ta_arena *a) { return a ? a->reserved : 0; }

void ta_arena_reset(ta_arena *a)
{
    if (!a || !a->head) return;
    /* The head is the newest and therefore the largest chunk: keep it. */
    chunk *keep = a->head;
    for (chunk *c = keep->next, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    keep->next = NULL;
    keep->used = 0;
    a->reserved = keep->cap;
}
