/* plugin_options.c - options the host gives the plugins it loads
 * (ta_registry_set_option, ta_registry_option): how a command tells a
 * bridge plugin what to bridge ("torch.library" -> the extension library
 * the libtorch bridge loads), without a second entry point. */
#include <string.h>

#include "exec/registry_internal.h"

ta_status ta_registry_set_option(ta_registry *reg, const char *key, const char *value)
{
    if (!reg || !key || !value) return TA_ERR_INVALID;
    ta_arena *a = ta_registry_arena_(reg);
    char *k = ta_arena_strndup(a, key, strlen(key));
    char *v = ta_arena_strndup(a, value, strlen(value));
    if (!k || !v) return TA_ERR_NOMEM;
    return ta_map_add(&ta_registry_ext_(reg)->options, k, strlen(k), ta_map_ptr(v), NULL);
}

const char *ta_registry_option(const ta_registry *reg, const char *key)
{
    if (!reg || !key) return NULL;
    const ta_map_entry *e = ta_map_find_str(&ta_registry_ext_const_(reg)->options, key);
    return e ? e->value.ptr : NULL;
}
