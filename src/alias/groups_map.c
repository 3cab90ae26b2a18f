/* groups_map.c - a small string -> index table (open addressing, FNV-1a) used to
 * group functions by signature and find them by name. Keys are borrowed. */
#include <stdlib.h>
#include <string.h>

#include "alias/kinds_internal.h"

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static bool grow(tg_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 256;
    const char **keys = calloc(cap, sizeof *keys);
    int32_t *vals = calloc(cap, sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return false;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i]) continue;
        size_t j = hash(m->keys[i]) & (cap - 1);
        while (keys[j]) j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return true;
}

bool tg_map_put(tg_map *m, const char *key, int32_t val)
{
    if ((m->n + 1) * 2 > m->cap && !grow(m)) return false;
    size_t j = hash(key) & (m->cap - 1);
    while (m->keys[j]) {
        if (strcmp(m->keys[j], key) == 0) {
            m->vals[j] = val;
            return true;
        }
        j = (j + 1) & (m->cap - 1);
    }
    m->keys[j] = key;
    m->vals[j] = val;
    m->n++;
    return true;
}

int32_t tg_map_get(const tg_map *m, const char *key)
{
    if (!m->cap) return -1;
    size_t j = hash(key) & (m->cap - 1);
    while (m->keys[j]) {
        if (strcmp(m->keys[j], key) == 0) return m->vals[j];
        j = (j + 1) & (m->cap - 1);
    }
    return -1;
}

void tg_map_free(tg_map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}
