/* samples.c - exact arguments per operator from a JSON file (jansson):
 *   {"aten::add.Tensor": [{"self": {"shape": [2, 3], "dtype": "float32"}, "alpha": 2}]}
 * Tensors are objects (shape, dtype, values, strides, offset in elements);
 * other arguments plain JSON values; missing arguments are synthesized. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "schema/alloc.h"
#include "exec/samples.h"

struct ta_samples {
    json_t *root; /* object: op name -> array of objects */
};

static ta_status take_root(json_t *root, const char *path, ta_samples **out, ta_diags *diags);

/* libjansson's error, at its position in the file. */
static ta_status json_error(ta_diags *diags, const char *path, const json_error_t *e)
{
    ta_loc at = {path, (uint32_t)(e->line > 0 ? e->line : 0), (uint32_t)(e->column > 0 ? e->column : 0),
                 0, NULL, 0};
    ta_status st = ta_diag_error(diags, &at, "samples", "%s", e->text);
    return st == TA_OK ? TA_ERR_PARSE : st;
}

ta_status ta_samples_load(const char *path, ta_samples **out, ta_diags *diags)
{
    json_error_t e;
    json_t *root = json_load_file(path, 0, &e);
    if (!root) return json_error(diags, path, &e);
    return take_root(root, path, out, diags);
}

ta_status ta_samples_load_buffer(const char *text, size_t len, const char *source,
                                 ta_samples **out, ta_diags *diags)
{
    json_error_t e;
    const char *path = source ? source : "<samples>";
    json_t *root = json_loadb(text, len, 0, &e);
    if (!root) return json_error(diags, path, &e);
    return take_root(root, path, out, diags);
}

static ta_status take_root(json_t *root, const char *path, ta_samples **out, ta_diags *diags)
{
    const char *key;
    json_t *v;
    if (!json_is_object(root)) goto bad;
    json_object_foreach(root, key, v) {
        if (!json_is_array(v)) goto bad;
        size_t i;
        json_t *item;
        json_array_foreach(v, i, item) if (!json_is_object(item)) goto bad;
    }
    *out = ta_calloc(1, sizeof **out);
    if (!*out) {
        json_decref(root);
        return TA_ERR_NOMEM;
    }
    (*out)->root = root;
    return TA_OK;
bad:
    json_decref(root);
    ta_loc at = {.file = path};
    ta_status st = ta_diag_error(diags, &at, "samples",
                                 "a samples file is an object mapping operator names to arrays "
                                 "of objects (argument name -> value)");
    return st == TA_OK ? TA_ERR_PARSE : st;
}

void ta_samples_destroy(ta_samples *s)
{
    if (!s) return;
    json_decref(s->root);
    free(s);
}

size_t ta_samples_count(const ta_samples *s, const char *op)
{
    json_t *a = s ? json_object_get(s->root, op) : NULL;
    return a ? json_array_size(a) : 0;
}

static bool parse_dtype(const char *s, DLDataType *dt)
{
    static const struct { const char *n; DLDataType dt; } tab[] = {
        {"float32", {kDLFloat, 32, 1}}, {"float", {kDLFloat, 32, 1}},
        {"float64", {kDLFloat, 64, 1}}, {"double", {kDLFloat, 64, 1}},
        {"int64", {kDLInt, 64, 1}},     {"long", {kDLInt, 64, 1}},
        {"int32", {kDLInt, 32, 1}},     {"int", {kDLInt, 32, 1}},
        {"bool", {TA_DL_BOOL, 8, 1}},
    };
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
        if (!strcmp(s, tab[i].n)) {
            *dt = tab[i].dt;
            return true;
        }
    return false;
}

static int int_array(json_t *a, int64_t *out, int cap)
{
    if (!json_is_array(a) || (int)json_array_size(a) > cap) return -1;
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) {
        if (!json_is_integer(v)) return -1;
        out[i] = json_integer_value(v);
    }
    return (int)json_array_size(a);
}

static void store(DLDataType dt, void *p, double v)
{
    if (dt.code == kDLFloat && dt.bits == 32) *(float *)p = (float)v;
    else if (dt.code == kDLFloat) *(double *)p = v;
    else if (dt.code == TA_DL_BOOL) *(uint8_t *)p = v != 0;
    else if (dt.bits == 64) *(int64_t *)p = (int64_t)v;
    else *(int32_t *)p = (int32_t)v;
}

/* A sample tensor's geometry, as the JSON gives it (elements, not bytes). */
typedef struct geometry {
    int64_t shape[TA_CASE_MAX_DIM], strides[TA_CASE_MAX_DIM];
    int nd, ns; /* ns: -1 when no strides were given (contiguous) */
    DLDataType dt;
    int64_t off;
} geometry;

/* Sizes a verification case can afford, and no arithmetic overflow below. */
enum { LIMIT = 1 << 24 };

/* Reads shape, strides, dtype and offset; false with why. */
static bool read_geometry(json_t *o, geometry *g, char *why, size_t cap)
{
    json_t *v;
    g->nd = 0;
    g->ns = -1;
    g->dt = TA_DTYPE_F32;
    if ((v = json_object_get(o, "shape")) && (g->nd = int_array(v, g->shape, TA_CASE_MAX_DIM)) < 0)
        return snprintf(why, cap, "bad shape"), false;
    if ((v = json_object_get(o, "strides")) &&
        (g->ns = int_array(v, g->strides, TA_CASE_MAX_DIM)) != g->nd)
        return snprintf(why, cap, "strides must have one entry per dimension"), false;
    if ((v = json_object_get(o, "dtype")) &&
        (!json_is_string(v) || !parse_dtype(json_string_value(v), &g->dt)))
        return snprintf(why, cap, "unknown dtype"), false;
    g->off = json_integer_value(json_object_get(o, "offset"));
    return true;
}

/* Checks the geometry against LIMIT; *n gets the element count and *hi the
 * storage (in elements) the view reaches. false with why. */
static bool geometry_fits(const geometry *g, int64_t *n, int64_t *hi, char *why, size_t cap)
{
    int64_t total = 1;
    *n = 1;
    for (int d = 0; d < g->nd; d++) {
        if (g->shape[d] < 0 || g->shape[d] > LIMIT ||
            (g->ns >= 0 && (g->strides[d] < 0 || g->strides[d] > LIMIT)))
            return snprintf(why, cap, "sizes and strides must lie in [0, %d]", LIMIT), false;
        total *= g->shape[d] ? g->shape[d] : 1;
        if (total > LIMIT) return snprintf(why, cap, "more than %d elements", LIMIT), false;
        *n *= g->shape[d];
    }
    if (g->off < 0 || g->off > LIMIT)
        return snprintf(why, cap, "offset must lie in [0, %d]", LIMIT), false;
    *hi = g->off + 1;
    if (g->ns < 0) {
        *hi = g->off + *n;
    } else {
        for (int d = 0; d < g->nd; d++)
            if (g->shape[d] > 0) *hi += (g->shape[d] - 1) * g->strides[d];
        if (*n == 0) *hi = g->off;
    }
    if (*hi > 4 * (int64_t)LIMIT)
        return snprintf(why, cap, "the strides reach past %d elements", 4 * LIMIT), false;
    return true;
}

/* Writes t's n elements: the marker byte everywhere (fill: an out=
 * argument), or the sample's values (repeated as needed; zeros without). */
static bool upload_values(json_t *o, ta_exec *x, DLTensor *t, uint32_t sid, int64_t n, bool fill)
{
    ta_storage_info si;
    ta_exec_storage_get(x, sid, &si);
    unsigned char *host = ta_malloc(si.bytes ? si.bytes : 1);
    if (!host) return false;
    memset(host, fill ? TA_FILL_BYTE : 0, si.bytes);
    json_t *vals = json_object_get(o, "values");
    if (vals && !fill) {
        DLTensor h = *t;
        h.data = host;
        size_t nv = json_array_size(vals) ? json_array_size(vals) : 1;
        for (int64_t i = 0; i < n; i++) {
            json_t *e = json_array_get(vals, (size_t)i % nv);
            store(t->dtype, ta_elem_ptr(&h, i), json_is_number(e) ? json_number_value(e) : json_is_true(e));
        }
    }
    char err[128];
    int rc = si.bytes ? x->dev->from_host(si.base, host, si.bytes, err, sizeof err) : 0;
    free(host);
    return rc == 0;
}

/* A tensor from its JSON object, on its own storage. */
static DLTensor *build_tensor(json_t *o, ta_exec *x, bool fill, char *why, size_t cap)
{
    geometry g;
    int64_t n, hi;
    if (!read_geometry(o, &g, why, cap) || !geometry_fits(&g, &n, &hi, why, cap)) return NULL;
    size_t es = ta_dtype_size(g.dt);
    uint32_t sid = ta_exec_storage_new(x, (size_t)(hi > 0 ? hi : 0) * es);
    DLTensor *t = sid ? ta_exec_tensor(x, sid, g.dt, g.nd, g.shape, g.ns < 0 ? NULL : g.strides,
                                       (uint64_t)g.off * es)
                      : NULL;
    if (!t) {
        snprintf(why, cap, "the geometry does not fit");
        return NULL;
    }
    return upload_values(o, x, t, sid, n, fill) ? t : NULL;
}

typedef struct build_ctx {
    json_t *sample;
    char why[200];
} build_ctx;

static ta_status sample_tensor(build_ctx *b, json_t *v, int argi, const ta_decl_slot *a, ta_exec *x,
                               ta_case *c)
{
    DLTensor *t = json_is_object(v) ? build_tensor(v, x, a->is_out, b->why, sizeof b->why) : NULL;
    if (!t) {
        if (!b->why[0]) snprintf(b->why, sizeof b->why, "argument '%s': a tensor is an object", a->name);
        return TA_ERR_INVALID;
    }
    ta_value val = {.tag = TA_VAL_TENSOR};
    val.u.tensor = t;
    ta_status s = ta_case_push(c, x, val);
    return s == TA_OK ? ta_case_add_slot(c, x, argi, -1, t, a->is_out) : s;
}

static ta_status sample_tensor_list(build_ctx *b, json_t *v, int argi, const ta_decl_slot *a,
                                    ta_exec *x, ta_case *c)
{
    DLTensor *items[16];
    size_t n = json_array_size(v);
    if (!json_is_array(v) || n > 16) return TA_ERR_INVALID;
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(v, i);
        items[i] = json_is_null(e) ? NULL : build_tensor(e, x, a->is_out, b->why, sizeof b->why);
        if (!json_is_null(e) && !items[i]) return TA_ERR_INVALID;
    }
    ta_value val = {.tag = TA_VAL_TENSOR_LIST};
    val.u.tensors.items = items;
    val.u.tensors.n = n;
    ta_status s = ta_case_push(c, x, val);
    for (size_t i = 0; s == TA_OK && i < n; i++)
        if (items[i]) s = ta_case_add_slot(c, x, argi, (int)i, items[i], a->is_out);
    return s;
}

static ta_status sample_int_list(json_t *v, ta_exec *x, ta_case *c)
{
    int64_t items[64];
    int n = int_array(v, items, 64);
    if (n < 0) return TA_ERR_INVALID;
    ta_value val = {.tag = TA_VAL_INT_LIST};
    val.u.ints.items = items;
    val.u.ints.n = (size_t)n;
    return ta_case_push(c, x, val);
}

/* A Scalar: an int, a bool or a float as JSON has it. */
static ta_value sample_scalar(json_t *v)
{
    ta_value val = {.tag = TA_VAL_SCALAR};
    if (json_is_integer(v)) {
        val.scalar_kind = TA_SCALAR_INT;
        val.u.i = json_integer_value(v);
    } else if (json_is_boolean(v)) {
        val.scalar_kind = TA_SCALAR_BOOL;
        val.u.b = json_is_true(v);
    } else {
        val.scalar_kind = TA_SCALAR_FLOAT;
        val.u.f = json_number_value(v);
    }
    return val;
}

/* A ScalarType: a dtype name ("float32") or c10's number. */
static ta_status sample_scalar_type(json_t *v, ta_exec *x, ta_case *c)
{
    ta_value val = {.tag = TA_VAL_INT};
    DLDataType dt;
    if (!json_is_string(v)) val.u.i = json_integer_value(v);
    else if (parse_dtype(json_string_value(v), &dt)) val.u.i = ta_scalar_type_of(dt);
    else return TA_ERR_INVALID;
    return ta_case_push(c, x, val);
}

/* The value of a float, bool, string or any other argument. */
static ta_value sample_plain(json_t *v, ta_decl_type type)
{
    ta_value val = {.tag = TA_VAL_NONE};
    switch (type) {
    case TA_DT_FLOAT:
        val.tag = TA_VAL_FLOAT;
        val.u.f = json_number_value(v);
        break;
    case TA_DT_BOOL:
        val.tag = TA_VAL_BOOL;
        val.u.b = json_is_true(v);
        break;
    case TA_DT_STRING:
    case TA_DT_DEVICE:
        val.tag = TA_VAL_STRING;
        val.u.s = json_is_string(v) ? json_string_value(v) : "";
        break;
    default:
        val.tag = json_is_boolean(v) ? TA_VAL_BOOL : TA_VAL_INT;
        if (val.tag == TA_VAL_BOOL) val.u.b = json_is_true(v);
        else val.u.i = json_integer_value(v);
    }
    return val;
}

/* ta_synth_override: the sample's value of argument argi, when it has one. */
static ta_status override(void *ud, int argi, ta_exec *x, const ta_decl *d, ta_case *c)
{
    build_ctx *b = ud;
    const ta_decl_slot *a = &d->args[argi];
    json_t *v = json_object_get(b->sample, a->name);
    if (!v) return TA_ERR_NOTFOUND;
    if (json_is_null(v)) return ta_case_push(c, x, (ta_value){.tag = TA_VAL_NONE});
    switch (a->type) {
    case TA_DT_TENSOR: return sample_tensor(b, v, argi, a, x, c);
    case TA_DT_TENSOR_LIST: return sample_tensor_list(b, v, argi, a, x, c);
    case TA_DT_INT_LIST: return sample_int_list(v, x, c);
    case TA_DT_SCALAR: return ta_case_push(c, x, sample_scalar(v));
    case TA_DT_SCALAR_TYPE: return sample_scalar_type(v, x, c);
    default: return ta_case_push(c, x, sample_plain(v, a->type));
    }
}

ta_status ta_samples_build(const ta_samples *sm, const char *op, size_t k, ta_exec *x,
                           const ta_schema *s, const ta_decl *d, ta_case *c)
{
    build_ctx b = {.sample = json_array_get(json_object_get(sm->root, op), k)};
    if (!b.sample) return TA_ERR_NOTFOUND;
    ta_status st = ta_synth_case_with(x, s, d, 0x5a5a0000u + k, c, override, &b);
    if (st != TA_OK && b.why[0]) snprintf(c->note, sizeof c->note, "%s", b.why);
    return st;
}
