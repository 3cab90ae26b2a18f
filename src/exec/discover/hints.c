/* hints.c - an operator's learned facts (hints.h): kept as parsed
 * conditions and as text (the discovery path), applied to a case's model,
 * and the arguments they changed made again on the synthesized case. */
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "exec/discover/hints.h"

void dsc_hints_init(dsc_hints *h, const ta_decl *d)
{
    h->d = d;
    h->n = 0;
    h->path[0] = '\0';
}

/* The path again from the facts. */
static void write_path(dsc_hints *h)
{
    ta_strbuf sb;
    ta_strbuf_init_fixed(&sb, h->path, sizeof h->path);
    for (int i = 0; i < h->n; i++) {
        char cond[512], atom[128];
        dsc_cond_print(&h->f[i].cond, h->f[i].cond.root, h->d, NULL, cond, sizeof cond);
        dsc_cond_print(&h->f[i].cond, h->f[i].atom, h->d, NULL, atom, sizeof atom);
        ta_strbuf_printf(&sb, "%s%s @ %s", i ? "; " : "", cond, atom);
    }
}

/* The node of c printed as atom_text, or -1. */
static int find_node(const dsc_cond *c, const ta_decl *d, const char *atom_text)
{
    char buf[128];
    for (int k = 0; k < c->nn; k++) {
        dsc_cond_print(c, k, d, NULL, buf, sizeof buf);
        if (!strcmp(buf, atom_text)) return k;
    }
    return -1;
}

/* Whether every name of c is an argument's, but for item indexes
 * (lst[i]): a fact's text is bound, its names the schema's. */
static bool names_bound(const dsc_cond *c)
{
    for (int k = 0; k < c->nn; k++) {
        const dsc_node *n = &c->n[k];
        bool free_a = n->a >= 0 && c->n[n->a].op == DSC_REF && c->n[n->a].v < 0;
        bool free_b = n->b >= 0 && c->n[n->b].op == DSC_REF && c->n[n->b].v < 0;
        if (free_a || (free_b && n->op != DSC_ITEM)) return false;
    }
    return !(c->n[c->root].op == DSC_REF && c->n[c->root].v < 0);
}

/* One fact from "cond @ atom" text[0..len). */
static bool read_fact(dsc_fact *f, const ta_decl *d, const char *text, size_t len)
{
    const char *at = memchr(text, '@', len);
    if (!at) return false;
    const char *a = at + 1, *end = text + len;
    while (a < end && *a == ' ') a++;
    while (end > a && end[-1] == ' ') end--;
    char atom[128];
    /* what follows '@' read alone prints as the canonical atom */
    dsc_cond one;
    if (a == end || !dsc_cond_parse(&one, a, (size_t)(end - a), d)) return false;
    if (dsc_cond_print(&one, one.root, d, NULL, atom, sizeof atom) >= sizeof atom) return false;
    if (!dsc_cond_parse(&f->cond, text, (size_t)(at - text), d) || !names_bound(&f->cond)) return false;
    f->atom = find_node(&f->cond, d, atom);
    return f->atom >= 0;
}

bool dsc_hints_push(dsc_hints *h, const dsc_cond *c, int atom, const int *binding)
{
    if (h->n == DSC_MAX_FACTS) return false;
    char cond[512], at[128];
    if (dsc_cond_print(c, c->root, h->d, binding, cond, sizeof cond) >= sizeof cond ||
        dsc_cond_print(c, atom, h->d, binding, at, sizeof at) >= sizeof at)
        return false;
    /* Read back from its text, so that what is kept is what the path says. */
    dsc_fact *f = &h->f[h->n];
    if (!dsc_cond_parse(&f->cond, cond, strlen(cond), h->d)) return false;
    f->atom = find_node(&f->cond, h->d, at);
    if (f->atom < 0) return false;
    h->n++;
    write_path(h);
    return true;
}

bool dsc_hints_push_text(dsc_hints *h, const char *text)
{
    if (h->n == DSC_MAX_FACTS || !read_fact(&h->f[h->n], h->d, text, strlen(text))) return false;
    h->n++;
    write_path(h);
    return true;
}

void dsc_hints_drop_same_atom(dsc_hints *h)
{
    if (h->n < 2) return;
    char last[128], other[128];
    const dsc_fact *l = &h->f[h->n - 1];
    dsc_cond_print(&l->cond, l->atom, h->d, NULL, last, sizeof last);
    int k = 0;
    for (int i = 0; i < h->n; i++) {
        dsc_cond_print(&h->f[i].cond, h->f[i].atom, h->d, NULL, other, sizeof other);
        if (i < h->n - 1 && !strcmp(other, last)) continue;
        if (k != i) h->f[k] = h->f[i];
        k++;
    }
    h->n = k;
    write_path(h);
}

void dsc_hints_truncate(dsc_hints *h, int n)
{
    if (n < 0 || n >= h->n) return;
    h->n = n;
    write_path(h);
}

void dsc_hints_pop(dsc_hints *h) { dsc_hints_truncate(h, h->n - 1); }

bool dsc_hints_parse(dsc_hints *h, const ta_decl *d, const char *text)
{
    dsc_hints_init(h, d);
    const char *p = text;
    while (*p) {
        const char *end = strchr(p, ';');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        while (len && *p == ' ') p++, len--;
        if (len) {
            if (h->n == DSC_MAX_FACTS || !read_fact(&h->f[h->n], d, p, len)) {
                dsc_hints_init(h, d);
                return false;
            }
            h->n++;
        }
        p += len;
        if (*p == ';') p++;
    }
    write_path(h);
    return true;
}

void dsc_hints_apply(const dsc_hints *h, dsc_model *m)
{
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < h->n; i++) {
            const dsc_fact *f = &h->f[i];
            if (dsc_cond_eval(&f->cond, m, NULL) != 1) dsc_cond_solve(&f->cond, f->atom, m, NULL);
        }
}

bool dsc_hints_consistent(const dsc_hints *h, dsc_model *m)
{
    dsc_hints_apply(h, m);
    for (int i = 0; i < h->n; i++)
        if (dsc_cond_eval(&h->f[i].cond, m, NULL) == 0) return false;
    return true;
}

/* ---- making the changed arguments again ------------------------------ */

/* The values of a tensor discovery made again, when no fact says what
 * they are: whole numbers from 0 below the smallest size of the case's
 * tensors, so that a kernel that takes a value as an index (a box's batch
 * index, an offset) finds it in range; the cases as synthesized keep
 * negative, fractional and special values. */
static int64_t index_bound(const dsc_model *m)
{
    int64_t b = 0;
    for (int i = 0; i < m->nargs; i++) {
        const dsc_arg *a = &m->args[i];
        int n = a->kind == DSC_K_LIST ? a->n : a->kind == DSC_K_TENSOR ? 1 : 0;
        for (int k = 0; k < n; k++) {
            const dsc_tensor *t = a->kind == DSC_K_LIST ? &a->items[k] : &a->t;
            for (int d = 0; t->defined && d < t->ndim; d++)
                if (t->shape[d] > 0 && (!b || t->shape[d] < b)) b = t->shape[d];
        }
    }
    return b > 1 ? b : 2;
}

/* Whether an argument's name says it holds offsets (x_offsets, D_offsets,
 * hash_size_cumsum): where each row of a jagged tensor, or each table,
 * begins, so never decreasing, and read as indices without a check by most
 * kernels that take them (FBGEMM's). */
static bool offsets_named(const char *name)
{
    return strstr(name, "offsets") || strstr(name, "cumsum");
}

/* Made as offsets: a 1-D integer tensor whose name says so. */
static bool as_offsets(const dsc_tensor *t, const char *name)
{
    return t->defined && t->ndim == 1 && (t->dtype.code == kDLInt || t->dtype.code == kDLUInt) &&
           offsets_named(name);
}

static ta_status make_tensor(ta_exec *x, uint64_t seed, const dsc_tensor *t, bool fill, int64_t bound,
                             const char *name, DLTensor **out)
{
    *out = NULL;
    if (!t->defined) return TA_OK;
    bool offsets = as_offsets(t, name);
    /* offsets end at most at the bound (a row count); indices below it */
    int64_t lo = t->ranged ? t->lo : 0, hi = t->ranged ? t->hi : offsets ? bound : bound - 1;
    return ta_synth_tensor(x, seed, t->dtype, t->ndim, t->shape, t->contig, fill,
                           offsets ? TA_SYNTH_OFFSETS : TA_SYNTH_RANGED, lo, hi, out);
}

static ta_status remake_tensors(ta_case *c, ta_exec *x, uint64_t seed, int i, const dsc_arg *a, bool fill,
                                int64_t bound, const char *name)
{
    DLTensor *items[DSC_MAX_ITEMS];
    ta_value v = {.tag = TA_VAL_NONE};
    ta_status s = TA_OK;
    int n = a->kind == DSC_K_LIST ? a->n : 1;
    for (int k = 0; k < n && s == TA_OK; k++)
        s = make_tensor(x, ta_mix64(seed + (uint64_t)k), a->kind == DSC_K_LIST ? &a->items[k] : &a->t, fill,
                        bound, name, &items[k]);
    if (s != TA_OK) return s;
    if (a->kind == DSC_K_LIST) {
        v.tag = TA_VAL_TENSOR_LIST;
        v.u.tensors.items = items;
        v.u.tensors.n = (size_t)n;
    } else if (items[0]) {
        v.tag = TA_VAL_TENSOR;
        v.u.tensor = items[0];
    }
    if ((s = ta_case_replace(c, x, i, v)) != TA_OK) return s;
    for (int k = 0; k < n && s == TA_OK; k++)
        if (items[k]) s = ta_case_add_slot(c, x, i, a->kind == DSC_K_LIST ? k : -1, items[k], fill);
    return s;
}

static ta_status remake(ta_case *c, ta_exec *x, uint64_t seed, int i, const dsc_model *m)
{
    const dsc_arg *a = &m->args[i];
    const ta_decl_slot *d = &m->d->args[i];
    ta_value v = {.tag = TA_VAL_NONE};
    switch (a->kind) {
    case DSC_K_TENSOR:
    case DSC_K_LIST:
        return remake_tensors(c, x, ta_mix64(seed ^ (0x6469736300000000ull + (uint64_t)i)), i, a, d->is_out,
                              index_bound(m), d->name);
    case DSC_K_INT:
        if (d->type == TA_DT_SCALAR) v = (ta_value){.tag = TA_VAL_SCALAR, .scalar_kind = TA_SCALAR_INT};
        else v.tag = TA_VAL_INT;
        v.u.i = a->i;
        break;
    case DSC_K_BOOL:
        v.tag = TA_VAL_BOOL;
        v.u.b = a->i != 0;
        break;
    case DSC_K_FLOAT:
        if (d->type == TA_DT_SCALAR) v = (ta_value){.tag = TA_VAL_SCALAR, .scalar_kind = TA_SCALAR_FLOAT};
        else v.tag = TA_VAL_FLOAT;
        v.u.f = a->f;
        break;
    case DSC_K_INTS:
        v.tag = TA_VAL_INT_LIST;
        v.u.ints.items = a->ints;
        v.u.ints.n = (size_t)a->n;
        break;
    default: return TA_OK;
    }
    if (!a->present) v = (ta_value){.tag = TA_VAL_NONE};
    return ta_case_replace(c, x, i, v);
}

/* Once discovery changes a case, its offsets are made offsets too (those
 * a fact changed are already): a kernel that walks them as they are has
 * rows to walk, and a check of theirs is met before the others. */
static void mark_offsets(dsc_model *m)
{
    bool any = false;
    for (int i = 0; i < m->nargs; i++) any |= m->args[i].changed;
    for (int i = 0; any && i < m->nargs; i++) {
        dsc_arg *a = &m->args[i];
        int n = a->kind == DSC_K_LIST ? a->n : a->kind == DSC_K_TENSOR ? 1 : 0;
        for (int k = 0; k < n; k++)
            if (as_offsets(a->kind == DSC_K_LIST ? &a->items[k] : &a->t, m->d->args[i].name)) a->changed = true;
    }
}

ta_status dsc_hints_build(const dsc_hints *h, dsc_model *m, ta_exec *x, const ta_schema *s,
                          const ta_decl *d, uint64_t seed, ta_case *c)
{
    ta_status st = ta_synth_case(x, s, d, seed, c);
    if (st != TA_OK || !h || !h->n) return st;
    dsc_model_read(m, c, d);
    dsc_hints_apply(h, m);
    mark_offsets(m);
    bool any = false;
    for (int i = 0; i < m->nargs && st == TA_OK; i++)
        if (m->args[i].changed) {
            any = true;
            st = remake(c, x, seed, i, m);
        }
    if (st != TA_OK) snprintf(c->note, sizeof c->note, "cannot make the arguments discovery changed");
    c->found = any ? h->path : NULL;
    return st;
}
