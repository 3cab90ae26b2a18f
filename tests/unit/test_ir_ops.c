/* test_ir_ops.c - resolving a node's operator to an overload, as
 * TorchScript's Node::matches does, against torch 1.13.1's registered
 * operators (in registration order) and the bundled yaml; loading operator
 * sets from text, with positioned errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/ir_golden.h"

/* The overload (name.overload) the first node of `body` resolves to, in a
 * graph with inputs `params`; "" when none does. */
static void expect(const ta_ir_ops *ops, const char *params, const char *body, const char *want)
{
    char text[1024];
    snprintf(text, sizeof text, "graph(%s):\n%s\n  return ()\n", params, body);
    ta_ir_graph *g;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    if (ta_ir_read(text, strlen(text), "case", &g, d) != TA_OK) {
        ta_diag_render(ta_diags_get(d, 0), stdout);
        fail();
    }
    const ta_ir_op *op = ta_ir_ops_resolve(ops, ta_ir_block_first(ta_ir_graph_block(g)));
    char got[256] = "";
    if (op) {
        const ta_schema *s = ta_ir_op_schema(op);
        snprintf(got, sizeof got, "%.*s.%.*s", (int)s->full_name.len, s->full_name.ptr, (int)s->overload.len,
                 s->overload.ptr);
    }
    if (strcmp(got, want)) printf("%s\n  resolved to '%s', expected '%s'\n", text, got, want);
    assert_string_equal(got, want);
    ta_ir_graph_destroy(g);
    ta_diags_destroy(d);
}

static void test_resolution(void **state)
{
    (void)state;
    const ta_ir_ops *ops = ta_test_default_ops();
    assert_non_null(ops);
    const char *t3 = "%a : Tensor, %b : Tensor, %c : Tensor, %i : int, %f : float, %s : str, %n : NoneType";
    expect(ops, t3, "  %x : Tensor = aten::add(%a, %b, %i)", "aten::add.Tensor");
    expect(ops, t3, "  %x : Tensor = aten::add(%a, %i, %i)", "aten::add.Scalar");
    expect(ops, t3, "  %x : Tensor = aten::add(%a, %f, %i)", "aten::add.Scalar");
    expect(ops, t3, "  %x : Tensor = aten::add(%a, %b, %i, %c)", "aten::add.out");
    expect(ops, t3, "  %x : int = aten::add(%i, %i)", "aten::add.int");
    expect(ops, t3, "  %x : float = aten::add(%f, %i)", "aten::add.float_int");
    expect(ops, t3, "  %x : str = aten::add(%s, %s)", "aten::add.str");
    expect(ops, "%l : Tensor[]", "  %x : Tensor[] = aten::add(%l, %l)", "aten::add.t");
    /* int is no subtype of float: no float overload takes two ints */
    expect(ops, t3, "  %x : int = aten::mul(%i, %i)", "aten::mul.int");
    /* type variables */
    expect(ops, "%l : Tensor[], %i : int", "  %x : Tensor = aten::__getitem__(%l, %i)", "aten::__getitem__.t");
    expect(ops, "%d : Dict(str, Tensor), %s : str", "  %x : Tensor = aten::__getitem__(%d, %s)",
           "aten::__getitem__.Dict_str");
    expect(ops, "%l : Tensor[], %t : Tensor", "  %x : Tensor[] = aten::append(%l, %t)", "aten::append.t");
    expect(ops, "%l : int[], %t : Tensor", "  %x : int[] = aten::append(%l, %t)", "");
    /* None for an optional, and for Optional[t] */
    expect(ops, "%a : Tensor, %n : NoneType", "  %x : Tensor = aten::clone(%a, %n)", "aten::clone.");
    /* a detailed tensor is a Tensor; a list of them is not a Tensor[] */
    expect(ops, "%a : Float(2, 3), %i : int", "  %x : Tensor = aten::relu(%a)", "aten::relu.");
    /* "..." takes any further inputs */
    expect(ops, "%s : str, %i : int, %a : Tensor", "  %x : str = aten::format(%s, %i, %a)", "aten::format.");
    /* wrong arity or types: nothing */
    expect(ops, "%a : Tensor", "  %x : Tensor = aten::relu(%a, %a)", "aten::relu.out");
    expect(ops, "%a : Tensor", "  %x : Tensor = aten::relu(%a, %a, %a)", "");
    expect(ops, "%a : Tensor", "  %x : Tensor = mylib::nothing(%a)", "");
    /* special cases the registry knows */
    expect(ops, "%t : (Tensor, int), %i : int", "  %x : Tensor = prim::TupleIndex(%t, %i)", "prim::TupleIndex.");
    assert_true(ta_ir_ops_has_kind(ops, "aten::add"));
    assert_false(ta_ir_ops_has_kind(ops, "aten::nope"));
    assert_true(ta_ir_ops_count(ops) > 4165);
}

static void test_order_and_kinds(void **state)
{
    (void)state;
    ta_ir_ops *ops;
    assert_int_equal(ta_ir_ops_create(&ops), TA_OK);
    const char *text = "# first wins when both fit\n"
                       "CONSERVATIVE\tmylib::op.first(Tensor x) -> Tensor\n"
                       "mylib::op.second(Tensor(a!) x) -> Tensor(a!)\n"
                       "\n"
                       "PURE_FUNCTION\tmylib::pure(Tensor x) -> Tensor\n"
                       "mylib::op.first(int x) -> int\n";
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_ir_ops_add_text(ops, text, strlen(text), "ops.txt", d), TA_OK);
    assert_int_equal(ta_diags_count(d), 0);
    assert_int_equal(ta_ir_ops_count(ops), 3); /* the repeated overload is kept as first added */
    ta_ir_graph *g;
    const char *ir = "graph(%a : Tensor):\n  %b : Tensor = mylib::op(%a)\n  %c : Tensor = mylib::pure(%a)\n  return (%b)\n";
    assert_int_equal(ta_ir_read(ir, strlen(ir), NULL, &g, NULL), TA_OK);
    const ta_ir_node *n = ta_ir_block_first(ta_ir_graph_block(g));
    const ta_ir_op *op = ta_ir_ops_resolve(ops, n);
    assert_non_null(op);
    assert_string_equal(ta_ir_op_text(op), "mylib::op.first(Tensor x) -> Tensor");
    assert_int_equal(ta_ir_op_alias_kind(op), TA_IR_CONSERVATIVE);
    op = ta_ir_ops_resolve(ops, ta_ir_node_next(n));
    assert_int_equal(ta_ir_op_alias_kind(op), TA_IR_PURE_FUNCTION);
    bool added = true;
    assert_int_equal(ta_ir_ops_add(ops, "mylib::pure(Tensor x) -> Tensor", 31, TA_IR_FROM_SCHEMA, &added, d), TA_OK);
    assert_false(added);
    ta_ir_graph_destroy(g);

    /* a bad line is an error at its position; the others are still added */
    const char *bad = "mylib::a(Tensor x) -> Tensor\nFROM_SCHEMA\tmylib::b(Tensor x -> Tensor\nmylib::c() -> ()\n";
    assert_int_equal(ta_ir_ops_add_text(ops, bad, strlen(bad), "bad.txt", d), TA_ERR_PARSE);
    assert_int_equal(ta_diags_count(d), 1);
    const ta_diag *e = ta_diags_get(d, 0);
    assert_string_equal(e->source, "bad.txt");
    assert_int_equal(e->line, 2);
    assert_true(e->col > 13);
    assert_int_equal(ta_ir_ops_count(ops), 5);
    ta_diags_clear(d);
    assert_int_equal(ta_ir_ops_add_file(ops, "/nonexistent/ops.txt", d), TA_ERR_IO);
    assert_int_equal(ta_diags_count(d), 1);
    ta_diags_destroy(d);
    ta_ir_ops_destroy(ops);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_resolution), cmocka_unit_test(test_order_and_kinds)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
