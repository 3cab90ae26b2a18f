/* aliasdb_graph.c - the points-to graph as an igraph graph, for people and
 * tools (GraphML) and as an independent view of the analysis: the tests
 * check with igraph's own algorithms that it is acyclic and that what each
 * element reaches agrees with the locations the build computed.
 *
 * The build itself keeps plain arrays: making the igraph_t of the
 * 50,000-node benchmark graph, attributes included, takes ~26 ms, three
 * times the whole analysis (~8 ms), and the queries are intersections of
 * small sorted sets, not graph walks. */
#include <igraph.h>
#include <stdio.h>

#include "alias/alias_graph_internal.h"
#include "alias/aliasdb/aliasdb_internal.h"

static const char *element_name(const ta_aliasdb *db, uint32_t e, char *buf, size_t cap)
{
    const adb_elem *el = &db->elems[e];
    if (el->value) {
        snprintf(buf, cap, "%%%s", el->value->name);
        return buf;
    }
    buf[0] = '*';
    ta_ir_type_print(el->type, buf + 1, cap - 1);
    return buf;
}

static igraph_error_t add_edges(const ta_aliasdb *db, igraph_t *g, bool contains)
{
    igraph_vector_int_t ends;
    IGRAPH_CHECK(igraph_vector_int_init(&ends, 0));
    for (uint32_t e = 0; e < db->nelems; e++) {
        uint32_t head = contains ? db->elems[e].cont : db->elems[e].pts;
        for (uint32_t k = head; k != ADB_NONE; k = db->edge_next[k]) {
            if (igraph_vector_int_push_back(&ends, e) || igraph_vector_int_push_back(&ends, db->edge_to[k])) {
                igraph_vector_int_destroy(&ends);
                return IGRAPH_ENOMEM;
            }
        }
    }
    igraph_integer_t first = igraph_ecount(g);
    igraph_error_t rc = igraph_add_edges(g, &ends, NULL);
    igraph_integer_t n = igraph_vector_int_size(&ends) / 2;
    igraph_vector_int_destroy(&ends);
    for (igraph_integer_t i = 0; rc == IGRAPH_SUCCESS && i < n; i++)
        rc = SETEAS(g, "kind", first + i, contains ? "contains" : "points-to");
    return rc;
}

/* Vertex e is element e; attributes "name" ("%x", or "*Tensor" for a
 * wildcard), "wildcard" (0/1) and "open" (1: a location of a class not
 * declared whole, which contains every wildcard without an edge to each);
 * edge attribute "kind" ("points-to", "contains"). */
ta_status adb_to_igraph(const ta_aliasdb *db, igraph_t *g)
{
    ta_igraph_guard guard = ta_igraph_enter();
    igraph_error_t rc = igraph_empty(g, db->nelems, IGRAPH_DIRECTED);
    if (rc != IGRAPH_SUCCESS) {
        ta_igraph_leave(guard);
        return TA_ERR_NOMEM;
    }
    char name[256];
    for (uint32_t e = 0; rc == IGRAPH_SUCCESS && e < db->nelems; e++) {
        rc = SETVAS(g, "name", e, element_name(db, e, name, sizeof name));
        if (rc == IGRAPH_SUCCESS) rc = SETVAN(g, "wildcard", e, db->elems[e].value == NULL);
        if (rc == IGRAPH_SUCCESS) rc = SETVAN(g, "open", e, db->elems[e].open);
    }
    if (rc == IGRAPH_SUCCESS) rc = add_edges(db, g, false);
    if (rc == IGRAPH_SUCCESS) rc = add_edges(db, g, true);
    if (rc != IGRAPH_SUCCESS) igraph_destroy(g);
    ta_igraph_leave(guard);
    return rc == IGRAPH_SUCCESS ? TA_OK : TA_ERR_NOMEM;
}

ta_status ta_aliasdb_write_graphml(const ta_aliasdb *db, FILE *out)
{
    igraph_t g;
    ta_status st = adb_to_igraph(db, &g);
    if (st != TA_OK) return st;
    ta_igraph_guard guard = ta_igraph_enter();
    igraph_error_t rc = igraph_write_graph_graphml(&g, out, false);
    igraph_destroy(&g);
    ta_igraph_leave(guard);
    if (rc != IGRAPH_SUCCESS) return TA_ERR_IO;
    return ferror(out) ? TA_ERR_IO : TA_OK;
}
