/* decl.c - the declared memory behaviour of a schema (see decl.h), read off
 * its alias annotations: set names become bits, "*" a wildcard flag. */
#include <stdio.h>
#include <string.h>

#include "exec/registry/decl.h"
#include "exec/synth/synth_plan.h"
#include "tensoralias/alias.h"

typedef struct set_names {
    ta_str names[64];
    int n;
} set_names;

static uint64_t set_bit(set_names *sn, ta_str name)
{
    for (int i = 0; i < sn->n; i++)
        if (ta_str_eq_str(sn->names[i], name)) return 1ull << i;
    if (sn->n == 64) return 0;
    sn->names[sn->n] = name;
    return 1ull << sn->n++;
}

static void add_alias(ta_decl_slot *d, const ta_alias *a, set_names *sn)
{
    if (!a) return;
    d->annotated = true;
    if (a->write || a->bare_write) d->write = true;
    const ta_str *lists[2] = {a->before, a->after};
    uint32_t counts[2] = {a->nbefore, a->nafter};
    for (int k = 0; k < 2; k++)
        for (uint32_t i = 0; i < counts[k]; i++) {
            if (ta_str_eq(lists[k][i], "*")) d->wildcard = true;
            else d->sets |= set_bit(sn, lists[k][i]);
        }
    /* Tensor! is a fresh written set of its own. */
    if (a->bare_write && !a->nbefore && sn->n < 64) {
        sn->names[sn->n] = (ta_str){NULL, 0}; /* matches no spelled name */
        d->sets |= 1ull << sn->n++;
    }
}

static ta_decl_type name_type(const ta_type *t)
{
    if (t->kind != TA_TYPE_NAME) return TA_DT_OTHER;
    static const struct { const char *name; ta_decl_type type; } tab[] = {
        {"Tensor", TA_DT_TENSOR},       {"int", TA_DT_INT},
        {"SymInt", TA_DT_INT},          {"float", TA_DT_FLOAT},
        {"bool", TA_DT_BOOL},           {"Scalar", TA_DT_SCALAR},
        {"ScalarType", TA_DT_SCALAR_TYPE}, {"Layout", TA_DT_LAYOUT},
        {"MemoryFormat", TA_DT_MEMORY_FORMAT}, {"Device", TA_DT_DEVICE},
        {"Generator", TA_DT_GENERATOR}, {"str", TA_DT_STRING},
        {"c10::string_view", TA_DT_STRING}, {"Dimname", TA_DT_DIMNAME},
    };
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
        if (ta_str_eq(t->name, tab[i].name)) return tab[i].type;
    return TA_DT_OTHER;
}

static void fill_slot(ta_decl_slot *d, ta_str name, const ta_type *t, set_names *sn)
{
    size_t n = name.len < sizeof d->name - 1 ? name.len : sizeof d->name - 1;
    memcpy(d->name, name.ptr ? name.ptr : "", n);
    d->name[n] = '\0';
    d->fixed_size = -1;
    add_alias(d, t->alias, sn);
    if (t->kind == TA_TYPE_OPTIONAL) {
        d->optional = true;
        t = t->elems[0];
        add_alias(d, t->alias, sn);
    }
    if (t->kind == TA_TYPE_LIST) {
        const ta_type *e = t->elems[0];
        d->fixed_size = t->fixed_size;
        add_alias(d, e->alias, sn);
        if (e->kind == TA_TYPE_OPTIONAL) {
            d->list_opt_items = true;
            e = e->elems[0];
            add_alias(d, e->alias, sn);
        }
        switch (name_type(e)) {
        case TA_DT_TENSOR: d->type = TA_DT_TENSOR_LIST; break;
        case TA_DT_INT: d->type = TA_DT_INT_LIST; break;
        case TA_DT_FLOAT: d->type = TA_DT_FLOAT_LIST; break;
        case TA_DT_BOOL: d->type = TA_DT_BOOL_LIST; break;
        case TA_DT_SCALAR: d->type = TA_DT_SCALAR_LIST; break;
        case TA_DT_DIMNAME: d->type = TA_DT_DIMNAME_LIST; break;
        default: d->type = TA_DT_OTHER; break;
        }
        return;
    }
    d->type = name_type(t);
}

/* Whether s is aten::name.overload for one "name.overload" of names (an
 * empty overload spelled "name"). The exemptions below hold for these
 * operators as PyTorch documents them, never for an operator of another
 * namespace that happens to share a name. */
static bool is_aten_op(const ta_schema *s, const char *const *names, size_t n)
{
    if (!ta_str_eq(s->ns, "aten")) return false;
    for (size_t i = 0; i < n; i++) {
        const char *dot = strchr(names[i], '.');
        size_t len = dot ? (size_t)(dot - names[i]) : strlen(names[i]);
        if (s->name.len != len || memcmp(s->name.ptr, names[i], len)) continue;
        if (ta_str_eq(s->overload, dot ? dot + 1 : "")) return true;
    }
    return false;
}

/* Operators whose view-annotated return is documented to be a copy at times. */
static bool may_copy_op(const ta_schema *s)
{
    static const char *const names[] = {
        "reshape", "reshape_as", "contiguous", "flatten.using_ints", "flatten.named_out_dim",
        "flatten.using_names", "flatten.DimnameList", "ravel", "to.dtype_layout", "to.device",
        "to.dtype", "to.other", "resolve_conj", "resolve_neg", "coalesce",
        "_autocast_to_full_precision", "_autocast_to_reduced_precision", "__dispatch_contiguous",
        "to_dense", "_to_dense", "lift_fresh",
    };
    return is_aten_op(s, names, sizeof names / sizeof *names);
}

/* Operators that only allocate: their outputs' contents are unspecified, so
 * an out= argument they leave unwritten is correct (the empty family and
 * the out= variants autogen derives of it). */
static bool unspecified_contents_op(const ta_schema *s)
{
    static const char *const names[] = {
        "empty.out", "empty.names_out", "empty_like.out", "empty_strided.out",
        "empty_permuted.out", "new_empty.out", "new_empty_strided.out", "empty_quantized.out",
        "_empty_affine_quantized.out", "_empty_per_channel_affine_quantized.out",
    };
    return is_aten_op(s, names, sizeof names / sizeof *names);
}

ta_status ta_decl_build(ta_arena *arena, const ta_schema *s, ta_decl **out)
{
    ta_decl *d = ta_arena_alloc(arena, sizeof *d);
    if (!d) return TA_ERR_NOMEM;
    d->nargs = (int)s->nargs;
    d->nrets = (int)s->nrets;
    d->args = ta_arena_alloc(arena, (s->nargs + 1) * sizeof *d->args);
    d->rets = ta_arena_alloc(arena, (s->nrets + 1) * sizeof *d->rets);
    d->ret_is_arg = ta_arena_alloc(arena, (s->nrets + 1) * sizeof *d->ret_is_arg);
    d->ret_is_view = ta_arena_alloc(arena, (s->nrets + 1) * sizeof *d->ret_is_view);
    if (!d->args || !d->rets || !d->ret_is_arg || !d->ret_is_view) return TA_ERR_NOMEM;
    set_names sn = {.n = 0};
    for (uint32_t i = 0; i < s->nargs; i++) {
        ta_decl_slot *a = &d->args[i];
        fill_slot(a, s->args[i].name, s->args[i].type, &sn);
        a->arg = &s->args[i];
        a->is_out = s->args[i].is_out;
        if (a->is_out) d->has_out = true;
        bool skippable = a->optional && s->args[i].def.kind == TA_DEFAULT_NONE;
        if (a->type == TA_DT_OTHER && !skippable && !d->unsupported[0]) {
            char ty[32];
            ta_type_print_plain(s->args[i].type, ty, sizeof ty);
            snprintf(d->unsupported, sizeof d->unsupported, "%.31s %.48s", ty, a->name);
        }
    }
    for (uint32_t r = 0; r < s->nrets; r++) {
        ta_decl_slot *t = &d->rets[r];
        fill_slot(t, s->rets[r].name, s->rets[r].type, &sn);
        t->ret = &s->rets[r];
        d->ret_is_arg[r] = -1;
        for (int i = 0; i < d->nargs; i++) {
            const ta_decl_slot *a = &d->args[i];
            if (a->type != TA_DT_TENSOR || !(a->sets & t->sets)) continue;
            if (t->write && a->write && d->ret_is_arg[r] < 0) d->ret_is_arg[r] = i;
            if (!t->write && !a->write) d->ret_is_view[r] = true;
        }
        if (t->type == TA_DT_TENSOR_LIST && t->write) d->ret_is_arg[r] = -1; /* lists are compared item by item elsewhere */
    }
    d->may_copy = may_copy_op(s);
    d->contents_unspecified = unspecified_contents_op(s);
    /* torch's answers, as a matrix (none when the queries cannot answer;
     * running out of memory is an error, not a lesser answer). */
    int n = d->nargs + d->nrets;
    ta_alias_query *q = NULL;
    ta_status qs = n <= 64 ? ta_alias_query_create(s, &q, NULL) : TA_ERR_UNSUPPORTED;
    if (qs == TA_OK && q && !(d->may = ta_arena_alloc(arena, (size_t)(n ? n : 1) * sizeof *d->may)))
        qs = TA_ERR_NOMEM;
    if (qs == TA_ERR_NOMEM) {
        ta_alias_query_destroy(q);
        return TA_ERR_NOMEM;
    }
    if (qs == TA_OK && q) {
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) {
                ta_slot sa = a < d->nargs ? ta_in((uint32_t)a) : ta_out((uint32_t)(a - d->nargs));
                ta_slot sb = b < d->nargs ? ta_in((uint32_t)b) : ta_out((uint32_t)(b - d->nargs));
                bool m = ta_alias_query_may_alias(q, sa, sb) || ta_alias_query_may_contain_alias(q, sa, sb);
                if (a >= d->nargs && b < d->nargs)
                    m = m || ta_alias_query_output_aliases_input(q, (uint32_t)(a - d->nargs), (uint32_t)b);
                if (b >= d->nargs && a < d->nargs)
                    m = m || ta_alias_query_output_aliases_input(q, (uint32_t)(b - d->nargs), (uint32_t)a);
                if (m) d->may[a] |= 1ull << b;
            }
        /* torch counts some arguments written in training mode (running_mean...);
         * the schema does not declare them, so their writes stay visible. */
        for (int i = 0; i < d->nargs; i++)
            if (!d->args[i].write && ta_alias_query_is_mutable_input(q, (uint32_t)i)) d->args[i].special_write = true;
    }
    ta_alias_query_destroy(q);
    ta_synth_names_read(s, d, &d->names);
    *out = d;
    return TA_OK;
}

static int slot_index(const ta_decl *d, const ta_decl_slot *s)
{
    if (s >= d->args && s < d->args + d->nargs) return (int)(s - d->args);
    if (s >= d->rets && s < d->rets + d->nrets) return d->nargs + (int)(s - d->rets);
    return -1;
}

bool ta_decl_may_alias(const ta_decl *d, const ta_decl_slot *a, const ta_decl_slot *b)
{
    int ia = slot_index(d, a), ib = slot_index(d, b);
    if (d->may && ia >= 0 && ib >= 0) return (d->may[ia] >> ib) & 1;
    /* A value in the wildcard set may alias any other value. */
    if (a->wildcard || b->wildcard) return true;
    return (a->sets & b->sets) != 0;
}
