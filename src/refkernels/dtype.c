/* dtype.c - the dtypes the reference kernels handle, element load/store in the
 * two compute domains (double, int64), and PyTorch's type promotion rules
 * (promote_types, can_cast, result_type with its dim/zero-dim/wrapped tiers).
 */
#include <math.h>
#include <string.h>

#include "rk.h"

rk_dtype rk_dtype_of(DLDataType dt)
{
    if (dt.lanes != 1) return RK_BAD;
    switch (dt.code) {
    case kDLInt:
        return dt.bits == 8 ? RK_I8 : dt.bits == 16 ? RK_I16 : dt.bits == 32 ? RK_I32
             : dt.bits == 64 ? RK_I64 : RK_BAD;
    case kDLUInt:
        return dt.bits == 8 ? RK_U8 : RK_BAD;
    case kDLFloat:
        return dt.bits == 16 ? RK_F16 : dt.bits == 32 ? RK_F32 : dt.bits == 64 ? RK_F64 : RK_BAD;
    case kDLBfloat:
        return dt.bits == 16 ? RK_BF16 : RK_BAD;
    case TA_DL_BOOL:
        return dt.bits == 8 ? RK_BOOL : RK_BAD;
    default:
        return RK_BAD;
    }
}

DLDataType rk_dl(rk_dtype d)
{
    static const DLDataType tab[] = {
        [RK_BOOL] = {TA_DL_BOOL, 8, 1}, [RK_U8] = {kDLUInt, 8, 1},
        [RK_I8] = {kDLInt, 8, 1},       [RK_I16] = {kDLInt, 16, 1},
        [RK_I32] = {kDLInt, 32, 1},     [RK_I64] = {kDLInt, 64, 1},
        [RK_F16] = {kDLFloat, 16, 1},   [RK_BF16] = {kDLBfloat, 16, 1},
        [RK_F32] = {kDLFloat, 32, 1},   [RK_F64] = {kDLFloat, 64, 1},
    };
    return d == RK_BAD ? (DLDataType){kDLFloat, 32, 1} : tab[d];
}

size_t rk_size(rk_dtype d)
{
    static const size_t tab[] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8};
    return d == RK_BAD ? 0 : tab[d];
}

const char *rk_name(rk_dtype d)
{
    static const char *const tab[] = {"Bool", "Byte", "Char", "Short", "Int", "Long",
                                      "Half", "BFloat16", "Float", "Double"};
    return d == RK_BAD ? "Undefined" : tab[d];
}

rk_dtype rk_from_scalar_type(int64_t st)
{
    switch (st) {
    case 0: return RK_U8;
    case 1: return RK_I8;
    case 2: return RK_I16;
    case 3: return RK_I32;
    case 4: return RK_I64;
    case 5: return RK_F16;
    case 6: return RK_F32;
    case 7: return RK_F64;
    case 11: return RK_BOOL;
    case 15: return RK_BF16;
    default: return RK_BAD;
    }
}

/* ---- half and bfloat16 ---------------------------------------------------- */

/* A float's bits and back (memcpy: no aliasing rule is bent). */
static uint32_t float_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    return x;
}

static float bits_float(uint32_t x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

static float f16_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    uint32_t bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (man << 13);
    } else if (exp != 0) {
        bits = sign | ((exp + 112) << 23) | (man << 13);
    } else if (man == 0) {
        bits = sign;
    } else { /* subnormal: renormalize */
        exp = 113;
        while (!(man & 0x400)) { man <<= 1; exp--; }
        bits = sign | (exp << 23) | ((man & 0x3ff) << 13);
    }
    return bits_float(bits);
}

static uint16_t float_to_f16(float f)
{
    uint32_t x = float_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u) /* inf or NaN */
        return (uint16_t)(sign | 0x7c00 | (ax > 0x7f800000u ? 0x200 : 0));
    if (ax >= 0x477ff000u) return (uint16_t)(sign | 0x7c00); /* rounds to inf */
    if (ax < 0x38800000u) /* subnormal half or zero: let the FPU round */
        return (uint16_t)(sign | (uint16_t)lrintf(bits_float(ax) * 16777216.0f));
    uint32_t r = ax + 0xfff + ((ax >> 13) & 1) - 0x38000000u; /* round to nearest even */
    return (uint16_t)(sign | (r >> 13));
}

static float bf16_to_float(uint16_t h) { return bits_float((uint32_t)h << 16); }

static uint16_t float_to_bf16(float f)
{
    uint32_t x = float_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40);
    return (uint16_t)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

/* ---- load / store ---------------------------------------------------------- */

double rk_loadf(rk_dtype d, const void *p)
{
    switch (d) {
    case RK_BOOL:
    case RK_U8:
    case RK_I8:
    case RK_I16:
    case RK_I32:
    case RK_I64: return (double)rk_loadi(d, p); /* the integral loads are rk_loadi's */
    case RK_F16: { uint16_t v; memcpy(&v, p, 2); return f16_to_float(v); }
    case RK_BF16: { uint16_t v; memcpy(&v, p, 2); return bf16_to_float(v); }
    case RK_F32: { float v; memcpy(&v, p, 4); return v; }
    case RK_F64: { double v; memcpy(&v, p, 8); return v; }
    default: return 0;
    }
}

int64_t rk_f2i(double v)
{
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return INT64_MIN;
    return (int64_t)v;
}

int64_t rk_loadi(rk_dtype d, const void *p)
{
    switch (d) {
    case RK_BOOL: return *(const uint8_t *)p != 0;
    case RK_U8: return *(const uint8_t *)p;
    case RK_I8: return *(const int8_t *)p;
    case RK_I16: { int16_t v; memcpy(&v, p, 2); return v; }
    case RK_I32: { int32_t v; memcpy(&v, p, 4); return v; }
    case RK_I64: { int64_t v; memcpy(&v, p, 8); return v; }
    default: return rk_f2i(rk_loadf(d, p));
    }
}

void rk_storei(rk_dtype d, void *p, int64_t v)
{
    /* Narrowing wraps modulo 2^bits, as a C++ static_cast does on PyTorch's targets. */
    switch (d) {
    case RK_BOOL: *(uint8_t *)p = v != 0; break;
    case RK_U8: *(uint8_t *)p = (uint8_t)v; break;
    case RK_I8: *(int8_t *)p = (int8_t)(uint8_t)v; break;
    case RK_I16: { int16_t x = (int16_t)(uint16_t)v; memcpy(p, &x, 2); break; }
    case RK_I32: { int32_t x = (int32_t)(uint32_t)v; memcpy(p, &x, 4); break; }
    case RK_I64: memcpy(p, &v, 8); break;
    default: rk_storef(d, p, (double)v); break;
    }
}

void rk_storef(rk_dtype d, void *p, double v)
{
    switch (d) {
    case RK_BOOL: *(uint8_t *)p = v != 0; break;
    case RK_F16: { uint16_t x = float_to_f16((float)v); memcpy(p, &x, 2); break; }
    case RK_BF16: { uint16_t x = float_to_bf16((float)v); memcpy(p, &x, 2); break; }
    case RK_F32: { float x = (float)v; memcpy(p, &x, 4); break; }
    case RK_F64: memcpy(p, &v, 8); break;
    default: rk_storei(d, p, rk_f2i(v)); break;
    }
}

/* ---- promotion ----------------------------------------------------------- */

rk_dtype rk_promote(rk_dtype a, rk_dtype b)
{
    if (a == RK_BAD) return b;
    if (b == RK_BAD || a == b) return a;
    if (a == RK_BOOL) return b;
    if (b == RK_BOOL) return a;
    if (rk_is_float(a) || rk_is_float(b)) {
        if (!rk_is_float(a)) return b;
        if (!rk_is_float(b)) return a;
        if ((a == RK_F16 && b == RK_BF16) || (a == RK_BF16 && b == RK_F16)) return RK_F32;
        return a > b ? a : b;
    }
    /* two different integer types */
    if (a == RK_U8 || b == RK_U8) {
        rk_dtype o = a == RK_U8 ? b : a;
        return o == RK_I8 ? RK_I16 : o;
    }
    return a > b ? a : b;
}

bool rk_can_cast(rk_dtype from, rk_dtype to)
{
    if (rk_is_float(from) && !rk_is_float(to)) return false;
    if (from != RK_BOOL && to == RK_BOOL) return false;
    return true;
}

/* Whether v converts to dtype d without overflow (PyTorch's checked conversion of a fill value). */
bool rk_scalar_fits(rk_dtype d, const rk_scalar *v)
{
    static const double lo[] = {[RK_U8] = 0, [RK_I8] = -128, [RK_I16] = -32768, [RK_I32] = -2147483648.0,
                                [RK_I64] = -9223372036854775808.0};
    static const double hi[] = {[RK_U8] = 255, [RK_I8] = 127, [RK_I16] = 32767, [RK_I32] = 2147483647.0,
                                [RK_I64] = 9223372036854775807.0};
    double f = v->kind == TA_SCALAR_FLOAT ? v->f : (double)v->i;
    if (rk_is_int(d)) {
        if (v->kind != TA_SCALAR_FLOAT && d == RK_I64) return true;
        if (d == RK_I64) return f >= lo[d] && f < hi[d]; /* hi is 2^63 as a double */
        return f >= lo[d] && f <= hi[d];                  /* NaN fails */
    }
    if (d == RK_F32 || d == RK_BF16) return !isfinite(f) || fabs(f) <= 3.4028234663852886e38;
    if (d == RK_F16) return !isfinite(f) || fabs(f) <= 65504.0;
    return true;
}

rk_dtype rk_scalar_dtype(const rk_scalar *s)
{
    return s->kind == TA_SCALAR_BOOL ? RK_BOOL : s->kind == TA_SCALAR_INT ? RK_I64 : RK_F64;
}

void rk_scalar_tensor(rk_scalar *s, DLTensor *t)
{
    memset(t, 0, sizeof *t);
    if (s->kind == TA_SCALAR_BOOL) s->buf.b = s->i != 0;
    else if (s->kind == TA_SCALAR_INT) s->buf.i = s->i;
    else s->buf.f = s->f;
    t->data = &s->buf;
    t->device = (DLDevice){kDLCPU, 0};
    t->ndim = 0;
    t->dtype = rk_dl(rk_scalar_dtype(s));
}

void rk_rtype_init(rk_rtype *r) { r->dim = r->zero = r->wrapped = RK_BAD; }

void rk_rtype_tensor(rk_rtype *r, const DLTensor *t)
{
    if (!t) return;
    rk_dtype d = rk_dtype_of(t->dtype);
    if (t->ndim > 0) r->dim = rk_promote(r->dim, d);
    else r->zero = rk_promote(r->zero, d);
}

void rk_rtype_scalar(rk_rtype *r, const rk_scalar *s)
{
    /* A wrapped float counts as the default dtype (float32). */
    rk_dtype d = rk_scalar_dtype(s);
    r->wrapped = rk_promote(r->wrapped, d == RK_F64 ? RK_F32 : d);
}

static rk_dtype combine(rk_dtype higher, rk_dtype lower)
{
    if (rk_is_float(higher)) return higher;
    if (higher == RK_BOOL || rk_is_float(lower)) return rk_promote(higher, lower);
    return higher != RK_BAD ? higher : lower;
}

rk_dtype rk_rtype_result(const rk_rtype *r)
{
    return combine(r->dim, combine(r->zero, r->wrapped));
}
