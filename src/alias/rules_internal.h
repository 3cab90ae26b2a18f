/* rules_internal.h - how the alias rules report: each rule finds a problem
 * at a byte span of the schema text and hands it to a sink, which turns it
 * into a diagnostic (for a bare schema, positioned with ta_schema_locate; for
 * a yaml entry, at the yaml line and column through the loader). */
#ifndef TA_ALIAS_RULES_INTERNAL_H
#define TA_ALIAS_RULES_INTERNAL_H

#include "alias/query_internal.h"

typedef struct ta_rule_sink ta_rule_sink;
struct ta_rule_sink {
    ta_status (*emit)(ta_rule_sink *k, const ta_rule_info *rule, uint32_t off,
                      uint32_t len, const char *hint, const char *msg);
    const ta_schema *s;
    ta_diags *diags;
    const void *ctx; /* the sink's own data */
};

/* A diagnostic of rule r (its id and severity) at `at`, then the fix-it
 * hint when it is not NULL. */
ta_status ta_rule_report(ta_diags *d, const ta_rule_info *r, const ta_loc *at, const char *hint,
                         const char *fmt, ...) TA_PRINTF(5, 6);

/* The sink of a bare schema: positioned with ta_schema_locate, the
 * schema's line shown under it (rules.c). */
ta_status ta_rule_schema_emit(ta_rule_sink *k, const ta_rule_info *rule, uint32_t off,
                              uint32_t len, const char *hint, const char *msg);

/* The rule with this id (the table lives in rules.c). */
const ta_rule_info *ta_alias_rule_get(const char *id);

/* Runs every schema-level rule over s, reporting to k. */
ta_status ta_alias_rules_schema(const ta_schema *s, const ta_alias_query *q,
                                ta_rule_sink *k);

/* torchgen's reading of a slot's annotation: the first one written in its
 * type, the element's for `Tensor(a)[]`. NULL when there is none. */
const ta_alias *ta_rule_first_annotation(const ta_type *t);
/* torchgen's Annotation equality (before sets, write, after sets). */
bool ta_rule_same_annotation(const ta_alias *a, const ta_alias *b);
/* torchgen's inplace name: "add_", or a dunder "__iadd__". */
bool ta_rule_is_inplace_name(ta_str name);

#endif
