/* native_cli.c - finds and loads native_functions.yaml for the commands (see
 * native_cli.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "native_cli.h"
#include "tensoralias/check.h"

/* What is done with the yaml: loaded whole into *out, or (out NULL)
 * checked as it streams by, *count entries. */
typedef struct native_job {
    ta_native_file **out;
    size_t *count;
} native_job;

static ta_status job_path(const native_job *j, const char *path, const char *tags,
                          ta_diags *diags)
{
    return j->out ? ta_native_load_path(path, tags, j->out, diags)
                  : ta_check_stream_path(path, tags, 0, j->count, diags);
}

static ta_status job_buffer(const native_job *j, const char *text, size_t len,
                            const char *tags_text, size_t tags_len, const char *tags,
                            ta_diags *diags)
{
    return j->out ? ta_native_load_buffer(text, len, "<stdin>", tags_text, tags_len, tags, j->out,
                                          diags)
                  : ta_check_stream_buffer(text, len, "<stdin>", tags_text, tags_len, tags, 0,
                                           j->count, diags);
}

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

static ta_status native_input(const native_job *j, const char *path, const char *tags,
                              ta_diags *diags, const char **shown_name)
{
    static char bundled[2][4096]; /* ta_cli_bundled reuses one buffer */
    if (!path) {
        const char *p = ta_cli_bundled("native_functions.yaml");
        if (!p || strlen(p) >= sizeof bundled[0]) {
            ta_loc at = {.file = "native_functions.yaml"};
            ta_status st = ta_diag_error(diags, &at, "io", "no bundled native_functions.yaml found");
            if (st == TA_OK) st = ta_diag_hint(diags, "pass FILE.yaml, or set TENSORALIAS_DATADIR");
            return st == TA_OK ? TA_ERR_IO : st;
        }
        path = strcpy(bundled[0], p);
        if (!tags && (p = ta_cli_bundled("tags.yaml")) && strlen(p) < sizeof bundled[1])
            tags = strcpy(bundled[1], p);
    }
    *shown_name = path;
    if (strcmp(path, "-")) {
        char *beside = tags ? NULL : tags_beside(path);
        ta_status st = job_path(j, path, tags ? tags : beside, diags);
        free(beside);
        return st;
    }
    /* stdin: no directory to find tags.yaml in. */
    *shown_name = "<stdin>";
    char *text = NULL, *ttext = NULL;
    size_t len = 0, tlen = 0;
    if (ta_cli_read_file("-", &text, &len)) {
        ta_loc at = {.file = "<stdin>"};
        ta_status st = ta_diag_error(diags, &at, "io", "cannot read standard input: %s", strerror(errno));
        return st == TA_OK ? TA_ERR_IO : st;
    }
    if (tags && ta_cli_read_file(tags, &ttext, &tlen)) {
        free(text);
        ta_loc at = {.file = tags};
        ta_status st = ta_diag_error(diags, &at, "io", "cannot read %s: %s", tags, strerror(errno));
        return st == TA_OK ? TA_ERR_IO : st;
    }
    ta_status st = job_buffer(j, text, len, ttext, tlen, tags, diags);
    free(text);
    free(ttext);
    return st;
}

ta_status ta_cli_load_native(const char *path, const char *tags,
                             ta_native_file **out, ta_diags *diags,
                             const char **shown_name)
{
    *out = NULL;
    native_job j = {out, NULL};
    return native_input(&j, path, tags, diags, shown_name);
}

ta_status ta_cli_check_native(const char *path, const char *tags, size_t *count,
                              ta_diags *diags, const char **shown_name)
{
    *count = 0;
    native_job j = {NULL, count};
    return native_input(&j, path, tags, diags, shown_name);
}
