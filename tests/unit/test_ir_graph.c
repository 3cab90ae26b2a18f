/* test_ir_graph.c - building and rewriting graphs with the C API.
 *
 * A graph built node by node prints as torch would print it; the rewrites a
 * functionalization pass makes (insert, move, remove, replace the uses of a
 * value after a point, add block outputs and loop-carried values) keep the
 * use lists and the order right; positions stay ordered however many nodes
 * go in at one spot; names stay unique. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tensoralias/ir.h"

static char *printed(const ta_ir_graph *g)
{
    char *out = NULL;
    assert_int_equal(ta_ir_print(g, &out, NULL), TA_OK);
    return out;
}

static ta_ir_node *constant_int(ta_ir_graph *g, ta_ir_block *b, const char *name, const char *value)
{
    ta_ir_node *n;
    assert_int_equal(ta_ir_append(g, b, "prim::Constant", NULL, 0, 0, &n), TA_OK);
    ta_ir_value *v;
    assert_int_equal(ta_ir_node_add_output(n, name, ta_ir_type_simple(g, TA_IR_INT), &v), TA_OK);
    assert_int_equal(ta_ir_node_set_attr(n, "value", value), TA_OK);
    return n;
}

/* The graph of tensoralias/ir.h's header comment. */
static ta_ir_graph *header_graph(void)
{
    ta_ir_graph *g;
    assert_int_equal(ta_ir_graph_create(&g), TA_OK);
    ta_ir_block *top = ta_ir_graph_block(g);
    ta_ir_value *x;
    assert_int_equal(ta_ir_graph_add_input(g, "x", ta_ir_type_simple(g, TA_IR_TENSOR), &x), TA_OK);
    ta_ir_value *c;
    assert_int_equal(ta_ir_graph_add_input(g, "c", ta_ir_type_simple(g, TA_IR_BOOL), &c), TA_OK);
    ta_ir_value *one = ta_ir_node_output(constant_int(g, top, "one", "1"), 0);
    ta_ir_value *add_in[] = {x, x, one};
    ta_ir_node *add;
    assert_int_equal(ta_ir_append(g, top, "aten::add", add_in, 3, 0, &add), TA_OK);
    ta_ir_value *y;
    assert_int_equal(ta_ir_node_add_output(add, "y", NULL, &y), TA_OK);
    assert_int_equal(ta_ir_node_set_source(add, "model.py:3:8"), TA_OK);
    ta_ir_node *iff;
    assert_int_equal(ta_ir_append(g, top, "prim::If", &c, 1, 0, &iff), TA_OK);
    ta_ir_value *z;
    assert_int_equal(ta_ir_node_add_output(iff, "z", NULL, &z), TA_OK);
    ta_ir_block *b0, *b1;
    assert_int_equal(ta_ir_node_add_block(iff, &b0), TA_OK);
    assert_int_equal(ta_ir_node_add_block(iff, &b1), TA_OK);
    assert_int_equal(ta_ir_block_add_output(b0, y), TA_OK);
    ta_ir_node *relu;
    assert_int_equal(ta_ir_append(g, b1, "aten::relu_", &y, 1, 0, &relu), TA_OK);
    ta_ir_value *w;
    assert_int_equal(ta_ir_node_add_output(relu, "w", NULL, &w), TA_OK);
    assert_int_equal(ta_ir_block_add_output(b1, w), TA_OK);
    assert_int_equal(ta_ir_graph_add_output(g, z), TA_OK);
    return g;
}

static const char header_text[] = "graph(%x : Tensor,\n"
                                  "      %c : bool):\n"
                                  "  %one : int = prim::Constant[value=1]()\n"
                                  "  %y : Tensor = aten::add(%x, %x, %one) # model.py:3:8\n"
                                  "  %z : Tensor = prim::If(%c)\n"
                                  "    block0():\n"
                                  "      -> (%y)\n"
                                  "    block1():\n"
                                  "      %w : Tensor = aten::relu_(%y)\n"
                                  "      -> (%w)\n"
                                  "  return (%z)\n";

static void test_build_and_print(void **state)
{
    (void)state;
    ta_ir_graph *g = header_graph();
    char *text = printed(g);
    assert_string_equal(text, header_text);
    /* and the reader gives the same graph back */
    ta_ir_graph *g2;
    assert_int_equal(ta_ir_read(text, strlen(text), NULL, &g2, NULL), TA_OK);
    char *again = printed(g2);
    assert_string_equal(again, header_text);
    ta_ir_value *y = ta_ir_graph_find_value(g, "%y");
    assert_non_null(y);
    assert_int_equal(ta_ir_value_nuses(y), 2); /* block0's output and relu_'s input */
    free(text);
    free(again);
    ta_ir_graph_destroy(g2);
    ta_ir_graph_destroy(g);
}

static void test_uses(void **state)
{
    (void)state;
    ta_ir_graph *g = header_graph();
    ta_ir_value *x = ta_ir_graph_find_value(g, "x"), *y = ta_ir_graph_find_value(g, "y");
    assert_int_equal(ta_ir_value_nuses(x), 2); /* add's self and other */
    /* y: block0's output, relu_'s input */
    int block_uses = 0, node_uses = 0;
    for (uint32_t i = 0; i < ta_ir_value_nuses(y); i++) {
        if (ta_ir_value_use_node(y, i)) node_uses++;
        else block_uses += ta_ir_value_use_block(y, i) != NULL;
    }
    assert_int_equal(node_uses, 1);
    assert_int_equal(block_uses, 1);
    ta_ir_node *add = ta_ir_value_node(y);
    assert_string_equal(ta_ir_node_kind(add), "aten::add");
    assert_null(ta_ir_value_node(x));
    assert_ptr_equal(ta_ir_value_param_block(x), ta_ir_graph_block(g));
    ta_ir_graph_destroy(g);
}

static void test_rewrites(void **state)
{
    (void)state;
    ta_ir_graph *g = header_graph();
    ta_ir_block *top = ta_ir_graph_block(g);
    ta_ir_value *x = ta_ir_graph_find_value(g, "x"), *y = ta_ir_graph_find_value(g, "y");
    ta_ir_node *add = ta_ir_value_node(y);
    ta_ir_node *iff = ta_ir_node_next(add);
    ta_ir_node *relu = ta_ir_block_first(ta_ir_node_block_at(iff, 1));

    /* a functional copy of y after add; the uses after add now read it */
    ta_ir_node *clone;
    assert_int_equal(ta_ir_node_create(g, "aten::clone", &y, 1, 1, &clone), TA_OK);
    assert_int_equal(ta_ir_node_insert_after(clone, add), TA_OK);
    ta_ir_value *y2 = ta_ir_node_output(clone, 0);
    assert_int_equal(ta_ir_value_replace_uses_after(y, y2, clone), TA_OK);
    assert_int_equal(ta_ir_value_nuses(y), 1); /* clone's own input */
    assert_ptr_equal(ta_ir_node_input(relu, 0), y2);
    assert_ptr_equal(ta_ir_block_output(ta_ir_node_block_at(iff, 0), 0), y2);

    /* the uses before a point stay */
    ta_ir_node *mul_in;
    assert_int_equal(ta_ir_node_create(g, "aten::mul", (ta_ir_value *[]){y2, y2}, 2, 1, &mul_in), TA_OK);
    assert_int_equal(ta_ir_node_insert_before(mul_in, relu), TA_OK);
    ta_ir_value *m = ta_ir_node_output(mul_in, 0);
    assert_int_equal(ta_ir_value_replace_uses_after(y2, m, mul_in), TA_OK);
    assert_ptr_equal(ta_ir_node_input(relu, 0), m);          /* after mul, same block */
    assert_ptr_equal(ta_ir_block_output(ta_ir_node_block_at(iff, 0), 0), y2); /* another block */
    assert_ptr_equal(ta_ir_node_input(mul_in, 0), y2);

    /* order */
    assert_true(ta_ir_node_is_before(add, clone));
    assert_true(ta_ir_node_is_before(clone, relu)); /* relu is inside a later node */
    assert_false(ta_ir_node_is_before(relu, clone));

    /* remove: refused while the output is used */
    assert_int_equal(ta_ir_node_remove(clone), TA_ERR_INVALID);
    assert_int_equal(ta_ir_value_replace_uses(y2, y), TA_OK);
    assert_int_equal(ta_ir_node_remove(clone), TA_OK);
    assert_int_equal(ta_ir_value_nuses(y), 3);
    assert_null(ta_ir_graph_find_value(g, ta_ir_value_name(y2)));

    /* moves */
    ta_ir_node *first = ta_ir_block_first(top);
    assert_int_equal(ta_ir_node_move_after(first, add), TA_OK);
    assert_ptr_equal(ta_ir_block_first(top), add);
    assert_ptr_equal(ta_ir_node_next(add), first);
    assert_int_equal(ta_ir_node_move_before(first, add), TA_OK);
    assert_ptr_equal(ta_ir_block_first(top), first);

    /* a loop-carried value and an extra graph output */
    ta_ir_value *loop_in[] = {ta_ir_graph_find_value(g, "one"), ta_ir_graph_find_value(g, "c"), x};
    ta_ir_node *loop;
    assert_int_equal(ta_ir_append(g, top, "prim::Loop", loop_in, 3, 1, &loop), TA_OK);
    ta_ir_block *body;
    assert_int_equal(ta_ir_node_add_block(loop, &body), TA_OK);
    ta_ir_value *i;
    assert_int_equal(ta_ir_block_add_param(body, "i", ta_ir_type_simple(g, TA_IR_INT), &i), TA_OK);
    ta_ir_value *carried;
    assert_int_equal(ta_ir_block_add_param(body, "acc", NULL, &carried), TA_OK);
    ta_ir_node *step;
    assert_int_equal(ta_ir_append(g, body, "aten::relu", &carried, 1, 1, &step), TA_OK);
    assert_int_equal(ta_ir_block_add_output(body, ta_ir_graph_find_value(g, "c")), TA_OK);
    assert_int_equal(ta_ir_block_add_output(body, ta_ir_node_output(step, 0)), TA_OK);
    assert_int_equal(ta_ir_graph_add_output(g, ta_ir_node_output(loop, 0)), TA_OK);
    assert_non_null(i);
    assert_int_equal(ta_ir_graph_noutputs(g), 2);
    char *text = printed(g);
    ta_ir_graph *g2;
    assert_int_equal(ta_ir_read(text, strlen(text), NULL, &g2, NULL), TA_OK);
    char *again = printed(g2);
    assert_string_equal(again, text);
    assert_non_null(strstr(text, "block0(%i : int, %acc : Tensor):"));
    free(text);
    free(again);
    ta_ir_graph_destroy(g2);
    ta_ir_graph_destroy(g);
}

static void test_positions(void **state)
{
    (void)state;
    ta_ir_graph *g;
    assert_int_equal(ta_ir_graph_create(&g), TA_OK);
    ta_ir_block *top = ta_ir_graph_block(g);
    ta_ir_node *a;
    assert_int_equal(ta_ir_append(g, top, "prim::A", NULL, 0, 0, &a), TA_OK);
    ta_ir_node *b;
    assert_int_equal(ta_ir_append(g, top, "prim::B", NULL, 0, 0, &b), TA_OK);
    enum { N = 200 };
    ta_ir_node *mid[N];
    /* always just before b: halves the gap each time, then reindexes */
    for (int i = 0; i < N; i++) {
        assert_int_equal(ta_ir_node_create(g, "prim::M", NULL, 0, 0, &mid[i]), TA_OK);
        assert_int_equal(ta_ir_node_insert_before(mid[i], b), TA_OK);
    }
    ta_ir_node *prev = NULL;
    int count = 0;
    for (ta_ir_node *n = ta_ir_block_first(top); n; n = ta_ir_node_next(n), count++) {
        if (prev) assert_true(ta_ir_node_is_before(prev, n));
        prev = n;
    }
    assert_int_equal(count, N + 2);
    assert_true(ta_ir_node_is_before(a, mid[0]));
    assert_true(ta_ir_node_is_before(mid[N - 1], b));
    /* prepending, many times */
    for (int i = 0; i < N; i++) assert_int_equal(ta_ir_node_move_before(mid[i], ta_ir_block_first(top)), TA_OK);
    prev = NULL;
    for (ta_ir_node *n = ta_ir_block_first(top); n; n = ta_ir_node_next(n)) {
        if (prev) assert_true(ta_ir_node_is_before(prev, n));
        prev = n;
    }
    assert_ptr_equal(ta_ir_block_first(top), mid[N - 1]);
    ta_ir_graph_destroy(g);
}

static void test_names(void **state)
{
    (void)state;
    const char *text = "graph(%x : Tensor):\n  %3 : Tensor = aten::relu(%x)\n  return (%3)\n";
    ta_ir_graph *g;
    assert_int_equal(ta_ir_read(text, strlen(text), NULL, &g, NULL), TA_OK);
    ta_ir_node *n;
    assert_int_equal(ta_ir_append(g, ta_ir_graph_block(g), "aten::relu", (ta_ir_value *[]){ta_ir_graph_find_value(g, "3")}, 1, 1, &n), TA_OK);
    const char *auto_name = ta_ir_value_name(ta_ir_node_output(n, 0));
    assert_string_equal(auto_name, "4"); /* numbers continue after the reader's */
    ta_ir_value *dup;
    assert_int_equal(ta_ir_node_add_output(n, "x", NULL, &dup), TA_OK);
    assert_string_equal(ta_ir_value_name(dup), "x.1");
    assert_int_equal(ta_ir_value_set_name(dup, "%fresh"), TA_OK);
    assert_ptr_equal(ta_ir_graph_find_value(g, "fresh"), dup);
    assert_null(ta_ir_graph_find_value(g, "x.1"));
    ta_ir_node *none = (ta_ir_node *)1;
    assert_int_equal(ta_ir_node_create(g, "no_namespace", NULL, 0, 0, &none), TA_ERR_INVALID);
    assert_null(none);
    ta_ir_graph_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_and_print), cmocka_unit_test(test_uses), cmocka_unit_test(test_rewrites),
        cmocka_unit_test(test_positions), cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
