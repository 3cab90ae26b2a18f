/* bench_load.c - how long loading native_functions.yaml takes, against
 * libyaml's bare event scan of the same bytes in the same run. For each
 * corpus: best of N for (a) the bare scan, (b) ta_native_load_buffer (yaml,
 * typed entries, every func schema parsed, tags.yaml), (c) load + the
 * built-in checks, in thread CPU time so that other processes on a shared
 * machine count less. Then the arena size and peak RSS. Prints figures only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <yaml.h>

#include "benchlib.h"
#include "tensoralias/native.h"

enum { ROUNDS = 30 };

static void bench(const char *build, const char *corpus)
{
    char path[512], tpath[512];
    snprintf(path, sizeof path, "%s/data/corpus/%s/native_functions.yaml", build, corpus);
    snprintf(tpath, sizeof tpath, "tests/data/corpus/%s/tags.yaml", corpus);
    size_t len, tlen;
    char *text = bench_read_file(path, &len), *tags = bench_read_file(tpath, &tlen);
    if (!text || !tags) {
        fprintf(stderr, "bench_load: cannot read %s or %s (run make first)\n", path, tpath);
        exit(1);
    }
    double best_scan = 1e9, best_load = 1e9, best_check = 1e9;
    size_t events = 0, entries = 0, parsed = 0, arena = 0;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = bench_cpu_now();
        events = bench_yaml_scan(text, len);
        double t1 = bench_cpu_now();
        ta_native_file *f = NULL;
        ta_native_load_buffer(text, len, path, tags, tlen, tpath, &f, NULL);
        double t2 = bench_cpu_now();
        ta_native_check(f, NULL);
        double t3 = bench_cpu_now();
        entries = ta_native_count(f);
        parsed = 0;
        for (size_t i = 0; i < entries; i++) parsed += ta_native_get(f, i)->schema != NULL;
        arena = ta_arena_bytes(ta_native_arena(f));
        ta_native_destroy(f);
        if (t1 - t0 < best_scan) best_scan = t1 - t0;
        if (t2 - t1 < best_load) best_load = t2 - t1;
        if (t3 - t1 < best_check) best_check = t3 - t1;
    }
    printf("%s: %zu bytes, %zu yaml events, %zu entries, %zu schemas parsed\n", corpus, len,
           events, entries, parsed);
    printf("  libyaml event scan      %7.3f ms\n", best_scan * 1e3);
    printf("  load (+schemas, tags)   %7.3f ms  %.2fx the scan\n", best_load * 1e3,
           best_load / best_scan);
    printf("  load + check            %7.3f ms  %.2fx the scan\n", best_check * 1e3,
           best_check / best_scan);
    printf("  arena                   %7.1f KiB\n", (double)arena / 1024);
    free(text);
    free(tags);
}

int main(void)
{
    const char *build = getenv("BUILD");
    if (!build || !*build) build = "build";
    printf("best of %d rounds\n", ROUNDS);
    bench(build, "pytorch-1.13.1");
    bench(build, "pytorch-main");
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak RSS of this process  %ld KiB\n", ru.ru_maxrss);
    return 0;
}
