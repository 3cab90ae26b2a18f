/* default_ops.h - the default operator set as data compiled into the
 * library: torch 1.13.1's registered operators (with how AliasDb treats
 * each), then the bundled native_functions.yaml's schemas that torch's list
 * lacks. The table is generated at build time from those two files by
 * tools/gen_default_ops.sh (build/gen/default_ops.c); ops_default.c adds
 * from it by operator name, so a set costs only the names asked for.
 *
 * ir_default_text holds every schema, one a line. The operators are grouped
 * by name, the names sorted bytewise (memcmp, then the shorter first), and
 * within a name the overloads are in the order the set adds them. */
#ifndef TA_ALIAS_IR_DEFAULT_OPS_H
#define TA_ALIAS_IR_DEFAULT_OPS_H

#include <stdint.h>

#include "tensoralias/ir.h"

typedef struct ir_default_op {
    uint32_t off;     /* the schema: ir_default_text + off, len bytes */
    uint16_t len;
    uint8_t kind;     /* ta_ir_alias_kind */
} ir_default_op;

typedef struct ir_default_kind {
    uint32_t name;    /* the name is the first len bytes of the text at name */
    uint16_t len;
    uint32_t first;   /* its operators: ir_default_ops[first .. first+count) */
    uint32_t count;
} ir_default_kind;

extern const char ir_default_text[];
extern const ir_default_op ir_default_ops[];
extern const ir_default_kind ir_default_kinds[];
extern const uint32_t ir_default_nops, ir_default_nkinds;

#endif
