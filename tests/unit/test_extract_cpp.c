/* test_extract_cpp.c - schemas read from C++ sources: every form a schema
 * literal takes (adjacent literals, raw strings, escapes, line splices,
 * wrappers), every block and call shape, namespaces from blocks, -D and
 * #define, what is skipped (comments, pybind11, templates), what is a note,
 * kernels matched to operators, and positions mapped back into the file.
 * The snippets are this project's own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "support/diags.h"
#include "support/extract_scan.h"

static scanned scan_with(const char *src, const char *const *defines)
{
    ta_extract_opts o = {.defines = defines, .no_git = true};
    return ta_test_scan_text(&o, "t.cpp", TA_LANG_CPP, src);
}

static scanned scan(const char *src) { return scan_with(src, NULL); }

static void done(scanned *s) { ta_test_scan_done(s); }

static const ta_extract_op *op(const scanned *s, size_t i) { return ta_test_scan_op(s, i); }

static void literal_forms(void **state)
{
    (void)state;
    scanned s = scan("TORCH_LIBRARY(mylib, m) {\n"
                     "  m.def(\"a(Tensor x, \" \"Tensor y) -> Tensor\");\n"         /* adjacent */
                     "  m.def(R\"doc(b(Tensor x,\n      Tensor y) -> Tensor)doc\");\n" /* raw */
                     "  m.def(\"c(str s=\\\"mean\\\") -> Tensor\");\n"              /* escapes */
                     "  m.def(\"d(Tensor x) \\\n-> Tensor\");\n"                   /* splice */
                     "  m.def(u8\"e(Tensor x) -> Tensor\");\n"                      /* prefix */
                     "  m.def(\"f(Tensor \\x78) -> Tensor\"_s);\n"                  /* hex, suffix */
                     "}\n");
    assert_int_equal(ta_extract_count(s.x), 6);
    assert_string_equal(op(&s, 0)->schema, "mylib::a(Tensor x, Tensor y) -> Tensor");
    assert_string_equal(op(&s, 1)->schema, "mylib::b(Tensor x,\n      Tensor y) -> Tensor");
    assert_string_equal(op(&s, 2)->schema, "mylib::c(str s=\"mean\") -> Tensor");
    assert_string_equal(op(&s, 3)->schema, "mylib::d(Tensor x) -> Tensor");
    assert_string_equal(op(&s, 4)->schema, "mylib::e(Tensor x) -> Tensor");
    assert_string_equal(op(&s, 5)->schema, "mylib::f(Tensor x) -> Tensor");
    for (size_t i = 0; i < 6; i++) {
        assert_non_null(op(&s, i)->parsed);
        assert_string_equal(op(&s, i)->ns, "mylib");
        assert_int_equal(op(&s, i)->how, TA_HOW_DEF);
    }
    assert_int_equal(op(&s, 0)->line, 2);
    assert_int_equal(op(&s, 0)->col, 10);
    assert_int_equal(op(&s, 1)->line, 3);
    assert_int_equal(op(&s, 1)->col, 15);
    assert_int_equal(ta_diags_count(s.d), 0);
    done(&s);
}

static void skipped_text(void **state)
{
    (void)state;
    scanned s = scan("// m.def(\"c1(Tensor x) -> Tensor\");\n"
                     "/* TORCH_LIBRARY(no, m) { m.def(\"c2(Tensor x) -> Tensor\"); } */\n"
                     "const char *t = \"TORCH_LIBRARY(no, m) { m.def(\\\"c3() -> ()\\\"); }\";\n"
                     "PYBIND11_MODULE(ext, m) { m.def(\"forward\", &forward, \"doc\"); }\n"
                     "TORCH_LIBRARY(ns, m) { m.def(\"real(Tensor x) -> Tensor\"); }\n");
    assert_int_equal(ta_extract_count(s.x), 1);
    assert_string_equal(op(&s, 0)->schema, "ns::real(Tensor x) -> Tensor");
    done(&s);
}

static void blocks_and_shapes(void **state)
{
    (void)state;
    scanned s = scan(
        "TORCH_LIBRARY_FRAGMENT(frag, m) {\n"
        "  m.def(TORCH_SELECTIVE_SCHEMA(\"sel(Tensor x) -> Tensor\"));\n"
        "  m.def(torch::schema(\"sch(Tensor x) -> Tensor\", c10::AliasAnalysisKind::FROM_SCHEMA));\n"
        "  m.def(\"tagged(Tensor x) -> Tensor\", {at::Tag::pt2_compliant_tag});\n"
        "  m.def(\"with_fn(Tensor x) -> Tensor\", &with_fn);\n"
        "  m.impl(\"sel\", &sel_kernel);\n"
        "}\n"
        "STABLE_TORCH_LIBRARY(stab, lib) { lib.def(\"st(Tensor x) -> Tensor\"); }\n"
        "TORCH_LIBRARY_IMPL(frag, CUDA, m) { m.impl(\"sch\", TORCH_FN(k)); }\n"
        "static auto r = torch::RegisterOperators()\n"
        "    .op(\"reg::a(Tensor a) -> Tensor\", torch::RegisterOperators::options().kernel<K>(CPU()))\n"
        "    .op(torch::RegisterOperators::options().schema(\"reg::b(Tensor a) -> Tensor\").catchAllKernel<K>());\n"
        "OperatorGenerator(TORCH_SELECTIVE_SCHEMA(\"prim::c(Tensor a) -> Tensor\"), fn);\n"
        "void helper(torch::Library& m) { m.def(\"outside(Tensor x) -> Tensor\"); }\n");
    const char *want[] = {"frag::sel(Tensor x) -> Tensor", "frag::sch(Tensor x) -> Tensor",
                          "frag::tagged(Tensor x) -> Tensor", "frag::with_fn(Tensor x) -> Tensor",
                          "stab::st(Tensor x) -> Tensor", "reg::a(Tensor a) -> Tensor",
                          "reg::b(Tensor a) -> Tensor", "prim::c(Tensor a) -> Tensor",
                          "outside(Tensor x) -> Tensor"};
    ta_extract_how how[] = {TA_HOW_FRAGMENT, TA_HOW_FRAGMENT, TA_HOW_FRAGMENT, TA_HOW_FRAGMENT,
                            TA_HOW_DEF, TA_HOW_REGISTER, TA_HOW_REGISTER, TA_HOW_SELECTIVE,
                            TA_HOW_DEF_FUNCTION};
    bool kernel[] = {true, true, false, true, false, true, true, false, false};
    assert_int_equal(ta_extract_count(s.x), 9);
    for (size_t i = 0; i < 9; i++) {
        assert_string_equal(op(&s, i)->schema, want[i]);
        assert_int_equal(op(&s, i)->how, how[i]);
        assert_int_equal(op(&s, i)->has_kernel, kernel[i]);
    }
    assert_null(op(&s, 8)->ns); /* from the caller: a note */
    const ta_diag *g = NULL;
    assert_int_equal(ta_test_count_rule(s.d, "extract-unresolved", &g), 1);
    assert_int_equal(g->line, 14);
    assert_string_equal(ta_extract_how_name(TA_HOW_DEF_FUNCTION), "def-function");
    done(&s);
}

static void namespaces(void **state)
{
    (void)state;
    static const char src[] =
        "#define LIBNS fromdefine\n"
        "#define SCHEMA_B \"b(Tensor x) -> Tensor\"\n"
        "#define MY_LIB(NAME, MOD) TORCH_LIBRARY(NAME, MOD)\n"
        "TORCH_LIBRARY(LIBNS, m) { m.def(\"a(Tensor x) -> Tensor\"); m.def(SCHEMA_B); }\n"
        "MY_LIB(wrapped, w) { w.def(\"c(Tensor x) -> Tensor\"); }\n"
        "TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) { ops.def(\"d(Tensor! out) -> ()\"); }\n"
        "TORCH_LIBRARY(mine, m) { m.def(\"other::e(Tensor x) -> Tensor\"); m.def(UNKNOWN); }\n";
    scanned s = scan(src);
    assert_int_equal(ta_extract_count(s.x), 5);
    assert_string_equal(op(&s, 0)->schema, "fromdefine::a(Tensor x) -> Tensor");
    assert_string_equal(op(&s, 1)->schema, "fromdefine::b(Tensor x) -> Tensor");
    assert_string_equal(op(&s, 2)->schema, "wrapped::c(Tensor x) -> Tensor");
    assert_string_equal(op(&s, 3)->schema, "d(Tensor! out) -> ()");
    assert_null(op(&s, 3)->ns);
    assert_string_equal(op(&s, 3)->name, "d");
    assert_string_equal(op(&s, 4)->ns, "other");
    const ta_diag *g = NULL;
    assert_int_equal(ta_test_count_rule(s.d, "extract-namespace-mismatch", &g), 1);
    assert_int_equal(g->severity, TA_SEV_ERROR);
    assert_int_equal(g->line, 7);
    assert_int_equal(g->col, 33); /* "other", inside the literal */
    assert_int_equal(g->length, 5);
    assert_int_equal(ta_test_count_rule(s.d, "extract-unresolved", NULL), 2); /* the macro ns, UNKNOWN */
    done(&s);

    const char *defs[] = {"TORCH_EXTENSION_NAME=_C", NULL};
    s = scan_with(src, defs);
    assert_string_equal(op(&s, 3)->schema, "_C::d(Tensor! out) -> ()");
    assert_int_equal(ta_test_count_rule(s.d, "extract-unresolved", NULL), 1);
    done(&s);
}

static void notes(void **state)
{
    (void)state;
    scanned s = scan("TORCH_LIBRARY(ns, m) {\n"
                     "  m.def(\"by_kernel\", &k);\n"
                     "  m.def(\"p\" STR(N) \"(Tensor x) -> Tensor\");\n"
                     "  m.def(\"t_{{ name }}(Tensor x) -> Tensor\");\n"
                     "}\n"
                     "#define REG(D) m.def(\"op\" #D \"(Tensor x) -> Tensor\")\n");
    assert_int_equal(ta_extract_count(s.x), 1);
    const ta_extract_op *p = op(&s, 0);
    assert_null(p->schema);
    assert_string_equal(p->name, "ns::by_kernel");
    assert_true(p->has_kernel);
    assert_int_equal(ta_test_count_rule(s.d, "extract-inferred", NULL), 1);
    /* STR (not defined here) and the template; REG's body is no declaration
     * until something invokes it */
    assert_int_equal(ta_test_count_rule(s.d, "extract-unresolved", NULL), 2);
    for (size_t i = 0; i < ta_diags_count(s.d); i++) {
        assert_int_equal(ta_diags_get(s.d, i)->severity, TA_SEV_NOTE);
        assert_true(ta_diags_get(s.d, i)->line >= 2);
    }
    done(&s);
}

static void duplicates(void **state)
{
    (void)state;
    scanned s = scan("TORCH_LIBRARY(ns, m) {\n"
                     "  m.def(\"a(Tensor x) -> Tensor\");\n"
                     "  m.def(\"a.two(Tensor x) -> Tensor\");\n"
                     "  m.def(\"a(Tensor y) -> Tensor\");\n"
                     "}\n");
    const ta_diag *g = NULL;
    assert_int_equal(ta_test_count_rule(s.d, "extract-duplicate-def", &g), 1);
    assert_int_equal(g->line, 4);
    assert_int_equal(ta_extract_finish(s.x, s.d), TA_OK); /* again: nothing new */
    assert_int_equal(ta_test_count_rule(s.d, "extract-duplicate-def", NULL), 1);
    done(&s);
    /* two branches of one #if never both exist; a definition after the
     * #endif collides with them */
    s = scan("#if defined(CUDA)\n"
             "TORCH_LIBRARY(ns, m) { m.def(\"b(Tensor x) -> Tensor\");\n"
             "#ifdef FAST\n m.def(\"c(Tensor x) -> Tensor\");\n#endif\n}\n"
             "#elif defined(METAL)\n"
             "TORCH_LIBRARY(ns, m) { m.def(\"b(Tensor x) -> Tensor\"); m.def(\"c(Tensor x) -> Tensor\"); }\n"
             "#else\n"
             "TORCH_LIBRARY(ns, m) { m.def(\"b(Tensor x) -> Tensor\"); }\n"
             "#endif\n"
             "TORCH_LIBRARY_FRAGMENT(ns, m) { m.def(\"b(Tensor x) -> Tensor\"); }\n");
    assert_int_equal(ta_extract_count(s.x), 6);
    assert_int_equal(ta_test_count_rule(s.d, "extract-duplicate-def", &g), 1);
    assert_int_equal(g->line, 12);
    done(&s);
}

/* Syntax errors point into the literal, through escapes and splices. */
static void positions(void **state)
{
    (void)state;
    scanned s = scan("TORCH_LIBRARY(ns, m) {\n"
                     "  m.def(\"bad(str s=\\\"x\\\", \"\n"
                     "        \"Tensor y -> Tensor\");\n"
                     "}\n");
    const ta_diag *g = NULL;
    assert_int_equal(ta_test_count_rule(s.d, "schema-syntax", &g), 1);
    assert_string_equal(g->source, "t.cpp");
    assert_int_equal(g->line, 3);
    assert_int_equal(g->col, 10); /* "Tensor y": no default after one with a default */
    assert_int_equal(g->length, 8);
    assert_non_null(strstr(g->source_line, "Tensor y -> Tensor"));
    assert_null(op(&s, 0)->parsed);

    /* every byte of the schema maps inside its literal */
    scanned t = scan("TORCH_LIBRARY(ns, m) { m.def(\"f(str s=\\\"q\\\") -> Tensor\"); }\n");
    const ta_extract_op *p = op(&t, 0);
    ta_loc loc;
    assert_true(ta_extract_locate(t.x, 0, 0, 4, &loc));
    assert_int_equal(loc.col, 31); /* the namespace: where the name is written */
    uint32_t q = (uint32_t)(strchr(p->schema, '"') - p->schema);
    assert_true(ta_extract_locate(t.x, 0, q, 1, &loc));
    assert_int_equal(loc.col, 39); /* the escape \" */
    assert_int_equal(loc.length, 2);
    assert_true(ta_extract_locate(t.x, 0, q + 1, 1, &loc));
    assert_int_equal(loc.col, 41); /* q */
    assert_false(ta_extract_locate(t.x, 1, 0, 1, &loc));
    done(&s);
    done(&t);
}

static void languages(void **state)
{
    (void)state;
    assert_int_equal(ta_extract_lang_of("a/b.cu"), TA_LANG_CPP);
    assert_int_equal(ta_extract_lang_of("x.hpp"), TA_LANG_CPP);
    assert_int_equal(ta_extract_lang_of("x.py"), TA_LANG_PYTHON);
    assert_int_equal(ta_extract_lang_of("x.pyi"), TA_LANG_PYTHON);
    assert_int_equal(ta_extract_lang_of("x.yaml"), TA_LANG_NONE);
    assert_int_equal(ta_extract_lang_of("dir.cpp/file"), TA_LANG_NONE);
    ta_extract *x;
    assert_int_equal(ta_extract_create(NULL, &x), TA_OK);
    assert_int_equal(ta_extract_scan(x, "a", TA_LANG_NONE, "", 0, NULL), TA_ERR_INVALID);
    assert_int_equal(ta_extract_scan(x, "a", TA_LANG_CPP, "int x;", 6, NULL), TA_OK);
    assert_int_equal(ta_extract_nfiles(x), 1);
    assert_int_equal(ta_extract_nbytes(x), 6);
    ta_extract_destroy(x);
    ta_extract_destroy(NULL);
    size_t n;
    const ta_extract_rule *r = ta_extract_rules(&n);
    assert_true(n >= 6);
    for (size_t i = 0; i < n; i++) assert_true(strlen(r[i].summary) > 10);
}

/* Unterminated literals and comments, stray quotes: no crash, a warning
 * where a schema literal is cut. */
static void broken_sources(void **state)
{
    (void)state;
    static const char *const srcs[] = {
        "TORCH_LIBRARY(ns, m) { m.def(\"open(Tensor x) -> Tensor);\n}\n",
        "TORCH_LIBRARY(ns, m) { m.def(R\"x(never closed",
        "/* never closed TORCH_LIBRARY(ns, m) {",
        "TORCH_LIBRARY(ns, m) { m.def(",
        "TORCH_LIBRARY(ns, m",
        "#define X(a, b) TORCH_LIBRARY(\n",
        "\"\\",
        "'",
    };
    for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
        scanned s = scan(srcs[i]);
        assert_int_equal(ta_extract_count(s.x), 0);
        done(&s);
    }
    scanned s = scan(srcs[0]);
    assert_int_equal(ta_test_count_rule(s.d, "extract-literal", NULL), 1);
    done(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(literal_forms), cmocka_unit_test(skipped_text),
        cmocka_unit_test(blocks_and_shapes), cmocka_unit_test(namespaces),
        cmocka_unit_test(notes), cmocka_unit_test(duplicates),
        cmocka_unit_test(positions), cmocka_unit_test(languages),
        cmocka_unit_test(broken_sources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
