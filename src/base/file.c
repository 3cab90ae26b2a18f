/* file.c - reading a whole file (see file.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/file.h"

/* The "io" error for an input past TA_MAX_INPUT_BYTES. */
static ta_status too_large(const char *path, ta_diags *diags)
{
    ta_loc at = {.file = path};
    ta_status st = ta_diag_error(diags, &at, "io", "cannot read %s: larger than %zu MiB, the most the loader reads",
                                 path, TA_MAX_INPUT_BYTES >> 20);
    return st == TA_OK ? TA_ERR_IO : st;
}

ta_status ta_read_file(const char *path, char **buf, size_t *len, ta_diags *diags)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) goto fail;
    /* Room for the whole file at once when its size is known (a regular
     * file), so it is read without growing and copying the buffer. */
    struct stat sb;
    size_t cap = 1 << 16, n = 0;
    if (fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
        (uintmax_t)sb.st_size < SIZE_MAX / 2)
        cap = (size_t)sb.st_size + 1;
    if (cap > TA_MAX_INPUT_BYTES + 1) cap = TA_MAX_INPUT_BYTES + 1;
    char *b = ta_malloc(cap);
    for (;;) {
        if (!b) {
            fclose(fp);
            return TA_ERR_NOMEM;
        }
        n += fread(b + n, 1, cap - n, fp);
        if (n < cap || n > TA_MAX_INPUT_BYTES) break;
        size_t grown = cap * 2 > TA_MAX_INPUT_BYTES + 1 ? TA_MAX_INPUT_BYTES + 1 : cap * 2;
        char *nb = ta_realloc(b, grown);
        if (!nb) free(b);
        b = nb;
        cap = grown;
    }
    bool bad = ferror(fp);
    fclose(fp);
    if (bad || n > TA_MAX_INPUT_BYTES) {
        free(b);
        if (!bad) return too_large(path, diags);
        goto fail;
    }
    b[n] = '\0'; /* n < cap */
    *buf = b;
    *len = n;
    return TA_OK;
fail:;
    ta_loc at = {.file = path};
    ta_status st = ta_diag_error(diags, &at, "io", "cannot read %s: %s", path, strerror(errno));
    return st == TA_OK ? TA_ERR_IO : st;
}
