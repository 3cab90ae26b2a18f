/* aliasdb_types.c - which types can alias, and the wildcard of each.
 *
 * AliasDb maps a type to the "alias types" standing for it
 * (MutableTypePtrHelper::mapTypeToAliasTypeSet): a tensor, list, dict or
 * class object stands for itself without shape details; Any for itself; an
 * optional for its element; a union for its members'; a tuple for a tuple
 * of its members' (none when no member can alias: a tuple of ints is
 * immutable); a future for a future of its element's. A type that maps to
 * nothing cannot alias. There is one wildcard element per alias type,
 * containing the wildcards of the types it contains, so a list of tensors'
 * wildcard contains the tensor wildcard.
 *
 * What a class object contains are its attributes' types, and torch knows
 * them all; a graph shows only those it reads. A class not declared whole
 * (ta_ir_class_declare_whole), and a type the IR has no kind for, are
 * "open": what their objects may contain is unknown, so it is anything
 * (adb_open_contents). Never "no alias" without proof. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "alias/aliasdb/aliasdb_internal.h"

enum { MAX_SET = 256 };

/* Names torch prints for types AliasDb counts immutable and the IR has no
 * kind of its own for (read as TA_IR_OTHER); "number" is how torch prints
 * Scalar (NumberType) in a graph. */
static const char *const immutable_others[] = {
    "Function", "PyObject", "Quantizer", "AnyEnumType", "SymInt", "SymFloat", "SymBool", "Dimname", "number",
};

bool adb_type_open(const ta_ir_type *t)
{
    if (t->kind == TA_IR_CLASS) return !t->attrs->declared;
    if (t->kind != TA_IR_OTHER) return false;
    for (size_t i = 0; i < sizeof immutable_others / sizeof immutable_others[0]; i++)
        if (!strcmp(t->name, immutable_others[i])) return false;
    return true;
}

static ta_status ensure_tinfo(ta_aliasdb *db)
{
    uint32_t need = ir_types_count(&db->types);
    if (need <= db->cap_tinfo) return TA_OK;
    uint32_t cap = db->cap_tinfo ? db->cap_tinfo : 64;
    while (cap < need) cap *= 2;
    adb_type *n = ta_realloc(db->tinfo, cap * sizeof *n);
    if (!n) return TA_ERR_NOMEM;
    memset(n + db->cap_tinfo, 0, (cap - db->cap_tinfo) * sizeof *n);
    for (uint32_t i = db->cap_tinfo; i < cap; i++) n[i].wildcard = ADB_NONE;
    db->tinfo = n;
    db->cap_tinfo = cap;
    return TA_OK;
}

/* unshapedType: the type with every tensor's details dropped. */
static const ta_ir_type *unshaped(ta_aliasdb *db, const ta_ir_type *t)
{
    if (!t->has_detail_inside) return t;
    if (t->kind == TA_IR_TENSOR) return ir_type_simple(&db->types, TA_IR_TENSOR);
    const ta_ir_type *elems[MAX_SET];
    uint32_t n = t->nelems < MAX_SET ? t->nelems : MAX_SET;
    for (uint32_t i = 0; i < n; i++)
        if (!(elems[i] = unshaped(db, t->elems[i]))) return NULL;
    return ir_type_make(&db->types, (ta_ir_type_kind)t->kind, elems, n, t->name,
                        t->name ? strlen(t->name) : 0);
}

/* Appends the alias types of t to set (at most MAX_SET). */
static bool map_into(ta_aliasdb *db, const ta_ir_type *t, const ta_ir_type **set, uint32_t *n);

static bool push(const ta_ir_type **set, uint32_t *n, const ta_ir_type *t)
{
    if (!t) return false;
    if (*n < MAX_SET) set[(*n)++] = t;
    return true;
}

/* The one type standing for a set: itself, or the union of its members. */
static const ta_ir_type *single_of(ta_aliasdb *db, const ta_ir_type **set, uint32_t n)
{
    if (n == 1) return set[0];
    const ta_ir_type *sorted[MAX_SET];
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = 0;
        while (j < k && sorted[j]->id < set[i]->id) j++;
        if (j < k && sorted[j] == set[i]) continue;
        memmove(&sorted[j + 1], &sorted[j], (k - j) * sizeof *sorted);
        sorted[j] = set[i];
        k++;
    }
    if (k == 1) return sorted[0];
    return ir_type_make(&db->types, TA_IR_UNION, sorted, k, NULL, 0);
}

static bool map_into(ta_aliasdb *db, const ta_ir_type *t, const ta_ir_type **set, uint32_t *n)
{
    switch ((ta_ir_type_kind)t->kind) {
    case TA_IR_LIST:
    case TA_IR_DICT:
    case TA_IR_CLASS:
    case TA_IR_TENSOR: return push(set, n, unshaped(db, t));
    case TA_IR_ANY: return push(set, n, t);
    case TA_IR_OTHER: return adb_type_open(t) ? push(set, n, t) : true;
    case TA_IR_OPTIONAL: return map_into(db, t->elems[0], set, n);
    case TA_IR_UNION:
        for (uint32_t i = 0; i < t->nelems; i++)
            if (!map_into(db, t->elems[i], set, n)) return false;
        return true;
    case TA_IR_FUTURE: {
        const ta_ir_type *inner[MAX_SET];
        uint32_t k = 0;
        if (!map_into(db, t->elems[0], inner, &k)) return false;
        if (!k) return true;
        const ta_ir_type *one = single_of(db, inner, k);
        return push(set, n, one ? ir_type_make(&db->types, TA_IR_FUTURE, &one, 1, NULL, 0) : NULL);
    }
    case TA_IR_TUPLE: {
        const ta_ir_type *inner[MAX_SET];
        uint32_t k = 0;
        for (uint32_t i = 0; i < t->nelems; i++)
            if (!map_into(db, t->elems[i], inner, &k)) return false;
        if (!k) return true;
        return push(set, n, ir_type_make(&db->types, TA_IR_TUPLE, inner, k, NULL, 0));
    }
    default: return true;
    }
}

const adb_type *adb_type_info(ta_aliasdb *db, const ta_ir_type *t)
{
    if (t->id < db->cap_tinfo && db->tinfo[t->id].mapped) return &db->tinfo[t->id];
    if (ensure_tinfo(db) != TA_OK) {
        adb_nomem(db);
        return NULL;
    }
    if (db->tinfo[t->id].mapped) return &db->tinfo[t->id];
    const ta_ir_type *set[MAX_SET];
    uint32_t n = 0;
    const ta_ir_type *single = NULL;
    const ta_ir_type *const *kept = NULL;
    if (!map_into(db, t, set, &n) || (n && !(single = single_of(db, set, n)))) {
        adb_nomem(db);
        return NULL;
    }
    if (n) {
        const ta_ir_type **copy = ta_arena_alloc(db->arena, n * sizeof *copy);
        if (!copy) {
            adb_nomem(db);
            return NULL;
        }
        memcpy(copy, set, n * sizeof *copy);
        kept = copy;
    }
    /* mapping may have interned new types: the table may have moved */
    if (ensure_tinfo(db) != TA_OK) {
        adb_nomem(db);
        return NULL;
    }
    adb_type *ti = &db->tinfo[t->id];
    ti->mapped = true;
    ti->nset = n;
    ti->set = kept;
    ti->single = single;
    return ti;
}

bool adb_mutable(ta_aliasdb *db, const ta_ir_type *t)
{
    switch ((ta_ir_type_kind)t->kind) {
    case TA_IR_TENSOR:
    case TA_IR_LIST:
    case TA_IR_CLASS:
    case TA_IR_DICT: return true;
    default: {
        const adb_type *ti = adb_type_info(db, t);
        return ti && ti->nset > 0;
    }
    }
}

/* Type::containedTypes() of an alias type. */
static uint32_t contained_types(const ta_ir_type *t, const ta_ir_type *const **out)
{
    if (t->kind == TA_IR_CLASS) {
        *out = t->attrs ? t->attrs->types : NULL;
        return t->attrs ? t->attrs->n : 0;
    }
    *out = t->elems;
    return t->nelems;
}

void adb_link_contained_wildcards(ta_aliasdb *db, uint32_t e, const adb_type *ti)
{
    /* ti points into db->tinfo, which the calls below may move: copy first */
    uint32_t nset = ti->nset;
    const ta_ir_type *const *set = ti->set;
    if (nset > 1) {
        for (uint32_t i = 0; i < nset; i++) {
            uint32_t w = adb_wildcard_for(db, set[i]);
            if (w != ADB_NONE && w != e) adb_point(db, e, w);
        }
        return;
    }
    if (nset == 0) return;
    const ta_ir_type *const *cs;
    uint32_t nc = contained_types(set[0], &cs);
    for (uint32_t i = 0; i < nc; i++) {
        uint32_t w = adb_wildcard_for(db, cs[i]);
        if (w != ADB_NONE && w != e) adb_contain(db, e, w);
    }
}

uint32_t adb_wildcard_for(ta_aliasdb *db, const ta_ir_type *t)
{
    const adb_type *ti = adb_type_info(db, t);
    if (!ti || !ti->nset) return ADB_NONE;
    const ta_ir_type *key = ti->single;
    const adb_type *ki = adb_type_info(db, key);
    if (!ki) return ADB_NONE;
    if (ki->wildcard != ADB_NONE) return ki->wildcard;
    uint32_t w = adb_new_elem(db, NULL);
    if (w == ADB_NONE) return ADB_NONE;
    db->elems[w].type = key;
    db->tinfo[key->id].wildcard = w;
    if (ir_grow(db->arena, (void **)&db->wild_elems, &db->cap_wild_elems, db->nwild_elems + 1,
                sizeof *db->wild_elems) != TA_OK) {
        adb_nomem(db);
        return w;
    }
    db->wild_elems[db->nwild_elems++] = w;
    adb_link_contained_wildcards(db, w, adb_type_info(db, t));
    return w;
}

uint32_t adb_wildcard_of(const ta_aliasdb *db, const ta_ir_type *t)
{
    if (t->id >= db->cap_tinfo || !db->tinfo[t->id].mapped) return ADB_NONE;
    const adb_type *ti = &db->tinfo[t->id];
    if (!ti->nset || ti->single->id >= db->cap_tinfo) return ADB_NONE;
    return db->tinfo[ti->single->id].wildcard;
}

/* Every memory location whose type is open is marked to contain every
 * wildcard: a value can be in an object without the walk seeing it put
 * there only as a wildcard (attributes read, values set as attributes,
 * inputs, results of what is not analysed), so that is all an object of an
 * unknown make-up may hold, and any of it it may. A wildcard value needs
 * nothing of its own (its locations include its type's wildcard). The
 * closures add the wildcards (adb_closure_add) rather than edges from each
 * such location to each wildcard, which the moves' read sets would walk
 * again and again. Returns how many open types have such locations;
 * *example names one. */
uint32_t adb_open_contents(ta_aliasdb *db, const ta_ir_type **example)
{
    uint32_t nopen = 0;
    for (uint32_t e = 0; e < db->nelems; e++) {
        adb_elem *el = &db->elems[e];
        if (el->pts != ADB_NONE || (el->value && db->wild_value[el->value->id])) continue;
        const adb_type *ti = adb_type_info(db, el->type);
        if (!ti || ti->nset != 1 || !adb_type_open(ti->set[0])) continue;
        adb_type *oi = &db->tinfo[ti->set[0]->id];
        if (!oi->open_seen) {
            oi->open_seen = true;
            if (!nopen++) *example = ti->set[0];
        }
        db->elems[e].open = true;
    }
    return nopen;
}
