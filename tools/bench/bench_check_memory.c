/* bench_check_memory.c - the memory of a whole `check` of one yaml: peak
 * resident size and wall time of each way to run it, each in a process of
 * its own (the peak only grows), as a multiple of the file's size and in
 * bytes per entry beyond the text:
 *   whole            ta_native_load_path, then ta_check_all (what check was)
 *   stream           ta_check_stream_path (what check runs)
 *   stream, no tg    the built-in and alias stages alone: the stream's own
 *                    parts (text, name index, window, deferred delegates)
 *                    without torchgen's stream
 * The baseline (the process before reading anything) is subtracted from
 * the per-entry figure. Prints figures only.
 *
 * usage: bench_check_memory FILE.yaml [TAGS.yaml] [WINDOW]   (WINDOW: entries
 * per window, 0 or absent for the default) */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchlib.h"
#include "tensoralias/alias.h"
#include "tensoralias/check.h"
#include "tensoralias/native.h"

typedef enum way { WHOLE, STREAM, STREAM_NO_TG, NWAYS } way;
static const char *const way_names[NWAYS] = {"whole", "stream", "stream, no tg"};

/* Peak resident size of this process so far, in bytes. */
static long peak_bytes(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss * 1024L;
}

static ta_status alias_window(void *ctx, const ta_native_file *w, ta_diags *diags)
{
    (void)ctx;
    size_t n;
    const ta_native_pass *p = ta_alias_native_passes(&n);
    return ta_native_check_with(w, p, n, diags);
}

/* Runs one way; its figures go to fd as "count peak seconds". */
static void run(way w, const char *path, const char *tags, size_t window, int fd)
{
    ta_diags *d;
    BENCH_OK(ta_diags_create(&d));
    size_t count = 0;
    double t0 = bench_now();
    if (w == WHOLE) {
        ta_native_file *f = NULL;
        ta_native_load_path(path, tags, &f, d);
        if (f) ta_check_all(f, d);
        count = ta_native_count(f);
        ta_native_destroy(f);
    } else if (w == STREAM) {
        ta_check_stream_path(path, tags, window, &count, d);
    } else {
        ta_native_stage stages[2] = {ta_native_builtin_stage(), {"alias", NULL, alias_window, NULL}};
        ta_native_check_stream_path(path, tags, stages, 2, window, &count, d);
    }
    double t = bench_now() - t0;
    dprintf(fd, "%zu %ld %f %zu\n", count, peak_bytes(), t, ta_diags_count(d));
    ta_diags_destroy(d);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_check_memory FILE.yaml [TAGS.yaml] [WINDOW]\n");
        return 2;
    }
    const char *path = argv[1], *tags = argc > 2 && argv[2][0] ? argv[2] : NULL;
    size_t window = argc > 3 ? strtoul(argv[3], NULL, 10) : 0;
    struct stat sb;
    if (stat(path, &sb)) {
        perror(path);
        return 2;
    }
    long base = peak_bytes();
    printf("%s: %.1f MB; window %zu entries\n", path, sb.st_size / 1048576.0,
           window ? window : (size_t)TA_NATIVE_WINDOW_DEFAULT);
    printf("%-15s %8s %10s %8s %10s %12s\n", "way", "time s", "peak MB", "x size", "entries",
           "B/entry+text");
    for (way w = 0; w < NWAYS; w++) {
        int p[2];
        if (pipe(p)) return 2;
        pid_t pid = fork();
        if (pid == 0) {
            close(p[0]);
            run(w, path, tags, window, p[1]);
            _exit(0);
        }
        close(p[1]);
        char buf[128] = {0};
        ssize_t n = read(p[0], buf, sizeof buf - 1);
        close(p[0]);
        waitpid(pid, NULL, 0);
        size_t count = 0, ndiags = 0;
        long peak = 0;
        double t = 0;
        if (n <= 0 || sscanf(buf, "%zu %ld %lf %zu", &count, &peak, &t, &ndiags) != 4) {
            printf("%-15s failed\n", way_names[w]);
            continue;
        }
        double per = count ? (double)(peak - base - sb.st_size) / (double)count : 0;
        printf("%-15s %8.2f %10.1f %8.2f %10zu %12.0f   (%zu diagnostics)\n", way_names[w], t,
               peak / 1048576.0, (double)peak / (double)sb.st_size, count, per, ndiags);
    }
    printf("(B/entry+text: the peak less the process before reading and the text, per entry)\n");
    return 0;
}
