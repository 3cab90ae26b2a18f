/* native.c - the torchgen family model over a loaded
 * native_functions.yaml (ta_native_file), and the `autogen` check pass that
 * reports derivation problems at the yaml entries they come from. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "alias/torchgen/internal.h"

/* Tags that torchgen gives a yaml function beyond those written: a late
 * torchgen (torch >= 2.2, whose tags.yaml declares pt2_compliant_tag) tags
 * every aten operator pt2_compliant_tag. Which torchgen a yaml belongs to is
 * told by the tags its tags.yaml declares, so a 1.13.1 yaml stays exact. */
static bool declares(const ta_native_file *nf, const char *tag)
{
    return ta_native_has_tag_set(nf) && ta_native_tag_known(nf, tag);
}

static bool is_aten(const ta_native_func *fn)
{
    /* a func written "ns::name(...)" belongs to ns; torchgen's default is aten */
    const char *sep = strstr(fn->func.s, "::"), *paren = strchr(fn->func.s, '(');
    return !sep || (paren && paren < sep);
}

/* fn's tags, and pt2_compliant_tag when pt2 (the yaml's tags.yaml declares
 * it) and fn is an aten operator. */
static uint32_t with_implied_tags(bool pt2, const ta_native_func *fn, const char **tags)
{
    uint32_t n = 0;
    bool has_pt2 = false;
    for (uint32_t k = 0; k < fn->ntags; k++) {
        tags[n++] = fn->tags[k].s;
        has_pt2 |= pt2 && !strcmp(fn->tags[k].s, TG_TAG_PT2_COMPLIANT);
    }
    if (pt2 && !has_pt2 && is_aten(fn)) tags[n++] = TG_TAG_PT2_COMPLIANT;
    return n;
}

ta_status ta_torchgen_add_native(ta_torchgen *tg, const ta_native_file *nf)
{
    /* torch >= 2.0 (its tags.yaml declares `core`): derived variants keep view_copy */
    tg->derived_keep_view_copy = declares(nf, "core");
    bool pt2 = declares(nf, TG_TAG_PT2_COMPLIANT);
    size_t n = ta_native_count(nf);
    const char **buf = NULL;
    size_t cap = 0;
    /* torchgen derives about a fifth more; about 63 in 100 of a PyTorch
     * yaml's functions (derived ones included) have a signature no earlier
     * one has: room for two in three (more grows the index) */
    ta_status st = ta_map_reserve(&tg->by_name, n + n / 4);
    if (st == TA_OK) st = ta_map_reserve(&tg->sig_idx, n * 2 / 3);
    for (size_t i = 0; i < n && st == TA_OK; i++) {
        const ta_native_func *fn = ta_native_get(nf, i);
        if (!fn->schema) continue; /* reported by the loader */
        size_t need = fn->ntags + 1 + fn->nautogen;
        if (need > cap) {
            const char **p = ta_realloc(buf, need * sizeof *p);
            if (!p) {
                st = TA_ERR_NOMEM;
                break;
            }
            buf = p;
            cap = need;
        }
        const char **tags = buf;
        uint32_t ntags = with_implied_tags(pt2, fn, tags);
        const char **autogen = buf + ntags;
        for (uint32_t k = 0; k < fn->nautogen; k++) autogen[k] = fn->autogen[k].s;
        /* torchgen's variants are a set, listed sorted (tg_add keeps these) */
        static const char *const variant_sets[4][2] = {
            {NULL, NULL}, {"function", NULL}, {"method", NULL}, {"function", "method"}};
        unsigned vbits = fn->variants & (TA_VARIANT_FUNCTION | TA_VARIANT_METHOD);
        uint32_t nv = (vbits & 1u) + (vbits >> 1 & 1u);
        ta_tg_entry e = {
            .schema = fn->schema,
            .source = ta_native_source(nf),
            .line = fn->pos.line,
            .tags = tags,
            .ntags = ntags,
            .autogen = autogen,
            .nautogen = fn->nautogen,
            .variants = nv ? variant_sets[vbits] : NULL,
            .nvariants = nv,
            .manual_cpp_binding = fn->manual_cpp_binding,
            .structured = fn->structured,
            .structured_delegate = fn->structured_delegate.s,
            .has_composite_implicit_autograd_kernel = fn->has_composite_implicit_autograd_kernel,
            .has_composite_explicit_autograd_kernel = fn->has_composite_explicit_autograd_kernel,
            .id = (int32_t)fn->index,
        };
        /* the file's strings outlive tg; its name is tg_print_name's spelling
         * (the loader writes name.overload from the same schema) */
        st = tg_add(tg, &e, TG_BORROW_STRINGS, fn->name);
    }
    free(buf);
    return st;
}

/* The entry of a diagnostic's line (a binary search: entries are in line
 * order), or -1. */
static ptrdiff_t entry_at(const tg_entries *es, uint32_t line)
{
    size_t lo = 0, hi = es->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t l = es->line(es->ctx, mid);
        if (l == line) return (ptrdiff_t)mid;
        if (l < line) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

/* For "autogen names 'X' ...", the position of X in the entry's list. */
static ta_native_pos autogen_pos(const tg_entry_where *w, const char *msg)
{
    static const char lead[] = "autogen names '";
    ta_native_pos pos = w->has_autogen_key ? w->autogen_val : w->pos;
    if (strncmp(msg, lead, sizeof lead - 1) != 0) return pos;
    const char *name = msg + sizeof lead - 1, *end = strchr(name, '\'');
    if (!end) return pos;
    for (uint32_t k = 0; k < w->nautogen; k++)
        if (w->autogen[k].len == (uint32_t)(end - name) &&
            memcmp(w->autogen[k].s, name, w->autogen[k].len) == 0)
            return w->autogen[k].pos;
    return pos;
}

ta_status tg_reposition(const ta_native_file *f, const tg_entries *es, const ta_diags *mine,
                        bool with_notes, ta_diags *diags)
{
    ta_status st = TA_OK;
    for (size_t i = 0; st == TA_OK && i < ta_diags_count(mine); i++) {
        const ta_diag *g = ta_diags_get(mine, i);
        if (!with_notes && g->severity == TA_SEV_NOTE) continue;
        ptrdiff_t e = entry_at(es, g->line);
        if (e < 0) {
            st = ta_diags_append(diags, g);
            continue;
        }
        tg_entry_where w;
        es->where(es->ctx, (size_t)e, &w);
        ta_native_pos pos = strncmp(g->rule, "autogen-", 8) == 0 ? autogen_pos(&w, g->message)
                                                                 : w.pos;
        ta_loc at = ta_native_loc(f, pos);
        st = ta_diag_emit(diags, g->severity, &at, g->rule, "%s", g->message);
        if (st == TA_OK && g->hint) st = ta_diag_hint(diags, "%s", g->hint);
    }
    return st;
}

static uint32_t native_line(const void *ctx, size_t i)
{
    return ta_native_get(ctx, i)->pos.line;
}

static void native_where(const void *ctx, size_t i, tg_entry_where *out)
{
    const ta_native_func *fn = ta_native_get(ctx, i);
    out->pos = fn->pos;
    out->has_autogen_key = ta_native_has_key(fn, TA_NK_AUTOGEN);
    out->autogen_val = out->has_autogen_key ? ta_native_val_pos(fn, TA_NK_AUTOGEN) : fn->pos;
    out->autogen = fn->autogen;
    out->nautogen = fn->nautogen;
}

/* ta_torchgen_from_native; a model built only for its diagnostics (the
 * check pass, which destroys it at once) skips the yaml functions' func
 * strings, which no diagnostic uses: they are left NULL. */
ta_status tg_from_native(const ta_native_file *f, ta_torchgen **out, ta_diags *diags, tg_model what)
{
    *out = NULL;
    ta_diags *mine = NULL;
    ta_torchgen *tg = NULL;
    ta_status st = ta_diags_create(&mine);
    if (st == TA_OK) st = ta_torchgen_create(&tg);
    if (tg) {
        tg->no_func = what == TG_CHECK_MODEL;
        /* functions, derived ones and their strings: about 600 bytes an entry */
        ta_arena_expect(tg->arena, ta_native_count(f) * 640);
    }
    if (st == TA_OK) st = ta_torchgen_add_native(tg, f);
    if (st == TA_OK) st = ta_torchgen_derive(tg, mine);
    if (st == TA_OK) st = ta_torchgen_group(tg, mine);
    tg_entries es = {ta_native_count(f), f, native_line, native_where};
    if (st == TA_OK && diags) st = tg_reposition(f, &es, mine, true, diags);
    ta_diags_destroy(mine);
    if (st != TA_OK) {
        ta_torchgen_destroy(tg);
        return st;
    }
    *out = tg;
    return TA_OK;
}

ta_status ta_torchgen_from_native(const ta_native_file *f, ta_torchgen **out, ta_diags *diags)
{
    return tg_from_native(f, out, diags, TG_FULL_MODEL);
}

ta_status ta_torchgen_check_pass(const ta_native_file *f, ta_diags *diags)
{
    ta_torchgen *tg = NULL;
    ta_diags *mine;
    if (ta_diags_create(&mine) != TA_OK) return TA_ERR_NOMEM;
    ta_status st = tg_from_native(f, &tg, mine, TG_CHECK_MODEL);
    /* notes (autogen entries torchgen accepts and skips, as PyTorch's own
     * yamls have) stay out of a check: they are no finding */
    for (size_t i = 0; st == TA_OK && i < ta_diags_count(mine); i++) {
        const ta_diag *g = ta_diags_get(mine, i);
        if (g->severity == TA_SEV_NOTE) continue;
        st = ta_diags_append(diags, g);
    }
    ta_diags_destroy(mine);
    ta_torchgen_destroy(tg);
    return st;
}

const ta_native_pass ta_torchgen_pass = {"autogen", ta_torchgen_check_pass};

static const ta_rule_info rules[] = {
    {"autogen-underivable", TA_SEV_ERROR,
     "an autogen: name that torchgen cannot derive for its entry"},
    {"autogen-name-mismatch", TA_SEV_ERROR,
     "torchgen derives a variant under another name than the autogen: entry gives"},
    {"autogen-missing", TA_SEV_ERROR, "torchgen derives a variant that no autogen: entry names"},
    {"autogen-lone-out", TA_SEV_ERROR, "an out= operator with no other variant (torchgen refuses it)"},
    {"autogen-no-out-variant", TA_SEV_ERROR,
     "an operator without tensor-like return that torchgen cannot give an out= variant"},
    {"autogen-ignored", TA_SEV_NOTE,
     "an autogen: entry torchgen accepts but skips (view, composite implicit, manual binding)"},
    {"autogen-no-plan", TA_SEV_WARNING, "a derived variant that cannot be run by composition"},
    {"group-duplicate-kind", TA_SEV_ERROR, "two functions of one kind share a signature (torchgen asserts)"},
    {"group-duplicate-view", TA_SEV_ERROR, "two functions fall in one view-group slot (torchgen asserts)"},
    {"group-scratch", TA_SEV_ERROR, "a scratch op shares the signature of other variants (torchgen asserts)"},
    {"group-no-functional", TA_SEV_ERROR, "variants sharing a signature have no functional one (torchgen asserts)"},
};

const ta_rule_info *ta_torchgen_rules(size_t *n)
{
    *n = sizeof rules / sizeof *rules;
    return rules;
}
