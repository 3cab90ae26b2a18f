/* aliasdb_write.c - the analysis for people: a record per value as text or
 * JSON lines, or the whole as Graphviz dot (ta_aliasdb_write; the GraphML
 * of the points-to graph is aliasdb_graph.c's).
 *
 * A location is named by the value whose memory it is ("%x") or, for a
 * wildcard, by its type ("*Tensor"). A writer is named by its kind and the
 * line it was read from. The writers of every location are gathered once
 * (an inverted write index), so a dump is linear in the graph. The dot
 * drawing has a box per value, an ellipse per location (a gold octagon for
 * a wildcard), points-to edges in black, contained locations dashed blue,
 * and the writing nodes and their writes in red. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "alias/aliasdb/aliasdb_internal.h"

typedef struct dump {
    const ta_aliasdb *db;
    FILE *out;
    ta_aliasdb_format format;
    bool nomem;
    /* writers of location l: writer[start[l] .. start[l+1]), in print order */
    uint32_t *start;
    const ta_ir_node **writer;
    uint32_t nwrites;
    /* scratch for one value's writers */
    const ta_ir_node **seen;
    uint32_t nseen;
    uint8_t *mark; /* by node id */
    /* scratch for one value's contained locations */
    uint32_t *all;
    size_t cap_all;
} dump;

/* The contained locations of v (into d->all); NULL on OOM. */
static const uint32_t *contained(dump *d, const ta_ir_value *v, size_t *n)
{
    *n = ta_aliasdb_contained_locations(d->db, v, d->all, d->cap_all);
    if (*n <= d->cap_all) return d->all;
    uint32_t *grown = ta_realloc(d->all, *n * sizeof *grown);
    if (!grown) return NULL;
    d->all = grown;
    d->cap_all = *n;
    *n = ta_aliasdb_contained_locations(d->db, v, d->all, d->cap_all);
    return d->all;
}

/* Calls fn on every node, in print order (a node before its blocks'). */
typedef void (*node_fn)(const ta_ir_node *n, dump *d);

static void each_node(const ta_ir_block *b, node_fn fn, dump *d)
{
    for (const ta_ir_node *n = ta_ir_block_first(b); n; n = ta_ir_node_next(n)) {
        fn(n, d);
        for (uint32_t k = 0; k < ta_ir_node_nblocks(n); k++) each_node(ta_ir_node_block_at(n, k), fn, d);
    }
}

static void count_writes(const ta_ir_node *n, dump *d)
{
    size_t k;
    const uint32_t *locs = ta_aliasdb_node_written(d->db, n, &k);
    for (size_t i = 0; i < k; i++) d->start[locs[i] + 1]++;
}

static void fill_writes(const ta_ir_node *n, dump *d)
{
    size_t k;
    const uint32_t *locs = ta_aliasdb_node_written(d->db, n, &k);
    for (size_t i = 0; i < k; i++) d->writer[d->start[locs[i]]++] = n;
}

static ta_status index_writers(dump *d)
{
    const ta_ir_graph *g = d->db->g;
    uint32_t nl = ta_aliasdb_location_count(d->db);
    d->start = ta_calloc((size_t)nl + 2, sizeof *d->start);
    d->mark = ta_calloc(ta_ir_graph_node_capacity(g) + 1, 1);
    if (!d->start || !d->mark) return TA_ERR_NOMEM;
    each_node(ta_ir_graph_block(g), count_writes, d);
    for (uint32_t l = 0; l < nl; l++) d->start[l + 1] += d->start[l];
    d->nwrites = d->start[nl];
    d->writer = ta_malloc(((size_t)d->nwrites + 1) * sizeof *d->writer);
    d->seen = ta_malloc(((size_t)d->nwrites + 1) * sizeof *d->seen);
    if (!d->writer || !d->seen) return TA_ERR_NOMEM;
    each_node(ta_ir_graph_block(g), fill_writes, d); /* moves each start to the next one's */
    for (uint32_t l = nl; l > 0; l--) d->start[l] = d->start[l - 1];
    d->start[0] = 0;
    return TA_OK;
}

/* The writers of any location of v, each once. Print order within a
 * location; across locations they are merged by first appearance. */
static void writers_of(dump *d, const uint32_t *locs, size_t n)
{
    d->nseen = 0;
    for (size_t i = 0; i < n; i++)
        for (uint32_t k = d->start[locs[i]]; k < d->start[locs[i] + 1]; k++) {
            const ta_ir_node *w = d->writer[k];
            if (d->mark[ta_ir_node_id(w)]) continue;
            d->mark[ta_ir_node_id(w)] = 1;
            d->seen[d->nseen++] = w;
        }
    for (uint32_t i = 0; i < d->nseen; i++) d->mark[ta_ir_node_id(d->seen[i])] = 0;
}

static void location_name(const ta_aliasdb *db, uint32_t loc, char *buf, size_t cap)
{
    const ta_ir_value *v = ta_aliasdb_location_value(db, loc);
    if (v) {
        snprintf(buf, cap, "%%%s", ta_ir_value_name(v));
        return;
    }
    char t[200];
    ta_ir_type_print(ta_aliasdb_location_wildcard(db, loc), t, sizeof t);
    snprintf(buf, cap, "*%s", t);
}

/* ---- a record per value ----------------------------------------------------------- */

static json_t *locations_json(const ta_aliasdb *db, const uint32_t *locs, size_t n)
{
    json_t *a = json_array();
    char name[256];
    for (size_t i = 0; a && i < n; i++) {
        location_name(db, locs[i], name, sizeof name);
        if (json_array_append_new(a, json_string(name))) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

static json_t *writers_json(const dump *d)
{
    json_t *w = json_array();
    for (uint32_t i = 0; w && i < d->nseen; i++)
        if (json_array_append_new(w, json_pack("{s:s, s:I}", "kind", ta_ir_node_kind(d->seen[i]), "line",
                                               (json_int_t)ta_ir_node_line(d->seen[i])))) {
            json_decref(w);
            return NULL;
        }
    return w;
}

static void value_json(dump *d, const ta_ir_value *v, const char *type, const uint32_t *pts, size_t np,
                       const uint32_t *all, size_t nc)
{
    json_t *o = json_pack("{s:s+, s:s, s:o*, s:o*, s:b, s:o*}", "value", "%", ta_ir_value_name(v), "type", type,
                          "points_to", locations_json(d->db, pts, np), "contains", locations_json(d->db, all, nc),
                          "wildcard", ta_aliasdb_is_wildcard(d->db, v), "writers", writers_json(d));
    if (!o || !json_object_get(o, "points_to") || !json_object_get(o, "contains") || !json_object_get(o, "writers"))
        d->nomem = true;
    else json_dumpf(o, d->out, JSON_PRESERVE_ORDER), fputc('\n', d->out);
    json_decref(o);
}

static void text_locations(FILE *out, const ta_aliasdb *db, const char *label, const uint32_t *locs, size_t n)
{
    char name[256];
    fprintf(out, " %s {", label);
    for (size_t i = 0; i < n; i++) {
        location_name(db, locs[i], name, sizeof name);
        fprintf(out, "%s%s", i ? ", " : "", name);
    }
    fputc('}', out);
}

static void value_text(dump *d, const ta_ir_value *v, const char *type, const uint32_t *pts, size_t np,
                       const uint32_t *all, size_t nc)
{
    fprintf(d->out, "%%%s : %s", ta_ir_value_name(v), type);
    if (!np) {
        fputs(" immutable\n", d->out);
        return;
    }
    text_locations(d->out, d->db, "points-to", pts, np);
    text_locations(d->out, d->db, "contains", all, nc);
    if (ta_aliasdb_is_wildcard(d->db, v)) fputs(" wildcard", d->out);
    for (uint32_t i = 0; i < d->nseen; i++)
        fprintf(d->out, "%s%s@%u", i ? ", " : " written-by ", ta_ir_node_kind(d->seen[i]), ta_ir_node_line(d->seen[i]));
    fputc('\n', d->out);
}

static void dump_value(const ta_ir_value *v, dump *d)
{
    if (d->nomem) return;
    char type[256];
    ta_ir_type_print(ta_ir_value_type(v), type, sizeof type);
    size_t np, nc;
    const uint32_t *pts = ta_aliasdb_locations(d->db, v, &np);
    const uint32_t *all = contained(d, v, &nc);
    if (!all) {
        d->nomem = true;
        return;
    }
    d->nseen = 0;
    if (ta_aliasdb_has_writers(d->db, v)) writers_of(d, pts, np);
    if (d->format == TA_ALIASDB_JSON) value_json(d, v, type, pts, np, all, nc);
    else value_text(d, v, type, pts, np, all, nc);
}

/* Calls fn on every value in print order: inputs, then each node's outputs
 * followed by its blocks' parameters and values. */
typedef void (*value_fn)(const ta_ir_value *v, dump *d);

static void values_in(const ta_ir_block *b, value_fn fn, dump *d)
{
    for (const ta_ir_node *n = ta_ir_block_first(b); n; n = ta_ir_node_next(n)) {
        for (uint32_t i = 0; i < ta_ir_node_noutputs(n); i++) fn(ta_ir_node_output(n, i), d);
        for (uint32_t k = 0; k < ta_ir_node_nblocks(n); k++) {
            const ta_ir_block *sub = ta_ir_node_block_at(n, k);
            for (uint32_t i = 0; i < ta_ir_block_nparams(sub); i++) fn(ta_ir_block_param(sub, i), d);
            values_in(sub, fn, d);
        }
    }
}

static void each_value(const ta_ir_graph *g, value_fn fn, dump *d)
{
    for (uint32_t i = 0; i < ta_ir_graph_ninputs(g); i++) fn(ta_ir_graph_input(g, i), d);
    values_in(ta_ir_graph_block(g), fn, d);
}

/* ---- dot ------------------------------------------------------------------------ */

static void dot_value(const ta_ir_value *v, dump *d)
{
    size_t np;
    const uint32_t *pts = ta_aliasdb_locations(d->db, v, &np);
    if (!np) return;
    fprintf(d->out, "  \"v%u\" [label=\"%%%s\", shape=box];\n", ta_ir_value_id(v), ta_ir_value_name(v));
    for (size_t i = 0; i < np; i++) fprintf(d->out, "  \"v%u\" -> \"l%u\";\n", ta_ir_value_id(v), pts[i]);
}

static void dot_writer(const ta_ir_node *n, dump *d)
{
    size_t k;
    const uint32_t *locs = ta_aliasdb_node_written(d->db, n, &k);
    if (!k) return;
    fprintf(d->out, "  \"n%u\" [label=\"%s\\nline %u\", shape=cds, color=red, fontcolor=red];\n",
            ta_ir_node_id(n), ta_ir_node_kind(n), ta_ir_node_line(n));
    for (size_t i = 0; i < k; i++) fprintf(d->out, "  \"n%u\" -> \"l%u\" [color=red];\n", ta_ir_node_id(n), locs[i]);
}

static void dot_location(dump *d, uint32_t l)
{
    char name[256];
    location_name(d->db, l, name, sizeof name);
    bool wild = ta_aliasdb_location_wildcard(d->db, l) != NULL;
    bool written = d->start[l + 1] > d->start[l];
    fprintf(d->out, "  \"l%u\" [label=\"%s\", shape=%s%s%s];\n", l, name, wild ? "octagon" : "ellipse",
            wild ? ", style=filled, fillcolor=gold" : "", written ? ", color=red" : "");
    const ta_ir_value *lv = ta_aliasdb_location_value(d->db, l);
    if (!lv) return;
    size_t nc;
    const uint32_t *all = contained(d, lv, &nc);
    if (!all) d->nomem = true;
    for (size_t i = 0; all && i < nc; i++)
        if (all[i] != l) fprintf(d->out, "  \"l%u\" -> \"l%u\" [style=dashed, color=blue];\n", l, all[i]);
}

static void write_dot(dump *d)
{
    fputs("digraph aliasing {\n  rankdir=LR;\n  node [fontname=\"monospace\"];\n", d->out);
    for (uint32_t l = 0; l < ta_aliasdb_location_count(d->db) && !d->nomem; l++) dot_location(d, l);
    each_value(d->db->g, dot_value, d);
    each_node(ta_ir_graph_block(d->db->g), dot_writer, d);
    fputs("}\n", d->out);
}

ta_status ta_aliasdb_write(const ta_aliasdb *db, ta_aliasdb_format format, FILE *out)
{
    if (!db || !out || format > TA_ALIASDB_GRAPHML) return TA_ERR_INVALID;
    if (format == TA_ALIASDB_GRAPHML) return ta_aliasdb_write_graphml(db, out);
    dump d = {.db = db, .out = out, .format = format};
    ta_status st = index_writers(&d);
    if (st == TA_OK) {
        if (format == TA_ALIASDB_DOT) write_dot(&d);
        else each_value(db->g, dump_value, &d);
        st = d.nomem ? TA_ERR_NOMEM : ferror(out) ? TA_ERR_IO : TA_OK;
    }
    free(d.start);
    free(d.writer);
    free(d.seen);
    free(d.mark);
    free(d.all);
    return st;
}
