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
            ta_diag_render(ta_diags_get(d, i), stderr);
}

int ta_cli_load_torchgen(const char *cmd, const char *path, const char *tags, bool notes,
                         ta_native_file **nf, ta_torchgen **tg)
{
    *nf = NULL;
    *tg = NULL;
    ta_diags *d = ta_diags_create();
    if (!d) return TA_EXIT_USAGE;
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
