/* ops_default.c - the default operator set (default_ops.h), added to a
 * ta_ir_ops by operator name: a graph's analysis parses the schemas of the
 * operators it uses, not the whole list. */
#include <string.h>

#include "alias/ir/default_ops.h"
#include "alias/ir/ir_internal.h"

/* Bytewise, the shorter first on a common prefix: the generator's sort. */
static int compare_name(const char *a, size_t alen, const char *b, size_t blen)
{
    int c = memcmp(a, b, alen < blen ? alen : blen);
    return c ? c : (alen > blen) - (alen < blen);
}

static const ir_default_kind *find_kind(const char *name, size_t len)
{
    uint32_t lo = 0, hi = ir_default_nkinds;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const ir_default_kind *k = &ir_default_kinds[mid];
        int c = compare_name(ir_default_text + k->name, k->len, name, len);
        if (c == 0) return k;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* The set's key of a schema's overload: "ns::name.overload", or "ns::name."
 * (into buf); 0 when it does not fit. */
static size_t overload_key(const char *text, size_t len, size_t name_len, char *buf, size_t cap)
{
    const char *paren = memchr(text, '(', len);
    size_t n = paren ? (size_t)(paren - text) : len;
    bool unnamed = n == name_len;
    if (n + unnamed > cap) return 0;
    memcpy(buf, text, n);
    if (unnamed) buf[n++] = '.';
    return n;
}

/* Adds the overloads of k the set does not have yet, in order. */
static ta_status add_kind(ta_ir_ops *ops, const ir_default_kind *k, ta_diags *diags)
{
    ta_parse_opts opts = {"<default operators>", 1, 1};
    char key[512];
    for (uint32_t i = k->first; i < k->first + k->count; i++) {
        const ir_default_op *op = &ir_default_ops[i];
        const char *text = ir_default_text + op->off;
        size_t klen = overload_key(text, op->len, k->len, key, sizeof key);
        if (klen && ir_ops_has_overload(ops, key, klen)) continue;
        ta_status st = ir_ops_add_schema(ops, text, op->len, (ta_ir_alias_kind)op->kind, &opts, NULL, diags);
        if (st != TA_OK) return st;
    }
    return TA_OK;
}

ta_status ta_ir_ops_add_default_kind(ta_ir_ops *ops, const char *kind, bool *found, ta_diags *diags)
{
    if (found) *found = false;
    if (!ops || !kind) return TA_ERR_INVALID;
    const ir_default_kind *k = find_kind(kind, strlen(kind));
    if (!k) return TA_OK;
    if (found) *found = true;
    return add_kind(ops, k, diags);
}

ta_status ta_ir_ops_add_default(ta_ir_ops *ops, const ta_ir_graph *g, ta_diags *diags)
{
    if (!ops) return TA_ERR_INVALID;
    ta_status st = TA_OK;
    if (!g) {
        for (uint32_t i = 0; st == TA_OK && i < ir_default_nkinds; i++) st = add_kind(ops, &ir_default_kinds[i], diags);
        return st;
    }
    /* every kind the graph has interned: its nodes' (and its sentinels') */
    for (size_t i = 0; st == TA_OK && i < g->kinds.cap; i++) {
        const ta_map_entry *e = &g->kinds.slots[i];
        if (!e->key) continue;
        const ir_kind_info *info = e->value.ptr;
        const ir_default_kind *k = find_kind(info->name, info->len);
        if (k) st = add_kind(ops, k, diags);
    }
    return st;
}
