/* rules_custom_internal.h - the name tables the custom-operator rules read
 * (rules_custom_names.c), shared with their tests through the rules. */
#ifndef TA_ALIAS_RULES_CUSTOM_INTERNAL_H
#define TA_ALIAS_RULES_CUSTOM_INTERNAL_H

#include <stdbool.h>

#include "tensoralias/schema.h"

typedef enum ta_dest_kind {
    TA_DEST_NONE = 0,
    TA_DEST_LIKELY,  /* x_out, attn_output, out_tokens, output_q: the destination when the
                      * operator has no other way to return a result */
    TA_DEST_CERTAIN  /* out, output, out_, dst, result: the destination */
} ta_dest_kind;

/* Whether argument arg of operator op is named like where results go. */
ta_dest_kind ta_custom_dest_name(ta_str arg, ta_str op);
/* A cache tensor (key_cache, kv_cache, kcache, cache_K; not cos_sin_cache or
 * cache_indices). */
bool ta_custom_cache_name(ta_str arg);
/* An operator whose name says it stores into something (store, write,
 * fill, copy, update, append, insert, put, scatter, ...). */
bool ta_custom_stores_op(ta_str op);
/* An operator named for transforming values on their way into a cache
 * (quantize, quant, rope: whole words), which stores only where it also
 * takes positions to store at. */
bool ta_custom_transforms_op(ta_str op);
/* A per-token position or slot to store at (seqpos, positions, input_pos,
 * slot_mapping, cache_loc). */
bool ta_custom_position_name(ta_str arg);
/* A gradient's name (grad_out, d_out, dout): its presence makes an
 * operator a backward, whose "out" is the forward output it reads. */
bool ta_custom_gradient_name(ta_str arg);
/* out, output, outputs, out_, out0: what a backward reads as the forward
 * output. */
bool ta_custom_out_name(ta_str arg);
/* The out= convention's names (out, output, out_, x_out, attn_output):
 * an optional one is where an operator that returns a tensor puts its
 * result when the caller passes one. */
bool ta_custom_out_convention_name(ta_str arg);
/* What in op's name promises a mutation ("a trailing '_'", "'inplace'"),
 * or NULL. */
const char *ta_custom_mutating_name(ta_str op);
/* A bool argument that switches the operator to write its input
 * ("inplace"). */
bool ta_custom_inplace_flag(ta_str arg);
/* A tensor named like an input (input, x, q, weight, indices, src_*):
 * listed last among the tensors an operator may be writing. */
bool ta_custom_input_name(ta_str arg);
/* An operator named for its side effects (init, barrier, assert, record,
 * prefetch, ...), which may return and write nothing. */
bool ta_custom_side_effect_op(ta_str op);

#endif
