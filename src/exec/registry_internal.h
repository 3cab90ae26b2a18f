/* registry_internal.h - what other files of src/exec may ask of the
 * registry beyond the public API. */
#ifndef TA_EXEC_REGISTRY_INTERNAL_H
#define TA_EXEC_REGISTRY_INTERNAL_H

#include "tensoralias/exec.h"

/* The registry frees p with free_fn when it is destroyed. */
ta_status ta_registry_adopt_(ta_registry *reg, void *p, void (*free_fn)(void *));

#endif
