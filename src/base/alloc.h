/* alloc.h - the library's allocation calls.
 *
 * Every malloc, calloc, realloc and string copy of the library (src/schema,
 * src/alias, src/exec) goes through these, so that a test build can make
 * any one of them fail, as SQLite's test harness does: compiled with
 * -DTA_FAULT_INJECT (`make fault`), allocation number N after
 * ta_fault_arm(N) returns NULL, and tests/fault/ checks that every N ends
 * in a clean TA_ERR_NOMEM. In every other build these are the C library's
 * own, inlined, and the library keeps no state for them. Memory from them
 * is freed with free(). Allocations made inside libyaml, igraph and jansson
 * are theirs and are not counted (they fail through their own paths).
 */
#ifndef TA_BASE_ALLOC_H
#define TA_BASE_ALLOC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#ifdef TA_FAULT_INJECT
void *ta_malloc(size_t n);
void *ta_calloc(size_t n, size_t size);
void *ta_realloc(void *p, size_t n);
void *ta_aligned_alloc(size_t align, size_t n);

/* Fails allocation number n (from 1) counted from this call; 0 disarms. */
void ta_fault_arm(long n);
/* Allocations counted since the last ta_fault_arm. */
long ta_fault_count(void);
/* Whether the armed failure has happened. */
bool ta_fault_fired(void);
#else
static inline void *ta_malloc(size_t n) { return malloc(n); }
static inline void *ta_calloc(size_t n, size_t size) { return calloc(n, size); }
static inline void *ta_realloc(void *p, size_t n) { return realloc(p, n); }
/* n a multiple of align, a power of two (C11's aligned_alloc). */
static inline void *ta_aligned_alloc(size_t align, size_t n) { return aligned_alloc(align, n); }
#endif

/* At least *n bytes, *n raised to what was allocated, freed with free().
 * From 1 to 8 MiB it is a whole number of transparent huge pages, aligned
 * to one and advised as such: filling it costs a page fault per 2 MiB
 * rather than one per 4 KiB (where the kernel has no huge pages, the advice
 * is ignored). Larger blocks stay in small pages: hundreds of huge pages
 * took the kernel three times the system time of the same memory in small
 * ones (check of a 60 MB yaml: 1.0 s against 0.3 s). For memory that will
 * be filled soon. */
void *ta_malloc_pages(size_t *n);

/* A copy of s[0..n) (at most n bytes, up to a NUL), NUL-terminated. */
char *ta_strndup(const char *s, size_t n);
char *ta_strdup(const char *s);
/* A printf-formatted string (free() it), or NULL. */
char *ta_vformat(const char *fmt, va_list ap);

#endif
