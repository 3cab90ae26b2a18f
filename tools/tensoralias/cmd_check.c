/* cmd_check.c - "tensoralias check": loads native_functions.yaml (and its
 * tags.yaml), runs every rule pass, and reports the findings as text, JSON
 * lines or SARIF. C++ and Python sources, directories and --schemas lists
 * are checked with the custom-operator rules instead (check_sources.c).
 * Exit 0 when there is no error (warnings allowed), 1 when there is, 2 on a
 * usage or I/O problem. */
#include <stdlib.h>
#include <string.h>

#include "check_sources.h"
#include "tensoralias/check.h"
#include "cli.h"
#include "extract_cli.h"
#include "tensoralias/alias.h"
#include "native_cli.h"
#include "report.h"
#include "tensoralias/native.h"
#include "tensoralias/torchgen.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tensoralias check [--tags FILE] [--format text|json|sarif] [FILE.yaml ...]\n"
            "       tensoralias check [--format ...] [-D NAME=VALUE] [--no-git] [--schemas FILE] [SRC ...]\n"
            "\n"
            "Loads native_functions.yaml as torchgen does and reports every problem:\n"
            "yaml syntax, entry shape, unknown keys, value types, schema syntax, tags,\n"
            "dispatch keys, duplicate overloads, composite keys and more.\n"
            "Without FILE, SRC or --schemas, checks the PyTorch main native_functions.yaml\n"
            "bundled with tensoralias.\n"
            "\n"
            "SRC is a C++ (.cpp .cc .cu .cxx .c++ .cuh .h .hh .hpp .hxx .mm) or Python\n"
            "(.py .pyi) file, or a directory walked for them (inside a git work tree, the\n"
            "files git does not ignore; otherwise, or with --no-git, all but hidden and\n"
            "build directories). The custom-operator schemas declared there (see\n"
            "'tensoralias extract --help') are checked with the custom-operator rules\n"
            "(custom-*): destinations and caches not annotated as written, mutating names\n"
            "without a write, '-> ()' without a write, '!' on non-tensors, duplicate\n"
            "argument names, pointless or unbound alias sets. Each finding points into the\n"
            "string literal in the source; what the scanner cannot resolve is a note.\n"
            "\n"
            "options:\n"
            "  --tags FILE      tags.yaml to check tags against (default: tags.yaml\n"
            "                   beside each FILE, when there is one)\n"
            "  --format FMT     text (default; compiler-style with a caret), json (one\n"
            "                   object per line), or sarif (SARIF 2.1.0, for GitHub code\n"
            "                   scanning; paths relative to the repository root)\n"
            "  --schemas FILE   also check a plain list of schemas, one per line (blank\n"
            "                   lines and '#' comments skipped; '-' for standard input),\n"
            "                   with the custom-operator rules\n"
            "  -D NAME=VALUE    a macro the build defines, for namespaces spelled with it\n"
            "  --no-git         walk directories without asking git what it ignores\n"
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
    ta_rule_info *v = malloc((nn + na + nt + ta_check_sources_nrules()) * sizeof *v);
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
    ta_check_sources_rules(v, n);
    return v;
}

/* The sources, macros and schema lists on the command line. */
typedef struct src_args {
    const char **srcs, **defines, **lists;
    int nsrcs, ndefines, nlists;
    bool no_git;
} src_args;

static void src_args_free(src_args *a)
{
    free(a->srcs);
    free(a->defines);
    free(a->lists);
}

static bool source_option(int argc, char **argv, int *i, src_args *a, int *bad)
{
    const char *v;
    if (!strcmp(argv[*i], "--no-git")) a->no_git = true;
    else if ((v = opt_value(argc, argv, i, "--schemas", bad))) a->lists[a->nlists++] = v;
    else if ((v = opt_value(argc, argv, i, "-D", bad))) a->defines[a->ndefines++] = v;
    else if (!strncmp(argv[*i], "-D", 2) && argv[*i][2]) a->defines[a->ndefines++] = argv[*i] + 2;
    else return *bad != 0;
    return true;
}

/* The sources and lists: findings appended to all (and printed, for text). */
static int check_custom(const src_args *a, ta_report_format format, ta_diags *all)
{
    ta_diags *d = ta_diags_create();
    ta_check_counts n = {0, 0};
    int rc = d ? TA_EXIT_CLEAN : TA_EXIT_USAGE;
    if (d && a->nsrcs) rc = ta_check_sources(a->srcs, a->nsrcs, a->defines, a->no_git, d, &n);
    for (int i = 0; d && i < a->nlists && rc == TA_EXIT_CLEAN; i++)
        rc = ta_check_schema_list(a->lists[i], d, &n);
    if (format == TA_REPORT_TEXT) {
        char what[96];
        snprintf(what, sizeof what, "%zu operators from %zu files", n.schemas, n.files);
        ta_report_text(d, stdout);
        ta_report_summary(d, what, stdout);
    }
    if (rc == TA_EXIT_CLEAN && ta_diags_count_severity(d, TA_SEV_ERROR)) rc = TA_EXIT_FINDINGS;
    if (d && ta_diags_move(all, d) != TA_OK) rc = TA_EXIT_USAGE;
    ta_diags_destroy(d);
    return rc;
}

int ta_cmd_check(int argc, char **argv)
{
    const char *tags = NULL, *fmt = "text";
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    src_args sa = {calloc((size_t)argc + 1, sizeof(char *)), calloc((size_t)argc + 1, sizeof(char *)),
                   calloc((size_t)argc + 1, sizeof(char *)), 0, 0, 0, false};
    int nfiles = 0, only_files = 0;
    if (!files || !sa.srcs || !sa.defines || !sa.lists) {
        free(files);
        src_args_free(&sa);
        return TA_EXIT_USAGE;
    }
    for (int i = 1; i < argc; i++) {
        int bad = 0;
        const char *v;
        if ((only_files || argv[i][0] != '-') && ta_cli_is_source(argv[i])) {
            sa.srcs[sa.nsrcs++] = argv[i];
        } else if (only_files || argv[i][0] != '-' || !strcmp(argv[i], "-")) {
            files[nfiles++] = argv[i];
        } else if (source_option(argc, argv, &i, &sa, &bad)) {
            /* -D, --no-git, --schemas */
        } else if (!strcmp(argv[i], "--")) {
            only_files = 1;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            free(files);
            src_args_free(&sa);
            return TA_EXIT_CLEAN;
        } else if ((v = opt_value(argc, argv, &i, "--tags", &bad))) {
            tags = v;
        } else if ((v = opt_value(argc, argv, &i, "--format", &bad))) {
            fmt = v;
        } else {
            free(files);
            src_args_free(&sa);
            return bad ? ta_cli_usage_error("check", "%s needs a value", argv[i])
                       : ta_cli_usage_error("check", "unknown option '%s'", argv[i]);
        }
        if (bad) {
            free(files);
            src_args_free(&sa);
            return ta_cli_usage_error("check", "%s needs a value", argv[i]);
        }
    }
    ta_report_format format;
    if (ta_report_format_parse(fmt, &format)) {
        free(files);
        src_args_free(&sa);
        return ta_cli_usage_error("check", "unknown format '%s' (text, json or sarif)", fmt);
    }
    if (nfiles == 0 && !sa.nsrcs && !sa.nlists) files[nfiles++] = NULL; /* the bundled yaml */

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
    if (rc != TA_EXIT_USAGE && all && (sa.nsrcs || sa.nlists)) {
        int r = check_custom(&sa, format, all);
        if (r != TA_EXIT_CLEAN) rc = r;
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
    src_args_free(&sa);
    return rc;
}
