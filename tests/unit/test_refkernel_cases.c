/* test_refkernel_cases.c - differential replay of the CPU reference kernels
 * against PyTorch: every case in build/data/refkernels/cases.jsonl (made by
 * tools/refkernel_cases.py with torch 1.13; see tests/data/README.md) gives an
 * operator, its arguments (tensors with their exact storage, strides and
 * offset) and what torch did: raised, or returned tensors of some dtype, shape
 * and values, for views also strides, offset and which input's storage they
 * share, and for out=/in-place which argument they are. The kernels must agree. */
#include <dlfcn.h>
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

#include "tensoralias/exec.h"

static ta_registry *REG;
static ta_exec *X;
static void *HANDLE;

static DLDataType dtype_of(const char *s)
{
    if (!strcmp(s, "f32")) return TA_DTYPE_F32;
    if (!strcmp(s, "f64")) return TA_DTYPE_F64;
    if (!strcmp(s, "i64")) return TA_DTYPE_I64;
    if (!strcmp(s, "i32")) return TA_DTYPE_I32;
    if (!strcmp(s, "i16")) return (DLDataType){kDLInt, 16, 1};
    if (!strcmp(s, "i8")) return (DLDataType){kDLInt, 8, 1};
    if (!strcmp(s, "u8")) return (DLDataType){kDLUInt, 8, 1};
    return TA_DTYPE_BOOL;
}

static double jnum(const json_t *v)
{
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        return !strcmp(s, "nan") ? NAN : !strcmp(s, "inf") ? INFINITY : -INFINITY;
    }
    return json_number_value(v);
}

static double get(const DLTensor *t, int64_t i)
{
    const void *p = ta_elem_ptr(t, i);
    DLDataType dt = t->dtype;
    if (dt.code == kDLFloat && dt.bits == 32) return *(const float *)p;
    if (dt.code == kDLFloat) return *(const double *)p;
    if (dt.code == kDLInt && dt.bits == 64) return (double)*(const int64_t *)p;
    if (dt.code == kDLInt && dt.bits == 32) return *(const int32_t *)p;
    if (dt.code == kDLInt && dt.bits == 16) return *(const int16_t *)p;
    if (dt.code == kDLInt && dt.bits == 8) return *(const int8_t *)p;
    return *(const uint8_t *)p; /* uint8 and bool */
}

static void put(DLDataType dt, void *p, double v)
{
    if (dt.code == kDLFloat && dt.bits == 32) *(float *)p = (float)v;
    else if (dt.code == kDLFloat) *(double *)p = v;
    else if (dt.code == kDLInt && dt.bits == 64) *(int64_t *)p = (int64_t)v;
    else if (dt.code == kDLInt && dt.bits == 32) *(int32_t *)p = (int32_t)v;
    else if (dt.code == kDLInt && dt.bits == 16) *(int16_t *)p = (int16_t)v;
    else if (dt.code == kDLInt) *(int8_t *)p = (int8_t)v;
    else if (dt.code == kDLUInt) *(uint8_t *)p = (uint8_t)v;
    else *(uint8_t *)p = v != 0;
}

static int64_t ints_of(const json_t *a, int64_t *out)
{
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) out[i] = json_integer_value(v);
    return (int64_t)json_array_size(a);
}

static DLTensor *tensor_of(const json_t *j)
{
    DLDataType dt = dtype_of(json_string_value(json_object_get(j, "dtype")));
    int64_t shape[16], strides[16];
    int nd = (int)ints_of(json_object_get(j, "shape"), shape);
    ints_of(json_object_get(j, "strides"), strides);
    const json_t *stor = json_object_get(j, "storage");
    size_t n = json_array_size(stor), es = ta_dtype_size(dt);
    uint32_t sid = ta_exec_storage_new(X, n * es);
    assert_int_not_equal(sid, 0);
    ta_storage_info si;
    assert_true(ta_exec_storage_get(X, sid, &si));
    for (size_t i = 0; i < n; i++) put(dt, (char *)si.base + i * es, jnum(json_array_get(stor, i)));
    DLTensor *t = ta_exec_tensor(X, sid, dt, nd, shape, strides,
                                 (uint64_t)json_integer_value(json_object_get(j, "offset")) * es);
    assert_non_null(t);
    return t;
}

/* Pushes one encoded argument; returns its tensor (or NULL). */
static DLTensor *push_arg(const json_t *a, int64_t *ibuf)
{
    ta_stack *st = ta_exec_stack(X);
    const char *k = json_object_iter_key(json_object_iter((json_t *)a));
    const json_t *v = json_object_get(a, k);
    ta_value val = {.tag = TA_VAL_NONE};
    DLTensor *t = NULL;
    if (!strcmp(k, "t")) {
        t = tensor_of(v);
        val.tag = TA_VAL_TENSOR;
        val.u.tensor = t;
    } else if (!strcmp(k, "tl")) {
        DLTensor *items[16];
        size_t n = json_array_size(v);
        for (size_t i = 0; i < n; i++) items[i] = tensor_of(json_array_get(v, i));
        val.tag = TA_VAL_TENSOR_LIST;
        val.u.tensors.items = items;
        val.u.tensors.n = n;
        assert_int_equal(ta_stack_push(st, val), TA_OK); /* the stack copies the items */
        return NULL;
    } else if (!strcmp(k, "int")) {
        val.tag = TA_VAL_INT;
        val.u.i = json_integer_value(v);
    } else if (!strcmp(k, "ints")) {
        val.tag = TA_VAL_INT_LIST;
        val.u.ints.n = (size_t)ints_of(v, ibuf);
        val.u.ints.items = ibuf;
    } else if (!strcmp(k, "bool")) {
        val.tag = TA_VAL_BOOL;
        val.u.b = json_is_true(v) || json_integer_value(v);
    } else if (!strcmp(k, "str")) {
        val.tag = TA_VAL_STRING;
        val.u.s = json_string_value(v);
    } else if (!strcmp(k, "si") || !strcmp(k, "sb")) {
        val.tag = TA_VAL_SCALAR;
        val.scalar_kind = k[1] == 'i' ? TA_SCALAR_INT : TA_SCALAR_BOOL;
        if (k[1] == 'i') val.u.i = json_integer_value(v);
        else val.u.b = json_is_true(v) || json_integer_value(v);
    } else if (!strcmp(k, "sf")) {
        val.tag = TA_VAL_SCALAR;
        val.scalar_kind = TA_SCALAR_FLOAT;
        val.u.f = jnum(v);
    }
    assert_int_equal(ta_stack_push(st, val), TA_OK);
    return t;
}

static bool close_enough(double got, double want, DLDataType dt)
{
    if (isnan(want)) return isnan(got);
    if (isinf(want)) return got == want;
    double tol = dt.code == kDLFloat ? (dt.bits == 32 ? 2e-5 : 1e-9) * (1 + fabs(want)) : 0;
    return fabs(got - want) <= tol;
}

/* Compares one result with torch's; writes why not into why. */
static bool same_result(const DLTensor *t, const json_t *e, DLTensor *const *args, size_t nargs, bool geometry,
                        char *why, size_t cap)
{
    if (!t) return snprintf(why, cap, "no tensor returned"), false;
    if (!ta_dtype_eq(t->dtype, dtype_of(json_string_value(json_object_get(e, "dtype")))))
        return snprintf(why, cap, "dtype %s, torch %s", ta_dtype_name(t->dtype),
                        json_string_value(json_object_get(e, "dtype"))), false;
    int64_t shape[16], strides[16], mine[64];
    int nd = (int)ints_of(json_object_get(e, "shape"), shape);
    ints_of(json_object_get(e, "strides"), strides);
    if (t->ndim != nd) return snprintf(why, cap, "ndim %d, torch %d", t->ndim, nd), false;
    for (int d = 0; d < nd; d++)
        if (t->shape[d] != shape[d]) return snprintf(why, cap, "size[%d] %lld, torch %lld", d,
                                                     (long long)t->shape[d], (long long)shape[d]), false;
    int64_t n = ta_numel(t);
    const json_t *vals = json_object_get(e, "values");
    for (int64_t i = 0; json_is_array(vals) && i < n; i++) { /* null: contents unspecified (empty_like) */
        double want = jnum(json_array_get(vals, (size_t)i)), got = get(t, i);
        if (!close_enough(got, want, t->dtype))
            return snprintf(why, cap, "element %lld: %.9g, torch %.9g", (long long)i, got, want), false;
    }
    if (geometry && n > 0) {
        ta_strides_of(t, mine);
        for (int d = 0; d < nd; d++)
            if (shape[d] > 1 && mine[d] != strides[d])
                return snprintf(why, cap, "stride[%d] %lld, torch %lld", d, (long long)mine[d],
                                (long long)strides[d]), false;
        int64_t off = (int64_t)(t->byte_offset / ta_dtype_size(t->dtype));
        if (off != json_integer_value(json_object_get(e, "offset")))
            return snprintf(why, cap, "offset %lld, torch %lld", (long long)off,
                            (long long)json_integer_value(json_object_get(e, "offset"))), false;
    }
    const json_t *same = json_object_get(e, "same_as"), *shares = json_object_get(e, "shares");
    if (same && (size_t)json_integer_value(same) < nargs && args[json_integer_value(same)] &&
        t != args[json_integer_value(same)])
        return snprintf(why, cap, "not argument %lld itself", (long long)json_integer_value(same)), false;
    if (n > 0 && !same) {
        for (size_t i = 0; i < nargs; i++) {
            if (!args[i]) continue;
            bool ours = ta_exec_storage_of(X, t) == ta_exec_storage_of(X, args[i]);
            bool theirs = shares && (size_t)json_integer_value(shares) == i;
            if (ours != theirs)
                return snprintf(why, cap, "%s storage with argument %zu", ours ? "shares" : "does not share", i),
                       false;
        }
    }
    return true;
}

static void test_cases(void **state)
{
    (void)state;
    const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
    char path[512];
    snprintf(path, sizeof path, "%s/data/refkernels/cases.jsonl", build);
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot open %s", path);
    char *line = NULL;
    size_t cap = 0;
    int ncase = 0, bad = 0;
    while (getline(&line, &cap, f) > 0) {
        json_error_t err;
        json_t *c = json_loads(line, 0, &err);
        if (!c) fail_msg("case %d: %s", ncase, err.text);
        ncase++;
        ta_exec_reset(X);
        const char *op = json_string_value(json_object_get(c, "op"));
        const json_t *args = json_object_get(c, "args");
        DLTensor *targs[32] = {NULL};
        int64_t ibufs[32][16];
        size_t nargs = json_array_size(args);
        for (size_t i = 0; i < nargs; i++) targs[i] = push_arg(json_array_get(args, i), ibufs[i]);
        const ta_registry_op *rop = ta_registry_find(REG, op);
        void *ud = NULL;
        ta_kernel_fn fn = rop ? ta_registry_kernel_for(rop, kDLCPU, &ud) : NULL;
        char why[256] = "";
        if (!fn) {
            snprintf(why, sizeof why, "no kernel");
        } else {
            ta_status s = ta_exec_call(X, fn, ud);
            ta_stack *st = ta_exec_stack(X);
            const json_t *list = json_object_get(c, "list"), *rets = json_object_get(c, "returns");
            bool geometry = json_is_true(json_object_get(c, "geometry"));
            if (json_object_get(c, "error")) {
                if (s != TA_ERR_KERNEL) snprintf(why, sizeof why, "succeeded; torch raised '%s'",
                                                 json_string_value(json_object_get(c, "error")));
            } else if (s != TA_OK) {
                snprintf(why, sizeof why, "failed: %s", ta_exec_error(X));
            } else if (list) {
                ta_value *v = ta_stack_at(st, 0);
                if (ta_stack_size(st) != 1 || v->tag != TA_VAL_TENSOR_LIST || v->u.tensors.n != json_array_size(list))
                    snprintf(why, sizeof why, "not a list of %zu tensors", json_array_size(list));
                for (size_t k = 0; !why[0] && k < json_array_size(list); k++)
                    if (!same_result(v->u.tensors.items[k], json_array_get(list, k), targs, nargs, geometry, why,
                                     sizeof why))
                        break;
            } else {
                if (ta_stack_size(st) != json_array_size(rets))
                    snprintf(why, sizeof why, "%zu returns, torch %zu", ta_stack_size(st), json_array_size(rets));
                for (size_t k = 0; !why[0] && k < json_array_size(rets); k++)
                    if (!same_result(ta_stack_tensor(st, k), json_array_get(rets, k), targs, nargs, geometry, why,
                                     sizeof why))
                        break;
            }
        }
        if (why[0]) {
            if (bad < 40) fprintf(stderr, "case %d %s: %s\n", ncase - 1, op, why);
            bad++;
        }
        json_decref(c);
    }
    free(line);
    fclose(f);
    fprintf(stderr, "%d cases, %d disagree with torch\n", ncase, bad);
    assert_true(ncase > 500);
    assert_int_equal(bad, 0);
}

static int setup(void **state)
{
    (void)state;
    const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
    char path[512];
    snprintf(path, sizeof path, "%s/libtensoralias_refkernels.so", build);
    HANDLE = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!HANDLE) return fprintf(stderr, "cannot load %s: %s\n", path, dlerror()), -1;
    void *sym = dlsym(HANDLE, TA_PLUGIN_ENTRY);
    if (!sym) return -1;
    ta_plugin_register_fn entry;
    memcpy(&entry, &sym, sizeof entry);
    REG = ta_registry_create();
    if (entry(REG, TA_KERNEL_ABI_VERSION) != TA_OK) return -1;
    X = ta_exec_create(NULL);
    return X ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ta_exec_destroy(X);
    ta_registry_destroy(REG);
    dlclose(HANDLE);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_cases)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
