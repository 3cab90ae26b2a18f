/* verify_derived.c - autogen-derived operators for `verify` (see
 * verify_derived.h). The derivation and its plans come from the kinds
 * module (tensoralias/torchgen.h); this file turns each plan into the exec
 * engine's ta_derived_plan. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify_derived.h"

#include "tensoralias/torchgen.h"

struct ta_vderived {
    ta_torchgen *tg;
    char **schemas; /* per derived function, "ns::func", or NULL */
    size_t first, n;
};

static const char *ns_of(const ta_tg_function *fn) { (void)fn; return "aten"; }

ta_vderived *ta_vderived_register_schemas(const ta_native_file *f, ta_registry *reg)
{
    ta_diags *d = ta_diags_create();
    ta_torchgen *tg = NULL;
    if (!d || ta_torchgen_from_native(f, &tg, d) != TA_OK || !tg) {
        ta_diags_destroy(d);
        ta_torchgen_destroy(tg);
        return NULL;
    }
    ta_diags_destroy(d); /* derivation problems are check's business, not verify's */
    size_t total = ta_torchgen_count(tg), nd = ta_torchgen_count_derived(tg);
    ta_vderived *v = calloc(1, sizeof *v);
    if (!v || !(v->schemas = calloc(nd ? nd : 1, sizeof *v->schemas))) {
        free(v);
        ta_torchgen_destroy(tg);
        return NULL;
    }
    v->tg = tg;
    v->first = total - nd;
    v->n = nd;
    ta_registry_set_origin(reg, "autogen");
    for (size_t i = 0; i < nd; i++) {
        const ta_tg_function *fn = ta_torchgen_get(tg, v->first + i);
        if (!fn || !fn->generated || !fn->plan || !fn->func) continue;
        size_t len = strlen(fn->func) + 32;
        char *s = malloc(len);
        if (!s) continue;
        snprintf(s, len, "%s::%s", ns_of(fn), fn->func);
        /* Schema only: a library may bring a kernel of its own for it. */
        if (ta_register_op(reg, s, TA_KEY_CATCHALL, NULL, NULL) != TA_OK) {
            free(s);
            continue;
        }
        v->schemas[i] = s;
    }
    ta_diags *drop = ta_diags_create();
    ta_registry_take_diags(reg, drop);
    ta_diags_destroy(drop);
    return v;
}

static bool has_kernel(const ta_registry *reg, const char *name)
{
    const ta_registry_op *op = ta_registry_find(reg, name);
    return op && ta_registry_has_kernel(op);
}

size_t ta_vderived_add_kernels(ta_vderived *v, ta_registry *reg, bool replace)
{
    if (!v) return 0;
    size_t added = 0;
    if (replace) {
        /* Every base keeps its kernel; every derived operator whose base
         * (or base's base) has one gets the composed kernel instead. */
        for (size_t i = 0; i < v->n; i++) {
            if (!v->schemas[i]) continue;
            char own[512];
            ta_op_name_of(v->schemas[i], own, sizeof own);
            const ta_tg_function *fn = ta_torchgen_get(v->tg, v->first + i);
            const ta_tg_function *callee = ta_torchgen_get(v->tg, fn->plan->callee);
            char cname[512];
            snprintf(cname, sizeof cname, "%s::%s", ns_of(callee), callee->name);
            bool callee_derived = false;
            for (size_t k = 0; k < v->n; k++)
                if (v->schemas[k] && ta_torchgen_get(v->tg, v->first + k) == callee) callee_derived = true;
            if (has_kernel(reg, cname) || callee_derived) ta_registry_remove_kernels(reg, own);
        }
    }
    /* An out= variant may call a derived functional one: repeat until stable. */
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < v->n; i++) {
            if (!v->schemas[i]) continue;
            const ta_tg_function *fn = ta_torchgen_get(v->tg, v->first + i);
            const ta_autogen_plan *p = fn->plan;
            const ta_tg_function *callee = ta_torchgen_get(v->tg, p->callee);
            char own[512], cname[512];
            ta_op_name_of(v->schemas[i], own, sizeof own);
            if (!callee || has_kernel(reg, own)) continue;
            snprintf(cname, sizeof cname, "%s::%s", ns_of(callee), callee->name);
            if (!has_kernel(reg, cname)) continue;
            ta_derived_src *rs = calloc(p->nrets ? p->nrets : 1, sizeof *rs);
            if (!rs) continue;
            for (uint32_t r = 0; r < p->nrets; r++) {
                rs[r].index = p->ret_src[r].index;
                rs[r].kind = p->ret_src[r].kind == TA_AG_CLONED_ARG ? TA_DSRC_CLONED_ARG
                           : p->ret_src[r].kind == TA_AG_OWN_ARG    ? TA_DSRC_OWN_ARG
                                                                    : TA_DSRC_CALLEE_RETURN;
            }
            ta_derived_plan dp = {
                .out = p->kind == TA_KIND_OUT,
                .callee = cname,
                .arg_from = p->arg_from,
                .ncallee_args = p->ncallee_args,
                .clone = p->clone,
                .nclone = p->nclone,
                .ret_src = rs,
                .nrets = p->nrets,
                .out_args = p->out_args,
                .out_from = p->out_from,
                .nouts = p->nouts,
                .written_args = p->written_args,
                .writeback = p->writeback,
                .nwritten = p->nwritten,
            };
            if (ta_registry_add_derived(reg, v->schemas[i], &dp) == TA_OK && has_kernel(reg, own)) {
                added++;
                changed = true;
            }
            free(rs);
        }
    }
    ta_diags *drop = ta_diags_create();
    ta_registry_take_diags(reg, drop);
    ta_diags_destroy(drop);
    return added;
}

void ta_vderived_destroy(ta_vderived *v)
{
    if (!v) return;
    for (size_t i = 0; i < v->n; i++) free(v->schemas[i]);
    free(v->schemas);
    ta_torchgen_destroy(v->tg);
    free(v);
}
