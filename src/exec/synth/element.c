/* element.c - one element of a tensor written from a number, in any dtype
 * the engine holds (element.h). */
#include <math.h>
#include <string.h>

#include "exec/synth/element.h"

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* IEEE half from a float, rounded to nearest even (as c10::Half). */
static uint16_t half_of(float f)
{
    uint32_t x = float_bits(f), sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u) return (uint16_t)(sign | 0x7e00u); /* NaN */
    if (ax >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* 65520 and up round to inf */
    if (ax < 0x38800000u) {
        /* Below 2^-14, a subnormal half: m * 2^-24, m rounded by the FPU. */
        float mag;
        memcpy(&mag, &ax, sizeof mag);
        return (uint16_t)(sign | (uint32_t)lrintf(mag * 16777216.0f));
    }
    /* Rebias the exponent (127 -> 15), then drop 13 mantissa bits, to even. */
    uint32_t v = ax - (112u << 23);
    v += 0xfffu + ((v >> 13) & 1u);
    return (uint16_t)(sign | (v >> 13));
}

/* bfloat16: the top half of a float, rounded to nearest even (as c10::BFloat16). */
static uint16_t bf16_of(float f)
{
    uint32_t x = float_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return 0x7fc0u;
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

void ta_elem_put_double(DLDataType dt, void *p, double v)
{
    if (dt.code == kDLFloat && dt.bits == 64) {
        memcpy(p, &v, 8);
    } else if (dt.code == kDLFloat && dt.bits == 32) {
        float f = (float)v;
        memcpy(p, &f, 4);
    } else if (dt.code == kDLFloat) {
        uint16_t h = half_of((float)v);
        memcpy(p, &h, 2);
    } else if (dt.code == kDLBfloat) {
        uint16_t h = bf16_of((float)v);
        memcpy(p, &h, 2);
    } else if (dt.code == kDLComplex) {
        ta_elem_put_complex(dt, p, v, 0.0);
    }
}

void ta_elem_put_complex(DLDataType dt, void *p, double re, double im)
{
    DLDataType part = {kDLFloat, (uint8_t)(dt.bits / 2), 1};
    if (dt.code != kDLComplex || (part.bits != 32 && part.bits != 64)) return;
    ta_elem_put_double(part, p, re);
    ta_elem_put_double(part, (unsigned char *)p + part.bits / 8, im);
}

/* Integer dtypes keep the low bits, as a C cast (and torch) does. */
void ta_elem_put_int(DLDataType dt, void *p, int64_t v)
{
    if (dt.code == kDLFloat || dt.code == kDLBfloat || dt.code == kDLComplex) {
        ta_elem_put_double(dt, p, (double)v);
    } else if (dt.code == TA_DL_BOOL) {
        *(uint8_t *)p = v != 0;
    } else {
        uint64_t u = (uint64_t)v;
        memcpy(p, &u, dt.bits / 8); /* little-endian: the low bytes */
    }
}

