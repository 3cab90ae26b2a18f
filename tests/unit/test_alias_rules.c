/* test_alias_rules.c - every alias rule fires on a schema that breaks it and
 * stays quiet on the corrected schema; diagnostics carry a position and the
 * catalogue's severity. Entry-level rules (autogen) are tested in
 * test_alias_rules_yaml.c with yaml snippets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "support/diags.h"
#include "tensoralias/alias.h"

typedef struct pair {
    const char *rule, *bad, *good;
} pair;

static const pair cases[] = {
    {"alias-annotation-form", "foo(Tensor(ab) self) -> Tensor(ab)", "foo(Tensor(a) self) -> Tensor(a)"},
    {"alias-annotation-form", "foo(Tensor(a|b!) self) -> ()", "foo(Tensor(a!) self) -> ()"},
    {"alias-annotation-form", "foo(Tensor! self) -> ()", "foo(Tensor(a!) self) -> ()"},
    {"alias-out-kwarg-only", "abs.out(Tensor self, Tensor(a!) out) -> Tensor(a!)",
     "abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"},
    {"alias-out-positional", "attn(Tensor(a!) out, Tensor q) -> Tensor",
     "attn(Tensor q, *, Tensor(a!) out) -> Tensor(a!)"},
    {"alias-out-positional", "lin.out(Tensor input, Tensor(a!) output) -> Tensor",
     "lin.out(Tensor input, *, Tensor(a!) output) -> Tensor(a!)"},
    {"alias-inplace-writes-more", "scale_(Tensor(a!) self, Tensor(b!) tracker) -> Tensor(a!)",
     "scale_(Tensor(a!) self, Tensor tracker) -> Tensor(a!)"},
    {"alias-out-not-written", "abs.out(Tensor self, *, Tensor out) -> Tensor",
     "abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"},
    {"alias-out-order", "abs.out(Tensor self, *, Tensor(a!) out, int k=0) -> Tensor(a!)",
     "abs.out(Tensor self, *, int k=0, Tensor(a!) out) -> Tensor(a!)"},
    {"alias-out-name", "abs.out(Tensor self, *, Tensor(a!) out0) -> Tensor(a!)",
     "abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"},
    {"alias-out-name", "f.out(Tensor self, *, Tensor(a!) out1, Tensor(b!) out0) -> (Tensor(a!), Tensor(b!))",
     "f.out(Tensor self, *, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))"},
    {"alias-out-return-mismatch",
     "f.out(Tensor self, *, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(b!), Tensor(a!))",
     "f.out(Tensor self, *, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))"},
    {"alias-out-return-count", "f.out(Tensor self, *, Tensor(a!) out0, Tensor(b!) out1) -> Tensor(a!)",
     "f.out(Tensor self, *, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))"},
    {"alias-out-return-count", "f.out(Tensor[] self, *, Tensor(a!)[] out) -> Tensor[]",
     "f.out(Tensor[] self, *, Tensor(a!)[] out) -> ()"},
    {"alias-inplace-self", "abs_(Tensor self) -> Tensor", "abs_(Tensor(a!) self) -> Tensor(a!)"},
    {"alias-inplace-self", "abs_(Tensor(a!) x) -> Tensor(a!)", "abs_(Tensor(a!) self) -> Tensor(a!)"},
    {"alias-inplace-return", "abs_(Tensor(a!) self) -> Tensor", "abs_(Tensor(a!) self) -> Tensor(a!)"},
    {"alias-inplace-return", "_foreach_abs_(Tensor(a!)[] self) -> Tensor[]", "_foreach_abs_(Tensor(a!)[] self) -> ()"},
    {"alias-return-write-unbound", "f(Tensor self) -> Tensor(a!)", "f(Tensor self) -> Tensor"},
    {"alias-mixed-returns", "f.out(Tensor self, *, Tensor(a!) out) -> (Tensor(a!), Tensor)",
     "f.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"},
    {"alias-positional-mutable-returned", "f(Tensor self, Tensor(a!) buf) -> Tensor(a!)",
     "f(Tensor self, Tensor(a!) buf) -> ()"},
    {"alias-write-inconsistent", "f(Tensor(a!) self, Tensor(a) other) -> ()", "f(Tensor(a!) self, Tensor(a!) other) -> ()"},
    {"alias-functional-overload", "foo.functional(Tensor(a!) self) -> ()", "foo.functional(Tensor self) -> Tensor"},
    {"alias-inplace-out", "g_.out(Tensor(a!) self, *, Tensor(b!) out) -> Tensor(a!)",
     "g.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"},
    {"alias-tensor-options-kind",
     "fill_(Tensor(a!) self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
     "bool? pin_memory=None) -> Tensor(a!)",
     "full(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
     "bool? pin_memory=None) -> Tensor"},
    {"alias-view-of-written", "f(Tensor(a!) self) -> Tensor(a)", "f(Tensor(a) self) -> Tensor(a)"},
    {"alias-set-once", "f(Tensor(a) self, Tensor other) -> Tensor", "f(Tensor(a) self, Tensor other) -> Tensor(a)"},
    {"alias-mutable-returns-self", "resize(Tensor(a!) self, int n) -> Tensor(a!)",
     "resize_(Tensor(a!) self, int n) -> Tensor(a!)"},
};

static ta_diags *check(const char *text)
{
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_schema *s = NULL;
    ta_parse_opts opts = {"t.yaml", 7, 9};
    if (ta_schema_parse(a, text, strlen(text), &opts, &s, d) != TA_OK) {
        printf("does not parse: %s\n", text);
        fail();
    }
    assert_int_equal(ta_alias_check_schema(s, d), TA_OK);
    ta_arena_destroy(a);
    return d;
}

static void test_pairs(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const pair *p = &cases[i];
        ta_diags *bad = check(p->bad), *good = check(p->good);
        const ta_diag *g = NULL;
        size_t nb = ta_test_count_rule(bad, p->rule, &g), ng = ta_test_count_rule(good, p->rule, NULL);
        if (nb == 0 || ng != 0) {
            printf("%s: bad '%s' flagged %zu times, good '%s' %zu times\n", p->rule, p->bad, nb, p->good, ng);
            for (size_t k = 0; k < ta_diags_count(good); k++) ta_diag_render(ta_diags_get(good, k), stdout);
        }
        assert_true(nb > 0);
        assert_int_equal(ng, 0);
        /* positioned on line 7 of t.yaml, inside the schema, with the catalogue's severity */
        assert_string_equal(g->source, "t.yaml");
        assert_int_equal(g->line, 7);
        assert_true(g->col >= 9 && g->col < 9 + strlen(p->bad));
        assert_non_null(g->message);
        size_t nr;
        const ta_rule_info *rules = ta_alias_rules(&nr);
        for (size_t k = 0; k < nr; k++)
            if (!strcmp(rules[k].id, p->rule)) assert_int_equal(g->severity, rules[k].severity);
        ta_diags_destroy(bad);
        ta_diags_destroy(good);
    }
}

/* every schema-level rule of the catalogue has a case above */
static void test_catalogue_covered(void **state)
{
    (void)state;
    size_t nr;
    const ta_rule_info *rules = ta_alias_rules(&nr);
    for (size_t k = 0; k < nr; k++) {
        if (!strncmp(rules[k].id, "alias-autogen-", 14)) continue; /* yaml test */
        bool found = false;
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            if (!strcmp(cases[i].rule, rules[k].id)) found = true;
        if (!found) printf("no test case for %s\n", rules[k].id);
        assert_true(found);
    }
}

/* well-formed operators of every kind raise nothing */
static void test_clean(void **state)
{
    (void)state;
    static const char *const clean[] = {
        "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
        "aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]",
        "aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
        "aten::_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()",
        "aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)",
        "aten::split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]",
        "aten::_amp_foreach_non_finite_check_and_unscale_(Tensor(a!)[] self, Tensor(b!) found_inf, Tensor inv_scale) -> ()",
        "aten::native_batch_norm.out(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, float eps, *, Tensor(c!) out, Tensor(d!) save_mean, Tensor(e!) save_invstd) -> (Tensor(c!), Tensor(d!), Tensor(e!))",
    };
    for (size_t i = 0; i < sizeof clean / sizeof clean[0]; i++) {
        ta_diags *d = check(clean[i]);
        for (size_t k = 0; k < ta_diags_count(d); k++) ta_diag_render(ta_diags_get(d, k), stdout);
        assert_int_equal(ta_diags_count(d), 0);
        ta_diags_destroy(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs),
        cmocka_unit_test(test_catalogue_covered),
        cmocka_unit_test(test_clean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
