/* test_schema_list.c - the one reader of --schemas (tensoralias/schema_list.h):
 * comments, blank lines and blanks around a schema; an alias analysis kind
 * before a schema (a tab or spaces after it; a word that is no kind is part
 * of the schema, which then does not parse); CRLF lines; a line that does
 * not parse reported under the whole line as written, with the parser's
 * hint, counted as rejected and left out; and the same list through every
 * command's loader: a registry (verify --schemas) and an operator set
 * (graph-alias --schemas) take the schemas and kinds it read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/testdata.h"
#include "tensoralias/exec.h"
#include "tensoralias/ir.h"
#include "tensoralias/schema_list.h"

static const char text[] = "# a comment\n"
                           "\n"
                           "  mylib::a(Tensor x) -> Tensor  \r\n"
                           "CONSERVATIVE\tmylib::b(Tensor(a!) x) -> ()\n"
                           "PURE_FUNCTION   mylib::c(int x) -> int\n"
                           "\tmylib::d(Tensor x,) -> Tensor\n"
                           "FOO\tmylib::e(Tensor x) -> Tensor\n"
                           "  # an indented comment\n"
                           "INTERNAL_SPECIAL_CASE\tmylib::f(Tensor x) -> Tensor";

static ta_schema_list *load(ta_diags *d)
{
    ta_schema_list *l = NULL;
    assert_int_equal(ta_schema_list_load_buffer(text, sizeof text - 1, "ops.txt", &l, d), TA_ERR_PARSE);
    assert_non_null(l);
    return l;
}

static void lines_and_kinds(void **state)
{
    (void)state;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_schema_list *l = load(d);
    assert_int_equal(ta_schema_list_count(l), 4);
    assert_int_equal(ta_schema_list_rejected(l), 2);
    static const char *const names[] = {"mylib::a", "mylib::b", "mylib::c", "mylib::f"};
    static const char *const kinds[] = {NULL, "CONSERVATIVE", "PURE_FUNCTION", "INTERNAL_SPECIAL_CASE"};
    static const uint32_t lines[] = {3, 4, 5, 9}, cols[] = {3, 14, 17, 23};
    for (size_t i = 0; i < 4; i++) {
        const ta_schema *s = ta_schema_list_get(l, i);
        assert_int_equal(s->full_name.len, strlen(names[i]));
        assert_memory_equal(s->full_name.ptr, names[i], strlen(names[i]));
        if (kinds[i]) assert_string_equal(ta_schema_list_kind(l, i), kinds[i]);
        else assert_null(ta_schema_list_kind(l, i));
        assert_int_equal(s->base_line, lines[i]);
        assert_int_equal(s->base_col, cols[i]);
    }
    assert_string_equal(ta_schema_list_get(l, 0)->text, "mylib::a(Tensor x) -> Tensor");
    assert_null(ta_schema_list_kind(l, 4));
    /* A schema's place, under its whole line (without the \r). */
    ta_loc at;
    assert_true(ta_schema_list_locate(l, 0, 0, 8, &at));
    assert_int_equal(at.line, 3);
    assert_int_equal(at.col, 3);
    assert_int_equal(at.line_len, strlen("  mylib::a(Tensor x) -> Tensor  "));
    ta_schema_list_destroy(l);
    ta_diags_destroy(d);
}

/* The lines that do not parse: positioned in the line as written (the tab
 * kept), with the whole line to draw the caret under. */
static void rejected_lines(void **state)
{
    (void)state;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_schema_list *l = load(d);
    assert_int_equal(ta_diags_count(d), 2);
    const ta_diag *g = ta_diags_get(d, 0);
    assert_string_equal(g->rule, "schema-syntax");
    assert_string_equal(g->source, "ops.txt");
    assert_int_equal(g->line, 6);
    assert_int_equal(g->col, 20); /* the ')' after "x," */
    assert_string_equal(g->source_line, "\tmylib::d(Tensor x,) -> Tensor");
    assert_int_equal(g->source_line[g->col - 1], ')');
    g = ta_diags_get(d, 1);
    assert_int_equal(g->line, 7); /* FOO is no kind: the schema "FOO\tmylib::e(...)" */
    assert_string_equal(g->source_line, "FOO\tmylib::e(Tensor x) -> Tensor");
    ta_schema_list_destroy(l);
    ta_diags_destroy(d);
}

/* The parser's hint comes with its diagnostic. */
static void hint_kept(void **state)
{
    (void)state;
    ta_diags *d, *direct;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_diags_create(&direct), TA_OK);
    static const char bad[] = "mylib::g(Tensr x) -> Tensor"; /* an unknown type: a hint */
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_schema *s;
    assert_int_equal(ta_schema_parse(a, bad, sizeof bad - 1, NULL, &s, direct), TA_ERR_PARSE);
    ta_schema_list *l = NULL;
    assert_int_equal(ta_schema_list_load_buffer(bad, sizeof bad - 1, "g.txt", &l, d), TA_ERR_PARSE);
    assert_int_equal(ta_diags_count(d), 1);
    assert_int_equal(ta_diags_count(direct), 1);
    const ta_diag *x = ta_diags_get(direct, 0), *y = ta_diags_get(d, 0);
    assert_string_equal(x->message, y->message);
    assert_int_equal(x->col, y->col);
    assert_non_null(x->hint);
    assert_string_equal(x->hint, y->hint);
    ta_schema_list_destroy(l);
    ta_arena_destroy(a);
    ta_diags_destroy(d);
    ta_diags_destroy(direct);
}

/* verify --schemas and graph-alias --schemas read the list through it. */
static void commands_read_it(void **state)
{
    (void)state;
    char path[] = "/tmp/ta_schema_list_XXXXXX";
    assert_non_null(ta_test_temp_file(path, text));
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_registry *reg;
    assert_int_equal(ta_registry_create(&reg), TA_OK);
    assert_int_equal(ta_registry_load_schemas(reg, path, d), TA_ERR_PARSE);
    assert_non_null(ta_registry_find(reg, "mylib::b"));
    assert_non_null(ta_registry_find(reg, "mylib::f"));
    assert_null(ta_registry_find(reg, "mylib::d"));
    assert_int_equal(ta_diags_count_severity(d, TA_SEV_ERROR), 2);
    ta_registry_destroy(reg);
    ta_diags_clear(d);
    ta_ir_ops *ops;
    assert_int_equal(ta_ir_ops_create(&ops), TA_OK);
    assert_int_equal(ta_ir_ops_add_file(ops, path, d), TA_ERR_PARSE);
    assert_int_equal(ta_ir_ops_count(ops), 4);
    assert_int_equal(ta_diags_count_severity(d, TA_SEV_ERROR), 2);
    assert_true(ta_ir_ops_has_kind(ops, "mylib::c"));
    ta_ir_ops_destroy(ops);
    unlink(path);
    ta_diags_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lines_and_kinds),
        cmocka_unit_test(rejected_lines),
        cmocka_unit_test(hint_kept),
        cmocka_unit_test(commands_read_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
