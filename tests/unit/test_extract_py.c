/* test_extract_py.c - schemas read from Python sources: Library objects and
 * their define calls, torch.library.define pairs joined as PyTorch joins
 * them, every string form (quotes, triple quotes, implicit concatenation,
 * prefixes), f-strings and variables as notes, kernels from impl calls, and
 * @custom_op schemas built from type hints as torch.library.infer_schema
 * (PyTorch 2.x) builds them, with positions in the def. The expected
 * schemas follow infer_schema's rules as its source states them; the
 * default values are what Python's str() prints for them (checked with
 * python3). The snippets are this project's own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "support/diags.h"
#include "support/extract_scan.h"

static scanned scan(const char *src) { return ta_test_scan_text(NULL, "t.py", TA_LANG_PYTHON, src); }

static void done(scanned *s) { ta_test_scan_done(s); }

static const char *schema(const scanned *s, size_t i) { return ta_test_scan_op(s, i)->schema; }

static void library_define(void **state)
{
    (void)state;
    scanned s = scan("import torch\n"
                     "from torch.library import Library\n"
                     "lib = Library(\"pyns\", \"DEF\")\n"
                     "self.frag: Library = torch.library.Library('other', 'FRAGMENT')\n"
                     "lib.define(\"a(Tensor x) -> Tensor\")\n"
                     "lib.define(\n"
                     "    \"b(Tensor(a!) x,\"\n"
                     "    ' Tensor y) -> ()'  # a comment\n"
                     ")\n"
                     "self.frag.define('''\n"
                     "    c(Tensor x) -> Tensor\n"
                     "''', tags=(torch.Tag.pt2_compliant_tag,))\n"
                     "lib.define(r\"d(str s='\\\\') -> Tensor\")\n"
                     "lib.define(\"e(Tensor x) \\\n-> Tensor\")\n"
                     "with torch.library._scoped_library(\"scoped\", \"FRAGMENT\") as m:\n"
                     "    m.define(\"f(Tensor x) -> Tensor\")\n");
    assert_int_equal(ta_extract_count(s.x), 6);
    assert_string_equal(schema(&s, 0), "pyns::a(Tensor x) -> Tensor");
    assert_string_equal(schema(&s, 1), "pyns::b(Tensor(a!) x, Tensor y) -> ()");
    assert_string_equal(schema(&s, 2), "\n    other::c(Tensor x) -> Tensor\n");
    assert_string_equal(schema(&s, 3), "pyns::d(str s='\\\\') -> Tensor");
    assert_string_equal(schema(&s, 4), "pyns::e(Tensor x) -> Tensor");
    assert_string_equal(schema(&s, 5), "scoped::f(Tensor x) -> Tensor");
    for (size_t i = 0; i < 6; i++) {
        const ta_extract_op *p = ta_extract_get(s.x, i);
        assert_int_equal(p->how, TA_HOW_PY_LIBRARY);
        assert_non_null(p->parsed);
    }
    assert_int_equal(ta_extract_get(s.x, 0)->line, 5);
    assert_int_equal(ta_extract_get(s.x, 0)->col, 13);
    assert_int_equal(ta_extract_get(s.x, 2)->line, 10);
    assert_int_equal(ta_diags_count(s.d), 0);
    done(&s);
}

static void torch_library_define(void **state)
{
    (void)state;
    scanned s = scan("torch.library.define(\"ns::g\", \"(Tensor x) -> Tensor\")\n"
                     "torch.library.define(\n"
                     "    \"ns::h.overload\",\n"
                     "    \"(Tensor x, \" \"int n=1) -> Tensor\",\n"
                     "    lib=lib)\n"
                     "define(\"ns::i\", \"(Tensor x) -> Tensor\")\n"
                     "parser.define(\"not\", \"a schema\")\n");
    assert_int_equal(ta_extract_count(s.x), 3);
    assert_string_equal(schema(&s, 0), "ns::g(Tensor x) -> Tensor");
    assert_string_equal(schema(&s, 1), "ns::h.overload(Tensor x, int n=1) -> Tensor");
    assert_string_equal(schema(&s, 2), "ns::i(Tensor x) -> Tensor");
    assert_string_equal(ta_extract_get(s.x, 1)->name, "ns::h.overload");
    assert_string_equal(ta_extract_get(s.x, 1)->ns, "ns");
    assert_int_equal(ta_extract_get(s.x, 1)->how, TA_HOW_PY_DEFINE);
    /* a schema error in the second piece points into it */
    scanned t = scan("torch.library.define(\"ns::bad\",\n    \"(Tensor x, int) -> Tensor\")\n");
    const ta_diag *g = NULL;
    assert_int_equal(ta_test_count_rule(t.d, "schema-syntax", &g), 1);
    assert_int_equal(g->line, 2);
    assert_int_equal(g->col, 20); /* the ")" where a name was expected */
    done(&s);
    done(&t);
}

static void unresolved(void **state)
{
    (void)state;
    scanned s = scan("lib = Library(\"ns\", \"DEF\")\n"
                     "lib.define(f\"{name}(Tensor x) -> Tensor\")\n"
                     "lib.define(SCHEMA)\n"
                     "lib.define(\"a(\" + args + \") -> ()\")\n"
                     "lib.define(f\"plain(Tensor x) -> Tensor\")\n"
                     "lib.define(b\"bytes(Tensor x) -> Tensor\")\n"
                     "other.define(\"z(Tensor x) -> Tensor\")\n");
    /* the f-string without fields is a plain string; bytes are not a schema */
    assert_int_equal(ta_extract_count(s.x), 2);
    assert_string_equal(schema(&s, 0), "ns::plain(Tensor x) -> Tensor");
    assert_string_equal(schema(&s, 1), "z(Tensor x) -> Tensor");
    assert_null(ta_extract_get(s.x, 1)->ns);
    const ta_diag *g = NULL;
    assert_int_equal(ta_test_count_rule(s.d, "extract-unresolved", &g), 5);
    assert_int_equal(g->line, 2);
    assert_non_null(strstr(g->message, "f-string"));
    done(&s);
}

static void kernels(void **state)
{
    (void)state;
    scanned s = scan("lib = Library(\"ns\", \"DEF\")\n"
                     "impl_lib = Library(\"ns\", \"IMPL\")\n"
                     "lib.define(\"a(Tensor x) -> Tensor\")\n"
                     "lib.define(\"b(Tensor x) -> Tensor\")\n"
                     "lib.define(\"c.ov(Tensor x) -> Tensor\")\n"
                     "impl_lib.impl(\"a\", a_cpu, \"CPU\")\n"
                     "@torch.library.impl(\"ns::c\", \"CUDA\")\n"
                     "def c_cuda(x): return x\n");
    assert_int_equal(ta_extract_count(s.x), 3);
    assert_true(ta_extract_get(s.x, 0)->has_kernel);
    assert_false(ta_extract_get(s.x, 1)->has_kernel);
    assert_true(ta_extract_get(s.x, 2)->has_kernel);
    done(&s);
}

/* infer_schema's reading of these signatures (torch 1.13.1, installed
 * here, has no custom_op to run it with). */
static void custom_op_inferred(void **state)
{
    (void)state;
    scanned s = scan(
        "@torch.library.custom_op(\"ns::one\", mutates_args=(\"out\",))\n"
        "def one(x: torch.Tensor, out: torch.Tensor, n: int = 3, eps: float = 1e-5,\n"
        "        *, flag: bool = False) -> None:\n"
        "    pass\n"
        "@torch.library.custom_op(\"ns::two\", mutates_args=())\n"
        "@other_decorator\n"
        "def two(x: Tensor, s: Sequence[int], l: list[Optional[Tensor]],\n"
        "        y: Optional[Tensor] = None, m: Optional[List[float]] = None,\n"
        "        d: torch.dtype = torch.float, dev: torch.device = \"cpu\",\n"
        "        u: Tensor | None = None, big: int = 10_000, tiny: float = 0.0001,\n"
        "        huge: float = 1e16, neg: int = -2, third: float = 1.5e-7,\n"
        "        r: float = 123456789.0) -> tuple[Tensor, List[Tensor], int]:\n"
        "    pass\n"
        "@custom_op(\"ns::three\", mutates_args=\"unknown\")\n"
        "def three(a: torch.Tensor, b: list[torch.Tensor], c: types.Number = 2.5) -> torch.Tensor:\n"
        "    pass\n"
        "@torch.library.custom_op(\"ns::four\", mutates_args=(), schema=\"(Tensor x) -> Tensor\")\n"
        "def four(x): pass\n"
        "def five_impl(x: torch.Tensor) -> torch.Tensor: return x\n"
        "five = torch.library.custom_op(\"ns::five\", five_impl, mutates_args=[])\n");
    assert_int_equal(ta_extract_count(s.x), 5);
    assert_string_equal(schema(&s, 0),
                        "ns::one(Tensor x, Tensor(a1!) out, SymInt n=3, float eps=1e-05, *, bool flag=False) -> ()");
    assert_string_equal(schema(&s, 1),
                        "ns::two(Tensor x, SymInt[] s, Tensor?[] l, Tensor? y=None, float[]? m=None, "
                        "ScalarType d=float32, Device dev=\"cpu\", Tensor? u=None, SymInt big=10000, "
                        "float tiny=0.0001, float huge=1e+16, SymInt neg=-2, float third=1.5e-07, "
                        "float r=123456789.0) -> (Tensor, Tensor[], SymInt)");
    assert_string_equal(schema(&s, 2),
                        "ns::three(Tensor(a0!) a, Tensor(a1!)[] b, Scalar c=2.5) -> Tensor");
    assert_string_equal(schema(&s, 3), "ns::four(Tensor x) -> Tensor");
    assert_string_equal(schema(&s, 4), "ns::five(Tensor x) -> Tensor");
    for (size_t i = 0; i < 5; i++) {
        const ta_extract_op *p = ta_extract_get(s.x, i);
        assert_int_equal(p->how, TA_HOW_PY_CUSTOM_OP);
        assert_int_equal(p->inferred, i != 3);
        assert_true(p->has_kernel);
    }
    assert_non_null(ta_extract_get(s.x, 0)->parsed);
    assert_non_null(ta_extract_get(s.x, 2)->parsed);
    assert_int_equal(ta_diags_count(s.d), 0);
    /* a position in an inferred schema is the hint or name it came from */
    ta_loc loc;
    const char *sch = schema(&s, 0);
    uint32_t at = (uint32_t)(strstr(sch, "Tensor(a1!)") - sch);
    assert_true(ta_extract_locate(s.x, 0, at, 11, &loc));
    assert_int_equal(loc.line, 2);
    assert_int_equal(loc.col, 31); /* "torch.Tensor" of out */
    at = (uint32_t)(strstr(sch, "eps") - sch);
    assert_true(ta_extract_locate(s.x, 0, at, 3, &loc));
    assert_int_equal(loc.col, 57);
    assert_int_equal(loc.length, 3);
    done(&s);
}

/* What infer_schema refuses, or the scanner cannot follow: a note, no schema. */
static void custom_op_notes(void **state)
{
    (void)state;
    static const char *const srcs[] = {
        "@torch.library.custom_op(\"ns::a\", mutates_args=())\ndef a(x) -> Tensor: pass\n",
        "@torch.library.custom_op(\"ns::a\", mutates_args=())\ndef a(x: Tensor, *args: Tensor) -> Tensor: pass\n",
        "@torch.library.custom_op(\"ns::a\", mutates_args=())\ndef a(x: Tensor, y: tuple[int, int]) -> Tensor: pass\n",
        "@torch.library.custom_op(\"ns::a\", mutates_args=())\ndef a(x: Tensor = make()) -> Tensor: pass\n",
        "@torch.library.custom_op(\"ns::a\", mutates_args=())\ndef a(s: list[int] = []) -> None: pass\n",
        "@torch.library.custom_op(\"ns::a\", mutates_args=())\ndef a(x: Tensor) -> Optional[Tensor]: pass\n",
        "@torch.library.custom_op(\"ns::a\", mutates_args=(\"n\",))\ndef a(x: Tensor, n: int) -> None: pass\n",
        "@torch.library.custom_op(\"ns::a\", mutates_args=(\"z\",))\ndef a(x: Tensor) -> None: pass\n",
        "@torch.library.custom_op(\"ns::a\", mutates_args=MUT)\ndef a(x: Tensor) -> None: pass\n",
        "@torch.library.custom_op(\"ns::a\", mutates_args=())\ndef a(x: \"torch.Tensor\") -> None: pass\n",
        "@torch.library.custom_op(\"ns::a\", mutates_args=())\ndef a(x: Tensor, s: list[str]) -> None: pass\n",
        "@torch.library.custom_op(\"ns::a\", mutates_args=())\ndef a(x: Tensor)\n",
        "@torch.library.custom_op(NAME, mutates_args=())\ndef a(x: Tensor) -> None: pass\n",
        "op = torch.library.custom_op(\"ns::a\", elsewhere, mutates_args=())\n",
    };
    for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
        scanned s = scan(srcs[i]);
        assert_int_equal(ta_extract_count(s.x), 0);
        assert_int_equal(ta_diags_count(s.d), 1);
        assert_int_equal(ta_diags_get(s.d, 0)->severity, TA_SEV_NOTE);
        done(&s);
    }
}

static void broken_sources(void **state)
{
    (void)state;
    static const char *const srcs[] = {
        "lib = Library(\"ns\", \"DEF\")\nlib.define(\"open(Tensor x) -> Tensor)\n",
        "lib = Library(\"ns\", \"DEF\")\nlib.define('''never closed",
        "lib.define(",
        "lib = Library(",
        "@torch.library.custom_op(\"ns::a\", mutates_args=())\ndef a(",
        "\"\\",
        "f'{'",
    };
    for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
        scanned s = scan(srcs[i]);
        assert_int_equal(ta_extract_count(s.x), 0);
        done(&s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(library_define), cmocka_unit_test(torch_library_define),
        cmocka_unit_test(unresolved), cmocka_unit_test(kernels),
        cmocka_unit_test(custom_op_inferred), cmocka_unit_test(custom_op_notes),
        cmocka_unit_test(broken_sources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
