/* test_alias_query.c - the corners of torch's SchemaInfo answers that the
 * registered schemas barely exercise, each checked against torch 1.13.1 by
 * hand (torch._C._SchemaInfo on the same schema text): sets repeated within
 * the inputs join the conservative wildcard set, outputs that alias such an
 * input join it too, containers hold wildcards, type identity (Any is not
 * Tensor; Dimname is str; ScalarType and SymInt are int; every t[] is its
 * own type), bare Tensor!, and the graph answering the same. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "tensoralias/alias.h"

#include "support/golden.h"

typedef struct expect {
    const char *schema;
    const char *mutable_args, *may_alias, *may_contain_alias; /* compact JSON */
} expect;

static const expect cases[] = {
    {"f(Tensor(a) x, Tensor(a) y, Tensor(*) z) -> Tensor(a)", "[]",
     "[[\"in\",0,\"in\",1],[\"in\",0,\"in\",2],[\"in\",0,\"out\",0],[\"in\",1,\"in\",2],[\"in\",1,\"out\",0],[\"in\",2,\"out\",0]]",
     "[[\"in\",0,\"in\",1],[\"in\",0,\"in\",2],[\"in\",0,\"out\",0],[\"in\",1,\"in\",2],[\"in\",1,\"out\",0],[\"in\",2,\"out\",0]]"},
    {"f(Tensor(a) x, Tensor(*) z) -> Tensor(a)", "[]", "[[\"in\",0,\"out\",0]]", "[[\"in\",0,\"out\",0]]"},
    {"f(Tensor(a|b) x) -> (Tensor(a), Tensor(b))", "[]",
     "[[\"in\",0,\"out\",0],[\"in\",0,\"out\",1],[\"out\",0,\"out\",1]]",
     "[[\"in\",0,\"out\",0],[\"in\",0,\"out\",1],[\"out\",0,\"out\",1]]"},
    {"f(Tensor! x, Tensor y) -> Tensor", "[0]", "[]", "[]"},
    {"f(Tensor(a!)? x, Tensor y) -> Tensor(a!)?", "[0]", "[[\"in\",0,\"out\",0]]", "[[\"in\",0,\"out\",0]]"},
    {"f(Tensor(a)[] x, Tensor(a) y) -> Tensor(a)[]", "[]", "[]", "[[\"in\",0,\"out\",0]]"},
    {"f(t[] x, t[] y) -> t[]", "[]", "[]", "[]"},
    {"f(Dimname[] x, str[] y, ScalarType[] z, int[] w, SymInt[] v, Scalar[] u, float[] s) -> ()", "[]", "[]",
     "[[\"in\",0,\"in\",1],[\"in\",2,\"in\",3],[\"in\",2,\"in\",4],[\"in\",3,\"in\",4]]"},
    {"f(Any(a) x, Tensor(a) y, Any(*) z) -> Any(*)", "[]",
     "[[\"in\",0,\"in\",2],[\"in\",0,\"out\",0],[\"in\",2,\"out\",0]]",
     "[[\"in\",0,\"in\",2],[\"in\",0,\"out\",0],[\"in\",2,\"out\",0]]"},
    {"f(Tensor(a!)[] x, Tensor(b!) y) -> ()", "[0,1]", "[]", "[]"},
    {"f(Tensor(a)[](b) x, Tensor(b) y) -> ()", "[]", "[]", "[[\"in\",0,\"in\",1]]"},
    {"f(Union(Tensor, int)(a) x, Tensor(a) y) -> ()", "[]", "[[\"in\",0,\"in\",1]]", "[[\"in\",0,\"in\",1]]"},
    {"f(Tensor(a) x, Tensor(*) z) -> Tensor(*)", "[]", "[[\"in\",1,\"out\",0]]", "[[\"in\",1,\"out\",0]]"},
    {"f(Tensor(a -> *) x, Tensor(*) z) -> (Tensor(*), Tensor[])", "[]",
     "[[\"in\",0,\"in\",1],[\"in\",0,\"out\",0],[\"in\",1,\"out\",0]]",
     "[[\"in\",0,\"in\",1],[\"in\",0,\"out\",0],[\"in\",0,\"out\",1],[\"in\",1,\"out\",0],[\"in\",1,\"out\",1],[\"out\",0,\"out\",1]]"},
};

static void check_json(json_t *got, const char *key, const char *want, const char *schema)
{
    json_error_t e;
    json_t *w = json_loads(want, 0, &e);
    assert_non_null(w);
    json_t *g = json_object_get(got, key);
    if (!json_equal(g, w)) {
        char *gs = json_dumps(g, JSON_COMPACT);
        printf("%s: %s\n  want %s\n  got  %s\n", key, schema, want, gs);
        free(gs);
    }
    assert_true(json_equal(g, w));
    json_decref(w);
}

static void test_torch_corners(void **state)
{
    (void)state;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const expect *c = &cases[i];
        ta_arena *a;
        assert_int_equal(ta_arena_create(&a), TA_OK);
        ta_schema *s = NULL;
        assert_int_equal(ta_schema_parse(a, c->schema, strlen(c->schema), NULL, &s, d), TA_OK);
        ta_alias_query *q = NULL;
        assert_int_equal(ta_alias_query_create(s, &q, d), TA_OK);
        json_t *j = ta_golden_query_json(q);
        check_json(j, "mutable_args", c->mutable_args, c->schema);
        check_json(j, "may_alias", c->may_alias, c->schema);
        check_json(j, "may_contain_alias", c->may_contain_alias, c->schema);
        /* the graph agrees */
        ta_alias_graph *g = NULL;
        assert_int_equal(ta_alias_graph_create(s, &g, d), TA_OK);
        uint32_t nin = ta_alias_query_ninputs(q), n = nin + ta_alias_query_noutputs(q);
        for (uint32_t x = 0; x < n; x++)
            for (uint32_t y = 0; y < n; y++) {
                ta_slot sx = x < nin ? ta_in(x) : ta_out(x - nin), sy = y < nin ? ta_in(y) : ta_out(y - nin);
                if (x == y) continue;
                assert_int_equal(ta_alias_graph_may_alias(g, sx, sy), ta_alias_query_may_alias(q, sx, sy));
                assert_int_equal(ta_alias_graph_may_contain_alias(g, sx, sy), ta_alias_query_may_contain_alias(q, sx, sy));
                /* symmetric */
                assert_int_equal(ta_alias_query_may_alias(q, sx, sy), ta_alias_query_may_alias(q, sy, sx));
            }
        ta_alias_graph_destroy(g);
        json_decref(j);
        ta_alias_query_destroy(q);
        ta_arena_destroy(a);
    }
    ta_diags_destroy(d);
}

/* the declared-contract queries: outputs aliasing inputs, view ops, writes */
static void test_contract(void **state)
{
    (void)state;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_schema *s = NULL;
    const char *chunk = "aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]";
    assert_int_equal(ta_schema_parse(a, chunk, strlen(chunk), NULL, &s, d), TA_OK);
    ta_alias_query *q = NULL;
    assert_int_equal(ta_alias_query_create(s, &q, d), TA_OK);
    assert_true(ta_alias_query_is_view_op(q));
    assert_true(ta_alias_query_output_aliases_input(q, 0, 0)); /* through the wildcard */
    assert_false(ta_alias_query_output_aliases_input(q, 0, 1));
    assert_false(ta_alias_query_is_mutable(q));
    assert_false(ta_alias_query_may_alias(q, ta_in(0), ta_out(0))); /* torch: lists hide elements */
    assert_true(ta_alias_query_may_contain_alias(q, ta_in(0), ta_out(0)));
    assert_false(ta_alias_query_may_alias(q, ta_in(9), ta_out(0))); /* out of range */
    ta_alias_query_destroy(q);

    const char *add = "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)";
    assert_int_equal(ta_schema_parse(a, add, strlen(add), NULL, &s, d), TA_OK);
    assert_int_equal(ta_alias_query_create(s, &q, d), TA_OK);
    assert_false(ta_alias_query_is_view_op(q));
    assert_true(ta_alias_query_is_mutable_input(q, 0));
    assert_false(ta_alias_query_is_mutable_input(q, 1));
    assert_true(ta_alias_query_output_aliases_input(q, 0, 0));
    assert_int_equal(ta_alias_query_nsets(q), 1);
    assert_true(ta_str_eq(ta_alias_query_set_name(q, 0), "a"));
    assert_int_equal(ta_alias_query_sets_written(q, ta_in(0)), 1);
    assert_int_equal(ta_alias_query_sets_written(q, ta_in(1)), 0);
    ta_alias_query_destroy(q);
    ta_arena_destroy(a);
    ta_diags_destroy(d);
}

/* fuzz_alias found these: a control character inside an annotation made
 * igraph's GraphML writer raise an error, and igraph's default handler
 * aborted the process. Every writer must now succeed. */
static void test_fuzz_regressions(void **state)
{
    (void)state;
    static const char *const inputs[] = {
        "aten::_set_item.str(Dict(str, t)(a!)l, str(\014b -> *) idx, t(c -> *) v) -> ()",
    };
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        ta_arena *a;
        assert_int_equal(ta_arena_create(&a), TA_OK);
        ta_diags *d;
        assert_int_equal(ta_diags_create(&d), TA_OK);
        ta_schema *s = NULL;
        assert_int_equal(ta_schema_parse(a, inputs[i], strlen(inputs[i]), NULL, &s, d), TA_OK);
        ta_alias_graph *g = NULL;
        assert_int_equal(ta_alias_graph_create(s, &g, d), TA_OK);
        FILE *f = tmpfile();
        assert_non_null(f);
        assert_int_equal(ta_alias_graph_write_graphml(g, f), TA_OK);
        assert_int_equal(ta_alias_graph_write_dot(g, f), TA_OK);
        assert_int_equal(ta_alias_graph_write_json(g, f), TA_OK);
        fclose(f);
        ta_alias_graph_destroy(g);
        ta_diags_destroy(d);
        ta_arena_destroy(a);
    }
}

/* Slots by name, and a slot out of range is an error in the checked
 * questions (the plain ones answer false). */
static void test_checked_and_named(void **state)
{
    (void)state;
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_schema *s = NULL;
    const char *t = "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!) out";
    assert_int_equal(ta_schema_parse(a, t, strlen(t), NULL, &s, NULL), TA_OK);
    ta_alias_query *q = NULL;
    assert_int_equal(ta_alias_query_create(s, &q, NULL), TA_OK);
    ta_slot out, other;
    assert_int_equal(ta_alias_query_slot_named(q, "out", &out), TA_OK);
    assert_true(out.kind == TA_SLOT_IN && out.index == 3); /* the argument, before the return */
    assert_int_equal(ta_alias_query_slot_named(q, "other", &other), TA_OK);
    assert_true(other.kind == TA_SLOT_IN && other.index == 1);
    assert_int_equal(ta_alias_query_slot_named(q, "nope", &other), TA_ERR_NOTFOUND);
    bool yes = false;
    assert_int_equal(ta_alias_query_may_alias_checked(q, out, ta_out(0), &yes), TA_OK);
    assert_true(yes);
    assert_int_equal(ta_alias_query_may_alias_checked(q, ta_in(1), ta_out(0), &yes), TA_OK);
    assert_false(yes);
    assert_int_equal(ta_alias_query_may_alias_checked(q, ta_in(4), ta_out(0), &yes), TA_ERR_INVALID);
    assert_int_equal(ta_alias_query_may_alias_checked(q, ta_in(0), ta_out(1), &yes), TA_ERR_INVALID);
    assert_int_equal(ta_alias_query_may_contain_alias_checked(q, out, ta_out(0), &yes), TA_OK);
    assert_true(yes);
    assert_int_equal(ta_alias_query_may_contain_alias_checked(q, ta_out(7), ta_out(0), &yes), TA_ERR_INVALID);
    assert_false(yes);
    assert_int_equal(ta_alias_query_is_mutable_input_checked(q, 3, &yes), TA_OK);
    assert_true(yes);
    assert_int_equal(ta_alias_query_is_mutable_input_checked(q, 4, &yes), TA_ERR_INVALID);
    assert_false(ta_alias_query_is_mutable_input(q, 4));
    ta_alias_graph *g = NULL;
    assert_int_equal(ta_alias_graph_create(s, &g, NULL), TA_OK);
    assert_int_equal(ta_alias_graph_may_alias_checked(g, out, ta_out(0), &yes), TA_OK);
    assert_true(yes);
    assert_int_equal(ta_alias_graph_may_alias_checked(g, ta_in(9), ta_out(0), &yes), TA_ERR_INVALID);
    assert_false(yes);
    assert_int_equal(ta_alias_graph_may_contain_alias_checked(g, out, ta_out(0), &yes), TA_OK);
    assert_true(yes);
    assert_int_equal(ta_alias_graph_may_contain_alias_checked(g, out, ta_out(1), &yes), TA_ERR_INVALID);
    assert_int_equal(ta_alias_graph_is_mutable_input_checked(g, 3, &yes), TA_OK);
    assert_true(yes);
    assert_int_equal(ta_alias_graph_is_mutable_input_checked(g, 4, &yes), TA_ERR_INVALID);
    ta_alias_graph_destroy(g);
    ta_alias_query_destroy(q);
    ta_arena_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_torch_corners),
        cmocka_unit_test(test_contract),
        cmocka_unit_test(test_fuzz_regressions),
        cmocka_unit_test(test_checked_and_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
