/* sarif.c - the SARIF 2.1.0 envelope, rule catalogue and result skeleton
 * shared by the diagnostics' and verify's reports (see sarif.h). */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/sarif.h"
#include "tensoralias/version.h"

const char *ta_sarif_level(ta_severity s)
{
    return s == TA_SEV_ERROR ? "error" : s == TA_SEV_WARNING ? "warning" : "note";
}

/* printf into a new string; NULL on failure (vasprintf leaves *s undefined). */
static char *format(const char *fmt, ...) TA_PRINTF(1, 2);
static char *format(const char *fmt, ...)
{
    char *s;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    return n < 0 ? NULL : s;
}

int ta_sarif_rule_add(json_t *rules, const char *id, const char *summary, const char *level)
{
    char *uri = format("%s#%s", TA_SARIF_HELP_BASE, id);
    char *text = uri ? format("%s\n\nDocumentation: %s", summary, uri) : NULL;
    char *markdown = uri ? format("%s\n\n[Documentation of %s](%s)", summary, id, uri) : NULL;
    int r = -1;
    if (text && markdown)
        r = json_array_append_new(rules, json_pack("{s:s, s:{s:s}, s:s, s:{s:s, s:s}, s:{s:s}}", "id", id,
                                                   "shortDescription", "text", summary, "helpUri", uri,
                                                   "help", "text", text, "markdown", markdown,
                                                   "defaultConfiguration", "level", level));
    free(uri);
    free(text);
    free(markdown);
    return r;
}

long ta_sarif_rule_find(const json_t *rules, const char *id)
{
    for (size_t k = 0; k < json_array_size(rules); k++) {
        const char *have = json_string_value(json_object_get(json_array_get(rules, k), "id"));
        if (have && !strcmp(have, id)) return (long)k;
    }
    return -1;
}

json_t *ta_sarif_result(const char *rule_id, size_t rule_index, const char *level,
                        const char *text)
{
    return json_pack("{s:s, s:I, s:s, s:{s:s}}", "ruleId", rule_id, "ruleIndex",
                     (json_int_t)rule_index, "level", level, "message", "text", text);
}

json_t *ta_sarif_artifact(const char *path)
{
    while (path[0] == '.' && path[1] == '/') path += 2;
    bool relative = path[0] != '/';
    size_t n = strlen(path);
    char *u = ta_malloc(3 * n + 8), *p = u;
    if (!u) return NULL;
    if (!relative) p += sprintf(p, "file://");
    for (const unsigned char *s = (const unsigned char *)path; *s; s++) {
        if (isalnum(*s) || strchr("-._~/", *s)) *p++ = (char)*s;
        else p += sprintf(p, "%%%02X", *s);
    }
    *p = '\0';
    json_t *art = json_pack("{s:s}", "uri", u);
    free(u);
    if (art && relative && json_object_set_new(art, "uriBaseId", json_string("%SRCROOT%"))) {
        json_decref(art);
        return NULL;
    }
    return art;
}

json_t *ta_sarif_log(json_t *rules, json_t *results)
{
    if (!rules || !results) {
        json_decref(rules);
        json_decref(results);
        return NULL;
    }
    /* "o" steals both references, also when packing fails. */
    return json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:s, s:o}}, s:o}]}", "$schema",
                     TA_SARIF_SCHEMA, "version", "2.1.0", "runs", "tool", "driver", "name",
                     "tensoralias", "version", TA_VERSION_STRING, "informationUri", TA_SARIF_INFO_URI,
                     "rules", rules, "results", results);
}

void ta_sarif_write(ta_writer *w, json_t *log)
{
    ta_writer_json(w, log, JSON_PRESERVE_ORDER | JSON_INDENT(2));
    ta_writer_put(w, "\n", 1);
    json_decref(log);
}
