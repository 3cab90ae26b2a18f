/* bench_aliasdb.c - how fast the whole-graph analysis is, on the straight-
 * line graphs of build/data/golden/aliasdb-1.13.1/speed/ (1,000, 10,000 and
 * 50,000 nodes: add, add_, transpose, mul, relu_ over recent values), next
 * to what torch 1.13.1 takes to build its AliasDb on the same graphs on this
 * kind of machine (the ground truth's README: ~1.2, ~28.7 and ~155 ms).
 *
 * Times, best of several runs in this thread's CPU time: reading the IR
 * text; building the analysis of the graph read (operator resolution
 * included: nothing is cached in the graph); and queries per second:
 * may_alias on random pairs of values of the whole graph and on pairs
 * within 64 values of each other (what a pass walking the graph asks),
 * may_contain_alias and has_writers. Prints the figures; asserts nothing.
 *
 * Usage: bench_aliasdb [BUILD]   (default $BUILD or "build") */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchlib.h"
#include "tensoralias/aliasdb.h"

typedef struct graph_file {
    const char *name;
    double torch_ms; /* torch 1.13.1's AliasDb build, as the ground truth's README gives it */
} graph_file;

static const graph_file files[] = {
    {"aliasdb_1000", 1.2},
    {"aliasdb_10000", 28.7},
    {"aliasdb_50000", 155.0},
};

/* Every value of the top block, in order. */
static const ta_ir_value **values_of(const ta_ir_graph *g, size_t *n)
{
    size_t cap = ta_ir_graph_value_capacity(g) + 1, k = 0;
    const ta_ir_value **v = malloc(cap * sizeof *v);
    for (uint32_t i = 0; v && i < ta_ir_graph_ninputs(g); i++) v[k++] = ta_ir_graph_input(g, i);
    for (const ta_ir_node *x = ta_ir_block_first(ta_ir_graph_block(g)); v && x; x = ta_ir_node_next(x))
        for (uint32_t i = 0; i < ta_ir_node_noutputs(x); i++) v[k++] = ta_ir_node_output(x, i);
    *n = k;
    return v;
}

static uint64_t rng_state = 88172645463325252ull;

static uint32_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

/* Pairs of value indices: random over the graph, or within a window. */
static uint32_t *make_pairs(size_t nvalues, size_t npairs, uint32_t window)
{
    uint32_t *p = malloc(2 * npairs * sizeof *p);
    for (size_t i = 0; p && i < npairs; i++) {
        uint32_t a = next_random() % (uint32_t)nvalues;
        uint32_t b = window ? a + next_random() % window : next_random() % (uint32_t)nvalues;
        p[2 * i] = a;
        p[2 * i + 1] = b < nvalues ? b : (uint32_t)(nvalues - 1);
    }
    return p;
}

typedef enum query_kind { Q_MAY_ALIAS, Q_MAY_CONTAIN, Q_HAS_WRITERS } query_kind;

/* Millions of queries per second (best of 3 passes over the pairs). */
static double query_rate(const ta_aliasdb *db, const ta_ir_value **v, const uint32_t *pairs, size_t npairs,
                         query_kind kind, size_t *yes)
{
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        size_t k = 0;
        double t0 = bench_cpu_now();
        for (size_t i = 0; i < npairs; i++) {
            const ta_ir_value *a = v[pairs[2 * i]], *b = v[pairs[2 * i + 1]];
            k += kind == Q_MAY_ALIAS     ? ta_aliasdb_may_alias(db, a, b)
                 : kind == Q_MAY_CONTAIN ? ta_aliasdb_may_contain_alias(db, a, b)
                                         : ta_aliasdb_has_writers(db, a);
        }
        double t = bench_cpu_now() - t0;
        if (t < best) best = t;
        *yes = k;
    }
    return npairs / best / 1e6;
}

static int bench_file(const char *build, const graph_file *gf, const ta_ir_ops *ops)
{
    char path[512];
    snprintf(path, sizeof path, "%s/data/golden/aliasdb-1.13.1/speed/%s.ir", build, gf->name);
    size_t len;
    char *text = bench_read_file(path, &len);
    if (!text) return 1;
    enum { RUNS = 7 };
    double best_read = 1e30, best_build = 1e30;
    ta_ir_graph *g = NULL;
    ta_aliasdb *db = NULL;
    for (int r = 0; r < RUNS; r++) {
        ta_ir_graph_destroy(g);
        g = NULL;
        double t0 = bench_cpu_now();
        if (ta_ir_read(text, len, path, &g, NULL) != TA_OK) {
            fprintf(stderr, "bench_aliasdb: cannot read %s\n", path);
            free(text);
            return 1;
        }
        double t1 = bench_cpu_now();
        ta_aliasdb_destroy(db);
        db = NULL;
        if (ta_aliasdb_create(g, ops, &db, NULL) != TA_OK) {
            fprintf(stderr, "bench_aliasdb: analysis failed\n");
            free(text);
            return 1;
        }
        double t2 = bench_cpu_now();
        if (t1 - t0 < best_read) best_read = t1 - t0;
        if (t2 - t1 < best_build) best_build = t2 - t1;
    }
    uint32_t nodes = 0;
    for (const ta_ir_node *x = ta_ir_block_first(ta_ir_graph_block(g)); x; x = ta_ir_node_next(x)) nodes++;
    printf("%-14s %6u nodes  read %7.2f ms (%5.1f MB/s)  build %7.2f ms (%.0f ns/node)  torch %6.1f ms: %5.1fx\n",
           gf->name, nodes, best_read * 1e3, len / best_read / 1e6, best_build * 1e3, best_build * 1e9 / nodes,
           gf->torch_ms, gf->torch_ms / (best_build * 1e3));

    size_t nv, yes;
    const ta_ir_value **v = values_of(g, &nv);
    enum { NPAIRS = 4000000 };
    uint32_t *random = make_pairs(nv, NPAIRS, 0), *local = make_pairs(nv, NPAIRS, 64);
    double r_random = query_rate(db, v, random, NPAIRS, Q_MAY_ALIAS, &yes);
    size_t yes_local;
    double r_local = query_rate(db, v, local, NPAIRS, Q_MAY_ALIAS, &yes_local);
    size_t yes_contain, yes_writers;
    double r_contain = query_rate(db, v, local, NPAIRS / 4, Q_MAY_CONTAIN, &yes_contain);
    double r_writers = query_rate(db, v, random, NPAIRS, Q_HAS_WRITERS, &yes_writers);
    printf("%14s may_alias %5.1f M/s random (%zu yes), %5.1f M/s within 64 (%zu yes); "
           "may_contain_alias %5.1f M/s; has_writers %5.1f M/s\n",
           "", r_random, yes, r_local, yes_local, r_contain, r_writers);
    free(random);
    free(local);
    free(v);
    ta_aliasdb_destroy(db);
    ta_ir_graph_destroy(g);
    free(text);
    return 0;
}

int main(int argc, char **argv)
{
    const char *env = getenv("BUILD");
    const char *build = argc > 1 ? argv[1] : env && *env ? env : "build";
    ta_ir_ops *ops = bench_load_ir_ops(build);
    if (!ops) return 1;
    int rc = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) rc |= bench_file(build, &files[i], ops);
    ta_ir_ops_destroy(ops);
    return rc;
}
