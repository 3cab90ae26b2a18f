/* ir_cli.h - the operator set of the whole-graph commands. */
#ifndef TA_IR_CLI_H
#define TA_IR_CLI_H

#include "tensoralias/ir.h"

/* The default operator set (torch 1.13.1's registered operators, then the
 * bundled native_functions.yaml's), or the --schemas files in order: a
 * *.yaml is a native_functions.yaml, anything else a text file of schemas. */
ta_status ta_cli_load_ir_ops(const char *const *files, int nfiles, ta_ir_ops *ops, ta_diags *d);

#endif
