/* geometry.c - pure helpers over DLTensor geometry: element counts, dtype
 * sizes, strided element addresses, contiguity, and the byte range a tensor
 * reaches in its storage (what overlap detection compares). */
#include <string.h>

#include "tensoralias/exec.h"
#include "tensoralias/kernel.h"

int64_t ta_numel(const DLTensor *t)
{
    if (!t) return 0;
    int64_t n = 1;
    for (int d = 0; d < t->ndim; d++) n *= t->shape[d];
    return n;
}

size_t ta_dtype_size(DLDataType dt)
{
    return ((size_t)dt.bits * (dt.lanes ? dt.lanes : 1) + 7) / 8;
}

bool ta_dtype_eq(DLDataType a, DLDataType b)
{
    return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

const char *ta_dtype_name(DLDataType dt)
{
    if (dt.lanes != 1) return "?";
    switch (dt.code) {
    case kDLFloat:
        return dt.bits == 32 ? "float32" : dt.bits == 64 ? "float64" : dt.bits == 16 ? "float16" : "?";
    case kDLInt:
        return dt.bits == 64 ? "int64" : dt.bits == 32 ? "int32" : dt.bits == 16 ? "int16"
             : dt.bits == 8 ? "int8" : "?";
    case kDLUInt: return dt.bits == 8 ? "uint8" : "?";
    case kDLBfloat: return dt.bits == 16 ? "bfloat16" : "?";
    case TA_DL_BOOL: return dt.bits == 8 ? "bool" : "?";
    case kDLComplex: return dt.bits == 64 ? "complex64" : dt.bits == 128 ? "complex128" : "?";
    default: return "?";
    }
}

void ta_strides_of(const DLTensor *t, int64_t *out)
{
    if (t->strides) {
        if (t->ndim > 0) memcpy(out, t->strides, (size_t)t->ndim * sizeof *out);
        return;
    }
    int64_t s = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        out[d] = s;
        s *= t->shape[d];
    }
}

void *ta_elem_ptr(const DLTensor *t, int64_t i)
{
    int64_t off = 0;
    if (t->strides) {
        /* Unravel i in row-major order, innermost dimension first. */
        for (int d = t->ndim - 1; d >= 0; d--) {
            int64_t n = t->shape[d];
            if (n <= 0) break;
            off += (i % n) * t->strides[d];
            i /= n;
        }
    } else {
        off = i;
    }
    return (char *)t->data + t->byte_offset + off * (int64_t)ta_dtype_size(t->dtype);
}

bool ta_is_contiguous(const DLTensor *t)
{
    if (!t->strides) return true;
    int64_t expect = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        /* Dimensions of size 1 may carry any stride, as in torch. */
        if (t->shape[d] != 1 && t->strides[d] != expect) return false;
        expect *= t->shape[d];
    }
    return true;
}

void ta_tensor_byte_range(const DLTensor *t, uint64_t *lo, uint64_t *hi)
{
    int64_t n = ta_numel(t);
    if (n <= 0) {
        *lo = *hi = t->byte_offset;
        return;
    }
    int64_t mn = 0, mx = 0;
    for (int d = 0; d < t->ndim; d++) {
        int64_t st = t->strides ? t->strides[d] : 0;
        if (!t->strides) {
            st = 1;
            for (int e = d + 1; e < t->ndim; e++) st *= t->shape[e];
        }
        int64_t span = (t->shape[d] - 1) * st;
        if (span < 0) mn += span; else mx += span;
    }
    int64_t es = (int64_t)ta_dtype_size(t->dtype);
    int64_t base = (int64_t)t->byte_offset;
    *lo = (uint64_t)(base + mn * es);
    *hi = (uint64_t)(base + (mx + 1) * es);
}

bool ta_dtype_from_scalar_type(int64_t code, DLDataType *out)
{
    switch (code) {
    case TA_ST_BYTE: *out = (DLDataType){kDLUInt, 8, 1}; return true;
    case TA_ST_CHAR: *out = (DLDataType){kDLInt, 8, 1}; return true;
    case TA_ST_SHORT: *out = (DLDataType){kDLInt, 16, 1}; return true;
    case TA_ST_INT: *out = TA_DTYPE_I32; return true;
    case TA_ST_LONG: *out = TA_DTYPE_I64; return true;
    case TA_ST_HALF: *out = (DLDataType){kDLFloat, 16, 1}; return true;
    case TA_ST_FLOAT: *out = TA_DTYPE_F32; return true;
    case TA_ST_DOUBLE: *out = TA_DTYPE_F64; return true;
    case TA_ST_BOOL: *out = TA_DTYPE_BOOL; return true;
    case TA_ST_BFLOAT16: *out = (DLDataType){kDLBfloat, 16, 1}; return true;
    default: return false;
    }
}

int64_t ta_scalar_type_of(DLDataType dt)
{
    for (int64_t c = 0; c <= TA_ST_BFLOAT16; c++) {
        DLDataType d;
        if (ta_dtype_from_scalar_type(c, &d) && ta_dtype_eq(d, dt)) return c;
    }
    return -1;
}
