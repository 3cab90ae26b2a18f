/* diff.c - two sides matched by full overload name, one record for each
 * overload added, removed or whose schema changed (see tensoralias/diff.h).
 * A schema has changed when torchgen would print it differently: spacing
 * and the namespace aside, the text as written (a default respelled
 * "1e-05" -> "1.0000000000000001e-05" is a change torch does not see). */
#include <stdio.h>
#include <string.h>

#include "alias/diff/diff_internal.h"
#include "base/alloc.h"
#include "tensoralias/torchgen.h"

struct ta_diff {
    ta_arena *arena;
    ta_torchgen *tg[2]; /* the sides' derived functions, which records point at */
    ta_diff_record *v;
    size_t n;
    ta_diff_summary sum;
};

/* torchgen's printing of s, in buf when it fits, else malloc'd (*owned). */
static const char *printed(const ta_schema *s, char *buf, size_t cap, char **owned, size_t *len)
{
    *owned = NULL;
    *len = ta_schema_print_torchgen(s, buf, cap);
    if (*len < cap) return buf;
    *owned = ta_malloc(*len + 1);
    if (*owned) ta_schema_print_torchgen(s, *owned, *len + 1);
    return *owned;
}

/* Whether a and b print the same; -1 when out of memory. */
static int same_text(const ta_schema *a, const ta_schema *b)
{
    char ba[4096], bb[4096], *oa, *ob;
    size_t la, lb;
    const char *pa = printed(a, ba, sizeof ba, &oa, &la), *pb = printed(b, bb, sizeof bb, &ob, &lb);
    int same = !pa || !pb ? -1 : la == lb && !memcmp(pa, pb, la);
    free(oa);
    free(ob);
    return same;
}

static const char *arena_copy(ta_diff *d, const char *s)
{
    return ta_arena_strndup(d->arena, s, strlen(s));
}

/* torch's verdicts and the classified changes of a changed overload. */
static ta_status judge(ta_diff *d, ta_diff_record *r, const ta_diff_op *o, const ta_diff_op *n)
{
    char why[512];
    r->bc = ta_diff_backward(n->schema, o->schema, why, sizeof why, &r->bc_at);
    r->bc_why = arena_copy(d, why);
    r->fc = ta_diff_forward(n->schema, o->schema, why, sizeof why, &r->fc_at);
    r->fc_why = arena_copy(d, why);
    ta_diff_items items = {NULL, 0, ta_diff_items_bound(o->schema, n->schema), d->arena, false};
    items.v = ta_arena_alloc(d->arena, items.cap * sizeof *items.v);
    if (!r->bc_why || !r->fc_why || !items.v) return TA_ERR_NOMEM;
    ta_status st = ta_diff_classify(o, n, &items);
    r->items = items.v;
    r->nitems = items.n;
    r->alias_changed = items.alias_changed;
    return st;
}

/* Whether an entry of the allow-list excuses r; its description goes to
 * by (cap bytes). */
static ta_status allow(const ta_diff_opts *opts, ta_diff_record *r, char *by, size_t cap)
{
    by[0] = '\0';
    if (!opts || !opts->allow) return TA_OK;
    char buf[4096], *owned;
    size_t len;
    const char *text = printed(r->old_schema, buf, sizeof buf, &owned, &len);
    const char *args = text ? strchr(text, '(') : NULL;
    char *subject = args ? ta_malloc(strlen(r->op) + strlen(args) + 1) : NULL;
    if (!subject) {
        free(owned);
        return TA_ERR_NOMEM;
    }
    sprintf(subject, "%s%s", r->op, args);
    uint32_t line;
    int32_t until;
    const char *source;
    r->allowed = ta_allow_list_match(opts->allow, subject, &line, &until, &source);
    if (r->allowed)
        snprintf(by, cap, "%s:%u, until %04d-%02d-%02d", source, line, until / 10000,
                 until / 100 % 100, until % 100);
    free(subject);
    free(owned);
    return TA_OK;
}

static void count(ta_diff_summary *s, const ta_diff_record *r)
{
    s->changed += r->change == TA_DIFF_CHANGED;
    s->added += r->change == TA_DIFF_ADDED;
    s->removed += r->change == TA_DIFF_REMOVED;
    s->not_bc += r->change == TA_DIFF_CHANGED && r->bc != TA_COMPAT_YES;
    s->not_fc += r->change == TA_DIFF_CHANGED && r->fc != TA_COMPAT_YES;
    s->alias_changed += r->alias_changed;
    s->breaks += r->breaks;
    s->allowed += r->allowed;
}

static ta_status add_record(ta_diff *d, const ta_diff_opts *opts, const ta_diff_side *os,
                            const ta_diff_op *o, const ta_diff_side *ns, const ta_diff_op *n,
                            ta_diags *diags)
{
    ta_diff_record *r = &d->v[d->n++];
    *r = (ta_diff_record){n ? n->name : o->name, !o ? TA_DIFF_ADDED : !n ? TA_DIFF_REMOVED : TA_DIFF_CHANGED,
                          o ? o->schema : NULL, n ? n->schema : NULL,
                          TA_COMPAT_YES, TA_COMPAT_YES, "", "", {false, -1}, {false, -1},
                          false, false, false, NULL, 0, NULL, NULL, 0, 0};
    if (o) {
        ta_loc at = ta_diff_side_loc(os, o, o->schema->name_span.off, 1);
        r->old_file = at.file;
        r->old_line = at.line;
    }
    if (n) {
        ta_loc at = ta_diff_side_loc(ns, n, n->schema->name_span.off, 1);
        r->new_file = at.file;
        r->new_line = at.line;
    }
    ta_status st = TA_OK;
    if (r->change == TA_DIFF_REMOVED) {
        r->bc = r->fc = TA_COMPAT_NO;
        r->bc_why = r->fc_why = "the overload was removed";
    } else if (r->change == TA_DIFF_CHANGED) {
        st = judge(d, r, o, n);
    }
    char by[640] = "";
    if (st == TA_OK && r->bc != TA_COMPAT_YES) st = allow(opts, r, by, sizeof by);
    r->breaks = r->bc != TA_COMPAT_YES && !r->allowed;
    count(&d->sum, r);
    return st == TA_OK ? ta_diff_report(r, os, o, ns, n, by, diags) : st;
}

static ta_status run(ta_diff *d, const ta_diff_side *os, const ta_diff_side *ns,
                     const ta_diff_opts *opts, ta_diags *diags)
{
    d->v = ta_arena_alloc(d->arena, (os->n + ns->n + 1) * sizeof *d->v);
    if (!d->v) return TA_ERR_NOMEM;
    d->sum.old_ops = os->n;
    d->sum.new_ops = ns->n;
    ta_status st = TA_OK;
    for (size_t i = 0; i < ns->n && st == TA_OK; i++) {
        const ta_diff_op *n = &ns->ops[i], *o = ta_diff_side_find(os, n->name);
        int same = o ? same_text(o->schema, n->schema) : 0;
        if (same < 0) return TA_ERR_NOMEM;
        if (same) d->sum.unchanged++;
        else st = add_record(d, opts, os, o, ns, n, diags);
    }
    for (size_t i = 0; i < os->n && st == TA_OK; i++)
        if (!ta_diff_side_find(ns, os->ops[i].name)) st = add_record(d, opts, os, &os->ops[i], ns, NULL, diags);
    return st;
}

ta_status ta_diff_create(const ta_diff_input *old_in, const ta_diff_input *new_in,
                         const ta_diff_opts *opts, ta_diff **out, ta_diags *diags)
{
    *out = NULL;
    ta_arena *a = NULL;
    (void)ta_arena_create(&a);
    ta_diff *d = a ? ta_arena_alloc(a, sizeof *d) : NULL;
    if (!d) {
        ta_arena_destroy(a);
        return TA_ERR_NOMEM;
    }
    d->arena = a;
    ta_diff_side os, ns;
    memset(&os, 0, sizeof os);
    memset(&ns, 0, sizeof ns);
    ta_status st = ta_diff_side_init(&os, old_in, a, diags);
    if (st == TA_OK) st = ta_diff_side_init(&ns, new_in, a, diags);
    if (st == TA_OK) st = run(d, &os, &ns, opts, diags);
    d->tg[0] = os.tg;
    d->tg[1] = ns.tg;
    os.tg = ns.tg = NULL;
    ta_diff_side_free(&os);
    ta_diff_side_free(&ns);
    if (st != TA_OK) {
        ta_diff_destroy(d);
        return st;
    }
    *out = d;
    return TA_OK;
}

void ta_diff_destroy(ta_diff *d)
{
    if (!d) return;
    ta_torchgen_destroy(d->tg[0]);
    ta_torchgen_destroy(d->tg[1]);
    ta_arena_destroy(d->arena);
}

size_t ta_diff_count(const ta_diff *d) { return d ? d->n : 0; }

const ta_diff_record *ta_diff_get(const ta_diff *d, size_t i)
{
    return d && i < d->n ? &d->v[i] : NULL;
}

void ta_diff_summarize(const ta_diff *d, ta_diff_summary *out)
{
    static const ta_diff_summary none;
    *out = d ? d->sum : none;
}

const char *ta_diff_what_str(ta_diff_what w)
{
    static const char *const names[TA_DW_COUNT] = {
        "write-added", "write-removed", "alias-added", "alias-removed", "alias-changed",
        "alias-renamed", "kind-changed", "default-changed", "default-added", "default-removed",
        "arg-added", "arg-removed", "arg-moved", "kwarg-only", "type-changed",
        "return-added", "return-removed", "return-renamed"};
    return (unsigned)w < TA_DW_COUNT ? names[w] : "?";
}

bool ta_diff_what_is_alias(ta_diff_what w) { return w <= TA_DW_ALIAS_RENAMED; }
