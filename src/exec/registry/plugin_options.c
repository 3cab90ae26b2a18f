/* plugin_options.c - what a host and a bridge plugin tell each other
 * beyond kernels: options the host gives the plugins it loads
 * (ta_registry_set_option, ta_registry_option: "torch.library" -> the
 * extension library the libtorch bridge loads), and the operators whose
 * schema in the bridged framework differs from the one verified against
 * (ta_registry_schema_mismatch, reported by verify), the screens a bridge
 * offers for input discovery (ta_register_screen), and what a bridge puts
 * back between the operators one child runs (ta_registry_on_process_reset). */
#include <string.h>

#include "exec/registry/registry_internal.h"

/* key -> value in the registry's arena; a key set twice keeps its first value. */
static ta_status put(ta_registry *reg, ta_map *m, const char *key, const char *value)
{
    ta_arena *a = registry_arena(reg);
    char *k = ta_arena_strndup(a, key, strlen(key));
    char *v = ta_arena_strndup(a, value, strlen(value));
    if (!k || !v) return TA_ERR_NOMEM;
    return ta_map_add(m, k, strlen(k), ta_map_ptr(v), NULL);
}

ta_status ta_registry_set_option(ta_registry *reg, const char *key, const char *value)
{
    if (!reg || !key || !value) return TA_ERR_INVALID;
    return put(reg, &registry_ext(reg)->options, key, value);
}

const char *ta_registry_option(const ta_registry *reg, const char *key)
{
    if (!reg || !key) return NULL;
    const ta_map_entry *e = ta_map_find_str(&registry_ext_const(reg)->options, key);
    return e ? e->value.ptr : NULL;
}

ta_status ta_registry_schema_mismatch(ta_registry *reg, const char *op, const char *message)
{
    if (!reg || !op || !message) return TA_ERR_INVALID;
    return put(reg, &registry_ext(reg)->mismatches, op, message);
}

const char *registry_mismatch(const ta_registry *reg, const char *op)
{
    const ta_map_entry *e = ta_map_find_str(&registry_ext_const(reg)->mismatches, op);
    return e ? e->value.ptr : NULL;
}

typedef struct screen_rec {
    ta_kernel_fn fn;
    void *ud;
} screen_rec;

ta_status ta_register_screen(ta_registry *reg, const char *op, ta_kernel_fn fn, void *user_data)
{
    if (!reg || !op || !fn) return TA_ERR_INVALID;
    ta_arena *a = registry_arena(reg);
    char *k = ta_arena_strndup(a, op, strlen(op));
    screen_rec *r = ta_arena_alloc(a, sizeof *r);
    if (!k || !r) return TA_ERR_NOMEM;
    *r = (screen_rec){fn, user_data};
    return ta_map_add(&registry_ext(reg)->screens, k, strlen(k), ta_map_ptr(r), NULL);
}

ta_kernel_fn registry_screen(const ta_registry *reg, const char *op, void **user_data)
{
    const ta_map_entry *e = ta_map_find_str(&registry_ext_const(reg)->screens, op);
    const screen_rec *r = e ? e->value.ptr : NULL;
    if (user_data) *user_data = r ? r->ud : NULL;
    return r ? r->fn : NULL;
}

ta_status ta_registry_on_process_reset(ta_registry *reg, ta_process_reset_fn fn, void *ud)
{
    if (!reg || !fn) return TA_ERR_INVALID;
    ta_registry_ext *x = registry_ext(reg);
    if (x->nresets == TA_MAX_PROCESS_RESETS)
        return ta_registry_plugin_error(reg, "more than %d process resets registered", TA_MAX_PROCESS_RESETS);
    x->resets[x->nresets].fn = fn;
    x->resets[x->nresets++].ud = ud;
    return TA_OK;
}
