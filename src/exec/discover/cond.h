/* cond.h - the conditions input discovery learns, in one small language
 * over a case's arguments: the checks a kernel makes (TORCH_CHECK's
 * stringified condition, as the kernel's message quotes it) and what the
 * learner makes of a message in words.
 *
 *   rois.dim() == 2            rois.size(1) == 5          x.size(-1) == y.size(0) + 1
 *   idx.max() < w.size(0)      x.dtype() == kLong          x.is_contiguous()
 *   groups > 0                 lst.size() == 3             lst[i].dim() == 1   (every item)
 *   (a.dtype() == kFloat || a.dtype() == kDouble) && a.numel() > 0
 *
 * C++ spellings are read as they stand in a kernel (ndimension(), sizes()[k],
 * sizes().size(), scalar_type(), torch::kFloat32, at::ScalarType::Long,
 * static_cast<T>(e), device().is_cpu()). Names are the schema's arguments;
 * a name that is none of them is a free variable, which the caller binds to
 * an argument (binding[f], -1 unbound), and an index that is no number
 * ([i]) means every item of the list. A condition evaluates over a case
 * model (model.h) to true, false or unknown (what the model cannot say: a
 * tensor's value at an index, an unbound name). Its atoms (x.dim(),
 * x.size(k), x.numel(), x.dtype(), x.is_contiguous(), x.defined(),
 * x.min(), x.max(), an int or bool argument, a list's length) are what a
 * fact adjusts to make it true (dsc_cond_solve). Prefix dsc_ (discovery). */
#ifndef TA_EXEC_DISCOVER_COND_H
#define TA_EXEC_DISCOVER_COND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exec/registry/decl.h"
#include "tensoralias/kernel.h"

enum { DSC_COND_NODES = 96, DSC_MAX_FREE = 6, DSC_NAME_MAX = 48 };

typedef enum dsc_op {
    DSC_NUM,      /* v */
    DSC_DTYPEC,   /* a dtype constant: v is dsc_dtype_pack's */
    DSC_REF,      /* an argument (v >= 0) or free variable -(v + 1) */
    DSC_ITEM,     /* a[b]: an item of a list (b -1: every item) or of an int list */
    DSC_SIZES,    /* a.sizes(): only .size() and [k] of it mean something */
    /* atoms */
    DSC_DIM, DSC_SIZE, DSC_NUMEL, DSC_DTYPE, DSC_CONTIG, DSC_DEFINED, DSC_MIN, DSC_MAX, DSC_LEN,
    DSC_TRUE,     /* device().is_cpu() and the like: true on the CPU */
    DSC_UNKNOWN,
    DSC_NEG, DSC_NOT,
    DSC_ADD, DSC_SUB, DSC_MUL, DSC_DIV, DSC_MOD,
    DSC_EQ, DSC_NE, DSC_LT, DSC_LE, DSC_GT, DSC_GE, DSC_AND, DSC_OR
} dsc_op;

typedef struct dsc_node {
    uint8_t op;
    int16_t a, b; /* operands (node indices), -1 when none */
    int64_t v;
} dsc_node;

typedef struct dsc_cond {
    dsc_node n[DSC_COND_NODES];
    int nn, root;
    char free[DSC_MAX_FREE][DSC_NAME_MAX]; /* the free variables' names, as written */
    int nfree;
} dsc_cond;

struct dsc_model;

/* Parses text[0..len) against the arguments of d: false when it is not a
 * condition of this language (or too large). */
bool dsc_cond_parse(dsc_cond *c, const char *text, size_t len, const ta_decl *d);

/* 1 true, 0 false, -1 unknown. binding may be NULL (every free variable
 * unbound). */
int dsc_cond_eval(const dsc_cond *c, const struct dsc_model *m, const int *binding);

/* The value of node k (an atom or any integer expression): true with *v set,
 * false when unknown. Items of "every" index are item 0's. */
bool dsc_cond_value(const dsc_cond *c, int k, const struct dsc_model *m, const int *binding, int64_t *v);

/* Whether node k is an atom a fact can adjust (given the binding). */
bool dsc_cond_is_atom(const dsc_cond *c, int k, const struct dsc_model *m, const int *binding);

/* The atoms of c, in order of appearance, into out[0..cap): their count. */
int dsc_cond_atoms(const dsc_cond *c, const struct dsc_model *m, const int *binding, int *out, int cap);

/* Makes c true by adjusting atom k alone: the value nearest its present one
 * that does (nonzero sizes preferred). false, with m unchanged, when none
 * does or c cannot be evaluated. */
bool dsc_cond_solve(const dsc_cond *c, int k, struct dsc_model *m, const int *binding);

/* Whether dsc_cond_solve would succeed; m is left as it was. */
bool dsc_cond_solvable(const dsc_cond *c, int k, struct dsc_model *m, const int *binding);

/* Node k (the whole condition: c->root) as text, names bound by binding;
 * the length it needs (snprintf's convention). */
size_t dsc_cond_print(const dsc_cond *c, int k, const ta_decl *d, const int *binding, char *buf, size_t cap);

/* The argument node k refers to (through items and methods), or -1. */
int dsc_cond_ref_arg(const dsc_cond *c, int k, const int *binding);

/* Dtypes as the language spells them (kFloat, kLong...). */
int64_t dsc_dtype_pack(DLDataType t);
DLDataType dsc_dtype_unpack(int64_t v);
/* A dtype by a C++ or Python name (Float, kFloat32, float32, Long, int64, ...). */
bool dsc_dtype_by_name(const char *name, size_t len, DLDataType *out);
/* The name the language prints ("kFloat"), or NULL. */
const char *dsc_dtype_spelling(DLDataType t);

#endif
