/* rules_native.c - the alias rules over a loaded native_functions.yaml: the
 * schema rules of every entry, positioned at the entry's yaml line and
 * column, and the rules that need the entry's other fields (autogen on
 * operators torchgen will not generate variants for). Plugs into the
 * loader's ta_native_check_with as one pass. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "alias/rules_internal.h"
#include "tensoralias/native.h"

typedef struct native_ctx {
    const ta_native_file *f;
    const ta_native_func *fn;
} native_ctx;

/* A schema span becomes a yaml position. */
static ta_status native_emit(ta_rule_sink *k, const ta_rule_info *r, uint32_t off,
                             uint32_t len, const char *hint, const char *msg)
{
    const native_ctx *c = k->ctx;
    ta_loc at = ta_native_schema_loc(c->f, c->fn, off, len);
    return ta_rule_report(k->diags, r, &at, hint, "%s", msg);
}

/* A non-mutating view (torchgen's is_view_op without its inplace_view
 * part): a read-only annotated return, or an input entering the wildcard.
 * Inplace views (set_, resize_as_ ...) write self, and a functional variant
 * of them is meaningful, so autogen on them is not flagged. */
static bool pure_view_op(const ta_schema *s)
{
    for (uint32_t j = 0; j < s->nrets; j++) {
        const ta_alias *a = ta_rule_first_annotation(s->rets[j].type);
        if (a && !a->write) return true;
    }
    for (uint32_t i = 0; i < s->nargs; i++) {
        const ta_alias *a = ta_rule_first_annotation(s->args[i].type);
        if (!a || !a->has_arrow) continue;
        for (uint32_t k = 0; k < a->nafter; k++)
            if (ta_alias_str_is_wildcard(a->after[k])) return true;
    }
    return false;
}

static const ta_native_dispatch *explicit_cia(const ta_native_func *fn)
{
    for (uint32_t k = 0; k < fn->ndispatch; k++)
        if (fn->dispatch[k].key.s && !strcmp(fn->dispatch[k].key.s, "CompositeImplicitAutograd"))
            return &fn->dispatch[k];
    return NULL;
}

static ta_status entry_rules(const ta_native_file *f, const ta_native_func *fn, ta_diags *d)
{
    if (!fn->nautogen) return TA_OK;
    const ta_schema *s = fn->schema;
    ta_loc at; /* the autogen key's, found only for a report */
    const ta_rule_info *r;
    /* torchgen skips the whole group (silently) in each of these cases */
    if (pure_view_op(s)) {
        r = ta_alias_rule_get("alias-autogen-view");
        at = ta_native_loc(f, ta_native_key_pos(fn, TA_NK_AUTOGEN));
        return ta_rule_report(d, r, &at, "remove the autogen line",
                              "autogen on view operator '%s': torchgen generates no variants for "
                              "view operators",
                              fn->name);
    }
    if (explicit_cia(fn)) {
        r = ta_alias_rule_get("alias-autogen-composite");
        at = ta_native_loc(f, ta_native_key_pos(fn, TA_NK_AUTOGEN));
        return ta_rule_report(d, r, &at, "remove the autogen line, or give the operator a real kernel",
                              "autogen on CompositeImplicitAutograd operator '%s': it decomposes, "
                              "so no variants are generated",
                              fn->name);
    }
    if (fn->manual_kernel_registration || fn->manual_cpp_binding) {
        r = ta_alias_rule_get("alias-autogen-manual");
        at = ta_native_loc(f, ta_native_key_pos(fn, TA_NK_AUTOGEN));
        return ta_rule_report(d, r, &at, "remove the autogen line",
                              "autogen on '%s', which bypasses the dispatcher (%s)", fn->name,
                              fn->manual_kernel_registration ? "manual_kernel_registration"
                                                             : "manual_cpp_binding");
    }
    if (fn->has_composite_implicit_autograd_kernel) {
        /* no dispatch table: implicitly composite. torchgen 1.13.1 ignores
         * the autogen line; later torchgen generates the variants */
        r = ta_alias_rule_get("alias-autogen-implicit-composite");
        at = ta_native_loc(f, ta_native_key_pos(fn, TA_NK_AUTOGEN));
        return ta_rule_report(d, r, &at,
                              "give it a dispatch table (CompositeExplicitAutograd) if the "
                              "variants must exist under torchgen 1.13.1",
                              "autogen on '%s', which has no dispatch table (implicitly "
                              "CompositeImplicitAutograd): torchgen 1.13.1 generates nothing for it",
                              fn->name);
    }
    return TA_OK;
}

ta_status ta_alias_native_pass(const ta_native_file *f, ta_diags *diags)
{
    ta_status st = TA_OK;
    /* One query and its slots, reused for every entry: a whole yaml's worth
     * of allocations (about 2 KiB each) was most of this pass. */
    ta_alias_query q;
    ta_slot_facts small[64], *slots = small;
    size_t cap = sizeof small / sizeof small[0];
    for (size_t i = 0; i < ta_native_count(f) && st == TA_OK; i++) {
        const ta_native_func *fn = ta_native_get(f, i);
        if (!fn->schema) continue; /* the loader reported why */
        size_t n = (size_t)fn->schema->nargs + fn->schema->nrets;
        if (n > cap) {
            ta_slot_facts *big = ta_malloc(n * sizeof *big);
            if (!big) {
                st = TA_ERR_NOMEM;
                break;
            }
            if (slots != small) free(slots);
            slots = big;
            cap = n;
        }
        if (ta_alias_facts_unannotated(fn->schema)) {
            /* most entries: the rules need only the (empty) set list */
            q.s = fn->schema;
            q.nin = fn->schema->nargs;
            q.nout = fn->schema->nrets;
            q.slot = NULL;
            q.nsets = 0;
            q.ntypes = TA_TY_NBUILTIN;
            q.view_op = false;
            st = TA_OK;
        } else {
            st = ta_alias_query_build(&q, slots, fn->schema, diags);
        }
        if (st == TA_ERR_UNSUPPORTED) {
            st = TA_OK;
            continue;
        }
        if (st != TA_OK) break;
        native_ctx c = {f, fn};
        ta_rule_sink k = {native_emit, fn->schema, diags, &c};
        st = ta_alias_rules_schema(fn->schema, &q, &k);
        if (st == TA_OK) st = entry_rules(f, fn, diags);
    }
    if (slots != small) free(slots);
    return st;
}

const ta_native_pass *ta_alias_native_passes(size_t *n)
{
    static const ta_native_pass passes[] = {{"alias", ta_alias_native_pass}};
    *n = 1;
    return passes;
}
