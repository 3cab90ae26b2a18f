/* grow.c - growing an array by doubling (see grow.h). */
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/grow.h"

ta_status ta_grow(void **v, size_t *cap, size_t need, size_t elem, size_t first, ta_arena *arena)
{
    if (need <= *cap) return TA_OK;
    size_t c = *cap ? *cap : first ? first : 1;
    while (c < need) {
        if (c > SIZE_MAX / 2) return TA_ERR_NOMEM;
        c *= 2;
    }
    if (elem && c > SIZE_MAX / elem) return TA_ERR_NOMEM;
    void *nv;
    if (arena) {
        nv = ta_arena_zalloc(arena, c * elem);
        if (nv && *cap) memcpy(nv, *v, *cap * elem);
    } else {
        nv = ta_realloc(*v, c * elem);
    }
    if (!nv) return TA_ERR_NOMEM;
    *v = nv;
    *cap = c;
    return TA_OK;
}
