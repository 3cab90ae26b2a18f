/* ir_cli.h - the operator set of the whole-graph commands. */
#ifndef TA_IR_CLI_H
#define TA_IR_CLI_H

#include "tensoralias/ir.h"

/* The --schemas files in order (a *.yaml is a native_functions.yaml,
 * anything else a text file of schemas); without any, the library's default
 * set: for g's operators, or whole when g is NULL. */
ta_status ta_cli_load_ir_ops(const char *const *files, int nfiles, const ta_ir_graph *g, ta_ir_ops *ops,
                             ta_diags *d);

#endif
