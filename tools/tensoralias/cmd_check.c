/* cmd_check.c - "tensoralias check": reads native_functions.yaml (and its
 * tags.yaml), runs every rule pass over it as it is read, a window of
 * entries at a time, and reports the findings as text, JSON lines or SARIF. C++ and Python sources, directories and --schemas lists
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
#include "tensoralias/report.h"
#include "tensoralias/torchgen.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tensoralias check [--tags FILE] [--format text|json|sarif] [FILE.yaml ...]\n"
            "       tensoralias check [--format ...] [-D NAME=VALUE] [--no-git] [--allow-empty]\n"
            "                         [--schemas FILE] [SRC ...]\n"
            "\n"
            "Loads native_functions.yaml as torchgen does and reports every problem:\n"
            "yaml syntax, entry shape, unknown keys, value types, schema syntax, tags,\n"
            "dispatch keys, duplicate overloads, composite keys and more. The file is\n"
            "checked as it is read, 4096 entries at a time, with the findings of a\n"
            "check of the whole file loaded at once.\n"
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
            "  --schemas FILE   also check a list of schemas, one a line ('#' comments,\n"
            "                   an alias analysis kind and a tab allowed before each; '-'\n"
            "                   for standard input), with the custom-operator rules\n"
            "  -D NAME=VALUE    a macro the build defines, for namespaces spelled with it\n"
            "  --no-git         walk directories without asking git what it ignores\n"
            "  --allow-empty    sources without any operator schema are not an error\n"
            "                   (for a hook given only the files a commit changes)\n"
            "  --notes, -v      show notes too (by default only errors and warnings)\n"
            "  -h, --help       this help\n"
            "\n"
            "Text goes to standard error, as a compiler's diagnostics do; json and sarif to\n"
            "standard output, with the findings of every file that could be read.\n"
            "Exit status: 0 no errors (warnings allowed), 1 errors found, 2 usage or I/O\n"
            "error (a file that cannot be read, output that cannot be written, sources or\n"
            "lists in which no operator schema was found, unless --allow-empty).\n");
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
    ta_rule_info *v = malloc((nn + na + nt + ta_cli_check_sources_nrules()) * sizeof *v);
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
    ta_cli_check_sources_rules(v, n);
    return v;
}

/* The sources, macros and schema lists on the command line. */
typedef struct src_args {
    const char **srcs, **defines, **lists;
    int nsrcs, ndefines, nlists;
    bool no_git;
    bool allow_empty; /* no schema in the sources is not a usage error */
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
    else if (!strcmp(argv[*i], "--allow-empty")) a->allow_empty = true;
    else if ((v = opt_value(argc, argv, i, "--schemas", bad))) a->lists[a->nlists++] = v;
    else if ((v = opt_value(argc, argv, i, "-D", bad))) a->defines[a->ndefines++] = v;
    else if (!strncmp(argv[*i], "-D", 2) && argv[*i][2]) a->defines[a->ndefines++] = argv[*i] + 2;
    else return *bad != 0;
    return true;
}

/* What the command line asked for. */
typedef struct check_args {
    const char *tags;
    const char **files;
    int nfiles;
    bool notes;
    ta_report_format format;
    src_args sa;
} check_args;

static void check_args_free(check_args *c)
{
    free(c->files);
    src_args_free(&c->sa);
}

/* One file's or the sources' diagnostics: the shown ones, in source order,
 * printed to stderr for text (with the summary) and moved to all for the
 * machine formats. Returns TA_EXIT_FINDINGS when there is an error. */
static int report_part(const check_args *c, ta_diags *d, const char *what, ta_diags *all)
{
    ta_diags *shown;
    if (ta_diags_create(&shown) != TA_OK || ta_report_shown(d, c->notes, shown) != TA_OK) {
        ta_diags_destroy(shown);
        return TA_EXIT_USAGE;
    }
    if (c->format == TA_REPORT_TEXT) {
        ta_report_text(shown, stderr);
        ta_report_summary(shown, c->notes, what, stderr);
    }
    int rc = ta_diags_count_severity(shown, TA_SEV_ERROR) ? TA_EXIT_FINDINGS : TA_EXIT_CLEAN;
    if (ta_diags_move(all, shown) != TA_OK) rc = TA_EXIT_USAGE;
    ta_diags_destroy(shown);
    return rc;
}

/* The sources and lists: findings appended to all (and printed, for text). */
static int check_custom(const check_args *c, ta_diags *all)
{
    const src_args *a = &c->sa;
    ta_diags *d;
    ta_cli_check_counts n = {0, 0};
    int rc = ta_diags_create(&d) == TA_OK ? TA_EXIT_CLEAN : TA_EXIT_USAGE;
    if (d && a->nsrcs) rc = ta_cli_check_sources(a->srcs, a->nsrcs, a->defines, a->no_git, d, &n);
    for (int i = 0; d && i < a->nlists && rc == TA_EXIT_CLEAN; i++)
        rc = ta_cli_check_schema_list(a->lists[i], d, &n);
    char what[96];
    snprintf(what, sizeof what, "%zu operator%s from %zu file%s", n.schemas, n.schemas == 1 ? "" : "s",
             n.files, n.files == 1 ? "" : "s");
    int r = d ? report_part(c, d, what, all) : TA_EXIT_USAGE;
    if (rc == TA_EXIT_CLEAN) rc = r;
    ta_diags_destroy(d);
    /* A gate that found nothing to check has checked nothing; a hook given
     * the files of one commit usually finds nothing, and that is fine. */
    if (rc != TA_EXIT_USAGE && !n.schemas && !a->allow_empty) {
        fprintf(stderr, "tensoralias check: no operator schema found (%s); nothing was checked\n",
                n.files ? what : "no C++ or Python source file");
        rc = TA_EXIT_USAGE;
    }
    return rc;
}

/* One native_functions.yaml: every pass run over it as it is read
 * (tensoralias/check.h), reported. A file that cannot be read is an I/O
 * error (exit 2) that does not stop the others: its diagnostic is in the
 * report too. */
static int check_yaml(const check_args *c, const char *file, ta_diags *all)
{
    ta_diags *d;
    const char *name = file;
    size_t count = 0;
    if (ta_diags_create(&d) != TA_OK) return TA_EXIT_USAGE;
    ta_status st = ta_cli_check_native(file, c->tags, &count, d, &name);
    int rc = TA_EXIT_CLEAN;
    if (st == TA_ERR_IO || st == TA_ERR_NOMEM || st == TA_ERR_INVALID) {
        ta_report_text(d, stderr);
        if (st != TA_ERR_IO) fprintf(stderr, "tensoralias check: %s: %s\n", name ? name : "", ta_status_str(st));
        if (c->format != TA_REPORT_TEXT && ta_diags_move(all, d) != TA_OK) st = TA_ERR_NOMEM;
        ta_diags_destroy(d);
        return TA_EXIT_USAGE;
    }
    if (st != TA_OK && st != TA_ERR_PARSE) {
        fprintf(stderr, "tensoralias check: %s\n", ta_status_str(st));
        rc = TA_EXIT_USAGE;
    }
    int r = report_part(c, d, name, all);
    if (rc == TA_EXIT_CLEAN) rc = r;
    if (rc == TA_EXIT_CLEAN && !count) {
        fprintf(stderr, "tensoralias check: %s: no native functions in it; nothing was checked\n", name);
        rc = TA_EXIT_USAGE;
    }
    ta_diags_destroy(d);
    return rc;
}

/* Fills c from argv; -1 to go on, else the exit status to end with. */
static int parse_args(check_args *c, int argc, char **argv)
{
    const char *fmt = "text";
    int only_files = 0;
    for (int i = 1; i < argc; i++) {
        int bad = 0;
        const char *v;
        if ((only_files || argv[i][0] != '-') && ta_cli_is_source(argv[i])) {
            c->sa.srcs[c->sa.nsrcs++] = argv[i];
        } else if (only_files || argv[i][0] != '-' || !strcmp(argv[i], "-")) {
            c->files[c->nfiles++] = argv[i];
        } else if (source_option(argc, argv, &i, &c->sa, &bad)) {
            /* -D, --no-git, --schemas */
        } else if (!strcmp(argv[i], "--")) {
            only_files = 1;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return TA_EXIT_CLEAN;
        } else if (!strcmp(argv[i], "--notes") || !strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
            c->notes = true;
        } else if ((v = opt_value(argc, argv, &i, "--tags", &bad))) {
            c->tags = v;
        } else if ((v = opt_value(argc, argv, &i, "--format", &bad))) {
            fmt = v;
        } else if (!bad) {
            return ta_cli_usage_error("check", "unknown option '%s'", argv[i]);
        }
        if (bad) return ta_cli_usage_error("check", "%s needs a value", argv[i]);
    }
    if (ta_report_format_parse(fmt, &c->format))
        return ta_cli_usage_error("check", "unknown format '%s' (text, json or sarif)", fmt);
    if (c->nfiles == 0 && !c->sa.nsrcs && !c->sa.nlists) c->files[c->nfiles++] = NULL; /* the bundled yaml */
    return -1;
}

/* The machine formats: every file's shown findings in one report. */
static int write_machine(const check_args *c, const ta_diags *all)
{
    size_t nrules;
    ta_rule_info *rules = all_rules(&nrules);
    ta_status st = c->format == TA_REPORT_JSON ? ta_diags_write_json(all, ta_write_file, stdout)
                                               : ta_diags_write_sarif(all, rules, nrules, ta_write_file, stdout);
    free(rules);
    return st != TA_OK;
}

int ta_cmd_check(int argc, char **argv)
{
    check_args c = {.files = calloc((size_t)argc + 1, sizeof(char *)),
                    .sa = {calloc((size_t)argc + 1, sizeof(char *)), calloc((size_t)argc + 1, sizeof(char *)),
                           calloc((size_t)argc + 1, sizeof(char *)), 0, 0, 0, false, false}};
    ta_diags *all;
    int rc = ta_diags_create(&all) != TA_OK || !c.files || !c.sa.srcs || !c.sa.defines || !c.sa.lists
                 ? TA_EXIT_USAGE
                                                                           : parse_args(&c, argc, argv);
    if (rc < 0) {
        rc = TA_EXIT_CLEAN;
        for (int i = 0; i < c.nfiles; i++) {
            int r = check_yaml(&c, c.files[i], all);
            if (r > rc) rc = r;
        }
        if (c.sa.nsrcs || c.sa.nlists) {
            int r = check_custom(&c, all);
            if (r > rc) rc = r;
        }
        if (c.format != TA_REPORT_TEXT && write_machine(&c, all)) rc = TA_EXIT_USAGE;
    }
    ta_diags_destroy(all);
    check_args_free(&c);
    return rc;
}
