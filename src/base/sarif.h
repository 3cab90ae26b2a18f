/* sarif.h - the SARIF 2.1.0 pieces every report shares (diagnostics' and
 * verify's findings): the log envelope with its tool.driver, the rule
 * catalogue, the common fields of a result, artifact locations and levels.
 * Each report adds only what is its own (regions, logical locations,
 * properties, baseline states). Not public. */
#ifndef TA_BASE_SARIF_H
#define TA_BASE_SARIF_H

#include <stddef.h>

#include <jansson.h>

#include "base/writer.h"
#include "tensoralias/diag.h"

#define TA_SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define TA_SARIF_INFO_URI "https://github.com/tensoralias/tensoralias"
/* Where each rule's documentation is: docs/rules.md, whose section for rule
 * `id` has the anchor #id. SARIF 2.1.0 wants helpUri absolute (3.49.12; the
 * SARIF validator GitHub points to flags a relative one, SARIF1005), so it
 * is a URL of the published tree; `make SARIF_HELP_BASE=URL` sets another
 * (a fork's, a release tag's). */
#ifndef TA_SARIF_HELP_BASE
#define TA_SARIF_HELP_BASE TA_SARIF_INFO_URI "/blob/main/docs/rules.md"
#endif

/* The SARIF level ("error", "warning", "note") of a severity. */
const char *ta_sarif_level(ta_severity s);

/* The rule catalogue (tool.driver.rules) is a JSON array of
 * {id, shortDescription.text, helpUri, help.text, help.markdown,
 * defaultConfiguration.level}: helpUri is the rule's section of
 * docs/rules.md, and help carries the same link because GitHub code
 * scanning shows help, not helpUri, next to an alert. Appends one; 0, or -1
 * on failure. */
int ta_sarif_rule_add(json_t *rules, const char *id, const char *summary, const char *level);
/* The index of rule `id` in the catalogue, or -1 when it is not there. */
long ta_sarif_rule_find(const json_t *rules, const char *id);

/* A result with the fields every result has: ruleId, ruleIndex (the rule's
 * place in the catalogue), level, message.text. NULL on failure. */
json_t *ta_sarif_result(const char *rule_id, size_t rule_index, const char *level,
                        const char *text);

/* An artifactLocation for a file name: a relative name is a URI reference
 * against %SRCROOT% (the repository root in code scanning), an absolute one a
 * file:// URI; characters other than unreserved ones and '/' are
 * percent-encoded. NULL on failure. */
json_t *ta_sarif_artifact(const char *path);

/* The log: $schema, version "2.1.0" and one run whose tool.driver is
 * tensoralias (name, version, informationUri, rules), with the results.
 * Takes over both references, also on failure (NULL). */
json_t *ta_sarif_log(json_t *rules, json_t *results);

/* Writes the log indented, keys in order, and a newline (NULL: out of
 * memory), and releases it. */
void ta_sarif_write(ta_writer *w, json_t *log);

#endif
