/* test_alias_rules_yaml.c - the alias rules that read a yaml entry's fields
 * (autogen), each on a small native_functions.yaml snippet that breaks it
 * and on its corrected version; and schema rules positioned at the entry's
 * yaml line and column when run as the check pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "support/diags.h"
#include "tensoralias/alias.h"
#include "tensoralias/native.h"

typedef struct ycase {
    const char *rule, *bad, *good;
} ycase;

static const ycase cases[] = {
    {"alias-autogen-view",
     "- func: alias2(Tensor(a) self) -> Tensor(a)\n  dispatch:\n    CPU: alias2\n  autogen: alias2.out\n",
     "- func: alias2(Tensor(a) self) -> Tensor(a)\n  dispatch:\n    CPU: alias2\n"},
    {"alias-autogen-composite",
     "- func: mix(Tensor self) -> Tensor\n  dispatch:\n    CompositeImplicitAutograd: mix\n  autogen: mix.out\n",
     "- func: mix(Tensor self) -> Tensor\n  dispatch:\n    CompositeExplicitAutograd: mix\n  autogen: mix.out\n"},
    {"alias-autogen-manual",
     "- func: raw(Tensor self) -> Tensor\n  manual_kernel_registration: True\n  dispatch:\n    CPU: raw\n  autogen: raw.out\n",
     "- func: raw(Tensor self) -> Tensor\n  dispatch:\n    CPU: raw\n  autogen: raw.out\n"},
    {"alias-autogen-implicit-composite",
     "- func: soft(Tensor self) -> Tensor\n  autogen: soft.out\n",
     "- func: soft(Tensor self) -> Tensor\n  dispatch:\n    CompositeExplicitAutograd: soft\n  autogen: soft.out\n"},
};

static ta_diags *run(const char *yaml)
{
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_native_file *f = NULL;
    ta_status st = ta_native_load_buffer(yaml, strlen(yaml), "t.yaml", NULL, 0, NULL, &f, d);
    if (st != TA_OK) {
        for (size_t i = 0; i < ta_diags_count(d); i++) ta_diag_render(ta_diags_get(d, i), stdout);
        fail();
    }
    assert_int_equal(ta_alias_native_pass(f, d), TA_OK);
    ta_native_destroy(f);
    return d;
}

static void test_entry_rules(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ta_diags *bad = run(cases[i].bad), *good = run(cases[i].good);
        const ta_diag *g = NULL;
        size_t nb = ta_test_count_rule(bad, cases[i].rule, &g), ng = ta_test_count_rule(good, cases[i].rule, NULL);
        if (nb != 1 || ng != 0) printf("%s: bad %zu, good %zu\n", cases[i].rule, nb, ng);
        assert_int_equal(nb, 1);
        assert_int_equal(ng, 0);
        /* at the autogen key */
        assert_string_equal(g->source, "t.yaml");
        assert_non_null(g->source_line);
        assert_non_null(strstr(g->source_line, "autogen"));
        assert_int_equal(g->col, 3);
        ta_diags_destroy(bad);
        ta_diags_destroy(good);
    }
}

/* a schema rule, run as the check pass, points into the yaml line */
static void test_schema_rule_position(void **state)
{
    (void)state;
    const char *yaml = "- func: ok(Tensor self) -> Tensor\n"
                       "  dispatch:\n    CPU: ok\n"
                       "\n"
                       "- func: abs_(Tensor self) -> Tensor\n"
                       "  dispatch:\n    CPU: abs_\n";
    ta_diags *d = run(yaml);
    const ta_diag *g = NULL;
    assert_int_equal(ta_test_count_rule(d, "alias-inplace-self", &g), 1);
    assert_int_equal(g->line, 5);
    /* "- func: abs_(" : self's argument starts at column 14 */
    assert_int_equal(g->col, 14);
    assert_non_null(g->source_line);
    assert_int_equal(strncmp(g->source_line, "- func: abs_", 12), 0);
    assert_non_null(g->hint);
    ta_diags_destroy(d);
}

/* check's pass list ends with the alias pass */
static void test_pass_hook(void **state)
{
    (void)state;
    size_t n;
    const ta_native_pass *p = ta_alias_native_passes(&n);
    assert_int_equal(n, 1);
    assert_string_equal(p[0].name, "alias");
    assert_true(p[0].run == ta_alias_native_pass);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entry_rules),
        cmocka_unit_test(test_schema_rule_position),
        cmocka_unit_test(test_pass_hook),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
