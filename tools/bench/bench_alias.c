/* bench_alias.c - how fast the alias layer is over torch's 4,165 registered
 * schemas (build/data/golden/torch-1.13.1/registered-schemas.txt): parse
 * once, then time (1) building the compact query summaries and answering
 * every query (is_mutable per input, may_alias and may_contain_alias for
 * every pair of slots), and (2) building the igraph alias graphs as well.
 * Prints the figures (process CPU time, per pass); asserts nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchlib.h"
#include "tensoralias/alias.h"

/* Process CPU time: the machine is shared, so wall time says less. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const char *build = getenv("BUILD");
    char path[512];
    snprintf(path, sizeof path, "%s/data/golden/torch-1.13.1/registered-schemas.txt",
             argc > 1 ? argv[1] : build ? build : "build");
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "bench_alias: cannot open %s\n", path);
        return 1;
    }
    ta_arena *arena;
    BENCH_OK(ta_arena_create(&arena));
    ta_diags *d;
    BENCH_OK(ta_diags_create(&d));
    size_t cap = 8192, n = 0;
    ta_schema **v = malloc(cap * sizeof *v);
    char *line = NULL;
    size_t lcap = 0;
    ssize_t len;
    while ((len = getline(&line, &lcap, f)) > 0) {
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        if (!len) continue;
        ta_schema *s = NULL;
        if (ta_schema_parse(arena, line, (size_t)len, NULL, &s, d) != TA_OK) continue;
        if (n == cap) v = realloc(v, (cap *= 2) * sizeof *v);
        v[n++] = s;
    }
    free(line);
    fclose(f);

    enum { ROUNDS = 20 };
    unsigned long long answers = 0, yes = 0;
    double t0 = now();
    for (int r = 0; r < ROUNDS; r++)
        for (size_t i = 0; i < n; i++) {
            ta_alias_query *q = NULL;
            if (ta_alias_query_create(v[i], &q, d) != TA_OK) continue;
            uint32_t nin = ta_alias_query_ninputs(q), ns = nin + ta_alias_query_noutputs(q);
            for (uint32_t a = 0; a < nin; a++) yes += ta_alias_query_is_mutable_input(q, a);
            for (uint32_t a = 0; a < ns; a++)
                for (uint32_t b = a + 1; b < ns; b++) {
                    ta_slot sa = a < nin ? ta_in(a) : ta_out(a - nin);
                    ta_slot sb = b < nin ? ta_in(b) : ta_out(b - nin);
                    yes += ta_alias_query_may_alias(q, sa, sb) + ta_alias_query_may_contain_alias(q, sa, sb);
                    answers += 2;
                }
            answers += nin;
            ta_alias_query_destroy(q);
        }
    double tq = (now() - t0) / ROUNDS;

    enum { GROUNDS = 3 };
    unsigned long long vertices = 0, edges = 0;
    t0 = now();
    for (int r = 0; r < GROUNDS; r++)
        for (size_t i = 0; i < n; i++) {
            ta_alias_graph *g = NULL;
            if (ta_alias_graph_create(v[i], &g, d) != TA_OK) continue;
            vertices += ta_alias_graph_vcount(g);
            edges += ta_alias_graph_ecount(g);
            ta_alias_graph_destroy(g);
        }
    double tg = (now() - t0) / GROUNDS;

    printf("schemas: %zu\n", n);
    printf("summaries + all queries: %.2f ms per pass (%.0f schemas/s; %llu answers, %llu true, per pass %llu)\n",
           tq * 1e3, n / tq, answers / ROUNDS, yes / ROUNDS, answers / ROUNDS);
    printf("igraph alias graphs (summary included): %.2f ms per pass (%.0f graphs/s; %llu vertices, %llu edges)\n",
           tg * 1e3, n / tg, vertices / GROUNDS, edges / GROUNDS);
    free(v);
    ta_diags_destroy(d);
    ta_arena_destroy(arena);
    return 0;
}
