/* golden.c - see golden.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"
#include "tensoralias/alias.h"

void ta_golden_mismatch(ta_golden *g, const json_t *row, const char *field, const char *want, const char *got)
{
    if (g->mismatches++ < g->show)
        fprintf(stderr, "%s (line %lld): %s: torchgen %s, ours %s\n", json_string_value(json_object_get(row, "name")),
                (long long)json_integer_value(json_object_get(row, "line")), field, want, got);
}

void ta_golden_str(ta_golden *g, const json_t *row, const char *field, const char *got)
{
    const json_t *v = json_object_get(row, field);
    const char *want = json_is_string(v) ? json_string_value(v) : NULL;
    if ((want == NULL) != (got == NULL) || (want && strcmp(want, got)))
        ta_golden_mismatch(g, row, field, want ? want : "null", got ? got : "null");
}

void ta_golden_bool(ta_golden *g, const json_t *row, const char *field, bool got)
{
    const json_t *v = json_object_get(row, field);
    if (!json_is_boolean(v) || json_is_true(v) != got)
        ta_golden_mismatch(g, row, field, json_is_true(v) ? "true" : "false", got ? "true" : "false");
}

/* items joined with ',' into buf (cut to cap). */
static const char *joined(char *buf, size_t cap, const char *const *items, size_t n)
{
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++)
        snprintf(buf + strlen(buf), cap - strlen(buf), "%s%s", i ? "," : "", items[i] ? items[i] : "null");
    return buf;
}

void ta_golden_list(ta_golden *g, const json_t *row, const char *field, const char *const *got, size_t n)
{
    const json_t *v = json_object_get(row, field);
    bool same = json_is_array(v) && json_array_size(v) == n;
    for (size_t i = 0; same && i < n; i++) {
        const char *w = json_string_value(json_array_get(v, i));
        same = w && got[i] && !strcmp(w, got[i]);
    }
    if (same) return;
    char *want = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    char ours[1024];
    ta_golden_mismatch(g, row, field, want ? want : "(missing)", joined(ours, sizeof ours, got, n));
    free(want);
}

json_t *ta_golden_query_json(const ta_alias_query *q)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return NULL;
    fputc('{', m);
    ta_status st = ta_alias_query_write_json(q, m, 0, NULL);
    fputc('}', m);
    fclose(m);
    json_t *j = st == TA_OK ? json_loadb(buf, len, 0, NULL) : NULL;
    free(buf);
    return j;
}
