/* fuzz_func.c - libFuzzer target for functionalization, on whatever graph
 * the IR reader accepts.
 *
 * The pass never fails but for memory; what it leaves mutating is exactly
 * its copy-backs and the nodes it reports kept; its rewrite prints into text
 * that reads again (every value defined before use) with as many mutating
 * nodes; and it runs the same with --no-copy-back, leaving only the kept
 * ones. The operator set is small, with a writing operator that has no
 * counterpart, so both paths are exercised. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tensoralias/functionalize.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static const char schemas[] =
    "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
    "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)\n"
    "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)\n"
    "aten::mul.Tensor(Tensor self, Tensor other) -> Tensor\n"
    "aten::mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)\n"
    "aten::relu(Tensor self) -> Tensor\n"
    "aten::relu_(Tensor(a!) self) -> Tensor(a!)\n"
    "aten::copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor\n"
    "aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)\n"
    "aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor\n"
    "aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)\n"
    "aten::select.int(Tensor(a) self, int dim, int index) -> Tensor(a)\n"
    "aten::select_scatter(Tensor self, Tensor src, int dim, int index) -> Tensor\n"
    "aten::unsqueeze(Tensor(a) self, int dim) -> Tensor(a)\n"
    "aten::squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)\n"
    "aten::__getitem__.t(t[](a) list, int idx) -> t(*)\n"
    "aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)\n"
    "aten::eq.int(int a, int b) -> bool\n"
    "aten::gt.int(int a, int b) -> bool\n"
    "aten::__and__.bool(bool a, bool b) -> bool\n"
    "mylib::scale_(Tensor(a!) self, float f) -> Tensor(a!)\n"
    "CONSERVATIVE\tmylib::opaque(Tensor self) -> Tensor\n";

static ta_ir_ops *ops;

static void run(const uint8_t *data, size_t size, bool no_copy_back)
{
    ta_ir_graph *g = NULL;
    if (ta_ir_read((const char *)data, size, "fuzz", &g, NULL) != TA_OK) return;
    ta_functionalize_opts o = {.no_copy_back = no_copy_back};
    ta_functionalize_report *r = NULL;
    CHECK(ta_functionalize(g, ops, &o, &r, NULL) == TA_OK);
    const ta_functionalize_counts *c = ta_functionalize_report_counts(r);
    CHECK(c->mutating_after == c->copy_backs + c->kept);
    CHECK(!no_copy_back || c->copy_backs == 0);
    CHECK(ta_functionalize_report_nkept(r) == c->kept);
    CHECK(ta_functionalize_count_mutating(g, ops) == c->mutating_after);
    char *text = NULL;
    size_t len;
    CHECK(ta_ir_print(g, &text, &len) == TA_OK);
    ta_ir_graph *again = NULL;
    CHECK(ta_ir_read(text, len, "rewritten", &again, NULL) == TA_OK);
    CHECK(ta_functionalize_count_mutating(again, ops) == c->mutating_after);
    ta_ir_graph_destroy(again);
    free(text);
    ta_functionalize_report_destroy(r);
    ta_ir_graph_destroy(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ops) {
        CHECK(ta_ir_ops_create(&ops) == TA_OK);
        CHECK(ta_ir_ops_add_text(ops, schemas, sizeof schemas - 1, "schemas", NULL) == TA_OK);
    }
    run(data, size, false);
    run(data, size, true);
    return 0;
}
