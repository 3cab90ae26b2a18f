/* query_json.c - the torch answers of one schema as JSON, in the shape of
 * tests/data/golden/torch-1.13.1/schema-alias.jsonl (used by
 * `tensoralias parse --json` and the golden test). */
#include <jansson.h>

#include "alias/query_internal.h"

static json_t *pair(ta_slot a, ta_slot b)
{
    return json_pack("[s,i,s,i]", a.kind == TA_SLOT_IN ? "in" : "out", (json_int_t)a.index,
                     b.kind == TA_SLOT_IN ? "in" : "out", (json_int_t)b.index);
}

static ta_slot nth(const ta_alias_query *q, uint32_t k)
{
    return k < q->nin ? ta_in(k) : ta_out(k - q->nin);
}

json_t *ta_query_to_json(const ta_alias_query *q)
{
    json_t *o = json_object(), *mut = json_array(), *ma = json_array(), *mca = json_array();
    if (!o || !mut || !ma || !mca) {
        json_decref(o);
        json_decref(mut);
        json_decref(ma);
        json_decref(mca);
        return NULL;
    }
    for (uint32_t i = 0; i < q->nin; i++)
        if (ta_query_is_mutable_input(q, i)) json_array_append_new(mut, json_integer(i));
    uint32_t n = q->nin + q->nout;
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = a + 1; b < n; b++) {
            ta_slot sa = nth(q, a), sb = nth(q, b);
            if (ta_query_may_alias(q, sa, sb)) json_array_append_new(ma, pair(sa, sb));
            if (ta_query_may_contain_alias(q, sa, sb)) json_array_append_new(mca, pair(sa, sb));
        }
    json_object_set_new(o, "is_mutable", json_boolean(ta_query_is_mutable(q)));
    json_object_set_new(o, "mutable_args", mut);
    json_object_set_new(o, "may_alias", ma);
    json_object_set_new(o, "may_contain_alias", mca);
    return o;
}
