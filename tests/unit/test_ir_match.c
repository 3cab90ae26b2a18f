/* test_ir_match.c - TorchScript's subtyping and type-variable binding, the
 * two halves of Node::matches: a table of (actual, formal, subtype?) over
 * every kind of type, then overloads with type variables in lists, dicts,
 * optionals, tuples and futures. The expectations are TorchScript 1.13.1's
 * rules (jit_type.cpp, ir.cpp); the golden test checks the resolution of
 * 9,276 nodes of real graphs against torch itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "alias/ir/ir_internal.h"

typedef struct sub_case {
    const char *actual, *formal;
    bool subtype;
} sub_case;

static const sub_case cases[] = {
    {"Tensor", "Tensor", true},
    {"Float(2, 3, requires_grad=0, device=cpu)", "Tensor", true},
    {"Tensor", "Float(2, 3, requires_grad=0, device=cpu)", false},
    {"Float(2, 3)[]", "Tensor[]", false}, /* lists are invariant */
    {"int", "Scalar", true},
    {"float", "Scalar", true},
    {"complex", "Scalar", true},
    {"bool", "Scalar", false},
    {"int", "float", false},
    {"Tensor", "Scalar", false},
    {"int", "Any", true},
    {"Tensor[]", "Any", true},
    {"NoneType", "Tensor?", true},
    {"Tensor", "Tensor?", true},
    {"Tensor?", "Tensor", false},
    {"Tensor?", "Tensor?", true},
    {"int?", "Scalar?", true},
    {"int", "Union(Tensor, int)", true},
    {"str", "Union(Tensor, int)", false},
    {"Union(Tensor, int)", "Union(Tensor, int, str)", true},
    {"Union(Tensor, str)", "Union(Tensor, int)", false},
    {"Tensor?", "Union(Tensor, NoneType, int)", true},
    {"Tensor?", "Union(Tensor, int)", false},
    {"(Tensor, int)", "(Tensor, Scalar)", true}, /* tuples are covariant */
    {"(Tensor, int)", "(Tensor, int, int)", false},
    {"(Tensor, str)", "(Tensor, Scalar)", false},
    {"(Tensor, int)", "AnyTupleType", true},
    {"int[]", "AnyListType", true},
    {"int[]", "Scalar[]", false},
    {"Dict(str, Tensor)", "Dict(str, Tensor)", true},
    {"Dict(str, Float(2))", "Dict(str, Tensor)", false},
    {"Future[int]", "Future[Scalar]", true},
    {"Future[str]", "Future[Scalar]", false},
    {"__torch__.m.A", "__torch__.m.A", true},
    {"__torch__.m.A", "__torch__.m.B", false},
    {"__torch__.m.A", "AnyClassType", true},
    {"Device", "Device", true},
    {"Device", "str", false},
};

static void test_subtyping(void **state)
{
    (void)state;
    ta_ir_graph *g;
    assert_int_equal(ta_ir_graph_create(&g), TA_OK);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const ta_ir_type *a, *f;
        assert_int_equal(ta_ir_type_parse(g, cases[i].actual, strlen(cases[i].actual), &a, NULL), TA_OK);
        assert_int_equal(ta_ir_type_parse(g, cases[i].formal, strlen(cases[i].formal), &f, NULL), TA_OK);
        bool got = ir_type_subtype(a, f);
        if (got != cases[i].subtype)
            printf("%s <: %s: got %d, expected %d\n", cases[i].actual, cases[i].formal, got, cases[i].subtype);
        assert_int_equal(got, cases[i].subtype);
    }
    ta_ir_graph_destroy(g);
}

/* The overload of op (mylib::f, mylib::g) a node with inputs of these
 * types resolves to ("" when none). */
static const char *resolve_op(const ta_ir_ops *ops, const char *op_name, const char *params, uint32_t ninputs,
                              char *buf, size_t cap)
{
    char text[512], args[128] = "";
    for (uint32_t i = 0; i < ninputs; i++) snprintf(args + strlen(args), sizeof args - strlen(args), "%s%%i%u", i ? ", " : "", i);
    snprintf(text, sizeof text, "graph(%s):\n  %%r : Tensor = %s(%s)\n  return (%%r)\n", params, op_name, args);
    ta_ir_graph *g;
    assert_int_equal(ta_ir_read(text, strlen(text), NULL, &g, NULL), TA_OK);
    const ta_ir_op *op = ta_ir_ops_resolve(ops, ta_ir_block_first(ta_ir_graph_block(g)));
    snprintf(buf, cap, "%.*s", op ? (int)op->schema->overload.len : 0, op ? op->schema->overload.ptr : "");
    ta_ir_graph_destroy(g);
    return buf;
}

#define resolve(ops, params, n, buf, cap) resolve_op(ops, "mylib::f", params, n, buf, cap)
#define resolve_g(ops, params, n, buf, cap) resolve_op(ops, "mylib::g", params, n, buf, cap)

static void test_type_variables(void **state)
{
    (void)state;
    ta_ir_ops *ops;
    assert_int_equal(ta_ir_ops_create(&ops), TA_OK);
    const char *schemas = "mylib::f.same(t a, t b) -> t\n"
                          "mylib::f.list(t[] a, t b) -> t\n"
                          "mylib::f.dict(Dict(str, t) d, t v) -> t\n"
                          "mylib::f.tup((t, t) p) -> t\n"
                          "mylib::f.fut(Future(t) f) -> t\n"
                          "mylib::f.dict_list(Dict(int, t[]) d) -> t\n"
                          "mylib::g.opt(t? a) -> t\n";
    assert_int_equal(ta_ir_ops_add_text(ops, schemas, strlen(schemas), "s", NULL), TA_OK);
    char buf[64];
    /* t bound by the first argument, the second must unify with it */
    assert_string_equal(resolve(ops, "%i0 : int, %i1 : int", 2, buf, sizeof buf), "same");
    /* None unifies with int, but the formal then stands for int: no match (as in torch) */
    assert_string_equal(resolve(ops, "%i0 : int, %i1 : NoneType", 2, buf, sizeof buf), "");
    assert_string_equal(resolve(ops, "%i0 : Tensor, %i1 : int", 2, buf, sizeof buf), "");
    /* t[] binds t to the element type; the list must be exactly t[] */
    assert_string_equal(resolve(ops, "%i0 : Tensor[], %i1 : Tensor", 2, buf, sizeof buf), "list");
    assert_string_equal(resolve(ops, "%i0 : int[], %i1 : Tensor", 2, buf, sizeof buf), "");
    assert_string_equal(resolve(ops, "%i0 : Dict(str, Tensor), %i1 : Tensor", 2, buf, sizeof buf), "dict");
    assert_string_equal(resolve(ops, "%i0 : Dict(int, Tensor), %i1 : Tensor", 2, buf, sizeof buf), "");
    /* t? takes an optional, a plain value, or None (t left unbound) */
    assert_string_equal(resolve_g(ops, "%i0 : Tensor?", 1, buf, sizeof buf), "opt");
    assert_string_equal(resolve_g(ops, "%i0 : NoneType", 1, buf, sizeof buf), "opt");
    assert_string_equal(resolve_g(ops, "%i0 : (int, str)", 1, buf, sizeof buf), "opt");
    assert_string_equal(resolve(ops, "%i0 : (int, int)", 1, buf, sizeof buf), "tup");
    assert_string_equal(resolve(ops, "%i0 : (int, str)", 1, buf, sizeof buf), "");
    assert_string_equal(resolve(ops, "%i0 : Future[Tensor]", 1, buf, sizeof buf), "fut");
    assert_string_equal(resolve(ops, "%i0 : Dict(int, int[])", 1, buf, sizeof buf), "dict_list");
    assert_string_equal(resolve(ops, "%i0 : Dict(str, int[])", 1, buf, sizeof buf), "");
    ta_ir_ops_destroy(ops);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_subtyping), cmocka_unit_test(test_type_variables)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
