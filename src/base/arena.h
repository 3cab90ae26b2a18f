/* arena.h - the library's own ways into a ta_arena (arena.c), beside the
 * public ta_arena_alloc (zeroed, 16-byte aligned): nodes made only of
 * pointers and integers need 8, and memory the caller fills in whole need
 * not be cleared first. Not public. */
#ifndef TA_BASE_ARENA_H
#define TA_BASE_ARENA_H

#include <stddef.h>

#include "tensoralias/schema.h"

/* size bytes, 8-byte aligned, cleared; NULL on OOM. */
void *ta_arena_zalloc(ta_arena *a, size_t size);
/* size bytes, 8-byte aligned, not cleared: every byte is the caller's to
 * write. NULL on OOM. */
void *ta_arena_take(ta_arena *a, size_t size);
/* "ns::" then s[0..len), NUL-terminated (just the copy when ns is NULL):
 * an operator's name or schema under its namespace. NULL on OOM. */
char *ta_arena_qualified(ta_arena *a, const char *ns, const char *s, size_t len);
/* The arena is about to hold some size bytes more: its next chunk is made
 * that large at once (up to the largest chunk size), rather than grown to
 * it step by step with a page fault for every page. */
void ta_arena_expect(ta_arena *a, size_t size);

#endif
