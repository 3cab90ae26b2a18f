/* cmd_diff.c - "tensoralias diff": what changed in the operator contract
 * between two versions (a yaml, a schema list or sources each), torch's
 * compatibility verdicts and the alias-contract changes (the library's
 * ta_diff), as text, JSON lines or SARIF. Exit 0 when nothing breaks
 * backward compatibility (or the allow-list excuses it), 1 when something
 * does, 2 on a usage or I/O problem. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "diff_input.h"
#include "diff_report.h"
#include "report.h"
#include "tensoralias/report.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tensoralias diff [options] OLD [NEW]\n"
            "\n"
            "What changed in the operator contract between two versions, and whether it\n"
            "breaks callers. OLD and NEW are each a native_functions.yaml, a schema list (one\n"
            "schema a line, '#' comments) or C++/Python sources of custom operators (a file\n"
            "or a directory, as 'tensoralias extract' reads them); '-' is standard input.\n"
            "Without NEW, OLD is compared with the PyTorch main yaml bundled with\n"
            "tensoralias. Overloads are matched by full name (no namespace means aten).\n"
            "\n"
            "For every overload in both whose schema changed: torch's verdicts, exactly as\n"
            "torch 1.13.1's FunctionSchema::isBackwardCompatibleWith and\n"
            "isForwardCompatibleWith give them, and each change of the alias contract:\n"
            "writes ('!') added or removed, aliases added to or removed from a return (a\n"
            "copy became a view or a view a copy), alias sets changed or only renamed (what\n"
            "may alias what is the same; torch still calls it incompatible), torchgen's kind\n"
            "changed, defaults changed; and the overloads added and removed.\n"
            "\n"
            "options:\n"
            "  --format FMT       text (default: diagnostics on standard error, pointing into\n"
            "                     NEW, with a note at OLD), json (one object per overload\n"
            "                     added, removed or changed), or sarif (SARIF 2.1.0)\n"
            "  --allow FILE       an allow-list: each line a regular expression (POSIX\n"
            "                     extended) searched in the old schema's text\n"
            "                     (\"aten::name.overload(args) -> returns\") and the date the\n"
            "                     entry expires (YYYY-MM-DD), as PyTorch's ALLOW_LIST;\n"
            "                     an excused break is a note, an expired entry is ignored\n"
            "  --today DATE       the date expiries are judged against (default: today)\n"
            "  --as KIND          read both sides as yaml, list or sources (default: a\n"
            "                     directory or a C++/Python extension is sources, .yaml or\n"
            "                     .yml is yaml, any other file is yaml when it starts with\n"
            "                     '- ', else a list)\n"
            "  --old-as KIND, --new-as KIND   the same for one side\n"
            "  -D NAME=VALUE      a macro the build defines (sources)\n"
            "  --no-git           walk directories without asking git what it ignores\n"
            "  --notes, -v        show notes too: overloads added, alias sets renamed,\n"
            "                     excused breaks\n"
            "  -h, --help         this help\n"
            "\n"
            "Exit status: 0 nothing breaks backward compatibility (or the allow-list excuses\n"
            "it), 1 something does (an overload removed, or one torch calls not backward\n"
            "compatible), 2 usage or I/O error.\n");
}

typedef struct diff_args {
    ta_side old_side, new_side;
    const char *allow, *today;
    const char **defines;
    int ndefines;
    bool no_git, notes;
    ta_report_format format;
} diff_args;

/* --today, or the local date, as yyyymmdd; -1 when --today is no date. */
static int32_t today(const char *s)
{
    int y, m, d, used = 0;
    if (s) {
        if (sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &used) != 3 || s[used] || m < 1 || m > 12 || d < 1 || d > 31)
            return -1;
        return y * 10000 + m * 100 + d;
    }
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    return (tm.tm_year + 1900) * 10000 + (tm.tm_mon + 1) * 100 + tm.tm_mday;
}

static int set_kind(const char *v, ta_side_kind *a, ta_side_kind *b)
{
    ta_side_kind k;
    if (ta_side_kind_parse(v, &k)) return ta_cli_usage_error("diff", "unknown kind '%s' (yaml, list or sources)", v);
    if (a) *a = k;
    if (b) *b = k;
    return -1;
}

/* One option at argv[*i]; -1 to go on, else the exit status. */
static int option(diff_args *a, int argc, char **argv, int *i, const char **fmt)
{
    const char *v;
    char *o = argv[*i];
    if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
        usage(stdout);
        return TA_EXIT_CLEAN;
    }
    if (!strcmp(o, "--notes") || !strcmp(o, "-v")) a->notes = true;
    else if (!strcmp(o, "--no-git")) a->no_git = true;
    else if (!strncmp(o, "-D", 2) && o[2]) a->defines[a->ndefines++] = o + 2;
    else if ((v = ta_cli_opt_value(argc, argv, i, "-D"))) a->defines[a->ndefines++] = v;
    else if ((v = ta_cli_opt_value(argc, argv, i, "--format"))) *fmt = v;
    else if ((v = ta_cli_opt_value(argc, argv, i, "--allow"))) a->allow = v;
    else if ((v = ta_cli_opt_value(argc, argv, i, "--today"))) a->today = v;
    else if ((v = ta_cli_opt_value(argc, argv, i, "--as"))) return set_kind(v, &a->old_side.kind, &a->new_side.kind);
    else if ((v = ta_cli_opt_value(argc, argv, i, "--old-as"))) return set_kind(v, &a->old_side.kind, NULL);
    else if ((v = ta_cli_opt_value(argc, argv, i, "--new-as"))) return set_kind(v, NULL, &a->new_side.kind);
    else return ta_cli_usage_error("diff", "unknown option '%s' (or it needs a value)", o);
    return -1;
}

static int parse_args(diff_args *a, int argc, char **argv)
{
    const char *fmt = "text", *files[2] = {NULL, NULL};
    int nfiles = 0, only_files = 0;
    for (int i = 1; i < argc; i++) {
        if (only_files || argv[i][0] != '-' || !strcmp(argv[i], "-")) {
            if (nfiles == 2) return ta_cli_usage_error("diff", "more than two inputs ('%s')", argv[i]);
            files[nfiles++] = argv[i];
        } else if (!strcmp(argv[i], "--")) {
            only_files = 1;
        } else {
            int rc = option(a, argc, argv, &i, &fmt);
            if (rc >= 0) return rc;
        }
    }
    if (!nfiles) return ta_cli_usage_error("diff", "OLD is missing (see --help)");
    if (ta_report_format_parse(fmt, &a->format))
        return ta_cli_usage_error("diff", "unknown format '%s' (text, json or sarif)", fmt);
    if (files[0] && files[1] && !strcmp(files[0], "-") && !strcmp(files[1], "-"))
        return ta_cli_usage_error("diff", "only one side can be standard input");
    if (today(a->today) < 0) return ta_cli_usage_error("diff", "--today is a date such as 2026-11-28");
    a->old_side.path = files[0];
    a->new_side.path = files[1];
    return -1;
}

/* The findings: diagnostics on stderr for text, else the records or the
 * SARIF log on stdout. */
static int write_out(const diff_args *a, const ta_diff *d, const ta_diags *diags)
{
    if (a->format == TA_REPORT_JSON) return ta_diff_json(d, stdout) ? TA_EXIT_USAGE : TA_EXIT_CLEAN;
    if (a->format == TA_REPORT_SARIF) {
        size_t n;
        const ta_rule_info *rules = ta_diff_rules(&n);
        return ta_diags_write_sarif(diags, rules, n, ta_write_file, stdout) ? TA_EXIT_USAGE : TA_EXIT_CLEAN;
    }
    ta_diff_text(diags, a->notes, stderr);
    ta_diff_summary_line(d, a->old_side.name, a->new_side.name, stderr);
    return TA_EXIT_CLEAN;
}

/* Loads the sides and the allow-list; exit status, or -1 to go on. */
static int load(diff_args *a, ta_allow_list **allow, ta_diags *diags)
{
    a->defines[a->ndefines] = NULL;
    int rc = ta_side_load(&a->old_side, a->defines, a->no_git, diags);
    if (rc == TA_EXIT_CLEAN) rc = ta_side_load(&a->new_side, a->defines, a->no_git, diags);
    if (rc == TA_EXIT_CLEAN && a->allow) {
        ta_status st = ta_allow_list_load_path(a->allow, today(a->today), allow, diags);
        if (st != TA_OK && st != TA_ERR_PARSE) rc = TA_EXIT_USAGE;
    }
    if (rc != TA_EXIT_CLEAN) ta_diff_text(diags, true, stderr);
    return rc == TA_EXIT_CLEAN ? -1 : rc;
}

static int run(diff_args *a)
{
    ta_diags *diags = NULL;
    (void)ta_diags_create(&diags);
    ta_allow_list *allow = NULL;
    ta_diff *d = NULL;
    int rc = diags ? load(a, &allow, diags) : TA_EXIT_USAGE;
    if (rc < 0) {
        ta_diff_input o = ta_side_input(&a->old_side), n = ta_side_input(&a->new_side);
        ta_diff_opts opts = {allow};
        ta_status st = ta_diff_create(&o, &n, &opts, &d, diags);
        if (st != TA_OK) fprintf(stderr, "tensoralias diff: %s\n", ta_status_str(st));
        rc = st != TA_OK ? TA_EXIT_USAGE : write_out(a, d, diags);
    }
    if (rc == TA_EXIT_CLEAN && d) {
        ta_diff_summary s;
        ta_diff_summarize(d, &s);
        rc = s.breaks ? TA_EXIT_FINDINGS : TA_EXIT_CLEAN;
    }
    ta_diff_destroy(d);
    ta_allow_list_destroy(allow);
    ta_diags_destroy(diags);
    return rc;
}

int ta_cmd_diff(int argc, char **argv)
{
    diff_args a;
    memset(&a, 0, sizeof a);
    a.defines = calloc((size_t)argc + 1, sizeof *a.defines);
    int rc = a.defines ? parse_args(&a, argc, argv) : TA_EXIT_USAGE;
    if (rc < 0) rc = run(&a);
    ta_side_free(&a.old_side);
    ta_side_free(&a.new_side);
    free(a.defines);
    return rc;
}
