/* bench_diff.c - how long `diff` takes on the two bundled yamls (PyTorch
 * 1.13.1 and main: 2,493 and 2,675 entries): best of N, in thread CPU time,
 * for (a) loading both files, (b) the diff itself (torchgen's derivation on
 * both sides, matching, torch's verdicts and the classification of every
 * changed overload, the diagnostics), and the whole (a + b); then the same
 * whole for the command as a process (its wall time, the bundled 1.13.1
 * yaml against main, JSON out). Prints figures only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchlib.h"
#include "tensoralias/diff.h"

enum { ROUNDS = 20 };

static ta_native_file *load(const char *build, const char *corpus, const char *text, size_t len)
{
    char name[512];
    snprintf(name, sizeof name, "%s/data/corpus/%s/native_functions.yaml", build, corpus);
    ta_native_file *f = NULL;
    ta_native_load_buffer(text, len, name, NULL, 0, NULL, &f, NULL);
    return f;
}

static char *read_corpus(const char *build, const char *corpus, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/data/corpus/%s/native_functions.yaml", build, corpus);
    char *t = bench_read_file(path, len);
    if (!t) {
        fprintf(stderr, "bench_diff: cannot read %s (run make first)\n", path);
        exit(1);
    }
    return t;
}

/* The command, as a user runs it: wall seconds of one run (best of n). */
static double command(const char *build, int n)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "%s/tensoralias diff --format json %s/data/corpus/pytorch-1.13.1/native_functions.yaml "
             "%s/data/corpus/pytorch-main/native_functions.yaml > /dev/null",
             build, build, build);
    double best = 1e9;
    for (int r = 0; r < n; r++) {
        double t0 = bench_now();
        if (system(cmd) == -1) return -1;
        double t = bench_now() - t0;
        if (t < best) best = t;
    }
    return best;
}

int main(void)
{
    const char *build = getenv("BUILD");
    if (!build || !*build) build = "build";
    size_t lo, ln;
    char *to = read_corpus(build, "pytorch-1.13.1", &lo), *tn = read_corpus(build, "pytorch-main", &ln);
    double best_load = 1e9, best_diff = 1e9, best_all = 1e9;
    ta_diff_summary s = {0};
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = bench_cpu_now();
        ta_native_file *o = load(build, "pytorch-1.13.1", to, lo), *n = load(build, "pytorch-main", tn, ln);
        double t1 = bench_cpu_now();
        ta_diags *d = NULL;
        (void)ta_diags_create(&d);
        ta_diff_input oi = {o, NULL, NULL}, ni = {n, NULL, NULL};
        ta_diff *df = NULL;
        ta_diff_create(&oi, &ni, NULL, &df, d);
        double t2 = bench_cpu_now();
        ta_diff_summarize(df, &s);
        ta_diff_destroy(df);
        ta_diags_destroy(d);
        ta_native_destroy(o);
        ta_native_destroy(n);
        if (t1 - t0 < best_load) best_load = t1 - t0;
        if (t2 - t1 < best_diff) best_diff = t2 - t1;
        if (t2 - t0 < best_all) best_all = t2 - t0;
    }
    printf("pytorch-1.13.1 (%zu bytes) -> pytorch-main (%zu bytes): %zu and %zu overloads "
           "(autogen's included), %zu changed, %zu added, %zu removed\n",
           lo, ln, s.old_ops, s.new_ops, s.changed, s.added, s.removed);
    printf("best of %d rounds, thread CPU time\n", ROUNDS);
    printf("  load both yamls          %7.2f ms\n", best_load * 1e3);
    printf("  diff (derive, match, judge, classify, report) %7.2f ms\n", best_diff * 1e3);
    printf("  both files of the pair   %7.2f ms\n", best_all * 1e3);
    double cmd = command(build, 5);
    if (cmd >= 0) printf("  the command, --format json, wall time (best of 5) %7.2f ms\n", cmd * 1e3);
    free(to);
    free(tn);
    return 0;
}
