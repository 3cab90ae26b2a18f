/* testdata.c - see testdata.h. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>
#include <unistd.h>

#include "testdata.h"

size_t ta_test_each_file(const char *dir, const char *suffix,
                         void (*fn)(const char *path, void *ctx), void *ctx)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "cannot open %s\n", dir);
        return 0;
    }
    size_t n = 0, sl = strlen(suffix);
    for (struct dirent *e; (e = readdir(d));) {
        size_t nl = strlen(e->d_name);
        if (e->d_name[0] == '.' || nl < sl || strcmp(e->d_name + nl - sl, suffix)) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        fn(path, ctx);
        n++;
    }
    closedir(d);
    return n;
}

char *ta_test_temp_file(char *path, const char *text)
{
    size_t n = strlen(text);
    int fd = mkstemp(path);
    bool ok = fd >= 0 && write(fd, text, n) == (ssize_t)n;
    if (fd >= 0) close(fd);
    if (!ok) fprintf(stderr, "cannot write a temporary file %s\n", path);
    return ok ? path : NULL;
}

const char *ta_test_build_dir(void)
{
    const char *build = getenv("BUILD");
    return build && *build ? build : "build";
}

char *ta_test_data_path(char *buf, size_t cap, const char *rel)
{
    snprintf(buf, cap, "%s/data/%s", ta_test_build_dir(), rel);
    return buf;
}

char *ta_test_read_file(const char *path, size_t *len)
{
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
    bool failed = ferror(f);
    fclose(f);
    if (!b || failed) {
        fprintf(stderr, "cannot read %s\n", path);
        free(b);
        return NULL;
    }
    b[n] = '\0';
    if (len) *len = n;
    return b;
}

char *ta_test_read_data(const char *rel, size_t *len)
{
    char path[4096];
    return ta_test_read_file(ta_test_data_path(path, sizeof path, rel), len);
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

json_t **ta_test_read_jsonl(const char *rel, size_t *n)
{
    size_t len = 0, nlines = 0;
    char *buf = ta_test_read_data(rel, &len);
    if (!buf) return NULL;
    char **lines = ta_test_lines(buf, len, &nlines, NULL);
    json_t **rows = malloc((nlines + 1) * sizeof *rows);
    size_t k = 0;
    for (; k < nlines; k++) {
        json_error_t err;
        if (!(rows[k] = json_loads(lines[k], 0, &err))) {
            fprintf(stderr, "%s line %zu: %s\n", rel, k + 1, err.text);
            ta_test_free_jsonl(rows, k);
            rows = NULL;
            break;
        }
    }
    free(lines);
    free(buf);
    if (rows) *n = k;
    return rows;
}

void ta_test_free_jsonl(json_t **rows, size_t n)
{
    for (size_t i = 0; rows && i < n; i++) json_decref(rows[i]);
    free(rows);
}

ta_status ta_test_load_corpus(const char *version, ta_native_file **out, ta_diags *d)
{
    char yaml[512], tags[512];
    snprintf(yaml, sizeof yaml, "%s/data/corpus/%s/native_functions.yaml", ta_test_build_dir(), version);
    snprintf(tags, sizeof tags, "tests/data/corpus/%s/tags.yaml", version);
    return ta_native_load_path(yaml, tags, out, d);
}
