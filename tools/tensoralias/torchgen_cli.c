/* torchgen_cli.c - loading for the `groups` and `autogen` commands (see
 * torchgen_cli.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "native_cli.h"
#include "torchgen_cli.h"

static void render_all(const ta_diags *d, bool notes)
{
    for (size_t i = 0; i < ta_diags_count(d); i++)
        if (notes || ta_diags_get(d, i)->severity != TA_SEV_NOTE)
            ta_cli_render(ta_diags_get(d, i), stderr);
}

int ta_cli_load_torchgen(const char *cmd, const char *path, const char *tags, bool notes,
                         ta_native_file **nf, ta_torchgen **tg)
{
    *nf = NULL;
    *tg = NULL;
    ta_diags *d;
    if (ta_diags_create(&d) != TA_OK) return TA_EXIT_USAGE;
    const char *name = path;
    ta_status st = ta_cli_load_native(path, tags, nf, d, &name);
    if (st == TA_ERR_IO || st == TA_ERR_NOMEM || st == TA_ERR_INVALID || !*nf) {
        render_all(d, true);
        if (st != TA_ERR_IO) fprintf(stderr, "tensoralias %s: %s\n", cmd, ta_status_str(st));
        ta_diags_destroy(d);
        ta_native_destroy(*nf);
        *nf = NULL;
        return TA_EXIT_USAGE;
    }
    st = ta_torchgen_from_native(*nf, tg, d);
    render_all(d, notes);
    int rc = ta_diags_count_severity(d, TA_SEV_ERROR) ? TA_EXIT_FINDINGS : TA_EXIT_CLEAN;
    ta_diags_destroy(d);
    if (st != TA_OK) {
        fprintf(stderr, "tensoralias %s: %s\n", cmd, ta_status_str(st));
        ta_native_destroy(*nf);
        *nf = NULL;
        return TA_EXIT_USAGE;
    }
    return rc;
}

int ta_cli_torchgen_args(const char *cmd, int argc, char **argv, void (*usage)(FILE *),
                         const char *const *formats, int *format, const char **path, const char **tags,
                         bool *notes)
{
    *path = *tags = NULL;
    *notes = false;
    for (int i = 1; i < argc; i++) {
        const char *f = NULL;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return TA_EXIT_CLEAN;
        } else if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            f = argv[++i];
        } else if (!strncmp(argv[i], "--format=", 9)) {
            f = argv[i] + 9;
        } else if (!strcmp(argv[i], "--notes") || !strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
            *notes = true;
        } else if (!strcmp(argv[i], "--tags") && i + 1 < argc) {
            *tags = argv[++i];
        } else if (!strncmp(argv[i], "--tags=", 7)) {
            *tags = argv[i] + 7;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return ta_cli_usage_error(cmd, "unknown option '%s'", argv[i]);
        } else if (*path) {
            return ta_cli_usage_error(cmd, "one yaml file at most");
        } else {
            *path = argv[i];
        }
        if (f) {
            int k = 0;
            while (formats[k] && strcmp(f, formats[k])) k++;
            if (!formats[k]) return ta_cli_usage_error(cmd, "unknown format '%s'", f);
            *format = k;
        }
    }
    return -1;
}

void ta_cli_json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", out);
        else if (*p == '\t') fputs("\\t", out);
        else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}
