/* synth_plan.h - what an operator's names say about the inputs its kernels
 * accept, decided once per case before any argument is made.
 *
 * The synthesizer gives every tensor one main shape and every argument a
 * value of its type. Real kernels want more: a pooling operator wants
 * [batch, channels, spatial...] and a kernel no larger than the input, a
 * batch norm wants running statistics of the channel count, a bitwise
 * operator integers, linspace a non-negative step count, clamp a min or a
 * max. The plan reads the schema's names (the operator's and its
 * arguments') and fixes, from the case's seed, what those names tie
 * together; the synthesizer asks it at each argument and makes the rest
 * as before. Every rule is a heuristic over names ATen uses; an operator
 * whose names mean something else still gets valid (if rejected) inputs. */
#ifndef TA_EXEC_SYNTH_SYNTH_PLAN_H
#define TA_EXEC_SYNTH_SYNTH_PLAN_H

#include "exec/registry/decl.h"
#include "exec/synth/synth_names.h"
#include "tensoralias/kernel.h"

enum { TA_PLAN_MAX_SPATIAL = 3, TA_PLAN_MAX_ARGS = 64 };

/* What an optional argument gets. */
typedef enum ta_optional_choice {
    TA_OPT_FREE = 0, /* as the synthesizer likes (mostly None) */
    TA_OPT_NONE,
    TA_OPT_GIVE
} ta_optional_choice;

typedef struct ta_synth_plan {
    const ta_synth_names *names;
    int min_ndim;          /* the main shape has at least this many dimensions */
    int list_len;          /* every tensor list of the case has this many items */
    int64_t count;         /* steps, window_length, bins...: 0 to 4 */
    /* Convolution, pooling, upsampling: N = names->spatial dimensions and the
     * main shape [batch, channels, size...] ([channels, size...] unbatched). */
    bool batched;
    int64_t batch, channels, out_channels;
    int64_t size[TA_PLAN_MAX_SPATIAL], kernel[TA_PLAN_MAX_SPATIAL], stride[TA_PLAN_MAX_SPATIAL],
        padding[TA_PLAN_MAX_SPATIAL], out_size[TA_PLAN_MAX_SPATIAL];
    /* nll_loss, cross_entropy: the main shape [batch, classes], targets in [0, classes). */
    int64_t classes;
    uint8_t optional[TA_PLAN_MAX_ARGS]; /* ta_optional_choice per argument */
} ta_synth_plan;

/* Reads the names of s (declaration d, whose names field is not read). */
void ta_synth_names_read(const ta_schema *s, const ta_decl *d, ta_synth_names *out);

/* The plan of one case of the operator declared by d, from its seed. */
void ta_synth_plan_make(ta_synth_plan *p, const ta_decl *d, uint64_t seed);

/* The main shape when the plan fixes it (spatial and class operators): its
 * ndim, or -1. */
int ta_synth_plan_shape(const ta_synth_plan *p, int64_t *shape);

/* The drawn dtype, or one the operator accepts (bits choose which). */
DLDataType ta_synth_plan_dtype(const ta_synth_plan *p, DLDataType drawn, uint64_t bits);

/* The dtype of out= argument a when the case's inputs promote to inputs:
 * what ATen computes that result in (indices are int64, LAPACK's pivots
 * and infos int32), so that the kernel accepts it. */
DLDataType ta_synth_plan_out_dtype(const ta_synth_plan *p, const ta_decl_slot *a, DLDataType inputs);

/* A tensor argument whose name ties it to the plan: its shape (into shape,
 * returning ndim) and the range of its values [lo, hi); dtype is set when
 * the plan fixes it (class targets are int64) and left alone otherwise.
 * -1 when the plan has no say. main/ndim: the case's main shape. */
int ta_synth_plan_tensor(const ta_synth_plan *p, const ta_decl_slot *a, int ndim, const int64_t *main,
                         int64_t *shape, int64_t *lo, int64_t *hi, DLDataType *dtype);

/* An int list argument whose name ties it to the plan (kernel_size, stride,
 * padding, dilation, output_size, output_padding, normalized_shape): its
 * length, values into out (cap at least TA_PLAN_MAX_SPATIAL + 2), or -1. */
int ta_synth_plan_ints(const ta_synth_plan *p, const ta_decl_slot *a, int ndim, const int64_t *main,
                       int64_t *out);

/* A float list argument (scale_factors; a NULL: the scale factors): its
 * length and values, or -1. */
int ta_synth_plan_floats(const ta_synth_plan *p, const ta_decl_slot *a, double *out);

/* An int argument whose name says what fits (steps, window_length, groups,
 * num_samples): true with *out set. */
bool ta_synth_plan_int(const ta_synth_plan *p, const char *name, int64_t *out);

/* A bool argument with a value that always works on the CPU (pin_memory:
 * False): true with *out set. */
bool ta_synth_plan_bool(const ta_synth_plan *p, const char *name, bool *out);

#endif
