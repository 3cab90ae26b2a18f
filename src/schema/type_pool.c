/* type_pool.c - the types of a loaded yaml's schemas, shared.
 *
 * Most arguments of a native_functions.yaml are of a handful of types
 * (Tensor, int[], Scalar?, ...) written without an annotation. A pool parses
 * each schema's types in scratch memory and then moves them to the schema's
 * arena: a type tree without annotations becomes the one copy the pool keeps
 * of that tree (its span is {0, 0}: it was written in many places), and an
 * annotated one is copied as it is (its own span, its alias records, shared
 * subtrees). The pool's table lives while the loader does; the shared types
 * live in the arena. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/map.h"
#include "schema/parser.h"

enum { RECENT = 256 };

struct ta_type_pool {
    ta_arena *scratch;
    ta_map shared; /* key (type_key) -> the shared ta_type */
    /* Shared types by a cheap digest (recent_slot), checked field by field
     * before use: most types are one of a few, found here without hashing
     * and comparing a key. */
    ta_type *recent[RECENT];
};

ta_type_pool *ta_type_pool_create(void)
{
    ta_type_pool *pool = ta_calloc(1, sizeof *pool);
    if (!pool) return NULL;
    if (ta_arena_create(&pool->scratch) != TA_OK) {
        free(pool);
        return NULL;
    }
    ta_map_init(&pool->shared, NULL);
    return pool;
}

void ta_type_pool_destroy(ta_type_pool *pool)
{
    if (!pool) return;
    ta_map_clear(&pool->shared);
    ta_arena_destroy(pool->scratch);
    free(pool);
}

ta_arena *ta_type_pool_scratch(ta_type_pool *pool)
{
    ta_arena_reset(pool->scratch);
    return pool->scratch;
}

enum { KEY_MAX = 256 };

/* What identifies a type without annotations whose elements are shared
 * already: kind, list size, the elements' addresses and the name. 0 when
 * it does not fit in buf (then it is not shared). */
static size_t type_key(const ta_type *t, ta_type *const *elems, unsigned char *buf)
{
    size_t n = 1 + 2 * sizeof(uint32_t) + t->nelems * sizeof *elems + t->name.len;
    if (n > KEY_MAX) return 0;
    uint32_t fixed = (uint32_t)t->fixed_size;
    buf[0] = (unsigned char)t->kind;
    memcpy(buf + 1, &fixed, sizeof fixed);
    memcpy(buf + 5, &t->nelems, sizeof t->nelems);
    if (t->nelems) memcpy(buf + 9, elems, t->nelems * sizeof *elems);
    if (t->name.len) memcpy(buf + 9 + t->nelems * sizeof *elems, t->name.ptr, t->name.len);
    return n;
}

/* A copy of t in a with elements elems; span kept or cleared. */
static ta_type *copy_node(ta_arena *a, const ta_type *t, ta_type *const *elems, bool keep_span)
{
    ta_type *c = ta_arena_take(a, sizeof *c);
    ta_type **e = t->nelems ? ta_arena_take(a, t->nelems * sizeof *e) : NULL;
    if (!c || (t->nelems && !e)) return NULL;
    *c = *t;
    if (t->nelems) memcpy(e, elems, t->nelems * sizeof *e);
    c->elems = e;
    if (!keep_span) c->span = (ta_span){0, 0};
    return c;
}

static size_t recent_slot(const ta_type *t, ta_type *const *elems)
{
    size_t h = (size_t)t->kind * 131u + (size_t)t->fixed_size * 7u + t->nelems;
    if (t->nelems) h ^= (size_t)((uintptr_t)elems[0] >> 4);
    if (t->name.len) h += t->name.len * 31u + (unsigned char)t->name.ptr[0] +
                          (unsigned char)t->name.ptr[t->name.len - 1] * 17u;
    return (h ^ (h >> 8)) & (RECENT - 1);
}

/* Whether shared type c is t with elements elems. */
static bool same(const ta_type *c, const ta_type *t, ta_type *const *elems)
{
    return c && c->kind == t->kind && c->fixed_size == t->fixed_size &&
           c->nelems == t->nelems && ta_str_eq_str(c->name, t->name) &&
           (!t->nelems || !memcmp(c->elems, elems, t->nelems * sizeof *elems));
}

/* The pool's copy of t (no annotations; elements shared), made on first use. */
static ta_type *share(ta_type_pool *pool, ta_arena *a, const ta_type *t, ta_type *const *elems)
{
    ta_type **recent = &pool->recent[recent_slot(t, elems)];
    if (same(*recent, t, elems)) return *recent;
    unsigned char key[KEY_MAX];
    size_t n = type_key(t, elems, key);
    if (!n) return copy_node(a, t, elems, true);
    uint64_t h = ta_map_hash_bytes(key, n);
    ta_map_entry *e = ta_map_find_h(&pool->shared, key, n, h);
    if (e) return *recent = e->value.ptr;
    ta_type *c = copy_node(a, t, elems, false);
    unsigned char *kept = ta_arena_take(a, n);
    if (!c || !kept) return NULL;
    memcpy(kept, key, n);
    if (ta_map_add_h(&pool->shared, kept, n, h, ta_map_ptr(c), NULL) != TA_OK) return NULL;
    return *recent = c;
}

ta_type *ta_type_pool_commit(ta_type_pool *pool, ta_arena *a, const ta_type *t, bool *plain)
{
    ta_type *local[8], **elems = local;
    if (t->nelems > 8 && !(elems = ta_arena_take(pool->scratch, t->nelems * sizeof *elems)))
        return NULL;
    bool all_plain = !t->alias;
    for (uint32_t i = 0; i < t->nelems; i++) {
        bool p;
        if (!(elems[i] = ta_type_pool_commit(pool, a, t->elems[i], &p))) return NULL;
        all_plain &= p;
    }
    *plain = all_plain;
    return all_plain ? share(pool, a, t, elems) : copy_node(a, t, elems, true);
}
