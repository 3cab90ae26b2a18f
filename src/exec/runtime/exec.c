/* exec.c - the execution context: storages allocated through a device, the
 * tensors over them, and the run-time half of the kernel ABI (kernel.h):
 * ta_kernel_empty/view/restride/resize/tensor_array/error.
 *
 * Every DLTensor the engine hands out is the head of a ta_tensor_rec that
 * names its storage, so after a call the engine knows which storage each
 * output shares. Everything belongs to the context until ta_exec_reset; tensor
 * records are kept for reuse, since a verification run makes millions. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/grow.h"
#include "exec/runtime/exec_internal.h"

ta_status ta_exec_create(const struct ta_device_ops *dev, ta_exec **out)
{
    ta_exec *x = *out = ta_calloc(1, sizeof *x);
    if (!x) return TA_ERR_NOMEM;
    x->dev = dev ? dev : ta_exec_device_cpu();
    x->ctx.x = x;
    x->page = (size_t)sysconf(_SC_PAGESIZE);
    if (ta_stack_create(&x->stack) != TA_OK) {
        free(x);
        *out = NULL;
        return TA_ERR_NOMEM;
    }
    return TA_OK;
}

void ta_exec_reset(ta_exec *x)
{
    for (size_t i = 0; i < x->nst; i++) {
        if (x->st[i].readonly) ta_exec_protect(x, (uint32_t)(i + 1), false);
        if (x->dev == ta_exec_device_cpu()) ta_cpu_release_cached(&x->cpu_cache, x->st[i].base);
        else x->dev->release(x->st[i].base);
    }
    x->nst = 0;
    x->ntr = 0;
    for (size_t i = 0; i < x->nscratch; i++) free(x->scratch[i]);
    x->nscratch = 0;
    ta_stack_reset(x->stack);
}

void ta_exec_destroy(ta_exec *x)
{
    if (!x) return;
    ta_exec_reset(x);
    ta_cpu_cache_clear(&x->cpu_cache);
    for (size_t i = 0; i < x->captr; i++) {
        if (!x->tr[i]) continue;
        free(x->tr[i]->dims);
        free(x->tr[i]);
    }
    free(x->tr);
    free(x->st);
    free(x->scratch);
    ta_stack_destroy(x->stack);
    free(x);
}

const struct ta_device_ops *ta_exec_device(const ta_exec *x) { return x->dev; }
ta_kernel_ctx *ta_exec_kernel_ctx(ta_exec *x) { return &x->ctx; }
ta_stack *ta_exec_stack(ta_exec *x) { return x->stack; }

/* ---- storages ---------------------------------------------------------- */

ta_status ta_exec_storage_new(ta_exec *x, size_t bytes, uint32_t *id)
{
    *id = 0;
    if (bytes > TA_STORAGE_MAX_BYTES) return TA_ERR_NOMEM;
    if (TA_GROW_ONE(x->st, x->nst, x->capst, 16) != TA_OK) return TA_ERR_NOMEM;
    char err[256];
    bool front = (x->placement >> (x->nst % 64)) & 1;
    void *p = x->dev != ta_exec_device_cpu() ? x->dev->alloc(bytes, err, sizeof err)
                                             : ta_cpu_alloc_cached(&x->cpu_cache, bytes, front, err, sizeof err);
    if (!p) return TA_ERR_NOMEM;
    x->st[x->nst] = (ta_storage_rec){p, bytes, false};
    *id = (uint32_t)++x->nst;
    return TA_OK;
}

size_t ta_exec_storage_count(const ta_exec *x) { return x->nst; }

bool ta_exec_storage_get(const ta_exec *x, uint32_t id, ta_storage_info *out)
{
    if (id == 0 || id > x->nst) return false;
    const ta_storage_rec *s = &x->st[id - 1];
    *out = (ta_storage_info){id, s->base, s->bytes, s->readonly};
    return true;
}

uint32_t ta_exec_storage_at(const ta_exec *x, const void *p)
{
    uintptr_t a = (uintptr_t)p;
    for (size_t i = 0; i < x->nst; i++) {
        uintptr_t b = (uintptr_t)x->st[i].base;
        if (a >= b && (a < b + x->st[i].bytes || (x->st[i].bytes == 0 && a == b)))
            return (uint32_t)(i + 1);
    }
    return 0;
}

ta_status ta_exec_protect(ta_exec *x, uint32_t id, bool readonly)
{
    if (x->dev->type != kDLCPU) return TA_ERR_UNSUPPORTED;
    if (id == 0 || id > x->nst) return TA_ERR_INVALID;
    ta_storage_rec *s = &x->st[id - 1];
    if (s->bytes == 0) {
        s->readonly = readonly;
        return TA_OK;
    }
    uintptr_t lo = (uintptr_t)s->base & ~(uintptr_t)(x->page - 1);
    uintptr_t hi = ((uintptr_t)s->base + s->bytes + x->page - 1) & ~(uintptr_t)(x->page - 1);
    if (mprotect((void *)lo, hi - lo, readonly ? PROT_READ : PROT_READ | PROT_WRITE) != 0)
        return TA_ERR_INVALID;
    s->readonly = readonly;
    return TA_OK;
}

/* ---- tensors ----------------------------------------------------------- */

static int set_dims(ta_tensor_rec *r, int ndim, const int64_t *shape, const int64_t *strides)
{
    if (ndim > r->cap || !r->dims) { /* 0-dim tensors get arrays too: shape is never NULL */
        int cap = ndim < 8 ? 8 : ndim;
        int64_t *d = ta_malloc(2 * (size_t)cap * sizeof *d);
        if (!d) return -1;
        free(r->dims);
        r->dims = d;
        r->cap = cap;
    }
    int64_t *sh = r->dims, *sd = r->dims + r->cap;
    /* shape and strides may alias r's own arrays (restride of t with t->shape). */
    if (ndim) memmove(sh, shape, (size_t)ndim * sizeof *sh);
    if (strides) {
        if (ndim) memmove(sd, strides, (size_t)ndim * sizeof *sd);
    } else {
        int64_t s = 1;
        for (int d = ndim - 1; d >= 0; d--) {
            sd[d] = s;
            s *= sh[d];
        }
    }
    r->t.ndim = ndim;
    r->t.shape = sh;
    r->t.strides = sd;
    return 0;
}

/* Whether the geometry is well formed and fits in a storage of `bytes`. */
static bool fits(int ndim, const int64_t *shape, const int64_t *strides, uint64_t off,
                 DLDataType dt, size_t bytes)
{
    if (ndim < 0 || ndim > 64 || ta_dtype_size(dt) == 0) return false;
    if (ndim && !shape) return false;
    int64_t numel = 1;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] < 0) return false;
        if (shape[d] && numel > INT64_MAX / shape[d]) return false;
        numel *= shape[d];
    }
    if (numel == 0) return off <= bytes;
    int64_t st[64];
    DLTensor t = {.ndim = ndim, .shape = (int64_t *)shape, .dtype = dt, .byte_offset = off};
    if (strides) {
        memcpy(st, strides, (size_t)ndim * sizeof *st);
    } else {
        int64_t s = 1;
        for (int d = ndim - 1; d >= 0; d--) {
            st[d] = s;
            s *= shape[d];
        }
    }
    t.strides = st;
    for (int d = 0; d < ndim; d++)
        if (st[d] > INT64_MAX / 65536 || st[d] < -INT64_MAX / 65536) return false;
    int64_t mn = 0;
    for (int d = 0; d < ndim; d++)
        if (st[d] < 0) mn += (shape[d] - 1) * st[d];
    if ((int64_t)off + mn * (int64_t)ta_dtype_size(dt) < 0) return false;
    uint64_t lo, hi;
    ta_tensor_byte_range(&t, &lo, &hi);
    return hi <= bytes;
}

static ta_tensor_rec *new_rec(ta_exec *x)
{
    size_t had = x->captr;
    if (TA_GROW_ONE(x->tr, x->ntr, x->captr, 32) != TA_OK) return NULL;
    if (x->captr > had) memset(x->tr + had, 0, (x->captr - had) * sizeof *x->tr);
    ta_tensor_rec *r = x->tr[x->ntr];
    if (!r && !(r = x->tr[x->ntr] = ta_calloc(1, sizeof *r))) return NULL;
    x->ntr++;
    return r;
}

ta_status ta_exec_tensor(ta_exec *x, uint32_t storage, DLDataType dtype, int ndim, const int64_t *shape,
                         const int64_t *strides, uint64_t byte_offset, DLTensor **out)
{
    *out = NULL;
    if (storage == 0 || storage > x->nst) return TA_ERR_INVALID;
    if (!fits(ndim, shape, strides, byte_offset, dtype, x->st[storage - 1].bytes)) return TA_ERR_INVALID;
    ta_tensor_rec *r = new_rec(x);
    if (!r) return TA_ERR_NOMEM;
    if (set_dims(r, ndim, shape, strides) != 0) {
        x->ntr--;
        return TA_ERR_NOMEM;
    }
    r->storage = storage;
    r->t.data = x->st[storage - 1].base;
    r->t.device = (DLDevice){x->dev->type, 0};
    r->t.dtype = dtype;
    r->t.byte_offset = byte_offset;
    *out = &r->t;
    return TA_OK;
}

ta_status ta_exec_empty(ta_exec *x, DLDataType dtype, int ndim, const int64_t *shape, DLTensor **out)
{
    *out = NULL;
    if (ndim < 0 || ndim > 64 || (ndim && !shape)) return TA_ERR_INVALID;
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] < 0) return TA_ERR_INVALID;
        if (shape[d] && n > INT64_MAX / 16 / shape[d]) return TA_ERR_NOMEM;
        n *= shape[d];
    }
    uint32_t s;
    ta_status st = ta_exec_storage_new(x, (size_t)n * ta_dtype_size(dtype), &s);
    return st != TA_OK ? st : ta_exec_tensor(x, s, dtype, ndim, shape, NULL, 0, out);
}

ta_tensor_rec *ta_exec_rec_of(const ta_exec *x, const DLTensor *t)
{
    if (!t) return NULL;
    for (size_t i = x->ntr; i-- > 0;)
        if (&x->tr[i]->t == t) return x->tr[i];
    return NULL;
}

uint32_t ta_exec_storage_of(const ta_exec *x, const DLTensor *t)
{
    ta_tensor_rec *r = ta_exec_rec_of(x, t);
    return r ? r->storage : 0;
}

/* ---- the kernel ABI's run-time half ----------------------------------- */

/* Records a refusal's message: what every ta_kernel_* refusal does. */
static ta_status refuse(ta_kernel_ctx *ctx, const char *fmt, va_list ap)
{
    vsnprintf(ctx->error, sizeof ctx->error, fmt, ap);
    ctx->has_error = true;
    return TA_ERR_KERNEL;
}

ta_status ta_kernel_error(ta_kernel_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ta_status s = refuse(ctx, fmt, ap);
    va_end(ap);
    return s;
}

ta_status ta_kernel_bad_geometry(ta_kernel_ctx *ctx, const DLTensor *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ta_status s = refuse(ctx, fmt, ap);
    va_end(ap);
    ctx->bad_geometry = t;
    return s;
}

const DLTensor *ta_exec_bad_geometry(const ta_exec *x) { return x->ctx.bad_geometry; }

ta_status ta_kernel_cannot_run(ta_kernel_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ta_status s = refuse(ctx, fmt, ap);
    va_end(ap);
    ctx->cannot_run = true;
    return s;
}

bool ta_exec_cannot_run(const ta_exec *x) { return x->ctx.cannot_run; }

DLDevice ta_kernel_device(const ta_kernel_ctx *ctx) { return (DLDevice){ctx->x->dev->type, 0}; }

void *ta_kernel_user_data(const ta_kernel_ctx *ctx) { return ctx->user_data; }

ta_status ta_kernel_empty(ta_kernel_ctx *ctx, DLDataType dtype, int ndim, const int64_t *shape,
                          DLTensor **out)
{
    return ta_exec_empty(ctx->x, dtype, ndim, shape, out);
}

ta_status ta_kernel_view(ta_kernel_ctx *ctx, const DLTensor *base, int ndim, const int64_t *shape,
                         const int64_t *strides, uint64_t byte_offset, DLTensor **out)
{
    ta_tensor_rec *r = ta_exec_rec_of(ctx->x, base);
    if (!r) {
        *out = NULL;
        return TA_ERR_INVALID;
    }
    return ta_exec_tensor(ctx->x, r->storage, base->dtype, ndim, shape, strides, byte_offset, out);
}

ta_status ta_kernel_restride(ta_kernel_ctx *ctx, DLTensor *t, int ndim, const int64_t *shape,
                             const int64_t *strides, uint64_t byte_offset)
{
    ta_exec *x = ctx->x;
    ta_tensor_rec *r = ta_exec_rec_of(x, t);
    if (!r) return TA_ERR_INVALID;
    if (!fits(ndim, shape, strides, byte_offset, t->dtype, x->st[r->storage - 1].bytes))
        return TA_ERR_INVALID;
    if (set_dims(r, ndim, shape, strides) != 0) return TA_ERR_NOMEM;
    t->byte_offset = byte_offset;
    return TA_OK;
}

int ta_exec_fill_marker(ta_exec *x, char *dst, size_t n)
{
    if (!n) return 0;
    if (x->dev->type == kDLCPU) {
        memset(dst, TA_FILL_BYTE, n);
        return 0;
    }
    char *buf = ta_malloc(n);
    if (!buf) return -1;
    memset(buf, TA_FILL_BYTE, n);
    char err[256];
    int rc = x->dev->from_host(dst, buf, n, err, sizeof err);
    free(buf);
    return rc;
}

ta_status ta_kernel_resize(ta_kernel_ctx *ctx, DLTensor *t, int ndim, const int64_t *shape)
{
    ta_exec *x = ctx->x;
    ta_tensor_rec *r = ta_exec_rec_of(x, t);
    if (!r || ndim < 0 || ndim > 64 || (ndim && !shape)) return TA_ERR_INVALID;
    /* As torch's resize_: a tensor of that shape already is left alone. */
    if (ndim == t->ndim && (!ndim || !memcmp(shape, t->shape, (size_t)ndim * sizeof *shape)))
        return TA_OK;
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] < 0 || (shape[d] && n > INT64_MAX / 16 / shape[d])) return TA_ERR_INVALID;
        n *= shape[d];
    }
    size_t need = (size_t)t->byte_offset + (size_t)n * ta_dtype_size(t->dtype);
    ta_storage_rec *old = &x->st[r->storage - 1];
    if (need > old->bytes) {
        /* torch's resize_ grows the storage in place; other views of the old
         * storage keep the old one here, which observation treats alike. */
        uint32_t id;
        if (ta_exec_storage_new(x, need, &id) != TA_OK) return TA_ERR_NOMEM;
        old = &x->st[r->storage - 1]; /* the table may have moved */
        ta_storage_rec *nw = &x->st[id - 1];
        char err[256];
        if (old->bytes && x->dev->copy(nw->base, old->base, old->bytes, err, sizeof err) != 0)
            return TA_ERR_KERNEL;
        if (ta_exec_fill_marker(x, (char *)nw->base + old->bytes, need - old->bytes) != 0) return TA_ERR_KERNEL;
        r->storage = id;
        t->data = nw->base;
    }
    if (set_dims(r, ndim, shape, NULL) != 0) return TA_ERR_NOMEM;
    return TA_OK;
}

ta_status ta_kernel_tensor_array(ta_kernel_ctx *ctx, size_t n, DLTensor ***out)
{
    ta_exec *x = ctx->x;
    *out = NULL;
    if (TA_GROW_ONE(x->scratch, x->nscratch, x->capscratch, 8) != TA_OK) return TA_ERR_NOMEM;
    DLTensor **a = ta_calloc(n ? n : 1, sizeof *a);
    if (!a) return TA_ERR_NOMEM;
    x->scratch[x->nscratch++] = a;
    *out = a;
    return TA_OK;
}

ta_status ta_exec_call(ta_exec *x, ta_kernel_fn fn, void *user_data, ta_diags *diags)
{
    x->ctx.user_data = user_data;
    x->ctx.has_error = false;
    x->ctx.bad_geometry = NULL;
    x->ctx.cannot_run = false;
    x->ctx.error[0] = '\0';
    ta_status s = fn(&x->ctx, x->stack);
    char err[512];
    err[0] = '\0';
    ta_status st = TA_OK;
    if (x->dev->sync(err, sizeof err) != 0) {
        x->device_lost = true;
        s = TA_ERR_KERNEL;
        st = ta_diag_error(diags, NULL, "device-error", "device error after the kernel: %s", err);
    } else if (s != TA_OK && x->ctx.has_error) {
        st = ta_diag_error(diags, NULL, "kernel-error", "%s", x->ctx.error);
    } else if (s != TA_OK) {
        st = ta_diag_error(diags, NULL, "kernel-error", "kernel returned %s without a message",
                           ta_status_str(s));
    }
    return st == TA_OK ? s : st;
}
