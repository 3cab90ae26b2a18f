/* device.cu - the CUDA device behind tensoralias/device.h (exported as tensoralias_device).
 *
 * Storage is plain cudaMalloc memory, so the engine can compare device
 * pointers as addresses to find overlaps. Snapshots and comparisons stay on
 * the device: compare runs a kernel that finds the first differing byte by an
 * atomicMin over the differing words, so checking a 1 GB tensor copies 8
 * bytes to the host. sync turns an asynchronous fault (illegal address,
 * launch failure) into a message the engine reports as a verdict.
 *
 * `available` probes the driver in a forked child: CUDA cannot be used in a
 * child forked after the parent initialised it, and the engine runs every
 * operator in a forked child, so the parent must never initialise CUDA.
 * (A process that already uses CUDA is asked directly.)
 *
 * Under TA_CUDA_EMULATE (ta_cu_emulated) every operation runs on the host
 * instead, the comparison as the kernel's threads one after another.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "cuda/cuda_iface.h"
#include "tensoralias/device.h"

int ta_cu_fail(char *err, size_t errcap, const char *fmt, ...)
{
    if (err && errcap > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errcap, fmt, ap);
        va_end(ap);
    }
    return 1;
}

/* ---- available ---------------------------------------------------------- */

/* What the child reports through the pipe. */
typedef struct probe_result {
    int count;
    int error;        /* cudaError_t */
    int driver_found; /* libcuda.so.1 was loaded by the runtime */
    char message[200];
} probe_result;

static void probe_here(probe_result *r)
{
    memset(r, 0, sizeof *r);
    cudaError_t e = cudaGetDeviceCount(&r->count);
    r->error = (int)e;
    if (e != cudaSuccess) {
        r->count = 0;
        snprintf(r->message, sizeof r->message, "%s", cudaGetErrorString(e));
    }
    /* The runtime dlopens the driver; if it is not loaded now it is not installed. */
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    r->driver_found = h != NULL;
    if (h) dlclose(h);
}

static int read_all(int fd, void *buf, size_t n)
{
    char *p = (char *)buf;
    while (n > 0) {
        ssize_t k = read(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static int verdict(const probe_result *r, char *err, size_t errcap)
{
    if (r->error != cudaSuccess)
        return ta_cu_fail(err, errcap, "no CUDA device is available (cudaGetDeviceCount: %s%s)", r->message,
                    r->driver_found ? "" : "; the CUDA driver libcuda.so.1 is not installed");
    if (r->count == 0)
        return ta_cu_fail(err, errcap, "no CUDA device is available (cudaGetDeviceCount: 0 devices)");
    return 0;
}

static int cuda_available(char *err, size_t errcap)
{
    if (ta_cu_emulated()) return 0;
    probe_result r;
    /* A process that has the driver loaded already uses CUDA: asking here
     * changes nothing for it (and a child forked now could not answer). */
    void *loaded = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (loaded) {
        dlclose(loaded);
        probe_here(&r);
        return verdict(&r, err, errcap);
    }
    int fds[2];
    if (pipe(fds) != 0) return ta_cu_fail(err, errcap, "no CUDA device is available (cannot probe: pipe failed)");
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return ta_cu_fail(err, errcap, "no CUDA device is available (cannot probe: fork failed)");
    }
    if (pid == 0) {
        /* The child: probe, report, and leave without running the parent's
         * atexit handlers (_exit, never exit). */
        close(fds[0]);
        probe_here(&r);
        ssize_t w = write(fds[1], &r, sizeof r);
        _exit(w == (ssize_t)sizeof r ? 0 : 1);
    }
    close(fds[1]);
    int got = read_all(fds[0], &r, sizeof r);
    close(fds[0]);
    /* ECHILD (the host reaps children itself) leaves status at 0. */
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (got != 0)
        return ta_cu_fail(err, errcap, "no CUDA device is available (cudaGetDeviceCount: the probe %s)",
                    WIFSIGNALED(status) ? "crashed" : "did not answer");
    return verdict(&r, err, errcap);
}

/* ---- memory ------------------------------------------------------------- */

static void *cuda_alloc(size_t bytes, char *err, size_t errcap)
{
    void *p = NULL;
    if (ta_cu_emulated()) {
        p = calloc(1, bytes ? bytes : 1);
        if (!p) ta_cu_fail(err, errcap, "emulated allocation of %zu bytes failed", bytes);
        return p;
    }
    /* cudaMalloc(0) gives NULL; the engine wants a distinct address per storage. */
    cudaError_t e = cudaMalloc(&p, bytes ? bytes : 1);
    if (e != cudaSuccess) {
        ta_cu_fail(err, errcap, "cudaMalloc of %zu bytes failed: %s", bytes, cudaGetErrorString(e));
        return NULL;
    }
    return p;
}

static void cuda_release(void *p)
{
    if (!p) return;
    if (ta_cu_emulated()) free(p);
    else cudaFree(p);
}

static int memcpy_kind(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, const char *what,
                       char *err, size_t errcap)
{
    if (bytes == 0) return 0;
    if (ta_cu_emulated()) {
        memmove(dst, src, bytes);
        return 0;
    }
    cudaError_t e = cudaMemcpy(dst, src, bytes, kind);
    if (e != cudaSuccess)
        return ta_cu_fail(err, errcap, "%s of %zu bytes failed: %s", what, bytes, cudaGetErrorString(e));
    return 0;
}

static int cuda_to_host(void *dst, const void *src, size_t bytes, char *err, size_t errcap)
{
    return memcpy_kind(dst, src, bytes, cudaMemcpyDeviceToHost, "copy to host", err, errcap);
}

static int cuda_from_host(void *dst, const void *src, size_t bytes, char *err, size_t errcap)
{
    return memcpy_kind(dst, src, bytes, cudaMemcpyHostToDevice, "copy from host", err, errcap);
}

static int cuda_copy(void *dst, const void *src, size_t bytes, char *err, size_t errcap)
{
    return memcpy_kind(dst, src, bytes, cudaMemcpyDeviceToDevice, "device copy", err, errcap);
}

/* ---- compare ------------------------------------------------------------ */

/* Index of the first differing byte of two little-endian words known to differ. */
__host__ __device__ static unsigned long long first_byte_in_word(unsigned long long x, unsigned long long y)
{
#ifdef __CUDA_ARCH__
    return (unsigned long long)(__ffsll((long long)(x ^ y)) - 1) / 8u;
#else
    return (unsigned long long)__builtin_ctzll(x ^ y) / 8u;
#endif
}

__host__ __device__ static unsigned long long load_word(const unsigned char *p)
{
#ifdef __CUDA_ARCH__
    return *(const unsigned long long *)p;
#else
    unsigned long long v;
    memcpy(&v, p, sizeof v);
    return v;
#endif
}

__host__ __device__ static void lower_first(unsigned long long *first, unsigned long long v)
{
#ifdef __CUDA_ARCH__
    atomicMin(first, v);
#else
    if (v < *first) *first = v;
#endif
}

/* One thread's share of the comparison: words when both pointers are 8-byte
 * aligned, then the tail bytes, each thread taking every step-th unit from
 * tid. Every 64th unit a thread looks whether a difference before its
 * position is already known and stops if so: an early difference ends the
 * scan quickly, and equal buffers cost one pass plus a few reads of the
 * result slot. */
__host__ __device__ static void scan(const unsigned char *a, const unsigned char *b, unsigned long long bytes,
                                     int aligned, unsigned long long tid, unsigned long long step,
                                     unsigned long long *first)
{
    unsigned long long words = aligned ? bytes / 8u : 0;
    unsigned k = 0;
    for (unsigned long long w = tid; w < words; w += step, k++) {
        if ((k & 63u) == 0 && w * 8u >= *(volatile unsigned long long *)first) return;
        unsigned long long x = load_word(a + w * 8u), y = load_word(b + w * 8u);
        if (x != y) {
            lower_first(first, w * 8u + first_byte_in_word(x, y));
            return;
        }
    }
    k = 0;
    for (unsigned long long i = words * 8u + tid; i < bytes; i += step, k++) {
        if ((k & 63u) == 0 && i >= *(volatile unsigned long long *)first) return;
        if (a[i] != b[i]) {
            lower_first(first, i);
            return;
        }
    }
}

__global__ static void compare_kernel(const unsigned char *a, const unsigned char *b, unsigned long long bytes,
                                      int aligned, unsigned long long *first)
{
    scan(a, b, bytes, aligned, blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x,
         (unsigned long long)gridDim.x * blockDim.x, first);
}

/* The 8-byte result slot: stream-ordered from the device's pool when it has
 * one (no device-wide synchronisation per comparison), else cudaMalloc. */
static cudaError_t result_alloc(unsigned long long **p, bool *pooled)
{
    int pools = 0, dev = 0;
    *pooled = cudaGetDevice(&dev) == cudaSuccess &&
              cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, dev) == cudaSuccess && pools;
    if (*pooled) return cudaMallocAsync((void **)p, sizeof **p, 0);
    return cudaMalloc((void **)p, sizeof **p);
}

static int cuda_compare(const void *a, const void *b, size_t bytes, size_t *first, char *err, size_t errcap)
{
    *first = SIZE_MAX;
    if (bytes == 0 || a == b) return 0;
    int aligned = ((uintptr_t)a % 8u == 0) && ((uintptr_t)b % 8u == 0);
    if (ta_cu_emulated()) {
        /* The kernel's threads, one after another. */
        unsigned long long h = ~0ull, threads = 1000;
        for (unsigned long long t = 0; t < threads; t++)
            scan((const unsigned char *)a, (const unsigned char *)b, bytes, aligned, t, threads, &h);
        *first = h == ~0ull ? SIZE_MAX : (size_t)h;
        return 0;
    }
    unsigned long long *d_first = NULL, h_first = ~0ull;
    bool pooled = false;
    cudaError_t e = result_alloc(&d_first, &pooled);
    if (e != cudaSuccess) return ta_cu_fail(err, errcap, "compare: allocation failed: %s", cudaGetErrorString(e));
    e = cudaMemcpy(d_first, &h_first, sizeof h_first, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) {
        unsigned long long units = aligned ? bytes / 8u + 8u : bytes;
        unsigned long long blocks = (units + 255u) / 256u;
        if (blocks > 4096u) blocks = 4096u; /* grid-stride beyond that */
        compare_kernel<<<(unsigned)blocks, 256>>>((const unsigned char *)a, (const unsigned char *)b, bytes,
                                                  aligned, d_first);
        e = cudaGetLastError();
        if (e == cudaSuccess) e = cudaMemcpy(&h_first, d_first, sizeof h_first, cudaMemcpyDeviceToHost);
    }
    cudaError_t f = pooled ? cudaFreeAsync(d_first, 0) : cudaFree(d_first);
    if (e == cudaSuccess) e = f;
    if (e != cudaSuccess) return ta_cu_fail(err, errcap, "compare on the device failed: %s", cudaGetErrorString(e));
    *first = h_first == ~0ull ? SIZE_MAX : (size_t)h_first;
    return 0;
}

/* ---- sync --------------------------------------------------------------- */

static int cuda_sync(char *err, size_t errcap)
{
    if (ta_cu_emulated()) return 0;
    cudaError_t e = cudaDeviceSynchronize();
    cudaError_t last = cudaGetLastError();
    if (e == cudaSuccess) e = last;
    if (e != cudaSuccess)
        return ta_cu_fail(err, errcap, "CUDA error: %s (%s)", cudaGetErrorString(e), cudaGetErrorName(e));
    return 0;
}

/* ---- the fault hook and the entry point ---------------------------------- */

__global__ static void fault_kernel(int *p)
{
    p[threadIdx.x] = 42;
}

extern "C" int ta_cuda_debug_fault(char *err, size_t errcap)
{
    if (ta_cu_emulated()) return ta_cu_fail(err, errcap, "no device to fault under TA_CUDA_EMULATE");
    /* An address no allocation covers: the write faults asynchronously. */
    fault_kernel<<<1, 32>>>((int *)(uintptr_t)0x10);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return ta_cu_fail(err, errcap, "fault kernel did not launch: %s", cudaGetErrorString(e));
    return 0;
}

static const ta_device_ops cuda_ops = {
    TA_DEVICE_ABI_VERSION,
    "cuda",
    kDLCUDA,
    cuda_available,
    cuda_alloc,
    cuda_release,
    cuda_to_host,
    cuda_from_host,
    cuda_copy,
    cuda_compare,
    cuda_sync,
};

extern "C" __attribute__((visibility("default"))) const ta_device_ops *tensoralias_device(void)
{
    return &cuda_ops;
}
