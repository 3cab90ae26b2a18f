/* check_sources.h - the part of `tensoralias check` that reads custom
 * operators rather than native_functions.yaml: schemas extracted from C++
 * and Python sources, and plain schema lists, checked with the
 * custom-operator rules (ta_alias_check_extracted, ta_alias_check_custom). */
#ifndef TA_CHECK_SOURCES_H
#define TA_CHECK_SOURCES_H

#include <stdbool.h>
#include <stddef.h>

#include "tensoralias/diag.h"
#include "tensoralias/native.h"

/* What the sources and lists held, for the summary line. */
typedef struct ta_cli_check_counts {
    size_t schemas, files;
} ta_cli_check_counts;

/* Extracts from every source (file or directory; macros in defines,
 * NULL-terminated) and checks each schema found. Diagnostics go to d.
 * Returns TA_EXIT_CLEAN or TA_EXIT_USAGE (a source could not be read). */
int ta_cli_check_sources(const char *const *srcs, int nsrcs, const char *const *defines, bool no_git,
                     ta_diags *d, ta_cli_check_counts *n);

/* Checks a list of schemas (tensoralias/schema_list.h; "-" reads standard
 * input), each positioned at its line. Returns TA_EXIT_CLEAN or
 * TA_EXIT_USAGE. */
int ta_cli_check_schema_list(const char *path, ta_diags *d, ta_cli_check_counts *n);

/* Appends the rules these checks report (custom-* and the extraction's) to
 * v[*n...] (room for ta_cli_check_sources_nrules() more). */
size_t ta_cli_check_sources_nrules(void);
void ta_cli_check_sources_rules(ta_rule_info *v, size_t *n);

#endif
