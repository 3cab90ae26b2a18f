/* cmd_extract.c - "tensoralias extract": every operator schema declared in
 * C++ and Python sources, one per line (which `tensoralias parse -` reads
 * back) or one JSON object per line, in the order the files were read. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "extract_cli.h"
#include "report.h"
#include "tensoralias/extract.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tensoralias extract [--format text|json] [-D NAME=VALUE ...] [-I DIR ...]\n"
            "                          [--compile-commands FILE] [--no-git] SRC...\n"
            "\n"
            "Finds the operator schemas declared in C++ (.cpp .cc .cu .cxx .c++ .cuh .h .hh\n"
            ".hpp .hxx .mm) and Python (.py .pyi) sources: m.def in TORCH_LIBRARY and\n"
            "TORCH_LIBRARY_FRAGMENT blocks (STABLE_ ones too, and macro wrappers of them),\n"
            "TORCH_SELECTIVE_SCHEMA, torch::RegisterOperators().op, Library(...).define,\n"
            "torch.library.define and @torch.library.custom_op (whose schema is built from\n"
            "the type hints as torch infers it). A directory is walked: inside a git work\n"
            "tree, the files git does not ignore (git ls-files -co --exclude-standard);\n"
            "elsewhere or with --no-git, every file but hidden and build directories.\n"
            "\n"
            "Each schema is printed as torch registers it: string pieces joined, the\n"
            "namespace of its block or Library applied.\n"
            "\n"
            "options:\n"
            "  --format FMT      text (default): one schema per line, line breaks inside a\n"
            "                    schema written as spaces, so 'tensoralias parse -' reads it;\n"
            "                    json: one object per operator: schema (null when the\n"
            "                    schema comes from a C++ kernel's signature), name,\n"
            "                    namespace (null when unknown), file, line, col, how (def,\n"
            "                    fragment, def-function, register, selective, python-library,\n"
            "                    python-define, custom-op), inferred, has_kernel\n"
            "  -D NAME=VALUE     a macro the build defines (TORCH_EXTENSION_NAME=_C), for\n"
            "                    namespaces and schema pieces spelled with it\n"
            "  -I DIR            a directory searched for quoted #includes (after the\n"
            "                    includer's own and before its parents up the tree)\n"
            "  --compile-commands FILE\n"
            "                    the build's compile_commands.json: each file it lists is\n"
            "                    read with its -D and -I (default: compile_commands.json\n"
            "                    or build/compile_commands.json at the top of a directory)\n"
            "  --no-git          walk directories without asking git what it ignores\n"
            "  -h, --help        this text\n"
            "\n"
            "What the scanner cannot resolve (a macro, a variable, an f-string) is a note on\n"
            "standard error naming the place, as are syntax errors in the schemas found.\n"
            "Exit status: 0 every schema found parses, 1 some does not (all are still\n"
            "printed), 2 usage error or a source that cannot be read.\n");
}

static bool blank(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

static void print_text(const ta_extract_op *p, FILE *out)
{
    uint32_t a = 0, b = p->schema_len;
    while (a < b && blank(p->schema[a])) a++;
    while (b > a && blank(p->schema[b - 1])) b--;
    for (uint32_t i = a; i < b; i++) {
        char c = p->schema[i];
        fputc(c == '\n' || c == '\r' || c == '\t' ? ' ' : c, out);
    }
    fputc('\n', out);
}

static int print_json(const ta_extract_op *p, FILE *out)
{
    json_t *o = json_pack("{s:o, s:s, s:o, s:s, s:I, s:I, s:s, s:b, s:b}", "schema",
                          p->schema ? json_stringn(p->schema, p->schema_len) : json_null(),
                          "name", p->name, "namespace", p->ns ? json_string(p->ns) : json_null(),
                          "file", p->file, "line", (json_int_t)p->line, "col", (json_int_t)p->col,
                          "how", ta_extract_how_name(p->how), "inferred", p->inferred,
                          "has_kernel", p->has_kernel);
    if (!o) return -1;
    int r = json_dumpf(o, out, JSON_PRESERVE_ORDER | JSON_COMPACT);
    json_decref(o);
    fputc('\n', out);
    return r;
}

int ta_cmd_extract(int argc, char **argv)
{
    const char *fmt = "text";
    const char **srcs = calloc((size_t)argc + 1, sizeof *srcs);
    const char **defines = calloc((size_t)argc + 1, sizeof *defines);
    const char **incs = calloc((size_t)argc + 1, sizeof *incs);
    int nsrcs = 0, ndefines = 0, nincs = 0, rc = -1, only_files = 0;
    ta_extract_opts o = {.defines = defines, .include_dirs = incs};
    if (!srcs || !defines || !incs) rc = TA_EXIT_USAGE;
    for (int i = 1; i < argc && rc < 0; i++) {
        const char *v = NULL;
        if (only_files || argv[i][0] != '-') srcs[nsrcs++] = argv[i];
        else if (!strcmp(argv[i], "--")) only_files = 1;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) usage(stdout), rc = TA_EXIT_CLEAN;
        else if (!strcmp(argv[i], "--no-git")) o.no_git = true;
        else if ((v = ta_cli_opt_value(argc, argv, &i, "--format"))) fmt = v;
        else if ((v = ta_cli_opt_value(argc, argv, &i, "--compile-commands"))) o.compile_commands = v;
        else if ((v = ta_cli_opt_value(argc, argv, &i, "-I"))) incs[nincs++] = v;
        else if (!strncmp(argv[i], "-I", 2) && argv[i][2]) incs[nincs++] = argv[i] + 2;
        else if ((v = ta_cli_opt_value(argc, argv, &i, "-D"))) defines[ndefines++] = v;
        else if (!strncmp(argv[i], "-D", 2) && argv[i][2]) defines[ndefines++] = argv[i] + 2;
        else rc = ta_cli_usage_error("extract", "unknown option or missing value '%s'", argv[i]);
    }
    if (rc < 0 && strcmp(fmt, "json") && strcmp(fmt, "text"))
        rc = ta_cli_usage_error("extract", "unknown format '%s' (text or json)", fmt);
    if (rc < 0 && !nsrcs) rc = ta_cli_usage_error("extract", "no source given");
    if (rc >= 0) {
        free(srcs);
        free(defines);
        free(incs);
        return rc;
    }
    bool json = !strcmp(fmt, "json");
    ta_diags *d;
    ta_extract *x = NULL;
    rc = ta_diags_create(&d) == TA_OK ? ta_cli_extract_with(srcs, nsrcs, &o, &x, d) : TA_EXIT_USAGE;
    ta_report_text(d, stderr);
    for (size_t i = 0; x && i < ta_extract_count(x); i++) {
        const ta_extract_op *p = ta_extract_get(x, i);
        if (json) {
            if (print_json(p, stdout)) rc = TA_EXIT_USAGE;
        } else if (p->schema) {
            print_text(p, stdout);
        }
        if (rc == TA_EXIT_CLEAN && p->schema && !p->parsed) rc = TA_EXIT_FINDINGS;
    }
    if (fflush(stdout)) rc = TA_EXIT_USAGE;
    ta_extract_destroy(x);
    ta_diags_destroy(d);
    free(srcs);
    free(defines);
    free(incs);
    return rc;
}
