/* contract.c - the changes of one overload between two schemas, classified.
 *
 * Arguments are matched by name, returns by position. For a matched slot
 * whose alias info changed (torch's equality: "(a|b)" and "(b|a)" are the
 * same), the change is a write added or removed, else an annotation added
 * or removed (for a return: a copy that became a view, or a view that
 * became a copy), else its sets changed. Sets that changed are judged by
 * what they mean: when the slot may alias, and may contain an alias of,
 * exactly the matched slots it could before (torch's SchemaInfo answers,
 * ta_alias_query_*), the sets were only renamed; otherwise what it aliases has
 * changed. Then torchgen's kind, and the rest of the signature: defaults
 * (by torch's values), types as written, keyword-only moves, order,
 * arguments and returns added, removed or renamed. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "alias/diff/diff_internal.h"
#include "schema/parser.h"
#include "tensoralias/alias.h"
#include "tensoralias/torchgen.h"

uint32_t ta_diff_items_bound(const ta_schema *olds, const ta_schema *news)
{
    return 2 + 6 * (olds->nargs + news->nargs + olds->nrets + news->nrets);
}

typedef struct ctx {
    const ta_schema *o, *n;
    ta_alias_query *qo, *qn;  /* NULL when a schema is past the query's limits */
    int32_t *new_of;          /* old argument i -> its new index, or -1 */
    int32_t *old_of;          /* new argument j -> its old index, or -1 */
    ta_diff_items *out;
    ta_status st;
} ctx;

static const char *text(ctx *c, const char *fmt, ...) TA_PRINTF(2, 3);
static const char *text(ctx *c, const char *fmt, ...)
{
    char buf[640];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    size_t len = n < 0 ? 0 : (size_t)n >= sizeof buf ? sizeof buf - 1 : (size_t)n;
    char *s = ta_arena_strndup(c->out->arena, buf, len);
    if (!s) c->st = TA_ERR_NOMEM;
    return s ? s : "";
}

static void add(ctx *c, ta_diff_what w, bool ret, int32_t oi, int32_t ni, const char *slot,
                const char *detail)
{
    ta_diff_items *o = c->out;
    if (o->n < o->cap) o->v[o->n++] = (ta_diff_item){w, ret, oi, ni, slot, detail};
    if (ta_diff_what_is_alias(w)) o->alias_changed = true;
}

static int plen(ta_str s) { return (int)(s.len > 200 ? 200 : s.len); }

/* A type as written, annotations included (tp: ta_type_print or _plain). */
typedef size_t (*type_printer)(const ta_type *, char *, size_t);
static const char *type_text(ctx *c, const ta_type *t, type_printer tp)
{
    char buf[256];
    tp(t, buf, sizeof buf);
    return text(c, "%s", buf);
}

static const char *slot_label(ctx *c, bool ret, uint32_t i)
{
    return ret ? text(c, "return %u", i) : text(c, "%.*s", plen(c->o->args[i].name), c->o->args[i].name.ptr);
}

static ta_slot slot_of(bool ret, uint32_t i) { return ret ? ta_out(i) : ta_in(i); }

/* Where the old slot's partner p (an old argument or return index) is in
 * the new schema, or -1. */
static int32_t new_partner(const ctx *c, bool ret, uint32_t p)
{
    if (ret) return p < c->n->nrets ? (int32_t)p : -1;
    return c->new_of[p];
}

/* Names of slots, joined with ", " into a buffer (those past its end left out). */
typedef struct names {
    char buf[200];
    size_t len;
} names;

static void names_add(names *n, const char *name)
{
    if (n->len + strlen(name) + 3 < sizeof n->buf)
        n->len += (size_t)snprintf(n->buf + n->len, sizeof n->buf - n->len, "%s%s", n->len ? ", " : "", name);
}

/* SchemaInfo's answer: may a and b alias, or may one contain an alias of the other. */
static bool related(const ta_alias_query *q, ta_slot a, ta_slot b)
{
    return ta_alias_query_may_alias(q, a, b) || ta_alias_query_may_contain_alias(q, a, b);
}

/* The matched slots the slot (old oi, new ni) is related to in old (was)
 * and in new (now); whether the two are the same slots. */
static bool partners(const ctx *c, bool ret, uint32_t oi, uint32_t ni, names *was, names *now)
{
    bool same = true;
    for (int k = 0; k < 2; k++) {
        uint32_t count = k ? c->o->nrets : c->o->nargs;
        for (uint32_t p = 0; p < count; p++) {
            int32_t np = new_partner(c, k, p);
            if (np < 0 || ((bool)k == ret && p == oi)) continue;
            bool a = related(c->qo, slot_of(ret, oi), slot_of(k, p));
            bool b = related(c->qn, slot_of(ret, ni), slot_of(k, (uint32_t)np));
            same = same && a == b;
            char name[72];
            if (k) snprintf(name, sizeof name, "return %u", p);
            else snprintf(name, sizeof name, "%.*s", plen(c->o->args[p].name) > 64 ? 64 : plen(c->o->args[p].name),
                          c->o->args[p].name.ptr);
            if (a) names_add(was, name);
            if (b) names_add(now, name);
        }
    }
    return same;
}

/* A slot whose annotation changed beyond its write flag and presence. */
static void sets_changed(ctx *c, bool ret, uint32_t oi, uint32_t ni, const char *types)
{
    names was = {"", 0}, now = {"", 0};
    bool same = c->qo && c->qn && partners(c, ret, oi, ni, &was, &now);
    if (same) {
        add(c, TA_DW_ALIAS_RENAMED, ret, (int32_t)oi, (int32_t)ni, slot_label(c, ret, oi),
            text(c, "%s: what it may alias is unchanged", types));
    } else if (c->qo && c->qn) {
        add(c, TA_DW_ALIAS_CHANGED, ret, (int32_t)oi, (int32_t)ni, slot_label(c, ret, oi),
            text(c, "%s: may alias {%s} -> {%s}", types, was.buf, now.buf));
    } else {
        add(c, TA_DW_ALIAS_CHANGED, ret, (int32_t)oi, (int32_t)ni, slot_label(c, ret, oi), types);
    }
}

/* What a return that gained (or lost) the annotation v became (was). */
static const char *return_change(const ta_alias_view *v, bool gained)
{
    if (v->write) return gained ? ": a fresh result became a written argument" : ": a written argument became a fresh result";
    return gained ? ": a copy became a view" : ": a view became a copy";
}

static void alias_items(ctx *c, bool ret, uint32_t oi, uint32_t ni)
{
    const ta_type *to = ret ? c->o->rets[oi].type : c->o->args[oi].type;
    const ta_type *tn = ret ? c->n->rets[ni].type : c->n->args[ni].type;
    if (ta_torch_alias_equal(c->o, to, c->n, tn)) return;
    ta_alias_view vo, vn;
    ta_type_alias_view(to, &vo);
    ta_type_alias_view(tn, &vn);
    const char *types = text(c, "%s -> %s", type_text(c, to, ta_type_print), type_text(c, tn, ta_type_print));
    const char *label = slot_label(c, ret, oi);
    /* an argument is written or not; a return's "!" says it is a written argument itself */
    if (!ret && vo.write != vn.write) {
        add(c, vn.write ? TA_DW_WRITE_ADDED : TA_DW_WRITE_REMOVED, ret, (int32_t)oi, (int32_t)ni, label, types);
    } else if (vo.present != vn.present) {
        add(c, vn.present ? TA_DW_ALIAS_ADDED : TA_DW_ALIAS_REMOVED, ret, (int32_t)oi, (int32_t)ni, label,
            text(c, "%s%s", types, !ret ? "" : return_change(vn.present ? &vn : &vo, vn.present)));
    } else if (vo.write != vn.write) {
        add(c, vn.write ? TA_DW_WRITE_ADDED : TA_DW_WRITE_REMOVED, ret, (int32_t)oi, (int32_t)ni, label, types);
    } else {
        sets_changed(c, ret, oi, ni, types);
    }
}

static const char *kind_label(const ta_diff_op *op)
{
    static const char *const views[] = {"functional view", "inplace view", "out view", "mutable view",
                                        "scratch view"};
    ta_schema_kind k = ta_schema_kind_of(op->schema);
    return op->is_view ? views[k] : ta_schema_kind_str(k);
}

static const char *arg_text(ctx *c, const ta_schema *s, uint32_t i)
{
    const ta_arg *a = &s->args[i];
    return text(c, "%s %.*s%s%.*s%s", type_text(c, a->type, ta_type_print), plen(a->name), a->name.ptr,
                a->def.kind ? "=" : "", a->def.kind ? plen(a->def.text) : 0, a->def.text.ptr ? a->def.text.ptr : "",
                a->kwarg_only ? " (keyword-only)" : "");
}

static bool annotated(const ta_type *t)
{
    ta_alias_view v;
    ta_type_alias_view(t, &v);
    return v.present;
}

static void default_items(ctx *c, uint32_t oi, uint32_t ni)
{
    const ta_arg *a = &c->o->args[oi], *b = &c->n->args[ni];
    const char *label = slot_label(c, false, oi);
    if (!a->def.kind && !b->def.kind) return;
    if (!a->def.kind || !b->def.kind) {
        const ta_default *d = a->def.kind ? &a->def : &b->def;
        add(c, a->def.kind ? TA_DW_DEFAULT_REMOVED : TA_DW_DEFAULT_ADDED, false, (int32_t)oi, (int32_t)ni, label,
            text(c, "%.*s", plen(d->text), d->text.ptr));
    } else if (!ta_default_equal(a->type, &a->def, b->type, &b->def)) {
        add(c, TA_DW_DEFAULT_CHANGED, false, (int32_t)oi, (int32_t)ni, label,
            text(c, "%.*s -> %.*s", plen(a->def.text), a->def.text.ptr, plen(b->def.text), b->def.text.ptr));
    }
}

static void type_item(ctx *c, bool ret, uint32_t oi, uint32_t ni)
{
    const ta_type *to = ret ? c->o->rets[oi].type : c->o->args[oi].type;
    const ta_type *tn = ret ? c->n->rets[ni].type : c->n->args[ni].type;
    const char *a = type_text(c, to, ta_type_print_plain), *b = type_text(c, tn, ta_type_print_plain);
    if (!strcmp(a, b)) return;
    bool same = ta_torch_type_equal(to, tn) && ta_torch_arg_n(to) == ta_torch_arg_n(tn);
    add(c, TA_DW_TYPE_CHANGED, ret, (int32_t)oi, (int32_t)ni, slot_label(c, ret, oi),
        text(c, "%s -> %s%s", a, b, same ? " (the same type to torch)" : ""));
}

/* The rank of old argument i among the matched ones, in old and in new order. */
static bool moved(const ctx *c, uint32_t oi)
{
    uint32_t rank_old = 0, rank_new = 0;
    for (uint32_t k = 0; k < oi; k++) rank_old += c->new_of[k] >= 0;
    for (int32_t k = 0; k < c->new_of[oi]; k++) rank_new += c->old_of[k] >= 0;
    return rank_old != rank_new;
}

static void arg_items(ctx *c)
{
    for (uint32_t i = 0; i < c->o->nargs; i++) {
        int32_t j = c->new_of[i];
        if (j < 0) {
            add(c, TA_DW_ARG_REMOVED, false, (int32_t)i, -1, slot_label(c, false, i), arg_text(c, c->o, i));
            c->out->alias_changed |= annotated(c->o->args[i].type);
            continue;
        }
        alias_items(c, false, i, (uint32_t)j);
        type_item(c, false, i, (uint32_t)j);
        default_items(c, i, (uint32_t)j);
        bool ko = c->o->args[i].kwarg_only, kn = c->n->args[j].kwarg_only;
        if (ko != kn)
            add(c, TA_DW_KWARG_ONLY, false, (int32_t)i, j, slot_label(c, false, i),
                ko ? "keyword-only -> positional" : "positional -> keyword-only");
        if (moved(c, i))
            add(c, TA_DW_ARG_MOVED, false, (int32_t)i, j, slot_label(c, false, i),
                text(c, "position %u -> %d", i, j));
    }
    for (uint32_t j = 0; j < c->n->nargs; j++) {
        if (c->old_of[j] >= 0) continue;
        const char *name = text(c, "%.*s", plen(c->n->args[j].name), c->n->args[j].name.ptr);
        add(c, TA_DW_ARG_ADDED, false, -1, (int32_t)j, name, arg_text(c, c->n, j));
        c->out->alias_changed |= annotated(c->n->args[j].type);
    }
}

static void ret_items(ctx *c)
{
    uint32_t both = c->o->nrets < c->n->nrets ? c->o->nrets : c->n->nrets;
    for (uint32_t i = 0; i < both; i++) {
        alias_items(c, true, i, i);
        type_item(c, true, i, i);
        ta_str a = c->o->rets[i].name, b = c->n->rets[i].name;
        if (!ta_str_eq_str(a, b))
            add(c, TA_DW_RETURN_RENAMED, true, (int32_t)i, (int32_t)i, slot_label(c, true, i),
                text(c, "'%.*s' -> '%.*s'", plen(a), a.ptr ? a.ptr : "", plen(b), b.ptr ? b.ptr : ""));
    }
    for (uint32_t i = both; i < c->o->nrets; i++) {
        add(c, TA_DW_RETURN_REMOVED, true, (int32_t)i, -1, slot_label(c, true, i),
            type_text(c, c->o->rets[i].type, ta_type_print));
        c->out->alias_changed |= annotated(c->o->rets[i].type);
    }
    for (uint32_t i = both; i < c->n->nrets; i++) {
        add(c, TA_DW_RETURN_ADDED, true, -1, (int32_t)i, text(c, "return %u", i),
            type_text(c, c->n->rets[i].type, ta_type_print));
        c->out->alias_changed |= annotated(c->n->rets[i].type);
    }
}

static int32_t arg_named(const ta_schema *s, ta_str name)
{
    for (uint32_t i = 0; i < s->nargs; i++)
        if (ta_str_eq_str(s->args[i].name, name)) return (int32_t)i;
    return -1;
}

ta_status ta_diff_classify(const ta_diff_op *olds, const ta_diff_op *news, ta_diff_items *out)
{
    const ta_schema *o = olds->schema, *n = news->schema;
    ctx c = {o, n, NULL, NULL, NULL, NULL, out, TA_OK};
    c.new_of = ta_arena_alloc(out->arena, (o->nargs + n->nargs + 1) * sizeof *c.new_of);
    if (!c.new_of) return TA_ERR_NOMEM;
    c.old_of = c.new_of + o->nargs;
    for (uint32_t j = 0; j < n->nargs; j++) c.old_of[j] = -1;
    for (uint32_t i = 0; i < o->nargs; i++) {
        int32_t j = arg_named(n, o->args[i].name);
        c.new_of[i] = j >= 0 && c.old_of[j] < 0 ? j : -1; /* a duplicated name matches once */
        if (c.new_of[i] >= 0) c.old_of[j] = (int32_t)i;
    }
    ta_status st = ta_alias_query_create(o, &c.qo, NULL);
    if (st == TA_OK) st = ta_alias_query_create(n, &c.qn, NULL);
    if (st == TA_ERR_NOMEM) {
        ta_alias_query_destroy(c.qo);
        return st;
    }
    const char *ko = kind_label(olds), *kn = kind_label(news);
    if (strcmp(ko, kn)) add(&c, TA_DW_KIND_CHANGED, false, -1, -1, "", text(&c, "%s -> %s", ko, kn));
    arg_items(&c);
    ret_items(&c);
    ta_alias_query_destroy(c.qo);
    ta_alias_query_destroy(c.qn);
    return c.st;
}
