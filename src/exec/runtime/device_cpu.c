/* device_cpu.c - the CPU device: page-backed allocations with guard pages.
 *
 * Each allocation is its own anonymous mapping with a PROT_NONE page at
 * one end of the data, so a kernel reaching even one element past it faults
 * instead of corrupting a neighbour:
 *   - at the back (the default): the data ends as close to a guard page as
 *     its alignment allows; a header right before it records the mapping,
 *     ending in a check word, so a write just before the data is seen
 *     (ta_cpu_header_intact) and release never trusts a damaged header;
 *   - at the front (ta_cpu_alloc_at): the data starts on the page after a
 *     guard page (and its end is guarded too when it fills whole pages); the
 *     header lives on a page of its own before that guard.
 * A front allocation is exactly one whose address is page-aligned (a back
 * one never is: one of whole pages goes to the front), which is how release
 * tells them apart. Because every storage owns whole pages, the engine can
 * also make an input read-only with mprotect without touching anything
 * else.
 *
 * An execution context keeps the mappings its resets release for reuse (a
 * few, up to a total size; ta_cpu_alloc_cached): a case allocates, as a
 * rule, storages of the sizes the case before it released, and a mapping
 * reused saves its mmap, mprotect and munmap calls and the page faults of
 * fresh pages. One is reused only for a mapping of the same length and
 * layout, so its guard pages are where they would be; its other pages are
 * zeroed, as fresh ones would be. The engine restores read-only storage
 * before releasing it. The device itself keeps no state. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exec/runtime/exec_internal.h"

typedef struct alloc_header {
    void *map;
    size_t map_len;
    uint64_t check; /* map ^ map_len ^ HEADER_KEY; last, right before the data */
} alloc_header;

#define HEADER_KEY 0xA55AC33C96695AA5ull

static uint64_t header_check(const alloc_header *h)
{
    return (uint64_t)(uintptr_t)h->map ^ (uint64_t)h->map_len ^ HEADER_KEY;
}

static void set_err(char *err, size_t cap, const char *msg)
{
    if (cap) snprintf(err, cap, "%s", msg);
}

static int cpu_available(char *err, size_t errcap)
{
    (void)err;
    (void)errcap;
    return 0;
}

/* Largest power of two dividing bytes, capped at 16: the alignment the data
 * needs (element sizes divide the byte count). */
static size_t align_for(size_t bytes)
{
    size_t a = 16;
    while (a > 1 && bytes % a) a >>= 1;
    return a;
}

static size_t page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }

/* ---- released mappings, for reuse ---- */

#define CACHE_MAX_BYTES ((size_t)32 << 20)

/* Zeroes what is not a guard page of a mapping laid out as alloc_front or
 * alloc_back lays it out. */
static void zero_mapping(char *map, size_t len, bool front)
{
    size_t page = page_size();
    if (front) {
        memset(map, 0, page);
        memset(map + 2 * page, 0, len - 3 * page);
    } else {
        memset(map, 0, len - page);
    }
}

/* The most recently released mapping of len bytes and that layout (its
 * pages the likeliest to be in the caches), zeroed, or NULL. */
static char *take_cached(ta_cpu_cache *c, size_t len, bool front)
{
    for (size_t i = c ? c->n : 0; i-- > 0;) {
        if (c->e[i].len != len || c->e[i].front != front) continue;
        char *map = c->e[i].map;
        memmove(&c->e[i], &c->e[i + 1], (c->n - i - 1) * sizeof c->e[0]);
        c->n--;
        c->bytes -= len;
        zero_mapping(map, len, front);
        return map;
    }
    return NULL;
}

/* Keeps a released mapping for reuse, unmapping the oldest kept ones to
 * make room (or this one, when it is larger than the cache). */
static void put_cached(ta_cpu_cache *c, char *map, size_t len, bool front)
{
    if (len > CACHE_MAX_BYTES) {
        munmap(map, len);
        return;
    }
    while (c->n == TA_CPU_CACHE_SLOTS || c->bytes + len > CACHE_MAX_BYTES) {
        munmap(c->e[0].map, c->e[0].len);
        c->bytes -= c->e[0].len;
        memmove(&c->e[0], &c->e[1], --c->n * sizeof c->e[0]);
    }
    c->e[c->n].map = map;
    c->e[c->n].len = len;
    c->e[c->n].front = front;
    c->n++;
    c->bytes += len;
}

void ta_cpu_cache_clear(ta_cpu_cache *c)
{
    for (size_t i = 0; i < c->n; i++) munmap(c->e[i].map, c->e[i].len);
    c->n = c->bytes = 0;
}

/* Where the header of the allocation at p is. */
static char *header_at(const void *p)
{
    size_t page = page_size();
    bool front = ((uintptr_t)p & (page - 1)) == 0;
    return (char *)p - (front ? page : 0) - sizeof(alloc_header);
}

/* A mapping of map_len bytes with PROT_NONE on [guard_at, guard_at + guard_len). */
static char *map_with_guard(size_t map_len, size_t guard_at, size_t guard_len, char *err, size_t errcap)
{
    char *map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
        set_err(err, errcap, strerror(errno));
        return NULL;
    }
    if (mprotect(map + guard_at, guard_len, PROT_NONE) != 0) {
        set_err(err, errcap, strerror(errno));
        munmap(map, map_len);
        return NULL;
    }
    return map;
}

/* [header page][guard][data pages][guard]: the data starts on a page. */
static void *alloc_front(ta_cpu_cache *cache, size_t bytes, char *err, size_t errcap)
{
    size_t page = page_size(), data_pages = (bytes + page - 1) / page * page;
    size_t map_len = 3 * page + data_pages;
    char *map = take_cached(cache, map_len, true);
    if (!map) {
        if (!(map = map_with_guard(map_len, page, page, err, errcap))) return NULL;
        if (mprotect(map + 2 * page + data_pages, page, PROT_NONE) != 0) {
            set_err(err, errcap, strerror(errno));
            munmap(map, map_len);
            return NULL;
        }
    }
    char *p = map + 2 * page;
    alloc_header h = {map, map_len, 0};
    h.check = header_check(&h);
    memcpy(header_at(p), &h, sizeof h);
    return p;
}

/* [data pages][guard]: the data ends against the guard, the header before it. */
static void *alloc_back(ta_cpu_cache *cache, size_t bytes, char *err, size_t errcap)
{
    size_t page = page_size();
    size_t need = bytes + sizeof(alloc_header) + 16;
    size_t data_pages = (need + page - 1) / page * page;
    size_t map_len = data_pages + page;
    char *map = take_cached(cache, map_len, false);
    if (!map && !(map = map_with_guard(map_len, data_pages, page, err, errcap))) return NULL;
    uintptr_t p = (uintptr_t)(map + data_pages - bytes);
    p &= ~(uintptr_t)(align_for(bytes) - 1);
    alloc_header h = {map, map_len, 0};
    h.check = header_check(&h);
    memcpy(header_at((void *)p), &h, sizeof h);
    return (void *)p;
}

void *ta_cpu_alloc_cached(ta_cpu_cache *cache, size_t bytes, bool front, char *err, size_t errcap)
{
    /* Whole pages are guarded at both ends from the front. */
    if (front || bytes % page_size() == 0) return alloc_front(cache, bytes, err, errcap);
    return alloc_back(cache, bytes, err, errcap);
}

void *ta_cpu_alloc_at(size_t bytes, bool front, char *err, size_t errcap)
{
    return ta_cpu_alloc_cached(NULL, bytes, front, err, errcap);
}

static void *cpu_alloc(size_t bytes, char *err, size_t errcap)
{
    return ta_cpu_alloc_at(bytes, false, err, errcap);
}

bool ta_cpu_header_intact(const void *p)
{
    alloc_header h;
    memcpy(&h, header_at(p), sizeof h);
    return h.check == header_check(&h);
}

/* The mapping of the allocation at p, or NULL when a kernel wrote over its
 * header: then it cannot be known, and it stays (unmapping a guess could
 * take someone else's memory). */
static char *mapping_of(const void *p, size_t *len)
{
    alloc_header h;
    memcpy(&h, header_at(p), sizeof h);
    if (h.check != header_check(&h)) return NULL;
    *len = h.map_len;
    return h.map;
}

static void cpu_release(void *p)
{
    size_t len;
    char *map = p ? mapping_of(p, &len) : NULL;
    if (map) munmap(map, len);
}

void ta_cpu_release_cached(ta_cpu_cache *cache, void *p)
{
    size_t len;
    char *map = p ? mapping_of(p, &len) : NULL;
    if (map) put_cached(cache, map, len, ((uintptr_t)p & (page_size() - 1)) == 0);
}

static int cpu_copy(void *dst, const void *src, size_t bytes, char *err, size_t errcap)
{
    (void)err;
    (void)errcap;
    if (bytes) memmove(dst, src, bytes);
    return 0;
}

static int cpu_compare(const void *a, const void *b, size_t bytes, size_t *first, char *err,
                       size_t errcap)
{
    (void)err;
    (void)errcap;
    const unsigned char *x = a, *y = b;
    *first = SIZE_MAX;
    if (!bytes || memcmp(x, y, bytes) == 0) return 0;
    /* Narrow down in blocks first: memcmp is much faster than a byte loop. */
    size_t i = 0;
    while (bytes - i > 64 && memcmp(x + i, y + i, 64) == 0) i += 64;
    while (i < bytes && x[i] == y[i]) i++;
    *first = i;
    return 0;
}

static int cpu_sync(char *err, size_t errcap)
{
    (void)err;
    (void)errcap;
    return 0;
}

static const ta_device_ops cpu_ops = {
    .abi_version = TA_DEVICE_ABI_VERSION,
    .name = "cpu",
    .type = kDLCPU,
    .available = cpu_available,
    .alloc = cpu_alloc,
    .release = cpu_release,
    .to_host = cpu_copy,
    .from_host = cpu_copy,
    .copy = cpu_copy,
    .compare = cpu_compare,
    .sync = cpu_sync,
};

const struct ta_device_ops *ta_exec_device_cpu(void) { return &cpu_ops; }
