/* test_extract_pyeval.c - Python schemas and namespaces that are computed
 * rather than written: module-level string constants, f-strings, .format
 * and % over them, + joins, classes and functions that wrap a Library with
 * a namespace, a helper defined in another file of the tree, and
 * constants imported from another module (relative and absolute). What
 * stays unknown is a note. The snippets are this project's own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "support/diags.h"
#include "support/extract_scan.h"

static scanned scan(const char *src)
{
    ta_extract_opts o = {.no_git = true, .no_includes = true};
    return ta_test_scan_text(&o, "t.py", TA_LANG_PYTHON, src);
}

static void done(scanned *s) { ta_test_scan_done(s); }

static const ta_extract_op *op(const scanned *s, size_t i) { return ta_test_scan_op(s, i); }

static void constants_and_fstrings(void **state)
{
    (void)state;
    scanned s = scan("import torch\n"
                     "NS = 'vk'\n"
                     "name = \"clamp\"\n"
                     "lib = torch.library.Library(NS, \"DEF\")\n"
                     "lib.define(f\"{name}(Tensor x) -> Tensor\")\n"
                     "lib.define(f\"{name}.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)\")\n"
                     "lib.define(f\"{unknown}(Tensor x) -> Tensor\")\n");
    assert_int_equal(ta_extract_count(s.x), 2);
    assert_string_equal(op(&s, 0)->schema, "vk::clamp(Tensor x) -> Tensor");
    assert_string_equal(op(&s, 1)->schema, "vk::clamp.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)");
    /* placed at the call, not at the constant */
    assert_int_equal(op(&s, 0)->line, 5);
    assert_int_equal(op(&s, 1)->line, 6);
    const ta_diag *g = NULL;
    assert_int_equal(ta_test_count_rule(s.d, "extract-unresolved", &g), 1);
    assert_int_equal(g->line, 7);
    done(&s);
}

static void format_percent_plus(void **state)
{
    (void)state;
    scanned s = scan("from torch.library import Library\n"
                     "OP = 'rms'\n"
                     "SIG = '(Tensor x, float eps) -> Tensor'\n"
                     "lib = Library('ln', 'FRAGMENT')\n"
                     "lib.define('{}_a{}'.format(OP, SIG))\n"
                     "lib.define('%s_b%s' % (OP, SIG))\n"
                     "lib.define(OP + '_c' + SIG)\n");
    assert_int_equal(ta_extract_count(s.x), 3);
    assert_string_equal(op(&s, 0)->schema, "ln::rms_a(Tensor x, float eps) -> Tensor");
    assert_string_equal(op(&s, 1)->schema, "ln::rms_b(Tensor x, float eps) -> Tensor");
    assert_string_equal(op(&s, 2)->schema, "ln::rms_c(Tensor x, float eps) -> Tensor");
    for (size_t i = 0; i < 3; i++) assert_int_equal(op(&s, i)->line, 5 + i);
    assert_int_equal(ta_test_count_rule(s.d, "extract-unresolved", NULL), 0);
    done(&s);
}

static void wrappers(void **state)
{
    (void)state;
    /* a class whose constructor makes the Library, a function that returns
     * one: the namespace is the literal their callers pass */
    scanned s = scan("import torch\n"
                     "class Fragment:\n"
                     "    def __init__(self, ns):\n"
                     "        self.lib = torch.library.Library(ns, 'FRAGMENT')\n"
                     "    def define(self, schema):\n"
                     "        self.lib.define(schema)\n"
                     "def make(ns):\n"
                     "    return torch.library.Library(ns, 'FRAGMENT')\n"
                     "lib = Fragment('fbgemm')\n"
                     "lib.define('sll_gemm(Tensor x) -> Tensor')\n"
                     "m = make('made')\n"
                     "m.define('from_fn(Tensor x) -> Tensor')\n");
    const char *want[] = {"fbgemm::sll_gemm(Tensor x) -> Tensor", "made::from_fn(Tensor x) -> Tensor"};
    size_t found = 0;
    for (size_t i = 0; i < ta_extract_count(s.x); i++)
        for (size_t k = 0; k < 2; k++)
            if (op(&s, i)->schema && !strcmp(op(&s, i)->schema, want[k])) found |= (size_t)1 << k;
    assert_int_equal(found, 3);
    done(&s);
}

static void named_library(void **state)
{
    (void)state;
    /* a Library bound to the name "library" is not torch.library */
    scanned s = scan("from torch.library import Library\n"
                     "class T:\n"
                     "    def test_a(self):\n"
                     "        library = Library('TEST_ONLY', 'DEF')\n"
                     "        library.define('foo.Tensor(Tensor a) -> Tensor')\n"
                     "import torch\n"
                     "torch.library.define('mod::g', '(Tensor a) -> Tensor')\n");
    assert_int_equal(ta_extract_count(s.x), 2);
    assert_string_equal(op(&s, 0)->schema, "TEST_ONLY::foo.Tensor(Tensor a) -> Tensor");
    assert_string_equal(op(&s, 1)->schema, "mod::g(Tensor a) -> Tensor");
    assert_int_equal(ta_test_count_rule(s.d, "extract-unresolved", NULL), 0);
    done(&s);
}

static void put(const char *dir, const char *rel, const char *text) { ta_test_put_file(dir, rel, text); }

/* The folder dir scanned whole, as `extract DIR` does. */
static scanned scan_tree(const char *dir)
{
    ta_extract_opts o = {.no_git = true};
    scanned s;
    assert_int_equal(ta_extract_create(&o, &s.x), TA_OK);
    assert_int_equal(ta_diags_create(&s.d), TA_OK);
    assert_int_equal(ta_extract_path(s.x, dir, s.d), TA_OK);
    assert_int_equal(ta_extract_finish(s.x, s.d), TA_OK);
    return s;
}

static void remove_tree(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void across_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/ta-pyeval-XXXXXX";
    assert_non_null(mkdtemp(dir));
    /* the caller sorts before the helper's file: helpers are learnt first */
    put(dir, "a_use.py",
        "from z_libs import get_lib, bind, bind_low\nlib = get_lib('crossfile')\nlib.define('cf(Tensor x) -> Tensor')\n"
        "@bind(lib, 'crossfile::pat(Tensor x) -> Tensor')\ndef pat(x):\n    return x\n"
        "@bind_low(lib, 'LOW(Tensor x) -> Tensor')\ndef low(x):\n    return x\n");
    /* bind cuts the namespace off with split (followed); bind_low
     * transforms the schema in a way not followed: each use is a note */
    put(dir, "z_libs.py",
        "import torch\ndef get_lib(ns):\n    return torch.library.Library(ns, 'FRAGMENT')\n"
        "def bind(library, schema):\n    def wrapper(f):\n        name = schema.split('::')[-1]\n"
        "        library.define(name)\n        return f\n    return wrapper\n"
        "def bind_low(library, schema):\n    library.define(schema.lower())\n");
    scanned s = scan_tree(dir);
    assert_int_equal(ta_extract_count(s.x), 2);
    assert_string_equal(op(&s, 0)->schema, "crossfile::cf(Tensor x) -> Tensor");
    assert_int_equal(op(&s, 0)->line, 3);
    assert_string_equal(op(&s, 1)->schema, "crossfile::pat(Tensor x) -> Tensor");
    assert_int_equal(op(&s, 1)->line, 4);
    const ta_diag *g = NULL;
    assert_int_equal(ta_test_count_rule(s.d, "extract-unresolved", &g), 1);
    assert_int_equal(g->line, 7);
    assert_non_null(strstr(g->message, "'bind_low'"));
    done(&s);
    remove_tree(dir);
}

static void imported_constants(void **state)
{
    (void)state;
    char dir[] = "/tmp/ta-pyimport-XXXXXX";
    assert_non_null(mkdtemp(dir));
    put(dir, "pkg/__init__.py", "");
    put(dir, "pkg/base.py", "PREFIX = ''\nfrom .consts import CYC\n");
    put(dir, "pkg/consts.py",
        "from .base import PREFIX, CYC\nNS = 'imp'\nSCHEMA = PREFIX + 'scale_(Tensor(a!) x, float s) -> Tensor(a!)'\n"
        "OTHER = 'one(Tensor x) -> Tensor'\nTWO = 'two(Tensor x) -> Tensor'\nTWO = 'two(Tensor y) -> Tensor'\n");
    put(dir, "pkg/sub/ops.py",
        "import torch\nfrom ..consts import SCHEMA, NS\nfrom pkg import consts\nimport pkg.consts as c\n"
        "from pkg.consts import CYC\nfrom nowhere import MISSING\n"
        "lib = torch.library.Library(NS, 'DEF')\nlib.define(SCHEMA)\nlib.define(consts.OTHER)\nlib.define(c.TWO)\n"
        "lib.define(CYC)\nlib.define(MISSING)\n");
    scanned s = scan_tree(dir);
    assert_int_equal(ta_extract_count(s.x), 3);
    assert_string_equal(op(&s, 0)->schema, "imp::scale_(Tensor(a!) x, float s) -> Tensor(a!)");
    assert_int_equal(op(&s, 0)->line, 8);
    assert_string_equal(op(&s, 1)->schema, "imp::one(Tensor x) -> Tensor");
    /* the module's last assignment is its value */
    assert_string_equal(op(&s, 2)->schema, "imp::two(Tensor y) -> Tensor");
    assert_int_equal(op(&s, 2)->line, 10);
    /* a cycle of imports and a module that is not there stay notes */
    assert_int_equal(ta_test_count_rule(s.d, "extract-unresolved", NULL), 2);
    done(&s);
    remove_tree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(constants_and_fstrings),
        cmocka_unit_test(format_percent_plus),
        cmocka_unit_test(wrappers),
        cmocka_unit_test(named_library),
        cmocka_unit_test(across_files),
        cmocka_unit_test(imported_constants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
