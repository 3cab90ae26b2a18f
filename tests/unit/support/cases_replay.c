/* cases_replay.c - see cases_replay.h. Tensors are built on the host and
 * copied to the engine's device, and results copied back, so the same code
 * serves host memory and a GPU. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "cases_replay.h"
#include "tensoralias/device.h"
#include "testdata.h"

#define CASES "refkernels/cases.jsonl"

/* ---- values: the file's spelling, and elements of any supported dtype ---- */

static DLDataType dtype_of(const char *s)
{
    static const struct {
        const char *name;
        DLDataType dt;
    } map[] = {
        {"f32", {kDLFloat, 32, 1}}, {"f64", {kDLFloat, 64, 1}}, {"i64", {kDLInt, 64, 1}},
        {"i32", {kDLInt, 32, 1}},   {"i16", {kDLInt, 16, 1}},   {"i8", {kDLInt, 8, 1}},
        {"u8", {kDLUInt, 8, 1}},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(s, map[i].name)) return map[i].dt;
    return TA_DTYPE_BOOL; /* "b" */
}

/* A JSON number, or "nan" / "inf" / "-inf". */
static double number(const json_t *v)
{
    if (!json_is_string(v)) return json_number_value(v);
    const char *s = json_string_value(v);
    if (!strcmp(s, "nan")) return NAN;
    return s[0] == '-' ? -INFINITY : INFINITY;
}

/* memcpy, not casts: a storage's bytes need not be aligned for the dtype. */
static void store(DLDataType dt, unsigned char *p, double v)
{
    size_t n = ta_dtype_size(dt);
    if (dt.code == kDLFloat && n == 4) { float f = (float)v; memcpy(p, &f, 4); }
    else if (dt.code == kDLFloat) memcpy(p, &v, 8);
    else if (dt.code == kDLInt && n == 8) { int64_t i = (int64_t)v; memcpy(p, &i, 8); }
    else if (dt.code == kDLInt && n == 4) { int32_t i = (int32_t)v; memcpy(p, &i, 4); }
    else if (dt.code == kDLInt && n == 2) { int16_t i = (int16_t)v; memcpy(p, &i, 2); }
    else if (dt.code == kDLInt) *p = (unsigned char)(int8_t)v;
    else if (dt.code == kDLUInt) *p = (unsigned char)v;
    else *p = v != 0;
}

static double load(DLDataType dt, const unsigned char *p)
{
    size_t n = ta_dtype_size(dt);
    if (dt.code == kDLFloat && n == 4) { float f; memcpy(&f, p, 4); return f; }
    if (dt.code == kDLFloat) { double d; memcpy(&d, p, 8); return d; }
    if (dt.code == kDLInt && n == 8) { int64_t i; memcpy(&i, p, 8); return (double)i; }
    if (dt.code == kDLInt && n == 4) { int32_t i; memcpy(&i, p, 4); return i; }
    if (dt.code == kDLInt && n == 2) { int16_t i; memcpy(&i, p, 2); return i; }
    if (dt.code == kDLInt) return (int8_t)*p;
    return *p; /* uint8 and bool */
}

static int list_of_ints(const json_t *a, int64_t *out, int cap)
{
    int n = (int)json_array_size(a);
    for (int i = 0; i < n && i < cap; i++) out[i] = json_integer_value(json_array_get(a, (size_t)i));
    return n;
}

/* ---- building arguments on the device ---- */

static DLTensor *make_tensor(ta_exec *ex, const json_t *j)
{
    const ta_device_ops *dev = ta_exec_device(ex);
    DLDataType dt = dtype_of(json_string_value(json_object_get(j, "dtype")));
    int64_t shape[16], strides[16];
    int nd = list_of_ints(json_object_get(j, "shape"), shape, 16);
    list_of_ints(json_object_get(j, "strides"), strides, 16);
    const json_t *storage = json_object_get(j, "storage");
    size_t n = json_array_size(storage), es = ta_dtype_size(dt);
    unsigned char *host = calloc(n ? n : 1, es);
    for (size_t i = 0; i < n; i++) store(dt, host + i * es, number(json_array_get(storage, i)));
    uint32_t sid;
    assert_int_equal(ta_exec_storage_new(ex, n * es, &sid), TA_OK);
    assert_int_not_equal(sid, 0);
    ta_storage_info si;
    assert_true(ta_exec_storage_get(ex, sid, &si));
    char err[256];
    if (n) assert_int_equal(dev->from_host(si.base, host, n * es, err, sizeof err), 0);
    free(host);
    DLTensor *t;
    assert_int_equal(ta_exec_tensor(ex, sid, dt, nd, shape, strides,
                                 (uint64_t)json_integer_value(json_object_get(j, "offset")) * es, &t), TA_OK);
    return t;
}

/* Pushes one argument ({"t": tensor} | {"tl": [tensor...]} | {"int": n} |
 * {"ints": [...]} | {"si"|"sf"|"sb": v} | {"bool": b} | {"str": s} |
 * {"none": null}); returns its tensor or NULL. */
static DLTensor *push_argument(ta_exec *ex, const json_t *a, int64_t *ints)
{
    ta_stack *st = ta_exec_stack(ex);
    const char *kind = json_object_iter_key(json_object_iter((json_t *)a));
    const json_t *v = json_object_get(a, kind);
    ta_value val = {.tag = TA_VAL_NONE};
    DLTensor *t = NULL;
    if (!strcmp(kind, "t")) {
        t = make_tensor(ex, v);
        val.tag = TA_VAL_TENSOR;
        val.u.tensor = t;
    } else if (!strcmp(kind, "tl")) {
        DLTensor *items[16];
        size_t n = json_array_size(v);
        assert_true(n <= 16);
        for (size_t i = 0; i < n; i++) items[i] = make_tensor(ex, json_array_get(v, i));
        val.tag = TA_VAL_TENSOR_LIST;
        val.u.tensors.items = items;
        val.u.tensors.n = n;
        assert_int_equal(ta_stack_push(st, val), TA_OK); /* the stack copies the items */
        return NULL;
    } else if (!strcmp(kind, "int")) {
        val.tag = TA_VAL_INT;
        val.u.i = json_integer_value(v);
    } else if (!strcmp(kind, "ints")) {
        val.tag = TA_VAL_INT_LIST;
        val.u.ints.n = (size_t)list_of_ints(v, ints, 16);
        val.u.ints.items = ints;
    } else if (!strcmp(kind, "bool")) {
        val.tag = TA_VAL_BOOL;
        val.u.b = json_is_true(v) || json_integer_value(v);
    } else if (!strcmp(kind, "str")) {
        val.tag = TA_VAL_STRING;
        val.u.s = json_string_value(v);
    } else if (!strcmp(kind, "si")) {
        val.tag = TA_VAL_SCALAR;
        val.scalar_kind = TA_SCALAR_INT;
        val.u.i = json_integer_value(v);
    } else if (!strcmp(kind, "sb")) {
        val.tag = TA_VAL_SCALAR;
        val.scalar_kind = TA_SCALAR_BOOL;
        val.u.b = json_is_true(v) || json_integer_value(v);
    } else if (!strcmp(kind, "sf")) {
        val.tag = TA_VAL_SCALAR;
        val.scalar_kind = TA_SCALAR_FLOAT;
        val.u.f = number(v);
    }
    assert_int_equal(ta_stack_push(st, val), TA_OK);
    return t;
}

/* ---- comparing a result with torch's ---- */

static bool close_to(double got, double want, DLDataType dt)
{
    if (isnan(want)) return isnan(got);
    if (isinf(want)) return got == want;
    if (dt.code != kDLFloat) return got == want;
    return fabs(got - want) <= (dt.bits == 32 ? 2e-5 : 1e-9) * (1 + fabs(want));
}

/* Whether result t agrees with torch's `want`; why not goes into why. */
static bool agrees(ta_exec *ex, const DLTensor *t, const json_t *want, DLTensor *const *args, size_t nargs,
                   bool geometry, char *why, size_t cap)
{
    if (!t) return snprintf(why, cap, "no tensor returned"), false;
    const char *wdt = json_string_value(json_object_get(want, "dtype"));
    if (!ta_dtype_eq(t->dtype, dtype_of(wdt)))
        return snprintf(why, cap, "dtype %s, torch %s", ta_dtype_name(t->dtype), wdt), false;
    int64_t shape[16], strides[16], st[64];
    int nd = list_of_ints(json_object_get(want, "shape"), shape, 16);
    list_of_ints(json_object_get(want, "strides"), strides, 16);
    if (t->ndim != nd) return snprintf(why, cap, "%d dims, torch %d", t->ndim, nd), false;
    for (int d = 0; d < nd; d++)
        if (t->shape[d] != shape[d])
            return snprintf(why, cap, "size %d is %lld, torch %lld", d, (long long)t->shape[d], (long long)shape[d]),
                   false;
    int64_t n = ta_numel(t);
    ta_strides_of(t, st);
    const json_t *vals = json_object_get(want, "values");
    if (json_is_array(vals) && n > 0) { /* null: contents unspecified (empty_like) */
        /* Fetch the bytes the result can reach and walk them in logical order. */
        uint64_t lo, hi;
        ta_tensor_byte_range(t, &lo, &hi);
        unsigned char *h = malloc(hi - lo);
        char err[256];
        assert_int_equal(ta_exec_device(ex)->to_host(h, (char *)t->data + lo, hi - lo, err, sizeof err), 0);
        size_t es = ta_dtype_size(t->dtype);
        for (int64_t i = 0; i < n; i++) {
            int64_t rest = i, off = 0;
            for (int d = nd - 1; d >= 0; d--) {
                off += (rest % t->shape[d]) * st[d];
                rest /= t->shape[d];
            }
            double got = load(t->dtype, h + (t->byte_offset - lo) + (uint64_t)(off * (int64_t)es));
            double w = number(json_array_get(vals, (size_t)i));
            if (!close_to(got, w, t->dtype)) {
                free(h);
                return snprintf(why, cap, "element %lld is %.9g, torch %.9g", (long long)i, got, w), false;
            }
        }
        free(h);
    }
    if (geometry && n > 0) {
        for (int d = 0; d < nd; d++)
            if (shape[d] > 1 && st[d] != strides[d])
                return snprintf(why, cap, "stride %d is %lld, torch %lld", d, (long long)st[d], (long long)strides[d]),
                       false;
        long long off = (long long)(t->byte_offset / ta_dtype_size(t->dtype));
        if (off != json_integer_value(json_object_get(want, "offset")))
            return snprintf(why, cap, "offset %lld, torch %lld", off,
                            (long long)json_integer_value(json_object_get(want, "offset"))), false;
    }
    const json_t *same = json_object_get(want, "same_as"), *shares = json_object_get(want, "shares");
    if (same) {
        size_t k = (size_t)json_integer_value(same);
        if (k < nargs && args[k] && t != args[k]) return snprintf(why, cap, "not argument %zu itself", k), false;
    } else if (n > 0) {
        for (size_t k = 0; k < nargs; k++) {
            if (!args[k]) continue;
            bool mine = ta_exec_storage_of(ex, t) == ta_exec_storage_of(ex, args[k]);
            bool torch = shares && (size_t)json_integer_value(shares) == k;
            if (mine != torch)
                return snprintf(why, cap, "%s storage with argument %zu", mine ? "shares" : "does not share", k), false;
        }
    }
    return true;
}

/* Replays case c with fn; why gets the disagreement, if any. */
static void replay(ta_replay *r, const json_t *c, ta_kernel_fn fn, void *ud, char *why, size_t cap)
{
    ta_exec_reset(r->ex);
    const json_t *args = json_object_get(c, "args");
    size_t nargs = json_array_size(args);
    DLTensor *targs[32] = {NULL};
    int64_t ints[32][16];
    assert_true(nargs <= 32);
    for (size_t i = 0; i < nargs; i++) targs[i] = push_argument(r->ex, json_array_get(args, i), ints[i]);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_status s = ta_exec_call(r->ex, fn, ud, d);
    ta_stack *st = ta_exec_stack(r->ex);
    const json_t *list = json_object_get(c, "list"), *rets = json_object_get(c, "returns");
    bool geometry = json_is_true(json_object_get(c, "geometry"));
    if (json_object_get(c, "error")) {
        if (s != TA_ERR_KERNEL)
            snprintf(why, cap, "succeeded; torch raised '%s'", json_string_value(json_object_get(c, "error")));
    } else if (s != TA_OK) {
        size_t n = ta_diags_count(d);
        snprintf(why, cap, "failed: %s", n ? ta_diags_get(d, n - 1)->message : "");
    } else if (list) {
        ta_value *v = ta_stack_at(st, 0);
        if (ta_stack_size(st) != 1 || v->tag != TA_VAL_TENSOR_LIST || v->u.tensors.n != json_array_size(list))
            snprintf(why, cap, "not a list of %zu tensors", json_array_size(list));
        for (size_t k = 0; !why[0] && k < json_array_size(list); k++)
            agrees(r->ex, v->u.tensors.items[k], json_array_get(list, k), targs, nargs, geometry, why, cap);
    } else if (ta_stack_size(st) != json_array_size(rets)) {
        snprintf(why, cap, "%zu returns, torch %zu", ta_stack_size(st), json_array_size(rets));
    } else {
        for (size_t k = 0; !why[0] && k < json_array_size(rets); k++)
            agrees(r->ex, ta_stack_tensor(st, k), json_array_get(rets, k), targs, nargs, geometry, why, cap);
    }
    ta_diags_destroy(d);
}

void ta_replay_cases(ta_replay *r)
{
    size_t ncases = 0;
    json_t **cases = ta_test_read_jsonl(CASES, &ncases);
    if (!cases) fail_msg("cannot read %s under %s/data (run make)", CASES, ta_test_build_dir());
    r->seen = r->ran = r->bad = 0;
    for (size_t i = 0; i < ncases; i++) {
        const json_t *c = cases[i];
        r->seen++;
        const char *op = json_string_value(json_object_get(c, "op"));
        const ta_registry_op *rop = ta_registry_find(r->reg, op);
        void *ud = NULL;
        ta_kernel_fn fn = rop ? r->kernel(rop, &ud) : NULL;
        if (!fn && r->skip_missing) continue;
        r->ran++;
        char why[256] = "";
        if (fn) replay(r, c, fn, ud, why, sizeof why);
        else snprintf(why, sizeof why, "no kernel");
        if (why[0]) {
            if (r->bad < r->show) fprintf(stderr, "case %zu %s: %s\n", i, op, why);
            r->bad++;
        }
    }
    ta_test_free_jsonl(cases, ncases);
}
