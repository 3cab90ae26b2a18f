/* bench_cuda.c - what observing a CUDA kernel costs: the device's snapshot
 * (device-to-device copy) and on-device compare of equal buffers (the full
 * scan every unchanged storage costs) at 1 MB, 64 MB and 1 GB, in GB/s and
 * microseconds. Without a GPU it says why and exits 0 (figures, not tests). */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensoralias/device.h"

#include "benchlib.h"

int main(void)
{
    const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
    char path[512], err[512] = "";
    snprintf(path, sizeof path, "%s/libtensoralias_cuda.so", build);
    /* Lazy: only the device table is used, so the kernels' ta_* references
     * (bound to a host engine) are never resolved here. */
    void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    if (!h) {
        printf("bench_cuda: skipped: %s\n", dlerror());
        return 0;
    }
    ta_device_entry_fn entry;
    void *sym = dlsym(h, TA_DEVICE_ENTRY);
    if (!sym) {
        printf("bench_cuda: skipped: no %s in %s\n", TA_DEVICE_ENTRY, path);
        return 0;
    }
    memcpy(&entry, &sym, sizeof entry);
    const ta_device_ops *ops = entry();
    if (ops->available(err, sizeof err) != 0) {
        printf("bench_cuda: skipped: %s\n", err);
        return 0;
    }
    const size_t sizes[] = {1u << 20, 64u << 20, 1u << 30};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        void *a = ops->alloc(n, err, sizeof err), *b = ops->alloc(n, err, sizeof err);
        if (!a || !b) {
            printf("%8zu MB: cannot allocate (%s)\n", n >> 20, err);
            if (a) ops->release(a);
            break;
        }
        unsigned char *host = calloc(1, n);
        ops->from_host(a, host, n, err, sizeof err);
        ops->copy(b, a, n, err, sizeof err);
        ops->sync(err, sizeof err);
        int reps = n <= (1u << 20) ? 200 : n <= (64u << 20) ? 20 : 4;
        double t0 = bench_now();
        for (int r = 0; r < reps; r++) ops->copy(b, a, n, err, sizeof err);
        ops->sync(err, sizeof err);
        double tcopy = (bench_now() - t0) / reps;
        size_t first = 0;
        t0 = bench_now();
        for (int r = 0; r < reps; r++) ops->compare(a, b, n, &first, err, sizeof err);
        double tcmp = (bench_now() - t0) / reps;
        printf("%8zu MB: snapshot %9.1f us (%6.1f GB/s)   compare %9.1f us (%6.1f GB/s)%s\n", n >> 20,
               tcopy * 1e6, (double)n / tcopy / 1e9, tcmp * 1e6, 2.0 * (double)n / tcmp / 1e9,
               first == SIZE_MAX ? "" : "  (MISMATCH?)");
        free(host);
        ops->release(a);
        ops->release(b);
    }
    return 0;
}
