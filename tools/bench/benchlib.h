/* benchlib.h - what the benchmarks share (tools/bench/benchlib.c, linked into
 * every build/bench/bench_* program): a wall clock, and reading a whole file. */
#ifndef TA_BENCHLIB_H
#define TA_BENCHLIB_H

#include <stddef.h>

/* Seconds on the monotonic clock. */
double bench_now(void);

/* The whole file at path in a NUL-terminated malloc'd buffer (length in
 * *len); NULL, after perror(path), when it cannot be read. */
char *bench_read_file(const char *path, size_t *len);

#endif
