/* kind.c - torchgen's reading of one schema: its operator name (inplace,
 * dunder, functional overload), how its arguments split (self, out,
 * TensorOptions), its SchemaKind, and whether it is a view op. */
#include <string.h>

#include "alias/torchgen/internal.h"

static const char *const kind_names[] = {"functional", "inplace", "out",
                                         "mutable", "scratch"};

const char *ta_schema_kind_str(ta_schema_kind k)
{
    return (unsigned)k < 5 ? kind_names[k] : "?";
}

/* Names that are __iXXX__ inplace operators (PEP 203's augmented assignment). */
static const char *const augmented[] = {"add", "sub", "mul", "div", "mod", "pow",
                                        "lshift", "rshift", "and", "xor", "or"};

static bool str_ends(ta_str s, const char *suffix)
{
    size_t n = strlen(suffix);
    return s.len >= n && memcmp(s.ptr + s.len - n, suffix, n) == 0;
}

tg_opname tg_opname_parse(ta_str name)
{
    tg_opname r = {name, false, false, false};
    /* ^__([^_]+)__$ : a dunder method */
    if (name.len > 4 && name.ptr[0] == '_' && name.ptr[1] == '_' &&
        name.ptr[name.len - 1] == '_' && name.ptr[name.len - 2] == '_' &&
        !memchr(name.ptr + 2, '_', name.len - 4)) {
        r.dunder = true;
        r.base.ptr = name.ptr + 2;
        r.base.len = name.len - 4;
        if (r.base.ptr[0] == 'i') {
            ta_str rest = {r.base.ptr + 1, r.base.len - 1};
            for (size_t i = 0; i < sizeof augmented / sizeof *augmented; i++)
                if (ta_str_eq(rest, augmented[i])) {
                    r.inplace = true;
                    r.base = rest;
                    break;
                }
        }
    } else if (name.len > 0 && name.ptr[name.len - 1] == '_') {
        r.inplace = true;
        r.base.len--;
    }
    if (str_ends(r.base, "_functional")) {
        r.functional = true;
        r.base.len -= (uint32_t)strlen("_functional");
    }
    return r;
}


static bool sets_eq(const ta_str *a, uint32_t na, const ta_str *b, uint32_t nb)
{
    if (na != nb) return false;
    for (uint32_t i = 0; i < na; i++)
        if (!ta_str_eq_str(a[i], b[i])) return false;
    return true;
}

bool tg_alias_eq(const ta_alias *a, const ta_alias *b)
{
    if (!a || !b) return a == b;
    if (a->bare_write || b->bare_write) return a == b; /* each Tensor! is its own set */
    if (a->write != b->write) return false;
    if (!sets_eq(a->before, a->nbefore, b->before, b->nbefore)) return false;
    uint32_t na = a->has_arrow ? a->nafter : 0, nb = b->has_arrow ? b->nafter : 0;
    return sets_eq(a->after, na, b->after, nb);
}

static bool type_is(const ta_type *t, const char *name, bool allow_optional)
{
    if (allow_optional && t->kind == TA_TYPE_OPTIONAL && t->nelems == 1)
        t = t->elems[0];
    return t->kind == TA_TYPE_NAME && ta_str_eq(t->name, name);
}

/* torchgen groups dtype, layout, device, pin_memory (each possibly optional)
 * when they appear in this order among the keyword-only arguments. */
static bool is_tensor_options_at(const ta_schema *s, uint32_t i, uint32_t end)
{
    static const char *const names[4] = {"dtype", "layout", "device", "pin_memory"};
    static const char *const types[4] = {"ScalarType", "Layout", "Device", "bool"};
    if (end - i < 4) return false;
    for (uint32_t k = 0; k < 4; k++) {
        const ta_arg *a = &s->args[i + k];
        if (!ta_str_eq(a->name, names[k]) || !type_is(a->type, types[k], true))
            return false;
    }
    return true;
}

void tg_args_split(const ta_schema *s, tg_args *out)
{
    out->self = -1;
    out->npos = s->nargs;
    out->first_out = s->nargs;
    out->tensor_options = -1;
    for (uint32_t i = 0; i < s->nargs; i++)
        if (s->args[i].kwarg_only) {
            out->npos = i;
            break;
        }
    for (uint32_t i = 0; i < out->npos; i++)
        if (TA_STR_IS(s->args[i].name, "self")) {
            out->self = (int32_t)i;
            break;
        }
    for (uint32_t i = out->npos; i < s->nargs; i++)
        if (tg_alias_is_write(tg_annotation(s->args[i].type))) {
            out->first_out = i;
            break;
        }
    for (uint32_t i = out->npos; i < out->first_out; i++)
        if (is_tensor_options_at(s, i, out->first_out)) {
            out->tensor_options = (int32_t)i;
            break;
        }
}

uint32_t ta_schema_first_out(const ta_schema *s)
{
    tg_args a;
    tg_args_split(s, &a);
    return a.first_out;
}

ta_schema_kind ta_schema_kind_of(const ta_schema *s)
{
    tg_args a;
    tg_args_split(s, &a);
    tg_opname op = tg_opname_parse(s->name);
    return tg_kind_of(s, &a, &op);
}

ta_schema_kind tg_kind_of(const ta_schema *s, const tg_args *sp, const tg_opname *op)
{
    tg_args a = *sp;
    if (op->inplace) return TA_KIND_INPLACE;
    for (uint32_t i = a.first_out; i < s->nargs; i++) {
        ta_str n = s->args[i].name;
        if (n.len >= 9 && memcmp(n.ptr, "_scratch_", 9) == 0) return TA_KIND_SCRATCH;
    }
    if (a.first_out < s->nargs) return TA_KIND_OUT;
    /* post_self_positional: after self, or every positional when no self */
    for (uint32_t i = (uint32_t)(a.self + 1); i < a.npos; i++)
        if (tg_alias_is_write(tg_annotation(s->args[i].type))) return TA_KIND_MUTABLE;
    return TA_KIND_FUNCTIONAL;
}

bool ta_schema_is_view_op(const ta_schema *s, bool tagged_inplace_view)
{
    for (uint32_t i = 0; i < s->nrets; i++) {
        const ta_alias *a = tg_annotation(s->rets[i].type);
        if (a && !tg_alias_is_write(a)) return true;
    }
    /* resize_ (and, since torchgen 2.x, resize_as_) are tagged inplace_view
     * but treated as ordinary inplace ops; 1.13.1 does not tag resize_as_ */
    if (tagged_inplace_view && !((ta_str_eq(s->name, "resize_") || ta_str_eq(s->name, "resize_as_")) &&
                                 s->overload.len == 0))
        return true;
    for (uint32_t i = 0; i < s->nargs; i++) {
        const ta_alias *a = tg_annotation(s->args[i].type);
        if (!a || !a->has_arrow) continue;
        for (uint32_t k = 0; k < a->nafter; k++)
            if (TA_STR_IS(a->after[k], "*")) return true;
    }
    return false;
}
