/* groups_map.c - a small string -> index table (open addressing, FNV-1a)
 * used to group functions by signature and find them by name. Keys are
 * borrowed; their hashes are stored so growing the table rehashes nothing. */
#include <stdlib.h>
#include <string.h>

#include "alias/kinds_internal.h"

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
    return h | 1; /* never 0: 0 marks an empty slot's hash */
}

static uint64_t hash(const char *s) { return tg_hash(s, strlen(s)); }

static bool resize(tg_map *m, size_t cap)
{
    const char **keys = calloc(cap, sizeof *keys);
    int32_t *vals = calloc(cap, sizeof *vals);
    uint64_t *hashes = calloc(cap, sizeof *hashes);
    if (!keys || !vals || !hashes) {
        free(keys);
        free(vals);
        free(hashes);
        return false;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i]) continue;
        size_t j = m->hashes[i] & (cap - 1);
        while (keys[j]) j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
        hashes[j] = m->hashes[i];
    }
    free(m->keys);
    free(m->vals);
    free(m->hashes);
    m->keys = keys;
    m->vals = vals;
    m->hashes = hashes;
    m->cap = cap;
    return true;
}

bool tg_map_reserve(tg_map *m, size_t n)
{
    size_t cap = m->cap ? m->cap : 256;
    while (cap < n * 2) cap *= 2;
    return cap == m->cap || resize(m, cap);
}

/* The slot holding key, or the empty slot where it would go. */
static size_t find(const tg_map *m, const char *key, uint64_t h)
{
    size_t j = h & (m->cap - 1);
    while (m->keys[j] && !(m->hashes[j] == h && strcmp(m->keys[j], key) == 0))
        j = (j + 1) & (m->cap - 1);
    return j;
}

bool tg_map_add_h(tg_map *m, const char *key, uint64_t h, int32_t val, int32_t *val_out)
{
    if ((m->n + 1) * 2 > m->cap && !resize(m, m->cap ? m->cap * 2 : 256)) return false;
    size_t j = find(m, key, h);
    if (!m->keys[j]) {
        m->keys[j] = key;
        m->vals[j] = val;
        m->hashes[j] = h;
        m->n++;
    }
    *val_out = m->vals[j];
    return true;
}

bool tg_map_put_h(tg_map *m, const char *key, uint64_t h, int32_t val)
{
    int32_t now;
    if (!tg_map_add_h(m, key, h, val, &now)) return false;
    if (now != val) m->vals[find(m, key, h)] = val; /* an existing key takes the new value */
    return true;
}

bool tg_map_put(tg_map *m, const char *key, int32_t val)
{
    return tg_map_put_h(m, key, hash(key), val);
}

int32_t tg_map_get_h(const tg_map *m, const char *key, uint64_t h)
{
    if (!m->cap) return -1;
    size_t j = find(m, key, h);
    return m->keys[j] ? m->vals[j] : -1;
}

int32_t tg_map_get(const tg_map *m, const char *key)
{
    return m->cap ? tg_map_get_h(m, key, hash(key)) : -1;
}

void tg_map_free(tg_map *m)
{
    free(m->keys);
    free(m->vals);
    free(m->hashes);
    memset(m, 0, sizeof *m);
}
