/* rules_custom_names.c - what a custom operator's names say about writes.
 *
 * Custom operators follow fewer conventions than native_functions.yaml, but
 * their names still tell: a tensor called "out" or "dst" is where results
 * go, a "key_cache" passed to a "reshape_and_cache" is what gets stored
 * into, an operator called "fill_" or "..._inplace" changes its input. The
 * tables here were tuned on the custom operators of real extension
 * libraries (vLLM, sgl-kernel, FBGEMM, xformers, flash-attention, torchao,
 * ...): the exceptions are the names that looked like destinations there
 * but were inputs (grad_output, gating_output, out_multiplier,
 * cos_sin_cache, cache_indices, output_offsets, ...). */
#include <ctype.h>
#include <string.h>

#include "alias/rules_custom_internal.h"

/* ---- words in snake_case and camelCase names ------------------------------- */

/* Case-insensitive equality of n[0..len) with a lower-case word. */
static bool word_is(const char *n, uint32_t len, const char *w)
{
    size_t k = strlen(w);
    if (len != k) return false;
    for (uint32_t i = 0; i < len; i++)
        if (tolower((unsigned char)n[i]) != w[i]) return false;
    return true;
}

static bool in_list(const char *n, uint32_t len, const char *const *words)
{
    for (; *words; words++)
        if (word_is(n, len, *words)) return true;
    return false;
}

/* Case-insensitive: does s[0..n) contain w? */
static bool contains(const char *s, uint32_t n, const char *w)
{
    size_t k = strlen(w);
    for (uint32_t i = 0; i + k <= n; i++) {
        size_t j = 0;
        while (j < k && tolower((unsigned char)s[i + j]) == w[j]) j++;
        if (j == k) return true;
    }
    return false;
}

/* The descriptors that make "out_X" or "output_X" an input describing the
 * output (its offsets, sizes, scale, ...), not the output itself; X is
 * one, or ends in one. */
static const char *const descriptors[] = {
    "offset", "offsets", "size", "sizes", "shape", "shapes", "stride", "strides", "dim", "dims",
    "len", "lens", "length", "lengths", "dtype", "dtypes", "type", "features", "channels",
    "numel", "start", "end", "start_idx", "end_idx", "idx", "index", "indices", "loc", "locs",
    "ptr", "ptrs", "scale", "scales", "zero_point", "zero_points", "multiplier", "shift",
    "grad", "grads", "mask", "ids", "id", "rank", "ranks", "spec", "layout", "batch_size",
    "gate", NULL};

/* Whether n[0..len) has several '_'-separated words and the last names a
 * parameter applied to the output (output_norm_weight); a lone "weight"
 * may be what is written (out_weight), and a last "indices" the indices
 * written (out_raw_indices). */
static bool last_word_describes(const char *n, uint32_t len)
{
    static const char *const params[] = {"weight", "weights", "bias", NULL};
    uint32_t i = len;
    while (i > 0 && n[i - 1] != '_') i--;
    return i > 0 && in_list(n + i, len - i, params);
}

/* Names that end like a destination but are inputs. */
static const char *const input_names[] = {
    "grad_out", "grad_output", "grad_outputs", "d_out", "dout", "gating_output",
    "prefix_output", "suffix_output", "input_or_output", "router_output", "prev_output",
    "forward_output", "fwd_output", "base_output", NULL};

static bool gradient_like(const char *n, uint32_t len)
{
    return contains(n, len, "grad") || (len >= 2 && (n[0] == 'd' || n[0] == 'D') &&
                                        (word_is(n, len, "dout") || word_is(n, len, "do") ||
                                         !strncmp(n, "d_", 2)));
}

/* Whether a backward operator's "out" is the forward output it reads. */
static bool backward_op(ta_str op)
{
    return contains(op.ptr, op.len, "backward") || contains(op.ptr, op.len, "bwd") ||
           contains(op.ptr, op.len, "_grad");
}

/* "out" and "output" with an optional trailing underscore or number. */
static bool bare_out(const char *n, uint32_t len)
{
    while (len > 0 && (isdigit((unsigned char)n[len - 1]) || n[len - 1] == '_')) len--;
    return word_is(n, len, "out") || word_is(n, len, "output") || word_is(n, len, "outputs") ||
           word_is(n, len, "outs");
}

bool ta_custom_gradient_name(ta_str arg) { return arg.len && gradient_like(arg.ptr, arg.len); }

bool ta_custom_out_name(ta_str arg) { return bare_out(arg.ptr, arg.len); }

/* "x_out", "attn_output": the part after the last '_' is "out" or "output". */
static bool out_suffix(const char *n, uint32_t len)
{
    for (uint32_t i = len; i-- > 1;)
        if (n[i] == '_') return word_is(n + i + 1, len - i - 1, "out") ||
                                word_is(n + i + 1, len - i - 1, "output");
    return false;
}

bool ta_custom_out_convention_name(ta_str arg)
{
    const char *n = arg.ptr;
    uint32_t len = arg.len;
    if (!len || in_list(n, len, input_names) || gradient_like(n, len)) return false;
    return bare_out(n, len) || out_suffix(n, len);
}

ta_dest_kind ta_custom_dest_name(ta_str arg, ta_str op)
{
    const char *n = arg.ptr;
    uint32_t len = arg.len;
    if (!len || in_list(n, len, input_names) || gradient_like(n, len)) return TA_DEST_NONE;
    if (bare_out(n, len) || word_is(n, len, "dst") || word_is(n, len, "dest") ||
        word_is(n, len, "result"))
        return backward_op(op) && bare_out(n, len) ? TA_DEST_NONE : TA_DEST_CERTAIN;
    /* x_out, attn_output, y_dst */
    const char *u = NULL;
    for (uint32_t i = len; i-- > 1;)
        if (n[i] == '_') {
            u = n + i;
            break;
        }
    if (u) {
        uint32_t tail = len - (uint32_t)(u + 1 - n);
        /* fc2_out, fused_experts_out: as often the output of an earlier
         * stage, read here, as the destination */
        if (word_is(u + 1, tail, "out") || word_is(u + 1, tail, "dst") ||
            word_is(u + 1, tail, "output") || word_is(u + 1, tail, "outputs"))
            return TA_DEST_LIKELY;
    }
    /* out_partial, output_q, dst_tokens: unless the rest describes the output */
    static const char *const prefixes[] = {"out_", "output_", "dst_", NULL};
    for (const char *const *p = prefixes; *p; p++) {
        size_t k = strlen(*p);
        if (len > k && !strncmp(n, *p, k))
            return in_list(n + k, len - (uint32_t)k, descriptors) ||
                           last_word_describes(n + k, len - (uint32_t)k)
                       ? TA_DEST_NONE
                       : TA_DEST_LIKELY;
    }
    return TA_DEST_NONE;
}

/* ---- caches ------------------------------------------------------------------ */

/* Whether every '_'-separated word of n[0..len) is "cache" or one of
 * the key/value words, with "cache" among them: cache_K, cache_kv. */
static bool kv_cache_words(const char *n, uint32_t len)
{
    static const char *const kv[] = {"k", "v", "kv", "key", "value", "keys", "values", NULL};
    bool cache = false;
    uint32_t i = 0;
    while (i < len) {
        uint32_t j = i;
        while (j < len && n[j] != '_') j++;
        if (word_is(n + i, j - i, "cache")) cache = true;
        else if (!in_list(n + i, j - i, kv)) return false;
        i = j + 1;
    }
    return cache;
}

bool ta_custom_cache_name(ta_str arg)
{
    const char *n = arg.ptr;
    uint32_t len = arg.len;
    if (contains(n, len, "cos") || contains(n, len, "sin") || contains(n, len, "rope") ||
        contains(n, len, "rotary"))
        return false;
    if (kv_cache_words(n, len)) return true;
    if (len > 0 && n[len - 1] == 's') len--; /* caches */
    return len >= 5 && word_is(n + len - 5, 5, "cache");
}

bool ta_custom_stores_op(ta_str op)
{
    static const char *const verbs[] = {"store", "write", "fill", "copy", "update", "append",
                                        "insert", "put", "scatter", "save", "concat_and_cache",
                                        "reshape_and_cache", "set_kv", "to_cache", "into_cache",
                                        NULL};
    for (const char *const *v = verbs; *v; v++)
        if (contains(op.ptr, op.len, *v)) return true;
    return false;
}

/* Whether a word of snake_case name op (split at '_') is one of words. */
static bool has_word(ta_str op, const char *const *words)
{
    uint32_t i = 0;
    while (i < op.len) {
        uint32_t j = i;
        while (j < op.len && op.ptr[j] != '_') j++;
        if (j > i && in_list(op.ptr + i, j - i, words)) return true;
        i = j + 1;
    }
    return false;
}

/* Whole words only: "dequantize_fp8_cache" reads its cache. */
bool ta_custom_transforms_op(ta_str op)
{
    static const char *const verbs[] = {"quantize", "quant", "rope", NULL};
    return has_word(op, verbs);
}

bool ta_custom_position_name(ta_str arg)
{
    static const char *const words[] = {"pos", "seqpos", "position", "positions", "slot",
                                        "slots", "loc", "locs", NULL};
    return has_word(arg, words);
}

/* ---- operator names ------------------------------------------------------------ */

const char *ta_custom_mutating_name(ta_str op)
{
    const char *n = op.ptr;
    uint32_t len = op.len;
    if (len > 1 && n[len - 1] == '_' && !(len > 4 && n[0] == '_' && n[1] == '_'))
        return "a trailing '_'";
    if (contains(n, len, "inplace") || contains(n, len, "in_place")) return "'inplace'";
    return NULL;
}

bool ta_custom_inplace_flag(ta_str arg)
{
    return word_is(arg.ptr, arg.len, "inplace") || word_is(arg.ptr, arg.len, "in_place");
}

/* Operators that act through side effects: setting up communication,
 * memory advice, assertions, logging, files. They may return nothing and
 * write nothing. */
bool ta_custom_side_effect_op(ta_str op)
{
    static const char *const words[] = {
        "assert", "check", "print", "log", "record", "register", "destroy",
        "dispose", "free", "release", "sync", "synchronize", "barrier", "wait", "sleep",
        "prefetch", "advise", "advice", "warmup", "profile", "trace", "dump", "flush", "signal",
        "notify", "nccl", "file", "encode", "send", "recv", "broadcast", NULL};
    return has_word(op, words) || (op.len > 4 && !strncmp(op.ptr, "set_", 4));
}

bool ta_custom_input_name(ta_str arg)
{
    static const char *const inputs[] = {
        "input", "inputs", "inp", "x", "a", "b", "q", "k", "v", "query", "key", "value", "weight",
        "weights", "bias", "scale", "scales", "src", "indices", "index", "idx", "offsets",
        "lengths", "seq_lens", "mask", "positions", "topk_ids", "topk_weights", "block_table",
        "block_tables", "slot_mapping", "workspace", "hidden_states", NULL};
    return in_list(arg.ptr, arg.len, inputs) || (arg.len > 4 && !strncmp(arg.ptr, "src_", 4));
}
