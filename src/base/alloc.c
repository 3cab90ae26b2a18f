/* alloc.c - the allocation calls (see alloc.h): string copies built on
 * ta_malloc, and the failure injection of the fault-test build. */
#include <execinfo.h>
#include <stdio.h>
#include <sys/mman.h>

#include "base/alloc.h"

#ifdef TA_FAULT_INJECT
/* Test builds only: the library's one piece of global mutable state, the
 * allocation counter the fault tests drive. */
static long fault_at, fault_count;
static bool fault_fired;

void ta_fault_arm(long n)
{
    fault_at = n;
    fault_count = 0;
    fault_fired = false;
}

long ta_fault_count(void) { return fault_count; }
bool ta_fault_fired(void) { return fault_fired; }

/* TA_FAULT_TRACE=1 prints where the failing allocation was made. */
static void trace(void)
{
    void *frames[24];
    int n = backtrace(frames, 24);
    backtrace_symbols_fd(frames, n, 2);
}

static bool fails(void)
{
    if (++fault_count != fault_at || !fault_at) return false;
    fault_fired = true;
    if (getenv("TA_FAULT_TRACE")) trace();
    return true;
}

void *ta_malloc(size_t n) { return fails() ? NULL : malloc(n); }
void *ta_calloc(size_t n, size_t size) { return fails() ? NULL : calloc(n, size); }
void *ta_realloc(void *p, size_t n) { return fails() ? NULL : realloc(p, n); }
void *ta_aligned_alloc(size_t align, size_t n) { return fails() ? NULL : aligned_alloc(align, n); }
#endif

void *ta_malloc_pages(size_t *n)
{
    const size_t huge = (size_t)1 << 21;
    if (*n < huge / 2 || *n > 4 * huge) return ta_malloc(*n);
    size_t size = (*n + huge - 1) & ~(huge - 1);
    void *p = ta_aligned_alloc(huge, size);
    if (!p) return NULL;
    madvise(p, size, MADV_HUGEPAGE);
    *n = size;
    return p;
}

char *ta_strndup(const char *s, size_t n)
{
    const char *nul = memchr(s, '\0', n);
    size_t len = nul ? (size_t)(nul - s) : n;
    char *d = ta_malloc(len + 1);
    if (!d) return NULL;
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

char *ta_strdup(const char *s) { return ta_strndup(s, strlen(s)); }

char *ta_vformat(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *s = n < 0 ? NULL : ta_malloc((size_t)n + 1);
    if (s) vsnprintf(s, (size_t)n + 1, fmt, again);
    va_end(again);
    return s;
}
