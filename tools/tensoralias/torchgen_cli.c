/* torchgen_cli.c - loading for the `groups` and `autogen` commands (see
 * torchgen_cli.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "torchgen_cli.h"

static void render_all(const ta_diags *d)
{
    for (size_t i = 0; i < ta_diags_count(d); i++) ta_diag_render(ta_diags_get(d, i), stderr);
}

int ta_cli_load_torchgen(const char *cmd, const char *path, ta_native_file **nf,
                         ta_torchgen **tg)
{
    *nf = NULL;
    *tg = NULL;
    char tags[4096], src[4096];
    const char *tags_path = NULL;
    if (!path) {
        path = ta_cli_bundled("native_functions.yaml");
        if (!path) {
            fprintf(stderr, "tensoralias %s: the bundled native_functions.yaml is missing\n", cmd);
            return TA_EXIT_USAGE;
        }
        snprintf(src, sizeof src, "%s", path); /* ta_cli_bundled's buffer is static */
        path = src;
        const char *t = ta_cli_bundled("tags.yaml");
        if (t) {
            snprintf(tags, sizeof tags, "%s", t);
            tags_path = tags;
        }
    } else {
        /* tags.yaml next to the yaml, as in PyTorch's tree */
        const char *slash = strrchr(path, '/');
        int dir = slash ? (int)(slash - path + 1) : 0;
        if (snprintf(tags, sizeof tags, "%.*stags.yaml", dir, path) < (int)sizeof tags &&
            access(tags, R_OK) == 0)
            tags_path = tags;
    }
    ta_diags *d = ta_diags_create();
    if (!d) return TA_EXIT_USAGE;
    ta_status st = ta_native_load_path(path, tags_path, nf, d);
    if (st == TA_ERR_IO || st == TA_ERR_NOMEM || !*nf) {
        render_all(d);
        ta_diags_destroy(d);
        ta_native_destroy(*nf);
        *nf = NULL;
        return TA_EXIT_USAGE;
    }
    st = ta_torchgen_from_native(*nf, tg, d);
    render_all(d);
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
