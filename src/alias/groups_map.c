/* groups_map.c - a small string -> index table (open addressing, FNV-1a)
 * used to group functions by signature and find them by name. Keys are
 * borrowed; their hashes are stored so growing the table rehashes nothing. */
#include <stdlib.h>
#include <string.h>

#include "alias/kinds_internal.h"

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h | 1; /* never 0: 0 marks an empty slot's hash */
}

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

bool tg_map_put(tg_map *m, const char *key, int32_t val)
{
    if ((m->n + 1) * 2 > m->cap && !resize(m, m->cap ? m->cap * 2 : 256)) return false;
    uint64_t h = hash(key);
    size_t j = h & (m->cap - 1);
    while (m->keys[j]) {
        if (m->hashes[j] == h && strcmp(m->keys[j], key) == 0) {
            m->vals[j] = val;
            return true;
        }
        j = (j + 1) & (m->cap - 1);
    }
    m->keys[j] = key;
    m->vals[j] = val;
    m->hashes[j] = h;
    m->n++;
    return true;
}

int32_t tg_map_get(const tg_map *m, const char *key)
{
    if (!m->cap) return -1;
    uint64_t h = hash(key);
    size_t j = h & (m->cap - 1);
    while (m->keys[j]) {
        if (m->hashes[j] == h && strcmp(m->keys[j], key) == 0) return m->vals[j];
        j = (j + 1) & (m->cap - 1);
    }
    return -1;
}

void tg_map_free(tg_map *m)
{
    free(m->keys);
    free(m->vals);
    free(m->hashes);
    memset(m, 0, sizeof *m);
}
