/* ops.c - the operator set nodes are resolved against: schemas by
 * operator name, each overload in the order it was added (registration
 * order, for torch's list), with how AliasDb treats it. Resolution takes
 * the first overload whose arguments accept the node's inputs (match.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/file.h"
#include "base/grow.h"
#include "tensoralias/schema_list.h"
#include "alias/ir/ir_internal.h"


typedef struct op_list {
    ta_ir_op *first, *last;
} op_list;

struct ta_ir_ops {
    ta_arena *arena;
    ir_types types;
    ta_map by_kind;     /* "aten::add" -> op_list */
    ta_map by_overload; /* "aten::add.Tensor" -> op */
    size_t count;
    ta_schema_list **lists; /* the schema lists added, whose schemas the ops use */
    size_t nlists, caplists;
};

ta_status ta_ir_ops_create(ta_ir_ops **out)
{
    *out = NULL;
    ta_ir_ops *ops = ta_calloc(1, sizeof *ops);
    if (!ops) return TA_ERR_NOMEM;
    if (ta_arena_create(&ops->arena) != TA_OK) {
        free(ops);
        return TA_ERR_NOMEM;
    }
    ir_types_init(&ops->types, ops->arena, NULL);
    ta_map_init(&ops->by_kind, NULL);
    ta_map_init(&ops->by_overload, NULL);
    *out = ops;
    return TA_OK;
}

void ta_ir_ops_destroy(ta_ir_ops *ops)
{
    if (!ops) return;
    ta_map_clear(&ops->by_kind);
    ta_map_clear(&ops->by_overload);
    for (size_t i = 0; i < ops->nlists; i++) ta_schema_list_destroy(ops->lists[i]);
    free(ops->lists);
    ir_types_clear(&ops->types);
    ta_arena_destroy(ops->arena);
    free(ops);
}

size_t ta_ir_ops_count(const ta_ir_ops *ops) { return ops->count; }

/* "ns::name.overload" of a parsed schema, arena-owned. */
static char *overload_key(ta_arena *a, const ta_schema *s, size_t *len)
{
    size_t n = s->full_name.len + 1 + s->overload.len;
    char *k = ta_arena_alloc(a, n + 1);
    if (!k) return NULL;
    memcpy(k, s->full_name.ptr, s->full_name.len);
    k[s->full_name.len] = '.';
    if (s->overload.len) memcpy(k + s->full_name.len + 1, s->overload.ptr, s->overload.len);
    *len = n;
    return k;
}

static ta_status convert_formals(ta_ir_ops *ops, ta_ir_op *op)
{
    const ta_schema *s = op->schema;
    op->nformals = s->nargs;
    op->vararg = s->vararg;
    if (!s->nargs) return TA_OK;
    op->formals = ta_arena_alloc(ops->arena, s->nargs * sizeof *op->formals);
    if (!op->formals) return TA_ERR_NOMEM;
    for (uint32_t i = 0; i < s->nargs; i++)
        if (!(op->formals[i] = ir_type_from_schema(&ops->types, s->args[i].type))) return TA_ERR_NOMEM;
    return TA_OK;
}

/* Set names of one schema, numbered in order of appearance. */
typedef struct set_names {
    ta_str name[256];
    uint32_t n;
} set_names;

static uint8_t set_number(set_names *sn, ta_str name)
{
    for (uint32_t i = 0; i < sn->n; i++)
        if (ta_str_eq_str(sn->name[i], name)) return (uint8_t)i;
    if (sn->n == 256) return 255;
    sn->name[sn->n] = name;
    return (uint8_t)sn->n++;
}

static bool has_star(const ta_str *sets, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (ta_str_eq(sets[i], "*")) return true;
    return false;
}

static void plan_slot(const ta_type *t, set_names *sn, ir_alias_slot *slot)
{
    ta_alias_view av;
    ta_type_alias_view(t, &av);
    memset(slot, 0, sizeof *slot);
    const ta_alias *a = av.set ? av.set : av.elem;
    if (!av.present || !a) return;
    slot->present = true;
    slot->write = a->write;
    slot->wild_before = has_star(a->before, a->nbefore);
    slot->wild_after = has_star(a->after, a->nafter);
    slot->same = a->nbefore == a->nafter;
    for (uint32_t i = 0; slot->same && i < a->nbefore; i++)
        slot->same = ta_str_eq_str(a->before[i], a->after[i]);
    for (uint32_t i = 0; i < a->nbefore && slot->nsets < IR_MAX_SLOT_SETS; i++)
        if (!ta_str_eq(a->before[i], "*")) slot->sets[slot->nsets++] = set_number(sn, a->before[i]);
}

/* The alias annotations of every argument and return, for the analysis. */
static ta_status plan_aliases(ta_ir_ops *ops, ta_ir_op *op)
{
    const ta_schema *s = op->schema;
    set_names sn;
    sn.n = 0;
    op->args = ta_arena_alloc(ops->arena, (s->nargs + 1) * sizeof *op->args);
    op->rets = ta_arena_alloc(ops->arena, (s->nrets + 1) * sizeof *op->rets);
    if (!op->args || !op->rets) return TA_ERR_NOMEM;
    for (uint32_t i = 0; i < s->nargs; i++) plan_slot(s->args[i].type, &sn, &op->args[i]);
    for (uint32_t i = 0; i < s->nrets; i++) plan_slot(s->rets[i].type, &sn, &op->rets[i]);
    return TA_OK;
}

static ta_status append_op(ta_ir_ops *ops, ta_ir_op *op)
{
    const ta_schema *s = op->schema;
    ta_map_entry *e;
    ta_status st = ta_map_add(&ops->by_kind, s->full_name.ptr, s->full_name.len, ta_map_ptr(NULL), &e);
    if (st != TA_OK) return st;
    op_list *l = e->value.ptr;
    if (!l) {
        if (!(l = ta_arena_alloc(ops->arena, sizeof *l))) return TA_ERR_NOMEM;
        e->value = ta_map_ptr(l);
    }
    if (l->last) l->last->next = op;
    else l->first = op;
    l->last = op;
    ops->count++;
    return TA_OK;
}

/* Adds a parsed schema (which must outlive ops), unless its overload is in
 * the set already. */
static ta_status add_parsed(ta_ir_ops *ops, const ta_schema *s, ta_ir_alias_kind kind, bool *added)
{
    if (added) *added = false;
    size_t klen;
    char *key = overload_key(ops->arena, s, &klen);
    if (!key) return TA_ERR_NOMEM;
    if (ta_map_find(&ops->by_overload, key, klen)) return TA_OK;
    ta_ir_op *op = ta_arena_alloc(ops->arena, sizeof *op);
    if (!op) return TA_ERR_NOMEM;
    op->schema = s;
    op->kind = kind;
    op->text = s->text;
    ta_status st;
    if ((st = convert_formals(ops, op)) != TA_OK || (st = plan_aliases(ops, op)) != TA_OK ||
        (st = append_op(ops, op)) != TA_OK ||
        (st = ta_map_add(&ops->by_overload, key, klen, ta_map_ptr(op), NULL)) != TA_OK)
        return st;
    if (added) *added = true;
    return TA_OK;
}

ta_status ir_ops_add_schema(ta_ir_ops *ops, const char *text, size_t len, ta_ir_alias_kind kind,
                            const ta_parse_opts *opts, bool *added, ta_diags *diags)
{
    if (added) *added = false;
    ta_schema *s;
    ta_status st = ta_schema_parse(ops->arena, text, len, opts, &s, diags);
    return st == TA_OK ? add_parsed(ops, s, kind, added) : st;
}

ta_status ta_ir_ops_add(ta_ir_ops *ops, const char *schema, size_t len, ta_ir_alias_kind kind,
                        bool *added, ta_diags *diags)
{
    if (!ops || !schema) return TA_ERR_INVALID;
    return ir_ops_add_schema(ops, schema, len, kind, NULL, added, diags);
}

static const struct {
    const char *name;
    ta_ir_alias_kind kind;
} kind_names[] = {
    {"FROM_SCHEMA", TA_IR_FROM_SCHEMA},
    {"CONSERVATIVE", TA_IR_CONSERVATIVE},
    {"PURE_FUNCTION", TA_IR_PURE_FUNCTION},
    {"INTERNAL_SPECIAL_CASE", TA_IR_SPECIAL_CASE},
};

/* The kind a schema list names (NULL: none, FROM_SCHEMA). */
static ta_ir_alias_kind kind_named(const char *name)
{
    for (size_t i = 0; name && i < sizeof kind_names / sizeof kind_names[0]; i++)
        if (!strcmp(kind_names[i].name, name)) return kind_names[i].kind;
    return TA_IR_FROM_SCHEMA;
}

/* Keeps l: its schemas are the ops'. */
static ta_status keep_list(ta_ir_ops *ops, ta_schema_list *l)
{
    if (TA_GROW_ONE(ops->lists, ops->nlists, ops->caplists, 4) != TA_OK) {
        ta_schema_list_destroy(l);
        return TA_ERR_NOMEM;
    }
    ops->lists[ops->nlists++] = l;
    return TA_OK;
}

ta_status ta_ir_ops_add_text(ta_ir_ops *ops, const char *text, size_t len, const char *source,
                             ta_diags *diags)
{
    ta_schema_list *l = NULL;
    ta_status result = ta_schema_list_load_buffer(text, len, source ? source : "<schemas>", &l, diags);
    if (!l) return result;
    if (keep_list(ops, l) != TA_OK) return TA_ERR_NOMEM;
    for (size_t i = 0; i < ta_schema_list_count(l); i++) {
        ta_status st = add_parsed(ops, ta_schema_list_get(l, i), kind_named(ta_schema_list_kind(l, i)), NULL);
        if (st != TA_OK) return st;
    }
    return result;
}

ta_status ta_ir_ops_add_file(ta_ir_ops *ops, const char *path, ta_diags *diags)
{
    char *text;
    size_t len;
    ta_status st = ta_read_file(path, &text, &len, diags);
    if (st != TA_OK) return st;
    st = ta_ir_ops_add_text(ops, text, len, path, diags);
    free(text);
    return st;
}

ta_status ta_ir_ops_add_native(ta_ir_ops *ops, const ta_native_file *f, ta_diags *diags)
{
    char stack[1024];
    for (size_t i = 0; i < ta_native_count(f); i++) {
        const ta_native_func *fn = ta_native_get(f, i);
        if (!fn->schema || !fn->func.s) continue;
        const char *ns = fn->ns ? fn->ns : "aten";
        bool has_ns = strstr(fn->func.s, "::") != NULL;
        size_t need = strlen(ns) + 2 + fn->func.len + 1;
        char *buf = need <= sizeof stack ? stack : ta_malloc(need);
        if (!buf) return TA_ERR_NOMEM;
        int n = has_ns ? snprintf(buf, need, "%s", fn->func.s)
                       : snprintf(buf, need, "%s::%s", ns, fn->func.s);
        ta_status st = ir_ops_add_schema(ops, buf, (size_t)n, TA_IR_FROM_SCHEMA, NULL, NULL, diags);
        if (buf != stack) free(buf);
        if (st == TA_ERR_NOMEM) return st;
    }
    return TA_OK;
}

const ta_ir_op *ta_ir_ops_resolve(const ta_ir_ops *ops, const ta_ir_node *n)
{
    ta_map_entry *e = ta_map_find(&ops->by_kind, n->kind->name, n->kind->len);
    if (!e) return NULL;
    for (const ta_ir_op *op = ((op_list *)e->value.ptr)->first; op; op = op->next)
        if (ir_op_matches(op, n)) return op;
    return NULL;
}

bool ta_ir_ops_has_kind(const ta_ir_ops *ops, const char *kind)
{
    return ta_map_find_str(&ops->by_kind, kind) != NULL;
}

bool ir_ops_has_overload(const ta_ir_ops *ops, const char *key, size_t len)
{
    return ta_map_find(&ops->by_overload, key, len) != NULL;
}

const ta_schema *ta_ir_op_schema(const ta_ir_op *op) { return op->schema; }
ta_ir_alias_kind ta_ir_op_alias_kind(const ta_ir_op *op) { return op->kind; }
const char *ta_ir_op_text(const ta_ir_op *op) { return op->text; }

const ta_ir_op *ta_ir_ops_overloads(const ta_ir_ops *ops, const char *kind)
{
    ta_map_entry *e = ta_map_find_str(&ops->by_kind, kind);
    return e ? ((op_list *)e->value.ptr)->first : NULL;
}

const ta_ir_op *ta_ir_op_next(const ta_ir_op *op) { return op->next; }
