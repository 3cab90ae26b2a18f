/* test_diff_api.c - the diff module as a C caller uses it: schema lists,
 * torch's default values, the classification of alias-contract changes
 * (writes, view <-> copy, sets changed or only renamed, torchgen's kind,
 * defaults), records for added and removed overloads, yaml sides with
 * their autogen-derived functions, the allow-list and its expiry, and the
 * diagnostics' places (NEW, then a note at OLD). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schema/parser.h"
#include "support/diags.h"
#include "tensoralias/diff.h"

static ta_schema_list *list(const char *text, ta_diags *d)
{
    ta_schema_list *l = NULL;
    ta_status st = ta_schema_list_load_buffer(text, strlen(text), "list.txt", &l, d);
    assert_true(st == TA_OK || st == TA_ERR_PARSE);
    assert_non_null(l);
    return l;
}

/* A diff of two lists of schemas; diags and lists freed by the caller. */
typedef struct pair {
    ta_schema_list *old_l, *new_l;
    ta_diff *d;
    ta_diags *diags;
} pair;

static pair diff_lists(const char *old_text, const char *new_text, const ta_allow_list *allow)
{
    pair p = {NULL, NULL, NULL, NULL};
    assert_int_equal(ta_diags_create(&p.diags), TA_OK);
    p.old_l = list(old_text, p.diags);
    p.new_l = list(new_text, p.diags);
    ta_diff_input o = {NULL, p.old_l, NULL}, n = {NULL, p.new_l, NULL};
    ta_diff_opts opts = {allow};
    assert_int_equal(ta_diff_create(&o, &n, &opts, &p.d, p.diags), TA_OK);
    return p;
}

static void pair_free(pair *p)
{
    ta_diff_destroy(p->d);
    ta_schema_list_destroy(p->old_l);
    ta_schema_list_destroy(p->new_l);
    ta_diags_destroy(p->diags);
}

/* The record of the only changed overload and its item of kind w. */
static const ta_diff_item *only_item(const ta_diff *d, ta_diff_what w, const ta_diff_record **rec)
{
    assert_int_equal(ta_diff_count(d), 1);
    const ta_diff_record *r = ta_diff_get(d, 0);
    *rec = r;
    for (uint32_t k = 0; k < r->nitems; k++)
        if (r->items[k].what == w) return &r->items[k];
    return NULL;
}

static void test_schema_list(void **state)
{
    (void)state;
    ta_diags *d = NULL;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    const char *text = "# a comment\n\n  mylib::a(Tensor x) -> Tensor\r\nmylib::b(Tensor x -> Tensor\n"
                       "\tc(int y=1) -> ()";
    ta_schema_list *l = NULL;
    assert_int_equal(ta_schema_list_load_buffer(text, strlen(text), "l.txt", &l, d), TA_ERR_PARSE);
    assert_int_equal(ta_schema_list_count(l), 2);
    assert_true(ta_str_eq(ta_schema_list_get(l, 0)->name, "a"));
    assert_true(ta_str_eq(ta_schema_list_get(l, 1)->name, "c"));
    const ta_diag *g = NULL;
    assert_int_equal(ta_test_count_rule(d, "schema-syntax", &g), 1);
    assert_int_equal(g->line, 4);
    ta_loc at;
    assert_true(ta_schema_list_locate(l, 0, 9, 6, &at));
    assert_string_equal(at.file, "l.txt");
    assert_int_equal(at.line, 3);
    assert_int_equal(at.col, 12); /* two blanks, then "mylib::a(" */
    assert_memory_equal(at.line_text, "  mylib::a", 10);
    assert_int_equal(at.line_len, strlen("  mylib::a(Tensor x) -> Tensor")); /* no \r */
    assert_false(ta_schema_list_locate(l, 2, 0, 1, &at));
    ta_schema_list_destroy(l);
    assert_int_equal(ta_schema_list_load_buffer("", 0, NULL, &l, d), TA_OK);
    assert_int_equal(ta_schema_list_count(l), 0);
    assert_string_equal(ta_schema_list_source(l), "<string>");
    ta_schema_list_destroy(l);
    ta_diags_destroy(d);
}

/* torch's values: a default spelled differently may be the same value. */
static bool same_default(const char *a, const char *b)
{
    ta_arena *ar = NULL;
    assert_int_equal(ta_arena_create(&ar), TA_OK);
    ta_schema *x, *y;
    assert_int_equal(ta_schema_parse(ar, a, strlen(a), NULL, &x, NULL), TA_OK);
    assert_int_equal(ta_schema_parse(ar, b, strlen(b), NULL, &y, NULL), TA_OK);
    bool eq = ta_default_equal(x->args[0].type, &x->args[0].def, y->args[0].type, &y->args[0].def);
    ta_arena_destroy(ar);
    return eq;
}

static void test_default_values(void **state)
{
    (void)state;
    assert_true(same_default("f(float x=1e-05) -> ()", "f(float x=1.0000000000000001e-05) -> ()"));
    assert_true(same_default("f(float x=1) -> ()", "f(float x=1.0) -> ()")); /* float reads 1 as 1.0 */
    assert_false(same_default("f(Scalar x=1) -> ()", "f(Scalar x=1.0) -> ()")); /* int vs double */
    assert_false(same_default("f(float? x=1) -> ()", "f(float? x=1.0) -> ()"));
    assert_true(same_default("f(float x=0.0) -> ()", "f(float x=-0.0) -> ()"));
    assert_true(same_default("f(int x=Mean) -> ()", "f(int x=1) -> ()"));
    assert_false(same_default("f(int x=True) -> ()", "f(int x=1) -> ()"));
    assert_true(same_default("f(int[2] x=1) -> ()", "f(int[2] x=[1, 1]) -> ()"));
    assert_false(same_default("f(int[2] x=1) -> ()", "f(int[2] x=[1, 2]) -> ()"));
    assert_true(same_default("f(str x='a\\n') -> ()", "f(str x=\"a\\n\") -> ()"));
    assert_false(same_default("f(str x='mean') -> ()", "f(str x='sum') -> ()"));
    assert_true(same_default("f(Device x=\"cpu\") -> ()", "f(Device x='cpu') -> ()"));
    assert_false(same_default("f(Device x=\"cuda\") -> ()", "f(Device x=\"cuda:0\") -> ()"));
    assert_true(same_default("f(int? x=None) -> ()", "f(Tensor? x=None) -> ()"));
    assert_true(same_default("f(complex x=1.5j) -> ()", "f(complex x=1.50j) -> ()"));
    assert_true(same_default("f(int[] x=[]) -> ()", "f(int[] x=[]) -> ()"));
    assert_false(same_default("f(int[] x=[]) -> ()", "f(float[] x=[]) -> ()")); /* element types */
}

static void test_write_added(void **state)
{
    (void)state;
    pair p = diff_lists("aten::rrelu_with_noise(Tensor self, Tensor noise, bool training=False) -> Tensor\n",
                        "aten::rrelu_with_noise(Tensor self, Tensor(b!) noise, bool training=False) -> Tensor\n",
                        NULL);
    const ta_diff_record *r;
    const ta_diff_item *it = only_item(p.d, TA_DW_WRITE_ADDED, &r);
    assert_non_null(it);
    assert_string_equal(it->slot, "noise");
    assert_string_equal(it->detail, "Tensor -> Tensor(b!)");
    assert_int_equal(it->new_index, 1);
    assert_int_equal(r->change, TA_DIFF_CHANGED);
    assert_int_equal(r->bc, TA_COMPAT_NO);
    assert_true(r->alias_changed);
    assert_true(r->breaks);
    const ta_diff_record *r2;
    const ta_diff_item *kind = only_item(p.d, TA_DW_KIND_CHANGED, &r2);
    assert_non_null(kind);
    assert_string_equal(kind->detail, "functional -> mutable");
    /* the error points at noise in NEW, the last note at the overload in OLD */
    const ta_diag *g = NULL;
    assert_int_equal(ta_test_count_rule(p.diags, "diff-not-backward-compatible", &g), 1);
    assert_int_equal(g->severity, TA_SEV_ERROR);
    assert_int_equal(g->col, strlen("aten::rrelu_with_noise(Tensor self, ") + 1);
    const ta_diag *last = ta_diags_get(p.diags, ta_diags_count(p.diags) - 1);
    assert_string_equal(last->rule, "diff-old");
    assert_int_equal(last->line, 1);
    pair_free(&p);
}

static void test_view_became_copy(void **state)
{
    (void)state;
    pair p = diff_lists("aten::alias(Tensor(a) self) -> Tensor(a)", "aten::alias(Tensor self) -> Tensor", NULL);
    const ta_diff_record *r;
    const ta_diff_item *it = only_item(p.d, TA_DW_ALIAS_REMOVED, &r);
    assert_non_null(it);
    /* the argument's annotation goes first, then the return's */
    assert_string_equal(r->items[r->nitems - 1].slot, "return 0");
    assert_true(strstr(r->items[r->nitems - 1].detail, "a view became a copy") != NULL);
    const ta_diff_item *kind = only_item(p.d, TA_DW_KIND_CHANGED, &r);
    assert_string_equal(kind->detail, "functional view -> functional");
    pair_free(&p);
    p = diff_lists("f(Tensor self) -> Tensor", "f(Tensor(a) self) -> Tensor(a)", NULL);
    const ta_diff_record *r3 = ta_diff_get(p.d, 0);
    assert_true(strstr(r3->items[r3->nitems - 1].detail, "a copy became a view") != NULL);
    pair_free(&p);
    /* a return's "!": it is now the written argument itself, not a write of its own */
    p = diff_lists("mylib::scale(Tensor x) -> Tensor", "mylib::scale(Tensor(a!) x) -> Tensor(a!)", NULL);
    const ta_diff_item *w = only_item(p.d, TA_DW_WRITE_ADDED, &r3);
    assert_string_equal(w->slot, "x");
    const ta_diff_item *ret = &r3->items[r3->nitems - 1];
    assert_int_equal(ret->what, TA_DW_ALIAS_ADDED);
    assert_string_equal(ret->detail, "Tensor -> Tensor(a!): a fresh result became a written argument");
    pair_free(&p);
}

static void test_sets_renamed_or_changed(void **state)
{
    (void)state;
    /* renamed consistently: what aliases what is the same; torch still says no */
    pair p = diff_lists("aten::f(Tensor(a) self, Tensor(b) other) -> Tensor(a)",
                        "aten::f(Tensor(x) self, Tensor(y) other) -> Tensor(x)", NULL);
    const ta_diff_record *r;
    assert_non_null(only_item(p.d, TA_DW_ALIAS_RENAMED, &r));
    assert_null(only_item(p.d, TA_DW_ALIAS_CHANGED, &r));
    assert_int_equal(r->bc, TA_COMPAT_NO);
    assert_true(r->alias_changed);
    pair_free(&p);
    /* the return moves from self to other */
    p = diff_lists("aten::f(Tensor(a) self, Tensor(b) other) -> Tensor(a)",
                   "aten::f(Tensor(a) self, Tensor(b) other) -> Tensor(b)", NULL);
    const ta_diff_item *it = only_item(p.d, TA_DW_ALIAS_CHANGED, &r);
    assert_non_null(it);
    assert_string_equal(it->slot, "return 0");
    assert_string_equal(it->detail, "Tensor(a) -> Tensor(b): may alias {self} -> {other}");
    pair_free(&p);
    /* set order inside an annotation is no change at all */
    p = diff_lists("aten::f(Tensor(a|b) self) -> Tensor(a)", "aten::f(Tensor(b|a) self) -> Tensor(a)", NULL);
    assert_int_equal(ta_diff_count(p.d), 1);
    assert_int_equal(ta_diff_get(p.d, 0)->bc, TA_COMPAT_YES);
    assert_false(ta_diff_get(p.d, 0)->alias_changed);
    pair_free(&p);
}

static void test_signature_items(void **state)
{
    (void)state;
    pair p = diff_lists("aten::g(Tensor self, int dim, str mode='mean', bool keep=False) -> (Tensor a, Tensor b)",
                        "aten::g(Tensor self, SymInt dim, str mode='sum', *, bool keep=False, int extra=0) -> "
                        "(Tensor a, Tensor c)",
                        NULL);
    const ta_diff_record *r = ta_diff_get(p.d, 0);
    static const struct { ta_diff_what w; const char *slot, *detail; } want[] = {
        {TA_DW_TYPE_CHANGED, "dim", "int -> SymInt (the same type to torch)"},
        {TA_DW_DEFAULT_CHANGED, "mode", "'mean' -> 'sum'"},
        {TA_DW_KWARG_ONLY, "keep", "positional -> keyword-only"},
        {TA_DW_ARG_ADDED, "extra", "int extra=0 (keyword-only)"},
        {TA_DW_RETURN_RENAMED, "return 1", "'b' -> 'c'"},
    };
    assert_int_equal(r->nitems, sizeof want / sizeof want[0]);
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        assert_int_equal(r->items[k].what, want[k].w);
        assert_string_equal(r->items[k].slot, want[k].slot);
        assert_string_equal(r->items[k].detail, want[k].detail);
    }
    assert_false(r->alias_changed);
    assert_int_equal(r->bc, TA_COMPAT_NO);
    assert_true(strstr(r->bc_why, "'b' -> 'c'") != NULL);
    pair_free(&p);
}

static void test_added_removed(void **state)
{
    (void)state;
    pair p = diff_lists("a(Tensor x) -> Tensor\nb(Tensor x) -> Tensor\n",
                        "aten::b(Tensor x) -> Tensor\nc(Tensor x) -> Tensor\n", NULL);
    assert_int_equal(ta_diff_count(p.d), 2); /* b matches aten::b: no namespace is aten */
    const ta_diff_record *add = ta_diff_get(p.d, 0), *rem = ta_diff_get(p.d, 1);
    assert_string_equal(add->op, "aten::c");
    assert_int_equal(add->change, TA_DIFF_ADDED);
    assert_false(add->breaks);
    assert_int_equal(add->new_line, 2);
    assert_string_equal(rem->op, "aten::a");
    assert_int_equal(rem->change, TA_DIFF_REMOVED);
    assert_true(rem->breaks);
    assert_int_equal(rem->old_line, 1);
    ta_diff_summary s;
    ta_diff_summarize(p.d, &s);
    assert_int_equal(s.unchanged, 1);
    assert_int_equal(s.added, 1);
    assert_int_equal(s.removed, 1);
    assert_int_equal(s.breaks, 1);
    pair_free(&p);
}

static void test_torch_oddities(void **state)
{
    (void)state;
    ta_arena *a = NULL;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_schema *o, *n;
    const char *old_s = "aten::f(Tensor a, *, Tensor(a!) out) -> Tensor(a!)";
    const char *new_s = "aten::f(Tensor a, int b=1, int c=2) -> Tensor(a!)";
    assert_int_equal(ta_schema_parse(a, old_s, strlen(old_s), NULL, &o, NULL), TA_OK);
    assert_int_equal(ta_schema_parse(a, new_s, strlen(new_s), NULL, &n, NULL), TA_OK);
    char why[256];
    assert_int_equal(ta_schema_backward_compatible(n, o, why, sizeof why), TA_COMPAT_RAISES);
    assert_true(strstr(why, "IndexError") != NULL);
    /* forward compatibility does not look at returns (their names) */
    const char *r1 = "aten::g(Tensor a) -> Tensor x", *r2 = "aten::g(Tensor a) -> Tensor y";
    assert_int_equal(ta_schema_parse(a, r1, strlen(r1), NULL, &o, NULL), TA_OK);
    assert_int_equal(ta_schema_parse(a, r2, strlen(r2), NULL, &n, NULL), TA_OK);
    assert_int_equal(ta_schema_forward_compatible(n, o, NULL, 0), TA_COMPAT_YES);
    assert_int_equal(ta_schema_backward_compatible(n, o, NULL, 0), TA_COMPAT_NO);
    assert_string_equal(ta_compat_str(TA_COMPAT_RAISES), "raises");
    ta_arena_destroy(a);
}

static ta_allow_list *allow(const char *text, int32_t today, ta_diags *d, ta_status want)
{
    ta_allow_list *al = NULL;
    assert_int_equal(ta_allow_list_load_buffer(text, strlen(text), "allow.txt", today, &al, d), want);
    assert_non_null(al);
    return al;
}

static void test_allow_list(void **state)
{
    (void)state;
    ta_diags *d = NULL;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_allow_list *al = allow("# comment\naten::g\\(   2026-12-31\naten::h 2020-01-01\nbad line\n"
                              "aten::(  2030-01-01\naten::x 2026-02-30\n",
                              20261128, d, TA_ERR_PARSE);
    assert_int_equal(ta_allow_list_count(al), 1);
    const ta_diag *g = NULL;
    assert_int_equal(ta_test_count_rule(d, "diff-allow-expired", &g), 1);
    assert_int_equal(g->line, 3);
    assert_int_equal(ta_test_count_rule(d, "diff-allow-syntax", NULL), 3); /* no date, bad regex, Feb 30 */
    pair p = diff_lists("aten::g(int x) -> ()\naten::h(int x) -> ()\n", "aten::g(int y) -> ()\n", al);
    const ta_diff_record *r = ta_diff_get(p.d, 0);
    assert_string_equal(r->op, "aten::g");
    assert_true(r->allowed);
    assert_false(r->breaks);
    assert_true(ta_diff_get(p.d, 1)->breaks); /* h: its entry expired */
    const ta_diag *e = NULL;
    ta_test_count_rule(p.diags, "diff-not-backward-compatible", &e);
    assert_int_equal(e->severity, TA_SEV_NOTE);
    assert_true(strstr(e->message, "allowed by allow.txt:2, until 2026-12-31") != NULL);
    pair_free(&p);
    ta_allow_list_destroy(al);
    /* through its last day */
    al = allow("g 2026-11-28\n", 20261128, d, TA_OK);
    assert_int_equal(ta_allow_list_count(al), 1);
    ta_allow_list_destroy(al);
    ta_diags_destroy(d);
}

static const char *const old_yaml =
    "- func: foo_(Tensor(a!) self, int k) -> Tensor(a!)\n"
    "  dispatch: {CPU: foo_}\n"
    "  autogen: foo, foo.out\n"
    "- func: bar.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
    "  dispatch: {CPU: bar_out}\n";
static const char *const new_yaml =
    "- func: foo_(Tensor(a!) self, int k, int j=0) -> Tensor(a!)\n"
    "  dispatch: {CPU: foo_}\n"
    "  autogen: foo, foo.out\n"
    "- func: bar(Tensor self) -> Tensor\n"
    "  dispatch: {CPU: bar}\n"
    "  autogen: bar.out\n";

static void test_yaml_sides(void **state)
{
    (void)state;
    ta_diags *d = NULL;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_native_file *o = NULL, *n = NULL;
    assert_int_equal(ta_native_load_buffer(old_yaml, strlen(old_yaml), "old.yaml", NULL, 0, NULL, &o, d), TA_OK);
    assert_int_equal(ta_native_load_buffer(new_yaml, strlen(new_yaml), "new.yaml", NULL, 0, NULL, &n, d), TA_OK);
    ta_diff_input oi = {o, NULL, NULL}, ni = {n, NULL, NULL};
    ta_diff *df = NULL;
    assert_int_equal(ta_diff_create(&oi, &ni, NULL, &df, d), TA_OK);
    ta_diff_summary s;
    ta_diff_summarize(df, &s);
    /* foo_, foo and foo.out gained j (with a default: compatible); bar.out moved
     * to autogen: (the same schema, no removal); bar was added */
    assert_int_equal(s.changed, 3);
    assert_int_equal(s.not_bc, 0);
    assert_int_equal(s.added, 1);
    assert_int_equal(s.removed, 0);
    assert_int_equal(s.unchanged, 1);
    const ta_diff_record *out = NULL;
    for (size_t i = 0; i < ta_diff_count(df); i++)
        if (!strcmp(ta_diff_get(df, i)->op, "aten::foo.out")) out = ta_diff_get(df, i);
    assert_non_null(out);
    assert_int_equal(out->new_line, 3); /* a derived function: its base's autogen: line */
    assert_string_equal(out->new_file, "new.yaml");
    char text[256]; /* the derived schema lives as long as the diff */
    ta_schema_print(out->new_schema, text, sizeof text);
    assert_string_equal(text, "foo.out(Tensor self, int k, int j=0, *, Tensor(a!) out) -> Tensor(a!)");
    ta_diff_destroy(df);
    ta_diff_input bad = {o, NULL, NULL};
    bad.list = (const ta_schema_list *)1; /* two inputs on one side */
    assert_int_equal(ta_diff_create(&bad, &ni, NULL, &df, d), TA_ERR_INVALID);
    assert_null(df);
    ta_native_destroy(o);
    ta_native_destroy(n);
    ta_diags_destroy(d);
}

static void test_rules_catalogue(void **state)
{
    (void)state;
    size_t n;
    const ta_rule_info *r = ta_diff_rules(&n);
    assert_true(n > 10);
    for (int w = 0; w < TA_DW_COUNT; w++) {
        if (!ta_diff_what_is_alias((ta_diff_what)w)) continue;
        char id[64];
        snprintf(id, sizeof id, "diff-%s", ta_diff_what_str((ta_diff_what)w));
        bool found = false;
        for (size_t i = 0; i < n; i++) found |= !strcmp(r[i].id, id);
        assert_true(found);
    }
    assert_string_equal(ta_diff_what_str(TA_DW_COUNT), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema_list),        cmocka_unit_test(test_default_values),
        cmocka_unit_test(test_write_added),        cmocka_unit_test(test_view_became_copy),
        cmocka_unit_test(test_sets_renamed_or_changed), cmocka_unit_test(test_signature_items),
        cmocka_unit_test(test_added_removed),      cmocka_unit_test(test_torch_oddities),
        cmocka_unit_test(test_allow_list),         cmocka_unit_test(test_yaml_sides),
        cmocka_unit_test(test_rules_catalogue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
