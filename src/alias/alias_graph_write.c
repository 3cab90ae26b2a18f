/* alias_graph_write.c - GraphML (igraph's writer, attributes included) and JSON
 * (jansson) renderings of an alias graph. */
#include <jansson.h>
#include <string.h>

#include "alias/alias_graph_internal.h"

ta_status ta_alias_graph_write_graphml(const ta_alias_graph *ag, FILE *out)
{
    ta_igraph_guard guard = ta_igraph_enter();
    igraph_error_t rc = igraph_write_graph_graphml(&ag->g, out, false);
    ta_igraph_leave(guard);
    if (rc != IGRAPH_SUCCESS) return TA_ERR_IO;
    return ferror(out) ? TA_ERR_IO : TA_OK;
}

static const char *const vstr[] = {"kind", "name", "label", "slot", "alias_types",
                                   "contained_types", "flags"};

ta_status ta_alias_graph_write_json(const ta_alias_graph *ag, FILE *out)
{
    const igraph_t *g = &ag->g;
    json_t *root = json_object(), *vs = json_array(), *es = json_array();
    if (!root || !vs || !es) goto nomem;
    json_object_set_new(root, "schema", json_stringn(ag->s->text, ag->s->text_len));
    json_object_set(root, "vertices", vs);
    json_object_set(root, "edges", es);
    for (igraph_integer_t v = 0; v < igraph_vcount(g); v++) {
        json_t *o = json_object();
        if (!o) goto nomem;
        json_object_set_new(o, "id", json_integer(v));
        for (size_t k = 0; k < sizeof vstr / sizeof vstr[0]; k++)
            json_object_set_new(o, vstr[k], json_string(VAS(g, vstr[k], v)));
        json_object_set_new(o, "index", json_integer((json_int_t)VAN(g, "index", v)));
        json_array_append_new(vs, o);
    }
    for (igraph_integer_t e = 0; e < igraph_ecount(g); e++) {
        json_t *o = json_object();
        if (!o) goto nomem;
        json_object_set_new(o, "from", json_integer(IGRAPH_FROM(g, e)));
        json_object_set_new(o, "to", json_integer(IGRAPH_TO(g, e)));
        json_object_set_new(o, "kind", json_string(EAS(g, "kind", e)));
        json_object_set_new(o, "label", json_string(EAS(g, "label", e)));
        json_object_set_new(o, "before", json_boolean(EAN(g, "before", e) != 0));
        json_object_set_new(o, "after", json_boolean(EAN(g, "after", e) != 0));
        json_object_set_new(o, "write", json_boolean(EAN(g, "write", e) != 0));
        json_array_append_new(es, o);
    }
    int rc = json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(vs);
    json_decref(es);
    json_decref(root);
    return rc || ferror(out) ? TA_ERR_IO : TA_OK;
nomem:
    json_decref(vs);
    json_decref(es);
    json_decref(root);
    return TA_ERR_NOMEM;
}
