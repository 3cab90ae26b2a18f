/* device_cpu.c - the CPU device: page-backed allocations with a guard page.
 *
 * Each allocation is its own anonymous mapping whose last page is PROT_NONE.
 * The data is placed so that it ends as close to that page as its alignment
 * allows, so a kernel writing even one element past the end faults instead
 * of corrupting a neighbour. A 16-byte header right before the data records
 * the mapping, so release needs no table (the device has no state at all).
 * Because every storage owns whole pages, the engine can also make an input
 * read-only with mprotect without touching anything else. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tensoralias/device.h"
#include "tensoralias/exec.h"

typedef struct alloc_header {
    void *map;
    size_t map_len;
} alloc_header;

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

static void *cpu_alloc(size_t bytes, char *err, size_t errcap)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t need = bytes + sizeof(alloc_header) + 16;
    size_t data_pages = (need + page - 1) / page * page;
    size_t map_len = data_pages + page;
    char *map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
        set_err(err, errcap, strerror(errno));
        return NULL;
    }
    char *guard = map + data_pages;
    if (mprotect(guard, page, PROT_NONE) != 0) {
        set_err(err, errcap, strerror(errno));
        munmap(map, map_len);
        return NULL;
    }
    uintptr_t p = (uintptr_t)(guard - bytes);
    p &= ~(uintptr_t)(align_for(bytes) - 1);
    alloc_header h = {map, map_len};
    memcpy((char *)p - sizeof h, &h, sizeof h);
    return (void *)p;
}

static void cpu_release(void *p)
{
    if (!p) return;
    alloc_header h;
    memcpy(&h, (char *)p - sizeof h, sizeof h);
    munmap(h.map, h.map_len);
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
