/* autogen_plan.c - how a derived function runs by composing existing ones,
 * the same composition torchgen writes as C++ for generated ops
 * (gen_composite_functional_kernel, gen_composite_out_kernel), recorded as
 * index tables (ta_autogen_plan) the exec layer can follow without
 * re-deriving anything. */
#include <string.h>

#include "base/arena.h"
#include "alias/torchgen/autogen_internal.h"

/* Per callee argument, the caller's argument of the same name, or -1. */
static int32_t *map_args(ta_arena *a, const ta_schema *caller, const ta_schema *callee)
{
    int32_t *m = ta_arena_zalloc(a, (callee->nargs + 1) * sizeof *m);
    if (!m) return NULL;
    for (uint32_t j = 0; j < callee->nargs; j++) {
        m[j] = -1;
        for (uint32_t i = 0; i < caller->nargs; i++)
            if (ta_str_eq_str(caller->args[i].name, callee->args[j].name)) {
                m[j] = (int32_t)i;
                break;
            }
    }
    return m;
}

/* aliased_return_names: the argument whose annotation a return carries, or -1. */
static int32_t aliased_arg(const ta_schema *s, uint32_t ret)
{
    const ta_alias *r = tg_annotation(s->rets[ret].type);
    if (!r) return -1;
    for (uint32_t i = 0; i < s->nargs; i++)
        if (tg_alias_eq(tg_annotation(s->args[i].type), r)) return (int32_t)i;
    return -1;
}

ta_status tg_plan_functional(ta_arena *a, const ta_tg_function *derived,
                             const ta_tg_function *base, ta_autogen_plan **out)
{
    const ta_schema *d = derived->schema, *b = base->schema;
    ta_autogen_plan *p = ta_arena_zalloc(a, sizeof *p);
    if (!p) return TA_ERR_NOMEM;
    p->kind = TA_KIND_FUNCTIONAL;
    p->base = base->index;
    p->base_kind = base->kind;
    p->callee = base->index;
    p->ncallee_args = b->nargs;
    int32_t *from = map_args(a, d, b);
    uint32_t *clone = ta_arena_zalloc(a, (b->nargs + 1) * sizeof *clone);
    ta_ag_src *rs = ta_arena_zalloc(a, (b->nrets + b->nargs + 1) * sizeof *rs);
    if (!from || !clone || !rs) return TA_ERR_NOMEM;
    /* the base's returns that alias no input come back first ... */
    uint32_t nr = 0;
    for (uint32_t i = 0; i < b->nrets; i++)
        if (aliased_arg(b, i) < 0) rs[nr++] = (ta_ag_src){TA_AG_CALLEE_RETURN, i};
    /* ... then every written input, cloned before the call */
    for (uint32_t j = 0; j < b->nargs; j++) {
        if (!tg_alias_is_write(tg_annotation(b->args[j].type)) || from[j] < 0) continue;
        clone[p->nclone++] = j;
        rs[nr++] = (ta_ag_src){TA_AG_CLONED_ARG, j};
    }
    p->arg_from = from;
    p->clone = clone;
    p->ret_src = rs;
    p->nrets = nr;
    *out = p;
    return nr == d->nrets ? TA_OK : TA_ERR_UNSUPPORTED;
}

ta_status tg_plan_out(ta_arena *a, const ta_tg_function *derived,
                      const ta_tg_function *base, const ta_tg_function *callee,
                      const uint32_t *ret_origin, const uint32_t *out_origin,
                      uint32_t nouts, ta_autogen_plan **out)
{
    const ta_schema *d = derived->schema, *b = base->schema;
    ta_autogen_plan *p = ta_arena_zalloc(a, sizeof *p);
    if (!p) return TA_ERR_NOMEM;
    p->kind = TA_KIND_OUT;
    p->base = base->index;
    p->base_kind = base->kind;
    p->callee = callee->index;
    p->ncallee_args = callee->schema->nargs;
    int32_t *from = map_args(a, d, callee->schema);
    uint32_t *oa = ta_arena_zalloc(a, (nouts + 1) * sizeof *oa);
    uint32_t *of = ta_arena_zalloc(a, (nouts + 1) * sizeof *of);
    ta_ag_src *rs = ta_arena_zalloc(a, (d->nrets + 1) * sizeof *rs);
    if (!from || !oa || !of || !rs) return TA_ERR_NOMEM;
    uint32_t first_out = d->nargs - nouts;
    for (uint32_t k = 0; k < nouts; k++) {
        oa[k] = first_out + k;
        of[k] = out_origin[k];
    }
    for (uint32_t i = 0; i < d->nrets; i++) {
        int32_t arg = aliased_arg(d, i);
        rs[i] = arg >= 0 ? (ta_ag_src){TA_AG_OWN_ARG, (uint32_t)arg}
                         : (ta_ag_src){TA_AG_CALLEE_RETURN, ret_origin[i]};
    }
    p->arg_from = from;
    p->out_args = oa;
    p->out_from = of;
    p->nouts = nouts;
    p->ret_src = rs;
    p->nrets = d->nrets;

    if (base->kind == TA_KIND_MUTABLE) {
        /* The functional returns the base's returns, then the written inputs
         * that were not returned, in signature() order: self, out, the rest. */
        tg_args sp;
        tg_args_split(b, &sp);
        uint32_t *order = ta_arena_zalloc(a, (b->nargs + 1) * sizeof *order);
        uint32_t *wa = ta_arena_zalloc(a, (b->nargs + 1) * sizeof *wa);
        uint32_t *wb = ta_arena_zalloc(a, (b->nargs + 1) * sizeof *wb);
        if (!order || !wa || !wb) return TA_ERR_NOMEM;
        uint32_t norder = 0;
        uint32_t ranges[3][2] = {
            {sp.self >= 0 ? (uint32_t)sp.self : 0, sp.self >= 0 ? (uint32_t)sp.self + 1 : 0},
            {sp.first_out, b->nargs},
            {(uint32_t)(sp.self + 1), sp.npos}};
        for (int r = 0; r < 3; r++)
            for (uint32_t i = ranges[r][0]; i < ranges[r][1]; i++) {
                const ta_alias *al = tg_annotation(b->args[i].type);
                if (!tg_alias_is_write(al)) continue;
                bool returned = false;
                for (uint32_t j = 0; j < b->nrets; j++)
                    if (tg_alias_eq(al, tg_annotation(b->rets[j].type))) returned = true;
                if (!returned) order[norder++] = i;
            }
        for (uint32_t i = 0; i < first_out; i++) {
            if (!tg_alias_is_write(tg_annotation(d->args[i].type))) continue;
            for (uint32_t k = 0; k < norder; k++)
                if (order[k] == i) {
                    wa[p->nwritten] = i;
                    wb[p->nwritten++] = b->nrets + k;
                }
        }
        p->written_args = wa;
        p->writeback = wb;
    }
    *out = p;
    return TA_OK;
}
