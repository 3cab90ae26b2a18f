/* native_cli.c - finds and loads native_functions.yaml for the commands (see
 * native_cli.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "native_cli.h"

/* tags.yaml in the same directory as path, when it is readable. */
static char *tags_beside(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path + 1) : 0;
    char *t = malloc(dir + sizeof "tags.yaml");
    if (!t) return NULL;
    memcpy(t, path, dir);
    strcpy(t + dir, "tags.yaml");
    if (access(t, R_OK) == 0) return t;
    free(t);
    return NULL;
}

ta_status ta_cli_load_native(const char *path, const char *tags,
                             ta_native_file **out, ta_diags *diags,
                             const char **shown_name)
{
    *out = NULL;
    static char bundled[2][4096]; /* ta_cli_bundled reuses one buffer */
    if (!path) {
        const char *p = ta_cli_bundled("native_functions.yaml");
        if (!p || strlen(p) >= sizeof bundled[0]) {
            ta_diags_add(diags, TA_SEV_ERROR, "io", "native_functions.yaml", 0, 0, 0,
                         NULL, "pass FILE.yaml, or set TENSORALIAS_DATADIR",
                         "no bundled native_functions.yaml found");
            return TA_ERR_IO;
        }
        path = strcpy(bundled[0], p);
        if (!tags && (p = ta_cli_bundled("tags.yaml")) && strlen(p) < sizeof bundled[1])
            tags = strcpy(bundled[1], p);
    }
    *shown_name = path;
    if (strcmp(path, "-")) {
        char *beside = tags ? NULL : tags_beside(path);
        ta_status st = ta_native_load_path(path, tags ? tags : beside, out, diags);
        free(beside);
        return st;
    }
    /* stdin: no directory to find tags.yaml in. */
    *shown_name = "<stdin>";
    char *text = NULL, *ttext = NULL;
    size_t len = 0, tlen = 0;
    if (ta_cli_read_file("-", &text, &len)) {
        ta_diags_add(diags, TA_SEV_ERROR, "io", "<stdin>", 0, 0, 0, NULL, NULL,
                     "cannot read standard input");
        return TA_ERR_IO;
    }
    if (tags && ta_cli_read_file(tags, &ttext, &tlen)) {
        free(text);
        ta_diags_add(diags, TA_SEV_ERROR, "io", tags, 0, 0, 0, NULL, NULL,
                     "cannot read %s", tags);
        return TA_ERR_IO;
    }
    ta_status st = ta_native_load_buffer(text, len, "<stdin>", ttext, tlen, tags, out, diags);
    free(text);
    free(ttext);
    return st;
}
