/* cli.h - what every tensoralias subcommand shares: the command table entry,
 * exit codes, file reading and where the bundled PyTorch yaml lives. */
#ifndef TA_CLI_H
#define TA_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "tensoralias/diag.h"

enum { TA_EXIT_CLEAN = 0, TA_EXIT_FINDINGS = 1, TA_EXIT_USAGE = 2 };

typedef struct ta_command {
    const char *name;
    const char *summary; /* one line for "tensoralias --help" */
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} ta_command;

/* Reads a whole file (or stdin for "-") into a NUL-terminated malloc'd
 * buffer. Returns 0, or -1 with errno set (EFBIG past TA_MAX_INPUT_BYTES). */
int ta_cli_read_file(const char *path, char **buf, size_t *len);

/* The same for a file only read: a regular file is mapped (its pages are
 * the page cache's, neither copied nor cleared), anything else read.
 * *mapped is the length to unmap, 0 for a malloc'd buffer; release it with
 * ta_cli_unmap_file. A mapped text is not NUL-terminated. Should another
 * process truncate a mapped file while it is read, the process says which
 * file changed and exits 2 (a SIGBUS handler) instead of dying of SIGBUS. */
int ta_cli_map_file(const char *path, const char **text, size_t *len, size_t *mapped);
void ta_cli_unmap_file(const char *text, size_t mapped);

/* Path of a file bundled with tensoralias ("native_functions.yaml",
 * "tags.yaml"), as ta_bundled_file finds it with $TENSORALIAS_DATADIR as the
 * data folder. Returns a static buffer, or NULL. */
const char *ta_cli_bundled(const char *name);

/* Prints "tensoralias CMD: message" to stderr and returns TA_EXIT_USAGE. */
int ta_cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* --color: auto (colour on a terminal unless NO_COLOR is set and not
 * empty), always, never. main sets it before running the command. */
typedef enum ta_cli_color { TA_COLOR_AUTO, TA_COLOR_ALWAYS, TA_COLOR_NEVER } ta_cli_color;
void ta_cli_set_color(ta_cli_color c);

/* Removes every --color=WHEN / --color WHEN from argv (updating *argc);
 * returns -1 when WHEN is not auto, always or never, else 0. */
int ta_cli_take_color(int *argc, char **argv);

/* Renders one diagnostic, in colour when --color says so for out. */
struct ta_diag;
void ta_cli_render(const struct ta_diag *g, FILE *out);

/* Flushes standard output; nonzero when anything written to it was lost
 * (a full disk, a closed pipe: SIGPIPE is ignored, so that is EPIPE). */
int ta_cli_flush_stdout(void);

/* Prints "tensoralias CMD: cannot write WHERE: reason" to stderr (once per
 * process) and returns TA_EXIT_USAGE. Commands call it for their -o files;
 * main calls it for standard output after every command. */
int ta_cli_write_error(const char *cmd, const char *where);

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

/* A JSON string of s[0..n), whatever bytes it holds: valid UTF-8 as is,
 * every byte that is not part of one as the four characters \xNN (as
 * Python's backslashreplace writes it). NULL only when out of memory. */
json_t *ta_cli_json_bytes(const char *s, size_t n);

/* Subcommands. */
int ta_cmd_parse(int argc, char **argv);
int ta_cmd_check(int argc, char **argv);
int ta_cmd_list(int argc, char **argv);
int ta_cmd_schema_graph(int argc, char **argv);
int ta_cmd_verify(int argc, char **argv);
int ta_cmd_groups(int argc, char **argv);
int ta_cmd_autogen(int argc, char **argv);
int ta_cmd_extract(int argc, char **argv);
int ta_cmd_graph_alias(int argc, char **argv);
int ta_cmd_functionalize(int argc, char **argv);
int ta_cmd_diff(int argc, char **argv);

#endif
