/* map.c - the library's one hash map (see map.h). */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/map.h"

uint64_t ta_map_hash_bytes(const void *key, size_t n)
{
    const unsigned char *s = key;
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (n * 0xC2B2AE3D27D4EB4Full);
    for (; n >= 8; n -= 8, s += 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
    }
    /* the last 0-7 bytes without a byte loop (most keys are that short): two
     * overlapping loads, or the first, middle and last byte; with n mixed
     * in above, each length reads its bytes one way */
    uint64_t w = 0;
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        w = (uint64_t)a << 32 | b;
    } else if (n) {
        w = (uint64_t)s[0] << 16 | (uint64_t)s[n >> 1] << 8 | s[n - 1];
    }
    h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 29;
    return h;
}

void ta_map_init(ta_map *m, const ta_map_type *type)
{
    memset(m, 0, sizeof *m);
    m->type = type;
}

void ta_map_init_in(ta_map *m, const ta_map_type *type, ta_arena *arena)
{
    ta_map_init(m, type);
    m->arena = arena;
}

void ta_map_clear(ta_map *m)
{
    const ta_map_type *t = m->type;
    if (t && (t->key_free || t->value_free))
        for (size_t i = 0; i < m->cap; i++) {
            ta_map_entry *e = &m->slots[i];
            if (!e->key) continue;
            if (t->key_free) t->key_free((void *)e->key);
            if (t->value_free) t->value_free(e->value);
        }
    if (!m->slots_in_arena) free(m->slots);
    m->slots = NULL;
    m->slots_in_arena = false;
    m->cap = m->n = 0;
}

uint64_t ta_map_hash(const ta_map *m, const void *key, size_t len)
{
    return m->type && m->type->hash ? m->type->hash(key, len) : ta_map_hash_bytes(key, len);
}

/* Room for n keys at most 3/4 full. */
static bool full(size_t n, size_t cap) { return n * 4 > cap * 3; }

static ta_status resize(ta_map *m, size_t cap)
{
    bool in_arena = m->arena && cap * sizeof(ta_map_entry) <= ((size_t)1 << 20);
    ta_map_entry *slots = in_arena ? ta_arena_zalloc(m->arena, cap * sizeof *slots)
                                   : ta_calloc(cap, sizeof *slots);
    if (!slots) return TA_ERR_NOMEM;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].key) continue;
        size_t j = m->slots[i].hash & (cap - 1);
        while (slots[j].key) j = (j + 1) & (cap - 1);
        slots[j] = m->slots[i];
    }
    if (!m->slots_in_arena) free(m->slots);
    m->slots = slots;
    m->slots_in_arena = in_arena;
    m->cap = cap;
    return TA_OK;
}

ta_status ta_map_reserve(ta_map *m, size_t n)
{
    size_t cap = m->cap ? m->cap : 16;
    while (full(n, cap))
        if ((cap *= 2) > SIZE_MAX / 2 / sizeof *m->slots) return TA_ERR_NOMEM;
    return cap == m->cap ? TA_OK : resize(m, cap);
}

/* The slot holding key, or the empty slot where it would go. */
static size_t slot_of(const ta_map *m, const void *key, size_t len, uint32_t h)
{
    size_t j = h & (m->cap - 1);
    for (;; j = (j + 1) & (m->cap - 1)) {
        const ta_map_entry *e = &m->slots[j];
        /* the very key (a name looked up by its owner) needs no compare */
        if (!e->key || (e->hash == h && e->len == len && (e->key == key || !memcmp(e->key, key, len)))) return j;
    }
}

ta_map_entry *ta_map_find_h(const ta_map *m, const void *key, size_t len, uint64_t hash)
{
    if (!m->cap) return NULL;
    ta_map_entry *e = &m->slots[slot_of(m, key, len, (uint32_t)hash)];
    return e->key ? e : NULL;
}

ta_map_entry *ta_map_find(const ta_map *m, const void *key, size_t len)
{
    return m->cap ? ta_map_find_h(m, key, len, ta_map_hash(m, key, len)) : NULL;
}

ta_map_entry *ta_map_find_str(const ta_map *m, const char *key)
{
    return ta_map_find(m, key, strlen(key));
}

ta_status ta_map_add_h(ta_map *m, const void *key, size_t len, uint64_t hash,
                       ta_map_value value, ta_map_entry **entry)
{
    if (len > UINT32_MAX) return TA_ERR_INVALID;
    if ((!m->cap || full(m->n + 1, m->cap)) && resize(m, m->cap ? m->cap * 2 : 16) != TA_OK)
        return TA_ERR_NOMEM;
    ta_map_entry *e = &m->slots[slot_of(m, key, len, (uint32_t)hash)];
    if (!e->key) {
        *e = (ta_map_entry){key, (uint32_t)len, (uint32_t)hash, value};
        m->n++;
    }
    if (entry) *entry = e;
    return TA_OK;
}

ta_status ta_map_add(ta_map *m, const void *key, size_t len, ta_map_value value,
                     ta_map_entry **entry)
{
    return ta_map_add_h(m, key, len, ta_map_hash(m, key, len), value, entry);
}
