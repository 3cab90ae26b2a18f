/* diff_input.h - one side of `tensoralias diff` as given on the command
 * line: a native_functions.yaml, a schema list or C++/Python sources, told
 * apart by the path (a directory or a source extension: sources; .yaml or
 * .yml: yaml) and otherwise by the text (a yaml list starts with "- "), or
 * as forced with --as / --old-as / --new-as. */
#ifndef TA_DIFF_INPUT_H
#define TA_DIFF_INPUT_H

#include <stdbool.h>

#include "tensoralias/diff.h"

typedef enum ta_side_kind { TA_SIDE_GUESS = 0, TA_SIDE_YAML, TA_SIDE_LIST, TA_SIDE_SOURCES } ta_side_kind;

/* "yaml", "list", "sources" -> *out; -1 for anything else. */
int ta_side_kind_parse(const char *s, ta_side_kind *out);

typedef struct ta_side {
    const char *path;     /* as given; NULL: the bundled PyTorch main yaml */
    const char *name;     /* for messages */
    ta_side_kind kind;
    ta_native_file *native;
    ta_schema_list *list;
    ta_extract *extracted;
} ta_side;

/* Loads s->path as s->kind says (guessed when TA_SIDE_GUESS); the loader's
 * diagnostics go to d. Returns TA_EXIT_CLEAN, or TA_EXIT_USAGE when the
 * input cannot be read or holds no operator (a message on stderr). */
int ta_side_load(ta_side *s, const char *const *defines, bool no_git, ta_diags *d);
ta_diff_input ta_side_input(const ta_side *s);
void ta_side_free(ta_side *s);

#endif
