/* benchlib.h - what the benchmarks share (tools/bench/benchlib.c, linked into
 * every build/bench/bench_* program): clocks, reading a whole file, a check
 * of calls that cannot fail, and the
 * bare libyaml event scan that loading is measured against, and the operator
 * set the whole-graph benchmarks resolve against. */
#ifndef TA_BENCHLIB_H
#define TA_BENCHLIB_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "tensoralias/ir.h"

/* Ends the benchmark when a library call fails that has no reason to (a
 * constructor, out of memory): there is nothing left to measure. */
#define BENCH_OK(call) bench_ok((call), #call)
static inline void bench_ok(ta_status st, const char *what)
{
    if (st == TA_OK) return;
    fprintf(stderr, "bench: %s: %s\n", what, ta_status_str(st));
    exit(1);
}

/* Seconds on the monotonic clock. */
double bench_now(void);

/* Seconds of this thread's CPU time: other processes on a shared machine
 * do not count. */
double bench_cpu_now(void);

/* Parses text with libyaml's event API and does nothing else: the floor any
 * yaml loader is compared with. Returns the number of events. */
size_t bench_yaml_scan(const char *text, size_t len);

/* The whole file at path in a NUL-terminated malloc'd buffer (length in
 * *len); NULL, after perror(path), when it cannot be read. */
char *bench_read_file(const char *path, size_t *len);

/* torch 1.13.1's registered operators, as the build installs them under
 * BUILD/share/tensoralias; NULL, after printing why, when they cannot be read. */
ta_ir_ops *bench_load_ir_ops(const char *build);

#endif
