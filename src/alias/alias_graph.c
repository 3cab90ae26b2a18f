/* alias_graph.c - builds the alias-set graph of one schema with igraph.
 *
 * Vertices: every input and output slot (ids 0..n-1, inputs first), every
 * named alias set, the wildcard "*", the contents of containers (the
 * elements of a list, the values of a Dict) and one anonymous set per bare
 * "Tensor!". Edges: "member" from a slot (or contents) to each set its
 * annotation names, with before/after/write flags, so `Tensor(a! -> a|b)`
 * gives x->a {before, after, write} and x->b {after, write}; "contains" from
 * a container to its contents. Attributes use igraph's C attribute handler
 * (see alias_graph_internal.h for how igraph's per-thread settings are handled).
 * Text taken from the schema has its control characters replaced by spaces,
 * since GraphML (XML) cannot carry them. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "alias/alias_graph_internal.h"

typedef struct gb {
    ta_alias_graph *ag;
    igraph_vector_int_t edges; /* pairs, flushed at the end */
    /* per-edge attributes, parallel to edges/2 */
    char **e_kind, **e_label;
    int *e_before, *e_after, *e_write;
    size_t ne, cap;
    bool oom;
} gb;

/* A copy of s with control characters made spaces (XML forbids them). */
static const char *clean(const char *s, char *buf, size_t cap)
{
    size_t i = 0;
    for (; s[i] && i + 1 < cap; i++)
        buf[i] = ((unsigned char)s[i] < 0x20 && s[i] != '\n') || s[i] == 0x7f ? ' ' : s[i];
    buf[i] = '\0';
    return buf;
}

static igraph_integer_t add_vertex(gb *b, const char *kind, const char *name,
                                   const char *label, const char *slot, int index)
{
    igraph_t *g = &b->ag->g;
    if (igraph_add_vertices(g, 1, NULL) != IGRAPH_SUCCESS) {
        b->oom = true;
        return -1;
    }
    igraph_integer_t v = igraph_vcount(g) - 1;
    char cname[256], clabel[1024];
    if (SETVAS(g, "kind", v, kind) || SETVAS(g, "name", v, clean(name, cname, sizeof cname)) ||
        SETVAS(g, "label", v, clean(label, clabel, sizeof clabel)) || SETVAS(g, "slot", v, slot) ||
        SETVAN(g, "index", v, index) || SETVAS(g, "alias_types", v, "") ||
        SETVAS(g, "contained_types", v, "") || SETVAS(g, "flags", v, ""))
        b->oom = true;
    return v;
}

static void add_edge(gb *b, igraph_integer_t from, igraph_integer_t to,
                     const char *kind, int before, int after, int write,
                     const char *label)
{
    if (from < 0 || to < 0 || b->oom) return;
    if (b->ne == b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 16;
        void *p1 = ta_realloc(b->e_kind, nc * sizeof(char *));
        if (p1) b->e_kind = p1;
        void *p2 = ta_realloc(b->e_label, nc * sizeof(char *));
        if (p2) b->e_label = p2;
        void *p3 = ta_realloc(b->e_before, nc * sizeof(int));
        if (p3) b->e_before = p3;
        void *p4 = ta_realloc(b->e_after, nc * sizeof(int));
        if (p4) b->e_after = p4;
        void *p5 = ta_realloc(b->e_write, nc * sizeof(int));
        if (p5) b->e_write = p5;
        if (!p1 || !p2 || !p3 || !p4 || !p5) {
            b->oom = true;
            return;
        }
        b->cap = nc;
    }
    if (igraph_vector_int_push_back(&b->edges, from) ||
        igraph_vector_int_push_back(&b->edges, to)) {
        b->oom = true;
        return;
    }
    b->e_kind[b->ne] = (char *)kind;
    char clabel[128];
    b->e_label[b->ne] = ta_strdup(clean(label, clabel, sizeof clabel));
    if (!b->e_label[b->ne]) b->oom = true;
    b->e_before[b->ne] = before;
    b->e_after[b->ne] = after;
    b->e_write[b->ne] = write;
    b->ne++;
}

static bool has_name(const ta_str *v, uint32_t n, ta_str x)
{
    for (uint32_t i = 0; i < n; i++)
        if (ta_str_eq_str(v[i], x)) return true;
    return false;
}

/* Member edges for one annotation on vertex v. */
static void annotate(gb *b, igraph_integer_t v, const ta_alias *a)
{
    ta_alias_graph *ag = b->ag;
    if (a->bare_write || (a->nbefore == 0 && a->nafter == 0)) {
        if (!a->write) return;
        /* Tensor!: written, in a set of its own */
        igraph_integer_t anon = add_vertex(b, TA_VERTEX_SET, "!", "(fresh)", "", -1);
        add_edge(b, v, anon, TA_EDGE_MEMBER, 1, 1, 1, "!");
        return;
    }
    /* each distinct name once, before-and-after names first */
    const ta_str *lists[2] = {a->before, a->after};
    uint32_t counts[2] = {a->nbefore, a->nafter};
    for (int l = 0; l < 2; l++) {
        for (uint32_t i = 0; i < counts[l]; i++) {
            ta_str n = lists[l][i];
            if (has_name(lists[l], i, n)) continue; /* repeated in the list */
            bool before = has_name(a->before, a->nbefore, n);
            bool after = has_name(a->after, a->nafter, n);
            if (l == 1 && before) continue; /* done with the before names */
            igraph_integer_t to;
            if (ta_alias_str_is_wildcard(n)) to = ag->wildcard;
            else {
                int k = ta_alias_set_index(ag->q, n);
                if (k < 0) continue;
                to = ag->set0 + k;
            }
            /* "a" member throughout, "a ->" leaves a, "-> b" joins b */
            char label[96];
            snprintf(label, sizeof label, "%s%.*s%s%s", before ? "" : "-> ", (int)n.len, n.ptr,
                     a->write ? "!" : "", after ? "" : " ->");
            add_edge(b, v, to, TA_EDGE_MEMBER, before, after, a->write, label);
        }
    }
}

/* Annotations of t (and of what it contains) hung off vertex v. */
/* t as written in s; a type a yaml's schemas share (span {0, 0}) has no
 * place of its own in s and is printed. */
static int type_text(const ta_schema *s, const ta_type *t, char *buf, size_t cap)
{
    if (t->span.len) snprintf(buf, cap, "%.*s", (int)t->span.len, s->text + t->span.off);
    else ta_type_print(t, buf, cap);
    return (int)strlen(buf);
}

static void attach(gb *b, igraph_integer_t v, const ta_type *t, const char *slot,
                   const char *name, int index)
{
    if (!t || b->oom) return;
    if (t->alias) annotate(b, v, t->alias);
    if (t->kind == TA_TYPE_LIST ||
        (t->kind == TA_TYPE_APPLY && ta_str_eq(t->name, "Dict") && t->nelems == 2)) {
        bool list = t->kind == TA_TYPE_LIST;
        char cslot[96], cname[96], clabel[160];
        snprintf(cslot, sizeof cslot, "%s%s", slot, list ? "[]" : "{}");
        snprintf(cname, sizeof cname, "%s%s", name, list ? "[]" : "{}");
        const ta_type *e = list ? t->elems[0] : t->elems[1];
        char type[128];
        int n = type_text(b->ag->s, e, type, sizeof type);
        snprintf(clabel, sizeof clabel, "%s\n%s %.*s", cname, list ? "element" : "value", n, type);
        igraph_integer_t c = add_vertex(b, TA_VERTEX_CONTENTS, cname, clabel, cslot, index);
        add_edge(b, v, c, TA_EDGE_CONTAINS, 0, 0, 0, list ? "[]" : "{}");
        attach(b, c, e, cslot, cname, index);
        return;
    }
    for (uint32_t i = 0; i < t->nelems; i++) attach(b, v, t->elems[i], slot, name, index);
}

/* Space-separated names of the type ids in m (what torch compares). */
static void append_types(char *buf, size_t cap, const ta_alias_query *q, uint64_t m)
{
    size_t n = 0;
    buf[0] = '\0';
    for (uint32_t k = 0; k < TA_MAX_TYPES && m; k++) {
        if (!(m >> k & 1)) continue;
        m &= ~((uint64_t)1 << k);
        char name[256];
        ta_alias_type_name(q, k, name, sizeof name);
        size_t len = strlen(name);
        if (n + len + 2 > cap) break;
        if (n) buf[n++] = ' ';
        memcpy(buf + n, name, len + 1);
        n += len;
    }
}

static ta_status build(ta_alias_graph *ag)
{
    const ta_schema *s = ag->s;
    const ta_alias_query *q = ag->q;
    gb b = {.ag = ag};
    if (igraph_vector_int_init(&b.edges, 0)) return TA_ERR_NOMEM;
    char slot[32], label[512], buf[1024];
    for (uint32_t i = 0; i < ag->nslots; i++) {
        bool in = i < q->nin;
        uint32_t idx = in ? i : i - q->nin;
        const ta_type *t = in ? s->args[idx].type : s->rets[idx].type;
        ta_str nm = in ? s->args[idx].name : s->rets[idx].name;
        char name[128];
        if (nm.len) snprintf(name, sizeof name, "%.*s", (int)nm.len, nm.ptr);
        else snprintf(name, sizeof name, "%s%u", in ? "arg" : "result", idx);
        snprintf(slot, sizeof slot, "%s%u", in ? "in" : "out", idx);
        char type[384];
        int n = type_text(s, t, type, sizeof type);
        snprintf(label, sizeof label, "%s\n%.*s", name, n, type);
        igraph_integer_t v = add_vertex(&b, in ? TA_VERTEX_INPUT : TA_VERTEX_OUTPUT, name, label, slot, (int)idx);
        const ta_slot_facts *f = &q->slot[i];
        char cbuf[1024];
        append_types(buf, sizeof buf, q, f->types);
        if (SETVAS(&ag->g, "alias_types", v, clean(buf, cbuf, sizeof cbuf))) b.oom = true;
        append_types(buf, sizeof buf, q, f->contained);
        if (SETVAS(&ag->g, "contained_types", v, clean(buf, cbuf, sizeof cbuf))) b.oom = true;
        snprintf(buf, sizeof buf, "%s%s%s%s%s", f->has_alias ? "a" : "", f->write ? "w" : "",
                 f->mutable_ ? "m" : "", f->wild_after ? "W" : "", f->wild ? "c" : "");
        if (SETVAS(&ag->g, "flags", v, buf)) b.oom = true;
    }
    ag->set0 = ag->nslots;
    for (uint32_t k = 0; k < q->nsets; k++) {
        snprintf(buf, sizeof buf, "%.*s", (int)q->sets[k].len, q->sets[k].ptr);
        add_vertex(&b, TA_VERTEX_SET, buf, buf, "", -1);
    }
    ag->wildcard = (uint32_t)add_vertex(&b, TA_VERTEX_WILDCARD, "*", "*", "", -1);
    for (uint32_t i = 0; i < ag->nslots && !b.oom; i++) {
        bool in = i < q->nin;
        uint32_t idx = in ? i : i - q->nin;
        const ta_type *t = in ? s->args[idx].type : s->rets[idx].type;
        snprintf(slot, sizeof slot, "%s%u", in ? "in" : "out", idx);
        const char *name = VAS(&ag->g, "name", i);
        char namecopy[128];
        snprintf(namecopy, sizeof namecopy, "%s", name);
        attach(&b, i, t, slot, namecopy, (int)idx);
    }
    ta_status st = b.oom ? TA_ERR_NOMEM : TA_OK;
    if (st == TA_OK && b.ne) {
        igraph_integer_t e0 = igraph_ecount(&ag->g);
        if (igraph_add_edges(&ag->g, &b.edges, NULL)) st = TA_ERR_NOMEM;
        for (size_t e = 0; e < b.ne && st == TA_OK; e++) {
            igraph_integer_t id = e0 + (igraph_integer_t)e;
            if (SETEAS(&ag->g, "kind", id, b.e_kind[e]) || SETEAS(&ag->g, "label", id, b.e_label[e]) ||
                SETEAN(&ag->g, "before", id, b.e_before[e]) || SETEAN(&ag->g, "after", id, b.e_after[e]) ||
                SETEAN(&ag->g, "write", id, b.e_write[e]))
                st = TA_ERR_NOMEM;
        }
    }
    for (size_t e = 0; e < b.ne; e++) free(b.e_label[e]);
    free(b.e_kind);
    free(b.e_label);
    free(b.e_before);
    free(b.e_after);
    free(b.e_write);
    igraph_vector_int_destroy(&b.edges);
    return st;
}

ta_status ta_alias_graph_create(const ta_schema *s, ta_alias_graph **out,
                                ta_diags *diags)
{
    *out = NULL;
    if (!s) return TA_ERR_INVALID;
    ta_alias_graph *ag = ta_calloc(1, sizeof *ag);
    if (!ag) return TA_ERR_NOMEM;
    ag->s = s;
    ta_status st = ta_alias_query_create(s, &ag->q, diags);
    if (st != TA_OK) {
        free(ag);
        return st;
    }
    ta_igraph_guard guard = ta_igraph_enter();
    if (igraph_empty(&ag->g, 0, IGRAPH_DIRECTED)) {
        ta_igraph_leave(guard);
        ta_alias_query_destroy(ag->q);
        free(ag);
        return TA_ERR_NOMEM;
    }
    ag->nslots = ag->q->nin + ag->q->nout;
    st = build(ag);
    ta_igraph_leave(guard);
    if (st != TA_OK) {
        ta_alias_graph_destroy(ag);
        return st;
    }
    *out = ag;
    return TA_OK;
}

void ta_alias_graph_destroy(ta_alias_graph *g)
{
    if (!g) return;
    ta_igraph_guard guard = ta_igraph_enter();
    igraph_destroy(&g->g);
    ta_igraph_leave(guard);
    ta_alias_query_destroy(g->q);
    free(g);
}

const void *ta_alias_graph_igraph(const ta_alias_graph *g) { return &g->g; }
uint32_t ta_alias_graph_vcount(const ta_alias_graph *g) { return (uint32_t)igraph_vcount(&g->g); }
uint32_t ta_alias_graph_ecount(const ta_alias_graph *g) { return (uint32_t)igraph_ecount(&g->g); }
const ta_schema *ta_alias_graph_schema(const ta_alias_graph *g) { return g->s; }
