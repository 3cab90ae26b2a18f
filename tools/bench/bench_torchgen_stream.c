/* bench_torchgen_stream.c - the streaming torchgen check (ta_torchgen_stream_*) against
 * the pass it stands in for (ta_torchgen_check_pass on the whole loaded
 * file). Per yaml: what the stream keeps after every entry has been added
 * (its arena and tables, per entry); the memory each of the two takes at
 * its peak beyond what was resident before, each measured in a child
 * process forked from the same state (peak RSS, reset through
 * /proc/self/clear_refs, less the RSS before); the time of the adds, of finish,
 * and of the pass (best of N rounds, thread CPU time); and whether both
 * reported the same number of diagnostics. Prints figures only.
 *
 * usage: bench_torchgen_stream [ROUNDS] [YAML [TAGS]]   (default: both bundled
 * corpora, BUILD=dir picks the build) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alias/torchgen/internal.h"
#include "benchlib.h"
#include "tensoralias/native.h"
#include "tensoralias/torchgen.h"

/* A field of /proc/self/status in KiB ("VmRSS:", "VmHWM:"), or 0. */
static long status_kib(const char *field)
{
    FILE *fp = fopen("/proc/self/status", "r");
    char line[256];
    long v = 0;
    while (fp && fgets(line, sizeof line, fp))
        if (strncmp(line, field, strlen(field)) == 0) v = strtol(line + strlen(field), NULL, 10);
    if (fp) fclose(fp);
    return v;
}

/* Starts a peak measurement: resets the peak RSS; returns the RSS now. */
static long peak_start(void)
{
    FILE *fp = fopen("/proc/self/clear_refs", "w");
    if (fp) {
        fputs("5", fp);
        fclose(fp);
    }
    return status_kib("VmRSS:");
}

typedef struct figures {
    double add, finish, pass;
    size_t kept, entries, nstream, npass;
} figures;

/* The stream over f: adds, then finish; times into b (best of rounds). */
static ta_status run_stream(const ta_native_file *f, figures *b, int r)
{
    ta_diags *d;
    BENCH_OK(ta_diags_create(&d));
    ta_torchgen_stream *s = NULL;
    double t0 = bench_cpu_now();
    ta_status st = d ? ta_torchgen_stream_create(f, &s) : TA_ERR_NOMEM;
    for (size_t i = 0; st == TA_OK && i < ta_native_count(f); i++)
        st = ta_torchgen_stream_add(s, f, ta_native_get(f, i));
    double t1 = bench_cpu_now();
    b->kept = tg_stream_bytes(s);
    if (st == TA_OK) st = ta_torchgen_stream_finish(s, f, d);
    double t2 = bench_cpu_now();
    if (r == 0 || t1 - t0 < b->add) b->add = t1 - t0;
    if (r == 0 || t2 - t1 < b->finish) b->finish = t2 - t1;
    b->nstream = ta_diags_count(d);
    ta_torchgen_stream_destroy(s);
    ta_diags_destroy(d);
    return st;
}

static ta_status run_pass(const ta_native_file *f, figures *b, int r)
{
    ta_diags *d;
    BENCH_OK(ta_diags_create(&d));
    double t0 = bench_cpu_now();
    ta_status st = d ? ta_torchgen_check_pass(f, d) : TA_ERR_NOMEM;
    double t1 = bench_cpu_now();
    if (r == 0 || t1 - t0 < b->pass) b->pass = t1 - t0;
    b->npass = ta_diags_count(d);
    ta_diags_destroy(d);
    return st;
}

/* MB by which the peak RSS of run(f) exceeds the RSS before it, measured
 * in a child process; -1 when it cannot be measured. */
static double peak_mb(ta_status (*run)(const ta_native_file *, figures *, int),
                      const ta_native_file *f)
{
    int fd[2];
    if (pipe(fd) != 0) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        figures scratch = {0};
        long rss = peak_start();
        ta_status st = run(f, &scratch, 0);
        long kib = st == TA_OK ? status_kib("VmHWM:") - rss : -1024;
        if (write(fd[1], &kib, sizeof kib) != (ssize_t)sizeof kib) _exit(1);
        _exit(0);
    }
    long kib = -1024;
    if (pid < 0 || read(fd[0], &kib, sizeof kib) != (ssize_t)sizeof kib) kib = -1024;
    if (pid > 0) waitpid(pid, NULL, 0);
    close(fd[0]);
    close(fd[1]);
    return (double)kib / 1024;
}

static void bench(const char *path, const char *tags, int rounds)
{
    ta_native_file *f = NULL;
    double t0 = bench_now();
    ta_native_load_path(path, tags, &f, NULL);
    if (!f) {
        fprintf(stderr, "bench_torchgen_stream: cannot load %s\n", path);
        exit(1);
    }
    size_t len;
    ta_native_text(f, &len);
    printf("%s: %zu bytes, %zu entries (loaded in %.2f s)\n", path, len, ta_native_count(f),
           bench_now() - t0);
    figures b = {0};
    double stream_peak = peak_mb(run_stream, f), pass_peak = peak_mb(run_pass, f);
    for (int r = 0; r < rounds; r++)
        if (run_stream(f, &b, r) != TA_OK || run_pass(f, &b, r) != TA_OK) exit(1);
    b.entries = ta_native_count(f);
    double per = b.entries ? (double)b.kept / (double)b.entries : 0;
    printf("  stream keeps       %10zu bytes  %6.1f B/entry (text excluded: %.1f B/entry)\n",
           b.kept, per, b.entries ? (double)len / (double)b.entries : 0);
    printf("  stream adds        %9.2f ms\n", b.add * 1e3);
    printf("  stream finish      %9.2f ms   peak +%.1f MB (adds and finish)\n", b.finish * 1e3,
           stream_peak);
    printf("  check pass         %9.2f ms   peak +%.1f MB\n", b.pass * 1e3, pass_peak);
    printf("  finish / pass      %8.2fx   (adds + finish) / pass %.2fx\n",
           b.pass > 0 ? b.finish / b.pass : 0, b.pass > 0 ? (b.add + b.finish) / b.pass : 0);
    printf("  diagnostics        stream %zu, pass %zu%s\n", b.nstream, b.npass,
           b.nstream == b.npass ? "" : "  MISMATCH");
    ta_native_destroy(f);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (rounds < 1) rounds = 1;
    if (argc > 2) {
        bench(argv[2], argc > 3 ? argv[3] : NULL, rounds);
        return 0;
    }
    const char *build = getenv("BUILD") && *getenv("BUILD") ? getenv("BUILD") : "build";
    static const char *const corpora[] = {"pytorch-1.13.1", "pytorch-main"};
    for (int i = 0; i < 2; i++) {
        char path[512], tpath[512];
        snprintf(path, sizeof path, "%s/data/corpus/%s/native_functions.yaml", build, corpora[i]);
        snprintf(tpath, sizeof tpath, "tests/data/corpus/%s/tags.yaml", corpora[i]);
        bench(path, tpath, rounds);
    }
    return 0;
}
