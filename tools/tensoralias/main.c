/* main.c - the tensoralias command: dispatches to a subcommand. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const ta_command commands[] = {
    {"parse", "parse operator schemas and print them back (or as JSON)", ta_cmd_parse},
    {"check", "load native_functions.yaml as torchgen does and report every problem", ta_cmd_check},
    {"list", "list the native functions of native_functions.yaml, one per line or as JSON", ta_cmd_list},
    {"schema-graph", "write one schema's alias-set graph (dot, GraphML, JSON)", ta_cmd_schema_graph},
    {"verify", "run kernels and check what they do to memory against their schemas", ta_cmd_verify},
    {"groups", "the operator groups torchgen forms (functional/inplace/out, views)", ta_cmd_groups},
    {"autogen", "derive the variants autogen: asks for, as torchgen does", ta_cmd_autogen},
    {"extract", "list the operator schemas declared in C++ and Python sources", ta_cmd_extract},
    {"graph-alias", "whole-graph alias analysis of a TorchScript graph (AliasDb's answers)", ta_cmd_graph_alias},
    {"functionalize", "remove the mutation from a TorchScript graph (functional ops, scatters)", ta_cmd_functionalize},
    {"diff", "what changed in the operator contract between two versions, and what it breaks", ta_cmd_diff},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

/* Names a command had before, still accepted (and not listed): scripts
 * written for them keep working. */
static const struct {
    const char *old, *now;
} renamed[] = {
    {"graph", "schema-graph"}, /* two kinds of graph: a schema's, and graph-alias's */
};

static const char *current_name(const char *cmd)
{
    for (size_t i = 0; i < sizeof renamed / sizeof renamed[0]; i++)
        if (!strcmp(cmd, renamed[i].old)) return renamed[i].now;
    return cmd;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tensoralias <command> [options] [inputs]\n"
            "\n"
            "Alias and mutation analysis of tensor operator schemas.\n"
            "\n"
            "commands:\n");
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-13s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\n'tensoralias <command> --help' describes each command. Every command takes\n"
            "--color=auto|always|never for its diagnostics (auto: on a terminal, unless\n"
            "NO_COLOR is set).\n"
            "Exit status: 0 clean, 1 findings, 2 usage or I/O error (including output that\n"
            "cannot be written).\n");
}

int main(int argc, char **argv)
{
    /* Diagnostics go out a line at a time, not a byte at a time (the
     * renderer writes the caret line by characters): 5,000 diagnostics on
     * a long line were 1.2 million write calls. Lines keep their order with
     * standard output's, and verify's progress line flushes itself. */
    static char errbuf[1 << 14];
    setvbuf(stderr, errbuf, _IOLBF, sizeof errbuf);
    if (argc < 2) {
        usage(stderr);
        return TA_EXIT_USAGE;
    }
    if (ta_cli_take_color(&argc, argv)) {
        fprintf(stderr, "tensoralias: --color is auto, always or never\n");
        return TA_EXIT_USAGE;
    }
    if (argc < 2) {
        usage(stderr);
        return TA_EXIT_USAGE;
    }
    const char *cmd = current_name(argv[1]);
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return ta_cli_flush_stdout() ? ta_cli_write_error(cmd, "standard output") : TA_EXIT_CLEAN;
    }
    if (!strcmp(cmd, "--version")) {
        printf("tensoralias %s\n", TA_VERSION);
        return ta_cli_flush_stdout() ? ta_cli_write_error(cmd, "standard output") : TA_EXIT_CLEAN;
    }
    /* A closed pipe is an output error the command reports, not a silent death. */
    signal(SIGPIPE, SIG_IGN);
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(cmd, commands[i].name)) {
            int rc = commands[i].run(argc - 1, argv + 1);
            if (ta_cli_flush_stdout()) rc = ta_cli_write_error(cmd, "standard output");
            return rc;
        }
    fprintf(stderr, "tensoralias: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return TA_EXIT_USAGE;
}
