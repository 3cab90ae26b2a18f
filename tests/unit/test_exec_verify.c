/* test_exec_verify.c - observation and verdicts, in process: byte-exact
 * mutation detection (-0.0 over 0.0, a NaN payload), declared writes through
 * declared aliases, input/output and output/output overlap, views, inplace
 * and out= returns, metadata changes, element offsets, and results for
 * operators without a kernel; and, in child processes, a report larger than
 * a child's mailbox and a run of hundreds of operators on two jobs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "exec/observe/observe.h"
#include "tensoralias/exec.h"

/* ---- kernels ----------------------------------------------------------- */

static ta_status ret(ta_stack *st, DLTensor *t)
{
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, t);
}

static DLTensor *copy_of(ta_kernel_ctx *ctx, const DLTensor *x)
{
    DLTensor *y;
    assert_int_equal(ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape, &y), TA_OK);
    size_t es = ta_dtype_size(x->dtype);
    for (int64_t i = 0; y && i < ta_numel(x); i++) memcpy(ta_elem_ptr(y, i), ta_elem_ptr(x, i), es);
    return y;
}

/* Turns every float 0.0 into -0.0: equal as numbers, not as bytes. */
static ta_status negate_zeros(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (x->dtype.code != kDLFloat) return ta_kernel_error(ctx, "floats only");
    for (int64_t i = 0; i < ta_numel(x); i++) {
        if (x->dtype.bits == 32) {
            float *p = ta_elem_ptr(x, i);
            if (*p == 0.0f) *p = -0.0f * (signbit(*p) ? -1.0f : 1.0f);
        } else {
            double *p = ta_elem_ptr(x, i);
            if (*p == 0.0) *p = signbit(*p) ? 0.0 : -0.0;
        }
    }
    return ret(st, copy_of(ctx, x));
}

/* Writes x (first argument) in place, returns it. */
static ta_status add_one_(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)ctx;
    DLTensor *x = ta_stack_tensor(st, 0);
    size_t es = ta_dtype_size(x->dtype);
    for (int64_t i = 0; i < ta_numel(x); i++) ((unsigned char *)ta_elem_ptr(x, i))[es - 1] ^= 1;
    return ret(st, x);
}

/* A view of the input's trailing part (a flat view of its last element). */
static ta_status tail_view(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    int64_t one = ta_numel(x) ? 1 : 0, s = 1;
    uint64_t off = ta_numel(x) ? (uint64_t)((char *)ta_elem_ptr(x, ta_numel(x) - 1) - (char *)x->data)
                               : x->byte_offset;
    DLTensor *v;
    if (ta_kernel_view(ctx, x, 1, &one, &s, off, &v) != TA_OK) return ta_kernel_error(ctx, "view refused");
    return ret(st, v);
}

/* Two returns over one new storage. */
static ta_status same_twice(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *y = copy_of(ctx, ta_stack_tensor(st, 0));
    ta_stack_clear(st);
    ta_stack_push_tensor(st, y);
    return ta_stack_push_tensor(st, y);
}

/* transpose_-like: reverses the dimensions of self in place. */
static ta_status reverse_dims_(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    int64_t sh[8], sd[8], str[8];
    ta_strides_of(x, str);
    for (int d = 0; d < x->ndim; d++) {
        sh[d] = x->shape[x->ndim - 1 - d];
        sd[d] = str[x->ndim - 1 - d];
    }
    if (ta_kernel_restride(ctx, x, x->ndim, sh, sd, x->byte_offset) != TA_OK)
        return ta_kernel_error(ctx, "restride refused");
    return ret(st, x);
}

/* An out= kernel writing only the first element. */
static ta_status first_only_out(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0), *out = ta_stack_tensor(st, 1);
    if (!ta_dtype_eq(x->dtype, out->dtype)) return ta_kernel_error(ctx, "dtype");
    if (ta_kernel_resize(ctx, out, x->ndim, x->shape) != TA_OK) return ta_kernel_error(ctx, "resize");
    if (ta_numel(x)) memcpy(ta_elem_ptr(out, 0), ta_elem_ptr(x, 0), ta_dtype_size(x->dtype));
    return ret(st, out);
}

static ta_status copy_kernel(ta_kernel_ctx *ctx, ta_stack *st)
{
    return ret(st, copy_of(ctx, ta_stack_tensor(st, 0)));
}

/* A correct copy, that aborts the process on its 2,500th call in it. */
static ta_status copy_dies_late(ta_kernel_ctx *ctx, ta_stack *st)
{
    static int calls;
    if (++calls == 2500) abort();
    return ret(st, copy_of(ctx, ta_stack_tensor(st, 0)));
}

/* ---- helpers ----------------------------------------------------------- */

static ta_verify_report *run(const char *schema, ta_kernel_fn fn, uint32_t cases)
{
    ta_registry *reg;
    assert_int_equal(ta_registry_create(&reg), TA_OK);
    assert_int_equal(ta_register_op(reg, schema, TA_KEY_CPU, fn, NULL), TA_OK);
    char name[256];
    ta_op_name_of(schema, name, sizeof name);
    const char *ops[1] = {name};
    ta_verify_opts o = {.seed = 1, .cases = cases, .in_process = true};
    ta_verify_report *r = NULL;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_verify(reg, ops, 1, &o, &r, d), TA_OK);
    ta_diags_destroy(d);
    ta_registry_destroy(reg);
    assert_int_equal(r->nops, 1);
    return r;
}

static bool has(const ta_verify_report *r, ta_verdict_kind k, const char *arg)
{
    for (size_t i = 0; i < r->ops[0].nfindings; i++)
        if (r->ops[0].findings[i].kind == k && (!arg || !strcmp(r->ops[0].findings[i].argument, arg)))
            return true;
    return false;
}

static void expect_verdict(const char *schema, ta_kernel_fn fn, ta_verdict_kind k)
{
    ta_verify_report *r = run(schema, fn, 40);
    if (r->ops[0].verdict != k) {
        fprintf(stderr, "%s: verdict %s, expected %s\n", schema,
                ta_verdict_kind_str(r->ops[0].verdict), ta_verdict_kind_str(k));
        for (size_t i = 0; i < r->ops[0].nfindings; i++)
            fprintf(stderr, "  %s: %s\n", ta_verdict_kind_str(r->ops[0].findings[i].kind),
                    r->ops[0].findings[i].message);
    }
    assert_int_equal(r->ops[0].verdict, k);
    ta_verify_report_destroy(r);
}

/* ---- tests ------------------------------------------------------------- */

/* In a child process, far more report lines than its mailbox holds: every
 * case is counted once, and the crash is the case it happened in, though
 * most lines went through the pipe and the last ones stayed in the
 * mailbox of the dead child. */
static void test_child_report_overflows_mailbox(void **state)
{
    (void)state;
    ta_registry *reg;
    assert_int_equal(ta_registry_create(&reg), TA_OK);
    assert_int_equal(ta_register_op(reg, "mylib::cp(Tensor self) -> Tensor", TA_KEY_CPU, copy_dies_late, NULL),
                     TA_OK);
    const char *ops[1] = {"mylib::cp"};
    ta_verify_opts o = {.seed = 1, .cases = 3000};
    ta_verify_report *r = NULL;
    assert_int_equal(ta_verify(reg, ops, 1, &o, &r, NULL), TA_OK);
    const ta_op_result *res = &r->ops[0];
    assert_int_equal(res->cases, 3000);
    assert_int_equal(res->verdict, TA_V_CRASH);
    assert_int_equal(res->nfindings, 1);
    assert_non_null(strstr(res->findings[0].message, "SIGABRT"));
    /* The 2,500th call: case 2499, unless cases before it were not accepted
     * (a synthesized case a copy refuses never calls the kernel). */
    assert_int_equal(res->exercised, 2999);
    assert_non_null(strstr(res->findings[0].message, "in case 2499 "));
    ta_verify_report_destroy(r);
    ta_registry_destroy(reg);
}

/* A run long enough for the parent to collapse its memory into huge pages
 * before forking (256 operators or more), on two jobs, one operator a
 * child and in batches of 16: every operator's result is its own, every
 * case counted once; batches fork a child per batch (and a spare). */
static void test_many_operators_in_children(void **state)
{
    (void)state;
    enum { N = 300 };
    ta_registry *reg;
    assert_int_equal(ta_registry_create(&reg), TA_OK);
    static char names[N][32];
    const char *ops[N];
    for (int i = 0; i < N; i++) {
        char schema[80];
        snprintf(names[i], sizeof names[i], "mylib::c%d", i);
        snprintf(schema, sizeof schema, "mylib::c%d(Tensor self) -> Tensor", i);
        assert_int_equal(ta_register_op(reg, schema, TA_KEY_CPU, copy_kernel, NULL), TA_OK);
        ops[i] = names[i];
    }
    for (uint32_t batch = 0; batch <= 16; batch += 16) {
        ta_verify_opts o = {.seed = 1, .cases = 3, .jobs = 2, .batch = batch};
        ta_verify_report *r = NULL;
        assert_int_equal(ta_verify(reg, ops, N, &o, &r, NULL), TA_OK);
        assert_int_equal(r->nops, N);
        assert_int_equal(r->total_cases, 3 * N);
        for (int i = 0; i < N; i++) {
            assert_string_equal(r->ops[i].op, names[i]);
            assert_int_equal(r->ops[i].cases, 3);
            assert_int_equal(r->ops[i].exercised, 3);
            assert_int_equal(r->ops[i].verdict, TA_V_OK);
        }
        assert_int_equal(r->stats.reruns, 0);
        if (batch) assert_true(r->stats.children <= (N + 15) / 16 + 1);
        else assert_true(r->stats.children >= N);
        ta_verify_report_destroy(r);
    }
    ta_registry_destroy(reg);
}

/* A batch whose middle operator's child dies after far more report lines
 * than a mailbox holds: the same results as one operator a child (the
 * crash in the same case, every case counted once), the crashing operator
 * run again alone and only it, the operator after it not lost. */
static void test_batch_crash_mid_batch(void **state)
{
    (void)state;
    ta_registry *reg;
    assert_int_equal(ta_registry_create(&reg), TA_OK);
    assert_int_equal(ta_register_op(reg, "mylib::a(Tensor self) -> Tensor", TA_KEY_CPU, copy_kernel, NULL), TA_OK);
    assert_int_equal(ta_register_op(reg, "mylib::cp(Tensor self) -> Tensor", TA_KEY_CPU, copy_dies_late, NULL),
                     TA_OK);
    assert_int_equal(ta_register_op(reg, "mylib::z(Tensor self) -> Tensor", TA_KEY_CPU, copy_kernel, NULL), TA_OK);
    const char *ops[3] = {"mylib::a", "mylib::cp", "mylib::z"};
    ta_verify_report *r[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        ta_verify_opts o = {.seed = 1, .cases = 3000, .batch = k ? 8 : 1};
        assert_int_equal(ta_verify(reg, ops, 3, &o, &r[k], NULL), TA_OK);
    }
    for (int i = 0; i < 3; i++) {
        const ta_op_result *a = &r[0]->ops[i], *b = &r[1]->ops[i];
        assert_int_equal(a->verdict, b->verdict);
        assert_int_equal(a->cases, 3000);
        assert_int_equal(b->cases, 3000);
        assert_int_equal(a->exercised, b->exercised);
        assert_int_equal(a->nfindings, b->nfindings);
        for (size_t f = 0; f < a->nfindings; f++) assert_string_equal(a->findings[f].message, b->findings[f].message);
    }
    assert_int_equal(r[1]->ops[1].verdict, TA_V_CRASH);
    assert_non_null(strstr(r[1]->ops[1].findings[0].message, "in case 2499 "));
    assert_int_equal(r[1]->ops[2].verdict, TA_V_OK);
    assert_int_equal(r[0]->stats.reruns, 0);
    assert_int_equal(r[1]->stats.reruns, 1);
    ta_verify_report_destroy(r[0]);
    ta_verify_report_destroy(r[1]);
    ta_registry_destroy(reg);
}

static void test_negative_zero_counts(void **state)
{
    (void)state;
    expect_verdict("mylib::nz(Tensor self) -> Tensor", negate_zeros, TA_V_UNDECLARED_MUTATION);
    expect_verdict("mylib::nz_(Tensor(a!) self) -> Tensor", negate_zeros, TA_V_OK);
}

static void test_declared_write_through_alias(void **state)
{
    (void)state;
    /* y may be a view of x (same set): writing x changes y legitimately. */
    expect_verdict("mylib::w(Tensor(a!) x, Tensor(a) y) -> Tensor(a!)", add_one_, TA_V_OK);
    /* Without the shared set, y is never a view of x and x is written: fine too. */
    expect_verdict("mylib::w2(Tensor(a!) x, Tensor y) -> Tensor(a!)", add_one_, TA_V_OK);
    expect_verdict("mylib::w3(Tensor x) -> Tensor", add_one_, TA_V_UNDECLARED_MUTATION);
}

static void test_overlap(void **state)
{
    (void)state;
    expect_verdict("mylib::tv(Tensor self) -> Tensor", tail_view, TA_V_UNDECLARED_ALIAS);
    expect_verdict("mylib::tv2(Tensor(a) self) -> Tensor(a)", tail_view, TA_V_OK);
    /* As torch's SchemaInfo answers: an unannotated return is fresh even when
     * the input enters the wildcard set; a return in the wildcard set is not. */
    expect_verdict("mylib::tv3(Tensor(a -> *) self) -> Tensor", tail_view, TA_V_UNDECLARED_ALIAS);
    expect_verdict("mylib::tv4(Tensor(a -> *) self) -> Tensor(*)", tail_view, TA_V_OK);
    expect_verdict("mylib::st(Tensor self) -> (Tensor, Tensor)", same_twice, TA_V_UNDECLARED_OUTPUT_ALIAS);
    expect_verdict("mylib::st2(Tensor(a) self) -> (Tensor(b), Tensor(b))", same_twice, TA_V_OK);
    /* A declared view returning a fresh copy. */
    expect_verdict("mylib::st3(Tensor(a) self) -> (Tensor(a), Tensor(a))", same_twice, TA_V_VIEW_RETURNED_COPY);
}

static void test_metadata_and_inplace(void **state)
{
    (void)state;
    expect_verdict("mylib::rd_(Tensor(a!) self) -> Tensor(a!)", reverse_dims_, TA_V_OK);
    expect_verdict("mylib::rd(Tensor(a) self) -> Tensor(a)", reverse_dims_, TA_V_UNDECLARED_METADATA_MUTATION);
    /* An inplace op returning self is fine; a view of self is not self. */
    expect_verdict("mylib::a_(Tensor(a!) self) -> Tensor(a!)", add_one_, TA_V_OK);
    expect_verdict("mylib::tv_(Tensor(a!) self) -> Tensor(a!)", tail_view, TA_V_INPLACE_NOT_SELF);
}

static void test_out_partially_written(void **state)
{
    (void)state;
    ta_verify_report *r = run("mylib::f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", first_only_out, 40);
    assert_int_equal(r->ops[0].verdict, TA_V_OUT_NOT_WRITTEN);
    assert_true(has(r, TA_V_OUT_NOT_WRITTEN, "out"));
    assert_non_null(strstr(r->ops[0].findings[0].message, "was not written"));
    assert_true(r->ops[0].exercised > 0);
    ta_verify_report_destroy(r);
}

static void test_no_kernel_and_bad_schema(void **state)
{
    (void)state;
    ta_registry *reg;
    assert_int_equal(ta_registry_create(&reg), TA_OK);
    assert_int_equal(ta_register_op(reg, "mylib::nk(Tensor a) -> Tensor", TA_KEY_CATCHALL, NULL, NULL), TA_OK);
    assert_int_equal(ta_register_op(reg, "mylib::bad(Tensor a -> Tensor", TA_KEY_CPU, add_one_, NULL), TA_OK);
    const char *ops[3] = {"mylib::nk", "mylib::bad", "mylib::unknown"};
    ta_verify_opts o = {.in_process = true, .cases = 3};
    ta_verify_report *r;
    assert_int_equal(ta_verify(reg, ops, 3, &o, &r, NULL), TA_OK);
    assert_int_equal(r->ops[0].verdict, TA_V_NO_KERNEL);
    assert_int_equal(r->ops[0].severity, TA_SEV_NOTE);
    assert_int_equal(r->ops[1].verdict, TA_V_KERNEL_ERROR);
    assert_int_equal(r->ops[2].verdict, TA_V_NO_KERNEL);
    ta_verify_report_destroy(r);
    ta_registry_destroy(reg);
}

/* A builder for one float32 tensor [NaN, 1, 2] (NaN with payload 1). */
static ta_status nan_builder(void *ud, ta_exec *x, const ta_schema *s, const ta_decl *d,
                             uint64_t seed, ta_case *c)
{
    (void)ud;
    (void)s;
    (void)d;
    (void)seed;
    c->nargs = c->nslots = 0;
    int64_t three = 3;
    DLTensor *t;
    assert_int_equal(ta_exec_empty(x, TA_DTYPE_F32, 1, &three, &t), TA_OK);
    uint32_t nan = 0x7fc00001u;
    memcpy(t->data, &nan, 4);
    ((float *)t->data)[1] = 1;
    ((float *)t->data)[2] = 2;
    ta_value v = {.tag = TA_VAL_TENSOR};
    v.u.tensor = t;
    ta_case_push(c, x, v);
    return ta_case_add_slot(c, x, 0, -1, t, false);
}

/* Rewrites the NaN with another payload: still NaN, other bytes. */
static ta_status nan_payload(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    uint32_t other = 0x7fc00002u;
    memcpy(x->data, &other, 4);
    return ret(st, copy_of(ctx, x));
}

static void emit_collect(void *ud, const ta_finding *f)
{
    ta_finding *out = ud;
    if (out->kind == TA_V_OK) *out = *f;
}

static void test_nan_payload(void **state)
{
    (void)state;
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_schema *s;
    const char *text = "mylib::n(Tensor self) -> Tensor";
    assert_int_equal(ta_schema_parse(a, text, strlen(text), NULL, &s, NULL), TA_OK);
    ta_decl *d;
    assert_int_equal(ta_decl_build(a, s, &d), TA_OK);
    ta_exec *x;
    assert_int_equal(ta_exec_create(NULL, &x), TA_OK);
    ta_finding got = {.kind = TA_V_OK};
    ta_observer *ck = ta_observer_create(x, s, d, nan_payload, NULL, 0, emit_collect, &got);
    ta_case_source from = {nan_builder, NULL, true, false};
    assert_int_equal(ta_observer_run(ck, 7, &from), TA_CASE_RAN);
    assert_int_equal(got.kind, TA_V_UNDECLARED_MUTATION);
    assert_string_equal(got.argument, "self");
    assert_non_null(strstr(got.message, "element 0 of 3"));
    assert_int_equal(got.seed, 7);
    ta_observer_destroy(ck);
    ta_exec_destroy(x);
    ta_arena_destroy(a);
}

/* A builder for a written float32 view [3] with strides [2] and offset 1
 * element, in a storage of 8 elements: its elements are storage elements
 * 1, 3 and 5; 0, 2, 4, 6 and 7 are no one's. */
static ta_status sliced_builder(void *ud, ta_exec *x, const ta_schema *s, const ta_decl *d,
                                uint64_t seed, ta_case *c)
{
    (void)ud;
    (void)s;
    (void)d;
    (void)seed;
    c->nargs = c->nslots = 0;
    uint32_t sid;
    assert_int_equal(ta_exec_storage_new(x, 8 * 4, &sid), TA_OK);
    int64_t three = 3, two = 2;
    DLTensor *t;
    assert_int_equal(ta_exec_tensor(x, sid, TA_DTYPE_F32, 1, &three, &two, 4, &t), TA_OK);
    for (int i = 0; i < 8; i++) ((float *)t->data)[i] = (float)i;
    ta_value v = {.tag = TA_VAL_TENSOR};
    v.u.tensor = t;
    ta_case_push(c, x, v);
    return ta_case_add_slot(c, x, 0, -1, t, false);
}

/* Writes storage element *(int *)user_data of self's storage, then returns self. */
static ta_status write_storage_elem(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    ((float *)x->data)[*(int *)ta_kernel_user_data(ctx)] = -1;
    return ret(st, x);
}

/* Every byte a kernel changes must be in a written argument's view: the
 * elements of a sliced self may change, the gaps between them and the bytes
 * before and after it may not. */
static void test_writes_outside_view(void **state)
{
    (void)state;
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_schema *s;
    const char *text = "mylib::w_(Tensor(a!) self) -> Tensor(a!)";
    assert_int_equal(ta_schema_parse(a, text, strlen(text), NULL, &s, NULL), TA_OK);
    ta_decl *d;
    assert_int_equal(ta_decl_build(a, s, &d), TA_OK);
    ta_exec *x;
    assert_int_equal(ta_exec_create(NULL, &x), TA_OK);
    for (int e = 0; e < 8; e++) {
        ta_finding got = {.kind = TA_V_OK};
        ta_observer *ck = ta_observer_create(x, s, d, write_storage_elem, &e, 0, emit_collect, &got);
        ta_case_source from = {sliced_builder, NULL, true, false};
        assert_int_equal(ta_observer_run(ck, 1, &from), TA_CASE_RAN);
        bool in_view = e == 1 || e == 3 || e == 5;
        assert_int_equal(got.kind, in_view ? TA_V_OK : TA_V_UNDECLARED_MUTATION);
        if (!in_view) {
            char want[64];
            snprintf(want, sizeof want, "of its storage (storage element %d), which is outside", e);
            assert_non_null(strstr(got.message, want));
            assert_string_equal(got.argument, "self");
        }
        ta_observer_destroy(ck);
    }
    ta_exec_destroy(x);
    ta_arena_destroy(a);
}

static void test_elem_offsets(void **state)
{
    (void)state;
    int64_t shape[2] = {2, 3}, strides[2] = {1, 2};
    DLTensor t = {.ndim = 2, .shape = shape, .strides = strides, .dtype = TA_DTYPE_F64, .byte_offset = 8};
    /* (i, j) at 8 + 8 (i + 2 j) */
    assert_int_equal(ta_elem_offset(&t, 0), 8);
    assert_int_equal(ta_elem_offset(&t, 1), 8 + 16);
    assert_int_equal(ta_elem_offset(&t, 3), 8 + 8);
    assert_int_equal(ta_elem_at_offset(&t, 8 + 16 + 3), 1);
    assert_int_equal(ta_elem_at_offset(&t, 0), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_child_report_overflows_mailbox),
        cmocka_unit_test(test_many_operators_in_children),
        cmocka_unit_test(test_batch_crash_mid_batch),
        cmocka_unit_test(test_negative_zero_counts),
        cmocka_unit_test(test_declared_write_through_alias),
        cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_metadata_and_inplace),
        cmocka_unit_test(test_out_partially_written),
        cmocka_unit_test(test_no_kernel_and_bad_schema),
        cmocka_unit_test(test_nan_payload),
        cmocka_unit_test(test_elem_offsets),
        cmocka_unit_test(test_writes_outside_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
