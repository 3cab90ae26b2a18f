/* bench_command.c - `tensoralias check` as a whole process against a
 * process that only scans the same file with libyaml (build/bench/yaml_scan,
 * linked with libyaml alone): the design's target is at most 2x. Also
 * `check --help` (start-up alone) and an empty C program's start, for where
 * the difference goes.
 *
 * Each is run with stdout and stderr on /dev/null; the figure is the
 * child's CPU time (user + system, from wait4), best of N: other processes
 * on a shared machine count less than in wall time, which is printed too.
 *
 * usage: bench_command [ROUNDS]   (BUILD=dir picks the build, default build) */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "benchlib.h"

extern char **environ;

typedef struct timing {
    double cpu, wall; /* best of the rounds */
    int status;
} timing;

static timing run_best(char *const argv[], int rounds)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    timing best = {1e9, 1e9, -1};
    for (int r = 0; r < rounds; r++) {
        pid_t pid;
        double t0 = bench_now();
        if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
            best.status = -1;
            break;
        }
        int st = 0;
        struct rusage ru;
        wait4(pid, &st, 0, &ru);
        double wall = bench_now() - t0;
        double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
                     (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
        best.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        if (cpu < best.cpu) best.cpu = cpu;
        if (wall < best.wall) best.wall = wall;
    }
    posix_spawn_file_actions_destroy(&fa);
    return best;
}

static void line(const char *what, timing t, double base)
{
    if (t.status < 0) {
        printf("  %-34s did not run\n", what);
        return;
    }
    printf("  %-34s %7.3f ms cpu %7.3f ms wall  exit %d", what, t.cpu * 1e3, t.wall * 1e3, t.status);
    if (base > 0) printf("  %.2fx the scan", t.cpu / base);
    putchar('\n');
}

static void bench(const char *build, const char *corpus, int rounds)
{
    char yaml[512], tags[512], scan[512], cmd[512];
    snprintf(yaml, sizeof yaml, "%s/data/corpus/%s/native_functions.yaml", build, corpus);
    snprintf(tags, sizeof tags, "tests/data/corpus/%s/tags.yaml", corpus);
    snprintf(scan, sizeof scan, "%s/bench/yaml_scan", build);
    snprintf(cmd, sizeof cmd, "%s/tensoralias", build);
    char *scan_argv[] = {scan, yaml, NULL};
    char *check_argv[] = {cmd, "check", "--tags", tags, yaml, NULL};
    char *help_argv[] = {cmd, "check", "--help", NULL};
    timing s = run_best(scan_argv, rounds);
    if (s.status != 0) {
        fprintf(stderr, "bench_command: %s did not run (make bench builds it)\n", scan);
        exit(1);
    }
    printf("%s\n", corpus);
    line("yaml_scan FILE (libyaml alone)", s, 0);
    line("tensoralias check --tags T FILE", run_best(check_argv, rounds), s.cpu);
    line("tensoralias check --help", run_best(help_argv, rounds), s.cpu);
}

int main(int argc, char **argv)
{
    const char *build = getenv("BUILD");
    if (!build || !*build) build = "build";
    int rounds = argc > 1 ? atoi(argv[1]) : 30;
    if (rounds < 1) rounds = 1;
    printf("best of %d runs each (child CPU time, user + system; wall time beside it)\n", rounds);
    char *true_argv[] = {"/bin/true", NULL};
    line("/bin/true (a process start)", run_best(true_argv, rounds), 0);
    bench(build, "pytorch-1.13.1", rounds);
    bench(build, "pytorch-main", rounds);
    return 0;
}
