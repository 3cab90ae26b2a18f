/* cli.c - helpers shared by the subcommands (see cli.h). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tensoralias/diag.h"

int ta_cli_read_file(const char *path, char **buf, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) return -1;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    if (!b) goto fail;
    for (;;) {
        if (cap - n < 2) {
            char *nb = realloc(b, cap * 2);
            if (!nb) goto fail;
            b = nb;
            cap *= 2;
        }
        size_t r = fread(b + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0) break;
    }
    if (ferror(f)) goto fail;
    if (f != stdin) fclose(f);
    b[n] = '\0';
    *buf = b;
    *len = n;
    return 0;
fail:
    {
        int e = errno ? errno : EIO;
        free(b);
        if (f != stdin) fclose(f);
        errno = e;
        return -1;
    }
}

static int exists(const char *p) { return access(p, R_OK) == 0; }

const char *ta_cli_bundled(const char *name)
{
    static char path[PATH_MAX + 64];
    const char *env = getenv("TENSORALIAS_DATADIR");
    if (env && *env) {
        snprintf(path, sizeof path, "%s/%s", env, name);
        if (exists(path)) return path;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(path, sizeof path, "%s/share/tensoralias/%s", exe, name);
            if (exists(path)) return path;
            snprintf(path, sizeof path, "%s/../share/tensoralias/%s", exe, name);
            if (exists(path)) return path;
        }
    }
    snprintf(path, sizeof path, "%s/%s", TA_DATADIR, name);
    return exists(path) ? path : NULL;
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
