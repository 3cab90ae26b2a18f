/* report.c - diagnostics as text, in source order, with a summary line (see
 * report.h; JSON lines and SARIF are the library's, tensoralias/report.h). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

int ta_report_format_parse(const char *s, ta_report_format *out)
{
    if (!strcmp(s, "text")) *out = TA_REPORT_TEXT;
    else if (!strcmp(s, "json")) *out = TA_REPORT_JSON;
    else if (!strcmp(s, "sarif")) *out = TA_REPORT_SARIF;
    else return -1;
    return 0;
}

void ta_report_text(const ta_diags *d, FILE *out)
{
    for (size_t i = 0; i < ta_diags_count(d); i++) ta_cli_render(ta_diags_get(d, i), out);
}

void ta_report_summary(const ta_diags *d, bool notes, const char *what, FILE *out)
{
    size_t e = ta_diags_count_severity(d, TA_SEV_ERROR), w = ta_diags_count_severity(d, TA_SEV_WARNING);
    size_t n = ta_diags_count_severity(d, TA_SEV_NOTE);
    fprintf(out, "%zu error%s, %zu warning%s", e, e == 1 ? "" : "s", w, w == 1 ? "" : "s");
    if (notes) fprintf(out, ", %zu note%s", n, n == 1 ? "" : "s");
    fprintf(out, " in %s\n", what);
}

/* The order ta_report_shown gives: file, line, column, then as found. */
typedef struct shown_key {
    size_t file, index;
    uint32_t line, col;
} shown_key;

static int shown_cmp(const void *a, const void *b)
{
    const shown_key *x = a, *y = b;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    if (x->col != y->col) return x->col < y->col ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

ta_status ta_report_shown(const ta_diags *src, bool notes, ta_diags *out)
{
    size_t n = ta_diags_count(src), k = 0;
    shown_key *keys = malloc((n ? n : 1) * sizeof *keys);
    if (!keys) return TA_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        const ta_diag *g = ta_diags_get(src, i);
        if (g->severity == TA_SEV_NOTE && !notes) continue;
        size_t file = i; /* the first diagnostic of the same file */
        if (k && !strcmp(ta_diags_get(src, keys[k - 1].index)->source, g->source))
            file = keys[k - 1].file; /* a file's diagnostics mostly come together */
        else
            for (size_t j = 0; j < k; j++)
                if (keys[j].file == keys[j].index &&
                    !strcmp(ta_diags_get(src, keys[j].index)->source, g->source)) {
                    file = keys[j].file;
                    break;
                }
        keys[k++] = (shown_key){file, i, g->line, g->col};
    }
    qsort(keys, k, sizeof *keys, shown_cmp);
    ta_status st = TA_OK;
    for (size_t i = 0; i < k && st == TA_OK; i++) st = ta_diags_append(out, ta_diags_get(src, keys[i].index));
    free(keys);
    return st;
}
