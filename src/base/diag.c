/* diag.c - the diagnostic list every fallible call appends to, and the
 * compiler-style renderer the command uses. The list owns copies of all its
 * strings, so a diagnostic outlives the text it points into. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/grow.h"
#include "tensoralias/diag.h"

struct ta_diags {
    ta_diag *v;
    size_t n, cap;
};

const char *ta_status_str(ta_status s)
{
    switch (s) {
    case TA_OK: return "ok";
    case TA_ERR_PARSE: return "parse error";
    case TA_ERR_INVALID: return "invalid argument";
    case TA_ERR_IO: return "I/O error";
    case TA_ERR_NOMEM: return "out of memory";
    case TA_ERR_NOTFOUND: return "not found";
    case TA_ERR_UNSUPPORTED: return "unsupported";
    case TA_ERR_KERNEL: return "kernel error";
    }
    return "unknown status";
}

const char *ta_severity_str(ta_severity s)
{
    switch (s) {
    case TA_SEV_ERROR: return "error";
    case TA_SEV_WARNING: return "warning";
    case TA_SEV_NOTE: return "note";
    }
    return "note";
}

ta_status ta_diags_create(ta_diags **out)
{
    *out = ta_calloc(1, sizeof(ta_diags));
    return *out ? TA_OK : TA_ERR_NOMEM;
}

static void diag_free(ta_diag *g)
{
    free((char *)g->rule);
    free((char *)g->message);
    free((char *)g->source);
    free((char *)g->source_line);
    free((char *)g->hint);
    free((char *)g->op);
}

void ta_diags_truncate(ta_diags *d, size_t n)
{
    if (!d) return;
    while (d->n > n) diag_free(&d->v[--d->n]);
}

void ta_diags_clear(ta_diags *d) { ta_diags_truncate(d, 0); }

void ta_diags_destroy(ta_diags *d)
{
    if (!d) return;
    ta_diags_clear(d);
    free(d->v);
    free(d);
}

size_t ta_diags_count(const ta_diags *d) { return d ? d->n : 0; }

const ta_diag *ta_diags_get(const ta_diags *d, size_t i)
{
    return d && i < d->n ? &d->v[i] : NULL;
}

size_t ta_diags_count_severity(const ta_diags *d, ta_severity s)
{
    size_t k = 0;
    for (size_t i = 0; d && i < d->n; i++) k += d->v[i].severity == s;
    return k;
}

/* Room for one more diagnostic at the end of d. */
static ta_diag *diag_slot(ta_diags *d)
{
    return TA_GROW_ONE(d->v, d->n, d->cap, 8) == TA_OK ? &d->v[d->n] : NULL;
}

static bool utf8_continuation(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

/* A message or hint cut to TA_DIAG_TEXT_MAX bytes, at a character
 * boundary, ending in "...": a name can be any length, a line of output
 * cannot. */
static char *bounded(char *text)
{
    if (!text || strlen(text) <= TA_DIAG_TEXT_MAX) return text;
    size_t end = TA_DIAG_TEXT_MAX - 3;
    while (end > 0 && utf8_continuation(text[end])) end--;
    memcpy(text + end, "...", 4);
    return text;
}

/* g->source_line: line[0..len), or of a longer line the TA_DIAG_LINE_MAX
 * bytes around g->col (a third of them before it), cut at UTF-8 character
 * boundaries. A diagnostic's size is then bounded whatever the line. */
static bool keep_line(ta_diag *g, const char *line, size_t len)
{
    size_t start = 0, end = len;
    if (len > TA_DIAG_LINE_MAX) {
        size_t at = g->col ? g->col - 1 : 0;
        if (at > len) at = len;
        start = at > TA_DIAG_LINE_MAX / 3 ? at - TA_DIAG_LINE_MAX / 3 : 0;
        end = start + TA_DIAG_LINE_MAX < len ? start + TA_DIAG_LINE_MAX : len;
        while (start < at && utf8_continuation(line[start])) start++;
        while (end > start && end < len && utf8_continuation(line[end])) end--;
    }
    g->source_line = ta_strndup(line + start, end - start);
    g->line_skipped = (uint32_t)start;
    g->line_cut = end < len;
    return g->source_line != NULL;
}

ta_status ta_diag_vemit(ta_diags *d, ta_severity sev, const ta_loc *loc,
                        const char *rule, const char *fmt, va_list ap)
{
    if (!d) return TA_OK; /* a caller that does not want diagnostics */
    ta_diag *g = diag_slot(d);
    if (!g) return TA_ERR_NOMEM;
    memset(g, 0, sizeof *g);
    g->severity = sev;
    char *msg = bounded(ta_vformat(fmt, ap));
    if (!msg) return TA_ERR_NOMEM;
    g->message = msg;
    g->rule = ta_strdup(rule ? rule : "unknown");
    g->source = ta_strdup(loc && loc->file ? loc->file : "<string>");
    bool ok = g->rule && g->source;
    if (loc) {
        g->line = loc->line;
        g->col = loc->col;
        g->length = loc->length;
        if (loc->line_text) ok = ok && keep_line(g, loc->line_text, loc->line_len);
    }
    if (!ok) {
        diag_free(g);
        return TA_ERR_NOMEM;
    }
    d->n++;
    return TA_OK;
}

ta_status ta_diag_emit(ta_diags *d, ta_severity sev, const ta_loc *loc,
                       const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ta_status st = ta_diag_vemit(d, sev, loc, rule, fmt, ap);
    va_end(ap);
    return st;
}

#define DIAG_AT_SEVERITY(fn, sev)                                           \
    ta_status fn(ta_diags *d, const ta_loc *loc, const char *rule,          \
                 const char *fmt, ...)                                      \
    {                                                                       \
        va_list ap;                                                         \
        va_start(ap, fmt);                                                  \
        ta_status st = ta_diag_vemit(d, sev, loc, rule, fmt, ap);           \
        va_end(ap);                                                         \
        return st;                                                          \
    }
DIAG_AT_SEVERITY(ta_diag_error, TA_SEV_ERROR)
DIAG_AT_SEVERITY(ta_diag_warning, TA_SEV_WARNING)
DIAG_AT_SEVERITY(ta_diag_note, TA_SEV_NOTE)

ta_status ta_diag_hint(ta_diags *d, const char *fmt, ...)
{
    if (!d || d->n == 0) return TA_OK;
    va_list ap;
    va_start(ap, fmt);
    char *hint = bounded(ta_vformat(fmt, ap));
    va_end(ap);
    if (!hint) return TA_ERR_NOMEM;
    ta_diag *g = &d->v[d->n - 1];
    free((char *)g->hint);
    g->hint = hint;
    return TA_OK;
}

ta_status ta_diag_operator(ta_diags *d, const char *op)
{
    if (!d || d->n == 0 || !op) return TA_OK;
    char *copy = ta_strdup(op);
    if (!copy) return TA_ERR_NOMEM;
    ta_diag *g = &d->v[d->n - 1];
    free((char *)g->op);
    g->op = copy;
    return TA_OK;
}

ta_status ta_diags_append(ta_diags *d, const ta_diag *g)
{
    ta_loc at = {g->source, g->line, g->col, g->length, NULL, 0};
    ta_status st = ta_diag_emit(d, g->severity, &at, g->rule, "%s", g->message);
    if (st != TA_OK || !d) return st;
    ta_diag *copy = &d->v[d->n - 1];
    if (g->source_line) {
        /* The excerpt as it is, not cut again around the column. */
        copy->source_line = ta_strdup(g->source_line);
        if (!copy->source_line) return TA_ERR_NOMEM;
        copy->line_skipped = g->line_skipped;
        copy->line_cut = g->line_cut;
    }
    ta_status st2 = g->hint ? ta_diag_hint(d, "%s", g->hint) : TA_OK;
    return st2 == TA_OK ? ta_diag_operator(d, g->op) : st2;
}

ta_status ta_diags_move(ta_diags *dst, ta_diags *src)
{
    if (!src || !dst || src->n == 0) return TA_OK; /* memcpy(NULL, NULL, 0) is UB */
    if (dst->n + src->n > dst->cap) {
        size_t cap = dst->n + src->n;
        ta_diag *v = ta_realloc(dst->v, cap * sizeof *v);
        if (!v) return TA_ERR_NOMEM;
        dst->v = v;
        dst->cap = cap;
    }
    if (src->n) memcpy(dst->v + dst->n, src->v, src->n * sizeof *src->v);
    dst->n += src->n;
    src->n = 0;
    return TA_OK;
}

size_t ta_utf8_len(const unsigned char *s, size_t n)
{
    if (s[0] < 0x80) return 1;
    size_t len = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 ? 2 : 0;
    if (!len || len > n || s[0] > 0xF4) return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    if (len == 3 && ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0))) return 0;
    if (len == 4 && ((s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90))) return 0;
    return len;
}

/* The source line as one column per character: a control byte (a tab
 * excepted) or a byte of no valid UTF-8 character is shown as '?', so
 * binary input cannot reach the terminal and the caret still lines up. */
static void render_line(const char *line, FILE *out)
{
    const unsigned char *l = (const unsigned char *)line;
    size_t ll = strlen(line);
    for (size_t i = 0; i < ll;) {
        size_t n = ta_utf8_len(l + i, ll - i);
        bool shown = n > 1 || (n == 1 && (l[i] >= 0x20 || l[i] == '\t') && l[i] != 0x7f);
        if (shown) fwrite(l + i, 1, n, out);
        else fputc('?', out);
        i += n ? n : 1;
    }
}

/* The caret line: one space (or tab) per character before the column, then
 * '^' and a '~' per further character of the span (columns count bytes;
 * characters are what render_line shows). */
static void render_caret(const ta_diag *g, FILE *out)
{
    const unsigned char *l = (const unsigned char *)g->source_line;
    size_t ll = strlen(g->source_line), i = 0;
    /* columns count bytes of the whole line; the excerpt starts line_skipped in */
    size_t col = g->col > g->line_skipped + 1 ? g->col - 1 - g->line_skipped : 0;
    size_t end = col + (g->length ? g->length : 1);
    for (size_t n; i < col && i < ll; i += n) {
        n = ta_utf8_len(l + i, ll - i);
        fputc(l[i] == '\t' ? '\t' : ' ', out);
        if (!n) n = 1;
    }
    fputc('^', out);
    /* Past the line's end (an unterminated token) every byte is a column. */
    uint32_t shown = 1;
    if (i < ll) {
        size_t n = ta_utf8_len(l + i, ll - i);
        i += n ? n : 1;
    } else {
        i++;
    }
    for (size_t n; i < end && shown < TA_DIAG_LINE_MAX; i += n, shown++) {
        n = i < ll ? ta_utf8_len(l + i, ll - i) : 1;
        if (!n) n = 1;
        fputc('~', out);
    }
}

static const char *severity_color(ta_severity s)
{
    return s == TA_SEV_ERROR ? "\033[1;31m" : s == TA_SEV_WARNING ? "\033[1;35m" : "\033[1;36m";
}

void ta_diag_render_color(const ta_diag *g, FILE *out, bool color)
{
    const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
    if (g->line)
        fprintf(out, "%s%s:%u:%u:%s ", bold, g->source, g->line, g->col ? g->col : 1, reset);
    else
        fprintf(out, "%s%s:%s ", bold, g->source, reset);
    fprintf(out, "%s%s:%s %s [%s]\n", color ? severity_color(g->severity) : "",
            ta_severity_str(g->severity), reset, g->message, g->rule);
    if (g->source_line && g->line) {
        fputs(g->line_skipped ? "  ..." : "  ", out);
        render_line(g->source_line, out);
        if (g->line_cut) fputs("...", out);
        fprintf(out, "\n  %s%s", g->line_skipped ? "   " : "", color ? "\033[1;32m" : "");
        render_caret(g, out);
        fprintf(out, "%s\n", reset);
    }
    if (g->hint) fprintf(out, "  %shint:%s %s\n", color ? "\033[1;36m" : "", reset, g->hint);
}

void ta_diag_render(const ta_diag *g, FILE *out)
{
    ta_diag_render_color(g, out, false);
}
