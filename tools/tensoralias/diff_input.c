/* diff_input.c - loads one side of `tensoralias diff` (see diff_input.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diff_input.h"
#include "extract_cli.h"
#include "native_cli.h"

int ta_side_kind_parse(const char *s, ta_side_kind *out)
{
    if (!strcmp(s, "yaml")) *out = TA_SIDE_YAML;
    else if (!strcmp(s, "list")) *out = TA_SIDE_LIST;
    else if (!strcmp(s, "sources")) *out = TA_SIDE_SOURCES;
    else return -1;
    return 0;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && !strcmp(s + n - k, tail);
}

/* A yaml list's first item starts with "-"; a schema never does. */
static ta_side_kind sniff(const char *text, size_t len)
{
    for (size_t i = 0; i < len;) {
        while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n')) i++;
        if (i < len && text[i] != '#') return text[i] == '-' ? TA_SIDE_YAML : TA_SIDE_LIST;
        while (i < len && text[i] != '\n') i++;
    }
    return TA_SIDE_LIST;
}

static int read_text(ta_side *s, char **text, size_t *len)
{
    if (!ta_cli_read_file(s->path, text, len)) return TA_EXIT_CLEAN;
    fprintf(stderr, "tensoralias diff: cannot read %s: %s\n", s->name, strerror(errno));
    return TA_EXIT_USAGE;
}

static int load_text(ta_side *s, ta_diags *d)
{
    char *text;
    size_t len;
    int rc = read_text(s, &text, &len);
    if (rc) return rc;
    if (s->kind == TA_SIDE_GUESS) s->kind = sniff(text, len);
    ta_status st = s->kind == TA_SIDE_YAML
                       ? ta_native_load_buffer(text, len, s->name, NULL, 0, NULL, &s->native, d)
                       : ta_schema_list_load_buffer(text, len, s->name, &s->list, d);
    free(text);
    if (st == TA_OK || st == TA_ERR_PARSE) return TA_EXIT_CLEAN;
    fprintf(stderr, "tensoralias diff: %s: %s\n", s->name, ta_status_str(st));
    return TA_EXIT_USAGE;
}

static size_t count(const ta_side *s)
{
    return s->native ? ta_native_count(s->native)
           : s->list ? ta_schema_list_count(s->list)
                     : ta_extract_count(s->extracted);
}

int ta_side_load(ta_side *s, const char *const *defines, bool no_git, ta_diags *d)
{
    s->name = !s->path ? "the bundled native_functions.yaml" : strcmp(s->path, "-") ? s->path : "<stdin>";
    if (s->kind == TA_SIDE_GUESS && s->path && strcmp(s->path, "-")) {
        if (ta_cli_is_source(s->path)) s->kind = TA_SIDE_SOURCES;
        else if (ends_with(s->path, ".yaml") || ends_with(s->path, ".yml")) s->kind = TA_SIDE_YAML;
    }
    int rc;
    if (!s->path) {
        s->kind = TA_SIDE_YAML;
        ta_status st = ta_cli_load_native(NULL, NULL, &s->native, d, &s->name);
        rc = st == TA_OK || st == TA_ERR_PARSE ? TA_EXIT_CLEAN : TA_EXIT_USAGE;
    } else if (s->kind == TA_SIDE_SOURCES) {
        const char *srcs[] = {s->path};
        rc = ta_cli_extract(srcs, 1, defines, no_git, &s->extracted, d);
    } else {
        rc = load_text(s, d);
    }
    if (rc == TA_EXIT_CLEAN && !count(s)) {
        fprintf(stderr, "tensoralias diff: %s: no operator schema in it\n", s->name);
        rc = TA_EXIT_USAGE;
    }
    return rc;
}

ta_diff_input ta_side_input(const ta_side *s)
{
    ta_diff_input in = {s->native, s->list, s->extracted};
    return in;
}

void ta_side_free(ta_side *s)
{
    ta_native_destroy(s->native);
    ta_schema_list_destroy(s->list);
    ta_extract_destroy(s->extracted);
}
