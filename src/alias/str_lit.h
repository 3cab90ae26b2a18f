/* str_lit.h - comparing a ta_str with a string literal. */
#ifndef TA_ALIAS_STR_LIT_H
#define TA_ALIAS_STR_LIT_H

#include <string.h>

#include "tensoralias/schema.h"

/* ta_str_eq against a string literal, its length known at compile time: the
 * rules and the torchgen model test names like "self" and "Tensor" for every
 * argument of every schema, where a strlen per test shows. */
#define TA_STR_IS(s, lit) ((s).len == sizeof(lit) - 1 && !memcmp((s).ptr, lit, sizeof(lit) - 1))

#endif
