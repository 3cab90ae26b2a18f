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

/* The default operator set, or the --schemas files in order. */
ta_status ta_cli_load_ir_ops(const char *const *files, int nfiles, ta_ir_ops *ops, ta_diags *d)
{
    if (!nfiles) {
        const char *reg = ta_cli_bundled("registered-operators.txt");
        if (!reg) {
            ta_diag_error(d, NULL, "io", "no bundled registered-operators.txt found");
            ta_diag_hint(d, "pass --schemas FILE, or set TENSORALIAS_DATADIR");
            return TA_ERR_IO;
        }
        ta_status st = ta_ir_ops_add_file(ops, reg, d);
        if (st != TA_OK) return st;
    }
    for (int i = 0; i < nfiles || (!nfiles && i == 0); i++) {
        const char *path = nfiles ? files[i] : NULL;
        if (path && !ends_with(path, ".yaml")) {
            ta_status st = ta_ir_ops_add_file(ops, path, d);
            if (st != TA_OK) return st;
            continue;
        }
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
        ta_diags_destroy(yd); /* the yaml's own findings are `check`'s business */
        st = ta_ir_ops_add_native(ops, nf, d);
        ta_native_destroy(nf);
        if (st != TA_OK) return st;
    }
    return TA_OK;
}

