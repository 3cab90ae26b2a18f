/* cmd_graph_alias.c - `tensoralias graph-alias`: reads a TorchScript graph,
 * builds its alias analysis (AliasDb's, see tensoralias/aliasdb.h) and
 * either prints every value's aliasing (ta_aliasdb_write) or answers
 * queries, one JSON object per line, on one JSON line each: the query with
 * "answer" added. The query format is the one of the AliasDb ground truth
 * (tests/data/golden/aliasdb-1.13.1), so a golden test is a comparison. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "ir_cli.h"
#include "native_cli.h"
#include "tensoralias/aliasdb.h"
#include "tensoralias/ir.h"

static void help(FILE *out)
{
    fputs("usage: tensoralias graph-alias FILE.ir [--schemas FILE]... [--classes FILE] [--queries FILE]\n"
          "                                          [--format text|json|dot|graphml]\n"
          "\n"
          "Whole-graph alias analysis of a TorchScript graph as torch prints it\n"
          "(str(graph)), answer for answer TorchScript's AliasDb (torch 1.13.1).\n"
          "Each node's operator is resolved to the first overload, in registration\n"
          "order, that accepts its input types, as TorchScript does.\n"
          "\n"
          "  FILE.ir          the graph ('-' reads standard input)\n"
          "  --schemas FILE   the operators to resolve nodes against: a native_functions.yaml\n"
          "                   (*.yaml), or a text file of schemas, one a line, each optionally\n"
          "                   preceded by its alias analysis kind and a tab (FROM_SCHEMA,\n"
          "                   CONSERVATIVE, PURE_FUNCTION, INTERNAL_SPECIAL_CASE). Repeatable.\n"
          "                   Default: torch 1.13.1's registered operators, then the bundled\n"
          "                   native_functions.yaml's (an overload in both is torch's).\n"
          "  --classes FILE   class types declared whole, one a line: '__torch__.m.M(a : Tensor, b : int)'.\n"
          "                   What a class object may contain is its attributes' types, and a graph\n"
          "                   shows only the attributes it reads: an object of a class not declared\n"
          "                   here is taken to contain any mutable value (a note says which), which\n"
          "                   never answers \"no alias\" wrongly but more often \"may\" than AliasDb.\n"
          "                   tools/torch/script_classes.py writes this file for a scripted module.\n"
          "  --queries FILE   answer the JSON queries of FILE, one a line, each on one line:\n"
          "                     {\"q\": \"may_alias\", \"a\": \"%x\", \"b\": \"%y\"}\n"
          "                     {\"q\": \"may_contain_alias\", \"a\": \"%x\", \"b\": [\"%y\", \"%z\"]}\n"
          "                     {\"q\": \"has_writers\", \"a\": \"%x\"}\n"
          "                     {\"q\": \"move_after\", \"n\": 12, \"m\": 40}   (also move_before)\n"
          "                     {\"q\": \"schema\", \"n\": 12}   (the overload node 12 resolves to, or null)\n"
          "                   values by their printed names; n and m index the graph's top-level\n"
          "                   nodes in print order from 0. A move is only checked, not made.\n"
          "  --format F       without --queries: text (default), json (one object per value),\n"
          "                   dot (the graph's aliasing for Graphviz: values, locations,\n"
          "                   wildcards, writes in red), or graphml (the points-to graph,\n"
          "                   from igraph: locations, points-to and contains edges)\n"
          "\n"
          "A node no schema fits is analysed conservatively (as torch treats an unknown\n"
          "operation: it may write its inputs, its outputs are wildcards) and reported as a\n"
          "note on standard error with --notes (or -v), as are classes not declared whole.\n"
          "\n"
          "Exit status: 0 the graph was analysed and every query answered; 2 usage or I/O\n"
          "error, or a syntax error in the graph or a query (with its position).\n",
          out);
}

/* Errors and warnings; notes too when notes is set. */
static void print_diags(const ta_diags *d, bool notes)
{
    for (size_t i = 0; i < ta_diags_count(d); i++)
        if (notes || ta_diags_get(d, i)->severity != TA_SEV_NOTE) ta_cli_render(ta_diags_get(d, i), stderr);
}

/* ---- queries ----------------------------------------------------------------- */

typedef struct query_ctx {
    const ta_ir_graph *g;
    const ta_aliasdb *db;
    const ta_ir_ops *ops;
    const ta_ir_node **top; /* top-level nodes in print order (list_top_nodes) */
    uint32_t ntop;
    const char *path;
    uint32_t line;
    const char *text;
    size_t len;
    ta_diags *d;
} query_ctx;

static bool query_error(query_ctx *q, uint32_t col, const char *fmt, const char *arg)
{
    ta_loc loc = {q->path, q->line, col, 1, q->text, (uint32_t)q->len};
    ta_diag_error(q->d, &loc, "query", fmt, arg);
    return false;
}

/* One value or a list of values named by key. */
static bool values_of(query_ctx *q, json_t *o, const char *key, const ta_ir_value **vs, size_t cap, size_t *n)
{
    json_t *j = json_object_get(o, key);
    *n = 0;
    if (json_is_string(j)) j = json_pack("[O]", j);
    else if (json_is_array(j)) json_incref(j);
    else return query_error(q, 1, "the query needs \"%s\": a value name or a list of them", key);
    bool ok = true;
    size_t i;
    json_t *e;
    json_array_foreach(j, i, e) {
        const char *name = json_string_value(e);
        const ta_ir_value *v = name ? ta_ir_graph_find_value(q->g, name) : NULL;
        if (!v) {
            ok = query_error(q, 1, "no value '%s' in the graph", name ? name : "(not a string)");
            break;
        }
        if (*n < cap) vs[(*n)++] = v;
    }
    json_decref(j);
    return ok;
}

/* The graph's top-level nodes in print order, listed on the first query
 * that names one (a walk of the whole graph nobody else needs). */
static bool list_top_nodes(query_ctx *q)
{
    if (q->top) return true;
    uint32_t k = 0;
    for (const ta_ir_node *x = ta_ir_block_first(ta_ir_graph_block(q->g)); x; x = ta_ir_node_next(x)) k++;
    q->top = malloc((k + 1) * sizeof *q->top);
    if (!q->top) return false;
    k = 0;
    for (const ta_ir_node *x = ta_ir_block_first(ta_ir_graph_block(q->g)); x; x = ta_ir_node_next(x)) q->top[k++] = x;
    q->ntop = k;
    return true;
}

static bool node_of(query_ctx *q, json_t *o, const char *key, const ta_ir_node **n)
{
    if (!list_top_nodes(q)) return query_error(q, 1, "out of memory%s", "");
    json_t *j = json_object_get(o, key);
    if (!json_is_integer(j) || json_integer_value(j) < 0 || json_integer_value(j) >= q->ntop)
        return query_error(q, 1, "\"%s\" must be the index of a top-level node", key);
    *n = q->top[json_integer_value(j)];
    return true;
}

enum { MAX_QUERY_VALUES = 1024 };

/* Adds "answer" to the query object o. */
static bool answer(query_ctx *q, json_t *o)
{
    const char *kind = json_string_value(json_object_get(o, "q"));
    if (!kind) return query_error(q, 1, "a query needs \"q\", its kind%s", "");
    static const ta_ir_value *a[MAX_QUERY_VALUES], *b[MAX_QUERY_VALUES];
    size_t na, nb;
    const ta_ir_node *n, *m;
    if (!strcmp(kind, "may_alias") || !strcmp(kind, "may_contain_alias")) {
        if (!values_of(q, o, "a", a, MAX_QUERY_VALUES, &na) || !values_of(q, o, "b", b, MAX_QUERY_VALUES, &nb))
            return false;
        bool contain = kind[4] == 'c', yes = false;
        for (size_t i = 0; i < na && !yes; i++)
            for (size_t k = 0; k < nb && !yes; k++)
                yes = contain ? ta_aliasdb_may_contain_alias(q->db, a[i], b[k])
                              : ta_aliasdb_may_alias(q->db, a[i], b[k]);
        return json_object_set_new(o, "answer", json_boolean(yes)) == 0;
    }
    if (!strcmp(kind, "has_writers")) {
        if (!values_of(q, o, "a", a, MAX_QUERY_VALUES, &na)) return false;
        bool yes = false;
        for (size_t i = 0; i < na; i++) yes |= ta_aliasdb_has_writers(q->db, a[i]);
        return json_object_set_new(o, "answer", json_boolean(yes)) == 0;
    }
    if (!strcmp(kind, "move_after") || !strcmp(kind, "move_before")) {
        if (!node_of(q, o, "n", &n) || !node_of(q, o, "m", &m)) return false;
        bool yes = kind[5] == 'a' ? ta_aliasdb_can_move_after(q->db, n, m) : ta_aliasdb_can_move_before(q->db, n, m);
        return json_object_set_new(o, "answer", json_boolean(yes)) == 0;
    }
    if (!strcmp(kind, "schema")) {
        if (!node_of(q, o, "n", &n)) return false;
        const ta_ir_op *op = ta_ir_ops_resolve(q->ops, n);
        return json_object_set_new(o, "answer", op ? json_string(ta_ir_op_text(op)) : json_null()) == 0;
    }
    return query_error(q, 1, "unknown query kind '%s'", kind);
}

static int run_queries(query_ctx *q, const char *path)
{
    char *text;
    size_t len;
    if (ta_cli_read_file(path, &text, &len)) {
        fprintf(stderr, "tensoralias graph-alias: cannot read %s: %s\n", path, strerror(errno));
        return TA_EXIT_USAGE;
    }
    int rc = TA_EXIT_CLEAN;
    q->path = path;
    q->line = 0;
    for (char *line = text, *end; line < text + len; line = end + 1) {
        end = strchr(line, '\n');
        if (!end) end = text + len;
        q->line++;
        q->text = line;
        q->len = (size_t)(end - line);
        if (q->len == 0) continue;
        json_error_t err;
        json_t *o = json_loadb(line, q->len, 0, &err);
        bool ok = json_is_object(o);
        if (!o) {
            ta_loc loc = {path, q->line, (uint32_t)(err.column > 0 ? err.column : 1), 1, line, (uint32_t)q->len};
            ta_diag_error(q->d, &loc, "query", "%s", err.text);
        } else if (!ok) {
            query_error(q, 1, "a query is a JSON object%s", "");
        } else {
            ok = answer(q, o);
        }
        if (ok) {
            json_dumpf(o, stdout, JSON_PRESERVE_ORDER);
            putchar('\n');
        } else {
            rc = TA_EXIT_USAGE;
        }
        json_decref(o);
        print_diags(q->d, true);
        ta_diags_clear(q->d);
    }
    free(text);
    return rc;
}

/* ---- the command ---------------------------------------------------------------- */

enum { MAX_SCHEMA_FILES = 16 };

typedef struct options {
    const char *ir, *queries, *format, *classes;
    const char *schemas[MAX_SCHEMA_FILES];
    int nschemas;
    bool notes;
} options;

static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->format = "text";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help(stdout);
            return -1;
        }
        if (!strcmp(a, "--notes") || !strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            o->notes = true;
            continue;
        }
        if (!strcmp(a, "--schemas") || !strcmp(a, "--queries") || !strcmp(a, "--format") ||
            !strcmp(a, "--classes")) {
            if (i + 1 >= argc) return ta_cli_usage_error("graph-alias", "%s needs a value", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--queries")) o->queries = v;
            else if (!strcmp(a, "--classes")) o->classes = v;
            else if (!strcmp(a, "--format")) o->format = v;
            else if (o->nschemas == MAX_SCHEMA_FILES) return ta_cli_usage_error("graph-alias", "too many --schemas");
            else o->schemas[o->nschemas++] = v;
        } else if (a[0] == '-' && a[1]) {
            return ta_cli_usage_error("graph-alias", "unknown option '%s'", a);
        } else if (o->ir) {
            return ta_cli_usage_error("graph-alias", "one graph at a time");
        } else {
            o->ir = a;
        }
    }
    if (!o->ir) return ta_cli_usage_error("graph-alias", "give the graph, FILE.ir");
    if (strcmp(o->format, "text") && strcmp(o->format, "json") && strcmp(o->format, "dot") &&
        strcmp(o->format, "graphml"))
        return ta_cli_usage_error("graph-alias", "unknown format '%s' (text, json, dot, graphml)", o->format);
    return 0;
}

/* The graph, with the classes of --classes declared first. */
static ta_status read_graph(const options *o, const char *text, size_t len, ta_ir_graph **out, ta_diags *d)
{
    ta_ir_graph *g;
    ta_status st = ta_ir_graph_create(&g);
    if (st != TA_OK) return st;
    if (o->classes) {
        char *ctext;
        size_t clen;
        if (ta_cli_read_file(o->classes, &ctext, &clen)) {
            ta_diag_error(d, NULL, "io", "cannot read %s: %s", o->classes, strerror(errno));
            ta_ir_graph_destroy(g);
            return TA_ERR_IO;
        }
        st = ta_ir_read_classes(g, ctext, clen, o->classes, d);
        free(ctext);
    }
    const char *shown = strcmp(o->ir, "-") ? o->ir : "<stdin>";
    if (st == TA_OK) st = ta_ir_read_into(g, text, len, shown, d);
    if (st != TA_OK) {
        ta_ir_graph_destroy(g);
        return st;
    }
    *out = g;
    return TA_OK;
}

/* The analysis is the last thing the process does: what it allocated goes
 * back to the system with the process, at once, rather than a free() at a
 * time. Sanitizer builds (and the fault tests' build, under ASan too) free
 * everything, so the leak checker still holds the command to it. */
#if defined(__SANITIZE_ADDRESS__) || defined(TA_FAULT_INJECT)
#define FREE_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define FREE_AT_EXIT 1
#endif
#endif
#ifndef FREE_AT_EXIT
#define FREE_AT_EXIT 0
#endif

static int analyse(const options *o, ta_diags *d)
{
    const char *text = NULL;
    size_t len, mapped;
    if (ta_cli_map_file(o->ir, &text, &len, &mapped)) {
        fprintf(stderr, "tensoralias graph-alias: cannot read %s: %s\n", o->ir, strerror(errno));
        return TA_EXIT_USAGE;
    }
    int rc = TA_EXIT_USAGE;
    ta_ir_graph *g = NULL;
    ta_ir_ops *ops = NULL;
    ta_aliasdb *db = NULL;
    if (read_graph(o, text, len, &g, d) != TA_OK || ta_ir_ops_create(&ops) != TA_OK ||
        ta_cli_load_ir_ops(o->schemas, o->nschemas, g, ops, d) != TA_OK || ta_aliasdb_create(g, ops, &db, d) != TA_OK) {
        print_diags(d, true);
        goto done;
    }
    print_diags(d, o->notes); /* notes on nodes analysed conservatively */
    ta_diags_clear(d);
    if (o->queries) {
        query_ctx q = {g, db, ops, NULL, 0, NULL, 0, NULL, 0, d};
        rc = run_queries(&q, o->queries);
        free(q.top);
    } else {
        ta_aliasdb_format f = !strcmp(o->format, "json")      ? TA_ALIASDB_JSON
                              : !strcmp(o->format, "dot")     ? TA_ALIASDB_DOT
                              : !strcmp(o->format, "graphml") ? TA_ALIASDB_GRAPHML
                                                              : TA_ALIASDB_TEXT;
        rc = ta_aliasdb_write(db, f, stdout) != TA_OK || fflush(stdout) ? TA_EXIT_USAGE : TA_EXIT_CLEAN;
    }
done:
    if (FREE_AT_EXIT) {
        ta_aliasdb_destroy(db);
        ta_ir_ops_destroy(ops);
        ta_ir_graph_destroy(g);
        ta_cli_unmap_file(text, mapped);
    }
    return rc;
}

int ta_cmd_graph_alias(int argc, char **argv)
{
    options o;
    int rc = parse_args(argc, argv, &o);
    if (rc) return rc < 0 ? TA_EXIT_CLEAN : rc;
    ta_diags *d;
    if (ta_diags_create(&d) != TA_OK) return TA_EXIT_USAGE;
    rc = analyse(&o, d);
    ta_diags_destroy(d);
    return rc;
}
