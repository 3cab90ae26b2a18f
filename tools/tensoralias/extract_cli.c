/* extract_cli.c - see extract_cli.h. */
#include <stdio.h>
#include <sys/stat.h>

#include "cli.h"
#include "extract_cli.h"

bool ta_cli_is_source(const char *path)
{
    struct stat st;
    if (ta_extract_lang_of(path) != TA_LANG_NONE) return true;
    return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int ta_cli_extract(const char *const *srcs, int nsrcs, const char *const *defines, bool no_git,
                   ta_extract **out, ta_diags *d)
{
    ta_extract_opts o = {.defines = defines, .no_git = no_git};
    return ta_cli_extract_with(srcs, nsrcs, &o, out, d);
}

int ta_cli_extract_with(const char *const *srcs, int nsrcs, const ta_extract_opts *o, ta_extract **out,
                        ta_diags *d)
{
    ta_extract *x;
    int rc = TA_EXIT_CLEAN;
    *out = NULL;
    if (ta_extract_create(o, &x) != TA_OK) return TA_EXIT_USAGE;
    for (int i = 0; i < nsrcs; i++) {
        ta_status st = ta_extract_path(x, srcs[i], d);
        if (st == TA_ERR_NOMEM) {
            ta_extract_destroy(x);
            fprintf(stderr, "tensoralias: %s\n", ta_status_str(st));
            return TA_EXIT_USAGE;
        }
        if (st != TA_OK) rc = TA_EXIT_USAGE;
    }
    if (ta_extract_finish(x, d) != TA_OK) {
        ta_extract_destroy(x);
        return TA_EXIT_USAGE;
    }
    *out = x;
    return rc;
}
