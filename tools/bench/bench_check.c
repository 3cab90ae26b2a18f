/* bench_check.c - what `tensoralias check` costs end to end, against
 * libyaml's bare event scan of the same bytes in the same run (the design's
 * target: at most 2x the scan).
 *
 * In process, per corpus, best of N rounds in thread CPU time (other
 * processes on a shared machine count less): the bare scan; the load (yaml,
 * typed entries, every schema parsed, tags.yaml); and the full check, the
 * load plus every pass of ta_check_all (the very list the command runs,
 * src/alias/check_passes.c), with a diagnostics list as the command has;
 * and the streamed check, what the command runs (ta_check_stream_buffer:
 * the same passes a window of entries at a time, read from the text). Each
 * pass is also timed where it runs (right after a load, data cold) and
 * again at once (warm). Then the command itself, as a process: wall time
 * of `tensoralias check --tags T FILE >/dev/null` (start-up, reading the
 * file, the check, the report), next to `tensoralias check --help` (start-up
 * alone). Prints figures only.
 *
 * usage: bench_check [ROUNDS] [--no-command]   (BUILD=dir picks the build,
 * default build; --no-command skips the processes, e.g. under callgrind) */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <yaml.h>

#include "tensoralias/check.h"
#include "benchlib.h"
#include "tensoralias/native.h"

extern char **environ;

/* Best wall time of running argv with stdout and stderr on /dev/null. */
static double run_best(char *const argv[], int rounds, int *status)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", 1 /* O_WRONLY */, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", 1, 0);
    double best = 1e9;
    for (int r = 0; r < rounds; r++) {
        pid_t pid;
        double t0 = bench_now();
        if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
            best = -1;
            break;
        }
        int st = 0;
        waitpid(pid, &st, 0);
        double t = bench_now() - t0;
        *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        if (t < best) best = t;
    }
    posix_spawn_file_actions_destroy(&fa);
    return best;
}

static void bench(const char *build, const char *corpus, int rounds, int command)
{
    char path[512], tpath[512];
    snprintf(path, sizeof path, "%s/data/corpus/%s/native_functions.yaml", build, corpus);
    snprintf(tpath, sizeof tpath, "tests/data/corpus/%s/tags.yaml", corpus);
    size_t len, tlen;
    char *text = bench_read_file(path, &len), *tags = bench_read_file(tpath, &tlen);
    if (!text || !tags) {
        fprintf(stderr, "bench_check: cannot read %s or %s (run make first)\n", path, tpath);
        exit(1);
    }
    ta_native_pass passes[TA_CHECK_MAX_PASSES];
    size_t npasses = ta_check_passes(passes, TA_CHECK_MAX_PASSES);
    if (npasses > TA_CHECK_MAX_PASSES) npasses = TA_CHECK_MAX_PASSES;
    double best_scan = 1e9, best_load = 1e9, best_full = 1e9, best_stream = 1e9, best_pass[TA_CHECK_MAX_PASSES],
           best_seq[TA_CHECK_MAX_PASSES];
    for (size_t k = 0; k < npasses; k++) best_pass[k] = best_seq[k] = 1e9;
    size_t events = 0, entries = 0, ndiags = 0;
    ta_status last = TA_OK;
    for (int r = 0; r < rounds; r++) {
        double t0 = bench_cpu_now();
        events = bench_yaml_scan(text, len);
        double t1 = bench_cpu_now();
        /* as the command: a diagnostics list, the load, every pass */
        ta_diags *d;
        BENCH_OK(ta_diags_create(&d));
        ta_native_file *f = NULL;
        ta_native_load_buffer(text, len, path, tags, tlen, tpath, &f, d);
        double t2 = bench_cpu_now();
        last = f ? ta_check_all(f, d) : TA_ERR_NOMEM;
        double t3 = bench_cpu_now();
        if (t1 - t0 < best_scan) best_scan = t1 - t0;
        if (t2 - t1 < best_load) best_load = t2 - t1;
        if (t3 - t1 < best_full) best_full = t3 - t1;
        entries = ta_native_count(f);
        ndiags = ta_diags_count(d);
        ta_native_destroy(f);
        ta_diags_destroy(d);
        BENCH_OK(ta_diags_create(&d));
        size_t streamed = 0;
        double t4 = bench_cpu_now();
        ta_check_stream_buffer(text, len, path, tags, tlen, tpath, 0, &streamed, d);
        double t5 = bench_cpu_now();
        if (t5 - t4 < best_stream) best_stream = t5 - t4;
        ta_diags_destroy(d);
    }
    /* Then the passes one by one: each timed where it runs, right after a
     * load (cold data), and again at once (warm). A loop of its own, so
     * that the rounds above all see the same heap. */
    for (int r = 0; r < rounds; r++) {
        ta_diags *d;
        BENCH_OK(ta_diags_create(&d));
        ta_native_file *f = NULL;
        ta_native_load_buffer(text, len, path, tags, tlen, tpath, &f, d);
        for (size_t k = 0; f && k < npasses; k++) {
            double p0 = bench_cpu_now();
            passes[k].run(f, d);
            double p1 = bench_cpu_now();
            if (p1 - p0 < best_seq[k]) best_seq[k] = p1 - p0;
        }
        for (size_t k = 0; f && k < npasses; k++) {
            ta_diags *pd;
            BENCH_OK(ta_diags_create(&pd));
            double p0 = bench_cpu_now();
            passes[k].run(f, pd);
            double p1 = bench_cpu_now();
            if (p1 - p0 < best_pass[k]) best_pass[k] = p1 - p0;
            ta_diags_destroy(pd);
        }
        ta_native_destroy(f);
        ta_diags_destroy(d);
    }
    printf("%s: %zu bytes, %zu yaml events, %zu entries, %zu diagnostics (%s)\n", corpus, len,
           events, entries, ndiags, ta_status_str(last));
    printf("  libyaml event scan          %7.3f ms\n", best_scan * 1e3);
    printf("  load (+schemas, tags)       %7.3f ms  %.2fx the scan\n", best_load * 1e3,
           best_load / best_scan);
    printf("  full check (load + passes)  %7.3f ms  %.2fx the scan\n", best_full * 1e3,
           best_full / best_scan);
    printf("  streamed check (the command) %6.3f ms  %.2fx the scan\n", best_stream * 1e3,
           best_stream / best_scan);
    printf("    pass (after the load; again, warm)\n");
    for (size_t k = 0; k < npasses; k++)
        printf("    %-26s %7.3f ms  %7.3f ms\n", passes[k].name, best_seq[k] * 1e3,
               best_pass[k] * 1e3);

    if (!command) {
        free(text);
        free(tags);
        return;
    }
    /* the command, as a process */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s/tensoralias", build);
    char *check[] = {cmd, "check", "--tags", tpath, path, NULL};
    char *help[] = {cmd, "check", "--help", NULL};
    int st_check = 0, st_help = 0;
    int prounds = rounds < 10 ? rounds : 10;
    double w_check = run_best(check, prounds, &st_check);
    double w_help = run_best(help, prounds, &st_help);
    if (w_check < 0 || w_help < 0) {
        printf("  (cannot run %s)\n", cmd);
    } else {
        printf("  command wall time           %7.3f ms  (exit %d; best of %d)\n", w_check * 1e3,
               st_check, prounds);
        printf("  command start-up alone      %7.3f ms  (check --help)\n", w_help * 1e3);
    }
    free(text);
    free(tags);
}

int main(int argc, char **argv)
{
    const char *build = getenv("BUILD");
    if (!build || !*build) build = "build";
    int rounds = 30, command = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--no-command")) command = 0;
        else rounds = atoi(argv[i]);
    }
    if (rounds < 1) rounds = 1;
    printf("best of %d rounds (thread CPU time; the command: wall time)\n", rounds);
    bench(build, "pytorch-1.13.1", rounds, command);
    bench(build, "pytorch-main", rounds, command);
    return 0;
}
