/* samples_check.c - a samples file checked against the operators a
 * registry knows, before anything runs: an operator no schema source
 * declares, or a sample naming an argument its schema does not have, is an
 * error at its place in the file (a misspelling would otherwise only show
 * as a failed case, or as nothing at all). */
#include <stdio.h>
#include <string.h>

#include "exec/registry/registry_internal.h"
#include "exec/synth/samples.h"
#include "base/alloc.h"
#include "base/strbuf.h"

/* The schema text the registry has for name: registered, or from the yaml. */
static const char *schema_of(const ta_registry *reg, const char *name)
{
    const ta_registry_op *op = ta_registry_find(reg, name);
    if (op && op->schema) return op->schema;
    const ta_registry_ext *x = registry_ext_const(reg);
    const ta_map_entry *e = ta_map_find_str(&x->source_by_name, name);
    return e ? x->source_schemas[e->value.i] : NULL;
}

/* An error at byte pos of the samples text. */
static ta_status error_at(const ta_samples *s, const char *source, size_t pos, ta_diags *diags,
                          const char *msg)
{
    size_t len, start = 0;
    const char *t = ta_samples_text(s, &len);
    uint32_t line = 1;
    for (size_t i = 0; i < pos && i < len; i++)
        if (t[i] == '\n') {
            line++;
            start = i + 1;
        }
    size_t end = start;
    while (end < len && t[end] != '\n') end++;
    ta_loc at = {source, line, (uint32_t)(pos - start + 1), 1, t + start, (uint32_t)(end - start)};
    return ta_diag_error(diags, &at, "samples", "%s", msg);
}

/* "self, other, alpha, out" into buf. */
static void arg_names(const ta_schema *sc, char *buf, size_t cap)
{
    ta_strbuf o;
    ta_strbuf_init_fixed(&o, buf, cap);
    for (uint32_t i = 0; i < sc->nargs; i++) {
        if (i) ta_strbuf_puts(&o, ", ");
        ta_strbuf_str(&o, sc->args[i].name);
    }
}

static bool has_arg(const ta_schema *sc, const char *name)
{
    for (uint32_t i = 0; i < sc->nargs; i++)
        if (ta_str_eq(sc->args[i].name, name)) return true;
    return false;
}

/* Every sample of operator i names only arguments of its schema. */
static ta_status check_op_samples(const ta_samples *s, size_t i, const char *op, const ta_schema *sc,
                                  const char *source, ta_diags *diags, size_t *errors)
{
    size_t name_at, n;
    ta_samples_op(s, i, &name_at, &n);
    for (size_t k = 0; k < n; k++) {
        json_t *o = ta_samples_get(s, op, k);
        const char *key;
        json_t *v;
        json_object_foreach(o, key, v) {
            if (has_arg(sc, key)) continue;
            char names[512], msg[1024];
            arg_names(sc, names, sizeof names);
            snprintf(msg, sizeof msg, "sample %zu of '%s': '%s' has no argument '%s' (its arguments: %s)",
                     k, op, op, key, names);
            ta_status st = error_at(s, source, ta_samples_at(s, i, k), diags, msg);
            ++*errors;
            if (st != TA_OK) {
                json_decref(o);
                return st;
            }
        }
        json_decref(o);
    }
    return TA_OK;
}

ta_status ta_samples_check(const ta_samples *s, const ta_registry *reg, const char *source,
                           ta_diags *diags)
{
    if (!s || !reg) return TA_ERR_INVALID;
    ta_arena *a;
    if (ta_arena_create(&a) != TA_OK) return TA_ERR_NOMEM;
    size_t errors = 0;
    ta_status st = TA_OK;
    for (size_t i = 0; i < ta_samples_nops(s) && st == TA_OK; i++) {
        size_t name_at, n;
        const char *op = ta_samples_op(s, i, &name_at, &n);
        const char *text = schema_of(reg, op);
        ta_schema *sc = NULL;
        if (!text) {
            char msg[600];
            snprintf(msg, sizeof msg, "no operator '%.500s' in the yaml, --schemas or the kernel libraries", op);
            st = error_at(s, source, name_at, diags, msg);
            errors++;
        } else if (ta_schema_parse(a, text, strlen(text), NULL, &sc, NULL) == TA_OK) {
            st = check_op_samples(s, i, op, sc, source, diags, &errors);
        }
        ta_arena_reset(a);
    }
    ta_arena_destroy(a);
    return st != TA_OK ? st : errors ? TA_ERR_PARSE : TA_OK;
}
