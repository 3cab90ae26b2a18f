/* learn.h - what a rejection says: a kernel's message read into candidate
 * facts (hints.h), each a condition the rejected case breaks and the atom
 * to adjust so that it holds, most likely first.
 *
 * The message is read in four ways, and every candidate is checked against
 * the rejected case's model (false there, made true by adjusting its atom):
 *   - c10's and ATen's own messages, by template ("Dimension out of range
 *     (expected to be in range of [-1, 0], but got 1)", "TensorAccessor
 *     expected 1 dims but tensor has 2", "expected scalar type Long but found
 *     Float", "The size of tensor a (4) must match the size of tensor b (3)
 *     at non-singleton dimension 1", TensorArg's checks...);
 *   - a check's own condition, which TORCH_CHECK without a message, an
 *     internal assert and TORCH_CHECK_EQ quote ("Expected x.size(0) ==
 *     y.size(0) to be true, but got false"): parsed (cond.h), its names bound
 *     to the schema's arguments (by name, or each way that fits when the
 *     kernel's names are not the schema's, as for an inferred `Tensor _0`);
 *   - words: a named argument with a rank ("rois must have shape as
 *     Tensor[K, 5]", "boxes should be a 2d tensor"), a size in a dimension,
 *     a dtype, "contiguous", "empty", "defined";
 *   - numbers: a value the message says was expected beside the one it got
 *     ("Expected: 5, Got: 3", "(2 vs. 1)", "got [2, 4]"): every atom of the
 *     case that has the value got, set to the one expected.
 * When none of these gives anything, blind guesses follow (another rank,
 * dtype or size for each tensor, contiguity, sizes made equal), marked so:
 * the search keeps a guess only when the kernel then fails later. */
#ifndef TA_EXEC_DISCOVER_LEARN_H
#define TA_EXEC_DISCOVER_LEARN_H

#include "exec/discover/model.h"

enum { DSC_MAX_CANDS = 64, DSC_CAND_TEXT = 320 };

typedef struct dsc_cands {
    int n;
    char text[DSC_MAX_CANDS][DSC_CAND_TEXT]; /* "cond @ atom", names bound */
    bool informed[DSC_MAX_CANDS];            /* read from the message, not guessed */
} dsc_cands;

/* Candidate facts for the case of model m (declaration d) that the kernel
 * rejected with msg; out->n may be 0. */
void dsc_learn(const char *msg, const dsc_model *m, const ta_decl *d, dsc_cands *out);

#endif
