/* query_facts.c - builds the compact summary of one schema that the alias
 * queries read: per slot, the alias sets it is in before and after the call
 * (at slot level, as torch sees them, and at every level, as declared), what
 * it writes, and which types that can hold aliases it has or contains.
 *
 * The type facts follow torch 1.13.1's FunctionSchema::mapTypeToAliasTypeSet
 * and getAliasTypeSetContainedTypes. torch compares types by identity: the
 * builtin types (Tensor, int, str...) and class types are singletons, while
 * every list, dict, tuple, optional and type variable is a fresh object. So
 * two `int[]` arguments never "can alias" as lists, yet both contain the one
 * `int` and so may contain aliases of each other. */
#include <ctype.h>
#include <string.h>

#include "alias/query_internal.h"

/* Spellings torch's schema type parser maps onto a singleton. */
#define B(name, id) {name, sizeof(name) - 1, id}
static const struct { const char *name; uint32_t len; int id; } builtin[] = {
    B("Tensor", TA_TY_TENSOR),       B("int", TA_TY_INT),
    B("SymInt", TA_TY_INT),          B("ScalarType", TA_TY_INT),
    B("Layout", TA_TY_INT),          B("MemoryFormat", TA_TY_INT),
    B("DeviceIndex", TA_TY_INT),     B("ConstQuantizerPtr", TA_TY_INT),
    B("float", TA_TY_FLOAT),         B("SymFloat", TA_TY_FLOAT),
    B("bool", TA_TY_BOOL),           B("SymBool", TA_TY_BOOL),
    B("str", TA_TY_STR),             B("Dimname", TA_TY_STR),
    B("Scalar", TA_TY_NUMBER),       B("complex", TA_TY_COMPLEX),
    B("Device", TA_TY_DEVICE),       B("Stream", TA_TY_STREAM),
    B("Generator", TA_TY_GENERATOR), B("Storage", TA_TY_STORAGE),
    B("QScheme", TA_TY_QSCHEME),     B("Quantizer", TA_TY_QUANTIZER),
    B("None", TA_TY_NONE),           B("NoneType", TA_TY_NONE),
    B("Capsule", TA_TY_CAPSULE),     B("Any", TA_TY_ANY),
    B("AnyEnumType", TA_TY_ANYENUM), B("AnyClassType", TA_TY_ANYCLASS),
};
#undef B
static const char *const builtin_names[TA_TY_NBUILTIN] = {
    "Tensor", "int", "float", "bool", "str", "number", "complex", "Device",
    "Stream", "Generator", "Storage", "QScheme", "Quantizer", "NoneType",
    "Capsule", "Any", "AnyEnumType", "AnyClassType",
};

bool ta_alias_str_is_wildcard(ta_str name)
{
    return name.len == 1 && name.ptr[0] == '*';
}

int ta_alias_set_index(const ta_alias_query *q, ta_str name)
{
    /* set names are a letter or two: compare them inline, not by memcmp */
    for (uint32_t k = 0; k < q->nsets; k++) {
        if (q->sets[k].len != name.len) continue;
        uint32_t i = 0;
        while (i < name.len && q->sets[k].ptr[i] == name.ptr[i]) i++;
        if (i == name.len) return (int)k;
    }
    return -1;
}

void ta_alias_type_name(const ta_alias_query *q, uint32_t k, char *buf,
                        size_t cap)
{
    if (!cap) return;
    const char *p = "";
    size_t n = 0;
    if (k < TA_TY_NBUILTIN) {
        p = builtin_names[k];
        n = strlen(p);
    } else if (k < q->ntypes) {
        p = q->class_names[k - TA_TY_NBUILTIN].ptr;
        n = q->class_names[k - TA_TY_NBUILTIN].len;
    }
    if (n >= cap) n = cap - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
}

typedef struct builder {
    ta_alias_query *q;
    bool overflow_sets, overflow_types;
} builder;

/* Singleton id of a named type, -1 for a type variable (torch: an unknown
 * lower-case name), interning class names. */
static int name_id(builder *b, ta_str n)
{
    /* Tensor is most named types: test it with a constant-length compare
     * the compiler inlines; the table's names are a dozen bytes at most, so
     * compare them byte by byte rather than call memcmp for each */
    if (n.len == 6 && memcmp(n.ptr, "Tensor", 6) == 0) return TA_TY_TENSOR;
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++) {
        if (n.len != builtin[i].len || n.ptr[0] != builtin[i].name[0]) continue;
        uint32_t k = 1;
        while (k < n.len && n.ptr[k] == builtin[i].name[k]) k++;
        if (k == n.len) return builtin[i].id;
    }
    if (n.len == 0 || islower((unsigned char)n.ptr[0])) return -1;
    ta_alias_query *q = b->q;
    for (uint32_t k = TA_TY_NBUILTIN; k < q->ntypes; k++)
        if (ta_str_eq_str(q->class_names[k - TA_TY_NBUILTIN], n)) return (int)k;
    if (q->ntypes >= TA_MAX_TYPES) {
        b->overflow_types = true;
        return TA_TY_CAPSULE; /* conservative stand-in; reported as an error */
    }
    q->class_names[q->ntypes - TA_TY_NBUILTIN] = n;
    return (int)q->ntypes++;
}

static uint64_t bit(int id) { return id < 0 ? 0 : (uint64_t)1 << id; }

/* Every singleton reachable from t, t included (torch's contained-types walk
 * applied below a type). */
static uint64_t walk(builder *b, const ta_type *t)
{
    if (!t) return 0;
    uint64_t m = 0;
    if (t->kind == TA_TYPE_NAME) {
        int id = name_id(b, t->name);
        m |= bit(id);
        if (id >= TA_TY_NBUILTIN) m |= bit(TA_TY_CAPSULE); /* a class holds a Capsule */
        return m;
    }
    for (uint32_t i = 0; i < t->nelems; i++) m |= walk(b, t->elems[i]);
    return m;
}

/* torch's alias type set of t: *types gets its singletons, *contained what
 * they contain; returns false when t has none (it cannot hold an alias). */
static bool alias_types(builder *b, const ta_type *t, uint64_t *types,
                        uint64_t *contained)
{
    *types = *contained = 0;
    if (!t) return false;
    switch (t->kind) {
    case TA_TYPE_NAME: {
        int id = name_id(b, t->name);
        if (id == TA_TY_TENSOR || id == TA_TY_ANY) {
            *types = bit(id);
            return true;
        }
        if (id >= TA_TY_NBUILTIN) {
            *types = bit(id);
            *contained = bit(TA_TY_CAPSULE);
            return true;
        }
        return false;
    }
    case TA_TYPE_OPTIONAL:
        return alias_types(b, t->elems[0], types, contained);
    case TA_TYPE_LIST:
        *contained = walk(b, t->elems[0]);
        return true;
    case TA_TYPE_TUPLE: {
        /* a fresh tuple of the members that can hold aliases */
        bool any = false;
        for (uint32_t i = 0; i < t->nelems; i++) {
            uint64_t ty, co;
            if (alias_types(b, t->elems[i], &ty, &co)) {
                any = true;
                *contained |= ty | co;
            }
        }
        return any;
    }
    case TA_TYPE_APPLY:
        if (TA_STR_IS(t->name, "Dict")) {
            for (uint32_t i = 0; i < t->nelems; i++) *contained |= walk(b, t->elems[i]);
            return true;
        }
        if (TA_STR_IS(t->name, "Union")) {
            bool any = false;
            for (uint32_t i = 0; i < t->nelems; i++) {
                uint64_t ty, co;
                if (alias_types(b, t->elems[i], &ty, &co)) {
                    any = true;
                    *types |= ty;
                    *contained |= co;
                }
            }
            return any;
        }
        if (TA_STR_IS(t->name, "Optional") && t->nelems == 1)
            return alias_types(b, t->elems[0], types, contained);
        return false; /* Future, RRef, Await: not alias types in torch 1.13 */
    }
    return false;
}

const ta_alias *ta_alias_slot_annotation(const ta_type *t, bool *present,
                                         bool *write)
{
    *present = *write = false;
    if (!t) return NULL;
    if (t->kind == TA_TYPE_OPTIONAL) {
        const ta_alias *inner = ta_alias_slot_annotation(t->elems[0], present, write);
        if (t->alias) {
            *present = true;
            *write = t->alias->write;
            return t->alias;
        }
        return inner;
    }
    if (t->kind == TA_TYPE_LIST) {
        bool ip, iw;
        ta_alias_slot_annotation(t->elems[0], &ip, &iw);
        if (t->alias) { /* t[](a!): the container's own annotation */
            *present = true;
            *write = t->alias->write;
            return t->alias;
        }
        /* Tensor(a!)[]: torch keeps an empty annotation on the list that
         * copies the element's write flag */
        *present = ip;
        *write = iw;
        return NULL;
    }
    if (t->alias) {
        *present = true;
        *write = t->alias->write;
    }
    return t->alias;
}

static void intern_set(builder *b, ta_str name)
{
    if (ta_alias_str_is_wildcard(name) || ta_alias_set_index(b->q, name) >= 0) return;
    if (b->q->nsets >= TA_MAX_SETS) {
        b->overflow_sets = true;
        return;
    }
    b->q->sets[b->q->nsets++] = name;
}

static uint64_t set_bits(const ta_alias_query *q, const ta_str *v, uint32_t n,
                         bool *wild)
{
    uint64_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (ta_alias_str_is_wildcard(v[i])) {
            if (wild) *wild = true;
            continue;
        }
        int k = ta_alias_set_index(q, v[i]);
        if (k >= 0) m |= (uint64_t)1 << k;
    }
    return m;
}

/* Some annotation is written somewhere inside t (most slots have none, and
 * then declared() has nothing to do). */
static bool any_alias(const ta_type *t)
{
    if (!t) return false;
    if (t->alias) return true;
    for (uint32_t i = 0; i < t->nelems; i++)
        if (any_alias(t->elems[i])) return true;
    return false;
}

/* Every annotation inside t: interns set names and gathers declared facts. */
static void declared(builder *b, const ta_type *t, ta_slot_facts *f, bool intern)
{
    if (!t) return;
    const ta_alias *a = t->alias;
    if (a) {
        if (intern) {
            for (uint32_t i = 0; i < a->nbefore; i++) intern_set(b, a->before[i]);
            for (uint32_t i = 0; i < a->nafter; i++) intern_set(b, a->after[i]);
        } else {
            f->decl_before |= set_bits(b->q, a->before, a->nbefore, NULL);
            uint64_t after = set_bits(b->q, a->after, a->nafter, &f->decl_wild);
            f->decl_after |= after;
            if (a->write) f->decl_written |= set_bits(b->q, a->before, a->nbefore, NULL) | after;
        }
    }
    for (uint32_t i = 0; i < t->nelems; i++) declared(b, t->elems[i], f, intern);
}

/* torch's SchemaInfo special cases: arguments that count as written when the
 * call runs in training mode, which torch assumes when it has a training
 * flag and no value for it. Matched by operator name and argument names. */
static const struct training_op {
    const char *name, *overload;
    const char *args; /* every argument name, comma-separated */
    const char *cond; /* the conditionally written arguments, comma-framed */
} training_ops[] = {
    {"aten::batch_norm", "", "input,weight,bias,running_mean,running_var,training,momentum,eps,cudnn_enabled", ",running_mean,running_var,"},
    {"aten::instance_norm", "", "input,weight,bias,running_mean,running_var,use_input_stats,momentum,eps,cudnn_enabled", ",running_mean,running_var,"},
    {"aten::_batch_norm_impl_index", "", "input,weight,bias,running_mean,running_var,training,momentum,eps,cudnn_enabled", ",running_mean,running_var,"},
    {"aten::cudnn_batch_norm", "", "input,weight,bias,running_mean,running_var,training,exponential_average_factor,epsilon", ",running_mean,running_var,"},
    {"aten::miopen_batch_norm", "", "input,weight,bias,running_mean,running_var,training,exponential_average_factor,epsilon", ",running_mean,running_var,"},
    {"aten::native_batch_norm", "", "input,weight,bias,running_mean,running_var,training,momentum,eps", ",running_mean,running_var,"},
    {"aten::native_batch_norm", "out", "input,weight,bias,running_mean,running_var,training,momentum,eps,out,save_mean,save_invstd", ",running_mean,running_var,"},
    {"aten::rrelu_with_noise", "", "self,noise,lower,upper,training,generator", ",noise,"},
    {"aten::rrelu_with_noise", "out", "self,noise,lower,upper,training,generator,out", ",noise,"},
};

static bool names_match(const ta_schema *s, const char *list)
{
    const char *p = list;
    for (uint32_t i = 0; i < s->nargs; i++) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (s->args[i].name.len != n || memcmp(s->args[i].name.ptr, p, n)) return false;
        if (!e) return i + 1 == s->nargs;
        p = e + 1;
    }
    return false;
}

static bool in_list(ta_str name, const char *framed)
{
    for (const char *p = framed; (p = strchr(p, ',')) && p[1]; p++)
        if (!strncmp(p + 1, name.ptr, name.len) && p[1 + name.len] == ',') return true;
    return false;
}

/* ta_str_eq without a full strlen: strnlen reads no more of the literal
 * than s could match. Runs for every schema against every training op. */
static bool str_is(ta_str s, const char *lit)
{
    size_t n = strnlen(lit, (size_t)s.len + 1);
    return n == s.len && (n == 0 || !memcmp(lit, s.ptr, n));
}

static void training_special_case(ta_alias_query *q, const ta_schema *s)
{
    if (s->nargs < 6) return; /* every op of the table has six arguments or more */
    for (size_t t = 0; t < sizeof training_ops / sizeof training_ops[0]; t++) {
        const struct training_op *op = &training_ops[t];
        if (!str_is(s->full_name, op->name) || !str_is(s->overload, op->overload) ||
            !names_match(s, op->args))
            continue;
        for (uint32_t i = 0; i < s->nargs; i++)
            if (in_list(s->args[i].name, op->cond)) q->slot[i].mutable_ = true;
    }
}

/* SchemaInfo's conservative wildcard set: arguments annotated "-> *", plus,
 * within the inputs or within the outputs, every slot whose set also appears
 * on another slot of the same list (torch warns and gives up precision),
 * plus every output that may alias a wildcard input. */
static void wildcard_set(ta_alias_query *q)
{
    for (int list = 0; list < 2; list++) {
        ta_slot_facts *v = list ? q->slot + q->nin : q->slot;
        uint32_t n = list ? q->nout : q->nin;
        uint64_t seen = 0, dup = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (!v[i].has_alias) continue;
            if (v[i].wild_after) {
                v[i].wild = true;
                continue;
            }
            dup |= seen & v[i].after;
            seen |= v[i].after;
        }
        for (uint32_t i = 0; i < n; i++)
            if (v[i].after & dup) v[i].wild = true;
    }
    for (uint32_t i = 0; i < q->nin; i++) {
        if (!q->slot[i].wild) continue;
        for (uint32_t j = 0; j < q->nout; j++)
            if (ta_facts_basic_may_alias(&q->slot[i], &q->slot[q->nin + j]))
                q->slot[q->nin + j].wild = true;
    }
}

/* Counts t's named types into *names; false at the first annotation. */
static bool unannotated_type(const ta_type *t, uint32_t *names)
{
    if (!t) return true;
    if (t->alias) return false;
    if (t->kind == TA_TYPE_NAME) (*names)++;
    for (uint32_t i = 0; i < t->nelems; i++)
        if (!unannotated_type(t->elems[i], names)) return false;
    return true;
}

bool ta_alias_facts_unannotated(const ta_schema *s)
{
    /* every named type could be a class of its own: below the limit, none
     * can overflow it (name_id interns nothing else) */
    uint32_t names = 0;
    for (uint32_t i = 0; i < s->nargs; i++)
        if (!unannotated_type(s->args[i].type, &names)) return false;
    for (uint32_t j = 0; j < s->nrets; j++)
        if (!unannotated_type(s->rets[j].type, &names)) return false;
    return names <= TA_MAX_TYPES - TA_TY_NBUILTIN;
}

ta_status ta_alias_facts_build(ta_alias_query *q, const ta_schema *s,
                               ta_diags *diags)
{
    builder b = {q, false, false};
    q->s = s;
    q->nin = s->nargs;
    q->nout = s->nrets;
    q->ntypes = TA_TY_NBUILTIN;
    uint32_t n = q->nin + q->nout;
    for (uint32_t i = 0; i < n; i++) {
        const ta_type *t = i < q->nin ? s->args[i].type : s->rets[i - q->nin].type;
        if (any_alias(t)) declared(&b, t, NULL, true); /* else nothing to intern */
    }
    for (uint32_t i = 0; i < n; i++) {
        ta_slot_facts *f = &q->slot[i];
        f->type = i < q->nin ? s->args[i].type : s->rets[i - q->nin].type;
        const ta_alias *a = ta_alias_slot_annotation(f->type, &f->has_alias, &f->write);
        if (a) {
            f->before = set_bits(q, a->before, a->nbefore, NULL);
            f->after = set_bits(q, a->after, a->nafter, &f->wild_after);
        }
        f->mutable_ = i < q->nin && f->write;
        f->has_types = alias_types(&b, f->type, &f->types, &f->contained);
        if (f->has_alias || any_alias(f->type)) declared(&b, f->type, f, false);
        /* torchgen's view op: a read-only annotated return (elements
         * count: chunk -> Tensor(a)[]), or an input that enters a set "->" */
        if (i >= q->nin && f->has_alias && !f->write) q->view_op = true;
        if (i < q->nin && a && a->has_arrow) q->view_op = true;
    }
    training_special_case(q, s);
    wildcard_set(q);
    if (b.overflow_sets || b.overflow_types) {
        if (diags) {
            uint32_t line, col;
            ta_schema_locate(s, s->name_span.off, &line, &col);
            ta_loc at = {s->source, line, col, s->name_span.len, NULL, 0};
            if (ta_diag_error(diags, &at, "alias-limits",
                              "schema has more than %d alias sets or %d class types; alias "
                              "analysis skipped",
                              TA_MAX_SETS, TA_MAX_TYPES - TA_TY_NBUILTIN) != TA_OK)
                return TA_ERR_NOMEM;
        }
        return TA_ERR_UNSUPPORTED;
    }
    return TA_OK;
}
