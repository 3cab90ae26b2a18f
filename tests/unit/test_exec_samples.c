/* test_exec_samples.c - samples files: loading (structure checked, errors at
 * the sample's line and column), building cases (storages shared between
 * views, sized by their views or storage_bytes, filled with generated values
 * byte for byte as tools/torch/samplelib.py makes them in torch, values
 * written through strided views, out= storages filled with the marker), the
 * arguments of every kind, samples that do not fit their schema, and
 * --case-seed naming a sample. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "exec/synth/samples.h"
#include "support/testdata.h"
#include "tensoralias/exec.h"

/* A schema, a case context and a loaded samples text for op. */
typedef struct env {
    ta_arena *arena;
    ta_exec *x;
    ta_decl *decl;
    ta_schema *schema;
    ta_samples *sm;
    ta_case *c;
    ta_diags *diags;
} env;

static void env_open(env *e, const char *schema, const char *text)
{
    memset(e, 0, sizeof *e);
    assert_int_equal(ta_arena_create(&e->arena), TA_OK);
    assert_int_equal(ta_exec_create(NULL, &e->x), TA_OK);
    e->c = calloc(1, sizeof *e->c);
    assert_int_equal(ta_diags_create(&e->diags), TA_OK);
    assert_non_null(e->c);
    assert_int_equal(ta_schema_parse(e->arena, schema, strlen(schema), NULL, &e->schema, e->diags), TA_OK);
    assert_int_equal(ta_decl_build(e->arena, e->schema, &e->decl), TA_OK);
    ta_status st = ta_samples_load_buffer(text, strlen(text), "t.json", &e->sm, e->diags);
    if (st != TA_OK) ta_diag_render(ta_diags_get(e->diags, 0), stderr);
    assert_int_equal(st, TA_OK);
}

static void env_close(env *e)
{
    ta_samples_destroy(e->sm);
    ta_exec_destroy(e->x);
    ta_arena_destroy(e->arena);
    ta_diags_destroy(e->diags);
    free(e->c);
}

static ta_status build(env *e, const char *op, size_t k)
{
    ta_exec_reset(e->x);
    return ta_samples_build(e->sm, op, k, e->x, e->schema, e->decl, e->c);
}

static const ta_case_slot *slot_of(const env *e, const char *arg, int item)
{
    for (int i = 0; i < e->c->nslots; i++)
        if (!strcmp(e->decl->args[e->c->slots[i].arg].name, arg) && e->c->slots[i].item == item)
            return &e->c->slots[i];
    fail_msg("no slot for %s[%d]", arg, item);
    return NULL;
}

static void hex_of(const unsigned char *p, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", p[i]);
    out[2 * n] = '\0';
}

/* ---- byte for byte against torch --------------------------------------- */

static void check_tensor(env *e, const ta_case_slot *sl, json_t *want, int *group_of_storage, int nstorages)
{
    const DLTensor *t = sl->t;
    json_t *shape = json_object_get(want, "shape"), *strides = json_object_get(want, "strides");
    assert_int_equal(t->ndim, (int)json_array_size(shape));
    int64_t st[TA_CASE_MAX_DIM];
    ta_strides_of(t, st);
    for (int d = 0; d < t->ndim; d++) {
        assert_int_equal(t->shape[d], json_integer_value(json_array_get(shape, (size_t)d)));
        assert_int_equal(st[d], json_integer_value(json_array_get(strides, (size_t)d)));
    }
    assert_int_equal(t->byte_offset / ta_dtype_size(t->dtype), json_integer_value(json_object_get(want, "offset")));
    ta_storage_info si;
    assert_true(ta_exec_storage_get(e->x, sl->storage, &si));
    const char *bytes = json_string_value(json_object_get(want, "bytes"));
    char *have = malloc(2 * si.bytes + 1);
    assert_non_null(have);
    hex_of(si.base, si.bytes, have);
    if (strcmp(have, bytes)) fail_msg("%s: storage bytes\n  torch  %s\n  engine %s", json_string_value(json_object_get(want, "arg")), bytes, have);
    free(have);
    /* Shared storages: the same storage exactly where torch shares one. */
    int g = (int)json_integer_value(json_object_get(want, "storage"));
    assert_true(g < nstorages);
    if (group_of_storage[g] == 0) group_of_storage[g] = (int)sl->storage;
    assert_int_equal(group_of_storage[g], (int)sl->storage);
}

static void test_bytes_match_torch(void **state)
{
    (void)state;
    size_t n = 0;
    json_t **rows = ta_test_read_jsonl("opinfo/crosscheck.jsonl", &n);
    assert_non_null(rows);
    assert_true(n >= 6);
    for (size_t r = 0; r < n; r++) {
        const char *op = json_string_value(json_object_get(rows[r], "op"));
        json_t *file = json_pack("{s:[O]}", op, json_object_get(rows[r], "sample"));
        char *text = json_dumps(file, 0);
        env e;
        env_open(&e, json_string_value(json_object_get(rows[r], "schema")), text);
        assert_int_equal(build(&e, op, 0), TA_OK);
        json_t *tensors = json_object_get(rows[r], "tensors");
        assert_int_equal(e.c->nslots, (int)json_array_size(tensors));
        int groups[TA_CASE_MAX_SLOTS] = {0};
        size_t i;
        json_t *want;
        json_array_foreach(tensors, i, want) {
            const ta_case_slot *sl = slot_of(&e, json_string_value(json_object_get(want, "arg")),
                                             (int)json_integer_value(json_object_get(want, "item")));
            check_tensor(&e, sl, want, groups, TA_CASE_MAX_SLOTS);
        }
        /* Distinct groups are distinct storages. */
        for (int a = 0; a < TA_CASE_MAX_SLOTS; a++)
            for (int b = a + 1; b < TA_CASE_MAX_SLOTS; b++)
                if (groups[a] && groups[b]) assert_int_not_equal(groups[a], groups[b]);
        env_close(&e);
        free(text);
        json_decref(file);
    }
    ta_test_free_jsonl(rows, n);
}

/* ---- loading ------------------------------------------------------------ */

typedef struct bad_file {
    const char *text;
    uint32_t line, col;
    const char *message; /* a part of it */
} bad_file;

static const bad_file BAD[] = {
    {"[1]", 1, 1, "expected '{'"},
    {"{\"x\": 1}", 1, 7, "expected '[' opening the samples"},
    {"{\"op\": [1]}", 1, 9, "sample 0 of 'op': a sample is an object"},
    {"{\"op\": [{}, {\"self\": {\"shape\": [2, -1]}}]}", 1, 13,
     "sample 1 of 'op': argument 'self': shape: an array of at most 8 sizes"},
    {"{\"op\": [\n  {},\n  {\"self\": {\"shape\": [2], \"strides\": [1, 1]}}]}", 3, 3,
     "argument 'self': strides: one stride in [0, 2^24] per dimension"},
    {"{\"op\": [{\"self\": {\"dtype\": \"complex64\"}}]}", 1, 9, "dtype: one of float32"},
    {"{\"op\": [{\"self\": {\"dtype\": \"int64\", \"values\": [1, 2.5]}}]}", 1, 9,
     "values: an array of integers for an integer dtype"},
    {"{\"op\": [{\"self\": {\"values\": [1, \"many\"]}}]}", 1, 9, "values: an array of numbers"},
    {"{\"op\": [{\"self\": {\"range\": [2, 1]}}]}", 1, 9, "range: [lo, hi]"},
    {"{\"op\": [{\"self\": {\"dtype\": \"int32\", \"range\": [0, 1.5]}}]}", 1, 9, "range: [lo, hi]"},
    {"{\"op\": [{\"self\": {\"storage\": \"a\"}}]}", 1, 9, "storage: an integer"},
    {"{\"op\": [{\"self\": {\"offset\": 16777217}}]}", 1, 9, "offset: an integer in [0, 2^24]"},
    {"{\"op\": [{\"self\": {\"shape\": [4096, 4096, 2]}}]}", 1, 9, "more than 2^24 elements"},
    {"{\"op\": [{\"self\": {\"shape\": [3], \"strides\": [16777216]}, \"x\": 1}]}", 1, 9, "past 2^27 bytes"},
    {"{\"op\": [{\"l\": [{\"shape\": []}, 3]}]}", 1, 9, "tensors or plain values, not both"},
    {"{\"op\": [{\"l\": [[1]]}]}", 1, 9, "a list of lists"},
    {"{\"op\": [{\"l\": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,"
     "31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,"
     "64,65]}]}", 1, 9, "more than 64 values"},
    {"{\"op\": [{}],\n \"op\": []}", 2, 2, "operator 'op' is given twice"},
    {"{\"op\": [{\"a\": 1, \"a\": 2}]}", 1, 20, "duplicate object key"},
    {"{\"op\": [{}]\n\n  {", 3, 3, "expected ',' or '}'"},
    {"{\"op\": [{}]} x", 1, 14, "expected the end of the file"},
    {"{\"op\": [{},\n {\"self\": {\"shape\": [1,}}]}", 2, 24, "unexpected token"},
    {"", 1, 1, "expected '{'"},
};

static void test_load_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        ta_diags *d;
        assert_int_equal(ta_diags_create(&d), TA_OK);
        ta_samples *sm = (ta_samples *)1;
        assert_int_equal(ta_samples_load_buffer(BAD[i].text, strlen(BAD[i].text), "bad.json", &sm, d), TA_ERR_PARSE);
        assert_null(sm);
        assert_int_equal(ta_diags_count_severity(d, TA_SEV_ERROR), 1);
        const ta_diag *g = ta_diags_get(d, ta_diags_count(d) - 1);
        if (!strstr(g->message, BAD[i].message) || g->line != BAD[i].line || g->col != BAD[i].col)
            fail_msg("case %zu: %u:%u %s (want %u:%u ... %s)", i, g->line, g->col, g->message, BAD[i].line,
                     BAD[i].col, BAD[i].message);
        assert_string_equal(g->source, "bad.json");
        assert_string_equal(g->rule, "samples");
        assert_non_null(g->source_line);
        ta_diags_destroy(d);
    }
}

static void test_load_and_count(void **state)
{
    (void)state;
    const char *text = "{\"aten::a\": [{}, {\"x\": {\"shape\": [1], \"colour\": 1}}],\n \"aten::b\": [], \"\": [{}]}";
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_samples *sm = NULL;
    assert_int_equal(ta_samples_load_buffer(text, strlen(text), NULL, &sm, d), TA_OK);
    assert_int_equal(ta_samples_count(sm, "aten::a"), 2);
    assert_int_equal(ta_samples_count(sm, "aten::b"), 0);
    assert_int_equal(ta_samples_count(sm, ""), 1);
    assert_int_equal(ta_samples_count(sm, "aten::c"), 0);
    assert_int_equal(ta_samples_count(NULL, "aten::a"), 0);
    /* An unknown key in a tensor is a warning: older files stay valid. */
    assert_int_equal(ta_diags_count(d), 1);
    const ta_diag *g = ta_diags_get(d, 0);
    assert_int_equal(g->severity, TA_SEV_WARNING);
    assert_non_null(strstr(g->message, "unknown key 'colour'"));
    assert_string_equal(g->source, "<samples>");
    assert_true(ta_samples_strict(sm));
    ta_samples_set_strict(sm, false);
    assert_false(ta_samples_strict(sm));
    ta_samples_destroy(sm);
    ta_samples_destroy(NULL);
    /* From a file; a missing one is an I/O error. */
    sm = NULL;
    assert_int_equal(ta_samples_load("/nonexistent/samples.json", &sm, d), TA_ERR_IO);
    assert_null(sm);
    ta_diags_destroy(d);
}

/* ---- building ----------------------------------------------------------- */

#define SCHEMA_ALL                                                                                  \
    "mylib::f(Tensor self, Tensor? other, int[] size, int dim, Scalar alpha, float eps, bool flag, " \
    "str mode, ScalarType? dtype, Tensor[] list, Tensor?[] indices, float[] scales, bool[3] mask, "   \
    "MemoryFormat? memory_format=None, *, Tensor(a!) out) -> Tensor(a!)"

static void test_every_kind_of_argument(void **state)
{
    (void)state;
    const char *text =
        "{\"mylib::f\": [{\"self\": {\"shape\": [2, 3], \"dtype\": \"float64\", \"strides\": [1, 2], "
        "\"values\": [1, -0.0, \"nan\"]}, \"other\": null, \"size\": [3, -1], \"dim\": -2, \"alpha\": \"-inf\", "
        "\"eps\": 1e-5, \"flag\": true, \"mode\": \"sum\", \"dtype\": \"int32\", "
        "\"list\": [{\"shape\": [1]}, {\"shape\": [2], \"dtype\": \"bool\"}], \"indices\": [null, {\"shape\": [2], "
        "\"dtype\": \"int64\", \"values\": [1, 0]}], \"scales\": [0.5, 2, \"inf\"], \"mask\": [true, false, true], "
        "\"memory_format\": 2, \"out\": {\"shape\": [0]}}]}";
    env e;
    env_open(&e, SCHEMA_ALL, text);
    assert_int_equal(build(&e, "mylib::f", 0), TA_OK);
    const ta_value *a = e.c->args;
    assert_int_equal(e.c->nargs, 15);
    /* self: values row-major through its strides, repeated. */
    const DLTensor *self = a[0].u.tensor;
    double want[6] = {1, -0.0, NAN, 1, -0.0, NAN};
    for (int i = 0; i < 6; i++) {
        double v = *(double *)ta_elem_ptr(self, i);
        if (isnan(want[i])) assert_true(isnan(v));
        else assert_true(v == want[i] && signbit(v) == signbit(want[i]));
    }
    assert_int_equal(a[1].tag, TA_VAL_NONE);
    assert_int_equal(a[2].tag, TA_VAL_INT_LIST);
    assert_int_equal(a[2].u.ints.n, 2);
    assert_int_equal(a[2].u.ints.items[1], -1);
    assert_int_equal(a[3].u.i, -2);
    assert_int_equal(a[4].tag, TA_VAL_SCALAR);
    assert_int_equal(a[4].scalar_kind, TA_SCALAR_FLOAT);
    assert_true(isinf(a[4].u.f) && a[4].u.f < 0);
    assert_true(a[5].tag == TA_VAL_FLOAT && a[5].u.f == 1e-5);
    assert_true(a[6].tag == TA_VAL_BOOL && a[6].u.b);
    assert_string_equal(a[7].u.s, "sum");
    assert_int_equal(a[8].u.i, TA_ST_INT);
    assert_int_equal(a[9].u.tensors.n, 2);
    assert_true(ta_dtype_eq(a[9].u.tensors.items[1]->dtype, TA_DTYPE_BOOL));
    assert_int_equal(a[10].u.tensors.n, 2);
    assert_null(a[10].u.tensors.items[0]);
    assert_int_equal(*(int64_t *)ta_elem_ptr(a[10].u.tensors.items[1], 0), 1);
    assert_int_equal(a[11].tag, TA_VAL_FLOAT_LIST);
    assert_true(a[11].u.floats.n == 3 && a[11].u.floats.items[1] == 2.0 && isinf(a[11].u.floats.items[2]));
    assert_int_equal(a[12].tag, TA_VAL_BOOL_LIST);
    assert_true(a[12].u.bools.n == 3 && !a[12].u.bools.items[1]);
    assert_int_equal(a[13].u.i, 2);
    /* out: empty, its storage the marker (here: no bytes at all). */
    assert_int_equal(a[14].u.tensor->ndim, 1);
    assert_int_equal(a[14].u.tensor->shape[0], 0);
    assert_true(slot_of(&e, "out", -1)->fill);
    assert_false(slot_of(&e, "self", -1)->fill);
    env_close(&e);
}

/* Scalar[] items keep their own kinds; Dimname and Dimname[] take names. */
static void test_scalar_lists_and_dimnames(void **state)
{
    (void)state;
    env e;
    const char *text = "{\"mylib::g\": [{\"self\": {\"shape\": [2, 3]}, \"spacing\": [2, 0.5, true, \"-inf\"], "
                       "\"dim\": \"h\", \"names\": [\"g\", \"h\"]}, {\"dim\": 1}, {\"spacing\": [\"x\"]}]}";
    env_open(&e, "mylib::g(Tensor self, Scalar[] spacing, Dimname dim, Dimname[] names) -> Tensor", text);
    assert_int_equal(build(&e, "mylib::g", 0), TA_OK);
    const ta_value *a = e.c->args;
    assert_int_equal(a[1].tag, TA_VAL_SCALAR_LIST);
    assert_int_equal(a[1].u.scalars.n, 4);
    const ta_scalar *sc = a[1].u.scalars.items;
    assert_true(sc[0].kind == TA_SCALAR_INT && sc[0].u.i == 2);
    assert_true(sc[1].kind == TA_SCALAR_FLOAT && sc[1].u.f == 0.5);
    assert_true(sc[2].kind == TA_SCALAR_BOOL && sc[2].u.b);
    assert_true(sc[3].kind == TA_SCALAR_FLOAT && isinf(sc[3].u.f) && sc[3].u.f < 0);
    assert_int_equal(a[2].tag, TA_VAL_DIMNAME);
    assert_string_equal(a[2].u.s, "h");
    assert_int_equal(a[3].tag, TA_VAL_DIMNAME_LIST);
    assert_int_equal(a[3].u.names.n, 2);
    assert_string_equal(a[3].u.names.items[0], "g");
    assert_string_equal(a[3].u.names.items[1], "h");
    /* A Dimname is a string, a Scalar[]'s item a number or a boolean. */
    assert_int_equal(build(&e, "mylib::g", 1), TA_ERR_INVALID);
    assert_non_null(strstr(e.c->note, "argument 'dim' is a Dimname"));
    assert_int_equal(build(&e, "mylib::g", 2), TA_ERR_INVALID);
    assert_non_null(strstr(e.c->note, "argument 'spacing': a list item is a string"));
    env_close(&e);
}

static void test_left_out_arguments_are_synthesized(void **state)
{
    (void)state;
    env e;
    env_open(&e, "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
             "{\"aten::add.out\": [{\"self\": {\"shape\": [4], \"dtype\": \"int64\"}}]}");
    assert_int_equal(build(&e, "aten::add.out", 0), TA_OK);
    assert_int_equal(e.c->nargs, 4);
    assert_int_equal(e.c->args[0].u.tensor->shape[0], 4);
    for (int i = 1; i < 4; i++) assert_int_not_equal(e.c->args[i].tag, TA_VAL_NONE);
    /* Generated values of int64 lie in [-4, 4] by default. */
    for (int i = 0; i < 4; i++) {
        int64_t v = *(int64_t *)ta_elem_ptr(e.c->args[0].u.tensor, i);
        assert_true(v >= -4 && v <= 4);
    }
    env_close(&e);
}

/* An out= argument the sample leaves out takes the dtype the sample's inputs
 * promote to (what ATen computes the result in), whatever the case's own. */
static void test_out_follows_the_inputs_dtype(void **state)
{
    (void)state;
    static const struct {
        const char *self, *other, *out;
    } rows[] = {{"float64", "int32", "float64"}, {"int32", "int64", "int64"}, {"bool", "bool", "bool"},
                {"int64", "float32", "float32"}, {"float32", "float64", "float64"}};
    char text[2048];
    int n = snprintf(text, sizeof text, "{\"aten::add.out\": [");
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        n += snprintf(text + n, sizeof text - (size_t)n,
                      "%s{\"self\": {\"shape\": [3], \"dtype\": \"%s\"}, \"other\": {\"dtype\": \"%s\"}}",
                      i ? ", " : "", rows[i].self, rows[i].other);
    snprintf(text + n, sizeof text - (size_t)n, "]}");
    env e;
    env_open(&e, "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", text);
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        DLDataType want;
        assert_true(ta_sample_dtype(rows[i].out, &want));
        assert_int_equal(build(&e, "aten::add.out", i), TA_OK);
        const DLTensor *out = e.c->args[3].u.tensor;
        assert_int_equal(out->dtype.code, want.code);
        assert_int_equal(out->dtype.bits, want.bits);
    }
    env_close(&e);
}

typedef struct unfit {
    const char *sample;
    const char *note;
} unfit;

static const unfit UNFIT[] = {
    {"{\"selph\": {}}", "the sample's argument 'selph' is not in the schema"},
    {"{\"self\": 3}", "argument 'self' is a tensor; the sample gives a number"},
    {"{\"list\": {}}", "argument 'list' is a tensor list; the sample gives a tensor"},
    {"{\"list\": [3]}", "argument 'list' is a tensor list; an item is a number"},
    {"{\"size\": [1.5]}", "argument 'size': a list item is a number"},
    {"{\"mask\": [1, 0, 1]}", "argument 'mask': a list item is a number"},
    {"{\"dim\": \"0\"}", "argument 'dim' is an integer; the sample gives a string"},
    {"{\"alpha\": \"one\"}", "argument 'alpha' is a Scalar; the sample gives a string"},
    {"{\"eps\": true}", "argument 'eps' is a float; the sample gives a boolean"},
    {"{\"flag\": 1}", "argument 'flag' is a bool; the sample gives a number"},
    {"{\"mode\": []}", "argument 'mode' is a string; the sample gives a list"},
    {"{\"dtype\": \"complex64\"}", "argument 'dtype' is a ScalarType; the sample gives a string"},
    {"{\"size\": {}}", "argument 'size' is a list; the sample gives a tensor"},
};

static void test_samples_that_do_not_fit(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof UNFIT / sizeof *UNFIT; i++) {
        char text[512];
        snprintf(text, sizeof text, "{\"mylib::f\": [%s]}", UNFIT[i].sample);
        env e;
        env_open(&e, SCHEMA_ALL, text);
        assert_int_equal(build(&e, "mylib::f", 0), TA_ERR_INVALID);
        if (!strstr(e.c->note, UNFIT[i].note)) fail_msg("case %zu: note '%s'", i, e.c->note);
        env_close(&e);
    }
    env e;
    env_open(&e, SCHEMA_ALL, "{\"mylib::f\": []}");
    assert_int_equal(build(&e, "mylib::f", 0), TA_ERR_NOTFOUND);
    assert_int_equal(build(&e, "mylib::g", 0), TA_ERR_NOTFOUND);
    env_close(&e);
}

/* ---- --case-seed names a sample ---------------------------------------- */

static ta_status identity(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)ctx;
    DLTensor *x = ta_stack_tensor(st, 0);
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, x); /* undeclared alias: a finding in every case */
}

static void test_case_seed_replays_a_sample(void **state)
{
    (void)state;
    ta_registry *reg;
    assert_int_equal(ta_registry_create(&reg), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_register_op(reg, "mylib::same(Tensor self) -> Tensor", TA_KEY_CPU, identity, NULL),
                     TA_OK);
    const char *text = "{\"mylib::same\": [{\"self\": {\"shape\": [2]}}, {\"self\": {\"shape\": [7, 5]}}]}";
    ta_samples *sm = NULL;
    assert_int_equal(ta_samples_load_buffer(text, strlen(text), NULL, &sm, d), TA_OK);
    const char *ops[] = {"mylib::same"};
    ta_verify_opts o = {.cases = 3, .in_process = true, .samples = sm};
    ta_verify_report *r = NULL;
    assert_int_equal(ta_verify(reg, ops, 1, &o, &r, d), TA_OK);
    assert_int_equal(r->ops[0].cases, 5);
    assert_int_equal(r->ops[0].nfindings, 1);
    assert_int_equal(r->ops[0].findings[0].seed, 0); /* the first sample */
    assert_non_null(strstr(r->ops[0].findings[0].message, "self=float32[2]"));
    ta_verify_report_destroy(r);
    /* Seed 1 is the second sample; a seed past the samples is a synthesized case. */
    o.has_case_seed = true;
    o.case_seed = 1;
    assert_int_equal(ta_verify(reg, ops, 1, &o, &r, d), TA_OK);
    assert_int_equal(r->ops[0].cases, 1);
    assert_int_equal(r->ops[0].findings[0].seed, 1);
    assert_non_null(strstr(r->ops[0].findings[0].message, "self=float32[7,5]"));
    ta_verify_report_destroy(r);
    /* Synthesized cases' seeds never collide with sample indices. */
    o.has_case_seed = false;
    o.samples = NULL;
    o.cases = 50;
    assert_int_equal(ta_verify(reg, ops, 1, &o, &r, d), TA_OK);
    assert_true(r->ops[0].findings[0].seed >= TA_SAMPLE_SEEDS);
    ta_verify_report_destroy(r);
    ta_samples_destroy(sm);
    ta_registry_destroy(reg);
    ta_diags_destroy(d);
}

/* ---- arguments that are views of one another --------------------------- */

static ta_status copy_into_self(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)ctx;
    DLTensor *self = ta_stack_tensor(st, 0), *src = ta_stack_tensor(st, 1);
    size_t es = ta_dtype_size(self->dtype);
    for (int64_t i = 0; i < ta_numel(self); i++) memmove(ta_elem_ptr(self, i), ta_elem_ptr(src, i), es);
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, self);
}

static ta_status return_other(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)ctx;
    DLTensor *other = ta_stack_tensor(st, 1);
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, other);
}

/* A sample may pass views of one storage (copy_ of a tensor into itself):
 * the return, declared to be self, then overlaps src by the case's making,
 * which is no finding; a return that aliases an argument it may not still is. */
static void test_views_of_one_storage(void **state)
{
    (void)state;
    ta_registry *reg;
    assert_int_equal(ta_registry_create(&reg), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_register_op(reg, "mylib::copy_(Tensor(a!) self, Tensor src) -> Tensor(a!)", TA_KEY_CPU,
                                    copy_into_self, NULL), TA_OK);
    assert_int_equal(ta_register_op(reg, "mylib::pick(Tensor self, Tensor other) -> Tensor", TA_KEY_CPU,
                                    return_other, NULL), TA_OK);
    const char *text = "{\"mylib::copy_\": [{\"self\": {\"shape\": [2, 3], \"strides\": [6, 1], \"storage\": 0},\n"
                       "                    \"src\": {\"shape\": [2, 3], \"strides\": [6, 1], \"offset\": 3, \"storage\": 0}}],\n"
                       " \"mylib::pick\": [{\"self\": {\"shape\": [4], \"storage\": 0}, \"other\": {\"shape\": [4], \"storage\": 0}}]}";
    ta_samples *sm = NULL;
    assert_int_equal(ta_samples_load_buffer(text, strlen(text), NULL, &sm, d), TA_OK);
    const char *ops[] = {"mylib::copy_", "mylib::pick"};
    ta_verify_opts o = {.cases = 1, .in_process = true, .samples = sm};
    ta_verify_report *r = NULL;
    assert_int_equal(ta_verify(reg, ops, 2, &o, &r, d), TA_OK);
    assert_int_equal(r->ops[0].verdict, TA_V_OK);
    assert_int_equal(r->ops[0].exercised, 2);
    assert_int_equal(r->ops[1].verdict, TA_V_UNDECLARED_ALIAS);
    assert_int_equal(r->ops[1].findings[0].seed, 0);
    ta_verify_report_destroy(r);
    ta_samples_destroy(sm);
    ta_registry_destroy(reg);
    ta_diags_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bytes_match_torch),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_load_and_count),
        cmocka_unit_test(test_every_kind_of_argument),
        cmocka_unit_test(test_scalar_lists_and_dimnames),
        cmocka_unit_test(test_left_out_arguments_are_synthesized),
        cmocka_unit_test(test_out_follows_the_inputs_dtype),
        cmocka_unit_test(test_samples_that_do_not_fit),
        cmocka_unit_test(test_case_seed_replays_a_sample),
        cmocka_unit_test(test_views_of_one_storage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
