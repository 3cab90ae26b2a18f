/* registry_internal.h - what other files of src/exec may ask of the
 * registry beyond the public API: ownership of their data, the registry's
 * arena, and the room they keep their state in. Its names carry the
 * prefix registry_ (the public ones are ta_registry_*). */
#ifndef TA_EXEC_REGISTRY_REGISTRY_INTERNAL_H
#define TA_EXEC_REGISTRY_REGISTRY_INTERNAL_H

#include "base/map.h"
#include "tensoralias/exec.h"

typedef struct ta_autogen_ops ta_autogen_ops; /* autogen_ops.c */

/* State the other files of src/exec keep in a registry. */
typedef struct ta_registry_ext {
    /* schema_source.c: the yaml of ta_registry_use_native, its entries'
     * names and schema texts ("ns::func") in yaml order, and the same by
     * name (first entry of a name). Strings live in the registry's arena. */
    const ta_native_file *native;
    const char **source_names, **source_schemas;
    size_t nsource;
    ta_map source_by_name; /* name -> index in source_names */
    /* autogen_ops.c: the derived operators (adopted by the registry). */
    ta_autogen_ops *autogen;
    /* plugin_options.c: what the host tells the plugins it loads, key ->
     * value, both in the registry's arena. */
    ta_map options;
    /* plugin_options.c: op name -> what a bridge says differs between its
     * framework's schema and the one verified against (arena strings). */
    ta_map mismatches;
    /* plugin_options.c: op name -> its screen (ta_register_screen), a
     * registry_screen in the arena. */
    ta_map screens;
    /* plugin_options.c: what a bridge puts back between the operators one
     * child runs (ta_registry_on_process_reset), in registration order. */
    struct {
        ta_process_reset_fn fn;
        void *ud;
    } resets[TA_MAX_PROCESS_RESETS];
    int nresets;
} ta_registry_ext;

ta_registry_ext *registry_ext(ta_registry *reg);
/* What ta_register_screen registered for op: its function (NULL when
 * none) and user data. */
ta_kernel_fn registry_screen(const ta_registry *reg, const char *op, void **user_data);
/* What ta_registry_schema_mismatch recorded for op, or NULL. */
const char *registry_mismatch(const ta_registry *reg, const char *op);
const ta_registry_ext *registry_ext_const(const ta_registry *reg);
/* The registry's own diagnostics (those ta_registry_take_diags moves out). */
ta_diags *registry_diags(ta_registry *reg);
/* Memory that lives as long as the registry. */
ta_arena *registry_arena(ta_registry *reg);
/* The registry frees p with free_fn when it is destroyed (in reverse order
 * of adoption, before closing plugins). On TA_ERR_NOMEM p is freed at once. */
ta_status registry_adopt(ta_registry *reg, void *p, void (*free_fn)(void *));

#endif
