/* tensoralias/device.h - the device interface between the exec engine and a
 * device backend: what a device library (libtensoralias_cuda.so, or a test's
 * fake device) implements and exports.
 *
 * The engine allocates, snapshots and compares storage only through these
 * operations, so a device whose memory the host cannot read (CUDA) plugs in
 * without the engine copying whole tensors to the host. The CPU device is
 * built into the engine; the CUDA device is a shared library
 * (libtensoralias_cuda.so) exporting TA_DEVICE_ENTRY, loaded only when asked
 * for, so the core library has no CUDA dependency.
 *
 * Every operation returns 0 on success, or non-zero with a message in err
 * (at most errcap bytes, NUL-terminated) when errcap > 0. A device reports
 * into a plain buffer rather than a ta_diags list: it runs in the engine's
 * hot path (every allocation, snapshot and comparison of every case) and in
 * child processes, and the engine turns what it says into a diagnostic or a
 * verdict where it matters (ta_exec_device_load, ta_exec_call).
 */
#ifndef TENSORALIAS_DEVICE_H
#define TENSORALIAS_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include <dlpack/dlpack.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TA_DEVICE_ABI_VERSION 1u
#define TA_DEVICE_ENTRY "tensoralias_device"

typedef struct ta_device_ops {
    uint32_t abi_version;     /* TA_DEVICE_ABI_VERSION */
    const char *name;         /* "cpu", "cuda" */
    DLDeviceType type;        /* kDLCPU, kDLCUDA */
    /* 0 when a device can be used; otherwise why not ("no CUDA device is available"). */
    int (*available)(char *err, size_t errcap);
    void *(*alloc)(size_t bytes, char *err, size_t errcap);
    void (*release)(void *p);
    int (*to_host)(void *dst, const void *src, size_t bytes, char *err, size_t errcap);
    int (*from_host)(void *dst, const void *src, size_t bytes, char *err, size_t errcap);
    int (*copy)(void *dst, const void *src, size_t bytes, char *err, size_t errcap);
    /* Sets *first to the index of the first byte where a and b (both device
     * memory, bytes long) differ, or to SIZE_MAX when they are equal. Done on
     * the device. */
    int (*compare)(const void *a, const void *b, size_t bytes, size_t *first,
                   char *err, size_t errcap);
    /* Waits for the device and reports any asynchronous error (an illegal
     * address, a launch failure) raised since the last call. */
    int (*sync)(char *err, size_t errcap);
} ta_device_ops;

/* What a device library exports under TA_DEVICE_ENTRY. */
typedef const ta_device_ops *(*ta_device_entry_fn)(void);

#ifdef __cplusplus
}
#endif
#endif
