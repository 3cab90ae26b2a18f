/* autogen_internal.h - what autogen.c (the driver, torchgen's
 * add_generated_native_functions and its checks) needs from
 * autogen_schema.c (the derived schemas) and autogen_plan.c (how to run
 * them). */
#ifndef TA_AUTOGEN_INTERNAL_H
#define TA_AUTOGEN_INTERNAL_H

#include "alias/torchgen/internal.h"

bool tg_type_is_tensor_like(const ta_type *t); /* Tensor, Tensor?, Tensor[], Tensor?[] */
bool tg_has_tensor_like_return(const ta_schema *s);

/* The functional variant of an inplace, mutable or out= schema of kind bk
 * (ta_schema_kind_of(base), which the caller knows). Without `text` the
 * derived schema's text is left NULL (a check-only model). */
ta_status tg_derive_functional(ta_arena *a, const ta_schema *base, ta_schema_kind bk, bool text,
                               ta_schema **out);

/* The out= variant of an inplace, mutable or functional schema of kind bk.
 * ret_origin (room for base->nrets + 1) receives, per derived return, the
 * base return it comes from; out_origin (same room) per new out argument the
 * base return it stands for; *nouts their count. TA_ERR_UNSUPPORTED when
 * torchgen could not derive one (an inplace op without self, no letters).
 * `text` as for tg_derive_functional. */
ta_status tg_derive_out(ta_arena *a, const ta_schema *base, ta_schema_kind bk, bool text,
                        ta_schema **out, uint32_t *ret_origin, uint32_t *out_origin,
                        uint32_t *nouts);

/* Plans (see ta_autogen_plan in torchgen.h). */
ta_status tg_plan_functional(ta_arena *a, const ta_tg_function *derived,
                             const ta_tg_function *base, ta_autogen_plan **out);
ta_status tg_plan_out(ta_arena *a, const ta_tg_function *derived,
                      const ta_tg_function *base, const ta_tg_function *callee,
                      const uint32_t *ret_origin, const uint32_t *out_origin,
                      uint32_t nouts, ta_autogen_plan **out);

#endif
