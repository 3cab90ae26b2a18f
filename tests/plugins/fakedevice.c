/* fakedevice.c - a device library for tests: calls itself "cuda" but keeps
 * its memory on the host (malloc), so the engine's device code paths
 * (snapshots on the device, comparison on the device, copies to the host)
 * run without a GPU. FAKEDEV_UNAVAILABLE=1 makes it report no device.
 * fakedev_fault() plays a CUDA fault: the next sync reports an illegal
 * address, and from then on the "context" is lost for the whole process,
 * as CUDA's is (every allocation, copy, comparison and sync fails) until
 * fakedev_reset(). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensoralias/device.h"

/* Process-wide, as a CUDA context is; a forked child starts with its parent's. */
static int lost;

void fakedev_fault(void);
void fakedev_reset(void);
void fakedev_fault(void) { lost = 1; }
void fakedev_reset(void) { lost = 0; }

static int dead(char *err, size_t cap)
{
    if (cap) snprintf(err, cap, "fake device: an illegal memory access was encountered");
    return 1;
}

static int available(char *err, size_t cap)
{
    const char *v = getenv("FAKEDEV_UNAVAILABLE");
    if (v && *v == '1') {
        if (cap) snprintf(err, cap, "fake device: switched off");
        return 1;
    }
    return 0;
}

static void *alloc(size_t bytes, char *err, size_t cap)
{
    if (lost) {
        dead(err, cap);
        return NULL;
    }
    void *p = malloc(bytes ? bytes : 1);
    if (!p && cap) snprintf(err, cap, "fake device: out of memory");
    return p;
}

static void release(void *p) { free(p); }

static int copy(void *dst, const void *src, size_t n, char *err, size_t cap)
{
    if (lost) return dead(err, cap);
    if (n) memmove(dst, src, n);
    return 0;
}

static int compare(const void *a, const void *b, size_t n, size_t *first, char *err, size_t cap)
{
    if (lost) return dead(err, cap);
    const unsigned char *x = a, *y = b;
    *first = SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i]) {
            *first = i;
            break;
        }
    return 0;
}

static int sync_dev(char *err, size_t cap)
{
    return lost ? dead(err, cap) : 0;
}

static const ta_device_ops ops = {
    .abi_version = TA_DEVICE_ABI_VERSION, .name = "cuda", .type = kDLCUDA,
    .available = available, .alloc = alloc, .release = release, .to_host = copy,
    .from_host = copy, .copy = copy, .compare = compare, .sync = sync_dev,
};

const ta_device_ops *tensoralias_device(void);
const ta_device_ops *tensoralias_device(void) { return &ops; }
