/* test_exec_synth.c - input synthesis for matrix products: for mm, bmm,
 * addmm, baddbmm, addbmm, mv, addmv, addr and outer (functional, inplace and
 * out=), every synthesized case's operands can be multiplied (the sizes that
 * each argument name stands for agree across the case), out= arguments are
 * the result's shape or empty, empty sizes and non-contiguous layouts both
 * occur, and an operator without matrix operand names keeps one main shape. */
#include <math.h>
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

/* A schema and, per tensor argument, the sizes it must have: one letter per
 * dimension (b batch, n rows, k inner, m columns), the same letter the same
 * size within one case. */
typedef struct product {
    const char *schema;
    const char *shapes[4][2]; /* {argument, letters} */
} product;

static const product PRODUCTS[] = {
    {"aten::mm(Tensor self, Tensor mat2) -> Tensor", {{"self", "nk"}, {"mat2", "km"}}},
    {"aten::mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)",
     {{"self", "nk"}, {"mat2", "km"}, {"out", "nm"}}},
    {"aten::bmm(Tensor self, Tensor mat2) -> Tensor", {{"self", "bnk"}, {"mat2", "bkm"}}},
    {"aten::bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)",
     {{"self", "bnk"}, {"mat2", "bkm"}, {"out", "bnm"}}},
    {"aten::addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, "
     "Tensor(a!) out) -> Tensor(a!)",
     {{"self", "nm"}, {"mat1", "nk"}, {"mat2", "km"}, {"out", "nm"}}},
    {"aten::addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)",
     {{"self", "nm"}, {"mat1", "nk"}, {"mat2", "km"}}},
    {"aten::baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
     {{"self", "bnm"}, {"batch1", "bnk"}, {"batch2", "bkm"}}},
    {"aten::addbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, "
     "Tensor(a!) out) -> Tensor(a!)",
     {{"self", "nm"}, {"batch1", "bnk"}, {"batch2", "bkm"}, {"out", "nm"}}},
    {"aten::mv.out(Tensor self, Tensor vec, *, Tensor(a!) out) -> Tensor(a!)",
     {{"self", "nk"}, {"vec", "k"}, {"out", "n"}}},
    {"aten::addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
     {{"self", "n"}, {"mat", "nk"}, {"vec", "k"}}},
    {"aten::addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
     {{"self", "nm"}, {"vec1", "n"}, {"vec2", "m"}}},
    {"aten::outer.out(Tensor self, Tensor vec2, *, Tensor(a!) out) -> Tensor(a!)",
     {{"self", "n"}, {"vec2", "m"}, {"out", "nm"}}},
};

enum { CASES = 200 };

typedef struct env {
    ta_arena *arena;
    ta_exec *x;
    ta_decl *decl;
    const ta_schema *schema;
    ta_case *c;
} env;

static void env_open(env *e, const char *schema)
{
    assert_int_equal(ta_arena_create(&e->arena), TA_OK);
    assert_int_equal(ta_exec_create(NULL, &e->x), TA_OK);
    e->c = calloc(1, sizeof *e->c);
    assert_non_null(e->arena);
    assert_non_null(e->x);
    assert_non_null(e->c);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_schema *s = NULL;
    assert_int_equal(ta_schema_parse(e->arena, schema, strlen(schema), NULL, &s, d), TA_OK);
    ta_diags_destroy(d);
    e->schema = s;
    assert_int_equal(ta_decl_build(e->arena, s, &e->decl), TA_OK);
}

static void env_close(env *e)
{
    free(e->c);
    ta_exec_destroy(e->x);
    ta_arena_destroy(e->arena);
}

static const char *letters_of(const product *p, const char *arg)
{
    for (int i = 0; i < 4 && p->shapes[i][0]; i++)
        if (!strcmp(p->shapes[i][0], arg)) return p->shapes[i][1];
    return NULL;
}

static void test_products_multiply(void **state)
{
    (void)state;
    for (size_t pi = 0; pi < sizeof PRODUCTS / sizeof *PRODUCTS; pi++) {
        const product *p = &PRODUCTS[pi];
        env e;
        env_open(&e, p->schema);
        int zero = 0, strided = 0, empty_out = 0, sized_out = 0;
        for (uint64_t seed = 0; seed < CASES; seed++) {
            ta_exec_reset(e.x);
            assert_int_equal(ta_synth_case(e.x, e.schema, e.decl, seed, e.c), TA_OK);
            int64_t size['z' + 1];
            for (int i = 0; i <= 'z'; i++) size[i] = -1;
            bool has_zero = false;
            for (int si = 0; si < e.c->nslots; si++) {
                const ta_case_slot *sl = &e.c->slots[si];
                const char *arg = e.decl->args[sl->arg].name;
                const char *want = letters_of(p, arg);
                if (!want) fail_msg("%s: unexpected tensor argument %s", p->schema, arg);
                const DLTensor *t = sl->t;
                if (e.decl->args[sl->arg].is_out && t->ndim == 1 && t->shape[0] == 0 &&
                    (strlen(want) != 1 || size[(unsigned char)want[0]] != 0)) {
                    empty_out++; /* the kernel must resize it */
                    continue;
                }
                if (e.decl->args[sl->arg].is_out) sized_out++;
                if (t->ndim != (int)strlen(want))
                    fail_msg("%s seed %llu: %s has %d dims, want %s", p->schema, (unsigned long long)seed,
                             arg, t->ndim, want);
                for (int d = 0; d < t->ndim; d++) {
                    int64_t *bound = &size[(unsigned char)want[d]];
                    if (*bound < 0) *bound = t->shape[d];
                    if (*bound != t->shape[d])
                        fail_msg("%s seed %llu: %s dim %d is %lld, '%c' is %lld elsewhere", p->schema,
                                 (unsigned long long)seed, arg, d, (long long)t->shape[d], want[d],
                                 (long long)*bound);
                    has_zero |= t->shape[d] == 0;
                }
                if (!ta_is_contiguous(t)) strided++;
            }
            zero += has_zero;
        }
        /* Every product sees empty operands and strided ones in 200 cases. */
        if (!zero || !strided) fail_msg("%s: %d cases with an empty size, %d strided operands", p->schema, zero, strided);
        if (letters_of(p, "out") && (!empty_out || !sized_out))
            fail_msg("%s: %d empty out= arguments, %d sized ones", p->schema, empty_out, sized_out);
        env_close(&e);
    }
}

/* Without matrix operand names, self and other share the main shape. */
static void test_other_ops_keep_one_shape(void **state)
{
    (void)state;
    env e;
    env_open(&e, "mylib::mix(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
    for (uint64_t seed = 0; seed < CASES; seed++) {
        ta_exec_reset(e.x);
        assert_int_equal(ta_synth_case(e.x, e.schema, e.decl, seed, e.c), TA_OK);
        assert_int_equal(e.c->nslots, 3);
        const DLTensor *a = e.c->slots[0].t, *b = e.c->slots[1].t;
        assert_int_equal(a->ndim, b->ndim);
        for (int d = 0; d < a->ndim; d++) assert_int_equal(a->shape[d], b->shape[d]);
    }
    env_close(&e);
}

/* The first six cases of an operator (seeds whose low byte is 0 to 5, as
 * verify makes them) take every value of the case's dtype and of each bool,
 * optional bool, ScalarType and reduction argument, whatever their high
 * bits; they are never empty. */
static void test_covering_rows(void **state)
{
    (void)state;
    env e;
    env_open(&e, "mylib::f(Tensor self, bool flag, bool? maybe, ScalarType dtype, int reduction=1) -> Tensor");
    for (uint64_t high = 1; high < 40; high++) {
        unsigned dtypes = 0, flags = 0, maybes = 0, scalar_types = 0, reductions = 0;
        for (uint64_t row = 0; row < 6; row++) {
            ta_exec_reset(e.x);
            uint64_t seed = (ta_mix64(high) & ~0xffull) | row;
            assert_int_equal(ta_synth_case(e.x, e.schema, e.decl, seed, e.c), TA_OK);
            const DLTensor *t = e.c->args[0].u.tensor;
            assert_true(ta_numel(t) > 0);
            dtypes |= 1u << (ta_scalar_type_of(t->dtype) & 31);
            flags |= 1u << e.c->args[1].u.b;
            maybes |= 1u << (e.c->args[2].tag == TA_VAL_NONE ? 2 : e.c->args[2].u.b);
            scalar_types |= 1u << (e.c->args[3].u.i & 31);
            reductions |= 1u << e.c->args[4].u.i;
        }
        unsigned five = 1u << TA_ST_FLOAT | 1u << TA_ST_DOUBLE | 1u << TA_ST_LONG | 1u << TA_ST_INT |
                        1u << TA_ST_BOOL;
        assert_int_equal(dtypes, five);
        assert_int_equal(scalar_types, five);
        assert_int_equal(flags, 3);
        assert_int_equal(maybes, 7);
        assert_int_equal(reductions, 7);
    }
    env_close(&e);
}

/* Every sixteenth case has a large main shape, the 32nd of every 256 one
 * above ATen's grain size; every fourth may hold NaN and infinities. */
static void test_large_and_special_cases(void **state)
{
    (void)state;
    env e;
    env_open(&e, "mylib::g(Tensor self) -> Tensor");
    int specials = 0;
    for (uint64_t k = 0; k < 512; k++) {
        ta_exec_reset(e.x);
        uint64_t seed = (ta_mix64(k) & ~0xffull) | (k & 0xff);
        assert_int_equal(ta_synth_case(e.x, e.schema, e.decl, seed, e.c), TA_OK);
        const DLTensor *t = e.c->args[0].u.tensor;
        int64_t n = ta_numel(t);
        if ((k & 255) == 31) assert_true(n > 32768);
        else if ((k & 15) == 15) assert_true(n >= 65 && n < 32768);
        else assert_true(n <= 24);
        for (int64_t i = 0; t->dtype.code == kDLFloat && i < n; i++) {
            double v = t->dtype.bits == 32 ? *(float *)ta_elem_ptr(t, i) : *(double *)ta_elem_ptr(t, i);
            if (isnan(v) || isinf(v)) {
                assert_int_equal(k & 3, 2);
                specials++;
            }
        }
    }
    assert_true(specials > 0);
    env_close(&e);
}

/* Scalar[]: one scalar per tensor of the case's lists (foreach), else per
 * dimension of self (gradient's spacing); each of the kind of the case's
 * dtype, integers never 0; shown in the case's description. */
static void test_scalar_lists(void **state)
{
    (void)state;
    env e;
    env_open(&e, "mylib::f_(Tensor(a!)[] self, Scalar[] scalars) -> ()");
    for (uint64_t k = 0; k < 200; k++) {
        ta_exec_reset(e.x);
        assert_int_equal(ta_synth_case(e.x, e.schema, e.decl, ta_mix64(k), e.c), TA_OK);
        const ta_value *l = &e.c->args[0], *sc = &e.c->args[1];
        assert_int_equal(sc->tag, TA_VAL_SCALAR_LIST);
        assert_int_equal(sc->u.scalars.n, l->u.tensors.n);
        DLDataType dt = l->u.tensors.items[0]->dtype;
        ta_scalar_kind want = dt.code == kDLFloat ? TA_SCALAR_FLOAT : dt.code == TA_DL_BOOL ? TA_SCALAR_BOOL : TA_SCALAR_INT;
        for (size_t i = 0; i < sc->u.scalars.n; i++) {
            assert_int_equal(sc->u.scalars.items[i].kind, want);
            if (want == TA_SCALAR_INT) assert_true(sc->u.scalars.items[i].u.i != 0);
        }
        char buf[512];
        ta_case_describe(e.c, e.decl, buf, sizeof buf);
        assert_non_null(strstr(buf, ", scalars=["));
    }
    env_close(&e);
    env_open(&e, "mylib::g(Tensor self, *, Scalar[] spacing) -> Tensor[]");
    for (uint64_t k = 0; k < 50; k++) {
        ta_exec_reset(e.x);
        assert_int_equal(ta_synth_case(e.x, e.schema, e.decl, ta_mix64(k), e.c), TA_OK);
        assert_int_equal(e.c->args[1].u.scalars.n, (size_t)e.c->args[0].u.tensor->ndim);
    }
    env_close(&e);
}

/* Dimname and Dimname[]: names of self's dimensions (TA_DIM_NAMES, from
 * the last), all of them in order for a whole tensor's names, a new one
 * for an out_dim; self has a dimension to name. */
static void test_dimnames(void **state)
{
    (void)state;
    env e;
    env_open(&e, "mylib::h(Tensor self, Dimname dim, Dimname[1] dims, Dimname[] names, Dimname out_dim) -> Tensor");
    for (uint64_t k = 0; k < 200; k++) {
        ta_exec_reset(e.x);
        assert_int_equal(ta_synth_case(e.x, e.schema, e.decl, ta_mix64(k), e.c), TA_OK);
        int nd = e.c->args[0].u.tensor->ndim;
        assert_true(nd >= 1 && nd <= 8);
        const char *own = &TA_DIM_NAMES[8 - nd]; /* self's names, in order */
        assert_int_equal(e.c->args[1].tag, TA_VAL_DIMNAME);
        assert_int_equal(strlen(e.c->args[1].u.s), 1);
        assert_non_null(strchr(own, e.c->args[1].u.s[0]));
        assert_int_equal(e.c->args[2].tag, TA_VAL_DIMNAME_LIST);
        assert_int_equal(e.c->args[2].u.names.n, 1);
        assert_non_null(strchr(own, e.c->args[2].u.names.items[0][0]));
        assert_int_equal(e.c->args[3].u.names.n, (size_t)nd);
        for (int i = 0; i < nd; i++) assert_int_equal(e.c->args[3].u.names.items[i][0], own[i]);
        assert_string_equal(e.c->args[4].u.s, "out");
        char buf[512];
        ta_case_describe(e.c, e.decl, buf, sizeof buf);
        assert_non_null(strstr(buf, ", dim='"));
        assert_non_null(strstr(buf, ", names=['"));
    }
    env_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_products_multiply),
        cmocka_unit_test(test_other_ops_keep_one_shape),
        cmocka_unit_test(test_covering_rows),
        cmocka_unit_test(test_large_and_special_cases),
        cmocka_unit_test(test_scalar_lists),
        cmocka_unit_test(test_dimnames),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
