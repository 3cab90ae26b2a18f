/* synth_names.h - what an operator's names say about the inputs its kernels
 * accept, read once per operator (by ta_decl_build, into ta_decl.names) so
 * that each case only draws its sizes (synth_plan.h). */
#ifndef TA_EXEC_SYNTH_SYNTH_NAMES_H
#define TA_EXEC_SYNTH_SYNTH_NAMES_H

#include <stdbool.h>
#include <stdint.h>

typedef enum ta_dtype_need {
    TA_NEED_ANY = 0,
    TA_NEED_FLOATING, /* linalg_, fft_, norms, losses, pooling, softmax, activations... */
    TA_NEED_INTEGRAL  /* bitwise_, shifts, gcd, lcm */
} ta_dtype_need;

/* Which arguments' sizes follow the main shape's channels. */
typedef enum ta_plan_norm {
    TA_NORM_NONE = 0,
    TA_NORM_CHANNELS, /* batch_norm, instance_norm: statistics and affine [C], C = shape[1] */
    TA_NORM_LAST      /* layer_norm: normalized_shape and affine [shape[-1]] */
} ta_plan_norm;

typedef struct ta_synth_names {
    ta_dtype_need dtypes;
    ta_plan_norm norm;
    bool takes_dim;       /* a dimension argument the kernel needs */
    bool named;           /* a Dimname argument: the case's tensors have named dimensions */
    bool size_may_infer;  /* a size list may say -1 (view, reshape, expand) */
    bool nonzero_divisor; /* div, remainder, fmod...: other/divisor hold no 0 */
    /* kron, diagflat, outer, linalg_ decompositions...: a result that grows
     * with the square of the input, or work with its cube, so a huge main
     * shape would only time out: never one. */
    bool no_huge;
    bool index_out;       /* argmax, nonzero, searchsorted...: the result holds int64 indices */
    bool classes;         /* nll_loss, cross_entropy: [batch, classes] and class targets */
    int spatial;          /* N of a convolution, pooling or upsampling, or 0 */
    bool conv, upsample;
    /* Optional arguments that go in pairs (index, or -1): exactly one of
     * output_size and scale_factors, at least one of min and max, both
     * running statistics; and pin_memory (never on a CPU). */
    int16_t output_size, scale_factors, min, max, running_mean, running_var, pin_memory;
} ta_synth_names;

#endif
