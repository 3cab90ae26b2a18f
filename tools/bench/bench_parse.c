/* bench_parse.c - schema parsing throughput.
 *
 *   bench_parse [FILE] [RUNS]
 *
 * Parses every line of FILE (default: the 4,165 schemas torch 1.13.1
 * registers) RUNS times (default 20) into one arena that is reset per pass,
 * and prints the best pass as schemas per second and MB/s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensoralias/schema.h"

#include "benchlib.h"

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "build/data/golden/torch-1.13.1/registered-schemas.txt";
    int runs = argc > 2 ? atoi(argv[2]) : 20;
    if (runs < 1) runs = 1;
    size_t len = 0;
    char *buf = bench_read_file(path, &len);
    if (!buf) return 2;
    /* Line starts and lengths, found once. */
    size_t n = 0, *off = malloc((len + 1) * sizeof *off), *ln = malloc((len + 1) * sizeof *ln);
    for (size_t i = 0, s = 0; i < len; i++)
        if (buf[i] == '\n') {
            off[n] = s;
            ln[n++] = i - s;
            s = i + 1;
        }
    ta_arena *a;
    BENCH_OK(ta_arena_create(&a));
    ta_diags *d;
    BENCH_OK(ta_diags_create(&d));
    double best = 1e30;
    size_t failures = 0;
    for (int r = 0; r < runs; r++) {
        double t0 = bench_now();
        for (size_t i = 0; i < n; i++) {
            ta_schema *s;
            if (ta_schema_parse(a, buf + off[i], ln[i], NULL, &s, d) != TA_OK) failures++;
            /* Reset now and then, as a long-running caller would. */
            if ((i & 255) == 255) ta_arena_reset(a);
        }
        double t = bench_now() - t0;
        if (t < best) best = t;
        ta_arena_reset(a);
    }
    printf("bench_parse: %zu schemas (%zu bytes) from %s, best of %d runs: %.3f ms\n", n, len,
           path, runs, best * 1e3);
    printf("bench_parse: %.0f schemas/s, %.1f MB/s%s\n", (double)n / best,
           (double)len / best / 1e6, failures ? " (some schemas failed to parse)" : "");
    ta_arena_destroy(a);
    ta_diags_destroy(d);
    free(off);
    free(ln);
    free(buf);
    return failures ? 1 : 0;
}
