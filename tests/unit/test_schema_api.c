/* test_schema_api.c - the schema model and printers as other modules use
 * them: the fields a parse fills in, torch's view of alias annotations,
 * canonical printing of schemas that have no source text (built in memory,
 * as autogen does), type printing and buffer truncation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tensoralias/schema.h"

static ta_schema *parse(ta_arena *a, const char *text)
{
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_schema *s = NULL;
    ta_status st = ta_schema_parse(a, text, strlen(text), NULL, &s, d);
    if (st != TA_OK) fprintf(stderr, "%s: %s\n", text, ta_diags_get(d, 0)->message);
    assert_int_equal(st, TA_OK);
    assert_int_equal(ta_diags_count(d), 0);
    ta_diags_destroy(d);
    return s;
}

static void test_fields(void **state)
{
    (void)state;
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_schema *s = parse(a, "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
    assert_true(ta_str_eq(s->ns, "aten"));
    assert_true(ta_str_eq(s->name, "add_"));
    assert_true(ta_str_eq(s->overload, "Tensor"));
    assert_true(ta_str_eq(s->full_name, "aten::add_"));
    assert_int_equal(s->nargs, 3);
    assert_int_equal(s->kwarg_marker, 2);
    assert_false(s->args[0].kwarg_only);
    assert_true(s->args[2].kwarg_only);
    assert_false(s->args[0].is_out); /* written, but positional */
    assert_int_equal(s->args[2].def.kind, TA_DEFAULT_INT);
    assert_true(ta_str_eq(s->args[2].def.text, "1"));
    assert_int_equal(s->args[1].def.kind, TA_DEFAULT_NONE_GIVEN);
    const ta_alias *al = s->args[0].type->alias;
    assert_non_null(al);
    assert_true(al->write);
    assert_false(al->has_arrow);
    assert_int_equal(al->nbefore, 1);
    assert_int_equal(al->nafter, 1);
    assert_true(ta_str_eq(al->before[0], "a"));
    assert_memory_equal(s->text + al->span.off, "(a!)", 4);
    assert_int_equal(s->nrets, 1);
    assert_false(s->rets_parenthesized);
    assert_memory_equal(s->text + s->name_span.off, "aten::add_.Tensor", s->name_span.len);
    assert_memory_equal(s->text + s->args[2].span.off, "Scalar alpha=1", s->args[2].span.len);
    assert_memory_equal(s->text + s->rets_span.off, "Tensor(a!)", s->rets_span.len);

    s = parse(a, "f(Tensor(a! -> a|b) x, Tensor(b -> *) y, Tensor! z, *, Tensor(c!)[] out, Tensor(d!) out2) -> (Tensor(a|b) r, Tensor)");
    al = s->args[0].type->alias;
    assert_true(al->has_arrow && al->write);
    assert_int_equal(al->nbefore, 1);
    assert_int_equal(al->nafter, 2);
    assert_true(ta_str_eq(al->after[1], "b"));
    al = s->args[1].type->alias;
    assert_true(ta_str_eq(al->after[0], "*"));
    al = s->args[2].type->alias;
    assert_true(al->bare_write && al->write);
    assert_int_equal(al->nbefore, 0);
    assert_true(s->args[3].is_out); /* element annotation: list-level write */
    assert_true(s->args[4].is_out);
    assert_true(s->rets_parenthesized);
    assert_true(ta_str_eq(s->rets[0].name, "r"));
    assert_int_equal(s->rets[1].name.len, 0);

    s = parse(a, "f(int[2] a=[0, 1], float b=1e-05, str c='mean', bool d=False, Tensor? e=None, int f=Mean, float g=-.5, int[] h=[]) -> ()");
    static const ta_default_kind kinds[] = {TA_DEFAULT_LIST, TA_DEFAULT_FLOAT, TA_DEFAULT_STRING,
                                            TA_DEFAULT_BOOL, TA_DEFAULT_NONE, TA_DEFAULT_IDENT,
                                            TA_DEFAULT_FLOAT, TA_DEFAULT_LIST};
    static const char *const texts[] = {"[0, 1]", "1e-05", "'mean'", "False", "None", "Mean", "-.5", "[]"};
    for (int i = 0; i < 8; i++) {
        assert_int_equal(s->args[i].def.kind, kinds[i]);
        assert_true(ta_str_eq(s->args[i].def.text, texts[i]));
    }
    assert_int_equal(s->args[0].type->kind, TA_TYPE_LIST);
    assert_int_equal(s->args[0].type->fixed_size, 2);
    assert_int_equal(s->nrets, 0);
    assert_true(s->rets_parenthesized);

    s = parse(a, "aten::format(str self, ...) -> str");
    assert_true(s->vararg);
    s = parse(a, "prim::BroadcastMKLDNNTensors(...) -> ...");
    assert_true(s->vararg && s->varret);
    assert_int_equal(s->nargs, 0);
    ta_arena_destroy(a);
}

static void test_types(void **state)
{
    (void)state;
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_schema *s = parse(a, "f(Tensor(a)[] a, t[](b!) b, Dict(str, t)(c!) c, Tensor?[] d, int[1]? e, "
                            "Tensor(e)? f, (int, Tensor) g, Future(t) h, __torch__.torch.classes.x.Y i, "
                            "Tensor(f!)[](g) j) -> ()");
    static const char *const plain[] = {"Tensor[]", "t[]", "Dict(str, t)", "Tensor?[]", "int[1]?",
                                        "Tensor?", "(int, Tensor)", "Future(t)",
                                        "__torch__.torch.classes.x.Y", "Tensor[]"};
    static const char *const full[] = {"Tensor(a)[]", "t[](b!)", "Dict(str, t)(c!)", "Tensor?[]",
                                       "int[1]?", "Tensor(e)?", "(int, Tensor)", "Future(t)",
                                       "__torch__.torch.classes.x.Y", "Tensor(f!)[](g)"};
    char buf[128];
    for (int i = 0; i < 10; i++) {
        assert_int_equal(ta_type_print_plain(s->args[i].type, buf, sizeof buf), strlen(plain[i]));
        assert_string_equal(buf, plain[i]);
        ta_type_print(s->args[i].type, buf, sizeof buf);
        assert_string_equal(buf, full[i]);
    }
    /* element vs container annotations, and torch's view of them */
    const ta_type *t = s->args[0].type;
    assert_null(t->alias);
    assert_non_null(t->elems[0]->alias);
    ta_alias_view v;
    ta_type_alias_view(t, &v);
    assert_true(v.present && !v.write);
    assert_null(v.set);
    assert_ptr_equal(v.elem, t->elems[0]->alias);
    ta_type_alias_view(s->args[1].type, &v);
    assert_true(v.present && v.write);
    assert_ptr_equal(v.set, s->args[1].type->alias);
    assert_null(v.elem);
    ta_type_alias_view(s->args[2].type, &v);
    assert_true(v.present && v.write && v.set);
    ta_type_alias_view(s->args[3].type, &v);
    assert_false(v.present);
    ta_type_alias_view(s->args[5].type, &v); /* '?' is transparent */
    assert_true(v.present && v.set && !v.write);
    ta_type_alias_view(s->args[9].type, &v); /* both: the container's wins */
    assert_true(v.present && !v.write && v.set && v.elem && v.elem->write);
    /* predicates */
    assert_true(ta_type_is_tensor_like(s->args[0].type));
    assert_true(ta_type_is_tensor_like(s->args[3].type));
    assert_true(ta_type_is_tensor_like(s->args[5].type));
    assert_false(ta_type_is_tensor_like(s->args[1].type));
    assert_false(ta_type_is_tensor_like(s->args[6].type));
    assert_true(ta_type_is_name(s->args[0].type->elems[0], "Tensor"));
    assert_false(ta_type_is_name(s->args[0].type, "Tensor"));
    /* truncation follows snprintf */
    char small[5];
    assert_int_equal(ta_type_print(s->args[2].type, small, sizeof small), strlen(full[2]));
    assert_string_equal(small, "Dict");
    assert_int_equal(ta_type_print(s->args[2].type, NULL, 0), strlen(full[2]));
    ta_arena_destroy(a);
}

/* Canonical printing must not need the source text: drop it and compare. */
static void test_canonical_without_text(void **state)
{
    (void)state;
    static const char *const forms[] = {
        "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
        "aten::split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]",
        "aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
        "aten::_foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()",
        "aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)",
        "aten::Delete.Dict_str(Dict(str, t)(a!) self, str key) -> ()",
        "aten::as_tensor(Tensor(a) data, *, ScalarType? dtype=None, Device? device=None) -> Tensor(b|a)",
        "aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, SymInt[1]? x=None) -> Tensor",
        "aten::items.str(Dict(str, t) self) -> ((str, t)[])",
        "f(Tensor! x, Tensor(a! -> a|b) y, Tensor(*) z) -> ((int, int))",
        "prim::BroadcastMKLDNNTensors(...) -> ...",
        "aten::format(str self, ...) -> str",
        "f(int x) -> (int, ...)",
        "mylib::op(Tensor(a) x, int y=3) -> Tensor(a) out",
        "f(Any(a) x, str s=\"\\\"'\\\\\") -> Future(t)",
    };
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    char buf[512];
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        ta_schema *s = parse(a, forms[i]);
        s->text = NULL;
        s->text_len = 0;
        assert_int_equal(ta_schema_print_canonical(s, buf, sizeof buf), strlen(forms[i]));
        assert_string_equal(buf, forms[i]);
        /* ta_schema_print falls back to canonical without text */
        ta_schema_print(s, buf, sizeof buf);
        assert_string_equal(buf, forms[i]);
    }
    /* torch's canonical spelling of non-canonical input */
    ta_schema *s = parse(a, "aten :: f . o ( int  x , * , Tensor(a!)  out ) -> ( Tensor(a!) )");
    ta_schema_print_canonical(s, buf, sizeof buf);
    assert_string_equal(buf, "aten::f.o(int x, *, Tensor(a!) out) -> Tensor(a!)");
    ta_arena_destroy(a);
}

/* A schema built field by field, as autogen builds its variants. */
static ta_type *name_type(ta_arena *a, const char *n, ta_alias *al)
{
    ta_type *t = ta_arena_alloc(a, sizeof *t);
    t->kind = TA_TYPE_NAME;
    t->name = (ta_str){n, (uint32_t)strlen(n)};
    t->fixed_size = -1;
    t->alias = al;
    return t;
}

static ta_type *wrap(ta_arena *a, ta_type_kind k, ta_type *e, int32_t n)
{
    ta_type *t = ta_arena_alloc(a, sizeof *t);
    t->kind = k;
    t->elems = ta_arena_alloc(a, sizeof *t->elems);
    t->elems[0] = e;
    t->nelems = 1;
    t->fixed_size = n;
    return t;
}

static ta_alias *write_set(ta_arena *a, const char *set)
{
    ta_alias *al = ta_arena_alloc(a, sizeof *al);
    al->before = ta_arena_alloc(a, sizeof *al->before);
    al->before[0] = (ta_str){set, (uint32_t)strlen(set)};
    al->nbefore = 1;
    al->after = al->before;
    al->nafter = 1;
    al->write = true;
    return al;
}

static void test_built_in_memory(void **state)
{
    (void)state;
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_schema *s = ta_arena_alloc(a, sizeof *s);
    s->ns = (ta_str){"aten", 4};
    s->name = (ta_str){"foo", 3};
    s->overload = (ta_str){"out", 3};
    s->kwarg_marker = -1;
    s->nargs = 4;
    s->args = ta_arena_alloc(a, 4 * sizeof *s->args);
    s->args[0] = (ta_arg){.name = {"self", 4}, .type = name_type(a, "Tensor", NULL)};
    s->args[1] = (ta_arg){.name = {"k", 1}, .type = wrap(a, TA_TYPE_LIST, name_type(a, "int", NULL), 2)};
    s->args[2] = (ta_arg){.name = {"w", 1},
                          .type = wrap(a, TA_TYPE_OPTIONAL, name_type(a, "Tensor", NULL), -1),
                          .def = {.kind = TA_DEFAULT_NONE, .text = {"None", 4}}};
    s->args[3] = (ta_arg){.name = {"out", 3},
                          .type = wrap(a, TA_TYPE_LIST, name_type(a, "Tensor", write_set(a, "a")), -1),
                          .kwarg_only = true, .is_out = true};
    s->nrets = 0;
    char buf[256];
    ta_schema_print_canonical(s, buf, sizeof buf);
    assert_string_equal(buf, "aten::foo.out(Tensor self, int[2] k, Tensor? w=None, *, Tensor(a!)[] out) -> ()");
    s->nrets = 2;
    s->rets = ta_arena_alloc(a, 2 * sizeof *s->rets);
    s->rets[0] = (ta_ret){.name = {"values", 6}, .type = name_type(a, "Tensor", write_set(a, "a"))};
    s->rets[1] = (ta_ret){.type = name_type(a, "Tensor", write_set(a, "b"))};
    ta_schema_print_canonical(s, buf, sizeof buf);
    assert_string_equal(buf, "aten::foo.out(Tensor self, int[2] k, Tensor? w=None, *, Tensor(a!)[] out) -> (Tensor(a!) values, Tensor(b!))");
    s->nrets = 1;
    s->ns = (ta_str){NULL, 0};
    s->overload = (ta_str){NULL, 0};
    ta_schema_print_canonical(s, buf, sizeof buf);
    assert_string_equal(buf, "foo(Tensor self, int[2] k, Tensor? w=None, *, Tensor(a!)[] out) -> Tensor(a!) values");
    /* and it parses back into the same thing */
    ta_schema *back = parse(a, buf);
    char buf2[256];
    ta_schema_print_canonical(back, buf2, sizeof buf2);
    assert_string_equal(buf, buf2);
    assert_true(back->args[3].is_out);
    ta_arena_destroy(a);
}

static void test_arena_reset(void **state)
{
    (void)state;
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    for (int i = 0; i < 1000; i++) assert_non_null(ta_arena_alloc(a, 1000));
    size_t before = ta_arena_bytes(a);
    ta_arena_reset(a);
    assert_true(ta_arena_bytes(a) < before);
    size_t kept = ta_arena_bytes(a);
    char *p = ta_arena_alloc(a, 64);
    assert_non_null(p);
    for (int i = 0; i < 64; i++) assert_int_equal(p[i], 0);
    assert_int_equal(ta_arena_bytes(a), kept); /* reused, not reallocated */
    ta_arena_destroy(a);
    ta_arena_reset(NULL);
}

/* The diagnostics calls: one per severity, a location struct whose line
 * text is copied (it need not be NUL-terminated), a hint on the last one. */
static void test_diag_calls(void **state)
{
    (void)state;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    char line[] = "x: Tensor(a!) selfXXXX";
    ta_loc loc = {"f.yaml", 3, 4, 6, line, 18};
    assert_int_equal(ta_diag_error(d, &loc, "rule-a", "bad %s", "thing"), TA_OK);
    assert_int_equal(ta_diag_hint(d, "try %d", 2), TA_OK);
    assert_int_equal(ta_diag_warning(d, NULL, "rule-b", "no place"), TA_OK);
    assert_int_equal(ta_diag_note(d, NULL, NULL, "n"), TA_OK);
    line[0] = 'y'; /* the list holds its own copy */
    assert_int_equal(ta_diags_count(d), 3);
    const ta_diag *g = ta_diags_get(d, 0);
    assert_int_equal(g->severity, TA_SEV_ERROR);
    assert_string_equal(g->rule, "rule-a");
    assert_string_equal(g->message, "bad thing");
    assert_string_equal(g->source, "f.yaml");
    assert_int_equal(g->line, 3);
    assert_int_equal(g->col, 4);
    assert_int_equal(g->length, 6);
    assert_string_equal(g->source_line, "x: Tensor(a!) self");
    assert_string_equal(g->hint, "try 2");
    g = ta_diags_get(d, 1);
    assert_int_equal(g->severity, TA_SEV_WARNING);
    assert_string_equal(g->source, "<string>");
    assert_int_equal(g->line, 0);
    assert_null(g->source_line);
    assert_null(g->hint);
    assert_string_equal(ta_diags_get(d, 2)->rule, "unknown");
    assert_int_equal(ta_diags_count_severity(d, TA_SEV_NOTE), 1);
    assert_int_equal(ta_diag_error(NULL, &loc, "r", "ignored"), TA_OK);
    ta_diags_destroy(d);
}

/* Numbers read from views stop at the view's end, whatever follows it. */
static void test_str_numbers(void **state)
{
    (void)state;
    const char *text = "12345 1.5e3x [3, -4]5 []";
    int64_t i = -1;
    double d = -1;
    assert_true(ta_str_to_int((ta_str){text, 2}, &i));
    assert_int_equal(i, 12);
    assert_true(ta_str_to_double((ta_str){text + 6, 5}, &d));
    assert_true(d == 1500.0);
    assert_true(ta_str_to_double((ta_str){text + 6, 3}, &d));
    assert_true(d == 1.5);
    assert_false(ta_str_to_int((ta_str){text + 11, 1}, &i)); /* "x" */
    assert_int_equal(i, 12);
    int64_t v[4] = {0};
    assert_int_equal(ta_str_to_int_list((ta_str){text + 13, 7}, v, 4), 2);
    assert_int_equal(v[0], 3);
    assert_int_equal(v[1], -4);
    assert_int_equal(ta_str_to_int_list((ta_str){text + 13, 7}, v, 1), 1);
    assert_int_equal(ta_str_to_int_list((ta_str){text + 22, 2}, v, 4), 0);
    assert_int_equal(ta_str_to_int_list((ta_str){text, 1}, v, 4), 1);
    assert_int_equal(v[0], 1);
}

/* Arguments and returns by name; the operator's name with its overload. */
static void test_by_name(void **state)
{
    (void)state;
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_schema *s = NULL;
    const char *t = "aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, "
                    "Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)";
    assert_int_equal(ta_schema_parse(a, t, strlen(t), NULL, &s, NULL), TA_OK);
    assert_int_equal(ta_schema_arg_index(s, "self"), 0);
    assert_int_equal(ta_schema_arg_index(s, "max_values"), 4);
    assert_int_equal(ta_schema_arg_index(s, "max_"), -1);
    assert_int_equal(ta_schema_arg_index(s, "values"), -1);
    assert_int_equal(ta_schema_ret_index(s, "indices"), 1);
    assert_int_equal(ta_schema_ret_index(s, "self"), -1);
    assert_int_equal(ta_schema_ret_index(s, ""), -1);
    char buf[64];
    assert_int_equal(ta_schema_op_name(s, buf, sizeof buf), strlen("aten::max.dim_max"));
    assert_string_equal(buf, "aten::max.dim_max");
    assert_int_equal(ta_schema_op_name(s, buf, 6), strlen("aten::max.dim_max"));
    assert_string_equal(buf, "aten:"); /* cut, still terminated */
    const char *u = "abs(Tensor self) -> Tensor";
    assert_int_equal(ta_schema_parse(a, u, strlen(u), NULL, &s, NULL), TA_OK);
    ta_schema_op_name(s, buf, sizeof buf);
    assert_string_equal(buf, "abs");
    assert_int_equal(ta_schema_ret_index(s, "x"), -1); /* unnamed return */
    ta_arena_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_canonical_without_text),
        cmocka_unit_test(test_built_in_memory),
        cmocka_unit_test(test_arena_reset),
        cmocka_unit_test(test_diag_calls),
        cmocka_unit_test(test_str_numbers),
        cmocka_unit_test(test_by_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
