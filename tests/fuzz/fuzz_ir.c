/* fuzz_ir.c - libFuzzer target for the TorchScript IR reader, the printer
 * and the analysis built on what the reader accepts.
 *
 * Whatever the bytes: reading gives a graph or exactly one positioned
 * diagnostic (never a crash, never unbounded recursion); a graph read prints
 * into text that reads again and prints the same (a fixed point); the alias
 * analysis builds on it (with a small operator set, so unknown operators are
 * exercised too) and every query runs on every value and node pair of the
 * top block. The same bytes are also read as class declarations. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tensoralias/aliasdb.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static const char schemas[] =
    "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
    "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)\n"
    "aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)\n"
    "aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)\n"
    "aten::__getitem__.t(t[](a) list, int idx) -> t(*)\n"
    "aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]\n"
    "aten::cat(Tensor[] tensors, int dim=0) -> Tensor\n"
    "CONSERVATIVE\taten::backward(Tensor self, Tensor? gradient=None, bool? retain_graph=None, bool create_graph=False) -> ()\n"
    "PURE_FUNCTION\tmylib::pure(Tensor[] x) -> Tensor\n"
    "aten::batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor\n"
    "aten::format(str self, ...) -> str\n";

static ta_ir_ops *ops;

static void query_all(const ta_ir_graph *g, const ta_aliasdb *db)
{
    enum { MAX = 64 };
    const ta_ir_value *vs[MAX];
    const ta_ir_node *ns[MAX];
    size_t nv = 0, nn = 0;
    for (uint32_t i = 0; i < ta_ir_graph_ninputs(g) && nv < MAX; i++) vs[nv++] = ta_ir_graph_input(g, i);
    for (const ta_ir_node *n = ta_ir_block_first(ta_ir_graph_block(g)); n && nn < MAX; n = ta_ir_node_next(n)) {
        ns[nn++] = n;
        for (uint32_t i = 0; i < ta_ir_node_noutputs(n) && nv < MAX; i++) vs[nv++] = ta_ir_node_output(n, i);
    }
    uint32_t locs[32];
    const ta_ir_node *writers[8];
    for (size_t i = 0; i < nv; i++) {
        ta_aliasdb_has_writers(db, vs[i]);
        ta_aliasdb_writers(db, vs[i], writers, 8);
        ta_aliasdb_contained_locations(db, vs[i], locs, 32);
        ta_aliasdb_may_alias_wildcard(db, vs[i]);
        for (size_t k = 0; k < nv; k++) {
            bool a = ta_aliasdb_may_alias(db, vs[i], vs[k]);
            bool c = ta_aliasdb_may_contain_alias(db, vs[i], vs[k]);
            CHECK(!a || c); /* aliasing implies containing an alias */
        }
    }
    for (size_t i = 0; i < nn; i++)
        for (size_t k = 0; k < nn; k++) {
            ta_aliasdb_can_move_after(db, ns[i], ns[k]);
            ta_aliasdb_can_move_before(db, ns[i], ns[k]);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ops) {
        CHECK(ta_ir_ops_create(&ops) == TA_OK);
        CHECK(ta_ir_ops_add_text(ops, schemas, sizeof schemas - 1, "schemas", NULL) == TA_OK);
    }
    ta_diags *d;
    CHECK(ta_diags_create(&d) == TA_OK);
    ta_ir_graph *g = NULL;
    ta_status st = ta_ir_read((const char *)data, size, "fuzz", &g, d);
    if (st != TA_OK) {
        CHECK(!g && ta_diags_count(d) == 1 && ta_diags_get(d, 0)->line > 0);
    } else {
        char *p1 = NULL, *p2 = NULL;
        size_t l1, l2;
        CHECK(ta_ir_print(g, &p1, &l1) == TA_OK);
        ta_ir_graph *g2 = NULL;
        CHECK(ta_ir_read(p1, l1, "printed", &g2, NULL) == TA_OK);
        CHECK(ta_ir_print(g2, &p2, &l2) == TA_OK);
        CHECK(l1 == l2 && memcmp(p1, p2, l1) == 0);
        ta_aliasdb *db = NULL;
        CHECK(ta_aliasdb_create(g, ops, &db, d) == TA_OK);
        query_all(g, db);
        ta_aliasdb_destroy(db);
        free(p1);
        free(p2);
        ta_ir_graph_destroy(g2);
        ta_ir_graph_destroy(g);
    }
    ta_diags_clear(d);
    ta_ir_graph *c = NULL;
    CHECK(ta_ir_graph_create(&c) == TA_OK);
    if (ta_ir_read_classes(c, (const char *)data, size, "fuzz", d) != TA_OK) CHECK(ta_diags_count(d) >= 1);
    ta_ir_graph_destroy(c);
    ta_diags_destroy(d);
    return 0;
}
