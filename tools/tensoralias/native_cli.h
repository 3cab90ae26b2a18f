/* native_cli.h - how the commands that read native_functions.yaml (check,
 * list, ...) find and load it: FILE or the bundled yaml, "-" for stdin, and the
 * tags.yaml beside it unless --tags names one. */
#ifndef TA_NATIVE_CLI_H
#define TA_NATIVE_CLI_H

#include "tensoralias/native.h"

/* Loads path (NULL: the bundled PyTorch main yaml; "-": stdin) with tags
 * (NULL: tags.yaml beside path, or the bundled one for the bundled yaml).
 * Returns what ta_native_load_path returns; *shown_name is the name the
 * diagnostics use (static or path itself). */
ta_status ta_cli_load_native(const char *path, const char *tags,
                             ta_native_file **out, ta_diags *diags,
                             const char **shown_name);

/* The same file, checked as `check` checks it (ta_check_stream_path, every
 * pass) without holding it loaded: returns what that returns, *count the
 * entries read. */
ta_status ta_cli_check_native(const char *path, const char *tags, size_t *count,
                              ta_diags *diags, const char **shown_name);

#endif
