/* test_functionalize.c - the functionalization pass without torch: small
 * graphs whose rewrite is plain to see (an in-place op, a write through two
 * views, a branch, a loop, no counterpart, a graph built in C), and the
 * structure of every golden graph's rewrite: no mutating node left but the
 * copy-backs and the reported ones, the printed graph reads back (every
 * value defined before use), and the counts are the ones
 * tools/torch/functionalize_check.py checked in torch (functionalize.tsv). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/ir_golden.h"
#include "support/testdata.h"
#include "tensoralias/functionalize.h"

typedef struct run {
    ta_ir_graph *g;
    ta_functionalize_report *r;
    char *text; /* the rewrite as parse_ir reads it */
} run;

static ta_ir_graph *read_text(const char *text)
{
    ta_ir_graph *g = NULL;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    if (ta_ir_read(text, strlen(text), "t.ir", &g, d) != TA_OK) ta_diag_render(ta_diags_get(d, 0), stdout);
    ta_diags_destroy(d);
    return g;
}

static char *print_graph(const ta_ir_graph *g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(ta_ir_write_as(g, f, TA_IR_AS_PARSE_IR_READS), TA_OK);
    fclose(f);
    return buf;
}

static run functionalize(ta_ir_graph *g, const ta_ir_ops *ops, bool no_copy_back)
{
    run r = {g, NULL, NULL};
    assert_non_null(g);
    ta_functionalize_opts o = {.no_copy_back = no_copy_back};
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_functionalize(g, ops ? ops : ta_test_default_ops(), &o, &r.r, d), TA_OK);
    ta_diags_destroy(d);
    r.text = print_graph(g);
    return r;
}

/* The regression graph tests/data/functionalize/NAME.ir, functionalized. */
static run functionalize_data(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "tests/data/functionalize/%s.ir", name);
    char *text = ta_test_read_file(path, NULL);
    assert_non_null(text);
    run r = functionalize(read_text(text), NULL, false);
    free(text);
    return r;
}

static void done(run *r)
{
    ta_functionalize_report_destroy(r->r);
    ta_ir_graph_destroy(r->g);
    free(r->text);
}

static const ta_functionalize_counts *C(const run *r) { return ta_functionalize_report_counts(r->r); }

/* The printed rewrite reads back: every value defined before it is used. */
static void reads_back(const run *r)
{
    ta_ir_graph *again = read_text(r->text);
    assert_non_null(again);
    ta_ir_graph_destroy(again);
}

static void test_inplace_and_copy_back(void **state)
{
    (void)state;
    run r = functionalize(read_text("graph(%x : Tensor, %y : Tensor):\n"
                                    "  %one : int = prim::Constant[value=1]()\n"
                                    "  %a : Tensor = aten::add_(%x, %y, %one)\n"
                                    "  %b : Tensor = aten::mul(%x, %a)\n"
                                    "  return (%b)\n"),
                          NULL, false);
    assert_int_equal(C(&r)->mutating_before, 1);
    assert_int_equal(C(&r)->rewritten, 1);
    assert_int_equal(C(&r)->copy_backs, 1);
    assert_int_equal(C(&r)->mutating_after, 1);
    assert_non_null(strstr(r.text, "%a : Tensor = aten::add(%x, %y, %one)"));
    assert_non_null(strstr(r.text, "aten::mul(%a, %a)")); /* %x now reads the new value */
    assert_non_null(strstr(r.text, "aten::copy_(%x, %a, "));
    done(&r);

    r = functionalize(read_text("graph(%x : Tensor, %y : Tensor):\n"
                                "  %one : int = prim::Constant[value=1]()\n"
                                "  %a : Tensor = aten::add_(%x, %y, %one)\n"
                                "  return (%y)\n"),
                      NULL, true);
    assert_int_equal(C(&r)->copy_backs, 0);
    assert_int_equal(C(&r)->extra_outputs, 1);
    assert_int_equal(C(&r)->mutating_after, 0);
    assert_non_null(strstr(r.text, "return (%y, %a)"));
    done(&r);
}

static void test_out_and_mutable(void **state)
{
    (void)state;
    /* mul.out: the out argument gets mul's result; the node returns it */
    run r = functionalize(read_text("graph(%x : Tensor, %y : Tensor):\n"
                                    "  %one : int = prim::Constant[value=1]()\n"
                                    "  %o : Tensor = aten::add(%x, %x, %one)\n"
                                    "  %r : Tensor = aten::mul(%x, %y, %o)\n"
                                    "  %s : Tensor = aten::add(%o, %r, %one)\n"
                                    "  return (%s)\n"),
                          NULL, false);
    assert_int_equal(C(&r)->mutating_before, 1);
    assert_int_equal(C(&r)->rewritten, 1);
    assert_int_equal(C(&r)->mutating_after, 0);
    assert_non_null(strstr(r.text, "%r : Tensor = aten::mul(%x, %y)"));
    assert_non_null(strstr(r.text, "aten::add(%r, %r, %one)"));
    done(&r);

    /* a mutable operator: its _functional variant returns its own result, then the written value */
    ta_ir_ops *ops;
    assert_int_equal(ta_ir_ops_create(&ops), TA_OK);
    const char *s[] = {"mylib::acc(Tensor self, Tensor(a!) buf) -> Tensor",
                       "mylib::acc_functional(Tensor self, Tensor buf) -> (Tensor, Tensor)",
                       "aten::mul.Tensor(Tensor self, Tensor other) -> Tensor",
                       "aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)"};
    for (size_t i = 0; i < 4; i++) assert_int_equal(ta_ir_ops_add(ops, s[i], strlen(s[i]), TA_IR_FROM_SCHEMA, NULL, NULL), TA_OK);
    r = functionalize(read_text("graph(%x : Tensor, %b : Tensor):\n"
                                "  %r : Tensor = mylib::acc(%x, %b)\n"
                                "  %m : Tensor = aten::mul(%r, %b)\n"
                                "  return (%m)\n"),
                      ops, false);
    assert_int_equal(C(&r)->rewritten, 1);
    assert_int_equal(C(&r)->copy_backs, 1);
    assert_non_null(strstr(r.text, "%r : Tensor, %"));
    assert_non_null(strstr(r.text, "= mylib::acc_functional(%x, %b)"));
    assert_null(strstr(r.text, "aten::mul(%r, %b)")); /* %b reads the written value */
    assert_non_null(strstr(r.text, "aten::copy_(%b, "));
    done(&r);
    ta_ir_ops_destroy(ops);
}

static void test_write_through_views(void **state)
{
    (void)state;
    run r = functionalize(read_text("graph(%x : Tensor):\n"
                                    "  %one : int = prim::Constant[value=1]()\n"
                                    "  %zero : int = prim::Constant[value=0]()\n"
                                    "  %a : Tensor = aten::add(%x, %x, %one)\n"
                                    "  %t : Tensor = aten::transpose(%a, %zero, %one)\n"
                                    "  %s : Tensor = aten::select(%t, %zero, %one)\n"
                                    "  %w : Tensor = aten::relu_(%s)\n"
                                    "  %u : Tensor = aten::mul(%t, %a)\n"
                                    "  return (%u)\n"),
                          NULL, false);
    assert_int_equal(C(&r)->rewritten, 1);
    assert_int_equal(C(&r)->mutating_after, 0); /* %a is the graph's own: no copy-back */
    assert_int_equal(C(&r)->scatters, 2);       /* select_scatter into %t, transpose back into %a */
    assert_non_null(strstr(r.text, "aten::relu(%s)"));
    assert_non_null(strstr(r.text, "aten::select_scatter(%t, %w, %zero, %one)"));
    assert_null(strstr(r.text, "aten::mul(%t, %a)")); /* both read the new %a */
    done(&r);
}

static void test_branches_and_loops(void **state)
{
    (void)state;
    run r = functionalize(read_text("graph(%x : Tensor, %c : bool):\n"
                                    "  %one : int = prim::Constant[value=1]()\n"
                                    "  %three : int = prim::Constant[value=3]()\n"
                                    "  %r : Tensor = prim::If(%c)\n"
                                    "    block0():\n"
                                    "      %a : Tensor = aten::relu_(%x)\n"
                                    "      -> (%a)\n"
                                    "    block1():\n"
                                    "      -> (%x)\n"
                                    "  %l : Tensor = prim::Loop(%three, %c, %r)\n"
                                    "    block0(%i : int, %p : Tensor):\n"
                                    "      %b : Tensor = aten::add_(%x, %one, %one)\n"
                                    "      -> (%c, %p)\n"
                                    "  return (%l)\n"),
                          NULL, false);
    assert_int_equal(C(&r)->rewritten, 2);
    assert_int_equal(C(&r)->kept, 0);
    assert_int_equal(C(&r)->mutating_after, 1); /* the copy-back of %x */
    assert_true(C(&r)->threaded >= 2);          /* %x leaves the If and is carried by the loop */
    reads_back(&r);
    done(&r);
}

static void test_no_counterpart_keeps_the_memory(void **state)
{
    (void)state;
    ta_ir_ops *ops;
    assert_int_equal(ta_ir_ops_create(&ops), TA_OK);
    const char *s[] = {"mylib::scale_(Tensor(a!) self, float f) -> Tensor(a!)",
                       "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
                       "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
                       "aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)"};
    for (size_t i = 0; i < 4; i++) assert_int_equal(ta_ir_ops_add(ops, s[i], strlen(s[i]), TA_IR_FROM_SCHEMA, NULL, NULL), TA_OK);
    run r = functionalize(read_text("graph(%x : Tensor, %y : Tensor):\n"
                                    "  %one : int = prim::Constant[value=1]()\n"
                                    "  %f : float = prim::Constant[value=2.]()\n"
                                    "  %a : Tensor = mylib::scale_(%x, %f)\n"
                                    "  %b : Tensor = aten::add_(%x, %y, %one)\n"
                                    "  %c : Tensor = aten::add_(%y, %y, %one)\n"
                                    "  return (%b)\n"),
                          ops, false);
    /* scale_ has no counterpart, so the add_ to the same memory stays too;
     * the add_ to %y does not touch it and is rewritten */
    assert_int_equal(C(&r)->kept, 2);
    assert_int_equal(C(&r)->rewritten, 1);
    assert_int_equal(ta_functionalize_report_nkept(r.r), 2);
    assert_non_null(strstr(ta_functionalize_report_kept(r.r, 0)->reason, "no functional counterpart"));
    assert_string_equal(ta_functionalize_report_kept(r.r, 1)->kind, "aten::add_");
    assert_non_null(strstr(ta_functionalize_report_kept(r.r, 1)->reason, "mylib::scale_"));
    assert_int_equal(C(&r)->mutating_after, 3); /* two kept, one copy-back of %y */
    done(&r);
    ta_ir_ops_destroy(ops);
}

static void test_built_in_c(void **state)
{
    (void)state;
    ta_ir_graph *g;
    assert_int_equal(ta_ir_graph_create(&g), TA_OK);
    ta_ir_block *top = ta_ir_graph_block(g);
    ta_ir_value *x;
    assert_int_equal(ta_ir_graph_add_input(g, "x", ta_ir_type_simple(g, TA_IR_TENSOR), &x), TA_OK);
    ta_ir_node *k;
    assert_int_equal(ta_ir_append(g, top, "prim::Constant", NULL, 0, 1, &k), TA_OK);
    assert_int_equal(ta_ir_node_set_attr(k, "value", "0"), TA_OK);
    ta_ir_value_set_type(ta_ir_node_output(k, 0), ta_ir_type_simple(g, TA_IR_INT));
    ta_ir_value *sel_in[3] = {x, ta_ir_node_output(k, 0), ta_ir_node_output(k, 0)};
    ta_ir_node *sel;
    assert_int_equal(ta_ir_append(g, top, "aten::select", sel_in, 3, 1, &sel), TA_OK);
    ta_ir_value *v = ta_ir_node_output(sel, 0);
    ta_ir_node *relu;
    assert_int_equal(ta_ir_append(g, top, "aten::relu_", &v, 1, 1, &relu), TA_OK);
    assert_int_equal(ta_ir_graph_add_output(g, ta_ir_node_output(relu, 0)), TA_OK);
    run r = functionalize(g, NULL, false);
    assert_int_equal(C(&r)->rewritten, 1);
    assert_int_equal(C(&r)->scatters, 1);
    assert_int_equal(C(&r)->copy_backs, 1);
    assert_non_null(strstr(r.text, "aten::select_scatter(%x, "));
    done(&r);
}

/* ---- the fuzzer's regressions (tests/data/functionalize, with torch's results) ------ */

/* loop_read_returned: x1, written in both loops, is threaded through them;
 * the outer body computes its new value, reads it in the inner loop and
 * returns it, which torch 1.13.1's interpreter cannot run. The body returns
 * it through aten::alias after the inner loop. */
static void test_loop_read_returned(void **state)
{
    (void)state;
    run r = functionalize(read_text("graph(%x1 : Tensor, %x2 : Tensor, %c : bool):\n"
                                    "  %v73 : int = prim::Constant[value=3]()\n"
                                    "  prim::Loop(%v73, %c)\n"
                                    "    block0(%v71 : int):\n"
                                    "      %v74 : Tensor = aten::relu_(%x1)\n"
                                    "      %v78 : int = prim::Constant[value=2]()\n"
                                    "      prim::Loop(%v78, %c)\n"
                                    "        block0(%v76 : int):\n"
                                    "          %v79 : Tensor = aten::mul_(%x2, %x1)\n"
                                    "          -> (%c)\n"
                                    "      -> (%c)\n"
                                    "  return (%x1)\n"),
                          NULL, false);
    assert_int_equal(C(&r)->kept, 0);
    assert_int_equal(C(&r)->mutating_after, 2); /* the copy-backs */
    const char *relu = strstr(r.text, "%v74 : Tensor = aten::relu(");
    const char *inner = strstr(r.text, "aten::mul(");
    const char *alias = strstr(r.text, "= aten::alias(%v74)");
    assert_non_null(relu);
    assert_non_null(inner);
    assert_non_null(alias);
    assert_true(relu < inner && inner < alias); /* read in the inner loop, then returned through the alias */
    assert_null(strstr(r.text, "-> (%c, %v74")); /* not returned itself */
    done(&r);
}

/* nested_loop_liveness (minimized from fuzz_graph(3004841)): %v410 is read
 * in a loop inside an If inside the block that returns it; torch's
 * optimizing executor decides that If and then frees %v410 early, as the
 * interpreter does for a loop directly in the block. Returned through
 * aten::alias after the loop, as test_loop_read_returned's. */
static void test_nested_loop_liveness(void **state)
{
    (void)state;
    run r = functionalize(read_text("graph(%x0 : Tensor, %x1 : Tensor, %c : bool, %d : bool):\n"
                                    "  %one : int = prim::Constant[value=1]()\n"
                                    "  %nc : bool = aten::__not__(%c)\n"
                                    "  %v409 : Tensor = prim::If(%c)\n"
                                    "    block0():\n"
                                    "      %v410 : Tensor = aten::mul(%x1, %x1)\n"
                                    "      %v411 : Tensor = prim::If(%nc)\n"
                                    "        block0():\n"
                                    "          -> (%x1)\n"
                                    "        block1():\n"
                                    "          %v422 : int = prim::Constant[value=2]()\n"
                                    "          prim::Loop(%v422, %d)\n"
                                    "            block0(%v418 : int):\n"
                                    "              %v428 : Tensor = aten::add_(%x1, %v410, %one)\n"
                                    "              -> (%d)\n"
                                    "          -> (%x1)\n"
                                    "      -> (%v410)\n"
                                    "    block1():\n"
                                    "      -> (%x1)\n"
                                    "  %v452 : Tensor = aten::mul_(%x1, %v409)\n"
                                    "  return (%x0)\n"),
                          NULL, false);
    assert_int_equal(C(&r)->kept, 0);
    const char *loop = strstr(r.text, "prim::Loop(");
    const char *alias = strstr(r.text, "= aten::alias(%v410)");
    assert_non_null(loop);
    assert_non_null(alias);
    assert_true(loop < alias);
    assert_null(strstr(r.text, "-> (%v410")); /* not returned itself */
    done(&r);
}

/* loop_read_then_carried (minimized from fuzz_graph(3007437)): the first
 * loop reads %v32 (x2's new value) twice in one node, the second starts
 * from it; torch's interpreter frees it in the first loop unless the second
 * starts from aten::alias(%v32), placed between the two. */
static void test_loop_read_then_carried(void **state)
{
    (void)state;
    run r = functionalize(read_text("graph(%x0 : Tensor, %x2 : Tensor, %d : bool):\n"
                                    "  %nc : bool = prim::Constant[value=1]()\n"
                                    "  %v32 : Tensor = aten::relu_(%x2)\n"
                                    "  %v44 : int = prim::Constant[value=2]()\n"
                                    "  %v41 : Tensor = prim::Loop(%v44, %nc, %x0)\n"
                                    "    block0(%v42 : int, %v43 : Tensor):\n"
                                    "      %v45 : Tensor = aten::mul(%x2, %x2)\n"
                                    "      -> (%nc, %v45)\n"
                                    "  %v49 : int = prim::Constant[value=0]()\n"
                                    "  prim::Loop(%v49, %d)\n"
                                    "    block0(%v47 : int):\n"
                                    "      %v51 : Tensor = aten::relu_(%x2)\n"
                                    "      -> (%d)\n"
                                    "  return (%x0)\n"),
                          NULL, false);
    assert_int_equal(C(&r)->kept, 0);
    const char *first = strstr(r.text, "aten::mul(%v32, %v32)");
    const char *alias = strstr(r.text, "= aten::alias(%v32)");
    assert_non_null(first);
    assert_non_null(alias);
    assert_true(first < alias);
    assert_null(strstr(r.text, "prim::Loop(%v49, %d, %v32")); /* not carried in itself */
    done(&r);
}

/* zero_trip_loop_alias: when the loop runs zero times, %l is %x2 itself and
 * add_ writes %x2 (torch's executors lose that write; its interpreter does
 * not). The copy-back of %x2 takes the sum when the loop did not run. */
static void test_zero_trip_loop_alias(void **state)
{
    (void)state;
    run r = functionalize(read_text("graph(%x0 : Tensor, %x1 : Tensor, %x2 : Tensor, %c : bool):\n"
                                    "  %one : int = prim::Constant[value=1]()\n"
                                    "  %f : Tensor = aten::mul(%x2, %x0)\n"
                                    "  %three : int = prim::Constant[value=3]()\n"
                                    "  %l : Tensor = prim::Loop(%three, %c, %x2)\n"
                                    "    block0(%i : int, %p : Tensor):\n"
                                    "      -> (%c, %f)\n"
                                    "  %w : Tensor = aten::add_(%l, %x1, %one)\n"
                                    "  return (%x0)\n"),
                          NULL, false);
    assert_int_equal(C(&r)->kept, 0);
    assert_int_equal(C(&r)->copy_backs, 1);
    /* ran: %f takes the sum, %x2 stays; did not run: %x2 takes the sum */
    assert_non_null(strstr(r.text, "%w : Tensor = aten::add(%l, %x1, %one)"));
    const char *sel = strstr(r.text, "= prim::If(");
    assert_non_null(sel);
    assert_non_null(strstr(sel, "-> (%w, %x2)"));
    assert_non_null(strstr(sel, "-> (%f, %w)"));
    done(&r);
}

/* view_of_branch_cond: the branch returns a view of an If on a bool made in
 * the branch. After the outer If that bool is gone (it used to be read there,
 * out of its scope): the view is pushed into the If (transpose(e ? x0 : x2)
 * is e ? transpose(x0) : transpose(x2)) and the bool, aten::__not__(%d), is
 * computed again after the outer If (not returned from it: see
 * test_exported_cond_read_in_loop), so the write through the result is
 * rewritten into both. */
static void test_view_of_branch_cond(void **state)
{
    (void)state;
    run r = functionalize(read_text("graph(%x0 : Tensor, %x2 : Tensor, %d : bool):\n"
                                    "  %one : int = prim::Constant[value=1]()\n"
                                    "  %zero : int = prim::Constant[value=0]()\n"
                                    "  %r : Tensor = prim::If(%d)\n"
                                    "    block0():\n"
                                    "      -> (%x2)\n"
                                    "    block1():\n"
                                    "      %e : bool = aten::__not__(%d)\n"
                                    "      %i : Tensor = prim::If(%e)\n"
                                    "        block0():\n"
                                    "          -> (%x0)\n"
                                    "        block1():\n"
                                    "          -> (%x2)\n"
                                    "      %t : Tensor = aten::transpose(%i, %zero, %one)\n"
                                    "      -> (%t)\n"
                                    "  %w : Tensor = aten::relu_(%r)\n"
                                    "  %o : Tensor = aten::mul(%x0, %x2)\n"
                                    "  return (%o)\n"),
                          NULL, false);
    assert_int_equal(C(&r)->kept, 0);
    assert_int_equal(C(&r)->copy_backs, 2);
    assert_non_null(strstr(r.text, "aten::relu(%r)"));
    assert_null(strstr(r.text, "-> (%t, %e)")); /* the bool does not leave the If ... */
    const char *again = strstr(r.text, "= aten::__not__(%d)");
    assert_non_null(again = strstr(again + 1, "= aten::__not__(%d)")); /* ... it is computed again */
    assert_true(again > strstr(r.text, "-> (%t)"));
    assert_non_null(strstr(r.text, "aten::transpose(%w, %zero, %one)"));
    reads_back(&r);
    done(&r);
}

/* exported_cond_read_in_loop (minimized from fuzz_graph(3008405)): the
 * write through %v88 depends on the branch's bool %v173 (= __not__(%d)),
 * which used to leave the If as an output. torch 1.13.1's optimizing
 * executor merged the loop's own __not__(%d) into it, and its interpreter,
 * emitting the loop inline at the branch's return after loading %v173
 * there, freed it in the loop's first iteration (isBool() INTERNAL ASSERT
 * FAILED). It is computed again after the If instead: no bool output. */
static void test_exported_cond_read_in_loop(void **state)
{
    (void)state;
    run r = functionalize_data("exported_cond_read_in_loop");
    assert_int_equal(C(&r)->kept, 0);
    assert_int_equal(C(&r)->copy_backs, 2);
    const char *outer = strstr(r.text, "= prim::If(%v89)");
    assert_non_null(outer);
    const char *line = outer;
    while (line > r.text && line[-1] != '\n') line--;
    const char *bool_out = strstr(line, ": bool");
    assert_true(!bool_out || bool_out > outer); /* none of its outputs is a bool */
    const char *again = strstr(outer, "\n  %0 : bool = aten::__not__(%d)"); /* at the top level, after it */
    assert_non_null(again);
    assert_non_null(strstr(again, "prim::If(%0)"));
    reads_back(&r);
    done(&r);
}

/* if_one_value_twice (from the fuzzer's graphs that kept writes): the
 * unrolled second loop's If returns one fresh value in two outputs. They
 * share the first one's memory (a write through one is a write through the
 * other); each used to get memory of its own, so neither could be followed,
 * and a dead list of one of them and %x1 kept the write to %x1 in place. */
static void test_if_one_value_twice(void **state)
{
    (void)state;
    run r = functionalize_data("if_one_value_twice");
    assert_int_equal(C(&r)->unrolled, 1);
    assert_int_equal(C(&r)->kept, 0);
    assert_int_equal(C(&r)->mutating_after, 1); /* the copy-back of %x1 */
    assert_non_null(strstr(r.text, "aten::mul(%v283, %x2)"));
    assert_non_null(strstr(r.text, "aten::copy_(%x1, "));
    reads_back(&r);
    done(&r);
}

/* An If returning a value made in one branch twice, and the two outputs
 * written one after the other: the second write reads the first's result. */
static void test_if_outputs_share_memory(void **state)
{
    (void)state;
    run r = functionalize(read_text("graph(%x0 : Tensor, %x1 : Tensor, %c : bool):\n"
                                    "  %one : int = prim::Constant[value=1]()\n"
                                    "  %a : Tensor, %b : Tensor = prim::If(%c)\n"
                                    "    block0():\n"
                                    "      %m : Tensor = aten::mul(%x0, %x1)\n"
                                    "      -> (%m, %m)\n"
                                    "    block1():\n"
                                    "      -> (%x0, %x1)\n"
                                    "  %w : Tensor = aten::add_(%a, %one, %one)\n"
                                    "  %v : Tensor = aten::relu_(%b)\n"
                                    "  return (%a)\n"),
                          NULL, false);
    assert_int_equal(C(&r)->kept, 0);
    assert_int_equal(C(&r)->copy_backs, 2);
    /* %a's memory (%a itself, or %x0) takes the sum; when %c, %b is that
     * memory, so relu reads the sum and its result is %a's memory too */
    const char *add = strstr(r.text, "%w : Tensor = aten::add(%a, %one, %one)");
    assert_non_null(add);
    assert_non_null(add = strstr(add, "-> (%w, %x0)"));
    assert_non_null(add = strstr(add, "-> (%0)")); /* %b when %c: %a's memory now */
    assert_non_null(add = strstr(add, "aten::relu("));
    assert_non_null(strstr(add, "-> (%v, %x1)"));
    reads_back(&r);
    done(&r);
}

/* if_views_many_ways: eight Ifs in a row each return the previous one's
 * result or its transpose, so the last reaches %x0 and %x1 through 256
 * chains of views and conds: its roots are listed once each (listed once
 * per chain, they were too many to follow, and the write stayed). */
static void test_if_views_many_ways(void **state)
{
    (void)state;
    run r = functionalize_data("if_views_many_ways");
    assert_int_equal(C(&r)->kept, 0);
    assert_int_equal(C(&r)->copy_backs, 2);
    assert_int_equal(C(&r)->scatters, 255); /* one inverse transpose per chain with any */
    done(&r);
}

/* if_view_of_output: when %c, %a is the transpose of %b, a value the
 * branch makes. %b owns that memory and %a is a view of %b's, so the add
 * through %b shows in %a and the relu through %a shows in %b (both outputs
 * used to be memory the pass could not follow, and both writes stayed). */
static void test_if_view_of_output(void **state)
{
    (void)state;
    run r = functionalize_data("if_view_of_output");
    assert_int_equal(C(&r)->kept, 0);
    assert_int_equal(C(&r)->copy_backs, 2);
    const char *add = strstr(r.text, "%w : Tensor = aten::add(%b, %one, %one)");
    assert_non_null(add);
    const char *relu = strstr(add, "aten::relu(");
    assert_non_null(relu);
    const char *t = strstr(add, "= aten::transpose("); /* %a when %c: the sum, transposed */
    assert_true(t && t < relu);
    assert_non_null(t = strstr(relu, "= aten::transpose(%v, %zero, %one)")); /* %b when %c: relu's, back */
    reads_back(&r);
    done(&r);
}

/* The same with no output returning the branch's value whole: two views of
 * it, neither owning it. The pass cannot tell either's memory from the
 * other's, so both writes stay, with the reason. */
static void test_if_views_without_owner(void **state)
{
    (void)state;
    run r = functionalize(read_text("graph(%x0 : Tensor, %x1 : Tensor, %c : bool):\n"
                                    "  %one : int = prim::Constant[value=1]()\n"
                                    "  %zero : int = prim::Constant[value=0]()\n"
                                    "  %a : Tensor, %b : Tensor = prim::If(%c)\n"
                                    "    block0():\n"
                                    "      %m : Tensor = aten::mul(%x0, %x1)\n"
                                    "      %t : Tensor = aten::transpose(%m, %zero, %one)\n"
                                    "      %s : Tensor = aten::select(%m, %zero, %zero)\n"
                                    "      -> (%t, %s)\n"
                                    "    block1():\n"
                                    "      -> (%x1, %x0)\n"
                                    "  %w : Tensor = aten::add_(%b, %one, %one)\n"
                                    "  %v : Tensor = aten::relu_(%a)\n"
                                    "  return (%a)\n"),
                          NULL, false);
    assert_int_equal(C(&r)->kept, 2);
    const ta_functionalize_kept *k = ta_functionalize_report_kept(r.r, 0);
    assert_non_null(strstr(k->reason, "it is returned by an If whose branches the pass cannot follow"));
    done(&r);
}

/* loop_carries_view_of_other (minimized from fuzz_graph(3001670)): the loop
 * carries a value and its transpose; unrolled, each If returns both. */
static void test_loop_carries_view_of_other(void **state)
{
    (void)state;
    run r = functionalize_data("loop_carries_view_of_other");
    assert_int_equal(C(&r)->unrolled, 1);
    assert_int_equal(C(&r)->kept, 0);
    assert_int_equal(C(&r)->mutating_after, 1); /* the copy-back of %x0 */
    assert_non_null(strstr(r.text, "aten::copy_(%x0, "));
    reads_back(&r);
    done(&r);
}

/* loops_transpose_back (minimized from fuzz_graph(3009403)): nested loops,
 * unrolled, transpose %x2 back and forth; a transpose of a transpose of the
 * same dims is %x2 itself, so the result is %x2 or its transpose (it used
 * to be one chain of views per order of the iterations, 2^9 of them: too
 * many to follow, and the write stayed). The write is still scattered
 * along every path of the conds (441 scatters): big, but exact. */
static void test_loops_transpose_back(void **state)
{
    (void)state;
    run r = functionalize_data("loops_transpose_back");
    assert_int_equal(C(&r)->unrolled, 2);
    assert_int_equal(C(&r)->kept, 0);
    assert_int_equal(C(&r)->copy_backs, 1);
    assert_non_null(strstr(r.text, "aten::copy_(%x2, "));
    reads_back(&r);
    done(&r);
}

/* nested_loops_transposed (minimized from fuzz_graph(3006825)): the roots of
 * a cond of conds are collected visiting each cond once (following every
 * path, the walk gave up: "it may reach too many memory roots to follow"). */
static void test_nested_loops_transposed(void **state)
{
    (void)state;
    run r = functionalize_data("nested_loops_transposed");
    assert_int_equal(C(&r)->kept, 0);
    assert_int_equal(C(&r)->copy_backs, 1);
    assert_non_null(strstr(r.text, "aten::copy_(%x1, "));
    reads_back(&r);
    done(&r);
}

/* loop_parity: a loop that carries a tensor as its own transpose. A carried
 * bool says whether it is the initial value or its transpose, so the writes
 * through it are rewritten (into %x0, inside and after the loop), even when
 * the loop runs zero times. */
static void test_loop_parity(void **state)
{
    (void)state;
    run r = functionalize(read_text("graph(%x0 : Tensor, %c : bool):\n"
                                    "  %one : int = prim::Constant[value=1]()\n"
                                    "  %zero : int = prim::Constant[value=0]()\n"
                                    "  %n : int = prim::Constant[value=3]()\n"
                                    "  %l : Tensor = prim::Loop(%n, %c, %x0)\n"
                                    "    block0(%i : int, %p : Tensor):\n"
                                    "      %s : Tensor = aten::select(%p, %zero, %one)\n"
                                    "      %w : Tensor = aten::relu_(%s)\n"
                                    "      %t : Tensor = aten::transpose(%p, %zero, %one)\n"
                                    "      -> (%c, %t)\n"
                                    "  %v : Tensor = aten::add_(%l, %l, %one)\n"
                                    "  return (%l)\n"),
                          NULL, false);
    assert_int_equal(C(&r)->kept, 0);
    assert_int_equal(C(&r)->copy_backs, 1);
    assert_non_null(strstr(r.text, "= aten::__not__(")); /* the parity */
    assert_non_null(strstr(r.text, "aten::copy_(%x0, "));
    reads_back(&r);
    done(&r);
}

/* A loop of %n trips carrying %p, which starts as %x1 and is %x0 after an
 * iteration, and %q, which it writes. */
#define MIXED_LOOP                                                    \
    "  %a : Tensor, %b : Tensor = prim::Loop(%n, %c, %x1, %x0)\n"   \
    "    block0(%i : int, %p : Tensor, %q : Tensor):\n"             \
    "      %w : Tensor = aten::relu_(%q)\n"                          \
    "      %m : Tensor = aten::mul(%p, %x0)\n"                       \
    "      -> (%c, %w, %x0)\n"

/* loop_unrolled: %p starts as %x1 and is %x0 after an iteration (memory from
 * before the loop, but not what it started as), and %q is written: a mix the
 * plan follows in no round, so the loop (2 trips) is unrolled into one If per
 * iteration, and every write is rewritten. */
static void test_loop_unrolled(void **state)
{
    (void)state;
    run r = functionalize(read_text("graph(%x0 : Tensor, %x1 : Tensor, %c : bool):\n"
                                    "  %n : int = prim::Constant[value=2]()\n" MIXED_LOOP
                                    "  %v : Tensor = aten::sigmoid_(%a)\n"
                                    "  return (%b)\n"),
                          NULL, false);
    assert_int_equal(C(&r)->unrolled, 1);
    assert_int_equal(C(&r)->kept, 0);
    assert_int_equal(C(&r)->copy_backs, 2);
    assert_null(strstr(r.text, "prim::Loop"));
    assert_non_null(strstr(r.text, "aten::relu(")); /* in each copy of the body */
    assert_non_null(strstr(strstr(r.text, "aten::relu(") + 1, "aten::relu("));
    reads_back(&r);
    done(&r);
}

/* A loop the plan cannot follow stays a loop when its trip count is not a
 * constant, and its writes stay, with the reason. */
static void test_loop_not_unrolled(void **state)
{
    (void)state;
    run r = functionalize(read_text("graph(%x0 : Tensor, %x1 : Tensor, %n : int, %c : bool):\n" MIXED_LOOP
                                    "  return (%b)\n"),
                          NULL, false);
    assert_int_equal(C(&r)->unrolled, 0);
    assert_int_equal(C(&r)->kept, 1);
    assert_non_null(strstr(ta_functionalize_report_kept(r.r, 0)->reason, "carried around a loop"));
    assert_non_null(strstr(r.text, "prim::Loop"));
    done(&r);
}

/* ---- the golden graphs ------------------------------------------------------------ */

/* Mutating nodes of g that are not top-level copy-backs after every other node. */
static uint32_t non_copy_back_writes(const ta_ir_graph *g, uint32_t copy_backs)
{
    uint32_t tail = 0;
    for (const ta_ir_node *n = ta_ir_block_last(ta_ir_graph_block(g)); n && tail < copy_backs; n = ta_ir_node_prev(n))
        if (!strcmp(ta_ir_node_kind(n), "aten::copy_")) tail++;
    return tail;
}

static void check_golden(const char *rel, uint32_t before, uint32_t after, uint32_t copies)
{
    ta_ir_graph *g = ta_test_read_graph(rel);
    if (!g) fail_msg("cannot read %s", rel);
    run r = functionalize(g, NULL, false);
    const ta_functionalize_counts *c = C(&r);
    printf("%s: %u -> %u (%u copy-backs, %u kept)\n", rel, c->mutating_before, c->mutating_after, c->copy_backs, c->kept);
    assert_int_equal(c->mutating_before, before);
    assert_int_equal(c->mutating_after, after);
    assert_int_equal(c->copy_backs, copies);
    /* what is left mutating: the copy-backs at the very end and the kept nodes */
    assert_int_equal(c->mutating_after, c->copy_backs + c->kept);
    assert_int_equal(ta_functionalize_report_nkept(r.r), c->kept);
    assert_int_equal(non_copy_back_writes(r.g, c->copy_backs), c->copy_backs);
    assert_int_equal(ta_functionalize_count_mutating(r.g, ta_test_default_ops()), c->mutating_after);
    /* the rewrite reads back: every value is defined before it is used */
    ta_ir_graph *again = read_text(r.text);
    assert_non_null(again);
    assert_int_equal(ta_functionalize_count_mutating(again, ta_test_default_ops()), c->mutating_after);
    ta_ir_graph_destroy(again);
    done(&r);
}

static void test_golden_graphs(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    text = ta_test_read_data("golden/aliasdb-1.13.1/functionalize.tsv", &len);
    if (!text) fail_msg("no functionalize.tsv");
    int graphs = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char rel[256];
        unsigned before, after, copies;
        if (line[0] == '#' || sscanf(line, "%255s %u %u %u", rel, &before, &after, &copies) != 4) continue;
        check_golden(rel, before, after, copies);
        graphs++;
    }
    free(text);
    assert_true(graphs >= 10);
}

int main(void)
{
    if (!ta_test_default_ops()) {
        printf("skipped: no operator set (build the bundled data first)\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inplace_and_copy_back),
        cmocka_unit_test(test_out_and_mutable),
        cmocka_unit_test(test_write_through_views),
        cmocka_unit_test(test_branches_and_loops),
        cmocka_unit_test(test_no_counterpart_keeps_the_memory),
        cmocka_unit_test(test_built_in_c),
        cmocka_unit_test(test_loop_read_returned),
        cmocka_unit_test(test_nested_loop_liveness),
        cmocka_unit_test(test_loop_read_then_carried),
        cmocka_unit_test(test_zero_trip_loop_alias),
        cmocka_unit_test(test_view_of_branch_cond),
        cmocka_unit_test(test_exported_cond_read_in_loop),
        cmocka_unit_test(test_if_one_value_twice),
        cmocka_unit_test(test_if_outputs_share_memory),
        cmocka_unit_test(test_if_views_many_ways),
        cmocka_unit_test(test_if_view_of_output),
        cmocka_unit_test(test_if_views_without_owner),
        cmocka_unit_test(test_loop_carries_view_of_other),
        cmocka_unit_test(test_loops_transpose_back),
        cmocka_unit_test(test_nested_loops_transposed),
        cmocka_unit_test(test_loop_parity),
        cmocka_unit_test(test_loop_unrolled),
        cmocka_unit_test(test_loop_not_unrolled),
        cmocka_unit_test(test_golden_graphs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
