/* element.h - one element written from a number, in the tensor's dtype:
 * IEEE half and bfloat16 rounded to nearest even (as c10::Half and
 * c10::BFloat16 round), integers keeping their low bits as a C cast does,
 * a complex one's two float32 or float64 parts (a real number: imaginary 0).
 * Shared by synthesis and samples. */
#ifndef TA_EXEC_SYNTH_ELEMENT_H
#define TA_EXEC_SYNTH_ELEMENT_H

#include <stdint.h>

#include "tensoralias/kernel.h"

void ta_elem_put_double(DLDataType dt, void *p, double v);
void ta_elem_put_int(DLDataType dt, void *p, int64_t v);
void ta_elem_put_complex(DLDataType dt, void *p, double re, double im);

#endif
