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

#include "exec/registry_internal.h"
#include "tensoralias/exec.h"

typedef struct op_rec {
    ta_registry_op pub;
    char *norm; /* normalized schema text, for comparisons */
} op_rec;

struct ta_registry {
    op_rec **ops;
    size_t n, cap;
    ta_schema_lookup_fn lookup;
    void *lookup_ud;
    const char *origin; /* points into strings */
    ta_diags *diags;
    void **handles; /* dlopen handles, closed on destroy */
    size_t nhandles, caphandles;
    char **strings; /* owned strings (origins) */
    size_t nstrings, capstrings;
    struct owned { void *p; void (*free_fn)(void *); } *owned; /* derived kernels' data */
    size_t nowned, capowned;
};

static const char *key_name(ta_dispatch_key k)
{
    return k == TA_KEY_CPU ? "CPU" : k == TA_KEY_CUDA ? "CUDA" : "catch-all";
}

static bool grow(void **v, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap) return true;
    size_t c = *cap ? *cap * 2 : 16;
    void *nv = realloc(*v, c * elem);
    if (!nv) return false;
    *v = nv;
    *cap = c;
    return true;
}

static const char *own(ta_registry *r, const char *s)
{
    if (!grow((void **)&r->strings, &r->capstrings, r->nstrings, sizeof(char *))) return NULL;
    char *d = strdup(s);
    if (d) r->strings[r->nstrings++] = d;
    return d;
}

ta_registry *ta_registry_create(void)
{
    ta_registry *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    if (!(r->diags = ta_diags_create())) {
        free(r);
        return NULL;
    }
    r->origin = "<api>";
    return r;
}

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
    for (size_t i = 0; i < r->nstrings; i++) free(r->strings[i]);
    free(r->strings);
    for (size_t i = 0; i < r->nowned; i++) r->owned[i].free_fn(r->owned[i].p);
    free(r->owned);
    ta_diags_destroy(r->diags);
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

void ta_registry_set_origin(ta_registry *r, const char *origin)
{
    const char *o = own(r, origin ? origin : "<api>");
    r->origin = o ? o : "<api>";
}

ta_status ta_registry_take_diags(ta_registry *r, ta_diags *into)
{
    /* Only when there is something to move (ta_diags_move passes NULL to memcpy otherwise). */
    return ta_diags_count(r->diags) ? ta_diags_move(into, r->diags) : TA_OK;
}

static ta_status fail(ta_registry *r, ta_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static ta_status fail(ta_registry *r, ta_status s, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ta_diags_add(r->diags, s == TA_OK ? TA_SEV_WARNING : TA_SEV_ERROR, "registration", r->origin,
                 0, 0, 0, NULL, NULL, "%s", msg);
    return s;
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
    char *d = malloc(n + 1), *o = d;
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
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->ops[i]->pub.name, name)) return r->ops[i];
    return NULL;
}

static op_rec *add_op(ta_registry *r, const char *name)
{
    if (!grow((void **)&r->ops, &r->cap, r->n, sizeof(op_rec *))) return NULL;
    op_rec *o = calloc(1, sizeof *o);
    if (!o || !(o->pub.name = strdup(name))) {
        free(o);
        return NULL;
    }
    r->ops[r->n++] = o;
    return o;
}

static ta_status set_schema(op_rec *o, const char *text, const char *origin)
{
    char *copy = strdup(text), *norm = normalize(text);
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
        return fail(r, TA_ERR_INVALID, "%s: unknown dispatch key %d", op, (int)key);
    char name[512];
    size_t nlen = ta_op_name_of(op, name, sizeof name);
    if (nlen == 0 || nlen >= sizeof name)
        return fail(r, TA_ERR_INVALID, "'%s' is neither an operator name nor a schema", op);
    bool whole = strchr(op, '(') != NULL;
    if (!strstr(name, "::"))
        return fail(r, TA_ERR_INVALID, "%s: an operator name needs a namespace (ns::name)", name);
    if (!fn && !whole)
        return fail(r, TA_ERR_INVALID,
                    "%s: an operator registered without a kernel must give its whole schema", name);
    if (!fn && key != TA_KEY_CATCHALL)
        return fail(r, TA_ERR_INVALID,
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
                return fail(r, TA_ERR_INVALID,
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
        return fail(r, TA_ERR_INVALID,
                    "%s: a catch-all kernel cannot be combined with device kernels of the same "
                    "operator (a %s kernel came from %s)",
                    name, o->pub.kernels[TA_KEY_CPU] ? "CPU" : "CUDA",
                    o->pub.kernel_origin[o->pub.kernels[TA_KEY_CPU] ? TA_KEY_CPU : TA_KEY_CUDA]);
    if (key != TA_KEY_CATCHALL && o->pub.kernels[TA_KEY_CATCHALL])
        return fail(r, TA_ERR_INVALID,
                    "%s: a %s kernel cannot be combined with the catch-all kernel of the same "
                    "operator (from %s)",
                    name, key_name(key), o->pub.kernel_origin[TA_KEY_CATCHALL]);
    if (o->pub.kernels[key])
        fail(r, TA_OK, "%s: the %s kernel from %s replaces the one from %s", name, key_name(key),
             r->origin, o->pub.kernel_origin[key]);
    o->pub.kernels[key] = fn;
    o->pub.user_data[key] = user_data;
    o->pub.kernel_origin[key] = r->origin;
    return TA_OK;
}

ta_status ta_registry_adopt_(ta_registry *r, void *p, void (*free_fn)(void *))
{
    if (!grow((void **)&r->owned, &r->capowned, r->nowned, sizeof *r->owned)) {
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

ta_status ta_registry_load_plugin(ta_registry *r, const char *path, ta_diags *diags)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        ta_diags_add(diags, TA_SEV_ERROR, "plugin", path, 0, 0, 0, NULL, NULL,
                     "cannot load kernel library: %s", dlerror());
        return TA_ERR_IO;
    }
    void *sym = dlsym(h, TA_PLUGIN_ENTRY);
    if (!sym) {
        ta_diags_add(diags, TA_SEV_ERROR, "plugin", path, 0, 0, 0, NULL, NULL,
                     "not a kernel library: it exports no %s", TA_PLUGIN_ENTRY);
        dlclose(h);
        return TA_ERR_INVALID;
    }
    if (!grow((void **)&r->handles, &r->caphandles, r->nhandles, sizeof(void *))) {
        dlclose(h);
        return TA_ERR_NOMEM;
    }
    r->handles[r->nhandles++] = h; /* kept even on failure: kernels may be registered */
    ta_plugin_register_fn entry;
    memcpy(&entry, &sym, sizeof entry); /* object to function pointer, as POSIX allows */
    const char *prev = r->origin;
    ta_registry_set_origin(r, path);
    size_t before = ta_diags_count_severity(r->diags, TA_SEV_ERROR);
    ta_status s = entry(r, TA_KERNEL_ABI_VERSION);
    bool rule_errors = ta_diags_count_severity(r->diags, TA_SEV_ERROR) > before;
    r->origin = prev;
    ta_registry_take_diags(r, diags);
    if (s != TA_OK && !rule_errors)
        ta_diags_add(diags, TA_SEV_ERROR, "plugin", path, 0, 0, 0, NULL, NULL,
                     "%s failed: %s", TA_PLUGIN_ENTRY, ta_status_str(s));
    if (s == TA_OK && rule_errors) s = TA_ERR_INVALID;
    return s;
}
