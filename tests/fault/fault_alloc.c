/* fault_alloc.c - allocation-failure injection, as SQLite tests itself:
 * each scenario runs once to count its allocations, then once more for
 * every N with allocation N made to fail (ta_fault_arm, a build with
 * -DTA_FAULT_INJECT: `make fault`, under ASan and UBSan). Every run must end
 * in TA_ERR_NOMEM, with no crash, no leak (LeakSanitizer checks at exit)
 * and nothing half made handed back (outputs stay NULL).
 *
 * Scenarios: parsing schemas (one good, one malformed), a schema's alias
 * queries, graph and rules, extracting schemas from C++ and Python
 * sources, loading a small
 * native_functions.yaml with tags, a full `check` of it (every pass,
 * torchgen's derivation included) loaded and streamed, the streaming torchgen check
 * of it, and a verification set-up (schema
 * source, derived operators, a schema file, kernels, composed kernels, the
 * selection) and a verify session's (a yaml, a schema file, a kernel
 * library, a baseline) with its reports in every format, a whole graph
 * (operators and classes from text, the IR read, its alias analysis,
 * queries, its dumps, a move, printing, building), the default operator
 * set for a graph, and a
 * samples file loaded and its cases built (shared storages, generated and
 * given values, every kind of argument), and a diff (two schema lists,
 * an allow-list, and two yamls with their autogen-derived functions). Allocations inside libyaml, igraph and jansson are theirs:
 * they are not counted, and fail through their own paths.
 *
 * Usage: fault_alloc [BUILD] (BUILD holds tests/plugins/libtwice.so). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/synth/samples.h"
#include "base/alloc.h"
#include "tensoralias/alias.h"
#include "tensoralias/aliasdb.h"
#include "tensoralias/check.h"
#include "tensoralias/diff.h"
#include "tensoralias/exec.h"
#include "tensoralias/extract.h"
#include "tensoralias/functionalize.h"
#include "tensoralias/native.h"
#include "tensoralias/schema.h"
#include "tensoralias/torchgen.h"
#include "tensoralias/verify.h"

/* A scenario's verdict on itself: TA_OK, TA_ERR_NOMEM, or this when it
 * got something it should not have (a half-made output, a wrong status). */
#define WRONG TA_ERR_INVALID

static const char yaml[] =
    "- func: abs(Tensor self) -> Tensor\n"
    "  variants: function, method\n"
    "  dispatch:\n"
    "    CPU, CUDA: abs\n"
    "  tags: pointwise\n"
    "- func: abs_(Tensor(a!) self) -> Tensor(a!)\n"
    "  dispatch:\n"
    "    CompositeExplicitAutograd: abs_\n"
    "  python_module: special\n"
    "  device_check: NoCheck\n"
    "  autogen: abs.out\n"
    "- func: custom::scale_(Tensor(a!) self, Scalar s=2) -> Tensor(a!)\n"
    "  dispatch:\n"
    "    CPU: scale_\n"
    "  autogen: scale, scale.out\n"
    "- func: view_it(Tensor(a) self, int[] size) -> Tensor(a)\n"
    "  dispatch:\n"
    "    CPU: view_it\n"
    "  autogen: view_it.out\n"
    "- func: bad(Tensor self) -> Tensor\n"
    "  dispatch:\n"
    "    CPUU: bad\n"
    "  tags: nonexistent\n"
    "- func: two(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
    "  dispatch:\n"
    "    CPU: two\n"
    "- func: broken(Tensor self -> Tensor\n"
    "- func: abs(Tensor self) -> Tensor\n";

static const char tags[] =
    "- tag: pointwise\n"
    "  desc: elementwise\n"
    "- tag: core\n"
    "  desc: core aten\n";

/* ---- the scenarios ------------------------------------------------------ */

static ta_status parse_schemas(void)
{
    static const char good[] =
        "aten::_foo.out(Tensor(a!) self, Tensor?[] indices, *, int[2] size=[1, 2], "
        "Dict(str, Tensor(b)) d, float eps=1e-05, Tensor(c!)[] out) -> (Tensor(a!) x, Tensor(c!)[])";
    static const char bad[] = "aten::oops(Tensor(a!) self, int x=) -> Tensor";
    ta_arena *a = NULL;
    ta_diags *d = NULL;
    ta_schema *s = NULL, *t = NULL;
    ta_status st = ta_arena_create(&a);
    if (st == TA_OK) st = ta_diags_create(&d);
    if (st == TA_OK) st = ta_schema_parse(a, good, sizeof good - 1, NULL, &s, d);
    if (st != TA_OK && s) st = WRONG;
    if (st == TA_OK) {
        ta_status bs = ta_schema_parse(a, bad, sizeof bad - 1, NULL, &t, d);
        st = t ? WRONG : bs == TA_ERR_PARSE ? TA_OK : bs;
        if (st == TA_OK && ta_diags_count(d) != 1) st = WRONG;
    }
    ta_diags_destroy(d);
    ta_arena_destroy(a);
    return st;
}

/* torch's alias queries and the igraph alias graph of a schema (igraph's
 * own allocations are not counted). */
static ta_status analyse_schema(void)
{
    static const char text[] = "aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)";
    ta_arena *a = NULL;
    ta_diags *d = NULL;
    ta_schema *s = NULL;
    ta_alias_query *q = NULL;
    ta_alias_graph *g = NULL;
    ta_status st = ta_arena_create(&a);
    if (st == TA_OK) st = ta_diags_create(&d);
    if (st == TA_OK) st = ta_schema_parse(a, text, sizeof text - 1, NULL, &s, d);
    if (st == TA_OK) st = ta_alias_query_create(s, &q, d);
    if (st != TA_OK && q) st = WRONG;
    if (st == TA_OK) st = ta_alias_graph_create(s, &g, d);
    if (st != TA_OK && g) st = WRONG;
    if (st == TA_OK) st = ta_alias_check_schema(s, d);
    ta_alias_graph_destroy(g);
    ta_alias_query_destroy(q);
    ta_diags_destroy(d);
    ta_arena_destroy(a);
    return st;
}

/* Schemas declared in C++ and Python sources (the extract module). */
static ta_status extract_sources(void)
{
    static const char cpp[] =
        "TORCH_LIBRARY(mylib, m) {\n"
        "  m.def(\"twice(Tensor self) -> Tensor\");\n"
        "  m.def(\"scale_(Tensor(a!) self, \"\n"
        "        \"float s=2.) -> Tensor(a!)\");\n"
        "  m.def(\"bad(Tensor self -> Tensor\");\n"
        "}\n"
        "TORCH_LIBRARY_IMPL(mylib, CPU, m) { m.impl(\"twice\", &twice); }\n";
    static const char py[] =
        "import torch\n"
        "lib = torch.library.Library(\"pylib\", \"DEF\")\n"
        "lib.define(\"add_one(Tensor x) -> Tensor\")\n"
        "@torch.library.custom_op(\"pylib::mul\", mutates_args=())\n"
        "def mul(x: torch.Tensor, k: float) -> torch.Tensor:\n"
        "    return x * k\n";
    ta_diags *d = NULL;
    ta_extract *x = NULL;
    ta_status st = ta_diags_create(&d);
    if (st == TA_OK) st = ta_extract_create(NULL, &x);
    if (st == TA_OK) st = ta_extract_scan(x, "ops.cpp", TA_LANG_CPP, cpp, sizeof cpp - 1, d);
    if (st == TA_OK) st = ta_extract_scan(x, "ops.py", TA_LANG_PYTHON, py, sizeof py - 1, d);
    if (st == TA_OK) st = ta_extract_finish(x, d);
    if (st == TA_OK && ta_extract_count(x) < 4) st = WRONG;
    ta_extract_destroy(x);
    ta_diags_destroy(d);
    return st;
}

static ta_status load(ta_native_file **f, ta_diags *d)
{
    ta_status st = ta_native_load_buffer(yaml, sizeof yaml - 1, "t.yaml", tags, sizeof tags - 1,
                                         "tags.yaml", f, d);
    if (st == TA_ERR_PARSE && *f) return TA_OK; /* the yaml's broken entry, as meant */
    if (st == TA_OK) return WRONG;
    return *f ? WRONG : st;
}

static ta_status load_yaml(void)
{
    ta_diags *d;
    ta_native_file *f = NULL;
    ta_status st = ta_diags_create(&d);
    if (st == TA_OK) st = load(&f, d);
    ta_native_destroy(f);
    ta_diags_destroy(d);
    return st;
}

/* The streaming check, two entries a window: every window, the name index,
 * a delegate decided at the end, torchgen's stream. */
static const char stream_yaml[] =
    "- func: sq(Tensor self) -> Tensor\n"
    "  structured_delegate: sq.out\n"
    "- func: sq_(Tensor(a!) self) -> Tensor(a!)\n"
    "  structured_delegate: sq.out\n"
    "- func: sq.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
    "  structured: True\n"
    "  dispatch:\n"
    "    CPU: sq_out\n";

static ta_status check_yaml_stream(void)
{
    char text[sizeof yaml + sizeof stream_yaml];
    snprintf(text, sizeof text, "%s%s", yaml, stream_yaml);
    ta_diags *d;
    size_t count = 0;
    ta_status st = ta_diags_create(&d);
    if (st == TA_OK)
        st = ta_check_stream_buffer(text, strlen(text), "t.yaml", tags, sizeof tags - 1, "tags.yaml", 2, &count, d);
    st = st == TA_ERR_PARSE ? TA_OK : st == TA_OK ? WRONG : st; /* it has errors */
    ta_diags_destroy(d);
    return st;
}

static ta_status check_yaml(void)
{
    ta_diags *d;
    ta_native_file *f = NULL;
    ta_status st = ta_diags_create(&d);
    if (st == TA_OK) st = load(&f, d);
    if (st == TA_OK) {
        st = ta_check_all(f, d);
        st = st == TA_ERR_PARSE ? TA_OK : st == TA_OK ? WRONG : st; /* it has errors */
    }
    ta_native_destroy(f);
    ta_diags_destroy(d);
    return st;
}

/* The streaming torchgen check: it must report what the pass reports. */
static ta_status stream_torchgen(void)
{
    ta_diags *d = NULL, *want = NULL;
    ta_native_file *f = NULL;
    ta_torchgen_stream *s = NULL;
    ta_status st = ta_diags_create(&d);
    if (st == TA_OK) st = ta_diags_create(&want);
    if (st == TA_OK) st = load(&f, d);
    if (st == TA_OK) st = ta_torchgen_check_pass(f, want);
    if (st == TA_OK) st = ta_torchgen_stream_create(f, &s);
    for (size_t i = 0; st == TA_OK && i < ta_native_count(f); i++)
        st = ta_torchgen_stream_add(s, f, ta_native_get(f, i));
    ta_diags_clear(d);
    if (st == TA_OK) st = ta_torchgen_stream_finish(s, f, d);
    if (st == TA_OK && (ta_diags_count(d) != ta_diags_count(want) || !ta_diags_count(d))) st = WRONG;
    ta_torchgen_stream_destroy(s);
    ta_native_destroy(f);
    ta_diags_destroy(d);
    ta_diags_destroy(want);
    return st;
}

static ta_status twice(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)ctx;
    (void)st;
    return TA_OK;
}

static const char *plugin_path;
static const char *schema_file;

static ta_status register_kernels(ta_registry *reg, ta_diags *d)
{
    ta_status st = ta_register_op(reg, "aten::abs_", TA_KEY_CPU, twice, NULL);
    if (st == TA_OK) st = ta_register_op(reg, "custom::scale_", TA_KEY_CPU, twice, NULL);
    if (st == TA_OK) st = ta_register_op(reg, "mylib::f(Tensor self) -> Tensor", TA_KEY_CATCHALL, twice, NULL);
    if (st == TA_OK && plugin_path) st = ta_registry_load_plugin(reg, plugin_path, d);
    if (st == TA_OK) st = ta_registry_load_schemas(reg, schema_file, d);
    return st;
}

static ta_status set_up_verification(void)
{
    ta_diags *d;
    ta_native_file *f = NULL;
    ta_registry *reg = NULL;
    ta_status st = ta_diags_create(&d);
    if (st == TA_OK) st = load(&f, d);
    if (st == TA_OK) st = ta_registry_create(&reg);
    if (st == TA_OK) st = ta_registry_use_native(reg, f);
    if (st == TA_OK) st = ta_registry_add_autogen_schemas(reg, f);
    if (st == TA_OK) st = register_kernels(reg, d);
    if (st == TA_OK) st = ta_registry_take_diags(reg, d);
    size_t added = 0;
    if (st == TA_OK) st = ta_registry_add_autogen_kernels(reg, TA_COMPOSE_MISSING, &added);
    if (st == TA_OK && added != 2) st = WRONG; /* custom::scale from scale_, scale.out from scale */
    const char **names = NULL;
    size_t n = 0;
    const char *globs[] = {"aten::*", "custom::*", "mylib::*"};
    if (st == TA_OK) st = ta_registry_select(reg, globs, 3, &names, &n);
    if (st != TA_OK && names) st = WRONG;
    free(names);
    ta_registry_destroy(reg);
    ta_native_destroy(f);
    ta_diags_destroy(d);
    return st;
}

/* Whole graphs: operators from text, classes, a graph read (control flow,
 * containers, attributes, an unknown operator), its analysis, the queries
 * that allocate (they must answer the safe way when they run out), a move,
 * printing, and building with the C API. */
static const char graph_schemas[] =
    "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
    "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)\n"
    "aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)\n"
    "aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)\n"
    "CONSERVATIVE\taten::backward(Tensor self, Tensor? gradient=None, bool? retain_graph=None, bool create_graph=False) -> ()\n";

static const char graph_classes[] = "__torch__.M(w : Tensor, sub : __torch__.S)\n__torch__.S(Tensor[])\n";

static const char graph_text[] =
    "graph(%x : Tensor, %c : bool, %self : __torch__.M):\n"
    "  %one : int = prim::Constant[value=1]()\n"
    "  %none : NoneType = prim::Constant()\n"
    "  %w : Tensor = prim::GetAttr[name=\"w\"](%self)\n"
    "  %a : Tensor = aten::add(%x, %w, %one)\n"
    "  %t : Tensor = aten::transpose(%a, %one, %one)\n"
    "  %l : Tensor[] = prim::ListConstruct(%a, %t)\n"
    "  %l2 : Tensor[] = aten::append(%l, %x)\n"
    "  %z : Tensor = prim::If(%c)\n"
    "    block0():\n"
    "      %b : Tensor = aten::add_(%t, %x, %one)\n"
    "      -> (%b)\n"
    "    block1():\n"
    "      -> (%a)\n"
    "  %n : Tensor = prim::Loop(%one, %c, %z)\n"
    "    block0(%i : int, %p : Tensor):\n"
    "      %q : Tensor = mylib::unknown(%p)\n"
    "      -> (%c, %q)\n"
    "   = aten::backward(%n, %none, %none, %c)\n"
    "  return (%n, %l2)\n";

/* The queries that allocate; under a fault they must answer safely. */
static ta_status ask_graph(const ta_ir_graph *g, const ta_aliasdb *db)
{
    const ta_ir_value *l = ta_ir_graph_find_value(g, "l"), *x = ta_ir_graph_find_value(g, "x");
    const ta_ir_node *a = ta_ir_value_node(ta_ir_graph_find_value(g, "a"));
    const ta_ir_node *z = ta_ir_value_node(ta_ir_graph_find_value(g, "z"));
    bool contains = ta_aliasdb_may_contain_alias(db, l, x);
    bool can_move = ta_aliasdb_can_move_after(db, a, z);
    uint32_t locs[64];
    size_t nlocs = ta_aliasdb_contained_locations(db, l, locs, 64);
    if (!ta_fault_fired()) return contains && !can_move && nlocs > 0 ? TA_OK : WRONG;
    return contains && !can_move ? TA_ERR_NOMEM : WRONG;
}

/* What graph-alias prints, each way (to /dev/null). */
static ta_status write_graph(const ta_aliasdb *db)
{
    FILE *out = fopen("/dev/null", "w");
    if (!out) return WRONG;
    ta_status st = TA_OK;
    for (int f = TA_ALIASDB_TEXT; st == TA_OK && f <= TA_ALIASDB_DOT; f++) st = ta_aliasdb_write(db, (ta_aliasdb_format)f, out);
    fclose(out);
    return st;
}

/* The default operator set for a graph, one operator of it by name, and
 * the graph analysed with its classes undeclared (open: they may hold any
 * wildcard, which the closures add). */
static ta_status default_ops(void)
{
    ta_diags *d;
    ta_ir_ops *ops = NULL;
    ta_ir_graph *g = NULL;
    ta_aliasdb *db = NULL;
    bool found = false;
    ta_status st = ta_diags_create(&d);
    if (st == TA_OK && (st = ta_ir_ops_create(&ops)) != TA_OK && ops) st = WRONG;
    if (st == TA_OK) st = ta_ir_read(graph_text, sizeof graph_text - 1, "graph.ir", &g, d);
    if (st == TA_OK) st = ta_ir_ops_add_default(ops, g, d);
    if (st == TA_OK) st = ta_ir_ops_add_default_kind(ops, "aten::zeros", &found, d);
    if (st == TA_OK && (!found || !ta_ir_ops_has_kind(ops, "aten::add_") || !ta_ir_ops_has_kind(ops, "aten::zeros")))
        st = WRONG;
    if (st == TA_OK && (st = ta_aliasdb_create(g, ops, &db, d)) != TA_OK && db) st = WRONG;
    if (st == TA_OK) {
        const ta_ir_value *self = ta_ir_graph_find_value(g, "self"), *l = ta_ir_graph_find_value(g, "l");
        /* the list may be in the object: the safe answer, under a fault too */
        if (!ta_aliasdb_may_contain_alias(db, self, l)) st = WRONG;
        else if (ta_fault_fired()) st = TA_ERR_NOMEM;
    }
    ta_aliasdb_destroy(db);
    ta_ir_graph_destroy(g);
    ta_ir_ops_destroy(ops);
    ta_diags_destroy(d);
    return st;
}

/* A node added with the C API, printed. */
static ta_status build_more(ta_ir_graph *g)
{
    ta_ir_value *x = ta_ir_graph_find_value(g, "x");
    ta_ir_value *in[] = {x, x};
    ta_ir_node *n;
    if (ta_ir_append(g, ta_ir_graph_block(g), "aten::mul", in, 2, 1, &n) != TA_OK ||
        ta_ir_node_set_attr(n, "tag", "\"extra\"") != TA_OK ||
        ta_ir_graph_add_output(g, ta_ir_node_output(n, 0)) != TA_OK)
        return TA_ERR_NOMEM;
    char *text = NULL;
    ta_status st = ta_ir_print(g, &text, NULL);
    free(text);
    return st;
}

static ta_status analyse_graph(void)
{
    ta_diags *d;
    ta_ir_ops *ops = NULL;
    ta_ir_graph *g = NULL;
    ta_aliasdb *db = NULL;
    ta_status st = ta_diags_create(&d);
    if (st == TA_OK && (st = ta_ir_ops_create(&ops)) != TA_OK && ops) st = WRONG;
    if (st == TA_OK) st = ta_ir_ops_add_text(ops, graph_schemas, sizeof graph_schemas - 1, "ops", d);
    if (st == TA_OK && (st = ta_ir_graph_create(&g)) != TA_OK && g) st = WRONG;
    if (st == TA_OK) st = ta_ir_read_classes(g, graph_classes, sizeof graph_classes - 1, "classes", d);
    if (st == TA_OK) st = ta_ir_read_into(g, graph_text, sizeof graph_text - 1, "graph.ir", d);
    if (st == TA_OK && (st = ta_aliasdb_create(g, ops, &db, d)) != TA_OK && db) st = WRONG;
    if (st == TA_OK) st = ask_graph(g, db);
    if (st == TA_OK) st = write_graph(db);
    if (st == TA_OK) {
        bool moved = false;
        ta_ir_node *none = ta_ir_value_node(ta_ir_graph_find_value(g, "none"));
        ta_ir_node *to = ta_ir_value_node(ta_ir_graph_find_value(g, "t"));
        st = ta_aliasdb_move_after(db, none, to, &moved);
        if (st == TA_OK && !moved) st = WRONG;
    }
    if (st == TA_OK) st = build_more(g);
    ta_aliasdb_destroy(db);
    ta_ir_graph_destroy(g);
    ta_ir_ops_destroy(ops);
    ta_diags_destroy(d);
    return st;
}

/* A samples file, then each of its cases built against its schema. */
static ta_status load_samples(void)
{
    static const char schema[] = "mylib::f(Tensor self, Tensor? other, Tensor[] list, int[] size, Scalar alpha, "
                                 "float[] scales, Scalar[] scalars, Dimname dim, Dimname[] names, *, "
                                 "Tensor(a!) out) -> Tensor(a!)";
    static const char text[] =
        "{\"mylib::f\": [{\"self\": {\"shape\": [2, 3], \"storage\": 0, \"range\": [0, 9]},\n"
        "                \"other\": {\"shape\": [3, 2], \"strides\": [1, 3], \"storage\": 0},\n"
        "                \"list\": [{\"shape\": [2], \"dtype\": \"int64\", \"values\": [1, 0]}, {\"shape\": []}],\n"
        "                \"size\": [2, -1], \"alpha\": \"nan\", \"scales\": [0.5], \"scalars\": [1, 0.5],\n"
        "                \"dim\": \"h\", \"names\": [\"g\", \"h\"], \"out\": {\"shape\": [0]}},\n"
        "               {\"self\": {\"shape\": [4], \"dtype\": \"float16\", \"colour\": 1}}],\n"
        " \"mylib::g\": []}";
    ta_arena *a = NULL;
    ta_diags *d = NULL;
    ta_exec *x = NULL;
    ta_case *c = ta_calloc(1, sizeof *c);
    ta_samples *sm = NULL;
    ta_schema *s = NULL;
    ta_decl *decl = NULL;
    ta_status st = c ? ta_arena_create(&a) : TA_ERR_NOMEM;
    if (st == TA_OK) st = ta_diags_create(&d);
    if (st == TA_OK) st = ta_exec_create(NULL, &x);
    if (st == TA_OK) st = ta_schema_parse(a, schema, sizeof schema - 1, NULL, &s, d);
    if (st == TA_OK) st = ta_decl_build(a, s, &decl);
    if (st == TA_OK) st = ta_samples_load_buffer(text, sizeof text - 1, "s.json", &sm, d);
    if (st != TA_OK && sm) st = WRONG;
    for (size_t k = 0; st == TA_OK && k < 2; k++) {
        ta_exec_reset(x);
        st = ta_samples_build(sm, "mylib::f", k, x, s, decl, c);
    }
    ta_samples_destroy(sm);
    free(c);
    ta_exec_destroy(x);
    ta_diags_destroy(d);
    ta_arena_destroy(a);
    return st;
}

/* Functionalization: operators from text, a graph with writes through
 * views, a branch, a loop carrying a written tensor, a list, a write with no
 * counterpart; the rewrite printed. A run that succeeds must print what the
 * run without faults printed. */
static const char func_schemas[] =
    "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
    "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)\n"
    "aten::relu(Tensor self) -> Tensor\n"
    "aten::relu_(Tensor(a!) self) -> Tensor(a!)\n"
    "aten::copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor\n"
    "aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)\n"
    "aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor\n"
    "aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)\n"
    "aten::select.int(Tensor(a) self, int dim, int index) -> Tensor(a)\n"
    "aten::select_scatter(Tensor self, Tensor src, int dim, int index) -> Tensor\n"
    "aten::__getitem__.t(t[](a) list, int idx) -> t(*)\n"
    "aten::eq.int(int a, int b) -> bool\n"
    "aten::gt.int(int a, int b) -> bool\n"
    "aten::__and__.bool(bool a, bool b) -> bool\n"
    "mylib::scale_(Tensor(a!) self, float f) -> Tensor(a!)\n";

static const char func_text[] =
    "graph(%x : Tensor, %y : Tensor, %u : Tensor, %c : bool):\n"
    "  %one : int = prim::Constant[value=1]()\n"
    "  %zero : int = prim::Constant[value=0]()\n"
    "  %f : float = prim::Constant[value=2.]()\n"
    "  %t : Tensor = aten::transpose(%x, %zero, %one)\n"
    "  %r : Tensor = prim::If(%c)\n"
    "    block0():\n"
    "      %s : Tensor = aten::select(%t, %zero, %one)\n"
    "      %w : Tensor = aten::relu_(%s)\n"
    "      -> (%t)\n"
    "    block1():\n"
    "      -> (%y)\n"
    "  %l : Tensor = prim::Loop(%one, %c, %r)\n"
    "    block0(%i : int, %p : Tensor):\n"
    "      %q : Tensor = aten::add_(%p, %x, %one)\n"
    "      -> (%c, %q)\n"
    "  %list : Tensor[] = prim::ListConstruct(%l, %y)\n"
    "  %e : Tensor = aten::__getitem__(%list, %zero)\n"
    "  %k : Tensor = aten::copy_(%e, %x, %c)\n"
    "  %z : Tensor = mylib::scale_(%u, %f)\n"
    "  return (%t, %k)\n";

static ta_status functionalize_graph(void)
{
    static char *expected; /* the fault-free run's rewrite */
    ta_diags *d;
    ta_ir_ops *ops = NULL;
    ta_ir_graph *g = NULL;
    ta_functionalize_report *r = NULL;
    char *text = NULL;
    size_t len = 0;
    ta_status st = ta_diags_create(&d);
    if (st == TA_OK) st = ta_ir_ops_create(&ops);
    if (st == TA_OK) st = ta_ir_ops_add_text(ops, func_schemas, sizeof func_schemas - 1, "ops", d);
    if (st == TA_OK) st = ta_ir_read(func_text, sizeof func_text - 1, "func.ir", &g, d);
    if (st == TA_OK) st = ta_functionalize(g, ops, NULL, &r, d);
    if (st == TA_OK && !r) st = WRONG;
    if (st == TA_OK) st = ta_ir_print(g, &text, &len);
    if (st == TA_OK) { /* what is left mutating is the copy-backs and what the report lists */
        const ta_functionalize_counts *c = ta_functionalize_report_counts(r);
        if (c->mutating_after != c->copy_backs + c->kept || ta_functionalize_report_nkept(r) != c->kept) st = WRONG;
    }
    if (st == TA_OK && !expected) expected = strdup(text);
    if (st == TA_OK && (!expected || strcmp(expected, text))) st = WRONG;
    free(text);
    ta_functionalize_report_destroy(r);
    ta_ir_graph_destroy(g);
    ta_ir_ops_destroy(ops);
    ta_diags_destroy(d);
    return st;
}

/* ---- the harness -------------------------------------------------------- */

/* ---- diff ------------------------------------------------------------------- */

static const char diff_old[] = "aten::f(Tensor(a) self, Tensor(b) other) -> Tensor(a)\n"
                               "mylib::g(Tensor x, int k=1) -> Tensor\n"
                               "mylib::gone(Tensor x) -> ()\n"
                               "bad(\n";
static const char diff_new[] = "# the new version\n"
                               "aten::f(Tensor(x) self, Tensor(y) other) -> Tensor(x)\n"
                               "mylib::g(Tensor(a!) x, SymInt k=2, *, bool e=False) -> Tensor(a!)\n"
                               "mylib::new(Tensor x) -> ()\n";
static const char diff_allow[] = "mylib::gone 2999-01-01\nold 2000-01-01\n";

/* A loader's status: TA_OK or TA_ERR_PARSE as expected, the object made
 * (with TA_ERR_NOMEM, none). */
static ta_status loaded(ta_status st, const void *obj, ta_status want)
{
    if (st == TA_ERR_NOMEM) return obj ? WRONG : st;
    return st == want && obj ? TA_OK : WRONG;
}

static ta_status diff_both(const ta_diff_input *o, const ta_diff_input *n, const ta_allow_list *al,
                           size_t want, ta_diags *d)
{
    ta_diff *df = NULL;
    ta_diff_opts opts = {al};
    ta_status st = ta_diff_create(o, n, &opts, &df, d);
    if (st == TA_ERR_NOMEM && df) st = WRONG;
    if (st == TA_OK && ta_diff_count(df) != want) st = WRONG;
    ta_diff_destroy(df);
    return st;
}

static ta_status diff_lists(void)
{
    ta_diags *d = NULL;
    (void)ta_diags_create(&d);
    ta_schema_list *o = NULL, *n = NULL;
    ta_allow_list *al = NULL;
    ta_status st = d ? ta_schema_list_load_buffer(diff_old, sizeof diff_old - 1, "old.txt", &o, d) : TA_ERR_NOMEM;
    st = loaded(st, o, TA_ERR_PARSE);
    if (st == TA_OK) {
        st = ta_schema_list_load_buffer(diff_new, sizeof diff_new - 1, "new.txt", &n, d);
        st = loaded(st, n, TA_OK);
    }
    if (st == TA_OK) {
        st = ta_allow_list_load_buffer(diff_allow, sizeof diff_allow - 1, "allow", 20261128, &al, d);
        st = loaded(st, al, TA_OK);
    }
    ta_diff_input oi = {NULL, o, NULL}, ni = {NULL, n, NULL};
    if (st == TA_OK) st = diff_both(&oi, &ni, al, 4, d);
    ta_allow_list_destroy(al);
    ta_schema_list_destroy(o);
    ta_schema_list_destroy(n);
    ta_diags_destroy(d);
    return st;
}

static ta_status diff_yamls(void)
{
    static const char edited[] = "- func: abs_(Tensor(a!) self, int k=0) -> Tensor(a!)\n"
                                 "  dispatch:\n"
                                 "    CompositeExplicitAutograd: abs_\n"
                                 "  autogen: abs.out\n"
                                 "- func: view_it(Tensor self, int[] size) -> Tensor\n";
    ta_diags *d = NULL;
    (void)ta_diags_create(&d);
    ta_native_file *o = NULL, *n = NULL;
    ta_status st = d ? load(&o, d) : TA_ERR_NOMEM;
    if (st == TA_OK) {
        st = ta_native_load_buffer(edited, sizeof edited - 1, "new.yaml", NULL, 0, NULL, &n, d);
        st = loaded(st, n, TA_OK);
    }
    ta_diff_input oi = {o, NULL, NULL}, ni = {n, NULL, NULL};
    if (st == TA_OK) st = diff_both(&oi, &ni, NULL, 9, d);
    ta_native_destroy(o);
    ta_native_destroy(n);
    ta_diags_destroy(d);
    return st;
}

/* A verify session set up as the command sets one up (a yaml, a schema
 * file, a kernel library, a baseline), and the reports written from a
 * report with that baseline in every format. */
static const char *yaml_file, *baseline_file;

static int sink(void *ud, const char *bytes, size_t n)
{
    (void)bytes;
    *(size_t *)ud += n;
    return 0;
}

static ta_status set_up_session(void)
{
    const char *files[] = {schema_file}, *kernels[] = {plugin_path}, *ops[] = {"mylib::*"};
    ta_verify_config c = {.yaml = yaml_file, .schema_files = files, .nschema_files = 1, .kernels = kernels,
                          .nkernels = plugin_path ? 1 : 0, .no_default_kernels = true, .ops = ops, .nops = 1,
                          .baseline = baseline_file};
    ta_diags *d;
    ta_verify_session *s = NULL;
    ta_status st = ta_diags_create(&d);
    if (st == TA_OK) st = ta_verify_session_create(&c, &s, d);
    if (st != TA_OK && s) st = WRONG;
    if (st == TA_OK && ta_verify_session_opts(s)->batch != 1) st = WRONG;
    ta_verify_session_destroy(s);
    ta_diags_destroy(d);
    return st;
}

static ta_status write_reports(void)
{
    ta_finding f = {.kind = TA_V_UNDECLARED_MUTATION, .severity = TA_SEV_ERROR, .seed = 7};
    snprintf(f.argument, sizeof f.argument, "self");
    memset(f.message, 'x', 700); /* longer than a line is built in at once */
    ta_op_result op = {.verdict = TA_V_UNDECLARED_MUTATION, .severity = TA_SEV_ERROR, .cases = 1,
                       .exercised = 1, .findings = &f, .nfindings = 1};
    snprintf(op.op, sizeof op.op, "mylib::twice");
    ta_verify_report r = {.ops = &op, .nops = 1, .total_cases = 1};
    ta_verify_baseline *b = NULL;
    ta_status st = ta_verify_baseline_load(baseline_file, &b, NULL);
    if (st != TA_OK && b) st = WRONG;
    size_t bytes = 0;
    for (int fmt = TA_VERIFY_TEXT; st == TA_OK && fmt <= TA_VERIFY_JUNIT; fmt++) {
        ta_verify_write_opts o = {(ta_verify_format)fmt, true, b, NULL, NULL};
        st = ta_verify_report_write(&r, &o, sink, &bytes);
    }
    if (st == TA_OK && ta_verify_report_new_errors(&r, b) != 0) st = WRONG;
    ta_verify_baseline_destroy(b);
    return st;
}

/* text into a new temporary file; its path (static), or NULL. */
static const char *temp_with(char *path, const char *text, size_t n)
{
    int fd = mkstemp(path);
    if (fd < 0) return NULL;
    ssize_t w = write(fd, text, n);
    close(fd);
    return w == (ssize_t)n ? path : NULL;
}

/* Runs fn with each of its allocations failing in turn; 0 when every run
 * ended in a clean TA_ERR_NOMEM. */
static int fail_each(const char *name, ta_status (*fn)(void))
{
    ta_fault_arm(0);
    ta_status st = fn();
    long total = ta_fault_count();
    if (st != TA_OK) {
        printf("%s: fails without any fault: %s\n", name, ta_status_str(st));
        return 1;
    }
    int bad = 0;
    const char *only = getenv("TA_FAULT_ONLY"); /* "N": just allocation N (with TA_FAULT_TRACE) */
    for (long n = only ? atol(only) : 1; n <= total; n++) {
        ta_fault_arm(n);
        st = fn();
        if (!ta_fault_fired()) break; /* fewer allocations this time */
        if (only) n = total;
        if (st == TA_ERR_NOMEM) continue;
        if (bad++ < 20)
            printf("%s: allocation %ld of %ld failed, but the scenario %s\n", name, n, total,
                   st == WRONG ? "got a wrong or half-made result" : ta_status_str(st));
    }
    ta_fault_arm(0);
    printf("%s: %ld allocations, each failed in turn: %s\n", name, total,
           bad ? "NOT all clean" : "every run a clean TA_ERR_NOMEM");
    return bad != 0;
}

static const char *write_schema_file(void)
{
    static char path[] = "/tmp/ta_fault_schemas_XXXXXX";
    static const char text[] = "extra::one(Tensor self) -> Tensor\n"
                               "  CONSERVATIVE\textra::two(Tensor(a!) self) -> Tensor(a!)\n"
                               "# a comment\n";
    return temp_with(path, text, sizeof text - 1);
}

int main(int argc, char **argv)
{
    char plugin[4096];
    if (argc > 1) {
        snprintf(plugin, sizeof plugin, "%s/tests/plugins/libtwice.so", argv[1]);
        if (access(plugin, R_OK) == 0) plugin_path = plugin;
    }
    if (!(schema_file = write_schema_file())) {
        printf("cannot write a temporary schema file\n");
        return 1;
    }
    static char ypath[] = "/tmp/ta_fault_yaml_XXXXXX", bpath[] = "/tmp/ta_fault_baseline_XXXXXX";
    static const char known[] = "{\"op\":\"mylib::twice\",\"findings\":[{\"kind\":\"undeclared-mutation\","
                                "\"argument\":\"self\"}]}\n";
    yaml_file = temp_with(ypath, yaml, sizeof yaml - 1);
    baseline_file = temp_with(bpath, known, sizeof known - 1);
    if (!yaml_file || !baseline_file) {
        printf("cannot write temporary files\n");
        return 1;
    }
    int bad = fail_each("schema parse", parse_schemas);
    bad += fail_each("alias queries and graph", analyse_schema);
    bad += fail_each("extract from sources", extract_sources);
    bad += fail_each("yaml load", load_yaml);
    bad += fail_each("check of a small yaml", check_yaml);
    bad += fail_each("streaming check of a small yaml", check_yaml_stream);
    bad += fail_each("streaming torchgen check of a small yaml", stream_torchgen);
    bad += fail_each("verification set-up", set_up_verification);
    bad += fail_each("whole graph: read, analyse, query, write, move, build", analyse_graph);
    bad += fail_each("the default operator set for a graph, its classes undeclared", default_ops);
    bad += fail_each("samples load and build", load_samples);
    bad += fail_each("functionalize a graph", functionalize_graph);
    bad += fail_each("diff of two schema lists", diff_lists);
    bad += fail_each("diff of two yamls", diff_yamls);
    bad += fail_each("verify session set-up", set_up_session);
    bad += fail_each("verify reports with a baseline", write_reports);
    unlink(schema_file);
    unlink(yaml_file);
    unlink(baseline_file);
    printf("%s\n", bad ? "allocation failures are not all handled" : "all allocation failures handled");
    return bad != 0;
}
