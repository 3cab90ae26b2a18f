/* model.h - a case's arguments as discovery reasons about them: each
 * tensor's rank, sizes, dtype, contiguity, presence and range of values,
 * each list's items, each int, bool and float argument's value. Read from a
 * synthesized case (dsc_model_read), changed by facts (cond.h's solve goes
 * through the setters here), and the arguments it changed made again on the
 * case (hints.c). */
#ifndef TA_EXEC_DISCOVER_MODEL_H
#define TA_EXEC_DISCOVER_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/synth/synth.h"

enum { DSC_MAX_ITEMS = 8, DSC_MAX_INTS = 16, DSC_MAX_RANK = 6, DSC_MAX_NUMEL = 1 << 16 };

typedef enum dsc_kind {
    DSC_K_OTHER = 0, /* a value discovery leaves alone */
    DSC_K_TENSOR,    /* Tensor, Tensor? (absent: !defined) */
    DSC_K_LIST,      /* Tensor[], Tensor?[] */
    DSC_K_INT,       /* int, SymInt, and an int Scalar */
    DSC_K_BOOL,
    DSC_K_FLOAT,     /* float, and a float Scalar */
    DSC_K_INTS       /* int[] */
} dsc_kind;

typedef struct dsc_tensor {
    bool defined;
    int ndim;
    int64_t shape[TA_CASE_MAX_DIM];
    DLDataType dtype;
    bool contig;
    bool ranged;    /* its values lie in [lo, hi] (whole numbers) */
    int64_t lo, hi;
    /* A float32/64 tensor's smallest and largest value as read, rounded
     * down (x < n and x >= n hold as they do for floor(x), n whole):
     * what .min() and .max() are when it is not ranged. */
    bool seen;
    int64_t vlo, vhi;
} dsc_tensor;

typedef struct dsc_arg {
    dsc_kind kind;
    bool changed;   /* a fact changed it: it is made again */
    bool present;   /* an optional argument other than a tensor: not None */
    dsc_tensor t;   /* DSC_K_TENSOR */
    int n;          /* DSC_K_LIST items, DSC_K_INTS values */
    dsc_tensor items[DSC_MAX_ITEMS];
    int64_t ints[DSC_MAX_INTS];
    int64_t i;      /* DSC_K_INT, DSC_K_BOOL (0, 1) */
    double f;
} dsc_arg;

typedef struct dsc_model {
    const ta_decl *d;
    int nargs;
    dsc_arg args[TA_CASE_MAX_ARGS];
} dsc_model;

/* The model of case c (its arguments as they are now). */
void dsc_model_read(dsc_model *m, const ta_case *c, const ta_decl *d);

/* The tensor of argument arg (item >= 0: of a list), or NULL. */
dsc_tensor *dsc_model_tensor(dsc_model *m, int arg, int item);
const dsc_tensor *dsc_model_tensor_c(const dsc_model *m, int arg, int item);

int64_t dsc_tensor_numel(const dsc_tensor *t);

/* Setters: each keeps the tensor valid (rank at most DSC_MAX_RANK, at most
 * DSC_MAX_NUMEL elements); false when the value cannot be had. */
bool dsc_tensor_set_dim(dsc_tensor *t, int64_t n);
/* Size k (negative: from the end) := v, growing the rank when k lies past it. */
bool dsc_tensor_set_size(dsc_tensor *t, int64_t k, int64_t v);
bool dsc_tensor_set_numel(dsc_tensor *t, int64_t v);
/* An absent tensor made present takes the shape and dtype of like (or [2]). */
void dsc_tensor_set_defined(dsc_tensor *t, bool on, const dsc_tensor *like);

/* The first present tensor of the model (what an absent one becomes), or NULL. */
const dsc_tensor *dsc_model_first_tensor(const dsc_model *m);

#endif
