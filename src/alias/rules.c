/* rules.c - the catalogue of alias rules (ids, severities, summaries) and
 * the entry point that checks one bare schema. The rules themselves live in
 * rules_schema.c (schema only) and rules_native.c (yaml entry fields). */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "alias/rules_internal.h"

static const ta_rule_info rules[] = {
    {"alias-annotation-form", TA_SEV_ERROR,
     "annotations use single-letter sets; '!' on one set; '*' only after '->' (torchgen's grammar)"},
    {"alias-out-kwarg-only", TA_SEV_ERROR,
     "a written return aliases a keyword-only out= argument or self, never another positional argument"},
    {"alias-out-not-written", TA_SEV_ERROR, "a keyword Tensor named out/outN is write-annotated"},
    {"alias-out-order", TA_SEV_ERROR, "no keyword argument follows the out= arguments"},
    {"alias-out-name", TA_SEV_ERROR, "out= arguments are named out, or out0, out1, ... in order"},
    {"alias-out-return-mismatch", TA_SEV_ERROR, "the i-th return carries the annotation of the i-th out= argument"},
    {"alias-out-return-count", TA_SEV_ERROR,
     "an out= operator returns each plain-Tensor out= argument once, or nothing for list out= arguments"},
    {"alias-inplace-self", TA_SEV_ERROR, "an inplace operator (name ending in '_') writes a positional 'self'"},
    {"alias-inplace-return", TA_SEV_ERROR, "an inplace operator returns self in its set (nothing for a non-Tensor self)"},
    {"alias-return-write-unbound", TA_SEV_ERROR, "a written return is in a set some argument writes"},
    {"alias-mixed-returns", TA_SEV_ERROR, "returns are all written or all fresh"},
    {"alias-positional-mutable-returned", TA_SEV_ERROR, "a written positional argument other than self is not returned"},
    {"alias-write-inconsistent", TA_SEV_ERROR, "an alias set is written everywhere it appears or nowhere"},
    {"alias-functional-overload", TA_SEV_ERROR, "an overload named 'functional' writes nothing"},
    {"alias-inplace-out", TA_SEV_ERROR, "an inplace operator has no out= (written keyword) arguments"},
    {"alias-tensor-options-kind", TA_SEV_ERROR,
     "only functional operators take tensor options (dtype, layout, device, pin_memory)"},
    {"alias-autogen-view", TA_SEV_ERROR,
     "autogen is not used on (non-mutating) view operators"},
    {"alias-autogen-composite", TA_SEV_ERROR,
     "autogen is not used on operators whose dispatch table names CompositeImplicitAutograd"},
    {"alias-autogen-manual", TA_SEV_ERROR,
     "autogen is not used on operators that bypass the dispatcher (manual_kernel_registration, manual_cpp_binding)"},
    {"alias-autogen-implicit-composite", TA_SEV_NOTE,
     "autogen on an operator without a dispatch table, which torchgen 1.13.1 ignores"},
    {"alias-view-of-written", TA_SEV_WARNING, "a read-only view is returned of an argument the operator writes"},
    {"alias-set-once", TA_SEV_WARNING, "a read-only alias set appears on one slot only"},
    {"alias-out-positional", TA_SEV_WARNING,
     "an out= overload, or an argument named out/outN, writes positionally (torchgen reads a mutable operator)"},
    {"alias-inplace-writes-more", TA_SEV_WARNING,
     "an inplace operator on a Tensor self writes arguments other than self"},
    {"alias-mutable-returns-self", TA_SEV_WARNING,
     "a non-inplace operator writes self and returns it (an inplace operator without the '_')"},
};

const ta_rule_info *ta_alias_rules(size_t *n)
{
    *n = sizeof rules / sizeof rules[0];
    return rules;
}

const ta_rule_info *ta_alias_rule_get(const char *id)
{
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (!strcmp(rules[i].id, id)) return &rules[i];
    return NULL;
}

ta_status ta_rule_report(ta_diags *d, const ta_rule_info *r, const ta_loc *at, const char *hint,
                         const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ta_status st = ta_diag_vemit(d, r->severity, at, r->id, fmt, ap);
    va_end(ap);
    return st == TA_OK && hint ? ta_diag_hint(d, "%s", hint) : st;
}

/* A bare schema: position through ta_schema_locate, and show the schema's
 * line indented by its column offset so the caret lines up. */
ta_status ta_rule_schema_emit(ta_rule_sink *k, const ta_rule_info *r, uint32_t off,
                             uint32_t len, const char *hint, const char *msg)
{
    const ta_schema *s = k->s;
    uint32_t line, col;
    ta_schema_locate(s, off, &line, &col);
    uint32_t a = off > s->text_len ? s->text_len : off, b = a;
    while (a > 0 && s->text[a - 1] != '\n') a--;
    while (b < s->text_len && s->text[b] != '\n') b++;
    uint32_t pad = col > (off - a) + 1 ? col - (off - a) - 1 : 0;
    char *src = ta_malloc((size_t)pad + (b - a) + 1);
    if (!src) return TA_ERR_NOMEM;
    memset(src, ' ', pad);
    memcpy(src + pad, s->text + a, b - a);
    ta_loc at = {s->source, line, col, len, src, pad + (b - a)};
    ta_status st = ta_rule_report(k->diags, r, &at, hint, "%s", msg);
    free(src);
    return st;
}

ta_status ta_alias_check_schema(const ta_schema *s, ta_diags *diags)
{
    ta_alias_query *q = NULL;
    ta_status st = ta_alias_query_create(s, &q, diags);
    if (st != TA_OK) return st;
    ta_rule_sink k = {ta_rule_schema_emit, s, diags, NULL};
    st = ta_alias_rules_schema(s, q, &k);
    ta_alias_query_destroy(q);
    return st;
}
