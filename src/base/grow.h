/* grow.h - the library's one way to grow an array: double its capacity
 * until the elements asked for fit.
 *
 * An array on the heap is grown with ta_realloc (so `make fault` can fail
 * it) and freed with free(). An array in an arena is grown by taking a
 * larger block from the arena and copying the elements over: the old block
 * (in the arena, or the caller's own first array on the stack) is left as
 * it was. New elements are zeroed in an arena and unspecified on the heap.
 * Not public. */
#ifndef TA_BASE_GROW_H
#define TA_BASE_GROW_H

#include <stddef.h>

#include "tensoralias/schema.h"

/* Room for at least `need` elements of `elem` bytes in *v, which holds
 * *cap of them: the capacity doubles (from `first` when it is 0) until
 * need fits. arena NULL: *v is on the heap. TA_ERR_NOMEM leaves *v and
 * *cap as they were. */
ta_status ta_grow(void **v, size_t *cap, size_t need, size_t elem, size_t first, ta_arena *arena);

/* The common case: room for one more element after the n an array on the
 * heap holds (arr an lvalue of pointer type, cap a size_t lvalue). */
#define TA_GROW_ONE(arr, n, cap, first) \
    ((n) < (cap) ? TA_OK : ta_grow((void **)&(arr), &(cap), (size_t)(n) + 1, sizeof *(arr), (first), NULL))

#endif
