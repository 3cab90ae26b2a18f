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

static DLTensor *build_tensor(json_t *o, ta_exec *x, bool fill, char *why, size_t cap)
{
    int64_t shape[TA_CASE_MAX_DIM], strides[TA_CASE_MAX_DIM];
    int nd = 0, ns = -1;
    DLDataType dt = TA_DTYPE_F32;
    json_t *v;
    if ((v = json_object_get(o, "shape")) && (nd = int_array(v, shape, TA_CASE_MAX_DIM)) < 0) {
        snprintf(why, cap, "bad shape");
        return NULL;
    }
    if ((v = json_object_get(o, "strides")) && (ns = int_array(v, strides, TA_CASE_MAX_DIM)) != nd) {
        snprintf(why, cap, "strides must have one entry per dimension");
        return NULL;
    }
    if ((v = json_object_get(o, "dtype")) && (!json_is_string(v) || !parse_dtype(json_string_value(v), &dt))) {
        snprintf(why, cap, "unknown dtype");
        return NULL;
    }
    int64_t off = json_integer_value(json_object_get(o, "offset"));
    size_t es = ta_dtype_size(dt);
    /* Sizes a verification case can afford, and no arithmetic overflow below. */
    enum { LIMIT = 1 << 24 };
    int64_t total = 1;
    for (int d = 0; d < nd; d++) {
        if (shape[d] < 0 || shape[d] > LIMIT || (ns >= 0 && (strides[d] < 0 || strides[d] > LIMIT))) {
            snprintf(why, cap, "sizes and strides must lie in [0, %d]", LIMIT);
            return NULL;
        }
        total *= shape[d] ? shape[d] : 1;
        if (total > LIMIT) {
            snprintf(why, cap, "more than %d elements", LIMIT);
            return NULL;
        }
    }
    if (off < 0 || off > LIMIT) {
        snprintf(why, cap, "offset must lie in [0, %d]", LIMIT);
        return NULL;
    }
    /* Storage large enough for the view. */
    int64_t hi = off + 1, n = 1;
    for (int d = 0; d < nd; d++) {
        if (shape[d] < 0) {
            snprintf(why, cap, "negative size");
            return NULL;
        }
        n *= shape[d];
    }
    if (ns < 0) {
        hi = off + n;
    } else {
        for (int d = 0; d < nd; d++)
            if (shape[d] > 0) hi += (shape[d] - 1) * (strides[d] < 0 ? 0 : strides[d]);
        if (n == 0) hi = off;
    }
    if (hi > 4 * (int64_t)LIMIT) {
        snprintf(why, cap, "the strides reach past %d elements", 4 * LIMIT);
        return NULL;
    }
    uint32_t sid = ta_exec_storage_new(x, (size_t)(hi > 0 ? hi : 0) * es);
    DLTensor *t = sid ? ta_exec_tensor(x, sid, dt, nd, shape, ns < 0 ? NULL : strides, (uint64_t)off * es) : NULL;
    if (!t) {
        snprintf(why, cap, "the geometry does not fit");
        return NULL;
    }
    ta_storage_info si;
    ta_exec_storage_get(x, sid, &si);
    unsigned char *host = ta_malloc(si.bytes ? si.bytes : 1);
    if (!host) return NULL;
    memset(host, fill ? TA_FILL_BYTE : 0, si.bytes);
    json_t *vals = json_object_get(o, "values");
    if (vals && !fill) {
        DLTensor h = *t;
        h.data = host;
        for (int64_t i = 0; i < n; i++) {
            json_t *e = json_array_get(vals, (size_t)i % (json_array_size(vals) ? json_array_size(vals) : 1));
            store(dt, ta_elem_ptr(&h, i), json_is_number(e) ? json_number_value(e) : json_is_true(e));
        }
    }
    char err[128];
    int rc = si.bytes ? x->dev->from_host(si.base, host, si.bytes, err, sizeof err) : 0;
    free(host);
    return rc == 0 ? t : NULL;
}

typedef struct build_ctx {
    json_t *sample;
    char why[200];
} build_ctx;

static ta_status override(void *ud, int argi, ta_exec *x, const ta_decl *d, ta_case *c)
{
    build_ctx *b = ud;
    const ta_decl_slot *a = &d->args[argi];
    json_t *v = json_object_get(b->sample, a->name);
    if (!v) return TA_ERR_NOTFOUND;
    ta_value val = {.tag = TA_VAL_NONE};
    if (json_is_null(v)) return ta_case_push(c, x, val);
    switch (a->type) {
    case TA_DT_TENSOR: {
        DLTensor *t = json_is_object(v) ? build_tensor(v, x, a->is_out, b->why, sizeof b->why) : NULL;
        if (!t) {
            if (!b->why[0]) snprintf(b->why, sizeof b->why, "argument '%s': a tensor is an object", a->name);
            return TA_ERR_INVALID;
        }
        val.tag = TA_VAL_TENSOR;
        val.u.tensor = t;
        ta_status s = ta_case_push(c, x, val);
        return s == TA_OK ? ta_case_add_slot(c, x, argi, -1, t, a->is_out) : s;
    }
    case TA_DT_TENSOR_LIST: {
        DLTensor *items[16];
        size_t n = json_array_size(v);
        if (!json_is_array(v) || n > 16) return TA_ERR_INVALID;
        for (size_t i = 0; i < n; i++) {
            json_t *e = json_array_get(v, i);
            items[i] = json_is_null(e) ? NULL : build_tensor(e, x, a->is_out, b->why, sizeof b->why);
            if (!json_is_null(e) && !items[i]) return TA_ERR_INVALID;
        }
        val.tag = TA_VAL_TENSOR_LIST;
        val.u.tensors.items = items;
        val.u.tensors.n = n;
        ta_status s = ta_case_push(c, x, val);
        for (size_t i = 0; s == TA_OK && i < n; i++)
            if (items[i]) s = ta_case_add_slot(c, x, argi, (int)i, items[i], a->is_out);
        return s;
    }
    case TA_DT_INT_LIST: {
        int64_t items[64];
        int n = int_array(v, items, 64);
        if (n < 0) return TA_ERR_INVALID;
        val.tag = TA_VAL_INT_LIST;
        val.u.ints.items = items;
        val.u.ints.n = (size_t)n;
        return ta_case_push(c, x, val);
    }
    case TA_DT_SCALAR:
        val.tag = TA_VAL_SCALAR;
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
        return ta_case_push(c, x, val);
    case TA_DT_FLOAT:
        val.tag = TA_VAL_FLOAT;
        val.u.f = json_number_value(v);
        return ta_case_push(c, x, val);
    case TA_DT_BOOL:
        val.tag = TA_VAL_BOOL;
        val.u.b = json_is_true(v);
        return ta_case_push(c, x, val);
    case TA_DT_STRING:
    case TA_DT_DEVICE:
        val.tag = TA_VAL_STRING;
        val.u.s = json_is_string(v) ? json_string_value(v) : "";
        return ta_case_push(c, x, val);
    case TA_DT_SCALAR_TYPE:
        val.tag = TA_VAL_INT;
        if (json_is_string(v)) {
            DLDataType dt;
            if (!parse_dtype(json_string_value(v), &dt)) return TA_ERR_INVALID;
            val.u.i = ta_scalar_type_of(dt);
        } else {
            val.u.i = json_integer_value(v);
        }
        return ta_case_push(c, x, val);
    default:
        val.tag = json_is_boolean(v) ? TA_VAL_BOOL : TA_VAL_INT;
        if (val.tag == TA_VAL_BOOL) val.u.b = json_is_true(v);
        else val.u.i = json_integer_value(v);
        return ta_case_push(c, x, val);
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
