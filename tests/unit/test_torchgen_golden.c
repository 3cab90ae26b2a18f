/* test_torchgen_golden.c - the family model against torchgen 1.13.1 itself
 * (tests/data/golden/torch-1.13.1/torchgen-{functions,groups}.jsonl), on the
 * 1.13.1 yaml:
 *   - kind, is_view_op and signature of every yaml function;
 *   - the derived functions: the same 459, in the same order, schema string
 *     for schema string, and every field of every row (yaml or derived) that
 *     the model holds;
 *   - the groups: every kinds group whose members all come from the yaml,
 *     every view group, then every group row for row.
 * Mismatches are counted (the first few printed) and must be zero. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "support/golden.h"
#include "support/testdata.h"
#include "tensoralias/native.h"
#include "tensoralias/torchgen.h"

static ta_native_file *nf;
static ta_torchgen *tg;
static json_t **frows, **grows;
static size_t nfrows, ngrows;
static ta_golden G = {.show = 12};

static int setup(void **state)
{
    (void)state;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    if (ta_test_load_corpus("pytorch-1.13.1", &nf, d) != TA_OK) return -1;
    ta_diags_clear(d);
    if (ta_torchgen_from_native(nf, &tg, d) != TA_OK) return -1;
    ta_diags_destroy(d);
    frows = ta_test_read_jsonl("golden/torch-1.13.1/torchgen-functions.jsonl", &nfrows);
    grows = ta_test_read_jsonl("golden/torch-1.13.1/torchgen-groups.jsonl", &ngrows);
    return frows && grows ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ta_test_free_jsonl(frows, nfrows);
    ta_test_free_jsonl(grows, ngrows);
    ta_torchgen_destroy(tg);
    ta_native_destroy(nf);
    return 0;
}

/* Part 1: kind, is_view_op and signature of every function of the yaml. */
static void test_kinds_of_yaml_functions(void **state)
{
    (void)state;
    G.mismatches = 0;
    size_t nyaml = ta_torchgen_count(tg) - ta_torchgen_count_derived(tg);
    size_t seen = 0;
    for (size_t i = 0; i < nfrows; i++) {
        const json_t *row = frows[i];
        if (json_is_true(json_object_get(row, "generated"))) continue;
        if (seen >= nyaml) {
            ta_golden_mismatch(&G, row, "presence", "a function", "none");
            continue;
        }
        const ta_tg_function *f = ta_torchgen_get(tg, seen++);
        ta_golden_str(&G, row, "name", f->name);
        ta_golden_str(&G, row, "kind", ta_schema_kind_str(f->kind));
        ta_golden_bool(&G, row, "is_view_op", f->is_view_op);
        ta_golden_str(&G, row, "signature", f->signature);
    }
    if (seen != nyaml) ta_golden_mismatch(&G, frows[0], "count of yaml functions", "2493", "other");
    fprintf(stderr, "yaml functions: %zu, kind/is_view_op/signature mismatches: %d\n", seen,
            G.mismatches);
    assert_int_equal(seen, 2493);
    assert_int_equal(G.mismatches, 0);
}

/* Part 2: torchgen's whole list, derived functions included, field by field. */
static void test_every_function_every_field(void **state)
{
    (void)state;
    G.mismatches = 0;
    assert_int_equal(ta_torchgen_count(tg), nfrows);
    assert_int_equal(ta_torchgen_count_derived(tg), 459);
    for (size_t i = 0; i < nfrows; i++) {
        const json_t *row = frows[i];
        const ta_tg_function *f = ta_torchgen_get(tg, i);
        ta_golden_str(&G, row, "func", f->func);
        ta_golden_str(&G, row, "name", f->name);
        ta_golden_bool(&G, row, "generated", f->generated);
        if ((uint32_t)json_integer_value(json_object_get(row, "line")) != f->line)
            ta_golden_mismatch(&G, row, "line", "other", "ours");
        ta_golden_str(&G, row, "kind", ta_schema_kind_str(f->kind));
        ta_golden_bool(&G, row, "is_view_op", f->is_view_op);
        ta_golden_str(&G, row, "signature", f->signature);
        ta_golden_list(&G, row, "tags", f->tags, f->ntags);
        ta_golden_list(&G, row, "autogen", f->autogen, f->nautogen);
        ta_golden_list(&G, row, "variants", f->variants, f->nvariants);
        ta_golden_bool(&G, row, "structured", f->structured);
        ta_golden_str(&G, row, "structured_delegate", f->structured_delegate);
        ta_golden_bool(&G, row, "manual_cpp_binding", f->manual_cpp_binding);
        ta_golden_bool(&G, row, "has_composite_implicit_autograd_kernel",
                   f->has_composite_implicit_autograd_kernel);
        ta_golden_bool(&G, row, "has_composite_explicit_autograd_kernel",
                   f->has_composite_explicit_autograd_kernel);
        /* a derived function carries a plan; a yaml one does not */
        if ((f->plan != NULL) != f->generated) ta_golden_mismatch(&G, row, "plan", "present iff generated", "?");
        /* a derived schema is a whole model: the parser's canonical printer
         * spells it as torchgen does, and its text parses back to itself */
        if (f->generated) {
            char buf[4096];
            ta_schema_print_canonical(f->schema, buf, sizeof buf);
            ta_golden_str(&G, row, "func", buf); /* the canonical print of the derived model */
            ta_arena *a;
            assert_int_equal(ta_arena_create(&a), TA_OK);
            ta_schema *back = NULL;
            ta_diags *d;
            assert_int_equal(ta_diags_create(&d), TA_OK);
            if (ta_schema_parse(a, f->schema->text, f->schema->text_len, NULL, &back, d) != TA_OK ||
                ta_schema_kind_of(back) != f->kind || back->nargs != f->schema->nargs ||
                back->nrets != f->schema->nrets)
                ta_golden_mismatch(&G, row, "reparse", "same schema", "other");
            ta_diags_destroy(d);
            ta_arena_destroy(a);
        }
    }
    fprintf(stderr, "functions: %zu (derived %zu), field mismatches: %d\n", nfrows,
            ta_torchgen_count_derived(tg), G.mismatches);
    assert_int_equal(G.mismatches, 0);
}

static const char *member(int32_t i) { return i >= 0 ? ta_torchgen_get(tg, (size_t)i)->name : NULL; }

static bool from_yaml(int32_t i) { return i < 0 || !ta_torchgen_get(tg, (size_t)i)->generated; }

static void check_group(const json_t *row, const ta_tg_group *g)
{
    if (g->kind == TA_GROUP_KINDS) {
        ta_golden_str(&G, row, "group", "kinds");
        ta_golden_str(&G, row, "signature", g->signature);
        ta_golden_str(&G, row, "functional", member(g->functional));
        ta_golden_str(&G, row, "inplace", member(g->inplace));
        ta_golden_str(&G, row, "mutable", member(g->mutable_fn));
        ta_golden_str(&G, row, "out", member(g->out));
    } else {
        ta_golden_str(&G, row, "group", "view");
        ta_golden_str(&G, row, "view", member(g->view));
        ta_golden_str(&G, row, "view_copy", member(g->view_copy));
        ta_golden_str(&G, row, "view_inplace", member(g->view_inplace));
    }
}

static bool golden_all_yaml(const json_t *row)
{
    static const char *const keys[] = {"functional", "inplace", "mutable", "out",
                                       "view", "view_copy", "view_inplace"};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        const json_t *v = json_object_get(row, keys[k]);
        if (!json_is_string(v)) continue;
        int32_t i = ta_torchgen_find(tg, json_string_value(v));
        if (i < 0 || !from_yaml(i)) return false;
    }
    return true;
}

/* Part 1: the groups whose members all come from the yaml (in order). */
static void test_groups_of_yaml_functions(void **state)
{
    (void)state;
    G.mismatches = 0;
    size_t want = 0, j = 0, n = ta_torchgen_group_count(tg);
    for (size_t i = 0; i < ngrows; i++) {
        if (!golden_all_yaml(grows[i])) continue;
        want++;
        /* our next group made of yaml functions only */
        const ta_tg_group *g = NULL;
        while (j < n && !g) {
            const ta_tg_group *c = ta_torchgen_group_get(tg, j++);
            if (from_yaml(c->functional) && from_yaml(c->inplace) && from_yaml(c->mutable_fn) &&
                from_yaml(c->out) && from_yaml(c->view) && from_yaml(c->view_copy) &&
                from_yaml(c->view_inplace))
                g = c;
        }
        if (!g) {
            ta_golden_mismatch(&G, grows[i], "group", "present", "missing");
            continue;
        }
        check_group(grows[i], g);
    }
    fprintf(stderr, "groups of yaml functions: %zu, mismatches: %d\n", want, G.mismatches);
    assert_true(want > 600);
    assert_int_equal(G.mismatches, 0);
}

/* Part 2: every group, row for row. */
static void test_all_groups(void **state)
{
    (void)state;
    G.mismatches = 0;
    assert_int_equal(ta_torchgen_group_count(tg), ngrows);
    for (size_t i = 0; i < ngrows; i++) check_group(grows[i], ta_torchgen_group_get(tg, i));
    fprintf(stderr, "groups: %zu, mismatches: %d\n", ngrows, G.mismatches);
    assert_int_equal(G.mismatches, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds_of_yaml_functions),
        cmocka_unit_test(test_groups_of_yaml_functions),
        cmocka_unit_test(test_every_function_every_field),
        cmocka_unit_test(test_all_groups),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
