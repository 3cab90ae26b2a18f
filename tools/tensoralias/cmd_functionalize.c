/* cmd_functionalize.c - `tensoralias functionalize`: reads a TorchScript
 * graph, removes its mutation (tensoralias/functionalize.h) and prints the
 * result as IR torch._C.parse_ir reads, or the pass's report as JSON; a
 * summary and every node left mutating go to stderr. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "ir_cli.h"
#include "tensoralias/functionalize.h"
#include "tensoralias/ir.h"

static void help(FILE *out)
{
    fputs("usage: tensoralias functionalize FILE.ir [--schemas FILE]... [--yaml FILE]\n"
          "                                 [--no-copy-back] [--format ir|json]\n"
          "\n"
          "Removes mutation from a TorchScript graph: in-place, out= and mutable operators\n"
          "become their functional counterparts (the overload with the same torchgen\n"
          "signature), writes through views become scatters into their bases, writes\n"
          "inside prim::If and prim::Loop leave them as extra outputs and loop-carried\n"
          "values, and a written graph input gets one aten::copy_ of its final value at\n"
          "the end. What cannot be rewritten exactly stays, with its reason.\n"
          "\n"
          "  FILE.ir          the graph as torch prints it ('-' reads standard input)\n"
          "  --schemas FILE   the operators to resolve nodes against, as for graph-alias\n"
          "                   (a *.yaml or a list of schemas; repeatable). Default: torch\n"
          "                   1.13.1's registered operators, then the bundled yaml's.\n"
          "  --yaml FILE      a native_functions.yaml in place of the bundled one\n"
          "  --no-copy-back   return the final values of written graph inputs as extra\n"
          "                   graph outputs (in input order) instead of copying them back\n"
          "  --format F       ir (default): the rewritten graph, as torch._C.parse_ir reads\n"
          "                   it; json: the report (counts and the nodes left mutating)\n"
          "\n"
          "Standard error gets a summary: mutating nodes before and after, copies\n"
          "added, and each node left mutating with the reason.\n"
          "\n"
          "Exit status: 0 every mutation but the copy-backs removed; 1 some stay;\n"
          "2 usage or I/O error, or a malformed graph.\n",
          out);
}

enum { MAX_SCHEMA_FILES = 16 };

typedef struct options {
    const char *ir, *format, *yaml;
    const char *schemas[MAX_SCHEMA_FILES + 1];
    int nschemas;
    bool no_copy_back;
} options;

static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->format = "ir";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help(stdout);
            return -1;
        }
        if (!strcmp(a, "--no-copy-back")) {
            o->no_copy_back = true;
        } else if (!strcmp(a, "--schemas") || !strcmp(a, "--format") || !strcmp(a, "--yaml")) {
            if (i + 1 >= argc) return ta_cli_usage_error("functionalize", "%s needs a value", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--format")) o->format = v;
            else if (!strcmp(a, "--yaml")) o->yaml = v;
            else if (o->nschemas == MAX_SCHEMA_FILES) return ta_cli_usage_error("functionalize", "too many --schemas");
            else o->schemas[o->nschemas++] = v;
        } else if (a[0] == '-' && a[1]) {
            return ta_cli_usage_error("functionalize", "unknown option '%s'", a);
        } else if (o->ir) {
            return ta_cli_usage_error("functionalize", "one graph at a time");
        } else {
            o->ir = a;
        }
    }
    if (!o->ir) return ta_cli_usage_error("functionalize", "give the graph, FILE.ir");
    if (strcmp(o->format, "ir") && strcmp(o->format, "json"))
        return ta_cli_usage_error("functionalize", "unknown format '%s' (ir, json)", o->format);
    if (o->yaml && !o->nschemas) {
        const char *reg = ta_cli_bundled("registered-operators.txt");
        if (reg) o->schemas[o->nschemas++] = reg;
    }
    if (o->yaml) o->schemas[o->nschemas++] = o->yaml;
    return 0;
}

static void print_diags(const ta_diags *d)
{
    for (size_t i = 0; i < ta_diags_count(d); i++) ta_diag_render(ta_diags_get(d, i), stderr);
}

static void summary(const options *o, const ta_functionalize_report *r)
{
    const ta_functionalize_counts *c = ta_functionalize_report_counts(r);
    const char *shown = strcmp(o->ir, "-") ? o->ir : "<stdin>";
    for (size_t i = 0; i < ta_functionalize_report_nkept(r); i++) {
        const ta_functionalize_kept *k = ta_functionalize_report_kept(r, i);
        fprintf(stderr, "%s:%u: note: %s (%s) stays: %s\n", shown, k->line, k->kind, k->output, k->reason);
    }
    fprintf(stderr,
            "%s: %u mutating nodes before, %u after (%u copy-backs, %u kept); %u rewritten, %u scatters, "
            "%u views taken again, %u values threaded through blocks, %u outputs added\n",
            shown, c->mutating_before, c->mutating_after, c->copy_backs, c->kept, c->rewritten, c->scatters,
            c->regenerated, c->threaded, c->extra_outputs);
}

static int print_json(const ta_functionalize_report *r)
{
    const ta_functionalize_counts *c = ta_functionalize_report_counts(r);
    json_t *kept = json_array();
    for (size_t i = 0; i < ta_functionalize_report_nkept(r); i++) {
        const ta_functionalize_kept *k = ta_functionalize_report_kept(r, i);
        json_array_append_new(kept, json_pack("{s:s, s:s, s:i, s:s}", "kind", k->kind, "output", k->output,
                                              "line", (json_int_t)k->line, "reason", k->reason));
    }
    json_t *o = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:o}", "mutating_before",
                          (json_int_t)c->mutating_before, "mutating_after", (json_int_t)c->mutating_after,
                          "rewritten", (json_int_t)c->rewritten, "copy_backs", (json_int_t)c->copy_backs,
                          "extra_outputs", (json_int_t)c->extra_outputs, "scatters", (json_int_t)c->scatters,
                          "regenerated", (json_int_t)c->regenerated, "threaded", (json_int_t)c->threaded, "kept", kept);
    int bad = !o || json_dumpf(o, stdout, JSON_PRESERVE_ORDER) || putchar('\n') == EOF;
    json_decref(o);
    return bad;
}

static int run(const options *o, ta_diags *d)
{
    char *text = NULL;
    size_t len;
    if (ta_cli_read_file(o->ir, &text, &len)) {
        fprintf(stderr, "tensoralias functionalize: cannot read %s: %s\n", o->ir, strerror(errno));
        return TA_EXIT_USAGE;
    }
    int rc = TA_EXIT_USAGE;
    ta_ir_graph *g = NULL;
    ta_ir_ops *ops = NULL;
    ta_functionalize_report *r = NULL;
    ta_functionalize_opts fo = {.no_copy_back = o->no_copy_back};
    const char *shown = strcmp(o->ir, "-") ? o->ir : "<stdin>";
    if (ta_ir_read(text, len, shown, &g, d) != TA_OK || ta_ir_ops_create(&ops) != TA_OK ||
        ta_cli_load_ir_ops(o->schemas, o->nschemas, NULL, ops, d) != TA_OK || ta_functionalize(g, ops, &fo, &r, d) != TA_OK) {
        print_diags(d);
        goto done;
    }
    print_diags(d);
    summary(o, r);
    int bad = !strcmp(o->format, "json") ? print_json(r) : ta_ir_write_as(g, stdout, TA_IR_AS_PARSE_IR_READS) != TA_OK;
    if (bad || fflush(stdout)) goto done;
    rc = ta_functionalize_report_nkept(r) ? TA_EXIT_FINDINGS : TA_EXIT_CLEAN;
done:
    ta_functionalize_report_destroy(r);
    ta_ir_ops_destroy(ops);
    ta_ir_graph_destroy(g);
    free(text);
    return rc;
}

int ta_cmd_functionalize(int argc, char **argv)
{
    options o;
    int rc = parse_args(argc, argv, &o);
    if (rc) return rc < 0 ? TA_EXIT_CLEAN : rc;
    ta_diags *d;
    if (ta_diags_create(&d) != TA_OK) return TA_EXIT_USAGE;
    rc = run(&o, d);
    ta_diags_destroy(d);
    return rc;
}
