/* irlib.c - the whole-graph benchmarks' shared set-up (see benchlib.h);
 * apart from benchlib.c so that yaml_scan links libyaml alone. */
#include <stdio.h>

#include "benchlib.h"

ta_ir_ops *bench_load_ir_ops(const char *build)
{
    (void)build; /* the default set is compiled into the library */
    ta_ir_ops *ops = NULL;
    ta_diags *d = NULL;
    if (ta_diags_create(&d) != TA_OK || ta_ir_ops_create(&ops) != TA_OK || ta_ir_ops_add_default(ops, NULL, d) != TA_OK) {
        for (size_t i = 0; d && i < ta_diags_count(d); i++) ta_diag_render(ta_diags_get(d, i), stderr);
        ta_ir_ops_destroy(ops);
        ops = NULL;
    }
    ta_diags_destroy(d);
    return ops;
}
