/* cli.h - what every tensoralias subcommand shares: the command table entry,
 * exit codes, file reading and where the bundled PyTorch yaml lives. */
#ifndef TA_CLI_H
#define TA_CLI_H

#include <stddef.h>
#include <stdio.h>

enum { TA_EXIT_CLEAN = 0, TA_EXIT_FINDINGS = 1, TA_EXIT_USAGE = 2 };

typedef struct ta_command {
    const char *name;
    const char *summary; /* one line for "tensoralias --help" */
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} ta_command;

/* Reads a whole file (or stdin for "-") into a NUL-terminated malloc'd
 * buffer. Returns 0, or -1 with errno set. */
int ta_cli_read_file(const char *path, char **buf, size_t *len);

/* Path of a file bundled with tensoralias ("native_functions.yaml",
 * "tags.yaml"), looked up in $TENSORALIAS_DATADIR, next to the executable
 * (build tree), in ../share/tensoralias relative to it (installed tree), and
 * in the compiled-in TA_DATADIR. Returns a static buffer, or NULL. */
const char *ta_cli_bundled(const char *name);

/* Prints "tensoralias CMD: message" to stderr and returns TA_EXIT_USAGE. */
int ta_cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The value of option `name` at argv[*i]: "--opt VALUE" (advancing *i)
 * or "--opt=VALUE"; NULL when argv[*i] is another option or the value is
 * missing. */
const char *ta_cli_opt_value(int argc, char **argv, int *i, const char *name);

/* One JSON object describing a parsed schema (what "parse --json" prints):
 * schema, name, overload, args, returns. Commands that report more about a
 * schema extend the object this returns. Caller owns the reference. */
struct ta_schema;
typedef struct json_t json_t;
json_t *ta_cli_schema_json(const struct ta_schema *s);

/* Subcommands. */
int ta_cmd_parse(int argc, char **argv);
int ta_cmd_check(int argc, char **argv);
int ta_cmd_list(int argc, char **argv);
int ta_cmd_graph(int argc, char **argv);
int ta_cmd_verify(int argc, char **argv);
int ta_cmd_groups(int argc, char **argv);
int ta_cmd_autogen(int argc, char **argv);
int ta_cmd_extract(int argc, char **argv);
int ta_cmd_graph_alias(int argc, char **argv);
int ta_cmd_functionalize(int argc, char **argv);

#endif
