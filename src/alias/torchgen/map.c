/* map.c - a small string -> index table (open addressing) used to
 * group functions by signature and find them by name. Keys are borrowed;
 * their hashes are stored so growing the table rehashes nothing. */
#include <stdlib.h>
#include <string.h>

#include "alias/torchgen/internal.h"

/* Eight bytes a step: keys are signatures of a hundred bytes or so, hashed
 * for every function of a yaml. */
uint64_t tg_hash(const char *s, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (n * 0xC2B2AE3D27D4EB4Full);
    for (; n >= 8; n -= 8, s += 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
    }
    uint64_t w = 0;
    memcpy(&w, s, n);
    h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 29;
    return h;
}

static uint64_t hash(const char *s) { return tg_hash(s, strlen(s)); }

static bool resize(tg_map *m, size_t cap)
{
    tg_map_slot *slots = calloc(cap, sizeof *slots);
    if (!slots) return false;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].key) continue;
        size_t j = m->slots[i].hash & (cap - 1);
        while (slots[j].key) j = (j + 1) & (cap - 1);
        slots[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
    return true;
}

/* Room for n keys at most 3/4 full. */
static bool full(size_t n, size_t cap) { return n * 4 > cap * 3; }

bool tg_map_reserve(tg_map *m, size_t n)
{
    size_t cap = m->cap ? m->cap : 256;
    while (full(n, cap)) cap *= 2;
    return cap == m->cap || resize(m, cap);
}

/* The slot holding key, or the empty slot where it would go. */
static size_t find(const tg_map *m, const char *key, uint32_t h)
{
    size_t j = h & (m->cap - 1);
    while (m->slots[j].key && !(m->slots[j].hash == h && strcmp(m->slots[j].key, key) == 0))
        j = (j + 1) & (m->cap - 1);
    return j;
}

bool tg_map_add_h(tg_map *m, const char *key, uint64_t h, int32_t val, int32_t *val_out)
{
    if ((!m->cap || full(m->n + 1, m->cap)) && !resize(m, m->cap ? m->cap * 2 : 256))
        return false;
    size_t j = find(m, key, (uint32_t)h);
    if (!m->slots[j].key) {
        m->slots[j] = (tg_map_slot){key, (uint32_t)h, val};
        m->n++;
    }
    *val_out = m->slots[j].val;
    return true;
}

bool tg_map_put_h(tg_map *m, const char *key, uint64_t h, int32_t val)
{
    int32_t now;
    if (!tg_map_add_h(m, key, h, val, &now)) return false;
    if (now != val) m->slots[find(m, key, (uint32_t)h)].val = val; /* an existing key takes the new value */
    return true;
}

bool tg_map_put(tg_map *m, const char *key, int32_t val)
{
    return tg_map_put_h(m, key, hash(key), val);
}

int32_t tg_map_get_h(const tg_map *m, const char *key, uint64_t h)
{
    if (!m->cap) return -1;
    size_t j = find(m, key, (uint32_t)h);
    return m->slots[j].key ? m->slots[j].val : -1;
}

int32_t tg_map_get(const tg_map *m, const char *key)
{
    return m->cap ? tg_map_get_h(m, key, hash(key)) : -1;
}

void tg_map_free(tg_map *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}
