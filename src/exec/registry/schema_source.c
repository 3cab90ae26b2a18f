/* schema_source.c - where a registry's schemas come from besides the
 * registrations themselves: a loaded native_functions.yaml, looked up by
 * full operator name; schema files registered wholesale (`verify
 * --schemas`); and the choice of operators to verify among both.
 *
 * A yaml entry's func is registered under the namespace it names, else the
 * entry's (aten): "abs.out(Tensor self, ...)" becomes
 * "aten::abs.out(Tensor self, ...)". That is the one place the prefix is
 * made; derived operators (autogen_ops.c) take the namespace of their base. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/alloc.h"
#include "base/arena.h"
#include "exec/registry/registry_internal.h"
#include "base/file.h"
#include "tensoralias/schema_list.h"

/* func[0..len) with the namespace it is registered under, in the arena:
 * as written when it names one, else ns. Trailing blanks and surrounding
 * quotes the yaml kept are dropped. NULL on OOM; "" when nothing is left. */
static const char *qualified_schema(ta_arena *a, const char *ns, const char *func, size_t len)
{
    while (len && (func[len - 1] == ' ' || func[len - 1] == '\r')) len--;
    if (len >= 2 && (func[0] == '"' || func[0] == '\'') && func[len - 1] == func[0]) {
        func++;
        len -= 2;
    }
    if (!len) return "";
    bool has_ns = memchr(func, ':', strcspn(func, "(")) != NULL;
    return ta_arena_qualified(a, has_ns ? NULL : ns, func, len);
}

/* The operator name of a schema text ("aten::abs.out"), in the arena. */
static const char *op_name(ta_arena *a, const char *schema)
{
    size_t n = ta_op_name_of(schema, NULL, 0);
    char *name = ta_arena_alloc(a, n + 1);
    if (name) ta_op_name_of(schema, name, n + 1);
    return name;
}

/* ---- a loaded native_functions.yaml ------------------------------------ */

static const char *source_lookup(void *ud, const char *name)
{
    const ta_registry_ext *x = ud;
    const ta_map_entry *e = ta_map_find_str(&x->source_by_name, name);
    return e ? x->source_schemas[e->value.i] : NULL;
}

/* Appends one entry's name and schema; the first entry of a name is the
 * one a look-up finds. */
static ta_status add_source_entry(ta_registry_ext *x, ta_arena *a, const ta_native_func *fn)
{
    const char *schema = qualified_schema(a, fn->ns ? fn->ns : "aten", fn->func.s, fn->func.len);
    if (!schema) return TA_ERR_NOMEM;
    if (!*schema) return TA_OK;
    const char *name = op_name(a, schema);
    if (!name) return TA_ERR_NOMEM;
    size_t i = x->nsource;
    if (ta_map_add(&x->source_by_name, name, strlen(name), ta_map_int((int64_t)i), NULL) != TA_OK)
        return TA_ERR_NOMEM;
    x->source_names[i] = name;
    x->source_schemas[i] = schema;
    x->nsource++;
    return TA_OK;
}

ta_status ta_registry_use_native(ta_registry *reg, const ta_native_file *f)
{
    if (!reg || !f) return TA_ERR_INVALID;
    ta_registry_ext *x = registry_ext(reg);
    ta_arena *a = registry_arena(reg);
    size_t n = ta_native_count(f);
    ta_map_clear(&x->source_by_name);
    free(x->source_names);
    free(x->source_schemas);
    x->nsource = 0;
    x->native = f;
    x->source_names = ta_malloc((n ? n : 1) * sizeof *x->source_names);
    x->source_schemas = ta_malloc((n ? n : 1) * sizeof *x->source_schemas);
    if (!x->source_names || !x->source_schemas || ta_map_reserve(&x->source_by_name, n) != TA_OK)
        return TA_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        const ta_native_func *fn = ta_native_get(f, i);
        if (fn->func.s && add_source_entry(x, a, fn) != TA_OK) return TA_ERR_NOMEM;
    }
    ta_registry_set_schema_lookup(reg, source_lookup, x);
    return TA_OK;
}

/* ---- schema files ------------------------------------------------------- */

/* Registers one schema without a kernel. What the rules refuse is in the
 * registry's diagnostics; only running out of memory stops the caller. */
static ta_status register_schema(ta_registry *reg, const char *schema)
{
    ta_status st = ta_register_op(reg, schema, TA_KEY_CATCHALL, NULL, NULL);
    return st == TA_ERR_NOMEM ? st : TA_OK;
}

/* Every func of a native_functions.yaml. TA_ERR_NOTFOUND when the text is
 * no such file (nothing could be loaded), so the caller reads it as a list. */
static ta_status register_yaml(ta_registry *reg, const char *path, const char *text, size_t len,
                               ta_diags *diags)
{
    ta_native_file *f = NULL;
    ta_diags *ld;
    if (ta_diags_create(&ld) != TA_OK) return TA_ERR_NOMEM;
    ta_status st = ta_native_load_buffer(text, len, path, NULL, 0, NULL, &f, ld);
    if (st == TA_ERR_NOMEM || !f || ta_native_count(f) == 0) {
        ta_diags_destroy(ld);
        ta_native_destroy(f);
        return st == TA_ERR_NOMEM ? st : TA_ERR_NOTFOUND;
    }
    ta_arena *a = registry_arena(reg);
    st = TA_OK;
    for (size_t i = 0; i < ta_native_count(f) && st == TA_OK; i++) {
        const ta_native_func *fn = ta_native_get(f, i);
        const char *schema = fn->func.s ? qualified_schema(a, fn->ns ? fn->ns : "aten", fn->func.s, fn->func.len) : "";
        st = !schema ? TA_ERR_NOMEM : *schema ? register_schema(reg, schema) : TA_OK;
    }
    if (st == TA_OK) st = ta_diags_move(diags, ld);
    ta_diags_destroy(ld);
    ta_native_destroy(f);
    return st;
}

/* A list of schemas (tensoralias/schema_list.h), each registered. A file
 * without any schema is an error too: nothing would be verified from it. */
static ta_status register_list(ta_registry *reg, const char *path, const char *text, size_t len,
                               ta_diags *diags)
{
    ta_schema_list *l = NULL;
    ta_status st = ta_schema_list_load_buffer(text, len, path, &l, diags);
    for (size_t i = 0; l && i < ta_schema_list_count(l) && st != TA_ERR_NOMEM; i++) {
        if (register_schema(reg, ta_schema_list_get(l, i)->text) != TA_OK) st = TA_ERR_NOMEM;
    }
    if (st == TA_OK && !ta_schema_list_count(l)) {
        ta_loc at = {.file = path};
        st = ta_diag_error(diags, &at, "schema-file", "no schema in it (one a line, or a "
                           "native_functions.yaml)") == TA_OK ? TA_ERR_PARSE : TA_ERR_NOMEM;
    }
    ta_schema_list_destroy(l);
    return st;
}

ta_status ta_registry_load_schemas(ta_registry *reg, const char *path, ta_diags *diags)
{
    char *text;
    size_t len;
    ta_status st = ta_read_file(path, &text, &len, diags);
    if (st != TA_OK) return st;
    if (ta_registry_set_origin(reg, path) != TA_OK) {
        free(text);
        return TA_ERR_NOMEM;
    }
    st = strstr(text, "func:") ? register_yaml(reg, path, text, len, diags) : TA_ERR_NOTFOUND;
    if (st == TA_ERR_NOTFOUND) st = register_list(reg, path, text, len, diags);
    free(text);
    ta_status moved = ta_registry_take_diags(reg, diags);
    return st != TA_OK ? st : moved;
}

/* ---- choosing what to verify -------------------------------------------- */

/* The globs of a selection: those without a wildcard (a name, as a long
 * list of --ops gives them) looked up in a map, the others matched. */
typedef struct glob_set {
    ta_map names;
    const char **patterns;
    size_t npatterns;
} glob_set;

static ta_status globs_init(glob_set *g, const char *const *globs, size_t nglobs)
{
    *g = (glob_set){0};
    ta_map_init(&g->names, NULL);
    if (nglobs && !(g->patterns = ta_malloc(nglobs * sizeof *g->patterns))) return TA_ERR_NOMEM;
    for (size_t i = 0; i < nglobs; i++) {
        ta_map_entry *e;
        if (strpbrk(globs[i], "*?[\\"))
            g->patterns[g->npatterns++] = globs[i];
        else if (ta_map_add(&g->names, globs[i], strlen(globs[i]), ta_map_int(0), &e) != TA_OK)
            return TA_ERR_NOMEM;
    }
    return TA_OK;
}

static void globs_clear(glob_set *g)
{
    ta_map_clear(&g->names);
    free(g->patterns);
}

static bool matches(const char *name, const glob_set *g)
{
    if (ta_map_find_str(&g->names, name)) return true;
    for (size_t i = 0; i < g->npatterns; i++)
        if (fnmatch(g->patterns[i], name, 0) == 0) return true;
    return false;
}

typedef struct selection {
    const char **v;
    size_t n, cap;
    ta_map seen;
} selection;

static ta_status select_add(selection *s, const char *name)
{
    ta_map_entry *e;
    if (ta_map_add(&s->seen, name, strlen(name), ta_map_int((int64_t)s->n), &e) != TA_OK)
        return TA_ERR_NOMEM;
    if (e->value.i != (int64_t)s->n) return TA_OK; /* selected already */
    if (TA_GROW_ONE(s->v, s->n, s->cap, 256) != TA_OK) return TA_ERR_NOMEM;
    s->v[s->n++] = name;
    return TA_OK;
}

ta_status ta_registry_select(const ta_registry *reg, const char *const *globs, size_t nglobs,
                             const char ***names, size_t *n)
{
    *names = NULL;
    *n = 0;
    selection s = {0};
    ta_map_init(&s.seen, NULL);
    glob_set g;
    ta_status st = globs_init(&g, globs, nglobs);
    for (size_t i = 0; i < ta_registry_count(reg) && st == TA_OK; i++) {
        const ta_registry_op *op = ta_registry_at(reg, i);
        if (nglobs ? matches(op->name, &g) : ta_registry_has_kernel(op)) st = select_add(&s, op->name);
    }
    const ta_registry_ext *x = registry_ext_const(reg);
    for (size_t i = 0; nglobs && i < x->nsource && st == TA_OK; i++)
        if (matches(x->source_names[i], &g)) st = select_add(&s, x->source_names[i]);
    globs_clear(&g);
    ta_map_clear(&s.seen);
    if (st != TA_OK) {
        free(s.v);
        return st;
    }
    *names = s.v;
    *n = s.n;
    return TA_OK;
}
