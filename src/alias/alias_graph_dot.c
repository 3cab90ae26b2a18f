/* alias_graph_dot.c - writes an alias graph as Graphviz dot, laid out to be read
 * at a glance: inputs in a cluster on the left, alias sets in the middle,
 * outputs on the right (their edges are drawn set -> output so rank order
 * follows the data), writes as bold red edges with "!", the wildcard as a
 * gold double octagon. igraph's own dot writer knows nothing of clusters or
 * styles, so this one is ours. */
#include <string.h>

#include "alias/alias_graph_internal.h"

static void put_escaped(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fprintf(out, "\\%c", *s);
        else if (*s == '\n') fputs("\\n", out);
        else if ((unsigned char)*s < 0x20 || *s == 0x7f) fputc(' ', out);
        else fputc(*s, out);
    }
    fputc('"', out);
}

/* Text inside an HTML-like label; a long schema breaks after a comma once
 * a line passes wrap columns (0: never). */
static void put_html_n(FILE *out, const char *s, size_t n, size_t wrap)
{
    size_t col = 0;
    for (size_t i = 0; i < n; i++, col++) {
        if (s[i] == '&') fputs("&amp;", out);
        else if (s[i] == '<') fputs("&lt;", out);
        else if (s[i] == '>') fputs("&gt;", out);
        else if (s[i] == '"') fputs("&quot;", out);
        else if (s[i] == '\n') fputs("<BR/>", out);
        else if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) fputc(' ', out);
        else fputc(s[i], out);
        if (wrap && s[i] == ',' && col >= wrap && i + 1 < n && s[i + 1] == ' ') {
            fputs("<BR/>", out);
            i++; /* the space after the comma */
            col = 0;
        }
    }
}

/* Which side a slot or contents vertex sits on: 0 inputs, 1 outputs, 2 sets. */
static int side(const igraph_t *g, igraph_integer_t v)
{
    const char *slot = VAS(g, "slot", v);
    if (!strncmp(slot, "in", 2)) return 0;
    if (!strncmp(slot, "out", 3)) return 1;
    return 2;
}

static void cluster(FILE *out, const igraph_t *g, int which, const char *name,
                    const char *title, const char *fill, const char *border)
{
    igraph_integer_t n = igraph_vcount(g);
    bool any = false;
    for (igraph_integer_t v = 0; v < n && !any; v++) any = side(g, v) == which;
    if (!any) return;
    fprintf(out, "  subgraph %s {\n    label=\"%s\"; style=\"rounded,filled\"; fillcolor=\"%s\"; color=\"%s\";\n",
            name, title, fill, border);
    for (igraph_integer_t v = 0; v < n; v++) {
        if (side(g, v) != which) continue;
        bool contents = !strcmp(VAS(g, "kind", v), TA_VERTEX_CONTENTS);
        const char *flags = VAS(g, "flags", v);
        bool written = strchr(flags, 'w') != NULL;
        /* torch counts running_mean & co. as written in training mode */
        bool training = !written && strchr(flags, 'm') != NULL;
        fprintf(out, "    v%ld [shape=box, style=\"%s\", fillcolor=white, color=\"%s\", label=",
                (long)v, contents ? "rounded,filled,dashed" : "rounded,filled",
                written ? "#c00000" : training ? "#d07000" : "#404040");
        if (training) {
            char buf[1100];
            snprintf(buf, sizeof buf, "%s\n(written when training)", VAS(g, "label", v));
            put_escaped(out, buf);
        } else {
            put_escaped(out, VAS(g, "label", v));
        }
        fputs("];\n", out);
    }
    fputs("  }\n", out);
}

/* The graph's title: the schema, and a one-line legend under it. */
static void write_title(FILE *out, const ta_schema *s)
{
    fputs("digraph alias {\n"
          "  graph [rankdir=LR, newrank=true, nodesep=0.35, ranksep=0.9, fontname=\"Helvetica\", "
          "fontsize=12, labelloc=t, label=<",
          out);
    put_html_n(out, s->text, s->text_len, 90);
    fputs("<BR/><FONT POINT-SIZE=\"9\" COLOR=\"#606060\">red bold: written (!) &#183; "
          "dashed: in the set only before or only after the call (-&gt;) &#183; "
          "gold: the wildcard set * &#183; diamond: contains</FONT>>];\n  node [fontname=\"Helvetica\", fontsize=11];\n"
          "  edge [fontname=\"Helvetica\", fontsize=10];\n",
          out);
}

/* The alias sets and the wildcard, in the middle column (the wildcard
 * greyed out when nothing enters it). */
static ta_status write_sets(FILE *out, const igraph_t *g)
{
    igraph_integer_t n = igraph_vcount(g);
    igraph_vector_int_t deg;
    if (igraph_vector_int_init(&deg, 0) != IGRAPH_SUCCESS) return TA_ERR_NOMEM;
    if (igraph_degree(g, &deg, igraph_vss_all(), IGRAPH_ALL, true) != IGRAPH_SUCCESS) {
        igraph_vector_int_destroy(&deg);
        return TA_ERR_NOMEM;
    }
    fputs("  subgraph cluster_sets {\n    label=\"alias sets\"; style=\"rounded,dashed\"; color=\"#909090\";\n", out);
    for (igraph_integer_t v = 0; v < n; v++) {
        const char *kind = VAS(g, "kind", v);
        if (!strcmp(kind, TA_VERTEX_WILDCARD)) {
            bool used = VECTOR(deg)[v] > 0;
            fprintf(out, "    v%ld [shape=doubleoctagon, style=filled, fillcolor=\"%s\", color=\"%s\", "
                         "fontcolor=\"%s\", label=\"%s\"];\n",
                    (long)v, used ? "#ffd966" : "#f4f4f4", used ? "#b8860b" : "#c0c0c0",
                    used ? "black" : "#a0a0a0", used ? "*\\nwildcard" : "*\\n(unused)");
        } else if (!strcmp(kind, TA_VERTEX_SET)) {
            bool anon = !strcmp(VAS(g, "name", v), "!");
            fprintf(out, "    v%ld [shape=ellipse, style=filled, fillcolor=\"%s\", label=", (long)v,
                    anon ? "#f8e0e0" : "#f7f1e3");
            put_escaped(out, anon ? "fresh" : VAS(g, "label", v));
            fputs("];\n", out);
        }
    }
    igraph_vector_int_destroy(&deg);
    fputs("  }\n", out);
    return TA_OK;
}

/* columns: inputs | their contents | sets | output contents | outputs;
 * an invisible chain through the columns keeps them apart */
static void write_columns(FILE *out, const igraph_t *g)
{
    igraph_integer_t n = igraph_vcount(g);
    long prev = -1;
    for (int col = 0; col < 5; col++) {
        bool any = false;
        for (igraph_integer_t v = 0; v < n; v++) {
            int sd = side(g, v);
            bool contents = !strcmp(VAS(g, "kind", v), TA_VERTEX_CONTENTS);
            int c = sd == 2 ? 2 : sd == 0 ? (contents ? 1 : 0) : (contents ? 3 : 4);
            if (c != col) continue;
            if (!any && prev >= 0) fprintf(out, "  v%ld -> v%ld [style=invis, weight=0];\n", prev, (long)v);
            if (!any) prev = (long)v;
            fprintf(out, any ? " v%ld;" : "  { rank=same; v%ld;", (long)v);
            any = true;
        }
        if (any) fputs(" }\n", out);
    }
}

/* A member edge's style: red and bold when written, gold to the wildcard,
 * dashed when a member only before or only after the call. */
static void write_member_style(FILE *out, const ta_alias_graph *ag, igraph_integer_t e,
                               igraph_integer_t to)
{
    const igraph_t *g = &ag->g;
    bool write = EAN(g, "write", e) != 0;
    bool wild = to == (igraph_integer_t)ag->wildcard;
    bool partial = EAN(g, "before", e) == 0 || EAN(g, "after", e) == 0;
    if (write)
        fprintf(out, "color=\"#d00000\", fontcolor=\"#d00000\", penwidth=2.8, style=\"%s\"",
                partial ? "bold,dashed" : "bold");
    else
        fprintf(out, "color=\"%s\", fontcolor=\"%s\", penwidth=1.3, style=\"%s\"",
                wild ? "#b8860b" : "#505050", wild ? "#8b6508" : "#303030",
                partial ? "dashed" : "solid");
    fputs(", label=", out);
    put_escaped(out, EAS(g, "label", e));
}

/* One edge; an output's edges point set -> output, since outputs are drawn
 * on the right. */
static void write_edge(FILE *out, const ta_alias_graph *ag, igraph_integer_t e)
{
    const igraph_t *g = &ag->g;
    igraph_integer_t from = IGRAPH_FROM(g, e), to = IGRAPH_TO(g, e);
    bool output_side = side(g, from) == 1;
    igraph_integer_t a = output_side ? to : from, b = output_side ? from : to;
    fprintf(out, "  v%ld -> v%ld [", (long)a, (long)b);
    if (!strcmp(EAS(g, "kind", e), TA_EDGE_CONTAINS)) {
        /* the diamond sits on the container, whichever way the edge runs */
        fprintf(out, "style=dashed, color=\"#707070\", %s, label=",
                output_side ? "arrowhead=odiamond" : "dir=back, arrowtail=odiamond");
        put_escaped(out, !strcmp(EAS(g, "label", e), "[]") ? "elements" : "values");
    } else {
        write_member_style(out, ag, e, to);
    }
    fputs("];\n", out);
}

ta_status ta_alias_graph_write_dot(const ta_alias_graph *ag, FILE *out)
{
    const igraph_t *g = &ag->g;
    write_title(out, ag->s);
    cluster(out, g, 0, "cluster_inputs", "inputs", "#eef4fb", "#7a9cc6");
    ta_status st = write_sets(out, g);
    if (st != TA_OK) return st;
    cluster(out, g, 1, "cluster_outputs", "outputs", "#eefbef", "#6aa66a");
    write_columns(out, g);
    for (igraph_integer_t e = 0, m = igraph_ecount(g); e < m; e++) write_edge(out, ag, e);
    fputs("}\n", out);
    return ferror(out) ? TA_ERR_IO : TA_OK;
}
