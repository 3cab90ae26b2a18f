/* file.c - reading a whole file (see file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/file.h"

/* Room for `need` bytes in *buf. */
static int reserve(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap) return 0;
    char *b = ta_realloc(*buf, need);
    if (!b) return ENOMEM;
    *buf = b;
    *cap = need;
    return 0;
}

/* The first size to read into: the whole file at once when its size is
 * known (a regular file), so it is read without growing and copying the
 * buffer; never more than the limit allows. */
static size_t first_size(const struct stat *sb, size_t limit)
{
    size_t want = 1 << 16;
    if (S_ISREG(sb->st_mode) && sb->st_size > 0 && (uintmax_t)sb->st_size < SIZE_MAX / 2)
        want = (size_t)sb->st_size + 1;
    if (limit && want > limit + 2) want = limit + 2;
    return want;
}

static int read_fd(int fd, const struct stat *sb, size_t limit, char **buf, size_t *cap, size_t *len)
{
    size_t n = 0;
    int err = reserve(buf, cap, first_size(sb, limit));
    while (!err) {
        if (*cap - n < 2) { /* room for one byte past the limit and the NUL, at most */
            size_t grown = *cap * 2;
            if (limit && grown > limit + 2) grown = limit + 2;
            if ((err = reserve(buf, cap, grown))) break;
        }
        ssize_t r = read(fd, *buf + n, *cap - n - 1);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return errno;
        if (r == 0) break;
        n += (size_t)r;
        if (limit && n > limit) return EFBIG; /* an endless stream stops here too */
    }
    if (err) return err;
    (*buf)[n] = '\0';
    *len = n;
    return 0;
}

int ta_file_read(const char *path, const ta_file_rules *rules, char **buf, size_t *cap, size_t *len)
{
    bool in = rules->dash_stdin && !strcmp(path, "-");
    int fd = in ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    struct stat sb;
    int err = fstat(fd, &sb) ? errno : 0;
    if (!err && rules->regular_only && !S_ISREG(sb.st_mode)) err = S_ISDIR(sb.st_mode) ? EISDIR : EINVAL;
    if (!err) err = read_fd(fd, &sb, rules->max_bytes, buf, cap, len);
    if (!in) close(fd);
    return err;
}

ta_status ta_read_file(const char *path, char **buf, size_t *len, ta_diags *diags)
{
    ta_file_rules rules = {.max_bytes = TA_MAX_INPUT_BYTES};
    char *b = NULL;
    size_t cap = 0;
    int err = ta_file_read(path, &rules, &b, &cap, len);
    if (!err) {
        *buf = b;
        return TA_OK;
    }
    free(b);
    if (err == ENOMEM) return TA_ERR_NOMEM;
    ta_loc at = {.file = path};
    ta_status st = err == EFBIG ? ta_diag_error(diags, &at, "io", "cannot read %s: larger than %zu MiB, the most the loader reads",
                                                path, TA_MAX_INPUT_BYTES >> 20)
                                : ta_diag_error(diags, &at, "io", "cannot read %s: %s", path, strerror(err));
    return st == TA_OK ? TA_ERR_IO : st;
}
