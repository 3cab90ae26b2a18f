/* query_json.c - the torch answers of one schema written as JSON members in
 * the shape of tests/data/golden/torch-1.13.1/schema-alias.jsonl (used by
 * `tensoralias parse --json` and the golden tests). Written as they are
 * found, so memory stays constant however many pairs a schema has. */
#include <stdio.h>

#include "alias/query_internal.h"

static ta_slot nth(const ta_alias_query *q, uint32_t k)
{
    return k < q->nin ? ta_in(k) : ta_out(k - q->nin);
}

typedef bool (*pair_pred)(const ta_alias_query *q, ta_slot a, ta_slot b);

/* "name":[[kind,i,kind,j]...] for every pair (a < b) pred holds for, at
 * most max of them (0: all); *cut when more were left out. */
static void write_pairs(const ta_alias_query *q, FILE *out, const char *name, pair_pred pred,
                        size_t max, bool *cut)
{
    fprintf(out, ",\"%s\":[", name);
    size_t written = 0;
    uint32_t n = q->nin + q->nout;
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = a + 1; b < n; b++) {
            ta_slot sa = nth(q, a), sb = nth(q, b);
            if (!pred(q, sa, sb)) continue;
            if (max && written == max) {
                *cut = true;
                goto done;
            }
            fprintf(out, "%s[\"%s\",%u,\"%s\",%u]", written ? "," : "",
                    sa.kind == TA_SLOT_IN ? "in" : "out", sa.index,
                    sb.kind == TA_SLOT_IN ? "in" : "out", sb.index);
            written++;
        }
done:
    fputc(']', out);
}

ta_status ta_alias_query_write_json(const ta_alias_query *q, FILE *out, size_t max_pairs,
                              bool *truncated)
{
    bool cut = false;
    fprintf(out, "\"is_mutable\":%s,\"mutable_args\":[", ta_alias_query_is_mutable(q) ? "true" : "false");
    bool first = true;
    for (uint32_t i = 0; i < q->nin; i++)
        if (ta_alias_query_is_mutable_input(q, i)) {
            fprintf(out, "%s%u", first ? "" : ",", i);
            first = false;
        }
    fputc(']', out);
    write_pairs(q, out, "may_alias", ta_alias_query_may_alias, max_pairs, &cut);
    write_pairs(q, out, "may_contain_alias", ta_alias_query_may_contain_alias, max_pairs, &cut);
    if (truncated) *truncated = cut;
    return ferror(out) ? TA_ERR_IO : TA_OK;
}
