/* samples_build.c - a verification case from one sample of a samples file.
 *
 * Storages come first. Every tensor object of the sample, taken in schema
 * argument order (list items in order), lies on a storage: its own, or the
 * one its "storage" names, which the sample's other tensors naming it share
 * (views of one another). A storage is as large as the furthest byte any
 * of its views reaches, or its storage_bytes when that is more. Its bytes:
 *   - TA_FILL_BYTE throughout when every tensor on it is an out= argument
 *     and none carries values (what the synthesizer gives out= arguments);
 *   - otherwise generated values: storage number k (0, 1, ... in order of
 *     first appearance) holds floor(bytes / size) elements of its first
 *     tensor's dtype, element j drawn from u = ta_mix64(s0 + j) with
 *     s0 = ta_mix64(seed ^ (k + 1) * 0x9e3779b97f4a7c15), seed the first
 *     tensor's "seed" (0 by default), as
 *       floating dtypes: lo + (hi - lo) * (u % 33) / 32.0   (in double)
 *       integer dtypes:  lo + u % (hi - lo + 1)             (bool: that != 0)
 *     with [lo, hi] its "range", by default [-4, 4] ([0, 8] for uint8,
 *     [0, 1] for bool); remaining bytes are 0;
 * then each tensor's "values" are written through its view, in order.
 * tools/torch/samplelib.py builds samples the same way in torch, and the
 * OpInfo export keeps only samples that ran there as built: keep the two
 * in step.
 *
 * Arguments the sample leaves out are synthesized; a sample argument the
 * schema does not have, or a value of the wrong kind, fails the case. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/synth/element.h"
#include "exec/synth/samples.h"
#include "base/alloc.h"

/* One storage of the sample. */
typedef struct store {
    bool named;
    int64_t id;
    int64_t bytes;
    bool fill; /* only out= tensors without values lie on it */
    DLDataType dtype; /* its first tensor's: generation */
    bool has_range;
    double lo, hi;
    int64_t seed;
    uint32_t sid;        /* 0 until allocated */
    unsigned char *host; /* its bytes, uploaded once the case is built */
} store;

typedef struct builder {
    json_t *sample;
    store stores[TA_CASE_MAX_SLOTS];
    int nstores;
    int tensor_store[TA_CASE_MAX_SLOTS]; /* each tensor object's storage, in build order */
    int ntensors, next;
    char why[200];
} builder;

static ta_status unfit(builder *b, const char *fmt, const char *arg, const char *detail)
    __attribute__((format(printf, 2, 0)));
static ta_status unfit(builder *b, const char *fmt, const char *arg, const char *detail)
{
    snprintf(b->why, sizeof b->why, fmt, arg, detail);
    return TA_ERR_INVALID;
}

/* ---- element values ----------------------------------------------------- */

static void put_json(DLDataType dt, void *p, json_t *v)
{
    double f = 0;
    if (json_is_integer(v)) ta_elem_put_int(dt, p, json_integer_value(v));
    else if (json_is_boolean(v)) ta_elem_put_int(dt, p, json_is_true(v));
    else if (json_is_real(v)) ta_elem_put_double(dt, p, json_real_value(v));
    else if (ta_sample_nonfinite(v, &f)) ta_elem_put_double(dt, p, f);
}

static void default_range(DLDataType dt, double *lo, double *hi)
{
    *lo = dt.code == kDLUInt || dt.code == TA_DL_BOOL ? 0 : -4;
    *hi = dt.code == kDLUInt ? 8 : dt.code == TA_DL_BOOL ? 1 : 4;
}

static void generate(const store *st, int ordinal)
{
    size_t es = ta_dtype_size(st->dtype);
    int64_t n = st->bytes / (int64_t)es;
    double lo, hi;
    default_range(st->dtype, &lo, &hi);
    if (st->has_range) lo = st->lo, hi = st->hi;
    uint64_t s0 = ta_mix64((uint64_t)st->seed ^ ((uint64_t)(ordinal + 1) * 0x9e3779b97f4a7c15ull));
    bool floating = st->dtype.code == kDLFloat || st->dtype.code == kDLBfloat;
    uint64_t width = (uint64_t)((int64_t)hi - (int64_t)lo) + 1;
    for (int64_t j = 0; j < n; j++) {
        uint64_t u = ta_mix64(s0 + (uint64_t)j);
        void *p = st->host + j * (int64_t)es;
        if (floating) ta_elem_put_double(st->dtype, p, lo + (hi - lo) * (double)(u % 33) / 32.0);
        else ta_elem_put_int(st->dtype, p, (int64_t)lo + (int64_t)(u % width));
    }
}

/* ---- planning the storages --------------------------------------------- */

static const ta_decl_slot *arg_named(const ta_decl *d, const char *name)
{
    for (int i = 0; i < d->nargs; i++)
        if (!strcmp(d->args[i].name, name)) return &d->args[i];
    return NULL;
}

static int store_for(builder *b, const ta_sample_tensor *t)
{
    if (t->has_storage)
        for (int i = 0; i < b->nstores; i++)
            if (b->stores[i].named && b->stores[i].id == t->storage) return i;
    store *st = &b->stores[b->nstores];
    memset(st, 0, sizeof *st);
    st->named = t->has_storage;
    st->id = t->storage;
    st->fill = true;
    st->dtype = t->dtype;
    st->has_range = t->has_range;
    st->lo = t->lo;
    st->hi = t->hi;
    st->seed = t->seed;
    return b->nstores++;
}

static ta_status plan_tensor(builder *b, const ta_decl_slot *a, json_t *o)
{
    ta_sample_tensor t;
    if (!ta_sample_tensor_read(o, &t, b->why, sizeof b->why)) return TA_ERR_INVALID;
    if (b->ntensors >= TA_CASE_MAX_SLOTS) return unfit(b, "argument '%s': %s", a->name, "too many tensors");
    int i = store_for(b, &t);
    store *st = &b->stores[i];
    int64_t need = ta_sample_view_bytes(&t);
    if (need > st->bytes) st->bytes = need;
    if (t.storage_bytes > st->bytes) st->bytes = t.storage_bytes;
    st->fill = st->fill && a->is_out && !t.values;
    b->tensor_store[b->ntensors++] = i;
    return TA_OK;
}

/* Every sample argument is one of the schema's; tensors planned in the
 * order the case will build them. */
static ta_status plan(builder *b, const ta_decl *d)
{
    const char *key;
    json_t *v;
    json_object_foreach(b->sample, key, v) {
        if (!arg_named(d, key)) return unfit(b, "the sample's argument '%s' %s", key, "is not in the schema");
    }
    for (int i = 0; i < d->nargs; i++) {
        const ta_decl_slot *a = &d->args[i];
        json_t *val = json_object_get(b->sample, a->name);
        ta_status st = TA_OK;
        if (a->type == TA_DT_TENSOR && json_is_object(val)) {
            st = plan_tensor(b, a, val);
        } else if (a->type == TA_DT_TENSOR_LIST && json_is_array(val)) {
            size_t k;
            json_t *e;
            json_array_foreach(val, k, e) if (st == TA_OK && json_is_object(e)) st = plan_tensor(b, a, e);
        }
        if (st != TA_OK) return st;
    }
    /* Each view is bounded on its own; so is what they add up to, or a list
     * of views with huge strides would make gigabytes to snapshot. */
    int64_t total = 0;
    for (int i = 0; i < b->nstores; i++) total += b->stores[i].bytes;
    if (total > TA_SAMPLE_MAX_CASE_BYTES) {
        snprintf(b->why, sizeof b->why,
                 "the sample's storages take %lld bytes, more than the %d a case may span",
                 (long long)total, TA_SAMPLE_MAX_CASE_BYTES);
        return TA_ERR_INVALID;
    }
    return TA_OK;
}

static ta_status allocate(store *st, ta_exec *x, int ordinal)
{
    if (st->sid) return TA_OK;
    if (!st->host) {
        if (!(st->host = ta_malloc(st->bytes ? (size_t)st->bytes : 1))) return TA_ERR_NOMEM;
        memset(st->host, st->fill ? TA_FILL_BYTE : 0, (size_t)st->bytes);
        if (!st->fill) generate(st, ordinal);
    }
    return ta_exec_storage_new(x, (size_t)st->bytes, &st->sid);
}

/* ---- arguments ---------------------------------------------------------- */

static const char *kind_of(json_t *v)
{
    return json_is_object(v) ? "a tensor" : json_is_array(v) ? "a list" : json_is_string(v) ? "a string"
         : json_is_boolean(v) ? "a boolean" : json_is_number(v) ? "a number" : "null";
}

/* The next planned tensor, on its storage, values written (into the host
 * copy). Its storage holds every view planned on it, so a failure to make
 * it is a failure to allocate. */
static ta_status make_tensor(builder *b, ta_exec *x, json_t *o, DLTensor **out, bool *fill)
{
    ta_sample_tensor t;
    if (b->next >= b->ntensors || !ta_sample_tensor_read(o, &t, b->why, sizeof b->why)) return TA_ERR_INVALID;
    int i = b->tensor_store[b->next++];
    store *st = &b->stores[i];
    DLTensor *dl;
    if (allocate(st, x, i) != TA_OK ||
        ta_exec_tensor(x, st->sid, t.dtype, t.ndim, t.shape, t.has_strides ? t.strides : NULL,
                       (uint64_t)t.offset * ta_dtype_size(t.dtype), &dl) != TA_OK) {
        snprintf(b->why, sizeof b->why, "out of memory");
        return TA_ERR_NOMEM;
    }
    *fill = st->fill;
    size_t nv = t.values ? json_array_size(t.values) : 0;
    if (nv) {
        DLTensor h = *dl;
        h.data = st->host;
        int64_t n = ta_numel(dl);
        for (int64_t e = 0; e < n; e++)
            put_json(t.dtype, ta_elem_ptr(&h, e), json_array_get(t.values, (size_t)e % nv));
    }
    *out = dl;
    return TA_OK;
}

static ta_status tensor_arg(builder *b, int argi, ta_exec *x, const ta_decl_slot *a, json_t *v, ta_case *c)
{
    if (!json_is_object(v)) return unfit(b, "argument '%s' is a tensor; the sample gives %s", a->name, kind_of(v));
    bool fill = false;
    DLTensor *t = NULL;
    ta_status s = make_tensor(b, x, v, &t, &fill);
    if (s != TA_OK) return s;
    s = ta_case_push(c, x, (ta_value){.tag = TA_VAL_TENSOR, .u.tensor = t});
    return s == TA_OK ? ta_case_add_slot(c, x, argi, -1, t, fill) : s;
}

static ta_status tensor_list_arg(builder *b, int argi, ta_exec *x, const ta_decl_slot *a, json_t *v,
                                 ta_case *c)
{
    DLTensor *items[TA_SAMPLE_MAX_LIST];
    bool fill[TA_SAMPLE_MAX_LIST] = {false};
    size_t n = json_array_size(v);
    if (!json_is_array(v) || n > TA_SAMPLE_MAX_LIST)
        return unfit(b, "argument '%s' is a tensor list; the sample gives %s", a->name, kind_of(v));
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(v, i);
        if (json_is_null(e)) {
            items[i] = NULL;
            continue;
        }
        if (!json_is_object(e))
            return unfit(b, "argument '%s' is a tensor list; an item is %s", a->name, kind_of(e));
        ta_status s = make_tensor(b, x, e, &items[i], &fill[i]);
        if (s != TA_OK) return s;
    }
    ta_value val = {.tag = TA_VAL_TENSOR_LIST};
    val.u.tensors.items = items;
    val.u.tensors.n = n;
    ta_status s = ta_case_push(c, x, val);
    for (size_t i = 0; s == TA_OK && i < n; i++)
        if (items[i]) s = ta_case_add_slot(c, x, argi, (int)i, items[i], fill[i]);
    return s;
}

static bool number(json_t *v, double *out)
{
    if (json_is_number(v)) *out = json_number_value(v);
    else if (!ta_sample_nonfinite(v, out)) return false;
    return true;
}

static ta_status list_arg(builder *b, ta_exec *x, const ta_decl_slot *a, json_t *v, ta_case *c)
{
    int64_t ints[TA_SAMPLE_MAX_INTS];
    double floats[TA_SAMPLE_MAX_INTS];
    bool bools[TA_SAMPLE_MAX_INTS];
    size_t n = json_array_size(v);
    if (!json_is_array(v) || n > TA_SAMPLE_MAX_INTS)
        return unfit(b, "argument '%s' is a list; the sample gives %s", a->name, kind_of(v));
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(v, i);
        bool ok = a->type == TA_DT_INT_LIST    ? json_is_integer(e)
                  : a->type == TA_DT_BOOL_LIST ? json_is_boolean(e)
                                               : number(e, &floats[i]);
        if (!ok) return unfit(b, "argument '%s': a list item is %s", a->name, kind_of(e));
        if (a->type == TA_DT_INT_LIST) ints[i] = json_integer_value(e);
        if (a->type == TA_DT_BOOL_LIST) bools[i] = json_is_true(e);
    }
    ta_value val = {.tag = a->type == TA_DT_INT_LIST ? TA_VAL_INT_LIST
                          : a->type == TA_DT_BOOL_LIST ? TA_VAL_BOOL_LIST : TA_VAL_FLOAT_LIST};
    if (a->type == TA_DT_INT_LIST) val.u.ints.items = ints, val.u.ints.n = n;
    else if (a->type == TA_DT_BOOL_LIST) val.u.bools.items = bools, val.u.bools.n = n;
    else val.u.floats.items = floats, val.u.floats.n = n;
    return ta_case_push(c, x, val);
}

/* A sample's Scalar: a JSON integer, boolean or number (NaN, inf and -0.0
 * as number() reads them), as a ta_scalar; false for anything else. */
static bool scalar_of(json_t *v, ta_scalar *out)
{
    if (json_is_integer(v)) {
        out->kind = TA_SCALAR_INT;
        out->u.i = json_integer_value(v);
    } else if (json_is_boolean(v)) {
        out->kind = TA_SCALAR_BOOL;
        out->u.b = json_is_true(v);
    } else if (number(v, &out->u.f)) {
        out->kind = TA_SCALAR_FLOAT;
    } else {
        return false;
    }
    return true;
}

static ta_status scalar_arg(builder *b, ta_exec *x, const ta_decl_slot *a, json_t *v, ta_case *c)
{
    ta_scalar sc;
    if (!scalar_of(v, &sc))
        return unfit(b, "argument '%s' is a Scalar; the sample gives %s", a->name, kind_of(v));
    ta_value val = {.tag = TA_VAL_SCALAR, .scalar_kind = sc.kind};
    if (sc.kind == TA_SCALAR_INT) val.u.i = sc.u.i;
    else if (sc.kind == TA_SCALAR_BOOL) val.u.b = sc.u.b;
    else val.u.f = sc.u.f;
    return ta_case_push(c, x, val);
}

/* Scalar[]: an array of numbers and booleans, each item of its own kind. */
static ta_status scalar_list_arg(builder *b, ta_exec *x, const ta_decl_slot *a, json_t *v, ta_case *c)
{
    ta_scalar items[TA_SAMPLE_MAX_INTS];
    size_t n = json_array_size(v);
    if (!json_is_array(v) || n > TA_SAMPLE_MAX_INTS)
        return unfit(b, "argument '%s' is a list; the sample gives %s", a->name, kind_of(v));
    for (size_t i = 0; i < n; i++)
        if (!scalar_of(json_array_get(v, i), &items[i]))
            return unfit(b, "argument '%s': a list item is %s", a->name, kind_of(json_array_get(v, i)));
    ta_value val = {.tag = TA_VAL_SCALAR_LIST};
    val.u.scalars.items = items;
    val.u.scalars.n = n;
    return ta_case_push(c, x, val);
}

/* Dimname: a string; Dimname[]: an array of strings. */
static ta_status dimname_arg(builder *b, ta_exec *x, const ta_decl_slot *a, json_t *v, ta_case *c)
{
    const char *items[TA_SAMPLE_MAX_INTS];
    ta_value val = {.tag = TA_VAL_DIMNAME};
    if (a->type == TA_DT_DIMNAME) {
        if (!json_is_string(v)) return unfit(b, "argument '%s' is a Dimname; the sample gives %s", a->name, kind_of(v));
        val.u.s = json_string_value(v);
        return ta_case_push(c, x, val);
    }
    size_t n = json_array_size(v);
    if (!json_is_array(v) || n > TA_SAMPLE_MAX_INTS)
        return unfit(b, "argument '%s' is a list; the sample gives %s", a->name, kind_of(v));
    for (size_t i = 0; i < n; i++)
        if (!(items[i] = json_string_value(json_array_get(v, i))))
            return unfit(b, "argument '%s': a list item is %s", a->name, kind_of(json_array_get(v, i)));
    val.tag = TA_VAL_DIMNAME_LIST;
    val.u.names.items = items;
    val.u.names.n = n;
    return ta_case_push(c, x, val);
}

static ta_status scalar_type_arg(builder *b, ta_exec *x, const ta_decl_slot *a, json_t *v, ta_case *c)
{
    ta_value val = {.tag = TA_VAL_INT};
    DLDataType dt;
    if (json_is_string(v) && ta_sample_dtype(json_string_value(v), &dt)) val.u.i = ta_scalar_type_of(dt);
    else if (json_is_integer(v)) val.u.i = json_integer_value(v);
    else return unfit(b, "argument '%s' is a ScalarType; the sample gives %s", a->name, kind_of(v));
    return ta_case_push(c, x, val);
}

/* int, SymInt, Layout, MemoryFormat: integers. */
static ta_status plain_arg(builder *b, ta_exec *x, const ta_decl_slot *a, json_t *v, ta_case *c)
{
    ta_value val = {.tag = TA_VAL_NONE};
    switch (a->type) {
    case TA_DT_FLOAT:
        val.tag = TA_VAL_FLOAT;
        if (!number(v, &val.u.f)) return unfit(b, "argument '%s' is a float; the sample gives %s", a->name, kind_of(v));
        break;
    case TA_DT_BOOL:
        val.tag = TA_VAL_BOOL;
        if (!json_is_boolean(v)) return unfit(b, "argument '%s' is a bool; the sample gives %s", a->name, kind_of(v));
        val.u.b = json_is_true(v);
        break;
    case TA_DT_STRING:
    case TA_DT_DEVICE:
        val.tag = TA_VAL_STRING;
        if (!json_is_string(v)) return unfit(b, "argument '%s' is a string; the sample gives %s", a->name, kind_of(v));
        val.u.s = json_string_value(v);
        break;
    case TA_DT_INT:
    case TA_DT_LAYOUT:
    case TA_DT_MEMORY_FORMAT:
        val.tag = TA_VAL_INT;
        if (!json_is_integer(v)) return unfit(b, "argument '%s' is an integer; the sample gives %s", a->name, kind_of(v));
        val.u.i = json_integer_value(v);
        break;
    default:
        return unfit(b, "argument '%s': %s", a->name, "only None can be given for this type");
    }
    return ta_case_push(c, x, val);
}

static ta_status override(void *ud, int argi, ta_exec *x, const ta_decl *d, ta_case *c)
{
    builder *b = ud;
    const ta_decl_slot *a = &d->args[argi];
    json_t *v = json_object_get(b->sample, a->name);
    if (!v) return TA_ERR_NOTFOUND;
    if (json_is_null(v)) return ta_case_push(c, x, (ta_value){.tag = TA_VAL_NONE});
    switch (a->type) {
    case TA_DT_TENSOR: return tensor_arg(b, argi, x, a, v, c);
    case TA_DT_TENSOR_LIST: return tensor_list_arg(b, argi, x, a, v, c);
    case TA_DT_INT_LIST:
    case TA_DT_FLOAT_LIST:
    case TA_DT_BOOL_LIST: return list_arg(b, x, a, v, c);
    case TA_DT_SCALAR: return scalar_arg(b, x, a, v, c);
    case TA_DT_SCALAR_LIST: return scalar_list_arg(b, x, a, v, c);
    case TA_DT_DIMNAME:
    case TA_DT_DIMNAME_LIST: return dimname_arg(b, x, a, v, c);
    case TA_DT_SCALAR_TYPE: return scalar_type_arg(b, x, a, v, c);
    default: return plain_arg(b, x, a, v, c);
    }
}

/* ---- the case ----------------------------------------------------------- */

static ta_status upload(builder *b, ta_exec *x)
{
    for (int i = 0; i < b->nstores; i++) {
        store *st = &b->stores[i];
        ta_storage_info si;
        char err[256];
        if (!st->sid || !st->bytes) continue;
        if (!ta_exec_storage_get(x, st->sid, &si) ||
            x->dev->from_host(si.base, st->host, (size_t)st->bytes, err, sizeof err) != 0) {
            snprintf(b->why, sizeof b->why, "cannot write a storage: %.150s", err);
            return TA_ERR_IO;
        }
    }
    return TA_OK;
}

ta_status ta_samples_build(const ta_samples *sm, const char *op, size_t k, ta_exec *x, const ta_schema *s,
                           const ta_decl *d, ta_case *c)
{
    builder *b = ta_calloc(1, sizeof *b);
    if (!b) return TA_ERR_NOMEM;
    ta_status st = TA_ERR_NOTFOUND;
    c->nargs = c->nslots = 0;
    c->found = NULL;
    c->note[0] = '\0';
    if ((b->sample = ta_samples_get(sm, op, k)) && (st = plan(b, d)) == TA_OK &&
        (st = ta_synth_case_with(x, s, d, 0x5a5a0000u + k, c, override, b)) == TA_OK)
        st = upload(b, x);
    if (st != TA_OK && b->why[0]) snprintf(c->note, sizeof c->note, "%s", b->why);
    for (int i = 0; i < b->nstores; i++) free(b->stores[i].host);
    json_decref(b->sample);
    free(b);
    return st;
}
