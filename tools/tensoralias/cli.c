/* cli.c - helpers shared by the subcommands (see cli.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "base/file.h"
#include "cli.h"
#include "tensoralias/bundled.h"
#include "tensoralias/diag.h"

int ta_cli_read_file(const char *path, char **buf, size_t *len)
{
    static const ta_file_rules rules = {.max_bytes = TA_MAX_INPUT_BYTES, .dash_stdin = true};
    char *b = NULL;
    size_t cap = 0;
    int err = ta_file_read(path, &rules, &b, &cap, len);
    if (!err) {
        *buf = b;
        return 0;
    }
    free(b);
    errno = err;
    return -1;
}

/* A mapped file that another process truncates while it is read would kill
 * the command with SIGBUS at the first page past the new end: the handler
 * says which file changed under it and ends the process as any unreadable
 * input does (exit 2). Only write and _exit: async-signal-safe. */
static char bus_message[PATH_MAX + 128];
static size_t bus_message_len;

static void on_bus(int sig)
{
    (void)sig;
    ssize_t w = write(STDERR_FILENO, bus_message, bus_message_len);
    (void)w;
    _exit(TA_EXIT_USAGE);
}

static void catch_truncation(const char *path)
{
    int n = snprintf(bus_message, sizeof bus_message,
                     "tensoralias: %s changed while it was read (truncated by another process?)\n", path);
    bus_message_len = n < 0 ? 0 : (size_t)n < sizeof bus_message ? (size_t)n : sizeof bus_message - 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_bus;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}

int ta_cli_map_file(const char *path, const char **text, size_t *len, size_t *mapped)
{
    *mapped = 0;
    int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    struct stat sb;
    void *p = MAP_FAILED;
    if (fd >= 0 && !fstat(fd, &sb) && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
        (uintmax_t)sb.st_size <= TA_MAX_INPUT_BYTES) /* MAP_POPULATE: one call, not a fault a page */
        p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (fd >= 0) close(fd);
    if (p == MAP_FAILED) return ta_cli_read_file(path, (char **)text, len);
    catch_truncation(path);
    *text = p;
    *len = *mapped = (size_t)sb.st_size;
    return 0;
}

void ta_cli_unmap_file(const char *text, size_t mapped)
{
    if (mapped) munmap((void *)text, mapped);
    else free((void *)text);
}

const char *ta_cli_bundled(const char *name)
{
    static char path[PATH_MAX + 64];
    return ta_bundled_file(getenv("TENSORALIAS_DATADIR"), name, path, sizeof path) == TA_OK ? path : NULL;
}

int ta_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tensoralias %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(see 'tensoralias %s --help')\n", cmd);
    va_end(ap);
    return TA_EXIT_USAGE;
}

static ta_cli_color color_mode = TA_COLOR_AUTO;

void ta_cli_set_color(ta_cli_color c) { color_mode = c; }

int ta_cli_take_color(int *argc, char **argv)
{
    int rc = 0, n = 0;
    for (int i = 0; i < *argc; i++) {
        const char *v = NULL;
        if (!strncmp(argv[i], "--color=", 8)) v = argv[i] + 8;
        else if (!strcmp(argv[i], "--color") && i + 1 < *argc) v = argv[++i];
        if (!v) {
            argv[n++] = argv[i];
            continue;
        }
        if (!strcmp(v, "auto")) color_mode = TA_COLOR_AUTO;
        else if (!strcmp(v, "always")) color_mode = TA_COLOR_ALWAYS;
        else if (!strcmp(v, "never")) color_mode = TA_COLOR_NEVER;
        else rc = -1;
    }
    argv[n] = NULL;
    *argc = n;
    return rc;
}

void ta_cli_render(const ta_diag *g, FILE *out)
{
    const char *no = getenv("NO_COLOR");
    bool color = color_mode == TA_COLOR_ALWAYS ||
                 (color_mode == TA_COLOR_AUTO && !(no && *no) && isatty(fileno(out)));
    ta_diag_render_color(g, out, color);
}

int ta_cli_flush_stdout(void)
{
    return fflush(stdout) != 0 || ferror(stdout);
}

int ta_cli_write_error(const char *cmd, const char *where)
{
    static int reported;
    if (!reported++)
        fprintf(stderr, "tensoralias %s: cannot write %s: %s\n", cmd, where,
                errno ? strerror(errno) : "I/O error");
    return TA_EXIT_USAGE;
}

const char *ta_cli_opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n)) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n] || *i + 1 >= argc) return NULL;
    return argv[++*i];
}

json_t *ta_cli_json_bytes(const char *s, size_t n)
{
    json_t *j = json_stringn(s ? s : "", s ? n : 0);
    if (j) return j;
    char *b = malloc(n * 4 + 1);
    if (!b) return NULL;
    size_t k = 0;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t len = ta_utf8_len(u + i, n - i); /* NUL is 1: json_stringn keeps it, escaped */
        if (len) {
            memcpy(b + k, u + i, len);
            k += len;
            i += len;
        } else {
            k += (size_t)snprintf(b + k, 5, "\\x%02x", u[i++]);
        }
    }
    j = json_stringn(b, k);
    free(b);
    return j;
}
