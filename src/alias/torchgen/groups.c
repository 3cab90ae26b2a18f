/* groups.c - torchgen's operator families: functions sharing a signature
 * (NativeFunctionsGroup: functional, inplace, mutable, out) and views with
 * their _copy and inplace variants (NativeFunctionsViewGroup), formed in the
 * order torchgen forms them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alias/torchgen/internal.h"

void tg_diag(ta_diags *d, ta_severity sev, const char *rule,
             const ta_tg_function *f, const char *hint, const char *fmt, ...)
{
    if (!d) return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ta_diags_add(d, sev, rule, f && f->source ? f->source : "<yaml>", f ? f->line : 0,
                 0, 0, NULL, hint, "%s", msg);
}

ta_status tg_sig_classes(ta_torchgen *tg, size_t n)
{
    if (n <= tg->nclassed) return TA_OK;
    if (n > tg->sig_first_cap) {
        size_t cap = n > tg->cap ? n : tg->cap; /* room for what the context holds */
        int32_t *p = realloc(tg->sig_first, cap * sizeof *p);
        if (!p) return TA_ERR_NOMEM;
        tg->sig_first = p;
        tg->sig_first_cap = cap;
    }
    /* derived functions add about a fifth: reserve once */
    if (ta_map_reserve(&tg->sig_idx, tg->sig_idx.n + (n - tg->nclassed) + n / 4) != TA_OK)
        return TA_ERR_NOMEM;
    for (size_t i = tg->nclassed; i < n; i++) {
        const char *sig = tg->fns[i]->signature;
        ta_map_entry *first;
        if (ta_map_add_h(&tg->sig_idx, sig, strlen(sig), tg->sig_hash[i], ta_map_int((int64_t)i),
                         &first) != TA_OK)
            return TA_ERR_NOMEM;
        tg->sig_first[i] = (int32_t)first->value.i;
        tg->nclassed = i + 1;
    }
    return TA_OK;
}

ta_status tg_pregroup_build(ta_torchgen *tg, size_t n, tg_pregroup **out,
                            size_t *nout, ta_diags *diags)
{
    *out = NULL;
    *nout = 0;
    ta_status st = tg_sig_classes(tg, n);
    if (st != TA_OK) return st;
    tg_pregroup *pg = malloc((n ? n : 1) * sizeof *pg);
    /* group of each class (indexed by the class's first function), -1 until
     * its first member is met: groups come in order of first appearance */
    int32_t *gid = malloc((n ? n : 1) * sizeof *gid);
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
            tg_diag(diags, TA_SEV_WARNING, "group-duplicate-kind", f, NULL,
                    "'%s' has the same signature and kind (%s) as '%s'; torchgen cannot "
                    "group them",
                    f->name, ta_schema_kind_str(f->kind), tg->fns[pg[g].m[f->kind]]->name);
            continue;
        }
        pg[g].m[f->kind] = (int32_t)i;
    }
    free(gid);
    *out = pg;
    *nout = np;
    return TA_OK;
}

static ta_tg_group *new_group(ta_tg_group **gs, size_t *n, size_t *cap)
{
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 256;
        ta_tg_group *p = realloc(*gs, c * sizeof *p);
        if (!p) return NULL;
        *gs = p;
        *cap = c;
    }
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
            tg_diag(diags, TA_SEV_WARNING, "group-scratch", tg->fns[m[TA_KIND_SCRATCH]], NULL,
                    "'%s' is a scratch op sharing the signature of '%s'; torchgen cannot "
                    "group it",
                    tg->fns[m[TA_KIND_SCRATCH]]->name, f0->name);
            continue;
        }
        if (m[TA_KIND_FUNCTIONAL] < 0) {
            tg_diag(diags, TA_SEV_WARNING, "group-no-functional", f0, NULL,
                    "the variants of '%s' have no functional variant; torchgen cannot "
                    "group them",
                    f0->signature);
            continue;
        }
        if (m[TA_KIND_OUT] < 0) continue;
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
    return TA_OK;
}

/* get_grouped_by_view_native_functions: every function is filed under its
 * view signature (signature with "_copy" stripped from the name), by view
 * kind when it is a view (aliasing, aliasing inplace) and by schema kind
 * otherwise; each entry holding an aliasing view makes a view group whose
 * view_copy is the functional filed there. */
enum { SLOT_VIEW = 5, SLOT_VIEW_INPLACE = 6, NSLOTS = 7 };

static ta_status view_groups(ta_torchgen *tg, ta_tg_group **gs, size_t *n,
                             size_t *cap, ta_diags *diags)
{
    /* A function's view signature is its signature, so its class
     * (tg_sig_classes) is its key, unless its base name ends in "_copy" or
     * "_scatter": then the stripped signature is looked up among the
     * classes, and one that no function has gets a class of its own
     * (numbered from nfns, in `extra`). */
    size_t nf = tg->nfns;
    ta_status st = tg_sig_classes(tg, nf);
    if (st != TA_OK) return st;
    ta_map extra;
    ta_map_init(&extra, NULL);
    int32_t (*slots)[NSLOTS] = malloc((nf ? nf : 1) * sizeof *slots);
    int32_t *gid = malloc((nf ? 2 * nf : 1) * sizeof *gid); /* class -> view group */
    ta_arena *scratch = ta_arena_create();
    size_t ns = 0, nextra = 0;
    if (!slots || !gid || !scratch) {
        st = TA_ERR_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < 2 * nf; i++) gid[i] = -1;
    for (size_t i = 0; i < nf; i++) {
        const ta_tg_function *f = tg->fns[i];
        int32_t c = tg->sig_first[i];
        tg_opname op = tg_opname_parse(f->schema->name);
        if ((op.base.len >= 5 && memcmp(op.base.ptr + op.base.len - 5, "_copy", 5) == 0) ||
            (op.base.len >= 8 && memcmp(op.base.ptr + op.base.len - 8, "_scatter", 8) == 0)) {
            tg_buf b;
            tg_buf_init(&b);
            tg_print_signature(&b, f->schema, TA_SIG_STRIP_VIEW_COPY_NAME);
            const char *key = b.failed ? NULL : ta_arena_strndup(scratch, b.p ? b.p : "", b.len);
            tg_buf_free(&b);
            if (!key) {
                st = TA_ERR_NOMEM;
                goto done;
            }
            size_t klen = strlen(key);
            uint64_t h = ta_map_hash_bytes(key, klen);
            const ta_map_entry *known = ta_map_find_h(&tg->sig_idx, key, klen, h);
            ta_map_entry *e;
            if (known) {
                c = (int32_t)known->value.i;
            } else if (ta_map_add_h(&extra, key, klen, h, ta_map_int((int64_t)(nf + nextra)), &e) !=
                       TA_OK) {
                st = TA_ERR_NOMEM;
                goto done;
            } else {
                c = (int32_t)e->value.i;
                if (c == (int32_t)(nf + nextra)) nextra++;
            }
        }
        int32_t g = gid[c];
        if (g < 0) { /* a new view signature */
            g = gid[c] = (int32_t)ns++;
            for (int k = 0; k < NSLOTS; k++) slots[g][k] = -1;
        }
        int slot = (int)f->kind;
        if (f->is_view_op) slot = op.inplace ? SLOT_VIEW_INPLACE : SLOT_VIEW;
        if (slots[g][slot] >= 0) {
            tg_diag(diags, TA_SEV_WARNING, "group-duplicate-view", f, NULL,
                    "'%s' and '%s' fall in the same view group slot; torchgen cannot "
                    "group them",
                    tg->fns[slots[g][slot]]->name, f->name);
            continue;
        }
        slots[g][slot] = (int32_t)i;
    }
    for (size_t i = 0; i < ns; i++) {
        if (slots[i][SLOT_VIEW] < 0) continue;
        ta_tg_group *g = new_group(gs, n, cap);
        if (!g) {
            st = TA_ERR_NOMEM;
            goto done;
        }
        g->kind = TA_GROUP_VIEW;
        g->view = slots[i][SLOT_VIEW];
        g->view_inplace = slots[i][SLOT_VIEW_INPLACE];
        g->view_copy = slots[i][TA_KIND_FUNCTIONAL];
    }
done:
    ta_map_clear(&extra);
    free(gid);
    free(slots);
    ta_arena_destroy(scratch);
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
