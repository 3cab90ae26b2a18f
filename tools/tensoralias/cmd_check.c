/* cmd_check.c - "tensoralias check": loads native_functions.yaml (and its
 * tags.yaml), runs every rule pass, and reports the findings as text, JSON
 * lines or SARIF. Exit 0 when there is no error (warnings allowed), 1 when
 * there is, 2 on a usage or I/O problem. */
#include <stdlib.h>
#include <string.h>

#include "tensoralias/check.h"
#include "cli.h"
#include "tensoralias/alias.h"
#include "native_cli.h"
#include "report.h"
#include "tensoralias/native.h"
#include "tensoralias/torchgen.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tensoralias check [--tags FILE] [--format text|json|sarif] [FILE.yaml ...]\n"
            "\n"
            "Loads native_functions.yaml as torchgen does and reports every problem:\n"
            "yaml syntax, entry shape, unknown keys, value types, schema syntax, tags,\n"
            "dispatch keys, duplicate overloads, composite keys and more.\n"
            "Without FILE, checks the PyTorch main native_functions.yaml bundled with\n"
            "tensoralias.\n"
            "\n"
            "options:\n"
            "  --tags FILE      tags.yaml to check tags against (default: tags.yaml\n"
            "                   beside each FILE, when there is one)\n"
            "  --format FMT     text (default; compiler-style with a caret), json (one\n"
            "                   object per line), or sarif (SARIF 2.1.0, for GitHub code\n"
            "                   scanning)\n"
            "  -h, --help       this help\n"
            "\n"
            "Exit status: 0 no errors (warnings allowed), 1 errors found, 2 usage or I/O error.\n");
}

/* Parses "--opt VALUE" and "--opt=VALUE"; returns the value or NULL. */
static const char *opt_value(int argc, char **argv, int *i, const char *name, int *bad)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n)) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n]) return NULL;
    if (*i + 1 >= argc) {
        *bad = 1;
        return NULL;
    }
    return argv[++*i];
}

/* Every rule check can report, for SARIF: the loader's, the alias ones and
 * the autogen ones. */
static ta_rule_info *all_rules(size_t *n)
{
    size_t nn, na, nt;
    const ta_rule_info *nr = ta_native_rules(&nn);
    const ta_rule_info *ar = ta_alias_rules(&na);
    const ta_rule_info *tr = ta_torchgen_rules(&nt);
    ta_rule_info *v = malloc((nn + na + nt) * sizeof *v);
    if (!v) {
        *n = 0;
        return NULL;
    }
    memcpy(v, nr, nn * sizeof *v);
    for (size_t i = 0; i < na; i++) {
        ta_rule_info r = {ar[i].id, ar[i].severity, ar[i].summary};
        v[nn + i] = r;
    }
    memcpy(v + nn + na, tr, nt * sizeof *v);
    *n = nn + na + nt;
    return v;
}

int ta_cmd_check(int argc, char **argv)
{
    const char *tags = NULL, *fmt = "text";
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    int nfiles = 0, only_files = 0;
    if (!files) return TA_EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        int bad = 0;
        const char *v;
        if (only_files || argv[i][0] != '-' || !strcmp(argv[i], "-")) {
            files[nfiles++] = argv[i];
        } else if (!strcmp(argv[i], "--")) {
            only_files = 1;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            free(files);
            return TA_EXIT_CLEAN;
        } else if ((v = opt_value(argc, argv, &i, "--tags", &bad))) {
            tags = v;
        } else if ((v = opt_value(argc, argv, &i, "--format", &bad))) {
            fmt = v;
        } else {
            free(files);
            return bad ? ta_cli_usage_error("check", "%s needs a value", argv[i])
                       : ta_cli_usage_error("check", "unknown option '%s'", argv[i]);
        }
        if (bad) {
            free(files);
            return ta_cli_usage_error("check", "%s needs a value", argv[i]);
        }
    }
    ta_report_format format;
    if (ta_report_format_parse(fmt, &format)) {
        free(files);
        return ta_cli_usage_error("check", "unknown format '%s' (text, json or sarif)", fmt);
    }
    if (nfiles == 0) files[nfiles++] = NULL; /* the bundled yaml */

    ta_diags *all = ta_diags_create();
    int rc = TA_EXIT_CLEAN;
    for (int i = 0; i < nfiles && all; i++) {
        ta_diags *d = ta_diags_create();
        ta_native_file *f = NULL;
        const char *name = files[i];
        ta_status st = ta_cli_load_native(files[i], tags, &f, d, &name);
        if (st == TA_ERR_IO || st == TA_ERR_NOMEM || st == TA_ERR_INVALID || !f) {
            ta_report_text(d, stderr);
            if (st != TA_ERR_IO) fprintf(stderr, "tensoralias check: %s\n", ta_status_str(st));
            rc = TA_EXIT_USAGE;
            ta_diags_destroy(d);
            break;
        }
        st = ta_check_all(f, d); /* the passes: src/alias/check_passes.c */
        if (st != TA_OK && st != TA_ERR_PARSE) {
            fprintf(stderr, "tensoralias check: %s\n", ta_status_str(st));
            rc = TA_EXIT_USAGE;
        }
        if (format == TA_REPORT_TEXT) {
            ta_report_text(d, stdout);
            ta_report_summary(d, name, stdout);
        }
        if (rc == TA_EXIT_CLEAN && ta_diags_count_severity(d, TA_SEV_ERROR)) rc = TA_EXIT_FINDINGS;
        ta_native_destroy(f);
        if (ta_diags_count(d) && ta_diags_move(all, d) != TA_OK) rc = TA_EXIT_USAGE;
        ta_diags_destroy(d);
    }
    if (rc != TA_EXIT_USAGE && format != TA_REPORT_TEXT) {
        size_t nrules;
        ta_rule_info *rules = all_rules(&nrules);
        int r = format == TA_REPORT_JSON ? ta_report_json(all, stdout)
                                         : ta_report_sarif(all, rules, nrules, stdout);
        free(rules);
        if (r) rc = TA_EXIT_USAGE;
    }
    if (!all || fflush(stdout)) rc = TA_EXIT_USAGE;
    ta_diags_destroy(all);
    free(files);
    return rc;
}
