/* testdata.c - see testdata.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testdata.h"

char *ta_test_read_data(const char *rel, size_t *len)
{
    const char *build = getenv("BUILD");
    char path[4096];
    snprintf(path, sizeof path, "%s/data/%s", build && *build ? build : "build", rel);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    size_t cap = 1 << 20, n = 0;
    char *b = malloc(cap);
    while (b) {
        if (cap - n < 2) {
            char *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
        size_t r = fread(b + n, 1, cap - n - 1, f);
        if (r == 0) break;
        n += r;
    }
    fclose(f);
    if (!b) return NULL;
    b[n] = '\0';
    if (len) *len = n;
    return b;
}

char **ta_test_lines(char *buf, size_t len, size_t *nlines, size_t **lens)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) n += buf[i] == '\n';
    n += len && buf[len - 1] != '\n';
    char **v = malloc((n + 1) * sizeof *v);
    size_t *l = malloc((n + 1) * sizeof *l);
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= len && k < n; i++) {
        if (i == len || buf[i] == '\n') {
            v[k] = buf + start;
            l[k] = i - start;
            if (i < len) buf[i] = '\0';
            k++;
            start = i + 1;
        }
    }
    *nlines = k;
    if (lens) *lens = l;
    else free(l);
    return v;
}
