/* samples.h - samples files inside the engine: reading a tensor object, and
 * building a case from a sample (the file format is in samples.c, the public
 * calls in exec.h). */
#ifndef TA_EXEC_SYNTH_SAMPLES_H
#define TA_EXEC_SYNTH_SAMPLES_H

#include <jansson.h>

#include "exec/synth/synth.h"

/* Limits that keep a case affordable and its arithmetic far from overflow:
 * sizes, strides, offsets and element counts up to 2^24, storages up to
 * 2^27 bytes, all the storages of a case together up to 2^27 bytes (a
 * sample past it is rejected, before anything is allocated), 16 tensors in
 * a list, 64 values in other lists. */
#define TA_SAMPLE_LIMIT (1 << 24)
#define TA_SAMPLE_MAX_BYTES (1 << 27)
#define TA_SAMPLE_MAX_CASE_BYTES (1 << 27)
#define TA_SAMPLE_MAX_LIST 16
#define TA_SAMPLE_MAX_INTS 64

/* Case seeds below this name samples (the seed is the sample's index in its
 * operator's list); synthesized cases' seeds are never below it. */
#define TA_SAMPLE_SEEDS (1ull << 32)

/* A tensor object, read and checked. */
typedef struct ta_sample_tensor {
    DLDataType dtype;
    int ndim;
    int64_t shape[TA_CASE_MAX_DIM], strides[TA_CASE_MAX_DIM];
    bool has_strides;
    int64_t offset; /* elements */
    bool has_storage;
    int64_t storage;       /* the sample's name for a shared storage */
    int64_t storage_bytes; /* 0: what the views need */
    json_t *values;        /* borrowed, or NULL */
    bool has_range;
    double lo, hi;
    int64_t seed;
} ta_sample_tensor;

/* Reads tensor object o; false with the reason in why. */
bool ta_sample_tensor_read(json_t *o, ta_sample_tensor *t, char *why, size_t cap);
/* Bytes of storage t's view reaches. */
int64_t ta_sample_view_bytes(const ta_sample_tensor *t);
bool ta_sample_dtype(const char *name, DLDataType *dt);
/* "nan", "inf", "-inf" (any case, "infinity" too, an optional sign) and
 * "-0", "-0.0" -> *out; false for anything else. */
bool ta_sample_nonfinite(json_t *v, double *out);

/* Sample k of op, parsed again (the caller decrefs it), or NULL. */
json_t *ta_samples_get(const ta_samples *s, const char *op, size_t k);
/* Whether a sample the kernel rejects is a finding (ta_samples_set_strict). */
bool ta_samples_strict(const ta_samples *s);

/* The file's operators in file order, for checks against a registry
 * (samples_check.c): operator i's name, the byte offset of its name and
 * its number of samples; the byte offset of its sample k; the text. */
size_t ta_samples_nops(const ta_samples *s);
const char *ta_samples_op(const ta_samples *s, size_t i, size_t *name_at, size_t *nsamples);
size_t ta_samples_at(const ta_samples *s, size_t i, size_t k);
const char *ta_samples_text(const ta_samples *s, size_t *len);

/* Builds sample number k of op into c: its arguments as the sample gives
 * them, the others synthesized from a seed derived from k. A sample that
 * does not fit the schema (an argument it does not have, a value of the
 * wrong kind) is TA_ERR_INVALID with the reason in c->note. */
ta_status ta_samples_build(const ta_samples *sm, const char *op, size_t k, ta_exec *x,
                           const ta_schema *s, const ta_decl *d, ta_case *c);

#endif
