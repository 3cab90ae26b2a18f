/* check_sources.c - see check_sources.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_sources.h"
#include "cli.h"
#include "extract_cli.h"
#include "tensoralias/alias.h"
#include "tensoralias/extract.h"
#include "tensoralias/schema_list.h"

int ta_cli_check_sources(const char *const *srcs, int nsrcs, const char *const *defines, bool no_git,
                     ta_diags *d, ta_cli_check_counts *n)
{
    ta_extract *x = NULL;
    int rc = ta_cli_extract(srcs, nsrcs, defines, no_git, &x, d);
    if (!x) return TA_EXIT_USAGE;
    ta_status st = ta_alias_check_extracted(x, d);
    if (st != TA_OK) {
        fprintf(stderr, "tensoralias check: %s\n", ta_status_str(st));
        rc = TA_EXIT_USAGE;
    }
    n->schemas += ta_extract_count(x);
    n->files += ta_extract_nfiles(x);
    ta_extract_destroy(x);
    return rc;
}

int ta_cli_check_schema_list(const char *path, ta_diags *d, ta_cli_check_counts *n)
{
    char *buf;
    size_t len;
    if (ta_cli_read_file(path, &buf, &len)) {
        fprintf(stderr, "tensoralias check: cannot read %s: %s\n", path, strerror(errno));
        return TA_EXIT_USAGE;
    }
    ta_schema_list *l = NULL;
    ta_status st = ta_schema_list_load_buffer(buf, len, strcmp(path, "-") ? path : "<stdin>", &l, d);
    free(buf);
    for (size_t i = 0; l && i < ta_schema_list_count(l) && st != TA_ERR_NOMEM; i++)
        if (ta_alias_check_custom(ta_schema_list_get(l, i), d) == TA_ERR_NOMEM) st = TA_ERR_NOMEM;
    /* A line that is no schema was meant as one: it counts, as an error. */
    n->schemas += ta_schema_list_count(l) + ta_schema_list_rejected(l);
    n->files++;
    ta_schema_list_destroy(l);
    return st == TA_ERR_NOMEM ? TA_EXIT_USAGE : TA_EXIT_CLEAN;
}

size_t ta_cli_check_sources_nrules(void)
{
    size_t nc, nx;
    ta_alias_custom_rules(&nc);
    ta_extract_rules(&nx);
    return nc + nx;
}

static void add_rule(ta_rule_info *v, size_t *n, ta_rule_info r)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(v[i].id, r.id)) return; /* schema-syntax is the yaml loader's too */
    v[(*n)++] = r;
}

void ta_cli_check_sources_rules(ta_rule_info *v, size_t *n)
{
    size_t nc, nx;
    const ta_rule_info *c = ta_alias_custom_rules(&nc);
    const ta_extract_rule *x = ta_extract_rules(&nx);
    for (size_t i = 0; i < nc; i++) add_rule(v, n, (ta_rule_info){c[i].id, c[i].severity, c[i].summary});
    for (size_t i = 0; i < nx; i++) add_rule(v, n, (ta_rule_info){x[i].id, x[i].severity, x[i].summary});
}
