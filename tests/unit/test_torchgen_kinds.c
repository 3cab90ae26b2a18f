/* test_torchgen_kinds.c - torchgen's reading of single schemas: SchemaKind
 * (precedence of inplace, scratch, out, mutable), is_view_op (non-written
 * return alias, inplace_view tag, wildcard), signature() (overload, "_",
 * "_functional", out arguments, TensorOptions, annotations, written inputs
 * as returns, return names, defaults, "_copy", bernoulli.p) and torchgen's
 * spelling of a schema. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tensoralias/torchgen.h"

static ta_arena *arena;

static const ta_schema *parse(const char *text)
{
    ta_schema *s = NULL;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_status st = ta_schema_parse(arena, text, strlen(text), NULL, &s, d);
    if (st != TA_OK) fprintf(stderr, "cannot parse %s\n", text);
    ta_diags_destroy(d);
    assert_int_equal(st, TA_OK);
    return s;
}

static int setup(void **state)
{
    (void)state;
    assert_int_equal(ta_arena_create(&arena), TA_OK);
    return arena ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ta_arena_destroy(arena);
    return 0;
}

static void kind_is(const char *schema, ta_schema_kind k)
{
    ta_schema_kind got = ta_schema_kind_of(parse(schema));
    if (got != k) fprintf(stderr, "%s: %s\n", schema, ta_schema_kind_str(got));
    assert_int_equal(got, k);
}

static void test_kinds(void **state)
{
    (void)state;
    kind_is("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", TA_KIND_FUNCTIONAL);
    kind_is("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", TA_KIND_INPLACE);
    kind_is("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", TA_KIND_OUT);
    kind_is("__iand__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", TA_KIND_INPLACE);
    kind_is("__and__.Scalar(Tensor self, Scalar other) -> Tensor", TA_KIND_FUNCTIONAL);
    kind_is("_fused_moving_avg_obs_fq_helper(Tensor self, Tensor(a!) running_min) -> (Tensor output, Tensor mask)",
            TA_KIND_MUTABLE);
    kind_is("_foo.out(Tensor self, *, Tensor(a!) out, Tensor(b!) _scratch_buf) -> Tensor(a!)", TA_KIND_SCRATCH);
    /* a written self alone is not "mutable": only arguments after self count */
    kind_is("set_data(Tensor(a!) self, Tensor new_data) -> ()", TA_KIND_FUNCTIONAL);
    /* without self, every positional argument counts */
    kind_is("_amp_update_scale_(Tensor(a!) self, Tensor(b!) growth_tracker) -> Tensor(a!)", TA_KIND_INPLACE);
    kind_is("_cummax_helper(Tensor self, Tensor(a!) values, Tensor(b!) indices, int dim) -> ()", TA_KIND_MUTABLE);
    kind_is("foo(Tensor(a!) x) -> ()", TA_KIND_MUTABLE);
    assert_string_equal(ta_schema_kind_str(TA_KIND_SCRATCH), "scratch");
    assert_int_equal(ta_schema_first_out(parse("a.out(Tensor x, *, int k=1, Tensor(a!) out) -> Tensor(a!)")), 2);
}

static void test_view_ops(void **state)
{
    (void)state;
    assert_true(ta_schema_is_view_op(parse("view(Tensor(a) self, SymInt[] size) -> Tensor(a)"), false));
    assert_true(ta_schema_is_view_op(parse("chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]"), false));
    assert_true(ta_schema_is_view_op(parse("foo(Tensor(a -> *) self) -> ()"), false));
    assert_false(ta_schema_is_view_op(parse("abs_(Tensor(a!) self) -> Tensor(a!)"), false));
    assert_true(ta_schema_is_view_op(parse("t_(Tensor(a!) self) -> Tensor(a!)"), true));
    /* resize_ and resize_as_ are tagged inplace_view, yet not views */
    assert_false(ta_schema_is_view_op(parse("resize_(Tensor(a!) self, SymInt[] size) -> Tensor(a!)"), true));
    assert_false(ta_schema_is_view_op(parse("resize_as_(Tensor(a!) self, Tensor t) -> Tensor(a!)"), true));
    assert_false(ta_schema_is_view_op(parse("add(Tensor self, Tensor other) -> Tensor"), false));
}

static void sig_is(const char *schema, unsigned flags, const char *want)
{
    ta_schema *sig;
    assert_int_equal(ta_schema_signature(arena, parse(schema), flags, &sig), TA_OK);
    char buf[1024];
    size_t n = ta_schema_print_torchgen(sig, buf, sizeof buf);
    assert_int_equal(n, strlen(want));
    assert_string_equal(buf, want);
    assert_string_equal(sig->text, want);
}

static void test_signatures(void **state)
{
    (void)state;
    sig_is("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", 0,
           "add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    sig_is("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", 0,
           "add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    sig_is("__iand__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", 0,
           "__and__(Tensor self, Scalar other) -> Tensor");
    /* TensorOptions go; the keyword-only arguments after them stay */
    sig_is("empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
           "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
           0, "empty(SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor");
    /* not TensorOptions when out of order */
    sig_is("f(*, Layout? layout=None, ScalarType? dtype=None, Device? device=None, bool? pin_memory=None) -> Tensor",
           0, "f(*, Layout? layout=None, ScalarType? dtype=None, Device? device=None, bool? pin_memory=None) -> Tensor");
    /* written inputs not returned become returns: self, out, then the rest */
    sig_is("m(Tensor self, Tensor(a!) x, Tensor(b!) y) -> (Tensor r, Tensor s)", 0,
           "m(Tensor self, Tensor x, Tensor y) -> (Tensor, Tensor, Tensor, Tensor)");
    sig_is("m(Tensor self, Tensor(a!) x, Tensor(b!) y) -> (Tensor r, Tensor s)", TA_SIG_KEEP_RETURN_NAMES,
           "m(Tensor self, Tensor x, Tensor y) -> (Tensor r, Tensor s, Tensor x_out, Tensor y_out)");
    sig_is("g_(Tensor(a!)[] self, Scalar s) -> ()", 0, "g(Tensor[] self, Scalar s) -> Tensor[]");
    sig_is("h.out(Tensor x, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
           0, "h(Tensor x) -> (Tensor, Tensor)");
    sig_is("foo_functional(Tensor x) -> Tensor", 0, "foo(Tensor x) -> Tensor");
    sig_is("foo.a(Tensor x, int k=3) -> Tensor", TA_SIG_STRIP_DEFAULT, "foo(Tensor x, int k) -> Tensor");
    sig_is("view_copy.dtype(Tensor self, ScalarType dtype) -> Tensor", TA_SIG_STRIP_VIEW_COPY_NAME,
           "view(Tensor self, ScalarType dtype) -> Tensor");
    sig_is("slice_scatter(Tensor self, Tensor src, int dim=0) -> Tensor", TA_SIG_STRIP_VIEW_COPY_NAME,
           "slice_inverse(Tensor self, Tensor src, int dim=0) -> Tensor");
    sig_is("view_copy.dtype(Tensor self, ScalarType dtype) -> Tensor", 0,
           "view_copy(Tensor self, ScalarType dtype) -> Tensor");
    /* Note [bernoulli.p schema] */
    sig_is("bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor", 0,
           "bernoulli(Tensor self, float p=0.5, *, Generator? generator=None) -> Tensor");
    sig_is("x(Tensor(a) self) -> Tensor(a)", 0, "x(Tensor self) -> Tensor");
}

static void print_is(const char *schema, const char *want)
{
    char buf[512];
    ta_schema_print_torchgen(parse(schema), buf, sizeof buf);
    assert_string_equal(buf, want);
}

static void test_torchgen_spelling(void **state)
{
    (void)state;
    print_is("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> (Tensor)",
             "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    print_is("f(Tensor(a! -> a|b) x, Tensor(a)? y, Tensor(b!)[] z, int[2] k=[1, 1]) -> ()",
             "f(Tensor(a! -> a|b) x, Tensor(a)? y, Tensor(b!)[] z, int[2] k=[1, 1]) -> ()");
    print_is("g(Tensor x) -> (Tensor a, Tensor b)", "g(Tensor x) -> (Tensor a, Tensor b)");
    /* a short buffer gets a truncated, terminated string and the full length */
    char small[8];
    size_t n = ta_schema_print_torchgen(parse("g(Tensor x) -> Tensor"), small, sizeof small);
    assert_int_equal(n, strlen("g(Tensor x) -> Tensor"));
    assert_string_equal(small, "g(Tenso");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_view_ops),
        cmocka_unit_test(test_signatures),
        cmocka_unit_test(test_torchgen_spelling),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
