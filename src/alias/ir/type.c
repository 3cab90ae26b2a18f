/* type.c - TorchScript types, interned: a table hands out one pointer per
 * distinct type, so the analysis compares types by pointer and keeps
 * per-type facts in arrays indexed by the type's id. Also the printer (the
 * spelling torch's Type::str() uses in IR) and the public constructors. */
#include <stdio.h>
#include <string.h>

#include "alias/ir/ir_internal.h"
#include "base/strbuf.h"

static const char *const simple_names[TA_IR_ANY_CLASS + 1] = {
    [TA_IR_TENSOR] = "Tensor",       [TA_IR_INT] = "int",
    [TA_IR_FLOAT] = "float",         [TA_IR_COMPLEX] = "complex",
    [TA_IR_NUMBER] = "Scalar",       [TA_IR_BOOL] = "bool",
    [TA_IR_STR] = "str",             [TA_IR_NONE] = "NoneType",
    [TA_IR_DEVICE] = "Device",       [TA_IR_GENERATOR] = "Generator",
    [TA_IR_STORAGE] = "Storage",     [TA_IR_STREAM] = "Stream",
    [TA_IR_QSCHEME] = "QScheme",
    [TA_IR_CAPSULE] = "Capsule",     [TA_IR_ANY] = "Any",
    [TA_IR_ANY_LIST] = "AnyListType", [TA_IR_ANY_TUPLE] = "AnyTupleType",
    [TA_IR_ANY_CLASS] = "AnyClassType",
};

const char *ir_type_simple_name(ta_ir_type_kind k)
{
    return k <= TA_IR_ANY_CLASS ? simple_names[k] : NULL;
}

ta_status ir_types_init(ir_types *t, ta_arena *arena, const ir_types *parent)
{
    memset(t, 0, sizeof *t);
    t->arena = arena;
    t->parent = parent;
    t->base = parent ? ir_types_count(parent) : 0;
    ta_map_init(&t->map, NULL);
    return TA_OK;
}

void ir_types_clear(ir_types *t) { ta_map_clear(&t->map); }

uint32_t ir_types_count(const ir_types *t) { return t->base + t->n; }

/* The key of a type's shape: kind, element pointers, name. */
typedef struct type_key {
    unsigned char buf[256];
    unsigned char *p;
    size_t len;
} type_key;

static bool key_build(type_key *k, ta_arena *a, ta_ir_type_kind kind,
                      const ta_ir_type *const *elems, uint32_t n, const char *name,
                      size_t name_len)
{
    size_t need = 1 + 4 + (size_t)n * sizeof(void *) + name_len;
    k->p = need <= sizeof k->buf ? k->buf : ta_arena_alloc(a, need);
    if (!k->p) return false;
    k->p[0] = (unsigned char)kind;
    memcpy(k->p + 1, &n, 4);
    if (n) memcpy(k->p + 5, elems, (size_t)n * sizeof(void *));
    if (name_len) memcpy(k->p + 5 + (size_t)n * sizeof(void *), name, name_len);
    k->len = need;
    return true;
}

static const ta_ir_type *lookup(const ir_types *t, const type_key *k, uint64_t h)
{
    for (; t; t = t->parent) {
        ta_map_entry *e = ta_map_find_h(&t->map, k->p, k->len, h);
        if (e) return e->value.ptr;
    }
    return NULL;
}

static bool shape_has_detail(ta_ir_type_kind kind, const ta_ir_type *const *elems,
                             uint32_t n, size_t name_len)
{
    if (kind == TA_IR_TENSOR && name_len) return true;
    for (uint32_t i = 0; i < n; i++)
        if (elems[i]->has_detail_inside) return true;
    return false;
}

const ta_ir_type *ir_type_make(ir_types *t, ta_ir_type_kind kind,
                               const ta_ir_type *const *elems, uint32_t n,
                               const char *name, size_t name_len)
{
    type_key k;
    if (!key_build(&k, t->arena, kind, elems, n, name, name_len)) return NULL;
    uint64_t h = ta_map_hash_bytes(k.p, k.len);
    const ta_ir_type *found = lookup(t, &k, h);
    if (found) return found;

    ta_ir_type *ty = ta_arena_alloc(t->arena, sizeof *ty);
    void *key = ta_arena_alloc(t->arena, k.len);
    if (!ty || !key) return NULL;
    memcpy(key, k.p, k.len);
    ty->kind = (uint8_t)kind;
    ty->id = t->base + t->n;
    ty->nelems = n;
    ty->detailed = kind == TA_IR_TENSOR && name_len;
    ty->has_detail_inside = shape_has_detail(kind, elems, n, name_len);
    if (n) {
        ty->elems = ta_arena_alloc(t->arena, (size_t)n * sizeof *ty->elems);
        if (!ty->elems) return NULL;
        memcpy(ty->elems, elems, (size_t)n * sizeof *ty->elems);
    }
    if (name_len && !(ty->name = ta_arena_strndup(t->arena, name, name_len))) return NULL;
    if (kind == TA_IR_CLASS && !(ty->attrs = ta_arena_alloc(t->arena, sizeof *ty->attrs)))
        return NULL;
    if (ta_map_add_h(&t->map, key, k.len, h, ta_map_ptr(ty), NULL) != TA_OK) return NULL;
    t->n++;
    return ty;
}

const ta_ir_type *ir_type_simple(ir_types *t, ta_ir_type_kind kind)
{
    if (kind > TA_IR_ANY_CLASS) return NULL;
    if (!t->simple[kind]) t->simple[kind] = ir_type_make(t, kind, NULL, 0, NULL, 0);
    return t->simple[kind];
}

ta_status ir_class_add_attr(ta_arena *arena, const ta_ir_type *cls, const char *name,
                            size_t name_len, const ta_ir_type *type)
{
    ir_class_attrs *at = cls->attrs;
    for (uint32_t i = 0; i < at->n; i++)
        if (strlen(at->names[i]) == name_len && !memcmp(at->names[i], name, name_len))
            return TA_OK;
    uint32_t cap = at->cap;
    if (ir_grow(arena, (void **)&at->names, &cap, at->n + 1, sizeof *at->names) ||
        ir_grow(arena, (void **)&at->types, &at->cap, at->n + 1, sizeof *at->types))
        return TA_ERR_NOMEM;
    const char *copy = ta_arena_strndup(arena, name, name_len);
    if (!copy) return TA_ERR_NOMEM;
    at->names[at->n] = copy;
    at->types[at->n] = type;
    at->n++;
    return TA_OK;
}

/* ---- printing ------------------------------------------------------------ */

static void print_list(ta_strbuf *o, const char *open, const char *close, const ta_ir_type *t);

static void print_type(ta_strbuf *o, const ta_ir_type *t)
{
    switch ((ta_ir_type_kind)t->kind) {
    case TA_IR_TENSOR:
        ta_strbuf_puts(o, t->detailed ? t->name : "Tensor");
        return;
    case TA_IR_OPTIONAL:
        print_type(o, t->elems[0]);
        ta_strbuf_puts(o, "?");
        return;
    case TA_IR_LIST:
        print_type(o, t->elems[0]);
        ta_strbuf_puts(o, "[]");
        return;
    case TA_IR_TUPLE: print_list(o, "(", ")", t); return;
    case TA_IR_DICT: print_list(o, "Dict(", ")", t); return;
    case TA_IR_FUTURE: print_list(o, "Future[", "]", t); return;
    case TA_IR_RREF: print_list(o, "RRef[", "]", t); return;
    case TA_IR_AWAIT: print_list(o, "Await[", "]", t); return;
    case TA_IR_UNION: print_list(o, "Union(", ")", t); return;
    case TA_IR_CLASS:
    case TA_IR_VAR:
    case TA_IR_OTHER:
        ta_strbuf_puts(o, t->name);
        return;
    default:
        ta_strbuf_puts(o, simple_names[t->kind]);
        return;
    }
}

static void print_list(ta_strbuf *o, const char *open, const char *close, const ta_ir_type *t)
{
    ta_strbuf_puts(o, open);
    for (uint32_t i = 0; i < t->nelems; i++) {
        if (i) ta_strbuf_puts(o, ", ");
        print_type(o, t->elems[i]);
    }
    ta_strbuf_puts(o, close);
}

size_t ta_ir_type_print(const ta_ir_type *t, char *buf, size_t cap)
{
    ta_strbuf o;
    ta_strbuf_init_fixed(&o, buf, cap);
    print_type(&o, t);
    return o.len;
}

/* ---- the public API ------------------------------------------------------ */

ta_ir_type_kind ta_ir_type_kind_of(const ta_ir_type *t) { return (ta_ir_type_kind)t->kind; }
uint32_t ta_ir_type_nelems(const ta_ir_type *t) { return t->nelems; }

const ta_ir_type *ta_ir_type_elem(const ta_ir_type *t, uint32_t i)
{
    return i < t->nelems ? t->elems[i] : NULL;
}

const char *ta_ir_type_name(const ta_ir_type *t) { return t->name; }

const ta_ir_type *ta_ir_type_simple(ta_ir_graph *g, ta_ir_type_kind kind)
{
    return ir_type_simple(&g->types, kind);
}

const ta_ir_type *ta_ir_type_tensor_with(ta_ir_graph *g, const char *details)
{
    if (!details || !*details) return ir_type_simple(&g->types, TA_IR_TENSOR);
    return ir_type_make(&g->types, TA_IR_TENSOR, NULL, 0, details, strlen(details));
}

static const ta_ir_type *make1(ta_ir_graph *g, ta_ir_type_kind k, const ta_ir_type *e)
{
    return e ? ir_type_make(&g->types, k, &e, 1, NULL, 0) : NULL;
}

const ta_ir_type *ta_ir_type_optional(ta_ir_graph *g, const ta_ir_type *elem)
{
    return make1(g, TA_IR_OPTIONAL, elem);
}

const ta_ir_type *ta_ir_type_list(ta_ir_graph *g, const ta_ir_type *elem)
{
    return make1(g, TA_IR_LIST, elem);
}

const ta_ir_type *ta_ir_type_future(ta_ir_graph *g, const ta_ir_type *elem)
{
    return make1(g, TA_IR_FUTURE, elem);
}

const ta_ir_type *ta_ir_type_tuple(ta_ir_graph *g, const ta_ir_type *const *elems, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!elems[i]) return NULL;
    return ir_type_make(&g->types, TA_IR_TUPLE, elems, n, NULL, 0);
}

const ta_ir_type *ir_type_union(ir_types *t, const ta_ir_type *const *elems, uint32_t n)
{
    /* as torch has it: a union of one type and None is that type's optional */
    if (n == 2 && (elems[0]->kind == TA_IR_NONE) != (elems[1]->kind == TA_IR_NONE)) {
        const ta_ir_type *other = elems[elems[0]->kind == TA_IR_NONE ? 1 : 0];
        return ir_type_make(t, TA_IR_OPTIONAL, &other, 1, NULL, 0);
    }
    return ir_type_make(t, TA_IR_UNION, elems, n, NULL, 0);
}

const ta_ir_type *ta_ir_type_union(ta_ir_graph *g, const ta_ir_type *const *elems, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!elems[i]) return NULL;
    return n ? ir_type_union(&g->types, elems, n) : NULL;
}

const ta_ir_type *ta_ir_type_dict(ta_ir_graph *g, const ta_ir_type *key, const ta_ir_type *value)
{
    if (!key || !value) return NULL;
    const ta_ir_type *kv[2] = {key, value};
    return ir_type_make(&g->types, TA_IR_DICT, kv, 2, NULL, 0);
}

const ta_ir_type *ta_ir_type_class(ta_ir_graph *g, const char *qualified_name)
{
    if (!qualified_name || !*qualified_name) return NULL;
    return ir_type_make(&g->types, TA_IR_CLASS, NULL, 0, qualified_name, strlen(qualified_name));
}

ta_status ta_ir_class_add_attr(ta_ir_graph *g, const ta_ir_type *cls, const char *name,
                               const ta_ir_type *type)
{
    if (!cls || cls->kind != TA_IR_CLASS || !name || !type) return TA_ERR_INVALID;
    return ir_class_add_attr(g->arena, cls, name, strlen(name), type);
}

ta_status ta_ir_class_declare_whole(ta_ir_graph *g, const ta_ir_type *cls)
{
    if (!g || !cls || cls->kind != TA_IR_CLASS) return TA_ERR_INVALID;
    cls->attrs->declared = true;
    return TA_OK;
}

bool ta_ir_class_is_whole(const ta_ir_type *cls) { return cls && cls->kind == TA_IR_CLASS && cls->attrs->declared; }

uint32_t ta_ir_class_nattrs(const ta_ir_type *cls) { return cls->attrs ? cls->attrs->n : 0; }

const char *ta_ir_class_attr_name(const ta_ir_type *cls, uint32_t i)
{
    return i < ta_ir_class_nattrs(cls) ? cls->attrs->names[i] : NULL;
}

const ta_ir_type *ta_ir_class_attr_type(const ta_ir_type *cls, uint32_t i)
{
    return i < ta_ir_class_nattrs(cls) ? cls->attrs->types[i] : NULL;
}
