/* verify_derived.h - the operators autogen derives (torchgen's rules, from
 * the kinds module), registered for verification with kernels composed from
 * their base kernels. */
#ifndef TA_VERIFY_DERIVED_H
#define TA_VERIFY_DERIVED_H

#include "tensoralias/exec.h"
#include "tensoralias/native.h"

typedef struct ta_vderived ta_vderived;

/* Derives the autogen operators of f and registers their schemas (no
 * kernels yet), so kernel libraries can register kernels for them by name.
 * NULL when nothing could be derived. f must outlive the result. */
ta_vderived *ta_vderived_register_schemas(const ta_native_file *f, ta_registry *reg);
/* After the kernel libraries: every derived operator without a kernel of
 * its own whose base has a kernel gets the composed one; with replace, also
 * those a library implements itself (its kernel is dropped). Returns how
 * many. */
size_t ta_vderived_add_kernels(ta_vderived *v, ta_registry *reg, bool replace);
void ta_vderived_destroy(ta_vderived *v);

#endif
