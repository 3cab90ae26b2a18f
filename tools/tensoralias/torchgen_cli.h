/* torchgen_cli.h - what the `groups` and `autogen` commands share: their
 * command line, loading a native_functions.yaml (the bundled one by default)
 * into the torchgen family model, and printing JSON strings. */
#ifndef TA_TORCHGEN_CLI_H
#define TA_TORCHGEN_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "tensoralias/native.h"
#include "tensoralias/torchgen.h"

/* Reads the command line both take: [--help|-h] [--tags FILE] [--format F]
 * [--notes|-v] [FILE.yaml] (--tags=FILE and --format=F too); *notes tells
 * whether notes are to be shown. F must be one of formats
 * (NULL-terminated); *format gets its index (the last given; untouched when
 * none is). Returns -1 to go on, or the exit code after --help (usage to
 * stdout) or a usage error. */
int ta_cli_torchgen_args(const char *cmd, int argc, char **argv, void (*usage)(FILE *),
                         const char *const *formats, int *format, const char **path, const char **tags,
                         bool *notes);

/* Loads path (NULL: the bundled yaml; "-": stdin) with tags (NULL: the
 * tags.yaml beside it) as `check` does, derives and groups. Diagnostics go
 * to stderr (notes only when `notes`). Returns TA_EXIT_CLEAN, TA_EXIT_FINDINGS (errors were reported;
 * the model is still returned when one could be built) or TA_EXIT_USAGE
 * (nothing to show). */
int ta_cli_load_torchgen(const char *cmd, const char *path, const char *tags, bool notes,
                         ta_native_file **nf, ta_torchgen **tg);

/* Writes s as a JSON string literal (quotes included). */
void ta_cli_json_str(FILE *out, const char *s);

#endif
