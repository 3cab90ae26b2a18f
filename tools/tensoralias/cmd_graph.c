/* cmd_graph.c - `tensoralias graph`: writes one schema's alias-set graph as
 * Graphviz dot (default), GraphML or JSON. The schema comes from --schema, or
 * by operator name from a native_functions.yaml (the bundled one when no
 * file is given; "-" reads it from standard input). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "native_cli.h"
#include "tensoralias/alias.h"
#include "tensoralias/schema.h"

static void help(FILE *out)
{
    fputs("usage: tensoralias graph (--schema SCHEMA | [FILE.yaml] OPNAME) [--format dot|graphml|json] [-o FILE]\n"
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
          "  -o FILE           write there instead of standard output\n",
          out);
}

static void print_diags(const ta_diags *d)
{
    for (size_t i = 0; i < ta_diags_count(d); i++) ta_diag_render(ta_diags_get(d, i), stderr);
}

int ta_cmd_graph(int argc, char **argv)
{
    const char *schema = NULL, *format = "dot", *outpath = NULL;
    const char *pos[2] = {NULL, NULL};
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help(stdout);
            return TA_EXIT_CLEAN;
        } else if (!strcmp(a, "--schema") || !strcmp(a, "--format") || !strcmp(a, "-o")) {
            if (i + 1 >= argc) return ta_cli_usage_error("graph", "%s needs a value", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--schema")) schema = v;
            else if (!strcmp(a, "--format")) format = v;
            else outpath = v;
        } else if (!strncmp(a, "--format=", 9)) {
            format = a + 9;
        } else if (!strncmp(a, "--schema=", 9)) {
            schema = a + 9;
        } else if (a[0] == '-' && a[1]) {
            return ta_cli_usage_error("graph", "unknown option '%s'", a);
        } else {
            if (npos == 2) return ta_cli_usage_error("graph", "too many arguments");
            pos[npos++] = a;
        }
    }
    if (strcmp(format, "dot") && strcmp(format, "graphml") && strcmp(format, "json"))
        return ta_cli_usage_error("graph", "unknown format '%s' (dot, graphml, json)", format);
    if (!schema && npos == 0) return ta_cli_usage_error("graph", "give --schema SCHEMA or an operator name");
    if (schema && npos) return ta_cli_usage_error("graph", "give --schema or an operator name, not both");

    ta_arena *arena = ta_arena_create();
    ta_diags *d = ta_diags_create();
    if (!arena || !d) {
        fprintf(stderr, "tensoralias graph: out of memory\n");
        ta_arena_destroy(arena);
        ta_diags_destroy(d);
        return TA_EXIT_USAGE;
    }
    int rc = TA_EXIT_USAGE;
    ta_schema *s = NULL;
    ta_alias_graph *g = NULL;
    ta_native_file *nf = NULL;
    FILE *out = NULL;
    if (schema) {
        ta_parse_opts opts = {"<schema>", 1, 1};
        if (ta_schema_parse(arena, schema, strlen(schema), &opts, &s, d) != TA_OK) {
            print_diags(d);
            goto done;
        }
    } else {
        /* the schema lives in the loaded file, which stays until the end */
        const char *op = pos[npos - 1], *shown = NULL;
        ta_status st = ta_cli_load_native(npos == 2 ? pos[0] : NULL, NULL, &nf, d, &shown);
        if (!nf || st == TA_ERR_IO || st == TA_ERR_NOMEM) {
            print_diags(d);
            goto done;
        }
        const ta_native_func *fn = ta_native_find(nf, op);
        if (!fn || !fn->schema) {
            fprintf(stderr, "tensoralias graph: no operator '%s' in %s\n", op, shown ? shown : "the yaml");
            goto done;
        }
        s = fn->schema;
    }
    if (ta_alias_graph_create(s, &g, d) != TA_OK) {
        print_diags(d);
        goto done;
    }
    out = outpath ? fopen(outpath, "w") : stdout;
    if (!out) {
        fprintf(stderr, "tensoralias graph: cannot write %s: %s\n", outpath, strerror(errno));
        goto done;
    }
    ta_status st = !strcmp(format, "dot")       ? ta_alias_graph_write_dot(g, out)
                   : !strcmp(format, "graphml") ? ta_alias_graph_write_graphml(g, out)
                                                : ta_alias_graph_write_json(g, out);
    if (fflush(out) != 0) st = TA_ERR_IO;
    if (st != TA_OK) fprintf(stderr, "tensoralias graph: %s\n", ta_status_str(st));
    else rc = TA_EXIT_CLEAN;
done:
    if (out && out != stdout) fclose(out);
    ta_alias_graph_destroy(g);
    ta_native_destroy(nf);
    ta_diags_destroy(d);
    ta_arena_destroy(arena);
    return rc;
}
