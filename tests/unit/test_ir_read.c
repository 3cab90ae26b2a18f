/* test_ir_read.c - the TorchScript IR reader and printer.
 *
 * Reading then printing every graph torch printed (tests/data/golden/
 * aliasdb-1.13.1, all of it) must give the same bytes back; the speed
 * graphs (written by hand, not by torch) must reach a fixpoint after one
 * print; a graph made large by copies of one, read with names hashed a
 * line ahead, prints back too. Malformed graphs get one diagnostic at the right line and column,
 * with the right rule. Types parse and print back in both spellings torch
 * uses. Class declarations are read and checked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/ir_golden.h"
#include "support/testdata.h"
#include "tensoralias/ir.h"

static char *print_graph(const ta_ir_graph *g, size_t *len)
{
    char *out = NULL;
    assert_int_equal(ta_ir_print(g, &out, len), TA_OK);
    return out;
}

/* Reads rel (under $BUILD/data); returns 1 when printing gives the same text. */
static int round_trip(const char *rel)
{
    size_t len, plen;
    char *text = ta_test_read_data(rel, &len);
    assert_non_null(text);
    ta_ir_graph *g = NULL;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_ir_read(text, len, rel, &g, d), TA_OK);
    char *printed = print_graph(g, &plen);
    int same = plen == len && !memcmp(printed, text, len);
    if (!same) printf("%s: printed differently\n", rel);
    free(printed);
    ta_ir_graph_destroy(g);
    ta_diags_destroy(d);
    free(text);
    return same;
}

static void test_round_trip_torch_graphs(void **state)
{
    (void)state;
    static const char *const dirs[] = {"golden/aliasdb-1.13.1", "golden/aliasdb-1.13.1/tensoralias"};
    int files = 0, same = 0;
    for (size_t k = 0; k < 2; k++) {
        size_t n;
        char **names = ta_test_truth_files(dirs[k], &n);
        assert_non_null(names);
        for (size_t i = 0; i < n; i++) {
            char rel[512];
            snprintf(rel, sizeof rel, "%s.ir", names[i]);
            files++;
            same += round_trip(rel);
            free(names[i]);
        }
        free(names);
    }
    static const char *const exec[] = {"exec_1_30", "exec_2_100", "exec_3_300", "exec_4_60"};
    for (size_t i = 0; i < 4; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "golden/aliasdb-1.13.1/exec/%s.ir", exec[i]);
        files++;
        same += round_trip(rel);
    }
    printf("%d of %d torch-printed graphs print back byte for byte\n", same, files);
    assert_true(files >= 30);
    assert_int_equal(same, files);
}

static void test_speed_graphs_fixpoint(void **state)
{
    (void)state;
    static const char *const rels[] = {"golden/aliasdb-1.13.1/speed/aliasdb_1000.ir",
                                       "golden/aliasdb-1.13.1/speed/aliasdb_10000.ir"};
    for (size_t i = 0; i < 2; i++) {
        size_t len, l1, l2;
        char *text = ta_test_read_data(rels[i], &len);
        assert_non_null(text);
        ta_ir_graph *g1 = NULL, *g2 = NULL;
        assert_int_equal(ta_ir_read(text, len, rels[i], &g1, NULL), TA_OK);
        char *p1 = print_graph(g1, &l1);
        assert_int_equal(ta_ir_read(p1, l1, "printed", &g2, NULL), TA_OK);
        char *p2 = print_graph(g2, &l2);
        assert_int_equal(l1, l2);
        assert_memory_equal(p1, p2, l1);
        free(p1);
        free(p2);
        free(text);
        ta_ir_graph_destroy(g1);
        ta_ir_graph_destroy(g2);
    }
}

/* Appends text[from, to) to buf, every "%name" but the graph's inputs (the
 * names in text[0, head)) suffixed with "_cK". */
static void renamed(char **buf, size_t *n, const char *text, size_t head, size_t from, size_t to, int k)
{
    for (size_t i = from; i < to;) {
        (*buf)[(*n)++] = text[i];
        if (text[i++] != '%') continue;
        size_t start = i;
        while (i < to && !strchr(",()[]:=#%\"' \n", text[i])) (*buf)[(*n)++] = text[i++];
        char name[256];
        snprintf(name, sizeof name, "%%%.*s", (int)(i - start), text + start);
        bool input = false;
        for (const char *p = text; !input && (p = strstr(p, name)) && p < text + head; p += strlen(name))
            input = strchr(",()[]:=#%\"' \n", p[strlen(name)]) != NULL;
        if (!input) *n += (size_t)sprintf(*buf + *n, "_c%d", k);
    }
}

/* A torch-printed graph with its body repeated until the text is over 1.5 MB
 * (the size where the reader starts hashing names a line ahead): it must
 * read, and print back byte for byte. */
static void test_large_copies(void **state)
{
    (void)state;
    static const char *const rels[] = {"golden/aliasdb-1.13.1/tensoralias/rand_12_250.ir",
                                       "golden/aliasdb-1.13.1/tensoralias/ir_special_kinds.ir",
                                       "golden/aliasdb-1.13.1/tensoralias/func_dict.ir"};
    for (size_t i = 0; i < sizeof rels / sizeof rels[0]; i++) {
        size_t len, plen, n = 0;
        char *text = ta_test_read_data(rels[i], &len);
        assert_non_null(text);
        const char *body = strstr(text, "):\n"), *ret = strstr(text, "\n  return (");
        assert_true(body && ret && body < ret);
        size_t head = (size_t)(body - text) + 3, tail = (size_t)(ret - text) + 1;
        int copies = (int)(1600000 / (tail - head)) + 1;
        char *big = malloc(head + (size_t)copies * 2 * (tail - head) + 2 * len);
        assert_non_null(big);
        memcpy(big, text, head);
        n = head;
        for (int k = 0; k < copies; k++) renamed(&big, &n, text, head, head, tail, k);
        renamed(&big, &n, text, head, tail, len, copies - 1);
        ta_ir_graph *g = NULL;
        ta_diags *d;
        assert_int_equal(ta_diags_create(&d), TA_OK);
        if (ta_ir_read(big, n, rels[i], &g, d) != TA_OK) ta_diag_render(ta_diags_get(d, 0), stdout);
        assert_non_null(g);
        char *printed = print_graph(g, &plen);
        printf("%s: %d copies, %zu bytes, %s\n", rels[i], copies, n,
               plen == n && !memcmp(printed, big, n) ? "printed back byte for byte" : "printed differently");
        assert_int_equal(plen, n);
        assert_memory_equal(printed, big, n);
        free(printed);
        ta_ir_graph_destroy(g);
        ta_diags_destroy(d);
        free(big);
        free(text);
    }
}

typedef struct bad_case {
    const char *text;
    const char *rule;
    uint32_t line, col;
} bad_case;

static const bad_case bad[] = {
    {"", "ir-syntax", 1, 1},
    {"grph(%a : Tensor):\n  return (%a)\n", "ir-syntax", 1, 1},
    {"graph(%a : Tensor:\n  return (%a)\n", "ir-syntax", 1, 18},
    {"graph(%a : Tensor):\n  %b : Tensor = aten::relu(%c)\n  return (%b)\n", "ir-undefined", 2, 28},
    {"graph(%a : Tensor):\n  %a : Tensor = aten::relu(%a)\n  return (%a)\n", "ir-redefined", 2, 3},
    {"graph(%a : Tensor):\n  %b : Tensor = aten::relu.default(%a)\n  return (%b)\n", "ir-syntax", 2, 27},
    {"graph(%a : Tensor):\n  %b : Tensr[ = aten::relu(%a)\n  return (%b)\n", "ir-syntax", 2, 13},
    {"graph(%a : Dict(str)):\n  return (%a)\n", "ir-syntax", 1, 21},
    {"graph(%a : Tensor):\n  %b : Tensor = aten::relu(%a\n  return (%b)\n", "ir-syntax", 3, 3},
    {"graph(%a : Tensor):\n  %b : Tensor = prim::Constant[value=\"x]()\n  return (%b)\n", "ir-syntax", 2, 38},
    {"graph(%a : Tensor):\n  %b : Tensor = prim::If(%a)\n    block0():\n      -> (%a)\n", "ir-syntax", 5, 1},
    {"graph(%a : Tensor):\n  return (%a)\nextra\n", "ir-syntax", 3, 1},
    {"graph(%a : Tensor):\n  %b : Tensor = aten::relu(%a) trailing\n  return (%b)\n", "ir-syntax", 2, 32},
    {"graph(% : Tensor):\n  return ()\n", "ir-syntax", 1, 8},
    /* a value of the other branch (fuzz_func: the rewrite of such a graph did not read back) */
    {"graph(%a : Tensor, %c : bool):\n  %b : Tensor = prim::If(%c)\n    block0():\n      %d : Tensor = aten::relu(%a)\n"
     "      -> (%d)\n    block1():\n      -> (%d)\n  return (%b)\n", "ir-undefined", 7, 11},
    /* a value of a block that has ended */
    {"graph(%a : Tensor, %c : bool):\n  %b : Tensor = prim::If(%c)\n    block0():\n      %d : Tensor = aten::relu(%a)\n"
     "      -> (%d)\n    block1():\n      -> (%a)\n  %e : Tensor = aten::relu(%d)\n  return (%e)\n", "ir-undefined", 8, 28},
};

static void test_malformed(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ta_diags *d;
        assert_int_equal(ta_diags_create(&d), TA_OK);
        ta_ir_graph *g = (ta_ir_graph *)1;
        ta_status st = ta_ir_read(bad[i].text, strlen(bad[i].text), "bad.ir", &g, d);
        if (st != TA_ERR_PARSE || ta_diags_count(d) != 1) printf("case %zu: status %d, %zu diags\n", i, st, ta_diags_count(d));
        assert_int_equal(st, TA_ERR_PARSE);
        assert_null(g);
        assert_int_equal(ta_diags_count(d), 1);
        const ta_diag *e = ta_diags_get(d, 0);
        if (strcmp(e->rule, bad[i].rule) || e->line != bad[i].line || e->col != bad[i].col)
            printf("case %zu: %s at %u:%u (%s), expected %s at %u:%u\n", i, e->rule, e->line, e->col, e->message,
                   bad[i].rule, bad[i].line, bad[i].col);
        assert_string_equal(e->rule, bad[i].rule);
        assert_int_equal(e->line, bad[i].line);
        assert_int_equal(e->col, bad[i].col);
        assert_string_equal(e->source, "bad.ir");
        assert_non_null(e->source_line);
        ta_diags_destroy(d);
    }
}

static void test_types(void **state)
{
    (void)state;
    static const char *const same[] = {
        "Tensor", "int[]", "Tensor?[]", "int[]?", "(Tensor, int)", "()", "Dict(str, Tensor[])",
        "Future[Tensor]", "Union(Tensor, int)", "__torch__.m.M", "NoneType", "Scalar", "Device",
        "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)", "Any", "RRef[int]",
        "Union(int, NoneType, str)", "Tensor?[]",
    };
    ta_ir_graph *g;
    assert_int_equal(ta_ir_graph_create(&g), TA_OK);
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        const ta_ir_type *t = NULL;
        assert_int_equal(ta_ir_type_parse(g, same[i], strlen(same[i]), &t, NULL), TA_OK);
        char buf[128];
        ta_ir_type_print(t, buf, sizeof buf);
        assert_string_equal(buf, same[i]);
        /* interned: the same text gives the same type */
        const ta_ir_type *again = NULL;
        assert_int_equal(ta_ir_type_parse(g, same[i], strlen(same[i]), &again, NULL), TA_OK);
        assert_ptr_equal(t, again);
    }
    static const char *const python[][2] = {
        {"Optional[Tensor]", "Tensor?"}, {"List[int]", "int[]"}, {"Dict[str, Tensor]", "Dict(str, Tensor)"},
        {"Tuple[Tensor, Optional[int]]", "(Tensor, int?)"}, {"Future(Tensor)", "Future[Tensor]"},
        {"Union(Tensor, NoneType)", "Tensor?"}, {"Layout", "int"}, {"Union[NoneType, int]", "int?"},
    };
    for (size_t i = 0; i < sizeof python / sizeof python[0]; i++) {
        const ta_ir_type *t = NULL;
        assert_int_equal(ta_ir_type_parse(g, python[i][0], strlen(python[i][0]), &t, NULL), TA_OK);
        char buf[128];
        ta_ir_type_print(t, buf, sizeof buf);
        assert_string_equal(buf, python[i][1]);
    }
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    const ta_ir_type *t = NULL;
    assert_int_equal(ta_ir_type_parse(g, "Dict(str", 8, &t, d), TA_ERR_PARSE);
    assert_null(t);
    assert_int_equal(ta_diags_count(d), 1);
    ta_diags_destroy(d);
    ta_ir_graph_destroy(g);
}

static void test_classes(void **state)
{
    (void)state;
    ta_ir_graph *g;
    assert_int_equal(ta_ir_graph_create(&g), TA_OK);
    const char *decl = "# a comment\n__torch__.m.Block(conv : __torch__.m.Conv, scale : Tensor, n : int)\n"
                       "\n__torch__.m.Conv(Tensor, Optional[Tensor])\n";
    assert_int_equal(ta_ir_read_classes(g, decl, strlen(decl), "m.classes", NULL), TA_OK);
    const ta_ir_type *block = ta_ir_type_class(g, "__torch__.m.Block");
    assert_int_equal(ta_ir_class_nattrs(block), 3);
    assert_string_equal(ta_ir_class_attr_name(block, 1), "scale");
    assert_int_equal(ta_ir_type_kind_of(ta_ir_class_attr_type(block, 0)), TA_IR_CLASS);
    const ta_ir_type *conv = ta_ir_type_class(g, "__torch__.m.Conv");
    assert_int_equal(ta_ir_class_nattrs(conv), 2);
    assert_string_equal(ta_ir_class_attr_name(conv, 1), "_1");
    /* a declared class is not extended by the graph's GetAttr */
    const char *text = "graph(%self : __torch__.m.Conv):\n"
                       "  %w : int = prim::GetAttr[name=\"other\"](%self)\n  return (%w)\n";
    assert_int_equal(ta_ir_read_into(g, text, strlen(text), "m.ir", NULL), TA_OK);
    assert_int_equal(ta_ir_class_nattrs(conv), 2);
    ta_ir_graph_destroy(g);

    /* an undeclared class learns what GetAttr and SetAttr show */
    const char *text2 = "graph(%self : __torch__.m.M, %x : Tensor):\n"
                        "  %w : Tensor = prim::GetAttr[name=\"weight\"](%self)\n"
                        "   = prim::SetAttr[name=\"cache\"](%self, %x)\n  return (%w)\n";
    assert_int_equal(ta_ir_read(text2, strlen(text2), "m.ir", &g, NULL), TA_OK);
    const ta_ir_type *m = ta_ir_value_type(ta_ir_graph_input(g, 0));
    assert_int_equal(ta_ir_class_nattrs(m), 2);
    assert_string_equal(ta_ir_class_attr_name(m, 0), "weight");
    assert_string_equal(ta_ir_class_attr_name(m, 1), "cache");
    ta_ir_graph_destroy(g);

    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_ir_graph_create(&g), TA_OK);
    const char *twice = "__torch__.A(Tensor)\n__torch__.A(int)\n";
    assert_int_equal(ta_ir_read_classes(g, twice, strlen(twice), "c", d), TA_ERR_PARSE);
    assert_int_equal(ta_diags_get(d, 0)->line, 2);
    ta_diags_clear(d);
    const char *broken = "__torch__.B(Tensor, \n";
    assert_int_equal(ta_ir_read_classes(g, broken, strlen(broken), "c", d), TA_ERR_PARSE);
    assert_int_equal(ta_diags_get(d, 0)->line, 1);
    ta_diags_destroy(d);
    ta_ir_graph_destroy(g);
}

/* What torch prints for a node without outputs and what it reads. */
static void test_no_output_statements(void **state)
{
    (void)state;
    const char *read_form = "graph(%a : Tensor):\n  prim::Print(%a)\n  return (%a)\n";
    const char *print_form = "graph(%a : Tensor):\n   = prim::Print(%a)\n  return (%a)\n";
    ta_ir_graph *g;
    assert_int_equal(ta_ir_read(read_form, strlen(read_form), NULL, &g, NULL), TA_OK);
    size_t len;
    char *out = print_graph(g, &len);
    assert_string_equal(out, print_form);
    free(out);
    ta_ir_graph_destroy(g);
    assert_int_equal(ta_ir_read(print_form, strlen(print_form), NULL, &g, NULL), TA_OK);
    /* the spelling torch._C.parse_ir reads (checked with torch on the random graphs) */
    char *buf = NULL;
    size_t blen = 0;
    FILE *f = open_memstream(&buf, &blen);
    assert_int_equal(ta_ir_write_as(g, f, TA_IR_AS_PARSE_IR_READS), TA_OK);
    fclose(f);
    assert_string_equal(buf, read_form);
    free(buf);
    ta_ir_graph_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_torch_graphs), cmocka_unit_test(test_speed_graphs_fixpoint),
        cmocka_unit_test(test_malformed), cmocka_unit_test(test_types), cmocka_unit_test(test_classes),
        cmocka_unit_test(test_no_output_statements), cmocka_unit_test(test_large_copies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
