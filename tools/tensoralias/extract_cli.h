/* extract_cli.h - what `extract` and `check` share when they read schemas
 * from C++ and Python sources: telling a source from a yaml on the command
 * line, and running the extraction over every source given. */
#ifndef TA_EXTRACT_CLI_H
#define TA_EXTRACT_CLI_H

#include <stdbool.h>

#include "tensoralias/extract.h"

/* A directory, or a file whose extension is C++'s or Python's. */
bool ta_cli_is_source(const char *path);

/* Extracts from every path in srcs (files or directories) with the macros
 * in defines ("NAME=VALUE", NULL-terminated or NULL), then finishes the
 * set. Diagnostics go to d. Returns TA_EXIT_CLEAN, or TA_EXIT_USAGE when a
 * source could not be read (what could be read is still in *out) or memory
 * ran out (*out NULL). */
int ta_cli_extract(const char *const *srcs, int nsrcs, const char *const *defines, bool no_git,
                   ta_extract **out, ta_diags *d);
/* The same with every option of the extraction (-I, compile_commands.json). */
int ta_cli_extract_with(const char *const *srcs, int nsrcs, const ta_extract_opts *o, ta_extract **out,
                        ta_diags *d);

#endif
