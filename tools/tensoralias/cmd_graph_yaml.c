/* cmd_graph_yaml.c - `tensoralias graph FILE.yaml OPNAME`: finds the operator
 * in a native_functions.yaml. Until the yaml loader is part of the build this
 * form reports that it is unavailable. */
#include <stdio.h>

#include "cli.h"
#include "tensoralias/schema.h"

int ta_cli_graph_lookup(const char *file, const char *op, ta_arena *arena, ta_schema **out,
                        ta_diags *d);

int ta_cli_graph_lookup(const char *file, const char *op, ta_arena *arena, ta_schema **out,
                        ta_diags *d)
{
    (void)arena;
    (void)out;
    (void)d;
    fprintf(stderr, "tensoralias graph: cannot look up '%s' in %s: no yaml loader in this build; use --schema\n",
            op, file);
    return TA_EXIT_USAGE;
}
