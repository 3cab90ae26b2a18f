/* groups.c - torchgen's operator families: functions sharing a signature
 * (NativeFunctionsGroup: functional, inplace, mutable, out) and views with
 * their _copy and inplace variants (NativeFunctionsViewGroup), formed in the
 * order torchgen forms them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/alloc.h"
#include "alias/torchgen/internal.h"

ta_status tg_diag(ta_diags *d, ta_severity sev, const char *rule, const ta_tg_function *f,
                  const char *hint, const char *fmt, ...)
{
    ta_loc at = {.file = f && f->source ? f->source : "<yaml>", .line = f ? f->line : 0};
    va_list ap;
    va_start(ap, fmt);
    ta_status st = ta_diag_vemit(d, sev, &at, rule, fmt, ap);
    va_end(ap);
    return st == TA_OK && hint ? ta_diag_hint(d, "%s", hint) : st;
}

ta_status tg_pregroup_build(ta_torchgen *tg, size_t n, tg_pregroup **out,
                            size_t *nout, ta_diags *diags)
{
    *out = NULL;
    *nout = 0;
    ta_status st = TA_OK;
    tg_pregroup *pg = ta_malloc((n ? n : 1) * sizeof *pg);
    /* group of each class (indexed by the class's first function), -1 until
     * its first member is met: groups come in order of first appearance */
    int32_t *gid = ta_malloc((n ? n : 1) * sizeof *gid);
    if (!pg || !gid) {
        free(pg);
        free(gid);
        return TA_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) gid[i] = -1;
    size_t np = 0;
    for (size_t i = 0; i < n; i++) {
        const ta_tg_function *f = tg->fns[i];
        int32_t g = gid[tg->sig_first[i]]; /* the first is at or before i */
        if (g < 0) { /* a new signature */
            g = gid[tg->sig_first[i]] = (int32_t)np++;
            for (int k = 0; k < 5; k++) pg[g].m[k] = -1;
        }
        if (pg[g].m[f->kind] >= 0) {
            st = tg_diag(diags, TA_SEV_ERROR, "group-duplicate-kind", f, NULL,
                         "'%s' has the same signature and kind (%s) as '%s'; torchgen stops at "
                         "an assertion",
                         f->name, ta_schema_kind_str(f->kind), tg->fns[pg[g].m[f->kind]]->name);
            if (st != TA_OK) break;
            continue;
        }
        pg[g].m[f->kind] = (int32_t)i;
    }
    free(gid);
    if (st != TA_OK) {
        free(pg);
        return st;
    }
    *out = pg;
    *nout = np;
    return TA_OK;
}

static ta_tg_group *new_group(ta_tg_group **gs, size_t *n, size_t *cap)
{
    if (TA_GROW_ONE(*gs, *n, *cap, 256) != TA_OK) return NULL;
    ta_tg_group *g = &(*gs)[(*n)++];
    memset(g, 0, sizeof *g);
    g->functional = g->inplace = g->mutable_fn = g->out = -1;
    g->view = g->view_copy = g->view_inplace = -1;
    return g;
}

/* NativeFunctionsGroup.from_dict: a group needs more than one member, a
 * functional and an out= member; scratch members are not allowed. */
static ta_status kinds_groups(ta_torchgen *tg, ta_tg_group **gs, size_t *n,
                              size_t *cap, ta_diags *diags)
{
    tg_pregroup *pg;
    size_t np;
    /* derive already warned about duplicate kinds */
    ta_status st = tg_pregroup_build(tg, tg->nfns, &pg, &np, tg->derived ? NULL : diags);
    if (st != TA_OK) return st;
    for (size_t i = 0; i < np; i++) {
        const int32_t *m = pg[i].m;
        int count = 0, first = -1;
        for (int k = 0; k < 5; k++)
            if (m[k] >= 0) {
                count++;
                if (first < 0 || m[k] < first) first = m[k];
            }
        if (count < 2) continue;
        const ta_tg_function *f0 = tg->fns[first];
        if (m[TA_KIND_SCRATCH] >= 0) {
            st = tg_diag(diags, TA_SEV_ERROR, "group-scratch", tg->fns[m[TA_KIND_SCRATCH]], NULL,
                         "'%s' is a scratch op sharing the signature of '%s'; torchgen stops at "
                         "an assertion",
                         tg->fns[m[TA_KIND_SCRATCH]]->name, f0->name);
            if (st != TA_OK) break;
            continue;
        }
        if (m[TA_KIND_FUNCTIONAL] < 0) {
            st = tg_diag(diags, TA_SEV_ERROR, "group-no-functional", f0, NULL,
                         "the variants of '%s' have no functional variant; torchgen stops at "
                         "an assertion",
                         f0->signature);
            if (st != TA_OK) break;
            continue;
        }
        if (m[TA_KIND_OUT] < 0 || tg->no_groups) continue;
        ta_tg_group *g = new_group(gs, n, cap);
        if (!g) {
            free(pg);
            return TA_ERR_NOMEM;
        }
        g->kind = TA_GROUP_KINDS;
        g->signature = tg->fns[m[TA_KIND_FUNCTIONAL]]->signature;
        g->functional = m[TA_KIND_FUNCTIONAL];
        g->inplace = m[TA_KIND_INPLACE];
        g->mutable_fn = m[TA_KIND_MUTABLE];
        g->out = m[TA_KIND_OUT];
    }
    free(pg);
    return st;
}

enum { SLOT_VIEW = 5, SLOT_VIEW_INPLACE = 6, NSLOTS = 7 };

/* The working state of view grouping: each function's view class, the
 * view signatures no function has as its own (numbered from nfns, in
 * extra), and per class its view group and that group's slots. */
typedef struct view_filing {
    ta_map extra;
    ta_arena *scratch; /* the extra classes' keys */
    size_t nextra;
    int32_t *gid;              /* class -> view group, -1 until one is made */
    int32_t (*slots)[NSLOTS]; /* view group -> function per slot, -1 when empty */
    size_t ns;
} view_filing;

void tg_print_view_key(ta_strbuf *b, const ta_schema *s)
{
    tg_print_signature(b, s, TA_SIG_STRIP_VIEW_COPY_NAME);
}

const char *tg_view_key_dup(ta_arena *a, const ta_schema *s)
{
    ta_strbuf b;
    ta_strbuf_init(&b);
    tg_print_view_key(&b, s);
    const char *key = b.failed ? NULL : ta_arena_strndup(a, b.p ? b.p : "", b.len);
    ta_strbuf_free(&b);
    return key;
}

bool tg_is_view_copy_name(ta_str base)
{
    return (base.len >= 5 && memcmp(base.ptr + base.len - 5, "_copy", 5) == 0) ||
           (base.len >= 8 && memcmp(base.ptr + base.len - 8, "_scatter", 8) == 0);
}

/* The view class of function i: its signature's class (ta_torchgen.sig_first),
 * unless its base name ends in "_copy" or "_scatter": then the class of the
 * signature with that stripped, one of its own when no function has it. */
static ta_status view_class(ta_torchgen *tg, view_filing *vf, size_t i, const tg_opname *op,
                            int32_t *c)
{
    const ta_tg_function *f = tg->fns[i];
    *c = tg->sig_first[i];
    if (!tg_is_view_copy_name(op->base)) return TA_OK;
    const char *key = f->schema ? NULL : tg_fn_view_key(tg, f);
    if (!key && !f->schema) return TA_ERR_INVALID; /* a stream model records every one */
    if (!key && !(key = tg_view_key_dup(vf->scratch, f->schema))) return TA_ERR_NOMEM;
    size_t klen = strlen(key), nf = tg->nfns;
    uint64_t h = ta_map_hash_bytes(key, klen);
    const ta_map_entry *known = ta_map_find_h(&tg->sig_idx, key, klen, h);
    if (known) {
        *c = (int32_t)known->value.i;
        return TA_OK;
    }
    ta_map_entry *e;
    if (ta_map_add_h(&vf->extra, key, klen, h, ta_map_int((int64_t)(nf + vf->nextra)), &e) != TA_OK)
        return TA_ERR_NOMEM;
    *c = (int32_t)e->value.i;
    if (*c == (int32_t)(nf + vf->nextra)) vf->nextra++;
    return TA_OK;
}

/* Files function i under its view class: in a view slot when it is a view
 * (aliasing, aliasing inplace), else in the slot of its schema kind. A slot
 * taken already is an error: torchgen asserts. */
static ta_status file_view(ta_torchgen *tg, view_filing *vf, size_t i, ta_diags *diags)
{
    const ta_tg_function *f = tg->fns[i];
    /* (a check model's out= variant has no schema) */
    tg_opname op = tg_opname_parse(tg_fn_opname(f));
    int32_t c;
    ta_status st = view_class(tg, vf, i, &op, &c);
    if (st != TA_OK) return st;
    int32_t g = vf->gid[c];
    if (g < 0) { /* a new view signature */
        g = vf->gid[c] = (int32_t)vf->ns++;
        for (int k = 0; k < NSLOTS; k++) vf->slots[g][k] = -1;
    }
    int slot = f->is_view_op ? (op.inplace ? SLOT_VIEW_INPLACE : SLOT_VIEW) : (int)f->kind;
    if (vf->slots[g][slot] < 0) {
        vf->slots[g][slot] = (int32_t)i;
        return TA_OK;
    }
    return tg_diag(diags, TA_SEV_ERROR, "group-duplicate-view", f, NULL,
                   "'%s' and '%s' fall in the same view group slot; torchgen stops at an assertion",
                   tg->fns[vf->slots[g][slot]]->name, f->name);
}

/* get_grouped_by_view_native_functions: every function is filed under its
 * view signature; each entry holding an aliasing view makes a view group
 * whose view_copy is the functional filed there. */
static ta_status view_groups(ta_torchgen *tg, ta_tg_group **gs, size_t *n, size_t *cap,
                             ta_diags *diags)
{
    size_t nf = tg->nfns;
    ta_status st = TA_OK;
    view_filing vf = {.gid = ta_malloc((nf ? 2 * nf : 1) * sizeof *vf.gid),
                      .slots = ta_malloc((nf ? nf : 1) * sizeof *vf.slots)};
    ta_map_init(&vf.extra, NULL);
    if (ta_arena_create(&vf.scratch) != TA_OK || !vf.slots || !vf.gid) st = TA_ERR_NOMEM;
    for (size_t i = 0; st == TA_OK && i < 2 * nf; i++) vf.gid[i] = -1;
    for (size_t i = 0; st == TA_OK && i < nf; i++) st = file_view(tg, &vf, i, diags);
    for (size_t i = 0; st == TA_OK && !tg->no_groups && i < vf.ns; i++) {
        if (vf.slots[i][SLOT_VIEW] < 0) continue;
        ta_tg_group *g = new_group(gs, n, cap);
        if (!g) {
            st = TA_ERR_NOMEM;
            break;
        }
        g->kind = TA_GROUP_VIEW;
        g->view = vf.slots[i][SLOT_VIEW];
        g->view_inplace = vf.slots[i][SLOT_VIEW_INPLACE];
        g->view_copy = vf.slots[i][TA_KIND_FUNCTIONAL];
    }
    ta_map_clear(&vf.extra);
    free(vf.gid);
    free(vf.slots);
    ta_arena_destroy(vf.scratch);
    return st;
}

ta_status ta_torchgen_group(ta_torchgen *tg, ta_diags *diags)
{
    if (!tg) return TA_ERR_INVALID;
    ta_tg_group *gs = NULL;
    size_t n = 0, cap = 0;
    ta_status st = kinds_groups(tg, &gs, &n, &cap, diags);
    if (st == TA_OK) st = view_groups(tg, &gs, &n, &cap, diags);
    if (st != TA_OK) {
        free(gs);
        return st;
    }
    free(tg->groups);
    tg->groups = gs;
    tg->ngroups = n;
    return TA_OK;
}
