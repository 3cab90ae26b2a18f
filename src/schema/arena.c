/* arena.c - the bump allocator that owns every node of a parsed schema, a
 * loaded yaml, torchgen's model, and the other memory freed all at once.
 *
 * Chunks grow geometrically; no allocation is freed on its own.
 * ta_arena_destroy releases everything in one walk of the chunk list, and
 * ta_arena_reset frees every chunk but the newest (the largest) and reuses
 * it, so parsing millions of schemas, or reading a yaml one entry at a time,
 * costs a handful of mallocs. */
#include <stdlib.h>
#include <string.h>

#include "schema/alloc.h"
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
};

#ifdef TA_FAULT_INJECT
/* The fault tests (alloc.h) want every arena allocation to be an allocation
 * that can fail: chunks as small as the request, never grown. */
enum { FIRST_CHUNK = 16, ALIGN = 16, GROWTH = 1 };
#else
enum { FIRST_CHUNK = 4096, ALIGN = 16, GROWTH = 2 };
#endif

ta_arena *ta_arena_create(void) { return ta_calloc(1, sizeof(ta_arena)); }

void ta_arena_destroy(ta_arena *a)
{
    if (!a) return;
    for (chunk *c = a->head, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(a);
}

/* Room for size bytes (already rounded to ALIGN), not cleared. */
static void *bump(ta_arena *a, size_t size)
{
    chunk *c = a->head;
    if (!c || c->cap - c->used < size) {
        size_t cap = c ? c->cap * GROWTH : FIRST_CHUNK;
        if (cap > (size_t)1 << 24) cap = (size_t)1 << 24;
        if (cap < size) cap = size;
        chunk *n = ta_malloc(sizeof(chunk) + cap);
        if (!n) return NULL;
        n->cap = cap;
        n->used = 0;
        n->next = c;
        a->head = n;
        a->reserved += cap;
        c = n;
    }
    void *p = c->data + c->used;
    c->used += size;
    return p;
}

void *ta_arena_alloc(ta_arena *a, size_t size)
{
    size = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (size == 0) size = ALIGN;
    unsigned char *p = bump(a, size);
    if (!p) return NULL;
    /* Most nodes are a few dozen bytes: clear them with a store or four the
     * compiler inlines rather than a call to memset for each. */
    if (size <= 4 * ALIGN) {
        for (size_t i = 0; i < size; i += ALIGN) memset(p + i, 0, ALIGN);
    } else {
        memset(p, 0, size);
    }
    return p;
}

char *ta_arena_strndup(ta_arena *a, const char *s, size_t len)
{
    /* every byte is written below: no clearing first */
    size_t size = (len + 1 + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    char *p = bump(a, size);
    if (!p) return NULL;
    if (len) memcpy(p, s, len);
    p[len] = '\0';
    return p;
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
