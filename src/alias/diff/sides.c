/* sides.c - one side of a diff: the operators of a loaded yaml, schema list
 * or extracted set, by full overload name, and where each was written.
 * A name without a namespace is aten's (as ta_native_find reads one), so
 * a list that writes "abs.out(...)" matches the yaml's aten::abs.out. A
 * yaml's operators are the functions torchgen makes of it, the variants
 * autogen: derives included; a derived one is placed at its base entry's
 * autogen: value. */
#include <string.h>

#include "alias/diff/diff_internal.h"
#include "base/arena.h"
#include "tensoralias/torchgen.h"

static bool tagged(const ta_native_func *fn, const char *tag)
{
    for (uint32_t i = 0; i < fn->ntags; i++)
        if (fn->tags[i].s && !strcmp(fn->tags[i].s, tag)) return true;
    return false;
}

/* ns::name (ns "aten" when the schema names none) in the arena. */
static const char *full_name(ta_arena *a, const char *ns, const ta_schema *s)
{
    char buf[512];
    size_t n = ta_schema_op_name(s, buf, sizeof buf);
    if (n >= sizeof buf) n = sizeof buf - 1;
    return ta_arena_qualified(a, s->ns.len ? NULL : ns, buf, n);
}

/* Adds op unless its name is taken (a note where it is defined again). */
static ta_status add_op(ta_diff_side *s, const ta_diff_op *op, ta_diags *diags)
{
    ta_map_entry *e;
    if (ta_map_add(&s->by_name, op->name, strlen(op->name), ta_map_int((int64_t)s->n), &e) != TA_OK)
        return TA_ERR_NOMEM;
    if (e->value.i == (int64_t)s->n) {
        s->ops[s->n++] = *op;
        return TA_OK;
    }
    const ta_diff_op *first = &s->ops[e->value.i];
    ta_loc at = ta_diff_side_loc(s, op, op->schema->name_span.off, op->schema->name_span.len);
    ta_loc was = ta_diff_side_loc(s, first, first->schema->name_span.off, 0);
    return ta_diag_note(diags, &at, "diff-duplicate",
                        "'%s' is defined again (first at line %u); the first is compared", op->name,
                        was.line);
}

/* The yaml's entries, then the functions autogen: derives from them. */
static ta_status native_ops(ta_diff_side *s, const ta_native_file *f, ta_arena *a, ta_diags *diags)
{
    ta_status st = ta_torchgen_from_native(f, &s->tg, NULL);
    if (st != TA_OK) return st;
    size_t n = ta_native_count(f), total = ta_torchgen_count(s->tg);
    s->ops = ta_arena_take(a, (n + total + 1) * sizeof *s->ops);
    if (!s->ops || ta_map_reserve(&s->by_name, n + total) != TA_OK) return TA_ERR_NOMEM;
    for (size_t i = 0; i < n && st == TA_OK; i++) {
        const ta_native_func *fn = ta_native_get(f, i);
        if (!fn->schema) continue;
        ta_diff_op op = {fn->full_name, fn->schema, i,
                         ta_schema_is_view_op(fn->schema, tagged(fn, "inplace_view")), false};
        st = add_op(s, &op, diags);
    }
    for (size_t k = total - ta_torchgen_count_derived(s->tg); k < total && st == TA_OK; k++) {
        const ta_tg_function *g = ta_torchgen_get(s->tg, k);
        const ta_native_func *base = ta_native_get(f, (size_t)ta_torchgen_get(s->tg, g->plan->base)->id);
        ta_diff_op op = {full_name(a, base->ns ? base->ns : "aten", g->schema), g->schema,
                         base->index, g->is_view_op, true};
        st = op.name ? add_op(s, &op, diags) : TA_ERR_NOMEM;
    }
    return st;
}

/* A list's or an extracted set's operators. */
static ta_status plain_ops(ta_diff_side *s, const ta_diff_input *in, ta_arena *a, ta_diags *diags)
{
    size_t n = in->list ? ta_schema_list_count(in->list) : ta_extract_count(in->extracted);
    s->ops = ta_arena_take(a, (n + 1) * sizeof *s->ops);
    if (!s->ops || ta_map_reserve(&s->by_name, n) != TA_OK) return TA_ERR_NOMEM;
    ta_status st = TA_OK;
    for (size_t i = 0; i < n && st == TA_OK; i++) {
        const ta_schema *sc = in->list ? ta_schema_list_get(in->list, i) : ta_extract_get(in->extracted, i)->parsed;
        if (!sc) continue;
        ta_diff_op op = {full_name(a, "aten", sc), sc, i, ta_schema_is_view_op(sc, false), false};
        st = op.name ? add_op(s, &op, diags) : TA_ERR_NOMEM;
    }
    return st;
}

ta_status ta_diff_side_init(ta_diff_side *s, const ta_diff_input *in, ta_arena *a,
                            ta_diags *diags)
{
    memset(s, 0, sizeof *s);
    ta_map_init(&s->by_name, NULL);
    if (!in || (!!in->native + !!in->list + !!in->extracted) != 1) return TA_ERR_INVALID;
    s->in = *in;
    return in->native ? native_ops(s, in->native, a, diags) : plain_ops(s, in, a, diags);
}

void ta_diff_side_free(ta_diff_side *s)
{
    if (!s) return;
    ta_map_clear(&s->by_name);
    ta_torchgen_destroy(s->tg);
    s->tg = NULL;
}

const ta_diff_op *ta_diff_side_find(const ta_diff_side *s, const char *name)
{
    const ta_map_entry *e = ta_map_find_str(&s->by_name, name);
    return e ? &s->ops[e->value.i] : NULL;
}

ta_loc ta_diff_side_loc(const ta_diff_side *s, const ta_diff_op *op, uint32_t off, uint32_t len)
{
    ta_loc loc = {NULL, 0, 0, 0, NULL, 0};
    if (s->in.native) {
        const ta_native_func *fn = ta_native_get(s->in.native, op->index);
        if (!op->derived) return ta_native_schema_loc(s->in.native, fn, off, len);
        ta_native_pos at = ta_native_val_pos(fn, TA_NK_AUTOGEN);
        return ta_native_loc(s->in.native, at);
    }
    if (s->in.list) ta_schema_list_locate(s->in.list, op->index, off, len, &loc);
    else ta_extract_locate(s->in.extracted, op->index, off, len, &loc);
    return loc;
}
