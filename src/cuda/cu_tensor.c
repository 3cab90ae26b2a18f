/* cu_tensor.c - dtypes, type promotion, broadcasting and overlap for the CUDA kernels.
 *
 * Promotion follows PyTorch (c10 promoteTypes and at::native result_type):
 * within a category the wider dtype wins, uint8 with int8 gives int16, an
 * integral meeting a floating dtype gives the floating one, and a zero-dim
 * tensor or a Scalar only changes the result when it is of a higher
 * category than the dimensioned tensors.
 */
#include <stdio.h>
#include <string.h>

#include "cuda/cu_tensor.h"

int ta_cu_dtype_of(DLDataType dt)
{
    if (dt.lanes != 1) return TA_CU_UNDEF;
    if (dt.code == kDLFloat && dt.bits == 32) return TA_CU_F32;
    if (dt.code == kDLFloat && dt.bits == 64) return TA_CU_F64;
    if (dt.code == kDLUInt && dt.bits == 8) return TA_CU_U8;
    if (dt.code == TA_DL_BOOL && dt.bits == 8) return TA_CU_BOOL;
    if (dt.code == kDLInt) {
        switch (dt.bits) {
        case 8: return TA_CU_I8;
        case 16: return TA_CU_I16;
        case 32: return TA_CU_I32;
        case 64: return TA_CU_I64;
        default: break;
        }
    }
    return TA_CU_UNDEF;
}

DLDataType ta_cu_dl_dtype(int d)
{
    static const DLDataType map[TA_CU_NDTYPES] = {
        {kDLUInt, 8, 1}, {kDLInt, 8, 1}, {kDLInt, 16, 1}, {kDLInt, 32, 1},
        {kDLInt, 64, 1}, {kDLFloat, 32, 1}, {kDLFloat, 64, 1}, {TA_DL_BOOL, 8, 1},
    };
    return d >= 0 && d < TA_CU_NDTYPES ? map[d] : map[TA_CU_F32];
}

const char *ta_cu_dtype_name(int d)
{
    static const char *const names[TA_CU_NDTYPES] = {"Byte", "Char", "Short", "Int", "Long", "Float", "Double",
                                                     "Bool"};
    return d >= 0 && d < TA_CU_NDTYPES ? names[d] : "unsupported";
}

bool ta_cu_is_float(int d) { return d == TA_CU_F32 || d == TA_CU_F64; }

static int int_bits(int d)
{
    switch (d) {
    case TA_CU_U8:
    case TA_CU_I8: return 8;
    case TA_CU_I16: return 16;
    case TA_CU_I32: return 32;
    default: return 64;
    }
}

/* c10::promoteTypes restricted to our dtypes; UNDEF and BOOL give way. */
static int promote(int a, int b)
{
    if (a == b) return a;
    if (a == TA_CU_UNDEF || a == TA_CU_BOOL) return b == TA_CU_UNDEF ? a : b;
    if (b == TA_CU_UNDEF || b == TA_CU_BOOL) return a;
    if (ta_cu_is_float(a) && ta_cu_is_float(b)) return TA_CU_F64;
    if (ta_cu_is_float(a)) return a;
    if (ta_cu_is_float(b)) return b;
    if ((a == TA_CU_U8 && b == TA_CU_I8) || (a == TA_CU_I8 && b == TA_CU_U8)) return TA_CU_I16;
    return int_bits(a) >= int_bits(b) ? a : b;
}

void ta_cu_rt_init(ta_cu_result_type *rt) { rt->dim = rt->zero = rt->wrapped = TA_CU_UNDEF; }

void ta_cu_rt_tensor(ta_cu_result_type *rt, const DLTensor *t)
{
    int d = ta_cu_dtype_of(t->dtype);
    if (t->ndim == 0) rt->zero = promote(rt->zero, d);
    else rt->dim = promote(rt->dim, d);
}

void ta_cu_rt_scalar(ta_cu_result_type *rt, int d) { rt->wrapped = promote(rt->wrapped, d); }

static int combine(int higher, int lower)
{
    if (ta_cu_is_float(higher)) return higher;
    if (higher == TA_CU_BOOL || ta_cu_is_float(lower)) return promote(higher, lower);
    if (higher != TA_CU_UNDEF) return higher;
    return lower;
}

int ta_cu_rt_result(const ta_cu_result_type *rt) { return combine(rt->dim, combine(rt->zero, rt->wrapped)); }

bool ta_cu_can_cast(int from, int to)
{
    /* As c10::canCast: floating into integral or bool, and anything but bool
     * into bool, are refused. */
    if (ta_cu_is_float(from) && !ta_cu_is_float(to)) return false;
    return !(to == TA_CU_BOOL && from != TA_CU_BOOL);
}

void ta_cu_strides(const DLTensor *t, int64_t *strides)
{
    int64_t s = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        strides[d] = t->strides ? t->strides[d] : s;
        s *= t->shape[d];
    }
}

bool ta_cu_same_shape(const DLTensor *t, int ndim, const int64_t *shape)
{
    if (t->ndim != ndim) return false;
    for (int d = 0; d < ndim; d++)
        if (t->shape[d] != shape[d]) return false;
    return true;
}

bool ta_cu_broadcast(int na, const int64_t *a, int nb, const int64_t *b, int *nout, int64_t *out)
{
    int n = na > nb ? na : nb;
    if (n > TA_CU_MAXDIM) return false;
    for (int i = 0; i < n; i++) {
        int ia = na - n + i, ib = nb - n + i;
        int64_t sa = ia >= 0 ? a[ia] : 1, sb = ib >= 0 ? b[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1) return false;
        out[i] = sa == 1 ? sb : sa;
    }
    *nout = n;
    return true;
}

const char *ta_cu_shape_str(int ndim, const int64_t *shape, char *buf, size_t cap)
{
    size_t used = 0;
    int k = snprintf(buf, cap, "[");
    used = k > 0 ? (size_t)k : 0;
    for (int d = 0; d < ndim && used < cap; d++) {
        k = snprintf(buf + used, cap - used, "%s%lld", d ? ", " : "", (long long)shape[d]);
        if (k > 0) used += (size_t)k;
    }
    if (used < cap) snprintf(buf + used, cap - used, "]");
    return buf;
}

bool ta_cu_internal_overlap(const DLTensor *t)
{
    int64_t st[TA_CU_MAXDIM];
    if (t->ndim > TA_CU_MAXDIM || ta_numel(t) == 0) return false;
    ta_cu_strides(t, st);
    for (int d = 0; d < t->ndim; d++)
        if (t->shape[d] > 1 && st[d] == 0) return true;
    return false;
}

bool ta_cu_is_contiguous(const DLTensor *t)
{
    int64_t st[TA_CU_MAXDIM], want = 1;
    if (t->ndim > TA_CU_MAXDIM) return false;
    if (ta_numel(t) == 0) return true;
    ta_cu_strides(t, st);
    for (int d = t->ndim - 1; d >= 0; d--) {
        if (t->shape[d] != 1 && st[d] != want) return false;
        want *= t->shape[d];
    }
    return true;
}

/* [lo, hi) of the bytes t's elements occupy; false when it has none. */
static bool extent(const DLTensor *t, uintptr_t *lo, uintptr_t *hi)
{
    int64_t st[TA_CU_MAXDIM];
    int64_t neg = 0, pos = 0;
    ta_cu_strides(t, st);
    for (int d = 0; d < t->ndim; d++) {
        if (t->shape[d] == 0) return false;
        int64_t span = (t->shape[d] - 1) * st[d];
        if (span < 0) neg += span;
        else pos += span;
    }
    int64_t el = (int64_t)ta_dtype_size(t->dtype);
    uintptr_t start = (uintptr_t)t->data + (uintptr_t)t->byte_offset;
    *lo = start + (uintptr_t)(neg * el);
    *hi = start + (uintptr_t)((pos + 1) * el);
    return true;
}

bool ta_cu_needs_scratch(const DLTensor *out, const DLTensor *in)
{
    uintptr_t olo, ohi, ilo, ihi;
    if (out->ndim > TA_CU_MAXDIM || in->ndim > TA_CU_MAXDIM) return true;
    if (!extent(out, &olo, &ohi) || !extent(in, &ilo, &ihi)) return false;
    if (ohi <= ilo || ihi <= olo) return false;
    /* Same first element, dtype size, shape and strides: every element is
     * read and written by the same thread, in that order. */
    if ((uintptr_t)out->data + out->byte_offset != (uintptr_t)in->data + in->byte_offset) return true;
    if (ta_dtype_size(out->dtype) != ta_dtype_size(in->dtype)) return true;
    if (!ta_cu_same_shape(in, out->ndim, out->shape)) return true;
    int64_t so[TA_CU_MAXDIM], si[TA_CU_MAXDIM];
    ta_cu_strides(out, so);
    ta_cu_strides(in, si);
    for (int d = 0; d < out->ndim; d++)
        if (out->shape[d] > 1 && so[d] != si[d]) return true;
    return false;
}

void ta_cu_iter_init(ta_cu_iter *it, int ndim, const int64_t *shape, int nops)
{
    memset(it, 0, sizeof *it);
    it->ndim = ndim;
    it->nops = nops;
    it->numel = 1;
    for (int d = 0; d < ndim; d++) {
        it->shape[d] = shape[d];
        it->numel *= shape[d];
    }
}

void ta_cu_iter_operand(ta_cu_iter *it, int k, const DLTensor *t)
{
    int64_t st[TA_CU_MAXDIM];
    ta_cu_operand *o = &it->op[k];
    ta_cu_strides(t, st);
    o->data = (char *)t->data + t->byte_offset;
    o->dtype = ta_cu_dtype_of(t->dtype);
    o->elsize = (int32_t)ta_dtype_size(t->dtype);
    for (int d = 0; d < it->ndim; d++) {
        int td = t->ndim - it->ndim + d;
        o->stride[d] = (td < 0 || t->shape[td] == 1) ? 0 : st[td];
    }
}
