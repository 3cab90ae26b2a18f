/* diff_report.c - text, JSON lines and the summary of `tensoralias diff`
 * (see diff_report.h). */
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "diff_report.h"

void ta_diff_text(const ta_diags *d, bool notes, FILE *out)
{
    bool shown = false; /* whether the last diagnostic was */
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *g = ta_diags_get(d, i);
        bool attached = !strcmp(g->rule, "diff-old");
        shown = g->severity != TA_SEV_NOTE || notes || (attached && shown);
        if (shown) ta_cli_render(g, out);
    }
}

static json_t *schema_json(const ta_schema *s)
{
    if (!s) return json_null();
    char buf[4096];
    size_t n = ta_schema_print(s, buf, sizeof buf);
    if (n < sizeof buf) return ta_cli_json_bytes(buf, n);
    char *big = malloc(n + 1);
    if (!big) return NULL;
    ta_schema_print(s, big, n + 1);
    json_t *j = ta_cli_json_bytes(big, n);
    free(big);
    return j;
}

static json_t *where_json(const char *file, uint32_t line)
{
    if (!file) return json_null();
    char buf[4200];
    snprintf(buf, sizeof buf, "%s:%u", file, line);
    return ta_cli_json_bytes(buf, strlen(buf));
}

static json_t *changes_json(const ta_diff_record *r)
{
    json_t *a = json_array();
    for (uint32_t k = 0; a && k < r->nitems; k++) {
        const ta_diff_item *it = &r->items[k];
        json_t *o = json_pack("{s:s, s:o, s:b, s:i, s:i, s:o}", "what", ta_diff_what_str(it->what), "slot",
                              ta_cli_json_bytes(it->slot, strlen(it->slot)), "is_return", it->is_return,
                              "old_index", (int)it->old_index, "new_index", (int)it->new_index, "detail",
                              ta_cli_json_bytes(it->detail, strlen(it->detail)));
        if (!o || json_array_append_new(a, o)) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

static const char *change_str(ta_diff_change c)
{
    return c == TA_DIFF_ADDED ? "added" : c == TA_DIFF_REMOVED ? "removed" : "changed";
}

static json_t *record_json(const ta_diff_record *r)
{
    json_t *o = json_pack("{s:s, s:s, s:b, s:b, s:b, s:b, s:b, s:o, s:o, s:o, s:o, s:s, s:s, s:o}",
                          "op", r->op, "change", change_str(r->change), "bc", r->bc == TA_COMPAT_YES, "fc",
                          r->fc == TA_COMPAT_YES, "alias_changed", r->alias_changed, "breaks", r->breaks,
                          "allowed", r->allowed, "old", schema_json(r->old_schema), "new",
                          schema_json(r->new_schema), "old_at", where_json(r->old_file, r->old_line),
                          "new_at", where_json(r->new_file, r->new_line), "bc_why", r->bc_why, "fc_why",
                          r->fc_why, "changes", changes_json(r));
    if (o && (r->bc == TA_COMPAT_RAISES || r->fc == TA_COMPAT_RAISES) &&
        json_object_set_new(o, "raises", json_true())) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int ta_diff_json(const ta_diff *d, FILE *out)
{
    for (size_t i = 0; i < ta_diff_count(d); i++) {
        json_t *o = record_json(ta_diff_get(d, i));
        int bad = !o || json_dumpf(o, out, JSON_COMPACT | JSON_PRESERVE_ORDER) || fputc('\n', out) == EOF;
        json_decref(o);
        if (bad) return -1;
    }
    return 0;
}

void ta_diff_summary_line(const ta_diff *d, const char *old_name, const char *new_name, FILE *out)
{
    ta_diff_summary s;
    ta_diff_summarize(d, &s);
    fprintf(out,
            "%s -> %s: %zu overloads in both, %zu changed (%zu not backward compatible, %zu not "
            "forward compatible, %zu with the alias contract changed), %zu added, %zu removed; "
            "%zu break%s backward compatibility",
            old_name, new_name, s.unchanged + s.changed, s.changed, s.not_bc, s.not_fc, s.alias_changed,
            s.added, s.removed, s.breaks, s.breaks == 1 ? "s" : "");
    if (s.allowed) fprintf(out, " (%zu more allowed)", s.allowed);
    fputc('\n', out);
}
