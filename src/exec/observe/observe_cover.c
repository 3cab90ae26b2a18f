/* observe_cover.c - which bytes of a storage a kernel may change: the bytes
 * of the elements of every written argument's view on it, with the geometry
 * the argument had before the call and, after a declared resize or restride,
 * the one it has now. Everything else in the storage (the gaps of a strided
 * or sliced view, the bytes before a view's offset and after its end) belongs
 * to no written argument, and a change there is an undeclared mutation.
 *
 * Views that fill their byte range exactly (contiguous or permuted, the
 * usual case) are intervals, and the bytes between them are compared with
 * memcmp; only a storage holding another kind of written view (sliced,
 * broadcast) gets a byte mask of its elements. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "exec/observe/observe.h"

enum { MAX_SPANS = 2 * TA_CASE_MAX_SLOTS };

typedef struct span {
    uint64_t lo, hi;
} span;

/* Whether t's elements fill [lo, hi) of its byte range exactly, each byte once. */
static bool is_dense(const DLTensor *t)
{
    int64_t st[TA_CASE_MAX_DIM], n = ta_numel(t);
    if (t->ndim > TA_CASE_MAX_DIM) return false;
    if (n <= 1) return true;
    ta_strides_of(t, st);
    bool used[TA_CASE_MAX_DIM] = {false};
    int64_t expect = 1;
    for (int k = 0; k < t->ndim; k++) {
        /* The unused dimension of size > 1 with the smallest stride must
         * step exactly over everything the smaller ones cover. */
        int best = -1;
        for (int d = 0; d < t->ndim; d++)
            if (!used[d] && t->shape[d] > 1 && (best < 0 || st[d] < st[best])) best = d;
        if (best < 0) break;
        if (st[best] != expect) return false;
        used[best] = true;
        expect *= t->shape[best];
    }
    return true;
}

static int cmp_span(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Marks the bytes of t's elements in mask (bytes long). */
static void mark_elements(const DLTensor *t, unsigned char *mask, size_t bytes)
{
    int64_t n = ta_numel(t), es = (int64_t)ta_dtype_size(t->dtype);
    for (int64_t i = 0; i < n; i++) {
        int64_t off = ta_elem_offset(t, i);
        if (off >= 0 && off + es <= (int64_t)bytes) memset(mask + off, 1, (size_t)es);
    }
}

/* The views of written arguments on sid: dense ones as spans (sorted), the
 * others marked in *mask (allocated when there is one). false when out of
 * memory. */
static bool writer_views(ta_exec *x, const ta_case *c, const ta_decl *d, uint32_t sid, size_t bytes,
                         span *spans, int *nspans, unsigned char **mask)
{
    *nspans = 0;
    *mask = NULL;
    for (int i = 0; i < c->nslots; i++) {
        const ta_case_slot *sl = &c->slots[i];
        if (!d->args[sl->arg].write) continue;
        const DLTensor *views[2] = {sl->storage == sid ? &sl->before : NULL,
                                    ta_exec_storage_of(x, sl->t) == sid ? sl->t : NULL};
        for (int k = 0; k < 2; k++) {
            const DLTensor *v = views[k];
            if (!v || ta_numel(v) <= 0) continue;
            if (is_dense(v) && *nspans < MAX_SPANS) {
                ta_tensor_byte_range(v, &spans[*nspans].lo, &spans[*nspans].hi);
                (*nspans)++;
                continue;
            }
            if (!*mask && !(*mask = ta_calloc(bytes ? bytes : 1, 1))) return false;
            mark_elements(v, *mask, bytes);
        }
    }
    qsort(spans, (size_t)*nspans, sizeof *spans, cmp_span);
    return true;
}

/* First byte of [lo, hi) where before (NULL: all TA_FILL_BYTE) and after
 * differ and mask (when given) is clear, or -1. */
static int64_t first_change(const unsigned char *before, const unsigned char *after,
                            const unsigned char *mask, size_t lo, size_t hi)
{
    if (lo >= hi) return -1;
    if (!mask && before && !memcmp(before + lo, after + lo, hi - lo)) return -1;
    for (size_t b = lo; b < hi; b++) {
        bool changed = before ? before[b] != after[b] : after[b] != TA_FILL_BYTE;
        if (changed && !(mask && mask[b])) return (int64_t)b;
    }
    return -1;
}

int64_t ta_first_uncovered_change(ta_exec *x, const ta_case *c, const ta_decl *d, uint32_t sid,
                                  const unsigned char *before, const unsigned char *after,
                                  size_t bytes)
{
    span spans[MAX_SPANS];
    int nspans;
    unsigned char *mask;
    if (!writer_views(x, c, d, sid, bytes, spans, &nspans, &mask)) return -1;
    int64_t found = -1;
    size_t from = 0;
    for (int k = 0; k <= nspans && found < 0; k++) {
        size_t to = k < nspans ? (size_t)spans[k].lo : bytes;
        if (to > bytes) to = bytes;
        found = first_change(before, after, mask, from, to);
        if (k < nspans && spans[k].hi > from) from = (size_t)spans[k].hi;
    }
    free(mask);
    return found;
}
