/* fakedevice.c - a device library for tests: calls itself "cuda" but keeps
 * its memory on the host (malloc), so the engine's device code paths
 * (snapshots on the device, comparison on the device, copies to the host)
 * run without a GPU. FAKEDEV_UNAVAILABLE=1 makes it report no device. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/device.h"

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
    void *p = malloc(bytes ? bytes : 1);
    if (!p && cap) snprintf(err, cap, "fake device: out of memory");
    return p;
}

static void release(void *p) { free(p); }

static int copy(void *dst, const void *src, size_t n, char *err, size_t cap)
{
    (void)err;
    (void)cap;
    if (n) memmove(dst, src, n);
    return 0;
}

static int compare(const void *a, const void *b, size_t n, size_t *first, char *err, size_t cap)
{
    (void)err;
    (void)cap;
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
    (void)err;
    (void)cap;
    return 0;
}

static const ta_device_ops ops = {
    .abi_version = TA_DEVICE_ABI_VERSION, .name = "cuda", .type = kDLCUDA,
    .available = available, .alloc = alloc, .release = release, .to_host = copy,
    .from_host = copy, .copy = copy, .compare = compare, .sync = sync_dev,
};

const ta_device_ops *tensoralias_device(void);
const ta_device_ops *tensoralias_device(void) { return &ops; }
