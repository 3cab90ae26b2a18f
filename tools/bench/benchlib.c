/* benchlib.c - see benchlib.h. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <yaml.h>

#include "benchlib.h"

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

size_t bench_yaml_scan(const char *text, size_t len)
{
    yaml_parser_t p;
    yaml_event_t ev;
    size_t events = 0;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    for (;;) {
        if (!yaml_parser_parse(&p, &ev)) break;
        events++;
        int end = ev.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ev);
        if (end) break;
    }
    yaml_parser_delete(&p);
    return events;
}

char *bench_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    for (size_t r; buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += r;
        if (cap - n < 2) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) free(buf);
            buf = nb;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "%s: out of memory\n", path);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}
