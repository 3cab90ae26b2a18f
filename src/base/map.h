/* map.h - the library's one hash map, in the spirit of Redis's dict: the map
 * stores keys (byte strings) and values and knows nothing else of them; a
 * ta_map_type of callbacks says how keys hash and what the map owns.
 *
 * Open addressing with linear probing, at most 3/4 full. Each slot keeps its
 * key's hash, so a probe compares hashes before it touches a key and growing
 * the table never hashes a key again. Callers that look one key up several
 * times (torchgen's signatures) hash it once and use the _h forms.
 *
 * A key is `len` bytes at `key` (NUL-terminated or not); by default the map
 * borrows it, so it must stay put while it is in the map. Entry pointers are
 * valid until the next insertion. Not public: include/ has no map.
 */
#ifndef TA_BASE_MAP_H
#define TA_BASE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensoralias/diag.h"
#include "tensoralias/schema.h"

typedef union ta_map_value {
    void *ptr;
    int64_t i;
} ta_map_value;

typedef struct ta_map_entry {
    const void *key; /* NULL: an empty slot */
    uint32_t len;
    uint32_t hash;   /* low half of the key's hash */
    ta_map_value value;
} ta_map_entry;

typedef struct ta_map_type {
    /* The hash of a key; NULL means ta_map_hash_bytes. */
    uint64_t (*hash)(const void *key, size_t len);
    /* Called on each key and value when the map is cleared, for a map that
     * owns them; NULL when it does not. */
    void (*key_free)(void *key);
    void (*value_free)(ta_map_value value);
} ta_map_type;

typedef struct ta_map {
    const ta_map_type *type; /* NULL: borrowed keys and values, default hash */
    ta_map_entry *slots;     /* one array: a probe touches one cache line */
    size_t cap, n;
    ta_arena *arena;         /* where small tables come from (ta_map_init_in), or NULL */
    bool slots_in_arena;
} ta_map;

/* Eight bytes a step: keys are operator names and signatures of a hundred
 * bytes or so, hashed for every function of a yaml. */
uint64_t ta_map_hash_bytes(const void *key, size_t len);

/* An empty map; it allocates on first insertion. */
void ta_map_init(ta_map *m, const ta_map_type *type);
/* The same with its tables of up to 1 MiB in arena, for a map that lives
 * as long as the arena and is sized once (ta_map_reserve): memory the owner
 * expects to fill anyway (ta_arena_expect), paged in already. Such a table
 * outgrown stays in the arena (larger ones are malloc'd and freed as
 * usual); ta_map_clear forgets it, the arena frees it. */
void ta_map_init_in(ta_map *m, const ta_map_type *type, ta_arena *arena);
/* Frees the table (and owned keys and values); the map is empty again. */
void ta_map_clear(ta_map *m);
/* Room for n keys without growing. */
ta_status ta_map_reserve(ta_map *m, size_t n);

/* The hash of key under m's type. */
uint64_t ta_map_hash(const ta_map *m, const void *key, size_t len);

/* The entry of key, or NULL. */
ta_map_entry *ta_map_find_h(const ta_map *m, const void *key, size_t len, uint64_t hash);
ta_map_entry *ta_map_find(const ta_map *m, const void *key, size_t len);
/* A C string key. */
ta_map_entry *ta_map_find_str(const ta_map *m, const char *key);

/* Asks the processor to fetch the slot where a key of that hash would be,
 * ahead of a lookup: for a large map whose probes miss the cache, such as
 * a graph's value names. Only a hint. */
static inline void ta_map_prefetch(const ta_map *m, uint64_t hash)
{
#if defined(__GNUC__) || defined(__clang__)
    if (m->cap) __builtin_prefetch(&m->slots[(uint32_t)hash & (m->cap - 1)]);
#else
    (void)m, (void)hash;
#endif
}
/* Inserts key -> value unless key is there. *entry (when not NULL) gets the
 * entry now holding key: the new one, or the existing one, whose value is
 * left as it was (compare entry->value to tell). TA_ERR_NOMEM leaves the
 * map as it was; a map that owns its key and value has not taken them. */
ta_status ta_map_add_h(ta_map *m, const void *key, size_t len, uint64_t hash,
                       ta_map_value value, ta_map_entry **entry);
ta_status ta_map_add(ta_map *m, const void *key, size_t len, ta_map_value value,
                     ta_map_entry **entry);

static inline ta_map_value ta_map_int(int64_t i)
{
    ta_map_value v;
    v.i = i;
    return v;
}

static inline ta_map_value ta_map_ptr(void *p)
{
    ta_map_value v;
    v.ptr = p;
    return v;
}

#endif
