/* autogen.c - torchgen's add_generated_native_functions and the checks its
 * NativeFunctionsGroup makes of `autogen:` (native_function_generation.py,
 * model.py, torchgen 1.13.1).
 *
 * Functions are pre-grouped by signature. A group gets nothing when all its
 * members bypass the dispatcher (manual_cpp_binding), when one is a view
 * (set_ excepted), when all are CompositeImplicitAutograd and none is tagged
 * core, when it is a lone out= op, or for the known-bad polygamma_.
 * Otherwise the base is the mutable member, else the inplace, else the
 * out=, else the functional one; it gets an out=
 * variant when there is none, its returns allow one (an inplace base always
 * does; else a tensor-like return is needed) and one of the base's autogen
 * names contains "out"; and a functional variant when there is none and the
 * group now has an out= member. Derived functions follow the yaml's in
 * group order, out= before functional.
 *
 * Then, per group, the names derived must be exactly the names the members'
 * `autogen:` lists ask for; every difference is an error, with torchgen's
 * reason when it refused to derive. In a group that asks for autogen, what
 * torchgen itself rejects (a lone out= op, an op without tensor-like return
 * that no list exempts) is an error too; autogen entries it silently
 * ignores are notes (left out of `check`).
 *
 * The rules are torchgen 1.13.1's, with the relaxations later torchgen made
 * for yaml that 1.13.1's does not contain (the core tag, set_ tagged
 * inplace_view, a mutable base preferred to an inplace one when a group has
 * both) and its longer lists of exempt operators: on the 1.13.1 yaml they
 * change nothing (tests/unit/test_torchgen_golden.c), and they let PyTorch
 * main's yaml derive as PyTorch derives it. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "alias/torchgen/autogen_internal.h"

/* torchgen's lists of operators exempt from its assertions. */
static const char *const out_ops_not_grouped[] = {"adaptive_avg_pool3d_backward.grad_input",
                                                  "_slow_conv2d_backward.grad_input", NULL};
static const char *const mutable_no_out[] = {"_cummax_helper", "_cummin_helper", NULL};
static const char *const functional_no_out[] = {
    "_assert_async", "_dimI", "_dimV", "_has_same_storage_numel", "_linalg_check_errors",
    "_local_scalar_dense", "_nested_tensor_from_mask_left_aligned", "_nnz",
    "_use_cudnn_ctc_loss", "_use_cudnn_ctc_loss.Tensor", "_validate_compressed_sparse_indices",
    "allclose", "dense_dim", "equal", "is_coalesced", "is_pinned", "is_same_size", "is_set_to",
    "q_per_channel_axis", "q_scale", "q_zero_point", "qscheme", "record_stream", "sparse_dim",
    "_nested_tensor_offsets",
    /* added by later torchgen */
    "_assert_async.msg", "_assert_tensor_metadata", "_cslt_sparse_mm_search", "_assert_scalar",
    "_use_miopen_ctc_loss", "_use_miopen_ctc_loss.Tensor", "sym_constrain_range",
    "sym_constrain_range_for_size", "_nested_tensor_storage_offsets",
    "_chunk_grad_outputs_efficient_attention", "_fused_sdp_choice", "_print", "_sink_tokens",
    "_nested_get_ragged_idx", NULL};
static const char *const inplace_not_grouped[] = {"polygamma_", NULL};

bool tg_fn_tensor_like_return(const ta_torchgen *tg, const ta_tg_function *f)
{
    if (f->schema) return tg_has_tensor_like_return(f->schema);
    return tg->yaml_bits && f->index < tg->nyaml &&
           (tg->yaml_bits[f->index] & TG_BIT_TENSOR_LIKE_RETURN);
}

/* A stream model's base schema, loaded for its group's derivation (and
 * dropped by unload_group). */
static ta_status load_base(ta_torchgen *tg, ta_tg_function *base)
{
    if (base->schema) return TA_OK;
    if (!tg->load) return TA_ERR_INVALID;
    if (!tg->load_arena && ta_arena_create(&tg->load_arena) != TA_OK) return TA_ERR_NOMEM;
    return tg->load(tg->load_ctx, base, tg->load_arena, &base->schema);
}

/* After a stream model's group is derived: the functions derived from [from,
 * tg->nfns) keep the view grouping key of a view copy and drop their schema
 * (which may share the base's), and the base drops its own. */
static ta_status unload_group(ta_torchgen *tg, const tg_pregroup *g, size_t from)
{
    ta_status st = TA_OK;
    for (size_t i = from; i < tg->nfns && st == TA_OK; i++) {
        ta_tg_function *f = tg->fns[i];
        if (f->schema && tg_is_view_copy_name(tg_opname_parse(f->schema->name).base)) {
            const char *key = tg_view_key_dup(tg->arena, f->schema);
            st = key ? tg_set_view_key(tg, f, key) : TA_ERR_NOMEM;
        }
        f->schema = NULL;
    }
    for (int k = 0; k < 5; k++)
        if (g->m[k] >= 0 && (size_t)g->m[k] < tg->nyaml) tg->fns[g->m[k]]->schema = NULL;
    if (tg->load_arena) ta_arena_reset(tg->load_arena);
    return st;
}

static bool listed(const char *const *list, const char *name)
{
    for (; *list; list++)
        if (strcmp(*list, name) == 0) return true;
    return false;
}

static ta_tg_function *new_generated(ta_torchgen *tg, const ta_tg_function *base,
                                     const ta_schema *s)
{
    ta_tg_function *f = ta_arena_zalloc(tg->arena, sizeof *f);
    if (!f) return NULL;
    f->schema = s;
    f->generated = true;
    f->id = -1;
    f->source = base->source;
    f->line = base->line;
    /* "generated", plus those of the base's tags that torchgen passes on
     * (sorted): nondeterministic_seeded always; pt2_compliant_tag (only a
     * late torchgen gives it); view_copy from torch 2.0 on */
    f->tags = ta_arena_zalloc(tg->arena, 4 * sizeof *f->tags);
    if (!f->tags) return NULL;
    f->tags[f->ntags++] = "generated";
    if (tg_has_tag(base, "nondeterministic_seeded")) f->tags[f->ntags++] = "nondeterministic_seeded";
    if (tg_has_tag(base, TG_TAG_PT2_COMPLIANT)) f->tags[f->ntags++] = TG_TAG_PT2_COMPLIANT;
    if (tg->derived_keep_view_copy && tg_has_tag(base, "view_copy")) f->tags[f->ntags++] = "view_copy";
    static const char *const function_only[] = {"function"};
    f->variants = function_only;
    f->nvariants = 1;
    f->has_composite_explicit_autograd_kernel = true;
    if (tg_describe(tg, f) != TA_OK) return NULL;
    return f;
}

/* A reason starting with POLICY names a group torchgen skips by policy
 * (manual bindings, views, composite implicit ops): it accepts their autogen
 * entries and derives nothing, so we note it; other reasons make errors. */
#define POLICY '\x01'

/* Why torchgen derives nothing for a pre-group, or NULL. */
static const char *skip_reason(const ta_torchgen *tg, const tg_pregroup *g, int nmembers)
{
    bool all_manual = true, any_view = false, all_cia = true, core = false;
    for (int k = 0; k < 5; k++) {
        if (g->m[k] < 0) continue;
        const ta_tg_function *f = tg->fns[g->m[k]];
        all_manual &= f->manual_cpp_binding;
        /* set_ is tagged inplace_view but derived like an inplace op */
        any_view |= f->is_view_op && !ta_str_eq(tg_fn_opname(f), "set_");
        all_cia &= f->has_composite_implicit_autograd_kernel;
    }
    if (all_manual) return "\x01its functions have manual C++ bindings (manual_cpp_binding)";
    if (any_view) return "\x01it is a view op";
    /* the tags are read only when they decide (this runs for every group) */
    for (int k = 0; all_cia && k < 5 && !core; k++)
        core = g->m[k] >= 0 && tg_has_tag(tg->fns[g->m[k]], "core");
    if (all_cia && !core) return "\x01its functions are CompositeImplicitAutograd (and not core)";
    if (g->m[TA_KIND_OUT] >= 0 && nmembers == 1) return "it is an out= op with no other variant";
    if (g->m[TA_KIND_INPLACE] >= 0 &&
        listed(inplace_not_grouped, tg->fns[g->m[TA_KIND_INPLACE]]->name))
        return "torchgen lists it among the inplace ops it cannot group";
    /* "_" or "_functional": a derived variant would have no name */
    for (int k = 0; k < 5; k++)
        if (g->m[k] >= 0 && tg_opname_parse(tg_fn_opname(tg->fns[g->m[k]])).base.len == 0)
            return "its operator name is empty once its suffix is removed";
    return NULL;
}

typedef struct pending {
    ta_tg_function *fn, *base;
    uint32_t ret_origin[64], out_origin[64], nouts;
} pending;

/* What a pre-group holds, by kind. */
typedef struct members {
    int n;
    bool f, i, m, o; /* functional, inplace, mutable, out= */
    bool requested;  /* some member has an autogen list */
} members;

static members members_of(const ta_torchgen *tg, const tg_pregroup *g)
{
    members ms = {0};
    for (int k = 0; k < 5; k++) {
        ms.n += g->m[k] >= 0;
        ms.requested |= g->m[k] >= 0 && tg->fns[g->m[k]]->nautogen > 0;
    }
    ms.f = g->m[TA_KIND_FUNCTIONAL] >= 0;
    ms.i = g->m[TA_KIND_INPLACE] >= 0;
    ms.m = g->m[TA_KIND_MUTABLE] >= 0;
    ms.o = g->m[TA_KIND_OUT] >= 0;
    return ms;
}

/* The member the others derive from: the mutable one, else the inplace,
 * else the out=, else the functional one. */
static ta_tg_function *group_base(const ta_torchgen *tg, const tg_pregroup *g, members ms)
{
    ta_schema_kind k = ms.m ? TA_KIND_MUTABLE : ms.i ? TA_KIND_INPLACE : ms.o ? TA_KIND_OUT
                                                                            : TA_KIND_FUNCTIONAL;
    return tg->fns[g->m[k]];
}

/* A group torchgen derives nothing for; an out= op alone that asks for
 * variants is an error torchgen itself stops at. */
static ta_status report_lone_out(const ta_torchgen *tg, const tg_pregroup *g, members ms,
                                 const char *reason, ta_diags *diags)
{
    const ta_tg_function *o = ms.o ? tg->fns[g->m[TA_KIND_OUT]] : NULL;
    if (!o || !ms.requested || ms.n != 1 || listed(out_ops_not_grouped, o->name) ||
        !strstr(reason, "out= op"))
        return TA_OK;
    return tg_diag(diags, TA_SEV_ERROR, "autogen-lone-out", o, "add the functional variant to the yaml",
                   "'%s' is an out= op with no other variant; torchgen refuses it", o->name);
}

/* Whether the group gets a derived out= variant: it has none, its base's
 * returns allow one (an inplace base always does; else a tensor-like
 * return is needed) and one of the base's autogen names asks for it. A base
 * that cannot have one, when variants are asked for, is an error torchgen
 * stops at unless it lists the operator as exempt. */
static ta_status wants_out(const ta_torchgen *tg, const ta_tg_function *base, members ms,
                           const char **reason, ta_diags *diags, bool *gets_out)
{
    bool base_valid = base->kind == TA_KIND_INPLACE || tg_fn_tensor_like_return(tg, base);
    bool needs_out = false;
    for (uint32_t i = 0; i < base->nautogen; i++)
        if (strstr(base->autogen[i], "out")) needs_out = true;
    *gets_out = !ms.o && base_valid && needs_out;
    if (!ms.o && !base_valid) {
        *reason = "it has no tensor-like return to turn into an out= argument";
        if (ms.requested && !listed(mutable_no_out, base->name) &&
            !listed(functional_no_out, base->name))
            return tg_diag(diags, TA_SEV_ERROR, "autogen-no-out-variant", base,
                           "return a tensor, or add the operator to torchgen's list of ops "
                           "without out= variants",
                           "'%s' has no tensor-like return, so torchgen cannot derive its out= "
                           "variant",
                           base->name);
    } else if (!ms.o && !needs_out) {
        *reason = "no autogen name of its base asks for an out= variant";
    }
    return TA_OK;
}

/* Appends a derived function made from base as the group's member of kind
 * `as`; p records it for planning. */
static ta_status add_member(ta_torchgen *tg, tg_pregroup *g, ta_schema_kind as,
                            ta_tg_function *base, ta_schema *s, pending *p)
{
    if (!(p->fn = new_generated(tg, base, s))) return TA_ERR_NOMEM;
    p->base = base;
    ta_status st = tg_push(tg, p->fn);
    if (st == TA_OK) g->m[as] = (int32_t)p->fn->index;
    return st;
}

/* Where a derived schema is built: a stream model drops it with its group
 * (unload_group), so it goes where the base was loaded. */
static ta_arena *derived_arena(const ta_torchgen *tg)
{
    return tg->load ? tg->load_arena : tg->arena;
}

/* The out= variant of base; *made false (with a reason) when torchgen's
 * derivation does not apply to its schema. */
static ta_status derive_out_member(ta_torchgen *tg, tg_pregroup *g, ta_tg_function *base,
                                   pending *p, const char **reason, bool *made)
{
    ta_schema *s;
    *made = false;
    if (base->schema->nrets >= 64) return TA_ERR_UNSUPPORTED;
    /* its name's base is the base's, without inplace or functional suffix */
    bool drop = tg->no_func && !tg_is_view_copy_name(tg_opname_parse(base->schema->name).base);
    if (drop && !tg->scratch && ta_arena_create(&tg->scratch) != TA_OK) return TA_ERR_NOMEM;
    ta_status st = tg_derive_out(drop ? tg->scratch : derived_arena(tg), base->schema, base->kind,
                                 !tg->no_func, &s, p->ret_origin, p->out_origin, &p->nouts);
    if (st == TA_ERR_UNSUPPORTED) {
        *reason = "torchgen's out= derivation does not apply to its schema";
    } else if (st == TA_OK && (st = add_member(tg, g, TA_KIND_OUT, base, s, p)) == TA_OK) {
        *made = true;
        /* only an out= plan is made without the schema (plan_member) */
        if (drop && p->fn->kind != TA_KIND_OUT)
            st = tg_derive_out(derived_arena(tg), base->schema, base->kind, false, &s,
                               p->ret_origin, p->out_origin, &p->nouts);
        if (drop) p->fn->schema = p->fn->kind == TA_KIND_OUT ? NULL : s;
    }
    if (drop) ta_arena_reset(tg->scratch);
    return st == TA_ERR_UNSUPPORTED ? TA_OK : st;
}

static ta_status derive_functional_member(ta_torchgen *tg, tg_pregroup *g, ta_tg_function *base,
                                          pending *p)
{
    ta_schema *s;
    ta_status st =
        tg_derive_functional(derived_arena(tg), base->schema, base->kind, !tg->no_func, &s);
    p->nouts = 0;
    return st == TA_OK ? add_member(tg, g, TA_KIND_FUNCTIONAL, base, s, p) : st;
}

/* A check-only model (destroyed once its diagnostics are out) reads of an
 * out= plan only its base (check_names), and an out= plan never fails: it
 * keeps the plan's head, not its tables. */
static ta_status plan_head(ta_torchgen *tg, const tg_pregroup *g, const pending *p)
{
    ta_autogen_plan *h = ta_arena_zalloc(tg->arena, sizeof *h);
    if (!h) return TA_ERR_NOMEM;
    h->kind = TA_KIND_OUT;
    h->base = p->base->index;
    h->base_kind = p->base->kind;
    h->callee = (uint32_t)g->m[TA_KIND_FUNCTIONAL];
    p->fn->plan = h;
    return TA_OK;
}

/* The run plan of a derived member, now that the group's functional member
 * is known. One that cannot be planned is a warning, not a failure. */
static ta_status plan_member(ta_torchgen *tg, const tg_pregroup *g, const pending *p,
                             ta_diags *diags)
{
    ta_autogen_plan *plan = NULL;
    ta_status st;
    if (p->fn->kind == TA_KIND_OUT && g->m[TA_KIND_FUNCTIONAL] >= 0 && tg->no_func)
        return plan_head(tg, g, p);
    if (p->fn->kind == TA_KIND_OUT) {
        if (g->m[TA_KIND_FUNCTIONAL] < 0) return TA_OK;
        st = tg_plan_out(tg->arena, p->fn, p->base, tg->fns[g->m[TA_KIND_FUNCTIONAL]],
                         p->ret_origin, p->out_origin, p->nouts, &plan);
    } else {
        st = tg_plan_functional(tg->arena, p->fn, p->base, &plan);
    }
    if (st == TA_ERR_NOMEM) return st;
    p->fn->plan = plan;
    if (st == TA_OK) return TA_OK;
    return tg_diag(diags, TA_SEV_WARNING, "autogen-no-plan", p->base, NULL,
                   "derived '%s' cannot be run by composing '%s'", p->fn->name, p->base->name);
}

/* torchgen's add_generated_native_functions for one pre-group: an out=
 * variant and then a functional one, as the group lacks and its base
 * allows; *reason says why nothing (or less) was derived. */
static ta_status derive_group(ta_torchgen *tg, tg_pregroup *g, const char **reason,
                              ta_diags *diags)
{
    members ms = members_of(tg, g);
    if (!(ms.f || ms.i || ms.m || ms.o)) return TA_OK;
    if ((*reason = skip_reason(tg, g, ms.n))) return report_lone_out(tg, g, ms, *reason, diags);
    ta_tg_function *base = group_base(tg, g, ms);
    bool gets_out;
    ta_status st = wants_out(tg, base, ms, reason, diags, &gets_out);
    pending p[2];
    int np = 0;
    if (st == TA_OK && (gets_out || (!ms.f && ms.o))) st = load_base(tg, base);
    if (st == TA_OK && gets_out) {
        bool made;
        st = derive_out_member(tg, g, base, &p[np], reason, &made);
        if (made) {
            np++;
            ms.o = true;
        }
    }
    if (st == TA_OK && !ms.f && ms.o && (st = derive_functional_member(tg, g, base, &p[np])) == TA_OK)
        np++;
    for (int i = 0; i < np && st == TA_OK; i++) st = plan_member(tg, g, &p[i], diags);
    return st;
}

static bool name_in(const char *name, const char **list, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(list[i], name) == 0) return true;
    return false;
}

/* Whether some member of the group lists name under autogen. */
static bool asked_for(const ta_torchgen *tg, const tg_pregroup *g, const char *name)
{
    for (int q = 0; q < 5; q++)
        if (g->m[q] >= 0 && name_in(name, tg->fns[g->m[q]]->autogen, tg->fns[g->m[q]]->nautogen))
            return true;
    return false;
}

/* Whether the group has a derived member called name. */
static bool derived_as(const ta_torchgen *tg, const tg_pregroup *g, const char *name)
{
    for (int j = 0; j < 5; j++)
        if (g->m[j] >= 0 && tg->fns[g->m[j]]->generated && strcmp(tg->fns[g->m[j]]->name, name) == 0)
            return true;
    return false;
}

/* A derived member no autogen entry asked for, preferring one of the same
 * kind (out= or not) as the name `want`; NULL when there is none. */
static const ta_tg_function *derived_instead(const ta_torchgen *tg, const tg_pregroup *g,
                                             const char *want)
{
    const ta_tg_function *other = NULL;
    for (int j = 0; j < 5; j++) {
        const ta_tg_function *h = g->m[j] >= 0 ? tg->fns[g->m[j]] : NULL;
        if (!h || !h->generated || asked_for(tg, g, h->name)) continue;
        if (!other || (strstr(want, "out") != NULL) == (h->kind == TA_KIND_OUT)) other = h;
    }
    return other;
}

/* An autogen name of f that was not derived: derived under another name,
 * already in the yaml, ignored by torchgen's policy, or underivable. */
static ta_status report_not_derived(const ta_torchgen *tg, const tg_pregroup *g,
                                    const ta_tg_function *f, const char *want, const char *reason,
                                    ta_diags *diags)
{
    const ta_tg_function *other = derived_instead(tg, g, want);
    int32_t known = ta_torchgen_find(tg, want);
    if (other) {
        ta_status st = tg_diag(diags, TA_SEV_ERROR, "autogen-name-mismatch", f, NULL,
                               "autogen names '%s', but torchgen derives '%s' for '%s'", want,
                               other->name, f->name);
        return st == TA_OK && diags ? ta_diag_hint(diags, "write 'autogen: %s'", other->name) : st;
    }
    if (known >= 0 && !tg->fns[known]->generated)
        return tg_diag(diags, TA_SEV_ERROR, "autogen-underivable", f, "remove it from the autogen list",
                       "autogen names '%s', which the yaml already defines", want);
    if (reason && reason[0] == POLICY) /* torchgen accepts it and silently derives nothing */
        return tg_diag(diags, TA_SEV_NOTE, "autogen-ignored", f, "remove it from the autogen list",
                       "autogen names '%s', which torchgen does not derive for '%s': %s", want,
                       f->name, reason + 1);
    return tg_diag(diags, TA_SEV_ERROR, "autogen-underivable", f, "remove it from the autogen list",
                   "autogen names '%s', which torchgen cannot derive for '%s': %s", want, f->name,
                   reason ? reason : "no variant of that name is derived");
}

/* A derived member no autogen entry names, reported at the first member
 * with an autogen list (requester), else at its base. */
static ta_status report_unasked(const ta_torchgen *tg, const ta_tg_function *h,
                                const ta_tg_function *requester, ta_diags *diags)
{
    const ta_tg_function *at = requester ? requester : tg->fns[h->plan ? h->plan->base : 0];
    ta_status st = tg_diag(diags, TA_SEV_ERROR, requester ? "autogen-name-mismatch" : "autogen-missing",
                           at, NULL, "torchgen derives '%s', which no autogen entry of its group names",
                           h->name);
    return st == TA_OK && diags ? ta_diag_hint(diags, "add '%s' to the autogen list", h->name) : st;
}

/* NativeFunctionsGroup's check: the generated names equal the union of the
 * autogen lists. Reported per name so every line of the yaml at fault gets
 * its own error. */
static ta_status check_names(const ta_torchgen *tg, const tg_pregroup *g, const char *reason,
                             ta_diags *diags)
{
    const ta_tg_function *requester = NULL;
    ta_status st = TA_OK;
    for (int k = 0; k < 5 && st == TA_OK; k++) {
        const ta_tg_function *f = g->m[k] >= 0 ? tg->fns[g->m[k]] : NULL;
        if (f && f->nautogen && !requester) requester = f;
        for (uint32_t a = 0; f && a < f->nautogen && st == TA_OK; a++)
            if (!derived_as(tg, g, f->autogen[a]))
                st = report_not_derived(tg, g, f, f->autogen[a], reason, diags);
    }
    for (int j = 0; j < 5 && st == TA_OK; j++) {
        const ta_tg_function *h = g->m[j] >= 0 ? tg->fns[g->m[j]] : NULL;
        if (h && h->generated && !asked_for(tg, g, h->name))
            st = report_unasked(tg, h, requester, diags);
    }
    return st;
}

ta_status ta_torchgen_derive(ta_torchgen *tg, ta_diags *diags)
{
    if (!tg || tg->derived) return TA_ERR_INVALID;
    tg->derived = true;
    tg_pregroup *pg;
    size_t np;
    ta_status st = tg_pregroup_build(tg, tg->nyaml, &pg, &np, diags);
    if (st != TA_OK) return st;
    const char **reasons = ta_calloc(np ? np : 1, sizeof *reasons);
    if (!reasons) {
        free(pg);
        return TA_ERR_NOMEM;
    }
    for (size_t i = 0; i < np && st == TA_OK; i++) {
        size_t from = tg->nfns;
        st = derive_group(tg, &pg[i], &reasons[i], diags);
        if (st == TA_OK && tg->load) st = unload_group(tg, &pg[i], from);
    }
    for (size_t i = 0; i < np && st == TA_OK; i++) st = check_names(tg, &pg[i], reasons[i], diags);
    free(reasons);
    free(pg);
    return st;
}
