/* registry.c - operators, their schemas and their kernels per dispatch key,
 * the custom-operator registration rules, and loading kernel plugins.
 *
 * Rules (PyTorch's custom-operator guide), each breach an error diagnostic
 * with rule id "registration":
 *   - every registration of one overload carries the same schema;
 *   - a catch-all kernel cannot be combined with device kernels of the same
 *     operator;
 *   - an operator may have a schema and no kernel.
 * A second kernel for the same key replaces the first with a warning, as
 * torch does, so a user plugin can stand in for a reference kernel.
 * Schemas are compared by their text with insignificant spaces removed. */
#include <ctype.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/grow.h"
#include "exec/registry/registry_internal.h"
#include "base/map.h"
#include "tensoralias/exec.h"

typedef struct op_rec {
    ta_registry_op pub;
    char *norm; /* normalized schema text, for comparisons */
} op_rec;

struct ta_registry {
    op_rec **ops;   /* in registration order */
    size_t n, cap;
    ta_map by_name; /* op name (borrowed from its op_rec) -> op_rec */
    ta_arena *arena; /* origins and other strings that live as long as the registry */
    ta_schema_lookup_fn lookup;
    void *lookup_ud;
    const char *origin; /* in the arena, or a literal */
    ta_diags *diags;
    void **handles; /* dlopen handles, closed on destroy */
    size_t nhandles, caphandles;
    struct owned { void *p; void (*free_fn)(void *); } *owned; /* derived kernels' data */
    size_t nowned, capowned;
    ta_registry_ext ext; /* what other files of src/exec keep here */
};

static const char *key_name(ta_dispatch_key k)
{
    return k == TA_KEY_CPU ? "CPU" : k == TA_KEY_CUDA ? "CUDA" : "catch-all";
}


ta_status ta_registry_create(ta_registry **out)
{
    ta_registry *r = *out = ta_calloc(1, sizeof *r);
    if (!r) return TA_ERR_NOMEM;
    if (ta_diags_create(&r->diags) != TA_OK || ta_arena_create(&r->arena) != TA_OK) {
        ta_diags_destroy(r->diags);
        free(r);
        *out = NULL;
        return TA_ERR_NOMEM;
    }
    ta_map_init(&r->by_name, NULL);
    r->origin = "<api>";
    return TA_OK;
}

ta_arena *registry_arena(ta_registry *r) { return r->arena; }
ta_diags *registry_diags(ta_registry *r) { return r->diags; }
ta_registry_ext *registry_ext(ta_registry *r) { return &r->ext; }
const ta_registry_ext *registry_ext_const(const ta_registry *r) { return &r->ext; }

void ta_registry_destroy(ta_registry *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->n; i++) {
        free((char *)r->ops[i]->pub.name);
        free((char *)r->ops[i]->pub.schema);
        free(r->ops[i]->norm);
        free(r->ops[i]);
    }
    free(r->ops);
    ta_map_clear(&r->by_name);
    ta_map_clear(&r->ext.source_by_name);
    ta_map_clear(&r->ext.options);
    ta_map_clear(&r->ext.mismatches);
    ta_map_clear(&r->ext.screens);
    free(r->ext.source_names);
    free(r->ext.source_schemas);
    for (size_t i = r->nowned; i-- > 0;) r->owned[i].free_fn(r->owned[i].p);
    free(r->owned);
    ta_diags_destroy(r->diags);
    ta_arena_destroy(r->arena);
    /* Plugins are closed last: nothing above points into them any more. */
    for (size_t i = r->nhandles; i-- > 0;) dlclose(r->handles[i]);
    free(r->handles);
    free(r);
}

void ta_registry_set_schema_lookup(ta_registry *r, ta_schema_lookup_fn fn, void *ud)
{
    r->lookup = fn;
    r->lookup_ud = ud;
}

ta_status ta_registry_set_origin(ta_registry *r, const char *origin)
{
    if (!origin) {
        r->origin = "<api>";
        return TA_OK;
    }
    /* Kept as long as the registry: kernels and schemas point to it. */
    const char *o = ta_arena_strndup(r->arena, origin, strlen(origin));
    if (!o) return TA_ERR_NOMEM;
    r->origin = o;
    return TA_OK;
}

ta_status ta_registry_take_diags(ta_registry *r, ta_diags *into)
{
    /* Only when there is something to move (ta_diags_move passes NULL to memcpy otherwise). */
    return ta_diags_count(r->diags) ? ta_diags_move(into, r->diags) : TA_OK;
}

/* A registration the rules refuse: an error diagnostic (rule
 * "registration", at the current origin); returns why, or TA_ERR_NOMEM
 * when the diagnostic could not be kept. */
static ta_status vrefuse(ta_registry *r, ta_status why, const char *rule, const char *fmt,
                         va_list ap)
{
    ta_loc at = {.file = r->origin};
    ta_status st = ta_diag_vemit(r->diags, TA_SEV_ERROR, &at, rule, fmt, ap);
    return st == TA_OK ? why : st;
}

static ta_status refuse(ta_registry *r, ta_status why, const char *fmt, ...) TA_PRINTF(3, 4);
static ta_status refuse(ta_registry *r, ta_status why, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ta_status st = vrefuse(r, why, "registration", fmt, ap);
    va_end(ap);
    return st;
}

/* A registration that is allowed but worth saying (a kernel replaced). */
static ta_status warn(ta_registry *r, const char *fmt, ...) TA_PRINTF(2, 3);
static ta_status warn(ta_registry *r, const char *fmt, ...)
{
    ta_loc at = {.file = r->origin};
    va_list ap;
    va_start(ap, fmt);
    ta_status st = ta_diag_vemit(r->diags, TA_SEV_WARNING, &at, "registration", fmt, ap);
    va_end(ap);
    return st;
}

/* ---- names and schema text --------------------------------------------- */

size_t ta_op_name_of(const char *s, char *buf, size_t cap)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strcspn(s, "(");
    while (n && isspace((unsigned char)s[n - 1])) n--;
    if (cap) {
        size_t k = n < cap - 1 ? n : cap - 1;
        memcpy(buf, s, k);
        buf[k] = '\0';
    }
    return n;
}

static bool is_punct(char c) { return c && strchr("()[],:|!*?=->.", c) != NULL; }

/* Spaces dropped next to punctuation and collapsed elsewhere, so that
 * "Tensor(a!)  self" and "Tensor(a!) self" compare equal. */
static char *normalize(const char *s)
{
    size_t n = strlen(s);
    char *d = ta_malloc(n + 1), *o = d;
    if (!d) return NULL;
    bool pending_space = false;
    for (const char *p = s; *p; p++) {
        if (isspace((unsigned char)*p)) {
            pending_space = true;
            continue;
        }
        if (pending_space && o > d && !is_punct(o[-1]) && !is_punct(*p)) *o++ = ' ';
        pending_space = false;
        *o++ = *p;
    }
    *o = '\0';
    return d;
}

/* ---- registration ------------------------------------------------------ */

static op_rec *find(const ta_registry *r, const char *name)
{
    const ta_map_entry *e = ta_map_find_str(&r->by_name, name);
    return e ? e->value.ptr : NULL;
}

static op_rec *add_op(ta_registry *r, const char *name)
{
    if (TA_GROW_ONE(r->ops, r->n, r->cap, 16) != TA_OK) return NULL;
    op_rec *o = ta_calloc(1, sizeof *o);
    if (!o || !(o->pub.name = ta_strdup(name)) ||
        ta_map_add(&r->by_name, o->pub.name, strlen(o->pub.name), ta_map_ptr(o), NULL) != TA_OK) {
        if (o) free((char *)o->pub.name);
        free(o);
        return NULL;
    }
    r->ops[r->n++] = o;
    return o;
}

static ta_status set_schema(op_rec *o, const char *text, const char *origin)
{
    char *copy = ta_strdup(text), *norm = normalize(text);
    if (!copy || !norm) {
        free(copy);
        free(norm);
        return TA_ERR_NOMEM;
    }
    o->pub.schema = copy;
    o->norm = norm;
    o->pub.schema_origin = origin;
    return TA_OK;
}

ta_status ta_register_op(ta_registry *r, const char *op, ta_dispatch_key key, ta_kernel_fn fn,
                         void *user_data)
{
    if (!r || !op) return TA_ERR_INVALID;
    if ((unsigned)key > TA_KEY_CUDA)
        return refuse(r, TA_ERR_INVALID, "%s: unknown dispatch key %d", op, (int)key);
    char name[512];
    size_t nlen = ta_op_name_of(op, name, sizeof name);
    if (nlen == 0 || nlen >= sizeof name)
        return refuse(r, TA_ERR_INVALID, "'%s' is neither an operator name nor a schema", op);
    bool whole = strchr(op, '(') != NULL;
    if (!strstr(name, "::"))
        return refuse(r, TA_ERR_INVALID, "%s: an operator name needs a namespace (ns::name)", name);
    if (!fn && !whole)
        return refuse(r, TA_ERR_INVALID,
                    "%s: an operator registered without a kernel must give its whole schema", name);
    if (!fn && key != TA_KEY_CATCHALL)
        return refuse(r, TA_ERR_INVALID,
                    "%s: an operator registered without a kernel must not name a dispatch key", name);

    op_rec *o = find(r, name);
    bool fresh = o == NULL;
    if (fresh && !(o = add_op(r, name))) return TA_ERR_NOMEM;

    /* The schema: given here, known from an earlier registration, or from the yaml. */
    if (!o->pub.schema && !whole && r->lookup) {
        const char *known = r->lookup(r->lookup_ud, name);
        if (known && set_schema(o, known, "yaml") != TA_OK) return TA_ERR_NOMEM;
    }
    if (whole) {
        if (!o->pub.schema && r->lookup) {
            const char *known = r->lookup(r->lookup_ud, name);
            if (known && set_schema(o, known, "yaml") != TA_OK) return TA_ERR_NOMEM;
        }
        if (o->pub.schema) {
            char *norm = normalize(op);
            if (!norm) return TA_ERR_NOMEM;
            bool same = !strcmp(norm, o->norm);
            free(norm);
            if (!same)
                return refuse(r, TA_ERR_INVALID,
                            "%s: registered with a different schema than before; every kernel of "
                            "one overload must carry exactly the same schema (earlier, from %s: "
                            "'%s'; now: '%s')",
                            name, o->pub.schema_origin, o->pub.schema, op);
        } else if (set_schema(o, op, r->origin) != TA_OK) {
            return TA_ERR_NOMEM;
        }
    }
    if (!fn) return TA_OK;

    if (key == TA_KEY_CATCHALL && (o->pub.kernels[TA_KEY_CPU] || o->pub.kernels[TA_KEY_CUDA]))
        return refuse(r, TA_ERR_INVALID,
                    "%s: a catch-all kernel cannot be combined with device kernels of the same "
                    "operator (a %s kernel came from %s)",
                    name, o->pub.kernels[TA_KEY_CPU] ? "CPU" : "CUDA",
                    o->pub.kernel_origin[o->pub.kernels[TA_KEY_CPU] ? TA_KEY_CPU : TA_KEY_CUDA]);
    if (key != TA_KEY_CATCHALL && o->pub.kernels[TA_KEY_CATCHALL])
        return refuse(r, TA_ERR_INVALID,
                    "%s: a %s kernel cannot be combined with the catch-all kernel of the same "
                    "operator (from %s)",
                    name, key_name(key), o->pub.kernel_origin[TA_KEY_CATCHALL]);
    if (o->pub.kernels[key] &&
        warn(r, "%s: the %s kernel from %s replaces the one from %s", name, key_name(key),
             r->origin, o->pub.kernel_origin[key]) != TA_OK)
        return TA_ERR_NOMEM;
    o->pub.kernels[key] = fn;
    o->pub.user_data[key] = user_data;
    o->pub.kernel_origin[key] = r->origin;
    return TA_OK;
}

ta_status registry_adopt(ta_registry *r, void *p, void (*free_fn)(void *))
{
    if (TA_GROW_ONE(r->owned, r->nowned, r->capowned, 16) != TA_OK) {
        free_fn(p);
        return TA_ERR_NOMEM;
    }
    r->owned[r->nowned].p = p;
    r->owned[r->nowned++].free_fn = free_fn;
    return TA_OK;
}

/* ---- queries ----------------------------------------------------------- */

bool ta_registry_lacks_schema(ta_registry *r, const char *op)
{
    if (!r || !op || !r->lookup) return false;
    char name[512];
    ta_op_name_of(op, name, sizeof name);
    op_rec *o = find(r, name);
    if (o && o->pub.schema) return false;
    return r->lookup(r->lookup_ud, name) == NULL;
}

size_t ta_registry_count(const ta_registry *r) { return r->n; }

const ta_registry_op *ta_registry_at(const ta_registry *r, size_t i)
{
    return i < r->n ? &r->ops[i]->pub : NULL;
}

const ta_registry_op *ta_registry_find(const ta_registry *r, const char *name)
{
    op_rec *o = find(r, name);
    return o ? &o->pub : NULL;
}

ta_kernel_fn ta_registry_kernel_for(const ta_registry_op *op, DLDeviceType dev, void **ud)
{
    ta_dispatch_key k = dev == kDLCUDA ? TA_KEY_CUDA : TA_KEY_CPU;
    if (!op->kernels[k]) k = TA_KEY_CATCHALL;
    if (ud) *ud = op->user_data[k];
    return op->kernels[k];
}

ta_status ta_registry_remove_kernels(ta_registry *r, const char *name)
{
    op_rec *o = find(r, name);
    if (!o) return TA_ERR_NOTFOUND;
    for (int k = 0; k < 3; k++) {
        o->pub.kernels[k] = NULL;
        o->pub.user_data[k] = NULL;
        o->pub.kernel_origin[k] = NULL;
    }
    return TA_OK;
}

bool ta_registry_has_kernel(const ta_registry_op *op)
{
    return op->kernels[0] || op->kernels[1] || op->kernels[2];
}

/* ---- plugins ----------------------------------------------------------- */

ta_status ta_registry_plugin_error(ta_registry *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ta_status st = vrefuse(r, TA_ERR_INVALID, "plugin", fmt, ap);
    va_end(ap);
    return st;
}

ta_status ta_registry_load_plugin(ta_registry *r, const char *path, ta_diags *diags)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    ta_loc at = {.file = path};
    if (!h) {
        ta_status st = ta_diag_error(diags, &at, "plugin", "cannot load kernel library: %s", dlerror());
        return st == TA_OK ? TA_ERR_IO : st;
    }
    void *sym = dlsym(h, TA_PLUGIN_ENTRY);
    if (!sym) {
        dlclose(h);
        ta_status st = ta_diag_error(diags, &at, "plugin", "not a kernel library: it exports no %s",
                                     TA_PLUGIN_ENTRY);
        return st == TA_OK ? TA_ERR_INVALID : st;
    }
    if (TA_GROW_ONE(r->handles, r->nhandles, r->caphandles, 16) != TA_OK) {
        dlclose(h);
        return TA_ERR_NOMEM;
    }
    r->handles[r->nhandles++] = h; /* kept even on failure: kernels may be registered */
    ta_plugin_register_fn entry;
    memcpy(&entry, &sym, sizeof entry); /* object to function pointer, as POSIX allows */
    const char *prev = r->origin;
    if (ta_registry_set_origin(r, path) != TA_OK) return TA_ERR_NOMEM;
    size_t before = ta_diags_count_severity(r->diags, TA_SEV_ERROR);
    ta_status s = entry(r, TA_KERNEL_ABI_VERSION);
    bool rule_errors = ta_diags_count_severity(r->diags, TA_SEV_ERROR) > before;
    r->origin = prev;
    ta_status moved = ta_registry_take_diags(r, diags);
    if (moved != TA_OK) return moved;
    if (s != TA_OK && !rule_errors) {
        ta_status st = ta_diag_error(diags, &at, "plugin", "%s failed: %s", TA_PLUGIN_ENTRY,
                                     ta_status_str(s));
        if (st != TA_OK) return st;
    }
    if (s == TA_OK && rule_errors) s = TA_ERR_INVALID;
    return s;
}
