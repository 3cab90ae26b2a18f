/* ir_golden.c - see ir_golden.h. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ir_golden.h"
#include "testdata.h"

const char *const ta_test_query_kinds[TA_TEST_QUERY_KINDS] = {
    "has_writers", "may_contain_alias", "may_alias", "move_after", "move_before", "schema",
};

static ta_ir_ops *default_ops;

static void free_default_ops(void) { ta_ir_ops_destroy(default_ops); }

const ta_ir_ops *ta_test_default_ops(void)
{
    if (default_ops) return default_ops;
    ta_diags *d = NULL;
    ta_ir_ops *ops = NULL;
    bool ok = ta_diags_create(&d) == TA_OK && ta_ir_ops_create(&ops) == TA_OK &&
              ta_ir_ops_add_default(ops, NULL, d) == TA_OK;
    if (!ok) {
        for (size_t i = 0; i < ta_diags_count(d); i++) ta_diag_render(ta_diags_get(d, i), stderr);
        ta_ir_ops_destroy(ops);
        ops = NULL;
    }
    ta_diags_destroy(d);
    default_ops = ops;
    if (ops) atexit(free_default_ops);
    return ops;
}

static ta_ir_graph *read_graph(const char *rel, bool declared)
{
    char path[512], name[512];
    ta_ir_graph *g = NULL;
    ta_diags *d = NULL;
    bool ok = ta_diags_create(&d) == TA_OK && ta_ir_graph_create(&g) == TA_OK;
    snprintf(name, sizeof name, "%s.classes", rel);
    FILE *probe = declared ? fopen(ta_test_data_path(path, sizeof path, name), "rb") : NULL;
    if (ok && probe) {
        fclose(probe);
        size_t len;
        char *text = ta_test_read_file(path, &len);
        ok = text && ta_ir_read_classes(g, text, len, path, d) == TA_OK;
        free(text);
    }
    snprintf(name, sizeof name, "%s.ir", rel);
    size_t len;
    char *text = ok ? ta_test_read_data(name, &len) : NULL;
    ok = text && ta_ir_read_into(g, text, len, name, d) == TA_OK;
    free(text);
    for (size_t i = 0; i < ta_diags_count(d); i++) ta_diag_render(ta_diags_get(d, i), stderr);
    ta_diags_destroy(d);
    if (!ok) {
        ta_ir_graph_destroy(g);
        return NULL;
    }
    return g;
}

ta_ir_graph *ta_test_read_graph(const char *rel) { return read_graph(rel, true); }

ta_ir_graph *ta_test_read_graph_undeclared(const char *rel) { return read_graph(rel, false); }

static int kind_index(const char *q)
{
    for (int k = 0; q && k < TA_TEST_QUERY_KINDS; k++)
        if (!strcmp(q, ta_test_query_kinds[k])) return k;
    return -1;
}

static const ta_ir_node *top_node(const ta_ir_graph *g, json_int_t i)
{
    const ta_ir_node *n = ta_ir_block_first(ta_ir_graph_block(g));
    for (; n && i > 0; i--) n = ta_ir_node_next(n);
    return i == 0 ? n : NULL;
}

/* Our answer to one query; -1 when it names something the graph lacks. */
static int ask(const json_t *q, int kind, const ta_ir_graph *g, const ta_ir_ops *ops, const ta_aliasdb *db,
               json_t **schema)
{
    const ta_ir_value *a = ta_ir_graph_find_value(g, json_string_value(json_object_get(q, "a")) ? json_string_value(json_object_get(q, "a")) : "");
    const ta_ir_value *b = ta_ir_graph_find_value(g, json_string_value(json_object_get(q, "b")) ? json_string_value(json_object_get(q, "b")) : "");
    const ta_ir_node *n = top_node(g, json_integer_value(json_object_get(q, "n")));
    const ta_ir_node *m = top_node(g, json_integer_value(json_object_get(q, "m")));
    switch (kind) {
    case 0: return a ? ta_aliasdb_has_writers(db, a) : -1;
    case 1: return a && b ? ta_aliasdb_may_contain_alias(db, a, b) : -1;
    case 2: return a && b ? ta_aliasdb_may_alias(db, a, b) : -1;
    case 3: return n && m ? ta_aliasdb_can_move_after(db, n, m) : -1;
    case 4: return n && m ? ta_aliasdb_can_move_before(db, n, m) : -1;
    default: {
        if (!n) return -1;
        const ta_ir_op *op = ta_ir_ops_resolve(ops, n);
        *schema = op ? json_string(ta_ir_op_text(op)) : json_null();
        return 0;
    }
    }
}

int ta_test_check_truth(const char *rel, const ta_ir_graph *g, const ta_ir_ops *ops, const ta_aliasdb *db,
                        ta_truth_counts *c, int show)
{
    char name[512];
    snprintf(name, sizeof name, "%s.truth.jsonl", rel);
    size_t nrows;
    json_t **rows = ta_test_read_jsonl(name, &nrows);
    if (!rows) return -1;
    int shown = 0;
    for (size_t r = 0; r < nrows; r++) {
        const json_t *q = rows[r];
        int kind = kind_index(json_string_value(json_object_get(q, "q")));
        json_t *schema = NULL;
        int got = kind < 0 ? -1 : ask(q, kind, g, ops, db, &schema);
        if (got < 0) {
            c->unknown++;
            continue;
        }
        c->asked[kind]++;
        const json_t *want = json_object_get(q, "answer");
        bool same = schema ? json_equal(schema, want) : json_is_boolean(want) && json_is_true(want) == (got == 1);
        if (!same) {
            c->wrong[kind]++;
            /* the safe answer is "may" for aliasing and writers, "cannot" for a move */
            bool safe = kind == 3 || kind == 4 ? got == 0 : got == 1;
            c->unsound[kind] += !schema && !safe;
            if (shown++ < show) {
                char *s = json_dumps(q, JSON_COMPACT);
                printf("  %s: we say %s to %s\n", rel, schema ? json_string_value(schema) : got ? "true" : "false", s);
                free(s);
            }
        }
        json_decref(schema);
    }
    ta_test_free_jsonl(rows, nrows);
    return 0;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **ta_test_truth_files(const char *dir, size_t *n)
{
    char path[512];
    *n = 0;
    DIR *dh = opendir(ta_test_data_path(path, sizeof path, dir));
    if (!dh) return NULL;
    size_t cap = 16;
    char **names = malloc(cap * sizeof *names);
    for (struct dirent *e; names && (e = readdir(dh));) {
        const char *suffix = ".truth.jsonl";
        size_t len = strlen(e->d_name), k = strlen(suffix);
        if (len <= k || strcmp(e->d_name + len - k, suffix)) continue;
        if (*n == cap) {
            char **more = realloc(names, (cap *= 2) * sizeof *names);
            if (!more) break;
            names = more;
        }
        char *rel = malloc(strlen(dir) + len + 2);
        if (!rel) break;
        sprintf(rel, "%s/%.*s", dir, (int)(len - k), e->d_name);
        names[(*n)++] = rel;
    }
    closedir(dh);
    if (names) qsort(names, *n, sizeof *names, cmp_names);
    return names;
}
