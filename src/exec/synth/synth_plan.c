/* synth_plan.c - what an operator's names say about the inputs its kernels
 * accept (see synth_plan.h). Each rule reads names only: the operator's
 * base name (without namespace, overload and leading underscores) and its
 * arguments'. The figures that justify them come from running synthesized
 * cases through ATen (tools/torch/synth_acceptance.py). */
#include <stdio.h>
#include <string.h>

#include "exec/synth/synth.h"
#include "exec/synth/synth_plan.h"

typedef struct prng {
    uint64_t s;
} prng;

static int64_t draw(prng *r, int64_t n) { return n <= 0 ? 0 : (int64_t)(ta_mix64(r->s++) % (uint64_t)n); }

static bool in_list(const char *n, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(n, *list)) return true;
    return false;
}

static bool has_part(const char *n, const char *const *parts)
{
    for (; *parts; parts++)
        if (strstr(n, *parts)) return true;
    return false;
}

/* ---- dtypes ------------------------------------------------------------- */

/* Operators ATen implements for integers (and bool) only. */
static bool wants_integers(const char *n)
{
    static const char *const names[] = {"__and__", "__or__", "__xor__", "__lshift__", "__rshift__",
                                        "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__",
                                        "gcd", "gcd_", "lcm", "lcm_", "bincount", NULL};
    return !strncmp(n, "bitwise_", 8) || in_list(n, names);
}

/* Operators ATen implements (or defines) for floating types only. */
static bool wants_floats(const char *n)
{
    static const char *const parts[] = {
        "linalg_", "fft_", "softmax", "loss", "pool", "upsample", "_window", "cholesky", "svd", "dropout",
        "hardsigmoid", "hardswish", "hardtanh", "hardshrink", "softshrink", "softplus", "leaky_relu",
        "rrelu", "log_sigmoid", "lerp", "hypot", "igamma", "nextafter", "logaddexp", "logsumexp",
        "logcumsumexp", "cdist", "pdist", "histc", "histogram", "multinomial", "bernoulli", "batch_norm",
        "layer_norm", "group_norm", "instance_norm", "weight_norm", "grid_sampler", "fake_quantize",
        "convolution", "conv1d", "conv2d", "conv3d", "conv_transpose", "conv_depthwise", "mish", "silu",
        "gelu", "celu", "selu", "elu_", "_norm", "renorm", "normal", "standard_gamma", "dirichlet",
        "interpolate", NULL};
    static const char *const names[] = {"elu", "std", "var", "mean", "nanmean", "std_mean", "var_mean",
                                        "dist", "uniform_", "exponential_", "cauchy_", "frac", "frac_",
                                        "norm", "rand_like", "randn_like", "binomial", "poisson",
                                        "sigmoid_backward", "tanh_backward", "qr", "geqrf", "lu_solve",
                                        "inverse", "det", "logdet", "slogdet", "pinverse", "matrix_exp",
                                        "triangular_solve", "cholesky_solve", NULL};
    return has_part(n, parts) || in_list(n, names);
}

DLDataType ta_synth_plan_dtype(const ta_synth_plan *p, DLDataType drawn, uint64_t bits)
{
    bool floating = drawn.code == kDLFloat || drawn.code == kDLBfloat;
    bool integral = drawn.code == kDLInt || drawn.code == kDLUInt;
    if (p->names->dtypes == TA_NEED_FLOATING && !floating) return bits & 1 ? TA_DTYPE_F64 : TA_DTYPE_F32;
    if (p->names->dtypes == TA_NEED_INTEGRAL && !integral) return bits & 1 ? TA_DTYPE_I32 : TA_DTYPE_I64;
    return drawn;
}

/* Operators whose out= result is an index into their input (int64 in ATen). */
static bool returns_indices(const char *n)
{
    static const char *const names[] = {"argmax", "argmin", "nonzero", "count_nonzero", "searchsorted",
                                        "bucketize", NULL};
    return in_list(n, names);
}

DLDataType ta_synth_plan_out_dtype(const ta_synth_plan *p, const ta_decl_slot *a, DLDataType inputs)
{
    /* The int64 outputs: indices (sort, topk, max.dim's max_values, unique's
     * inverse...), and the int32 ones of LAPACK (pivots, info, frexp's exponent). */
    static const char *const longs[] = {"max_values", "inverse", "counts", "rank", NULL};
    static const char *const ints[] = {"pivots", "info", "exponent", NULL};
    if (strstr(a->name, "indices") || in_list(a->name, longs) || p->names->index_out) return TA_DTYPE_I64;
    if (in_list(a->name, ints)) return TA_DTYPE_I32;
    return inputs;
}

/* ---- what arguments are there ------------------------------------------- */

static int arg_index(const ta_decl *d, const char *name)
{
    for (int i = 0; i < d->nargs; i++)
        if (!strcmp(d->args[i].name, name)) return i;
    return -1;
}

/* The index of an optional argument named name, or -1. */
static int16_t optional_named(const ta_decl *d, const char *name)
{
    int i = arg_index(d, name);
    return (int16_t)(i >= 0 && i < TA_PLAN_MAX_ARGS && d->args[i].optional ? i : -1);
}

/* A dimension argument the kernel needs: then a 0-dim main shape mostly
 * only earns "Dimension specified as 0 but tensor has no dimensions". */
static bool takes_dim(const ta_decl *d)
{
    static const char *const dims[] = {"dim", "dim0", "dim1", "dim2", NULL};
    for (int i = 0; i < d->nargs; i++)
        if (!d->args[i].optional && in_list(d->args[i].name, dims) &&
            (d->args[i].type == TA_DT_INT || d->args[i].type == TA_DT_INT_LIST))
            return true;
    return false;
}

static bool spatial_name(const char *n)
{
    static const char *const names[] = {"kernel_size", "stride", "padding", "dilation", "output_size",
                                        "output_padding", NULL};
    return in_list(n, names);
}

/* N of a pooling, convolution or upsampling operator over N spatial
 * dimensions: a fixed-size int[N] among its kernel_size, stride, padding...
 * arguments, or "1d"/"2d"/"3d" in its name when it has such arguments or
 * scale factors. 0 otherwise. */
static int spatial_dims(const char *n, const ta_decl *d)
{
    static const char *const families[] = {"pool", "conv", "upsample", NULL};
    bool named = false;
    if (!has_part(n, families)) return 0; /* im2col, col2im, padding: other meanings */
    for (int i = 0; i < d->nargs; i++) {
        const ta_decl_slot *a = &d->args[i];
        if (!spatial_name(a->name) && strcmp(a->name, "scale_factors")) continue;
        named = true;
        if (a->type == TA_DT_INT_LIST && a->fixed_size >= 1 && a->fixed_size <= TA_PLAN_MAX_SPATIAL)
            return a->fixed_size;
    }
    if (!named || (strstr(n, "backward") && !strstr(n, "upsample"))) return 0;
    for (int k = 1; k <= TA_PLAN_MAX_SPATIAL; k++) {
        char tag[3] = {(char)('0' + k), 'd', '\0'};
        if (strstr(n, tag)) return k;
    }
    return 0;
}

/* ---- the plan ----------------------------------------------------------- */

/* Sizes for a spatial operator: inputs 3 to 5 wide, kernels of 1 or 2,
 * strides of 1 or 2, padding at most half the kernel; adaptive and upsampled
 * output sizes within reason. */
static void plan_spatial(ta_synth_plan *p, prng *r)
{
    p->batched = p->names->upsample || draw(r, 5) != 0; /* upsampling takes batches only */
    p->batch = 1 + draw(r, 2);
    p->channels = 1 + draw(r, 3);
    p->out_channels = 1 + draw(r, 3);
    for (int k = 0; k < p->names->spatial; k++) {
        p->size[k] = 3 + draw(r, 3);
        p->kernel[k] = 1 + draw(r, 2);
        p->stride[k] = 1 + draw(r, 2);
        p->padding[k] = draw(r, p->kernel[k] / 2 + 1);
        p->out_size[k] = p->names->upsample ? 1 + draw(r, 2 * p->size[k]) : 1 + draw(r, p->size[k]);
    }
}

/* Optional arguments that go in pairs: upsampling takes exactly one of
 * output_size and scale_factors, clamp at least one of min and max, batch
 * norm both running statistics (ATen 1.13.1's CPU kernel dereferences them
 * without a check when it is not training). */
static void plan_optionals(ta_synth_plan *p, prng *r)
{
    const ta_synth_names *n = p->names;
    if (n->output_size >= 0 && n->scale_factors >= 0) {
        bool size = draw(r, 2) == 0;
        p->optional[n->output_size] = size ? TA_OPT_GIVE : TA_OPT_NONE;
        p->optional[n->scale_factors] = size ? TA_OPT_NONE : TA_OPT_GIVE;
    }
    if (n->min >= 0 && n->max >= 0) {
        int64_t which = draw(r, 3); /* min, max, both */
        p->optional[n->min] = which != 1 ? TA_OPT_GIVE : TA_OPT_NONE;
        p->optional[n->max] = which != 0 ? TA_OPT_GIVE : TA_OPT_NONE;
    }
    if (n->running_mean >= 0 && n->running_var >= 0)
        p->optional[n->running_mean] = p->optional[n->running_var] = TA_OPT_GIVE;
    if (n->pin_memory >= 0) p->optional[n->pin_memory] = TA_OPT_NONE;
}

static void base_name(const ta_schema *s, char *buf, size_t cap)
{
    const char *n = s->name.ptr;
    size_t len = s->name.len;
    while (len && *n == '_' && !(len > 2 && n[1] == '_' && n[len - 1] == '_')) n++, len--;
    snprintf(buf, cap, "%.*s", (int)len, n);
}

static ta_plan_norm norm_of(const char *n)
{
    if (strstr(n, "batch_norm") || strstr(n, "instance_norm")) return TA_NORM_CHANNELS;
    return strstr(n, "layer_norm") ? TA_NORM_LAST : TA_NORM_NONE;
}

void ta_synth_names_read(const ta_schema *s, const ta_decl *d, ta_synth_names *out)
{
    static const char *const divisions[] = {"div", "div_", "divide", "divide_", "true_divide",
                                            "true_divide_", "floor_divide", "floor_divide_",
                                            "remainder", "remainder_", "fmod", "fmod_", NULL};
    static const char *const infer[] = {"view", "reshape", "expand", "unsafe_view", NULL};
    static const char *const explosive[] = {"kron", "diag", "outer", "ger", "cartesian_prod", "combinations",
                                            "block_diag", "cdist", "pdist", "linalg_", "svd", "pinv",
                                            "matrix_", "qr", "lu", "eig", "cholesky", "lstsq", "det",
                                            "solve", "inverse", "geqrf", "ormqr", "householder", NULL};
    char n[128];
    base_name(s, n, sizeof n);
    memset(out, 0, sizeof *out);
    out->dtypes = wants_integers(n) ? TA_NEED_INTEGRAL : wants_floats(n) ? TA_NEED_FLOATING : TA_NEED_ANY;
    out->norm = norm_of(n);
    out->takes_dim = takes_dim(d);
    for (int i = 0; i < d->nargs; i++)
        if (d->args[i].type == TA_DT_DIMNAME || d->args[i].type == TA_DT_DIMNAME_LIST) out->named = true;
    out->size_may_infer = has_part(n, infer);
    out->nonzero_divisor = in_list(n, divisions);
    out->no_huge = has_part(n, explosive);
    out->index_out = returns_indices(n);
    out->classes = strstr(n, "nll_loss") || (strstr(n, "cross_entropy") && !strstr(n, "binary"));
    out->spatial = spatial_dims(n, d);
    out->conv = out->spatial && strstr(n, "conv");
    out->upsample = out->spatial && strstr(n, "upsample");
    out->output_size = optional_named(d, "output_size");
    out->scale_factors = optional_named(d, "scale_factors");
    out->min = optional_named(d, "min");
    out->max = optional_named(d, "max");
    out->running_mean = optional_named(d, "running_mean");
    out->running_var = optional_named(d, "running_var");
    out->pin_memory = optional_named(d, "pin_memory");
}

void ta_synth_plan_make(ta_synth_plan *p, const ta_decl *d, uint64_t seed)
{
    prng r = {ta_mix64(seed ^ 0x706c616e00000000ull)};
    memset(p, 0, sizeof *p);
    p->names = &d->names;
    p->min_ndim = d->names.takes_dim && draw(&r, 5) != 0 ? 1 : 0;
    if (d->names.norm == TA_NORM_CHANNELS) p->min_ndim = 2;
    if (d->names.norm == TA_NORM_LAST) p->min_ndim = 1;
    if (d->names.named && !p->min_ndim) p->min_ndim = 1; /* a Dimname names a dimension */
    p->list_len = 2 + (int)draw(&r, 2);
    p->count = draw(&r, 5);
    if (d->names.classes) {
        p->classes = 2 + draw(&r, 3);
        p->batch = 1 + draw(&r, 3);
    }
    if (d->names.spatial) plan_spatial(p, &r);
    plan_optionals(p, &r);
}

int ta_synth_plan_shape(const ta_synth_plan *p, int64_t *shape)
{
    int k = 0;
    if (p->names->spatial) {
        if (p->batched) shape[k++] = p->batch;
        shape[k++] = p->channels;
        for (int i = 0; i < p->names->spatial; i++) shape[k++] = p->size[i];
        return k;
    }
    if (p->classes) {
        shape[k++] = p->batch;
        shape[k++] = p->classes;
        return k;
    }
    return -1;
}

/* ---- arguments ---------------------------------------------------------- */

static int one_dim(int64_t *shape, int64_t n)
{
    shape[0] = n;
    return 1;
}

/* batch_norm's and instance_norm's [C] tensors; layer_norm's affine ones. */
static int norm_tensor(const ta_synth_plan *p, const char *n, int ndim, const int64_t *main, int64_t *shape,
                       int64_t *lo)
{
    static const char *const channel_args[] = {"running_mean", "running_var", "weight", "bias", "save_mean",
                                               "save_invstd", "save_var", "mean", "invstd", NULL};
    static const char *const affine[] = {"weight", "bias", NULL};
    if (p->names->norm == TA_NORM_CHANNELS && ndim >= 2 && in_list(n, channel_args)) {
        if (!strcmp(n, "running_var") || !strcmp(n, "invstd") || !strcmp(n, "save_invstd")) *lo = 1;
        return one_dim(shape, main[1]);
    }
    if (p->names->norm == TA_NORM_LAST && ndim >= 1 && in_list(n, affine)) return one_dim(shape, main[ndim - 1]);
    return -1;
}

/* A convolution's weight [out_channels, channels, kernel...] and bias. */
static int conv_tensor(const ta_synth_plan *p, const char *n, int64_t *shape)
{
    if (!p->names->conv) return -1;
    if (!strcmp(n, "bias")) return one_dim(shape, p->out_channels);
    if (strcmp(n, "weight")) return -1;
    int k = 0;
    shape[k++] = p->out_channels;
    shape[k++] = p->channels;
    for (int i = 0; i < p->names->spatial; i++) shape[k++] = p->kernel[i];
    return k;
}

/* The gradient of an upsampling backward: the forward's output, [batch,
 * channels, out...], out the output_size given or the input's size times
 * the scale factor (ta_synth_plan_floats), as ATen computes it. */
static int upsampled_tensor(const ta_synth_plan *p, const char *n, int64_t *shape)
{
    const ta_synth_names *names = p->names;
    if (!names->upsample || strcmp(n, "grad_output")) return -1;
    bool scaled = names->scale_factors >= 0 && p->optional[names->scale_factors] == TA_OPT_GIVE;
    double scale[TA_PLAN_MAX_SPATIAL];
    int k = 0;
    ta_synth_plan_floats(p, NULL, scale);
    shape[k++] = p->batch;
    shape[k++] = p->channels;
    for (int i = 0; i < names->spatial; i++)
        shape[k++] = scaled ? (int64_t)((double)p->size[i] * scale[i]) : p->out_size[i];
    return k;
}

int ta_synth_plan_tensor(const ta_synth_plan *p, const ta_decl_slot *a, int ndim, const int64_t *main,
                         int64_t *shape, int64_t *lo, int64_t *hi, DLDataType *dtype)
{
    const char *n = a->name;
    int k;
    *lo = -4;
    *hi = 5;
    if (a->is_out) return -1;
    if ((k = norm_tensor(p, n, ndim, main, shape, lo)) >= 0) return k;
    if ((k = conv_tensor(p, n, shape)) >= 0) return k;
    if ((k = upsampled_tensor(p, n, shape)) >= 0) return k;
    if (p->classes && !strcmp(n, "target")) {
        *dtype = TA_DTYPE_I64;
        *lo = 0;
        *hi = p->classes;
        return one_dim(shape, p->batch);
    }
    if (p->classes && !strcmp(n, "weight")) return one_dim(shape, p->classes);
    if (p->names->nonzero_divisor && (!strcmp(n, "other") || !strcmp(n, "divisor"))) {
        *lo = 1;
        if (ndim) memcpy(shape, main, (size_t)ndim * sizeof *shape);
        return ndim;
    }
    return -1;
}

int ta_synth_plan_ints(const ta_synth_plan *p, const ta_decl_slot *a, int ndim, const int64_t *main,
                       int64_t *out)
{
    const char *n = a->name;
    int spatial = p->names->spatial;
    if (p->names->norm == TA_NORM_LAST && !strcmp(n, "normalized_shape") && ndim >= 1)
        return one_dim(out, main[ndim - 1]);
    if (p->names->upsample && !strcmp(n, "input_size")) return ta_synth_plan_shape(p, out);
    if (!spatial || !spatial_name(n)) return -1;
    if (!strcmp(n, "output_size") && a->fixed_size > spatial) return -1; /* input_size-like */
    for (int i = 0; i < spatial; i++) {
        out[i] = !strcmp(n, "kernel_size")      ? p->kernel[i]
                 : !strcmp(n, "stride")         ? p->stride[i]
                 : !strcmp(n, "padding")        ? p->padding[i]
                 : !strcmp(n, "output_size")    ? p->out_size[i]
                 : !strcmp(n, "output_padding") ? 0
                                                : 1; /* dilation */
    }
    return spatial;
}

int ta_synth_plan_floats(const ta_synth_plan *p, const ta_decl_slot *a, double *out)
{
    if (!p->names->spatial || (a && strcmp(a->name, "scale_factors"))) return -1;
    for (int i = 0; i < p->names->spatial; i++) out[i] = 1.5 + 0.5 * (double)(i % 2);
    return p->names->spatial;
}

bool ta_synth_plan_int(const ta_synth_plan *p, const char *name, int64_t *out)
{
    static const char *const counts[] = {"steps", "window_length", "num_samples", "bins", NULL};
    if (in_list(name, counts)) {
        *out = p->count;
        return true;
    }
    if (!strcmp(name, "groups")) {
        *out = 1;
        return true;
    }
    return false;
}

bool ta_synth_plan_bool(const ta_synth_plan *p, const char *name, bool *out)
{
    (void)p;
    if (strcmp(name, "pin_memory")) return false;
    *out = false;
    return true;
}
