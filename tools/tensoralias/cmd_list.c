/* cmd_list.c - "tensoralias list": one line (or one JSON object) per native
 * function of native_functions.yaml, in yaml order. The row itself is built
 * by ta_list_row (list_row.c). Exit 0, 1 when the yaml has errors (what
 * could be read is still listed), 2 on a usage or I/O problem. */
#include <string.h>

#include "cli.h"
#include "list_row.h"
#include "native_cli.h"
#include "report.h"
#include "tensoralias/torchgen.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tensoralias list [--tags FILE] [--format text|json] [FILE.yaml]\n"
            "\n"
            "Lists every native function of native_functions.yaml in yaml order, as\n"
            "torchgen reads it, then the functions torchgen derives for autogen:\n"
            "entries (generated=true). Without FILE, lists the PyTorch main yaml\n"
            "bundled with tensoralias.\n"
            "\n"
            "  text: LINE<TAB>NAME<TAB>FUNC<TAB>key=value ... (fields that differ from\n"
            "        their defaults)\n"
            "  json: one object per line: func, name (name.overload), line, variants,\n"
            "        tags, autogen, structured, structured_delegate, manual_cpp_binding,\n"
            "        has_composite_implicit_autograd_kernel,\n"
            "        has_composite_explicit_autograd_kernel, generated, and torchgen's\n"
            "        kind, is_view_op and signature\n"
            "\n"
            "options:\n"
            "  --tags FILE      tags.yaml (default: the one beside FILE, if any)\n"
            "  --format FMT     text (default) or json\n"
            "  -h, --help       this help\n"
            "\n"
            "Exit status: 0 listed, 1 the yaml has errors (shown on stderr), 2 usage or I/O error.\n");
}

int ta_cmd_list(int argc, char **argv)
{
    const char *tags = NULL, *file = NULL, *fmt = "text";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return TA_EXIT_CLEAN;
        } else if (!strcmp(a, "--tags") || !strcmp(a, "--format")) {
            if (i + 1 >= argc) return ta_cli_usage_error("list", "%s needs a value", a);
            *(a[2] == 't' ? &tags : &fmt) = argv[++i];
        } else if (!strncmp(a, "--tags=", 7)) {
            tags = a + 7;
        } else if (!strncmp(a, "--format=", 9)) {
            fmt = a + 9;
        } else if (a[0] == '-' && a[1]) {
            return ta_cli_usage_error("list", "unknown option '%s'", a);
        } else if (file) {
            return ta_cli_usage_error("list", "one FILE at most");
        } else {
            file = a;
        }
    }
    bool json = !strcmp(fmt, "json");
    if (!json && strcmp(fmt, "text"))
        return ta_cli_usage_error("list", "unknown format '%s' (text or json)", fmt);

    ta_diags *d;
    ta_native_file *f = NULL;
    const char *name = file;
    ta_status st = ta_diags_create(&d);
    if (st == TA_OK) st = ta_cli_load_native(file, tags, &f, d, &name);
    int rc = TA_EXIT_CLEAN;
    if (!f) {
        ta_report_text(d, stderr);
        if (st != TA_ERR_IO) fprintf(stderr, "tensoralias list: %s\n", ta_status_str(st));
        ta_diags_destroy(d);
        return TA_EXIT_USAGE;
    }
    if (ta_diags_count_severity(d, TA_SEV_ERROR)) {
        ta_diags *shown;
        if (ta_diags_create(&shown) != TA_OK || ta_report_shown(d, false, shown) != TA_OK) rc = TA_EXIT_USAGE;
        else rc = TA_EXIT_FINDINGS;
        ta_report_text(shown, stderr);
        ta_report_summary(shown, false, name, stderr);
        ta_diags_destroy(shown);
    }
    /* torchgen's list: the yaml's functions, then the ones autogen derives;
     * derivation problems are check's to report */
    ta_torchgen *tg = NULL;
    if (ta_torchgen_from_native(f, &tg, NULL) != TA_OK) rc = TA_EXIT_USAGE;
    size_t nyaml = ta_native_count(f), nall = nyaml + ta_torchgen_count_derived(tg);
    size_t next = 0; /* the next torchgen function (entries that parsed, in order) */
    for (size_t i = 0; i < nall && rc != TA_EXIT_USAGE; i++) {
        const ta_native_func *fn = i < nyaml ? ta_native_get(f, i) : NULL;
        const ta_tg_function *tf = ta_torchgen_get(tg, next);
        if (fn && tf && tf->id != (int32_t)fn->index) tf = NULL; /* schema did not parse */
        if (tf) next++;
        json_t *row = ta_list_row(f, fn, tf);
        if (!row) {
            rc = TA_EXIT_USAGE;
            break;
        }
        if (json) {
            json_dumpf(row, stdout, JSON_PRESERVE_ORDER);
            fputc('\n', stdout);
        } else {
            ta_list_row_text(row, stdout);
        }
        json_decref(row);
    }
    ta_torchgen_destroy(tg);
    if (fflush(stdout)) rc = TA_EXIT_USAGE;
    ta_native_destroy(f);
    ta_diags_destroy(d);
    return rc;
}
