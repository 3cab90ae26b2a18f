/* samples.h - building a case from a samples file entry (see exec.h). */
#ifndef TA_EXEC_SAMPLES_H
#define TA_EXEC_SAMPLES_H

#include "exec/synth.h"

/* Builds sample number k of op into c (arguments it leaves out are
 * synthesized from k as a seed). */
ta_status ta_samples_build(const ta_samples *sm, const char *op, size_t k, ta_exec *x,
                           const ta_schema *s, const ta_decl *d, ta_case *c);

#endif
