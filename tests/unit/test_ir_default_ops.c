/* test_ir_default_ops.c - the default operator set compiled into the
 * library (tools/gen_default_ops.sh) against the files it is made of, read
 * by the library's own readers: torch 1.13.1's registered operators, then
 * the bundled native_functions.yaml. Same operators, same overloads in the
 * same order, same alias analysis kinds. Then the set made for one graph:
 * its nodes resolve exactly as against the whole set, and adding twice adds
 * nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "alias/ir/default_ops.h"
#include "support/ir_golden.h"
#include "support/testdata.h"

/* The set as the command made it before it was compiled in. */
static ta_ir_ops *ops_from_files(void)
{
    char path[512];
    ta_diags *d;
    ta_native_file *nf = NULL;
    ta_ir_ops *ops;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_ir_ops_create(&ops), TA_OK);
    assert_int_equal(ta_ir_ops_add_file(ops, ta_test_data_path(path, sizeof path, "golden/torch-1.13.1/registered-operators.txt"), d), TA_OK);
    assert_int_equal(ta_test_load_corpus("pytorch-main", &nf, d), TA_OK);
    assert_int_equal(ta_ir_ops_add_native(ops, nf, d), TA_OK);
    ta_native_destroy(nf);
    ta_diags_destroy(d);
    return ops;
}

static void test_same_as_files(void **state)
{
    (void)state;
    ta_ir_ops *files = ops_from_files(), *compiled;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_ir_ops_create(&compiled), TA_OK);
    assert_int_equal(ta_ir_ops_add_default(compiled, NULL, d), TA_OK);
    assert_int_equal(ta_diags_count(d), 0);
    assert_int_equal(ta_ir_ops_count(compiled), ta_ir_ops_count(files));
    assert_int_equal(ta_ir_ops_count(compiled), ir_default_nops);
    size_t seen = 0;
    char kind[256];
    for (uint32_t k = 0; k < ir_default_nkinds; k++) {
        const ir_default_kind *dk = &ir_default_kinds[k];
        assert_true(dk->len < sizeof kind);
        memcpy(kind, ir_default_text + dk->name, dk->len);
        kind[dk->len] = 0;
        const ta_ir_op *a = ta_ir_ops_overloads(files, kind), *b = ta_ir_ops_overloads(compiled, kind);
        assert_non_null(a);
        for (; a && b; a = ta_ir_op_next(a), b = ta_ir_op_next(b), seen++) {
            if (strcmp(ta_ir_op_text(a), ta_ir_op_text(b))) printf("%s\n%s\n", ta_ir_op_text(a), ta_ir_op_text(b));
            assert_string_equal(ta_ir_op_text(a), ta_ir_op_text(b));
            assert_int_equal(ta_ir_op_alias_kind(a), ta_ir_op_alias_kind(b));
        }
        assert_null(a);
        assert_null(b);
    }
    /* every operator of the files is one of the table's kinds */
    assert_int_equal(seen, ta_ir_ops_count(files));
    ta_ir_ops_destroy(files);
    ta_ir_ops_destroy(compiled);
    ta_diags_destroy(d);
}

static void test_by_kind(void **state)
{
    (void)state;
    ta_ir_ops *ops;
    ta_diags *d;
    bool found;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_ir_ops_create(&ops), TA_OK);
    assert_int_equal(ta_ir_ops_add_default_kind(ops, "aten::add", &found, d), TA_OK);
    assert_true(found);
    size_t n = ta_ir_ops_count(ops);
    assert_true(n >= 16);
    assert_string_equal(ta_ir_op_text(ta_ir_ops_overloads(ops, "aten::add")),
                        "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    assert_false(ta_ir_ops_has_kind(ops, "aten::add_"));
    /* again: nothing new */
    assert_int_equal(ta_ir_ops_add_default_kind(ops, "aten::add", &found, d), TA_OK);
    assert_int_equal(ta_ir_ops_count(ops), n);
    /* names sort around "aten::add": a prefix and longer names are other kinds */
    assert_int_equal(ta_ir_ops_add_default_kind(ops, "aten::ad", &found, d), TA_OK);
    assert_false(found);
    assert_int_equal(ta_ir_ops_add_default_kind(ops, "mylib::nothing", &found, d), TA_OK);
    assert_false(found);
    assert_int_equal(ta_ir_ops_add_default_kind(ops, "_quantized::add", &found, d), TA_OK);
    assert_true(found);
    assert_int_equal(ta_ir_ops_count(ops), n + 1);
    assert_int_equal(ta_diags_count(d), 0);
    ta_ir_ops_destroy(ops);
    ta_diags_destroy(d);
}

/* Resolves every node of b (and its blocks) with both sets: the same op. */
static size_t same_resolution(const ta_ir_block *b, const ta_ir_ops *all, const ta_ir_ops *some)
{
    size_t n = 0;
    for (const ta_ir_node *x = ta_ir_block_first(b); x; x = ta_ir_node_next(x)) {
        const ta_ir_op *p = ta_ir_ops_resolve(all, x), *q = ta_ir_ops_resolve(some, x);
        assert_true((p == NULL) == (q == NULL));
        if (p) assert_string_equal(ta_ir_op_text(p), ta_ir_op_text(q));
        n++;
        for (uint32_t k = 0; k < ta_ir_node_nblocks(x); k++) n += same_resolution(ta_ir_node_block_at(x, k), all, some);
    }
    return n;
}

static void test_for_graph(void **state)
{
    (void)state;
    const char *graphs[] = {"golden/aliasdb-1.13.1/resnet18", "golden/aliasdb-1.13.1/synth_2_200",
                            "golden/aliasdb-1.13.1/tensoralias/ir_special_kinds",
                            "golden/aliasdb-1.13.1/tensoralias/func_dict"};
    const ta_ir_ops *all = ta_test_default_ops();
    assert_non_null(all);
    for (size_t i = 0; i < sizeof graphs / sizeof graphs[0]; i++) {
        ta_ir_graph *g = ta_test_read_graph(graphs[i]);
        assert_non_null(g);
        ta_ir_ops *some;
        ta_diags *d;
        assert_int_equal(ta_diags_create(&d), TA_OK);
        assert_int_equal(ta_ir_ops_create(&some), TA_OK);
        assert_int_equal(ta_ir_ops_add_default(some, g, d), TA_OK);
        size_t n = ta_ir_ops_count(some);
        assert_true(n > 0 && n < ta_ir_ops_count(all) / 10);
        printf("%-48s %zu nodes, %zu of %zu overloads\n", graphs[i], same_resolution(ta_ir_graph_block(g), all, some),
               n, ta_ir_ops_count(all));
        assert_int_equal(ta_ir_ops_add_default(some, g, d), TA_OK);
        assert_int_equal(ta_ir_ops_count(some), n);
        assert_int_equal(ta_diags_count(d), 0);
        ta_ir_ops_destroy(some);
        ta_diags_destroy(d);
        ta_ir_graph_destroy(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_as_files),
        cmocka_unit_test(test_by_kind),
        cmocka_unit_test(test_for_graph),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
