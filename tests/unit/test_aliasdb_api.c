/* test_aliasdb_api.c - the whole-graph analysis through its API, on small
 * graphs whose answers are plain to see: views alias their base, in-place
 * ops write what they alias, containers make wildcards, unknown operators
 * are analysed conservatively and reported, custom schemas are honoured,
 * moves are checked and made, the analysis can be rebuilt after an edit,
 * it is written as text, JSON, dot and GraphML, and a class not declared
 * whole is taken to hold anything, with a note. (The golden test holds it to torch on thousands of answers.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/ir_golden.h"

typedef struct fixture {
    ta_ir_graph *g;
    ta_aliasdb *db;
    ta_diags *d;
} fixture;

static void analyse(fixture *f, const char *text, const ta_ir_ops *ops)
{
    assert_int_equal(ta_diags_create(&f->d), TA_OK);
    if (ta_ir_read(text, strlen(text), "t.ir", &f->g, f->d) != TA_OK) {
        ta_diag_render(ta_diags_get(f->d, 0), stdout);
        fail();
    }
    assert_int_equal(ta_aliasdb_create(f->g, ops ? ops : ta_test_default_ops(), &f->db, f->d), TA_OK);
}

static void done(fixture *f)
{
    ta_aliasdb_destroy(f->db);
    ta_ir_graph_destroy(f->g);
    ta_diags_destroy(f->d);
}

static const ta_ir_value *V(const fixture *f, const char *name)
{
    const ta_ir_value *v = ta_ir_graph_find_value(f->g, name);
    assert_non_null(v);
    return v;
}

static ta_ir_node *N(const fixture *f, const char *output)
{
    return ta_ir_value_node(V(f, output));
}

static const char views[] = "graph(%x : Tensor):\n"
                            "  %one : int = prim::Constant[value=1]()\n"
                            "  %zero : int = prim::Constant[value=0]()\n"
                            "  %a : Tensor = aten::add(%x, %x, %one)\n"
                            "  %b : Tensor = aten::add(%x, %x, %one)\n"
                            "  %t : Tensor = aten::transpose(%a, %zero, %one)\n"
                            "  %s : Tensor = aten::select(%t, %zero, %zero)\n"
                            "  %w : Tensor = aten::relu_(%s)\n"
                            "  %c : Tensor = aten::mul(%b, %b)\n"
                            "  return (%c)\n";

static void test_views_and_writes(void **state)
{
    (void)state;
    fixture f;
    analyse(&f, views, NULL);
    assert_int_equal(ta_diags_count(f.d), 0);
    assert_true(ta_aliasdb_may_alias(f.db, V(&f, "s"), V(&f, "a")));
    assert_true(ta_aliasdb_may_alias(f.db, V(&f, "w"), V(&f, "t")));
    assert_false(ta_aliasdb_may_alias(f.db, V(&f, "a"), V(&f, "b")));
    assert_false(ta_aliasdb_may_alias(f.db, V(&f, "a"), V(&f, "x"))); /* fresh, not the input */
    assert_false(ta_aliasdb_may_alias(f.db, V(&f, "one"), V(&f, "one"))); /* ints cannot alias */
    assert_true(ta_aliasdb_has_writers(f.db, V(&f, "a")));            /* relu_ through two views */
    assert_false(ta_aliasdb_has_writers(f.db, V(&f, "b")));
    const ta_ir_node *writers[4];
    assert_int_equal(ta_aliasdb_writers(f.db, V(&f, "a"), writers, 4), 1);
    assert_ptr_equal(writers[0], N(&f, "w"));
    const ta_ir_value *a = V(&f, "a"), *b = V(&f, "b");
    assert_true(ta_aliasdb_writes_to_alias(f.db, N(&f, "w"), &a, 1));
    assert_false(ta_aliasdb_writes_to_alias(f.db, N(&f, "w"), &b, 1));
    assert_true(ta_aliasdb_node_writes(f.db, N(&f, "w")));
    assert_false(ta_aliasdb_node_writes(f.db, N(&f, "c")));
    assert_false(ta_aliasdb_is_wildcard(f.db, V(&f, "a")));
    assert_true(ta_aliasdb_is_wildcard(f.db, V(&f, "x"))); /* graph inputs are */
    assert_int_equal(ta_aliasdb_node_how(f.db, N(&f, "a")), TA_ALIASDB_SCHEMA);
    assert_int_equal(ta_aliasdb_node_how(f.db, N(&f, "one")), TA_ALIASDB_SPECIAL);
    /* locations: s points where a's memory is */
    size_t n;
    const uint32_t *locs = ta_aliasdb_locations(f.db, V(&f, "s"), &n);
    assert_int_equal(n, 1);
    assert_ptr_equal(ta_aliasdb_location_value(f.db, locs[0]), V(&f, "a"));
    locs = ta_aliasdb_locations(f.db, V(&f, "x"), &n);
    bool wildcard = false;
    for (size_t i = 0; i < n; i++) wildcard |= ta_aliasdb_location_wildcard(f.db, locs[i]) != NULL;
    assert_true(wildcard);
    assert_true(ta_aliasdb_may_alias_wildcard(f.db, V(&f, "x")));
    assert_false(ta_aliasdb_may_alias_wildcard(f.db, V(&f, "a")));
    done(&f);
}

static void test_moves(void **state)
{
    (void)state;
    fixture f;
    analyse(&f, views, NULL);
    ta_ir_node *b = N(&f, "b"), *t = N(&f, "t"), *w = N(&f, "w"), *c = N(&f, "c"), *a = N(&f, "a");
    /* b is independent of a's chain: it can go anywhere after its inputs */
    assert_true(ta_aliasdb_can_move_after(f.db, b, w));
    assert_true(ta_aliasdb_can_move_before(f.db, c, t));
    /* t reads a, which relu_ writes (through s): t cannot pass w */
    assert_false(ta_aliasdb_can_move_after(f.db, t, w));
    /* a moves after c taking its dependants (t, s, w) along, as AliasDb does */
    assert_true(ta_aliasdb_can_move_after(f.db, a, c));
    assert_true(ta_aliasdb_can_move_after(f.db, a, a));
    /* make a move and see it */
    bool moved = false;
    assert_int_equal(ta_aliasdb_move_after(f.db, b, w, &moved), TA_OK);
    assert_true(moved);
    assert_ptr_equal(ta_ir_node_next(w), b);
    assert_ptr_equal(ta_ir_node_next(b), c);
    assert_int_equal(ta_aliasdb_move_before(f.db, t, a, &moved), TA_OK);
    assert_false(moved); /* t uses a */
    /* the analysis still answers after the move */
    assert_true(ta_aliasdb_has_writers(f.db, V(&f, "a")));
    assert_true(ta_aliasdb_can_move_before(f.db, b, t));
    done(&f);
}

static void test_containers(void **state)
{
    (void)state;
    const char *text = "graph(%x : Tensor, %y : Tensor):\n"
                       "  %zero : int = prim::Constant[value=0]()\n"
                       "  %a : Tensor = aten::relu(%x)\n"
                       "  %b : Tensor = aten::relu(%x)\n"
                       "  %l : Tensor[] = prim::ListConstruct(%a)\n"
                       "  %l2 : Tensor[] = aten::append(%l, %b)\n"
                       "  %e : Tensor = aten::__getitem__(%l, %zero)\n"
                       "  %c : Tensor = aten::relu(%x)\n"
                       "  %k : Tensor[] = prim::ListConstruct(%c)\n"
                       "  %s : Tensor = aten::cat(%k, %zero)\n"
                       "  return (%e, %s)\n";
    fixture f;
    analyse(&f, text, NULL);
    /* what went into the list may be anything the wildcard is */
    assert_true(ta_aliasdb_is_wildcard(f.db, V(&f, "a")));
    assert_true(ta_aliasdb_is_wildcard(f.db, V(&f, "b")));
    assert_true(ta_aliasdb_may_alias(f.db, V(&f, "e"), V(&f, "a")));
    assert_true(ta_aliasdb_may_alias(f.db, V(&f, "b"), V(&f, "y")));
    assert_true(ta_aliasdb_may_contain_alias(f.db, V(&f, "l"), V(&f, "b")));
    assert_true(ta_aliasdb_has_writers(f.db, V(&f, "l"))); /* append writes the list */
    /* a list made only for cat keeps its element out of the wildcard */
    assert_false(ta_aliasdb_is_wildcard(f.db, V(&f, "c")));
    assert_false(ta_aliasdb_may_alias(f.db, V(&f, "c"), V(&f, "x")));
    assert_true(ta_aliasdb_may_contain_alias(f.db, V(&f, "k"), V(&f, "c")));
    const ta_ir_value *lists[] = {V(&f, "k"), V(&f, "s")}, *one[] = {V(&f, "c")}, *other[] = {V(&f, "a")};
    assert_true(ta_aliasdb_may_contain_alias_any(f.db, lists, 2, one, 1));
    assert_false(ta_aliasdb_may_contain_alias_any(f.db, lists, 2, other, 1));
    uint32_t all[16];
    size_t n = ta_aliasdb_contained_locations(f.db, V(&f, "k"), all, 16);
    assert_true(n >= 2 && n <= 16);
    done(&f);
}

static void test_unknown_and_custom(void **state)
{
    (void)state;
    const char *text = "graph(%x : Tensor):\n"
                       "  %a : Tensor = aten::relu(%x)\n"
                       "  %b : Tensor = mylib::mystery(%a)\n"
                       "  %c : Tensor = mylib::scale_(%a)\n"
                       "  %d : Tensor = aten::relu(%x)\n"
                       "  return (%b, %c, %d)\n";
    fixture f;
    analyse(&f, text, NULL);
    /* two unknown operators: each a note at its line, analysed conservatively */
    assert_int_equal(ta_diags_count(f.d), 2);
    const ta_diag *e = ta_diags_get(f.d, 0);
    assert_string_equal(e->rule, "ir-no-schema");
    assert_int_equal(e->severity, TA_SEV_NOTE);
    assert_int_equal(e->line, 3);
    assert_int_equal(ta_aliasdb_node_how(f.db, N(&f, "b")), TA_ALIASDB_NO_SCHEMA);
    assert_true(ta_aliasdb_has_side_effects(f.db, N(&f, "b")));
    assert_true(ta_aliasdb_has_writers(f.db, V(&f, "a")));
    assert_true(ta_aliasdb_is_wildcard(f.db, V(&f, "b")));
    assert_false(ta_aliasdb_can_move_before(f.db, N(&f, "d"), N(&f, "b")));
    done(&f);

    /* with their schemas, the same graph is analysed precisely */
    ta_ir_ops *ops;
    assert_int_equal(ta_ir_ops_create(&ops), TA_OK);
    const char *schemas = "aten::relu(Tensor self) -> Tensor\n"
                          "mylib::mystery(Tensor x) -> Tensor\n"
                          "mylib::scale_(Tensor(a!) self) -> Tensor(a!)\n";
    assert_int_equal(ta_ir_ops_add_text(ops, schemas, strlen(schemas), "s", NULL), TA_OK);
    analyse(&f, text, ops);
    assert_int_equal(ta_diags_count(f.d), 0);
    assert_false(ta_aliasdb_has_side_effects(f.db, N(&f, "b")));
    assert_false(ta_aliasdb_may_alias(f.db, V(&f, "b"), V(&f, "a")));
    assert_true(ta_aliasdb_may_alias(f.db, V(&f, "c"), V(&f, "a")));
    const ta_ir_node *writers[2];
    assert_int_equal(ta_aliasdb_writers(f.db, V(&f, "a"), writers, 2), 1);
    assert_ptr_equal(writers[0], N(&f, "c"));
    assert_ptr_equal(ta_aliasdb_node_op(f.db, N(&f, "c")), ta_ir_ops_resolve(ops, N(&f, "c")));
    assert_true(ta_aliasdb_can_move_before(f.db, N(&f, "d"), N(&f, "b")));

    /* rebuild after an edit: without scale_, nothing writes a */
    ta_ir_node *scale = N(&f, "c");
    assert_int_equal(ta_ir_value_replace_uses(ta_ir_node_output(scale, 0), ta_ir_graph_find_value(f.g, "a")), TA_OK);
    assert_int_equal(ta_ir_node_remove(scale), TA_OK);
    ta_aliasdb_destroy(f.db);
    assert_int_equal(ta_aliasdb_create(f.g, ops, &f.db, f.d), TA_OK);
    assert_false(ta_aliasdb_has_writers(f.db, V(&f, "a")));
    done(&f);
    ta_ir_ops_destroy(ops);
}

static void test_control_flow(void **state)
{
    (void)state;
    const char *text = "graph(%x : Tensor, %c : bool):\n"
                       "  %one : int = prim::Constant[value=1]()\n"
                       "  %a : Tensor = aten::relu(%x)\n"
                       "  %b : Tensor = aten::relu(%x)\n"
                       "  %z : Tensor = prim::If(%c)\n"
                       "    block0():\n"
                       "      -> (%a)\n"
                       "    block1():\n"
                       "      -> (%b)\n"
                       "  %n : Tensor = prim::Loop(%one, %c, %a)\n"
                       "    block0(%i : int, %p : Tensor):\n"
                       "      %q : Tensor = aten::add_(%p, %b, %one)\n"
                       "      -> (%c, %q)\n"
                       "  return (%z, %n)\n";
    fixture f;
    analyse(&f, text, NULL);
    assert_true(ta_aliasdb_may_alias(f.db, V(&f, "z"), V(&f, "a")));
    assert_true(ta_aliasdb_may_alias(f.db, V(&f, "z"), V(&f, "b")));
    assert_true(ta_aliasdb_may_alias(f.db, V(&f, "p"), V(&f, "a")));
    assert_true(ta_aliasdb_may_alias(f.db, V(&f, "n"), V(&f, "a")));
    assert_false(ta_aliasdb_may_alias(f.db, V(&f, "n"), V(&f, "b")));
    assert_true(ta_aliasdb_has_writers(f.db, V(&f, "a"))); /* add_ in the loop body */
    assert_false(ta_aliasdb_has_writers(f.db, V(&f, "b")));
    ta_ir_node *loop = N(&f, "n");
    const ta_ir_value *a = V(&f, "a");
    assert_true(ta_aliasdb_writes_to_alias(f.db, loop, &a, 1)); /* through its block */
    assert_true(ta_aliasdb_node_writes(f.db, loop));
    /* the If only passes a on (block outputs are no reads, for AliasDb), but
     * the loop uses b: torch's answers */
    assert_true(ta_aliasdb_can_move_before(f.db, loop, N(&f, "z")));
    assert_false(ta_aliasdb_can_move_before(f.db, loop, N(&f, "b")));
    done(&f);
}

/* A module whose graph reads one of its attributes, and a list of ints from
 * elsewhere: only a whole declaration says the module cannot hold it. */
static const char module[] = "graph(%self : __torch__.m.M, %sizes : int[], %u : Thing, %s : number):\n"
                             "  %w : Tensor = prim::GetAttr[name=\"w\"](%self)\n"
                             "  %r : Tensor = prim::CallMethod[name=\"forward\"](%self, %w)\n"
                             "  return (%r, %sizes, %u, %s)\n";

/* The module graph analysed with M declared whole (by text, by the C API)
 * or not; returns how many notes the analysis gave. */
static size_t analyse_module(fixture *f, int how)
{
    assert_int_equal(ta_diags_create(&f->d), TA_OK);
    assert_int_equal(ta_ir_graph_create(&f->g), TA_OK);
    const char *decl = "__torch__.m.M(w : Tensor, scale : float)\n";
    if (how == 1) assert_int_equal(ta_ir_read_classes(f->g, decl, strlen(decl), "m.classes", f->d), TA_OK);
    if (how == 2) {
        const ta_ir_type *m = ta_ir_type_class(f->g, "__torch__.m.M");
        assert_int_equal(ta_ir_class_add_attr(f->g, m, "w", ta_ir_type_simple(f->g, TA_IR_TENSOR)), TA_OK);
        assert_false(ta_ir_class_is_whole(m));
        assert_int_equal(ta_ir_class_declare_whole(f->g, m), TA_OK);
        assert_true(ta_ir_class_is_whole(m));
    }
    assert_int_equal(ta_ir_read_into(f->g, module, strlen(module), "m.ir", f->d), TA_OK);
    assert_int_equal(ta_aliasdb_create(f->g, ta_test_default_ops(), &f->db, f->d), TA_OK);
    return ta_diags_count(f->d);
}

static void test_classes_declared_or_not(void **state)
{
    (void)state;
    fixture f;
    /* not declared: the module may hold the list, and the call may write it */
    /* one note, for the class and the unknown type (a Scalar, "number", is neither) */
    assert_int_equal(analyse_module(&f, 0), 1);
    assert_string_equal(ta_diags_get(f.d, 0)->rule, "ir-class-undeclared");
    assert_non_null(strstr(ta_diags_get(f.d, 0)->message, "2 class or unknown types are not declared whole"));
    assert_true(ta_aliasdb_may_contain_alias(f.db, V(&f, "self"), V(&f, "sizes")));
    assert_true(ta_aliasdb_may_contain_alias(f.db, V(&f, "sizes"), V(&f, "self")));
    assert_true(ta_aliasdb_may_contain_alias(f.db, V(&f, "u"), V(&f, "w")));
    assert_true(ta_aliasdb_has_writers(f.db, V(&f, "sizes")));
    assert_false(ta_aliasdb_may_alias(f.db, V(&f, "self"), V(&f, "sizes"))); /* other types: other memory */
    done(&f);
    /* declared whole, either way: as AliasDb, which knows M's attributes */
    for (int how = 1; how <= 2; how++) {
        assert_int_equal(analyse_module(&f, how), 1); /* the unknown type's */
        assert_non_null(strstr(ta_diags_get(f.d, 0)->message, "1 class or unknown type is not declared whole (Thing)"));
        assert_false(ta_aliasdb_may_contain_alias(f.db, V(&f, "self"), V(&f, "sizes")));
        assert_true(ta_aliasdb_may_contain_alias(f.db, V(&f, "self"), V(&f, "w")));
        assert_false(ta_aliasdb_has_writers(f.db, V(&f, "sizes")));
        assert_true(ta_aliasdb_has_writers(f.db, V(&f, "w")));
        done(&f);
    }
}

/* What ta_aliasdb_write prints of the views graph, each way. */
static char *written(const ta_aliasdb *db, ta_aliasdb_format format)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    assert_int_equal(ta_aliasdb_write(db, format, out), TA_OK);
    fclose(out);
    return buf;
}

static void test_write(void **state)
{
    (void)state;
    fixture f;
    analyse(&f, views, NULL);
    char *text = written(f.db, TA_ALIASDB_TEXT);
    assert_non_null(strstr(text, "\n%s : Tensor points-to {%a} contains {%a, %s} written-by aten::relu_@8\n"));
    assert_non_null(strstr(text, "\n%one : int immutable\n"));
    assert_non_null(strstr(text, "%x : Tensor points-to {*Tensor, %x} contains {*Tensor, %x} wildcard\n"));
    size_t lines = 0;
    for (const char *p = text; (p = strchr(p, '\n')); p++) lines++;
    assert_int_equal(lines, 9); /* an input and eight outputs */
    char *json = written(f.db, TA_ALIASDB_JSON);
    assert_non_null(strstr(json, "{\"value\": \"%w\", \"type\": \"Tensor\", \"points_to\": [\"%a\"], \"contains\": "
                                 "[\"%a\", \"%w\"], \"wildcard\": false, \"writers\": [{\"kind\": \"aten::relu_\", \"line\": 8}]}\n"));
    char *dot = written(f.db, TA_ALIASDB_DOT);
    assert_non_null(strstr(dot, "digraph aliasing {"));
    assert_non_null(strstr(dot, "[label=\"aten::relu_\\nline 8\", shape=cds, color=red, fontcolor=red];"));
    char *graphml = written(f.db, TA_ALIASDB_GRAPHML);
    assert_non_null(strstr(graphml, "<graphml"));
    assert_int_equal(ta_aliasdb_write(f.db, (ta_aliasdb_format)99, stdout), TA_ERR_INVALID);
    free(text);
    free(json);
    free(dot);
    free(graphml);
    done(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_views_and_writes), cmocka_unit_test(test_moves), cmocka_unit_test(test_containers),
        cmocka_unit_test(test_unknown_and_custom), cmocka_unit_test(test_control_flow),
        cmocka_unit_test(test_write), cmocka_unit_test(test_classes_declared_or_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
