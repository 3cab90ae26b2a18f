/* ir_cli.c - what the whole-graph commands (graph-alias, functionalize)
 * share: the operator set nodes are resolved against. */
#include <string.h>

#include "cli.h"
#include "ir_cli.h"
#include "native_cli.h"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* A native_functions.yaml's schemas; its own findings are `check`'s business. */
static ta_status add_yaml(const char *path, ta_ir_ops *ops, ta_diags *d)
{
    ta_native_file *nf = NULL;
    const char *shown = NULL;
    ta_diags *yd;
    ta_status st = ta_diags_create(&yd);
    if (st == TA_OK) st = ta_cli_load_native(path, NULL, &nf, yd, &shown);
    if (!nf || st == TA_ERR_IO || st == TA_ERR_NOMEM) {
        ta_diags_move(d, yd);
        ta_diags_destroy(yd);
        return st == TA_OK ? TA_ERR_IO : st;
    }
    ta_diags_destroy(yd);
    st = ta_ir_ops_add_native(ops, nf, d);
    ta_native_destroy(nf);
    return st;
}

ta_status ta_cli_load_ir_ops(const char *const *files, int nfiles, const ta_ir_graph *g, ta_ir_ops *ops, ta_diags *d)
{
    if (!nfiles) return ta_ir_ops_add_default(ops, g, d);
    for (int i = 0; i < nfiles; i++) {
        ta_status st = ends_with(files[i], ".yaml") ? add_yaml(files[i], ops, d) : ta_ir_ops_add_file(ops, files[i], d);
        if (st != TA_OK) return st;
    }
    return TA_OK;
}
