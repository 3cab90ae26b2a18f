/* cmd_schema_graph.c - `tensoralias schema-graph`: writes one schema's
 * alias-set graph as Graphviz dot (default), GraphML or JSON (not to be
 * confused with graph-alias, the analysis of a whole TorchScript graph).
 * The schema comes from --schema, or
 * by operator name from a native_functions.yaml (the bundled one when no
 * file is given; "-" reads it from standard input). Exit 1 when the schema
 * does not parse (as `parse`), 2 on a usage or I/O error (an operator the
 * yaml does not have among them). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "native_cli.h"
#include "tensoralias/alias.h"
#include "tensoralias/schema.h"

static const char *const CMD = "schema-graph";

static void help(FILE *out)
{
    fputs("usage: tensoralias schema-graph (--schema SCHEMA | [FILE.yaml] OPNAME)\n"
          "                                [--format dot|graphml|json] [-o FILE]\n"
          "\n"
          "Writes the alias-set graph of one operator schema: a vertex per input and\n"
          "output (and per list element or Dict value), per alias set and for the\n"
          "wildcard '*'; edges for set membership before/after the call, writes and\n"
          "containment.\n"
          "\n"
          "  --schema SCHEMA   the schema text, e.g. 'aten::add_.Tensor(Tensor(a!) self, ...) -> Tensor(a!)'\n"
          "  FILE.yaml OPNAME  an operator of a native_functions.yaml, e.g. 'chunk' or 'aten::max.dim_max'\n"
          "                    (without FILE: the bundled PyTorch native_functions.yaml)\n"
          "  --format F        dot (default; render with 'dot -Tsvg'), graphml, json\n"
          "  -o FILE           write there instead of standard output\n"
          "\n"
          "Exit status: 0 written, 1 the schema does not parse (as in 'parse'), 2 usage or\n"
          "I/O error: OPNAME not in the yaml (the overloads of that name are suggested), a\n"
          "FILE that is not a native_functions.yaml, output that cannot be written.\n",
          out);
}

typedef struct graph_args {
    const char *schema, *format, *outpath, *yaml, *op;
} graph_args;

/* Fills a from argv; -1 to go on, else the exit status to end with. */
static int parse_args(graph_args *a, int argc, char **argv)
{
    const char *pos[2] = {NULL, NULL};
    int npos = 0;
    *a = (graph_args){.format = "dot"};
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            help(stdout);
            return TA_EXIT_CLEAN;
        } else if (!strcmp(s, "--schema") || !strcmp(s, "--format") || !strcmp(s, "-o")) {
            if (i + 1 >= argc) return ta_cli_usage_error(CMD, "%s needs a value", s);
            const char *v = argv[++i];
            if (!strcmp(s, "--schema")) a->schema = v;
            else if (!strcmp(s, "--format")) a->format = v;
            else a->outpath = v;
        } else if (!strncmp(s, "--format=", 9)) {
            a->format = s + 9;
        } else if (!strncmp(s, "--schema=", 9)) {
            a->schema = s + 9;
        } else if (s[0] == '-' && s[1]) {
            return ta_cli_usage_error(CMD, "unknown option '%s'", s);
        } else {
            if (npos == 2) return ta_cli_usage_error(CMD, "too many arguments");
            pos[npos++] = s;
        }
    }
    if (strcmp(a->format, "dot") && strcmp(a->format, "graphml") && strcmp(a->format, "json"))
        return ta_cli_usage_error(CMD, "unknown format '%s' (dot, graphml, json)", a->format);
    if (!a->schema && npos == 0) return ta_cli_usage_error(CMD, "give --schema SCHEMA or an operator name");
    if (a->schema && npos) return ta_cli_usage_error(CMD, "give --schema or an operator name, not both");
    a->yaml = npos == 2 ? pos[0] : NULL;
    a->op = npos ? pos[npos - 1] : NULL;
    return -1;
}

static void print_diags(const ta_diags *d)
{
    for (size_t i = 0; i < ta_diags_count(d); i++) ta_cli_render(ta_diags_get(d, i), stderr);
}

/* The base name of an operator name: "aten::add.Tensor" -> "add" (len). */
static size_t base_len(const char *name)
{
    const char *colon = strstr(name, "::");
    if (colon) name = colon + 2;
    return strcspn(name, ".");
}

/* "no operator 'add' in FILE; its overloads: add.Tensor, add.Scalar, ..." */
static int not_found(const ta_native_file *nf, const char *op, const char *shown)
{
    const char *colon = strstr(op, "::");
    const char *bare = colon ? colon + 2 : op;
    size_t blen = base_len(op), shown_n = 0, total = 0;
    fprintf(stderr, "tensoralias schema-graph: no operator '%s' in %s", op, shown);
    for (size_t i = 0; i < ta_native_count(nf); i++) {
        const char *name = ta_native_get(nf, i)->name;
        if (!name || base_len(name) != blen || strncmp(name, bare, blen)) continue;
        if (total++ < 12) fprintf(stderr, "%s%s", shown_n++ ? ", " : "; its overloads: ", name);
    }
    if (total > 12) fprintf(stderr, ", and %zu more", total - 12);
    fputc('\n', stderr);
    return TA_EXIT_USAGE;
}

/* The operator's schema from the yaml (*nf keeps it alive); -1 when found,
 * else the exit status. */
static int schema_from_yaml(const graph_args *a, ta_native_file **nf, ta_schema **s, ta_diags *d)
{
    const char *shown = NULL;
    ta_status st = ta_cli_load_native(a->yaml, NULL, nf, d, &shown);
    if (!*nf || st == TA_ERR_IO || st == TA_ERR_NOMEM || !ta_native_count(*nf)) {
        print_diags(d);
        if (*nf) fprintf(stderr, "tensoralias schema-graph: %s: no native functions in it (is it a "
                                 "native_functions.yaml?)\n", shown);
        return TA_EXIT_USAGE;
    }
    const ta_native_func *fn = ta_native_find(*nf, a->op);
    if (!fn) return not_found(*nf, a->op, shown ? shown : "the yaml");
    if (!fn->schema) {
        /* the loader's diagnostic for it says why */
        print_diags(d);
        return TA_EXIT_FINDINGS;
    }
    *s = fn->schema;
    return -1;
}

static int write_graph(const graph_args *a, const ta_alias_graph *g)
{
    FILE *out = a->outpath ? fopen(a->outpath, "w") : stdout;
    if (!out) {
        fprintf(stderr, "tensoralias schema-graph: cannot write %s: %s\n", a->outpath, strerror(errno));
        return TA_EXIT_USAGE;
    }
    ta_status st = !strcmp(a->format, "dot")       ? ta_alias_graph_write_dot(g, out)
                   : !strcmp(a->format, "graphml") ? ta_alias_graph_write_graphml(g, out)
                                                   : ta_alias_graph_write_json(g, out);
    bool bad = out == stdout ? ta_cli_flush_stdout() != 0 : fclose(out) != 0;
    if (bad || st == TA_ERR_IO)
        return ta_cli_write_error(CMD, a->outpath ? a->outpath : "standard output");
    if (st != TA_OK) {
        fprintf(stderr, "tensoralias schema-graph: %s\n", ta_status_str(st));
        return TA_EXIT_USAGE;
    }
    return TA_EXIT_CLEAN;
}

int ta_cmd_schema_graph(int argc, char **argv)
{
    graph_args a;
    int rc = parse_args(&a, argc, argv);
    if (rc >= 0) return rc;
    ta_arena *arena = NULL;
    ta_diags *d = NULL;
    ta_schema *s = NULL;
    ta_alias_graph *g = NULL;
    ta_native_file *nf = NULL;
    if (ta_arena_create(&arena) != TA_OK || ta_diags_create(&d) != TA_OK) {
        fprintf(stderr, "tensoralias schema-graph: out of memory\n");
        rc = TA_EXIT_USAGE;
    } else if (a.schema) {
        ta_parse_opts opts = {"<schema>", 1, 1};
        if (ta_schema_parse(arena, a.schema, strlen(a.schema), &opts, &s, d) != TA_OK) {
            print_diags(d);
            rc = TA_EXIT_FINDINGS; /* as parse: a schema that does not parse */
        }
    } else {
        rc = schema_from_yaml(&a, &nf, &s, d);
    }
    if (rc < 0 && ta_alias_graph_create(s, &g, d) != TA_OK) {
        print_diags(d);
        rc = TA_EXIT_USAGE;
    }
    if (rc < 0) rc = write_graph(&a, g);
    ta_alias_graph_destroy(g);
    ta_native_destroy(nf);
    ta_diags_destroy(d);
    ta_arena_destroy(arena);
    return rc;
}
