/* bench_func.c - how fast functionalization is, on the straight-line graphs
 * of build/data/golden/aliasdb-1.13.1/speed/ (1,000, 10,000 and 50,000
 * nodes: add, add_, transpose, mul, relu_ over recent values, so about a
 * third of the nodes write, many through transposes), next to the
 * whole-graph alias analysis of the same graph.
 *
 * Times, best of several runs in this thread's CPU time, each on a graph
 * freshly read (reading not timed): building the alias analysis
 * (ta_aliasdb_create) and functionalizing (ta_functionalize: planning,
 * rewriting, copy-backs, removing dead nodes; operator resolution
 * included). Prints the figures, the pass's counts and functionalize's
 * time as a multiple of the analysis's (the target: at most 3x); asserts
 * nothing.
 *
 * Usage: bench_func [BUILD]   (default $BUILD or "build") */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchlib.h"
#include "tensoralias/aliasdb.h"
#include "tensoralias/functionalize.h"

static const char *const files[] = {"aliasdb_1000", "aliasdb_10000", "aliasdb_50000"};
enum { RUNS = 5 };

static ta_ir_graph *read_graph(const char *text, size_t len)
{
    ta_ir_graph *g = NULL;
    ta_diags *d;
    BENCH_OK(ta_diags_create(&d));
    if (ta_ir_read(text, len, "speed.ir", &g, d) != TA_OK) g = NULL;
    ta_diags_destroy(d);
    return g;
}

static uint32_t count_nodes(const ta_ir_graph *g)
{
    uint32_t n = 0;
    for (const ta_ir_node *x = ta_ir_block_first(ta_ir_graph_block(g)); x; x = ta_ir_node_next(x)) n++;
    return n;
}

/* Best CPU seconds of RUNS analyses and RUNS functionalizations; the last
 * report's counts into *c. */
static int measure(const char *text, size_t len, const ta_ir_ops *ops, double *analysis, double *func,
                   ta_functionalize_counts *c, uint32_t *nodes)
{
    *analysis = *func = 1e9;
    for (int r = 0; r < RUNS; r++) {
        ta_ir_graph *g = read_graph(text, len);
        if (!g) return -1;
        *nodes = count_nodes(g);
        ta_aliasdb *db = NULL;
        double t0 = bench_cpu_now();
        ta_status st = ta_aliasdb_create(g, ops, &db, NULL);
        double t1 = bench_cpu_now();
        ta_aliasdb_destroy(db);
        if (st != TA_OK) return -1;
        if (t1 - t0 < *analysis) *analysis = t1 - t0;
        ta_functionalize_report *rep = NULL;
        t0 = bench_cpu_now();
        st = ta_functionalize(g, ops, NULL, &rep, NULL);
        t1 = bench_cpu_now();
        if (st != TA_OK) return -1;
        if (t1 - t0 < *func) *func = t1 - t0;
        *c = *ta_functionalize_report_counts(rep);
        ta_functionalize_report_destroy(rep);
        ta_ir_graph_destroy(g);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *build = argc > 1 ? argv[1] : getenv("BUILD");
    if (!build || !*build) build = "build";
    ta_ir_ops *ops = bench_load_ir_ops(build);
    if (!ops) return 1;
    printf("%-15s %7s %9s %9s %12s %14s %9s %11s\n", "graph", "nodes", "writes", "left", "analysis ms",
           "functionalize", "ns/node", "x analysis");
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        size_t len;
        snprintf(path, sizeof path, "%s/data/golden/aliasdb-1.13.1/speed/%s.ir", build, files[i]);
        char *text = bench_read_file(path, &len);
        if (!text) return 1;
        double a, f;
        ta_functionalize_counts c;
        uint32_t nodes = 0;
        if (measure(text, len, ops, &a, &f, &c, &nodes)) {
            fprintf(stderr, "bench_func: %s could not be read or analysed\n", path);
            return 1;
        }
        printf("%-15s %7u %9u %9u %12.2f %11.2f ms %9.0f %10.1fx\n", files[i], nodes, c.mutating_before,
               c.mutating_after, a * 1e3, f * 1e3, f * 1e9 / nodes, f / a);
        free(text);
    }
    printf("(left: the copy-backs of written graph inputs; best of %d runs, CPU time; target: <= 3x analysis)\n", RUNS);
    ta_ir_ops_destroy(ops);
    return 0;
}
