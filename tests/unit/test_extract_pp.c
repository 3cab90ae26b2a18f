/* test_extract_pp.c - the preprocessor the C++ scanner reads through, one
 * mechanism at a time: object- and function-like macros, #x, ##, variadic
 * macros, wrapped TORCH_LIBRARY blocks, #if read both ways (and the note),
 * -D, quoted headers of the repository, compile_commands.json, a
 * torch::Library& passed to a function of another file, and the bounds
 * against hostile macros. The snippets are this project's own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/diags.h"
#include "support/extract_scan.h"

static scanned scan_with(const char *src, const char *const *defines)
{
    ta_extract_opts o = {.defines = defines, .no_git = true, .no_includes = true};
    return ta_test_scan_text(&o, "t.cpp", TA_LANG_CPP, src);
}

static scanned scan(const char *src) { return scan_with(src, NULL); }

static void done(scanned *s) { ta_test_scan_done(s); }

/* The schema (or name) of operator i. */
static const char *schema(const scanned *s, size_t i)
{
    const ta_extract_op *p = ta_test_scan_op(s, i);
    return p->schema ? p->schema : p->name;
}

static void object_macros(void **state)
{
    (void)state;
    scanned s = scan("#define NS mylib\n"
                     "#define SIG \"(Tensor x) -> Tensor\"\n"
                     "#define OPNAME \"scale\"\n"
                     "TORCH_LIBRARY(NS, m) {\n"
                     "  m.def(OPNAME SIG);\n"
                     "}\n");
    assert_int_equal(ta_extract_count(s.x), 1);
    assert_string_equal(schema(&s, 0), "mylib::scale(Tensor x) -> Tensor");
    /* placed at the invocation, not at the #define */
    assert_int_equal(ta_extract_get(s.x, 0)->line, 5);
    assert_int_equal(ta_test_count_rule(s.d, "extract-unresolved", NULL), 0);
    done(&s);
}

static void stringify(void **state)
{
    (void)state;
    /* a default value stringified through a second macro, which expands
     * the argument first (the first alone would not) */
    scanned s = scan("#define STR_(s) #s\n"
                     "#define STR(x) STR_(x)\n"
                     "#define PAGE 64\n"
                     "TORCH_LIBRARY(kv, m) {\n"
                     "  m.def(\"put(Tensor(a!) c, int page=\" STR(PAGE) \") -> ()\");\n"
                     "  m.def(\"raw(str s=\" STR_(\"x\\\\y\") \") -> ()\");\n"
                     "  m.def(\"lit(int p=\" STR_(PAGE) \") -> ()\");\n"
                     "}\n");
    assert_int_equal(ta_extract_count(s.x), 3);
    assert_string_equal(schema(&s, 0), "kv::put(Tensor(a!) c, int page=64) -> ()");
    assert_string_equal(schema(&s, 1), "kv::raw(str s=\"x\\\\y\") -> ()");
    assert_string_equal(schema(&s, 2), "kv::lit(int p=PAGE) -> ()");
    done(&s);
}

static void pasting(void **state)
{
    (void)state;
    scanned s = scan("#define CONCAT_(a, b) a##b\n"
                     "#define CONCAT(a, b) CONCAT_(a, b)\n"
                     "#define sfx _ascend\n"
                     "TORCH_LIBRARY(CONCAT(_C, sfx), m) {\n"
                     "  m.def(\"rope(Tensor x) -> Tensor\");\n"
                     "}\n"
                     "TORCH_LIBRARY(CONCAT_(_C, sfx), m) {\n"
                     "  m.def(\"norm(Tensor x) -> Tensor\");\n"
                     "}\n");
    assert_int_equal(ta_extract_count(s.x), 2);
    assert_string_equal(schema(&s, 0), "_C_ascend::rope(Tensor x) -> Tensor");
    /* ## pastes the argument as written: no expansion of sfx first */
    assert_string_equal(schema(&s, 1), "_Csfx::norm(Tensor x) -> Tensor");
    done(&s);
}

static void block_wrappers(void **state)
{
    (void)state;
    scanned s = scan("#define LIB_EXPAND(NAME, MOD) TORCH_LIBRARY(NAME, MOD)\n"
                     "#define FRAG(NAME, MOD) TORCH_LIBRARY_FRAGMENT(NAME, MOD)\n"
                     "LIB_EXPAND(outer, ops) {\n"
                     "  ops.def(\"a(Tensor x) -> Tensor\");\n"
                     "}\n"
                     "FRAG(outer, m) {\n"
                     "  m.def(\"b(Tensor x) -> Tensor\");\n"
                     "}\n");
    assert_int_equal(ta_extract_count(s.x), 2);
    assert_string_equal(schema(&s, 0), "outer::a(Tensor x) -> Tensor");
    assert_int_equal(ta_extract_get(s.x, 0)->how, TA_HOW_DEF);
    assert_string_equal(schema(&s, 1), "outer::b(Tensor x) -> Tensor");
    assert_int_equal(ta_extract_get(s.x, 1)->how, TA_HOW_FRAGMENT);
    done(&s);
}

static void generated_defs(void **state)
{
    (void)state;
    /* one macro per bit width, and a variadic one */
    scanned s = scan("#define DEF_Q(B) m.def(\"q\" #B \"(Tensor x) -> Tensor\")\n"
                     "#define DEF_V(name, ...) m.def(#name \"(\" #__VA_ARGS__ \") -> Tensor\")\n"
                     "TORCH_LIBRARY(q, m) {\n"
                     "  DEF_Q(4);\n"
                     "  DEF_Q(8);\n"
                     "  DEF_V(mix, Tensor a, Tensor b);\n"
                     "}\n");
    assert_int_equal(ta_extract_count(s.x), 3);
    assert_string_equal(schema(&s, 0), "q::q4(Tensor x) -> Tensor");
    assert_string_equal(schema(&s, 1), "q::q8(Tensor x) -> Tensor");
    assert_string_equal(schema(&s, 2), "q::mix(Tensor a, Tensor b) -> Tensor");
    assert_int_equal(ta_extract_get(s.x, 1)->line, 5);
    done(&s);
}

static void self_reference(void **state)
{
    (void)state;
    /* a macro is not expanded inside its own expansion (C17 6.10.3.4) */
    scanned s = scan("#define ns ns\n"
                     "#define A B\n"
                     "#define B A\n"
                     "TORCH_LIBRARY(ns, m) {\n"
                     "  m.def(\"f(Tensor x) -> Tensor\");\n"
                     "}\n"
                     "TORCH_LIBRARY(A, m) {\n"
                     "  m.def(\"g(Tensor x) -> Tensor\");\n"
                     "}\n");
    assert_int_equal(ta_extract_count(s.x), 2);
    assert_string_equal(schema(&s, 0), "ns::f(Tensor x) -> Tensor");
    assert_string_equal(schema(&s, 1), "A::g(Tensor x) -> Tensor");
    done(&s);
}

static void conditionals(void **state)
{
    (void)state;
    scanned s = scan("#ifndef T_H\n#define T_H\n#endif\n" /* a guard: no note */
                     "#ifdef USE_ROCM\n#define NS rocm_ops\n#else\n#define NS cuda_ops\n#endif\n"
                     "TORCH_LIBRARY(mine, m) {\n"
                     "#if defined(FAST)\n"
                     "  m.def(\"fast(Tensor x) -> Tensor\");\n"
                     "#else\n"
                     "  m.def(\"slow(Tensor x) -> Tensor\");\n"
                     "#endif\n"
                     "#if 0\n"
                     "  m.def(\"never(Tensor x) -> Tensor\");\n"
                     "#endif\n"
                     "  m.def(\"always(Tensor x) -> Tensor\");\n"
                     "}\n"
                     "TORCH_LIBRARY(NS, m) { m.def(\"late(Tensor x) -> Tensor\"); }\n");
    assert_int_equal(ta_extract_count(s.x), 4);
    assert_string_equal(schema(&s, 0), "mine::fast(Tensor x) -> Tensor");
    assert_string_equal(schema(&s, 1), "mine::slow(Tensor x) -> Tensor");
    assert_string_equal(schema(&s, 2), "mine::always(Tensor x) -> Tensor");
    /* both branches are read; the later definition holds */
    assert_string_equal(schema(&s, 3), "cuda_ops::late(Tensor x) -> Tensor");
    const ta_diag *g = NULL;
    assert_int_equal(ta_test_count_rule(s.d, "extract-conditional", &g), 2);
    assert_int_equal(g->severity, TA_SEV_NOTE);
    assert_int_equal(g->line, 10); /* at the #if */
    done(&s);
}

static void command_line_defines(void **state)
{
    (void)state;
    const char *src = "#define LIB_EXPAND(N, M) TORCH_LIBRARY(N, M)\n"
                      "LIB_EXPAND(TORCH_EXTENSION_NAME, ops) {\n"
                      "  ops.def(\"f(int k=\" WIDTH \") -> Tensor\");\n"
                      "}\n";
    scanned s = scan(src);
    /* the build's name and an unknown piece: both noted, no schema */
    assert_int_equal(ta_extract_count(s.x), 0);
    const ta_diag *g = NULL;
    assert_int_equal(ta_test_count_rule(s.d, "extract-unresolved", &g), 2);
    assert_non_null(strstr(g->message, "TORCH_EXTENSION_NAME"));
    done(&s);

    const char *defs[] = {"TORCH_EXTENSION_NAME=_C", "WIDTH=\"4\"", NULL};
    s = scan_with(src, defs);
    assert_int_equal(ta_extract_count(s.x), 1);
    assert_string_equal(schema(&s, 0), "_C::f(int k=4) -> Tensor");
    assert_int_equal(ta_test_count_rule(s.d, "extract-unresolved", NULL), 0);
    done(&s);
}

static void bounds(void **state)
{
    (void)state;
    /* each level doubles the tokens: 2^40 of them unless a bound stops it */
    char src[4096];
    size_t n = 0;
    n += (size_t)snprintf(src + n, sizeof src - n, "#define E0 x\n");
    for (int i = 1; i <= 40; i++) n += (size_t)snprintf(src + n, sizeof src - n, "#define E%d E%d E%d\n", i, i - 1, i - 1);
    snprintf(src + n, sizeof src - n,
             "TORCH_LIBRARY(b, m) {\n  m.def(\"before(Tensor x) -> Tensor\");\n  E40\n}\n");
    scanned s = scan(src);
    assert_int_equal(ta_extract_count(s.x), 1);
    assert_string_equal(schema(&s, 0), "b::before(Tensor x) -> Tensor");
    assert_true(ta_test_count_rule(s.d, "extract-unresolved", NULL) >= 1); /* the bound, noted */
    done(&s);

    /* a chain of 100 macros is rescanned, not nested: it resolves */
    n = 0;
    n += (size_t)snprintf(src + n, sizeof src - n, "#define F0(a) a\n");
    for (int i = 1; i <= 100; i++) n += (size_t)snprintf(src + n, sizeof src - n, "#define F%d(a) F%d(a)\n", i, i - 1);
    snprintf(src + n, sizeof src - n, "TORCH_LIBRARY(F100(d), m) {\n  m.def(\"g(Tensor x) -> Tensor\");\n}\n");
    s = scan(src);
    assert_int_equal(ta_extract_count(s.x), 1);
    assert_string_equal(schema(&s, 0), "d::g(Tensor x) -> Tensor");
    done(&s);

    /* arguments nested 100 deep are: the depth bound stops them, noted */
    n = (size_t)snprintf(src, sizeof src, "#define I(a) a\nTORCH_LIBRARY(");
    for (int i = 0; i < 100; i++) n += (size_t)snprintf(src + n, sizeof src - n, "I(");
    n += (size_t)snprintf(src + n, sizeof src - n, "d");
    for (int i = 0; i < 100; i++) n += (size_t)snprintf(src + n, sizeof src - n, ")");
    snprintf(src + n, sizeof src - n, ", m) {\n  m.def(\"g(Tensor x) -> Tensor\");\n}\n");
    s = scan(src);
    const ta_diag *g = NULL;
    assert_true(ta_test_count_rule(s.d, "extract-unresolved", &g) >= 1);
    assert_non_null(strstr(g->message, "nest too deep"));
    assert_int_equal(g->line, 2);
    done(&s);
}

/* ---- files on disk ------------------------------------------------------ */

static void put(const char *dir, const char *rel, const char *text) { ta_test_put_file(dir, rel, text); }

static void remove_tree(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static scanned scan_dir(const char *dir, const ta_extract_opts *o) { return ta_test_scan_dir(o, dir); }

/* The operator named name, or NULL. */
static const ta_extract_op *find(const scanned *s, const char *name)
{
    for (size_t i = 0; i < ta_extract_count(s->x); i++) {
        const ta_extract_op *p = ta_extract_get(s->x, i);
        const char *n = p->name, *c = strstr(n, "::");
        if (!strcmp(c ? c + 2 : n, name)) return p;
    }
    return NULL;
}

static void headers(void **state)
{
    (void)state;
    char dir[] = "/tmp/ta-pp-XXXXXX";
    assert_non_null(mkdtemp(dir));
    /* the wrapper in a header found up the tree, a constant next to the
     * includer, one through -I; angle includes are not read */
    put(dir, "include/registration.h",
        "#pragma once\n#define _CONCAT(A, B) A##B\n#define CONCAT(A, B) _CONCAT(A, B)\n"
        "#define TORCH_LIBRARY_EXPAND(NAME, MODULE) TORCH_LIBRARY(NAME, MODULE)\n");
    put(dir, "csrc/ops/defaults.h", "#define DEFAULT_K 3\n#include \"../../include/registration.h\"\n");
    put(dir, "third/width.h", "#define WIDTH 16\n");
    put(dir, "csrc/ops/bind.cpp",
        "#include <torch/library.h>\n#include \"defaults.h\"\n#include \"width.h\"\n"
        "#define STR_(x) #x\n#define STR(x) STR_(x)\n"
        "TORCH_LIBRARY_EXPAND(CONCAT(_C, _ascend), ops) {\n"
        "  ops.def(\"topk(Tensor x, int k=\" STR(DEFAULT_K) \", int w=\" STR(WIDTH) \") -> Tensor\");\n"
        "}\n");
    char inc[600];
    snprintf(inc, sizeof inc, "%s/third", dir);
    const char *incs[] = {inc, NULL};
    ta_extract_opts o = {.no_git = true, .include_dirs = incs};
    scanned s = scan_dir(dir, &o);
    const ta_extract_op *p = find(&s, "topk");
    assert_non_null(p);
    assert_string_equal(p->schema, "_C_ascend::topk(Tensor x, int k=3, int w=16) -> Tensor");
    assert_int_equal(p->line, 7);
    done(&s);

    /* without the -I: WIDTH is stringified as written, as a compiler
     * without the header would, and torch's parser refuses it */
    ta_extract_opts o2 = {.no_git = true};
    s = scan_dir(dir, &o2);
    p = find(&s, "topk");
    assert_non_null(p);
    assert_string_equal(p->schema, "_C_ascend::topk(Tensor x, int k=3, int w=WIDTH) -> Tensor");
    assert_int_equal(ta_test_count_rule(s.d, "schema-syntax", NULL), 1);
    done(&s);
    remove_tree(dir);
}

static void compile_commands(void **state)
{
    (void)state;
    char dir[] = "/tmp/ta-pp-XXXXXX";
    assert_non_null(mkdtemp(dir));
    put(dir, "csrc/a.cpp", "TORCH_LIBRARY(TORCH_EXTENSION_NAME, m) {\n  m.def(\"a(Tensor x) -> Tensor\");\n}\n");
    put(dir, "csrc/b.cpp",
        "#include \"cfg.h\"\nTORCH_LIBRARY(TORCH_EXTENSION_NAME, m) {\n  m.def(\"b(Tensor x, int n=\" N \") -> Tensor\");\n}\n");
    put(dir, "gen/cfg.h", "#define N \"7\"\n");
    char cc[2048];
    snprintf(cc, sizeof cc,
             "[{\"directory\": \"%s\", \"file\": \"csrc/a.cpp\",\n"
             "  \"command\": \"c++ -DTORCH_EXTENSION_NAME=_C -O2 -c csrc/a.cpp\"},\n"
             " {\"directory\": \"%s\", \"file\": \"%s/csrc/b.cpp\",\n"
             "  \"arguments\": [\"c++\", \"-D\", \"TORCH_EXTENSION_NAME=_moe_C\", \"-Igen\", \"-c\", \"csrc/b.cpp\"]}]\n",
             dir, dir, dir);
    put(dir, "compile_commands.json", cc);
    ta_extract_opts o = {.no_git = true};
    scanned s = scan_dir(dir, &o);
    const ta_extract_op *a = find(&s, "a"), *b = find(&s, "b");
    assert_non_null(a);
    assert_non_null(b);
    assert_string_equal(a->schema, "_C::a(Tensor x) -> Tensor");
    assert_string_equal(b->schema, "_moe_C::b(Tensor x, int n=7) -> Tensor");
    done(&s);
    remove_tree(dir);
}

static void library_parameters(void **state)
{
    (void)state;
    char dir[] = "/tmp/ta-pp-XXXXXX";
    assert_non_null(mkdtemp(dir));
    /* the block passes its Library to functions of other files, one of
     * them through a second function */
    put(dir, "bind.cpp",
        "void register_attn(torch::Library &m);\nvoid register_all(torch::Library &m);\n"
        "TORCH_LIBRARY(fused, m) {\n  register_attn(m);\n  register_all(m);\n}\n");
    put(dir, "attn.cpp", "void register_attn(torch::Library &lib) {\n  lib.def(\"attn(Tensor q) -> Tensor\");\n}\n");
    put(dir, "all.cpp",
        "void register_norm(torch::Library &l) { l.def(\"norm(Tensor x) -> Tensor\"); }\n"
        "void register_all(torch::Library &m) { register_norm(m); }\n");
    put(dir, "orphan.cpp", "void nobody_calls(torch::Library &m) { m.def(\"orphan(Tensor x) -> Tensor\"); }\n");
    ta_extract_opts o = {.no_git = true};
    scanned s = scan_dir(dir, &o);
    const ta_extract_op *attn = find(&s, "attn"), *norm = find(&s, "norm"), *orphan = find(&s, "orphan");
    assert_non_null(attn);
    assert_non_null(norm);
    assert_non_null(orphan);
    assert_string_equal(attn->ns, "fused");
    assert_string_equal(norm->ns, "fused");
    assert_null(orphan->ns);
    assert_true(ta_test_count_rule(s.d, "extract-unresolved", NULL) >= 1);
    done(&s);
    remove_tree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(object_macros),       cmocka_unit_test(stringify),
        cmocka_unit_test(pasting),             cmocka_unit_test(block_wrappers),
        cmocka_unit_test(generated_defs),      cmocka_unit_test(self_reference),
        cmocka_unit_test(conditionals),        cmocka_unit_test(command_line_defines),
        cmocka_unit_test(bounds),              cmocka_unit_test(headers),
        cmocka_unit_test(compile_commands),    cmocka_unit_test(library_parameters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
