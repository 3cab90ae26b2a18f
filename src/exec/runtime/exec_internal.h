/* exec_internal.h - the execution context's inner structures, shared by the
 * files of src/exec that observe and verify what kernels do. */
#ifndef TA_EXEC_INTERNAL_H
#define TA_EXEC_INTERNAL_H

#include <unistd.h>

#include "tensoralias/device.h"
#include "tensoralias/exec.h"

/* The byte the engine fills fresh storage with (out= arguments, resize
 * growth): a kernel that writes an element almost surely changes it. */
#define TA_FILL_BYTE 0xA5

/* The largest storage the engine makes (1 GiB). No case comes near it; a
 * kernel asking for more on one (an operator whose output is quadratic in
 * a large input, such as kron) gets no memory instead of filling the
 * machine's, and its case is rejected rather than timed out. */
#define TA_STORAGE_MAX_BYTES ((size_t)1 << 30)

typedef struct ta_storage_rec {
    void *base;
    size_t bytes;
    bool readonly;
} ta_storage_rec;

typedef struct ta_tensor_rec {
    DLTensor t; /* first: a DLTensor* the engine hands out is a ta_tensor_rec* */
    uint32_t storage;
    int cap;       /* dimensions dims can hold */
    int64_t *dims; /* shape[cap] then strides[cap] */
} ta_tensor_rec;

/* A kernel's message (ta_kernel_error) waits here until ta_exec_call turns
 * it into a diagnostic: kernels run in a child process, often many times
 * a second, and a fixed buffer costs them nothing. */
struct ta_kernel_ctx {
    ta_exec *x;
    void *user_data;
    bool has_error;
    const DLTensor *bad_geometry; /* ta_kernel_bad_geometry's tensor, or NULL */
    bool cannot_run;              /* ta_kernel_cannot_run: no input could run it here */
    char error[1024];
};

/* Released CPU mappings kept for reuse by one context (device_cpu.c). */
enum { TA_CPU_CACHE_SLOTS = 16 };
typedef struct ta_cpu_cache {
    struct {
        char *map;
        size_t len;
        bool front;
    } e[TA_CPU_CACHE_SLOTS];
    size_t n, bytes;
} ta_cpu_cache;

struct ta_exec {
    const ta_device_ops *dev;
    ta_storage_rec *st; /* storage id i lives at st[i - 1] */
    size_t nst, capst;
    ta_tensor_rec **tr; /* tensors handed out; records are reused across resets */
    size_t ntr, captr;
    void **scratch; /* tensor arrays handed to kernels */
    size_t nscratch, capscratch;
    ta_kernel_ctx ctx;
    ta_stack *stack;
    size_t page;
    /* The device's sync reported an error after a kernel. On CUDA such a
     * fault (an illegal address) is sticky: the context, and so every later
     * allocation or copy in this process, fails. Never cleared. */
    bool device_lost;
    /* Bit (id - 1) % 64: storage id's data lies against a guard page at its
     * front rather than its back (CPU only; the observer draws it per case). */
    uint64_t placement;
    ta_cpu_cache cpu_cache; /* the CPU device's storages released by resets */
};

ta_tensor_rec *ta_exec_rec_of(const ta_exec *x, const DLTensor *t);
/* The tensor the last call's kernel reported left past its storage's end
 * (ta_kernel_bad_geometry), or NULL. */
const DLTensor *ta_exec_bad_geometry(const ta_exec *x);
/* Whether the last call was refused with ta_kernel_cannot_run. */
bool ta_exec_cannot_run(const ta_exec *x);
/* Fills n bytes of device memory at dst with TA_FILL_BYTE; 0, or -1 when the
 * device refused. */
int ta_exec_fill_marker(ta_exec *x, char *dst, size_t n);

/* The CPU device's allocation with the data against a guard page at its
 * front (its start faults when reached from below) or at its back (the
 * default: its end does); and whether the header before a back allocation,
 * which a write just before the data damages, is intact (device_cpu.c). */
void *ta_cpu_alloc_at(size_t bytes, bool front, char *err, size_t errcap);
bool ta_cpu_header_intact(const void *p);
/* The same, reusing a mapping of the same length and layout that cache
 * holds (zeroed as a fresh one, its guard pages in place) when there is one;
 * and release into the cache (the oldest kept mappings unmapped to make
 * room); and the cache emptied. */
void *ta_cpu_alloc_cached(ta_cpu_cache *cache, size_t bytes, bool front, char *err, size_t errcap);
void ta_cpu_release_cached(ta_cpu_cache *cache, void *p);
void ta_cpu_cache_clear(ta_cpu_cache *cache);

/* Replaces the value at i of the stack (its lists copied as a push copies
 * them): TA_ERR_INVALID past the end (stack.c). */
ta_status ta_stack_set(ta_stack *st, size_t i, ta_value v);

/* How specific a verdict kind is (verdict.c): lower is more specific. */
int ta_verdict_kind_rank(ta_verdict_kind k);

/* Ends a forked child at once. A coverage build (TA_COVERAGE) first writes
 * the child's counts, which _exit would drop. */
#ifdef TA_COVERAGE
void __gcov_dump(void);
static inline _Noreturn void ta_child_exit(int code)
{
    __gcov_dump();
    _exit(code);
}
#else
static inline _Noreturn void ta_child_exit(int code) { _exit(code); }
#endif

#endif
