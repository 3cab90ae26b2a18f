/* test_exec_synth_plan.c - what names say (synth_plan.c), as the cases show
 * it over many seeds: pooling and convolution inputs [batch, channels,
 * size...] with kernels, strides and padding that fit; upsampling given
 * exactly one of output_size and scale_factors; clamp a min or a max; batch
 * norm statistics of the channel count, both given; nll_loss targets that are classes;
 * upsampling backward its forward's sizes; integer and floating operators their dtypes; foreach lists of one length;
 * factory sizes without -1 (views keep it); no pinned memory; no integer
 * divisor of 0; operators with a dim mostly not 0-dim; out= arguments of
 * the dtype ATen computes their result in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "exec/synth/synth.h"
#include "tensoralias/exec.h"

enum { CASES = 300 };

typedef struct env {
    ta_arena *arena;
    ta_exec *x;
    ta_decl *decl;
    ta_schema *schema;
    ta_case *c;
} env;

static void env_open(env *e, const char *schema)
{
    assert_int_equal(ta_arena_create(&e->arena), TA_OK);
    assert_int_equal(ta_exec_create(NULL, &e->x), TA_OK);
    e->c = calloc(1, sizeof *e->c);
    assert_non_null(e->c);
    assert_int_equal(ta_schema_parse(e->arena, schema, strlen(schema), NULL, &e->schema, NULL), TA_OK);
    assert_int_equal(ta_decl_build(e->arena, e->schema, &e->decl), TA_OK);
}

static void env_close(env *e)
{
    free(e->c);
    ta_exec_destroy(e->x);
    ta_arena_destroy(e->arena);
}

static void make(env *e, uint64_t seed)
{
    ta_exec_reset(e->x);
    assert_int_equal(ta_synth_case(e->x, e->schema, e->decl, seed, e->c), TA_OK);
}

static const ta_value *arg(const env *e, const char *name)
{
    for (int i = 0; i < e->decl->nargs; i++)
        if (!strcmp(e->decl->args[i].name, name)) return &e->c->args[i];
    fail_msg("no argument %s", name);
    return NULL;
}

static bool floating(DLDataType dt) { return dt.code == kDLFloat || dt.code == kDLBfloat; }

static void test_pooling_fits(void **state)
{
    (void)state;
    env e;
    env_open(&e, "aten::avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
                 "bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor");
    int batched = 0;
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        const DLTensor *x = arg(&e, "self")->u.tensor;
        const ta_value *k = arg(&e, "kernel_size"), *s = arg(&e, "stride"), *p = arg(&e, "padding");
        assert_true(x->ndim == 3 || x->ndim == 4);
        batched += x->ndim == 4;
        assert_true(floating(x->dtype));
        assert_int_equal(k->u.ints.n, 2);
        assert_int_equal(s->u.ints.n, 2);
        for (int d = 0; d < 2; d++) {
            int64_t size = x->shape[x->ndim - 2 + d];
            assert_true(k->u.ints.items[d] >= 1 && k->u.ints.items[d] <= size);
            assert_true(s->u.ints.items[d] >= 1);
            assert_true(2 * p->u.ints.items[d] <= k->u.ints.items[d]);
        }
    }
    assert_true(batched > CASES / 2 && batched < CASES);
    env_close(&e);
}

static void test_convolution_weight(void **state)
{
    (void)state;
    env e;
    env_open(&e, "aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, "
                 "int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor");
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        const DLTensor *x = arg(&e, "input")->u.tensor, *w = arg(&e, "weight")->u.tensor;
        const ta_value *b = arg(&e, "bias");
        assert_int_equal(w->ndim, 4);
        assert_int_equal(w->shape[1], x->shape[x->ndim - 3]); /* in channels */
        assert_true(w->shape[2] <= x->shape[x->ndim - 2] && w->shape[3] <= x->shape[x->ndim - 1]);
        if (b->tag == TA_VAL_TENSOR) assert_int_equal(b->u.tensor->shape[0], w->shape[0]);
        assert_int_equal(arg(&e, "groups")->u.i, 1);
        assert_int_equal(arg(&e, "dilation")->u.ints.items[1], 1);
    }
    env_close(&e);
}

static void test_exactly_one_and_at_least_one(void **state)
{
    (void)state;
    env e;
    env_open(&e, "aten::upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor");
    int sizes = 0;
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        const ta_value *os = arg(&e, "output_size"), *sf = arg(&e, "scale_factors");
        assert_true((os->tag == TA_VAL_NONE) != (sf->tag == TA_VAL_NONE));
        if (os->tag != TA_VAL_NONE) {
            sizes++;
            assert_int_equal(os->u.ints.n, 2);
        } else {
            assert_int_equal(sf->u.floats.n, 2);
        }
        assert_int_equal(arg(&e, "input")->u.tensor->ndim >= 3, 1);
    }
    assert_true(sizes > 0 && sizes < CASES);
    env_close(&e);

    env_open(&e, "aten::clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor");
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        assert_false(arg(&e, "min")->tag == TA_VAL_NONE && arg(&e, "max")->tag == TA_VAL_NONE);
    }
    env_close(&e);
}

/* An upsampling backward gets the forward's geometry: input_size [N, C,
 * in...], and a grad_output of the forward's output, [N, C, out...], out
 * the output_size given or in * the scale factor (the one of them given). */
static void test_upsampling_backward_sizes(void **state)
{
    (void)state;
    env e;
    env_open(&e, "aten::upsample_bilinear2d_backward.vec(Tensor grad_output, SymInt[]? output_size, "
                 "SymInt[] input_size, bool align_corners, float[]? scale_factors) -> Tensor");
    int scaled = 0;
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        const DLTensor *g = arg(&e, "grad_output")->u.tensor;
        const ta_value *in = arg(&e, "input_size"), *out = arg(&e, "output_size"), *sc = arg(&e, "scale_factors");
        assert_int_equal(g->ndim, 4);
        assert_int_equal(in->u.ints.n, 4);
        assert_true((out->tag == TA_VAL_NONE) != (sc->tag == TA_VAL_NONE));
        assert_int_equal(g->shape[0], in->u.ints.items[0]);
        assert_int_equal(g->shape[1], in->u.ints.items[1]);
        for (int d = 0; d < 2; d++) {
            int64_t want = sc->tag == TA_VAL_NONE ? out->u.ints.items[d]
                                                  : (int64_t)((double)in->u.ints.items[2 + d] * sc->u.floats.items[d]);
            assert_int_equal(g->shape[2 + d], want);
        }
        scaled += sc->tag != TA_VAL_NONE;
    }
    assert_true(scaled > 0 && scaled < CASES);
    env_close(&e);
}

static void test_norm_statistics_and_classes(void **state)
{
    (void)state;
    env e;
    env_open(&e, "aten::native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
                 "Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)");
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        const DLTensor *x = arg(&e, "input")->u.tensor;
        assert_true(x->ndim >= 2);
        const char *stats[] = {"weight", "bias", "running_mean", "running_var"};
        for (int i = 0; i < 4; i++) {
            const ta_value *v = arg(&e, stats[i]);
            if (v->tag != TA_VAL_TENSOR) continue;
            assert_int_equal(v->u.tensor->ndim, 1);
            assert_int_equal(v->u.tensor->shape[0], x->shape[1]);
        }
        assert_int_equal(arg(&e, "running_mean")->tag, TA_VAL_TENSOR); /* both, always */
        assert_int_equal(arg(&e, "running_var")->tag, TA_VAL_TENSOR);
        const ta_value *var = arg(&e, "running_var");
        if (var->tag == TA_VAL_TENSOR && floating(var->u.tensor->dtype) && var->u.tensor->dtype.bits == 32)
            for (int64_t i = 0; i < ta_numel(var->u.tensor); i++)
                assert_true(*(const float *)ta_elem_ptr(var->u.tensor, i) >= 0.0f);
    }
    env_close(&e);

    env_open(&e, "aten::nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, "
                 "SymInt ignore_index=-100) -> Tensor");
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        const DLTensor *x = arg(&e, "self")->u.tensor, *t = arg(&e, "target")->u.tensor;
        assert_int_equal(x->ndim, 2);
        assert_true(ta_dtype_eq(t->dtype, TA_DTYPE_I64));
        assert_int_equal(t->ndim, 1);
        assert_int_equal(t->shape[0], x->shape[0]);
        for (int64_t i = 0; i < ta_numel(t); i++) {
            int64_t c = *(const int64_t *)ta_elem_ptr(t, i);
            assert_true(c >= 0 && c < x->shape[1]);
        }
    }
    env_close(&e);
}

static void test_dtypes_by_name(void **state)
{
    (void)state;
    env e;
    env_open(&e, "aten::bitwise_and.Tensor(Tensor self, Tensor other) -> Tensor");
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        assert_true(arg(&e, "self")->u.tensor->dtype.code == kDLInt);
    }
    env_close(&e);
    env_open(&e, "aten::linalg_svd(Tensor A, bool full_matrices=True, *, str? driver=None) -> (Tensor U, Tensor S, Tensor Vh)");
    int f32 = 0;
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        assert_true(floating(arg(&e, "A")->u.tensor->dtype));
        f32 += arg(&e, "A")->u.tensor->dtype.bits == 32;
    }
    assert_true(f32 > 0 && f32 < CASES);
    env_close(&e);
    /* An operator without such a name keeps every dtype. */
    env_open(&e, "aten::relu(Tensor self) -> Tensor");
    int ints = 0;
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        ints += arg(&e, "self")->u.tensor->dtype.code == kDLInt;
    }
    assert_true(ints > 0);
    env_close(&e);
}

static bool same_dtype(DLDataType a, DLDataType b) { return a.code == b.code && a.bits == b.bits; }

/* out= arguments take the dtype their result has in ATen: self's (promoted
 * with other's), int64 for indices, int32 for LAPACK's pivots; a few
 * synthesized cases draw another (ATen casts into out, or refuses). */
static void test_out_dtypes(void **state)
{
    (void)state;
    env e;
    env_open(&e, "aten::sort.values(Tensor self, int dim=-1, bool descending=False, *, Tensor(a!) values, "
                 "Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)");
    int values = 0, indices = 0;
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        values += same_dtype(arg(&e, "values")->u.tensor->dtype, arg(&e, "self")->u.tensor->dtype);
        indices += same_dtype(arg(&e, "indices")->u.tensor->dtype, TA_DTYPE_I64);
    }
    assert_true(values > CASES * 8 / 10 && values < CASES);
    assert_true(indices > CASES * 8 / 10 && indices < CASES);
    env_close(&e);
    env_open(&e, "aten::argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)");
    int longs = 0;
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        longs += same_dtype(arg(&e, "out")->u.tensor->dtype, TA_DTYPE_I64);
    }
    assert_true(longs > CASES * 8 / 10);
    env_close(&e);
    env_open(&e, "aten::linalg_lu_factor.out(Tensor A, *, bool pivot=True, Tensor(a!) LU, Tensor(b!) pivots) "
                 "-> (Tensor(a!) LU, Tensor(b!) pivots)");
    int lu = 0, pivots = 0;
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        lu += same_dtype(arg(&e, "LU")->u.tensor->dtype, arg(&e, "A")->u.tensor->dtype);
        pivots += same_dtype(arg(&e, "pivots")->u.tensor->dtype, TA_DTYPE_I32);
    }
    assert_true(lu > CASES * 8 / 10 && pivots > CASES * 8 / 10);
    env_close(&e);
}

static void test_lists_sizes_and_flags(void **state)
{
    (void)state;
    env e;
    env_open(&e, "aten::_foreach_add.List(Tensor[] self, Tensor[] other, *, Scalar alpha=1) -> Tensor[]");
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        assert_int_equal(arg(&e, "self")->u.tensors.n, arg(&e, "other")->u.tensors.n);
    }
    env_close(&e);
    env_open(&e, "aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
                 "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor");
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        const ta_value *size = arg(&e, "size");
        for (size_t i = 0; i < size->u.ints.n; i++) assert_true(size->u.ints.items[i] >= 0);
        const ta_value *pin = arg(&e, "pin_memory");
        assert_true(pin->tag == TA_VAL_NONE || !pin->u.b);
    }
    env_close(&e);
    env_open(&e, "aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)");
    int infer = 0;
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        const ta_value *size = arg(&e, "size");
        infer += size->u.ints.n == 1 && size->u.ints.items[0] == -1;
    }
    assert_true(infer > 0);
    env_close(&e);
    env_open(&e, "aten::linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None, "
                 "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor");
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        assert_true(arg(&e, "steps")->u.i >= 0);
    }
    env_close(&e);
}

static void test_divisors_and_dims(void **state)
{
    (void)state;
    env e;
    env_open(&e, "aten::remainder.Tensor(Tensor self, Tensor other) -> Tensor");
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        const DLTensor *o = arg(&e, "other")->u.tensor;
        for (int64_t i = 0; i < ta_numel(o); i++) {
            if (o->dtype.code == kDLInt && o->dtype.bits == 64) assert_true(*(const int64_t *)ta_elem_ptr(o, i) != 0);
            if (o->dtype.code == kDLInt && o->dtype.bits == 32) assert_true(*(const int32_t *)ta_elem_ptr(o, i) != 0);
        }
    }
    env_close(&e);
    env_open(&e, "aten::cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor");
    int scalar = 0;
    for (uint64_t seed = 0; seed < CASES; seed++) {
        make(&e, seed);
        scalar += arg(&e, "self")->u.tensor->ndim == 0;
    }
    /* Mostly dimensioned; a few 0-dim cases stay (torch takes dim 0 or -1 there). */
    assert_true(scalar < CASES / 20);
    env_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pooling_fits),
        cmocka_unit_test(test_convolution_weight),
        cmocka_unit_test(test_exactly_one_and_at_least_one),
        cmocka_unit_test(test_upsampling_backward_sizes),
        cmocka_unit_test(test_norm_statistics_and_classes),
        cmocka_unit_test(test_dtypes_by_name),
        cmocka_unit_test(test_out_dtypes),
        cmocka_unit_test(test_lists_sizes_and_flags),
        cmocka_unit_test(test_divisors_and_dims),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
