/* allow.c - the allow-list of `diff`: PyTorch's ALLOW_LIST (a function-name
 * regex searched in the schema's text, and the date until which the entry
 * holds) as a file, one entry a line:
 *
 *     aten::_foreach_.*   2027-06-30
 *
 * The date is the last field; everything before it, blanks trimmed, is a
 * POSIX extended regular expression (so it may hold blanks). '#' starts a
 * comment line. An entry holds through its date, as PyTorch keeps those
 * whose date is today or later; expired ones are noted and ignored. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alias/diff/diff_internal.h"
#include "base/alloc.h"
#include "base/arena.h"
#include "base/file.h"

typedef struct allow_entry {
    regex_t re;
    uint32_t line;
    int32_t expires; /* yyyymmdd */
} allow_entry;

struct ta_allow_list {
    ta_arena *arena;
    const char *source;
    allow_entry *v; /* malloc'd, grown as entries are read */
    size_t n, cap;
};

/* Room for one more entry at a->v[a->n]. */
static ta_status reserve(ta_allow_list *a)
{
    if (a->n < a->cap) return TA_OK;
    size_t cap = a->cap ? 2 * a->cap : 16;
    allow_entry *v = ta_realloc(a->v, cap * sizeof *v);
    if (!v) return TA_ERR_NOMEM;
    a->v = v;
    a->cap = cap;
    return TA_OK;
}

/* "2027-06-30" -> 20270630; -1 when it is no date of the calendar. */
static int32_t parse_date(const char *s, size_t n)
{
    int y, m, d, used = 0;
    if (n != 10 || sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &used) != 3 || used != 10) return -1;
    for (size_t i = 0; i < 10; i++)
        if ((i == 4 || i == 7) ? s[i] != '-' : (s[i] < '0' || s[i] > '9')) return -1;
    static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (m < 1 || m > 12 || d < 1 || d > days[m - 1] || (m == 2 && d == 29 && !leap)) return -1;
    return y * 10000 + m * 100 + d;
}

/* One line (len bytes at p, no line break). TA_ERR_PARSE for a bad one
 * (reported), TA_ERR_NOMEM. */
static ta_status read_entry(ta_allow_list *a, const char *p, size_t len, uint32_t line,
                            int32_t today, ta_diags *diags)
{
    while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r')) len--;
    size_t lead = 0;
    while (lead < len && (p[lead] == ' ' || p[lead] == '\t')) lead++;
    if (lead == len || p[lead] == '#') return TA_OK;
    size_t ds = len;
    while (ds > lead && p[ds - 1] != ' ' && p[ds - 1] != '\t') ds--;
    size_t re_end = ds;
    while (re_end > lead && (p[re_end - 1] == ' ' || p[re_end - 1] == '\t')) re_end--;
    ta_loc at = {a->source, line, (uint32_t)ds + 1, (uint32_t)(len - ds), p, (uint32_t)len};
    int32_t date = re_end > lead ? parse_date(p + ds, len - ds) : -1;
    if (date < 0) {
        ta_status st = ta_diag_error(diags, &at, "diff-allow-syntax",
                                     "an allow-list entry is a regular expression and a date (YYYY-MM-DD)");
        return st == TA_OK ? TA_ERR_PARSE : st;
    }
    if (date < today) {
        ta_status st = ta_diag_note(diags, &at, "diff-allow-expired",
                                    "this entry expired on %.10s and is ignored", p + ds);
        return st;
    }
    char *re = ta_arena_strndup(a->arena, p + lead, re_end - lead);
    if (!re || reserve(a) != TA_OK) return TA_ERR_NOMEM;
    allow_entry *e = &a->v[a->n];
    int rc = regcomp(&e->re, re, REG_EXTENDED | REG_NOSUB);
    if (rc) {
        char msg[160];
        regerror(rc, &e->re, msg, sizeof msg);
        at.col = (uint32_t)lead + 1;
        at.length = (uint32_t)(re_end - lead);
        ta_status st = ta_diag_error(diags, &at, "diff-allow-syntax", "bad regular expression: %s", msg);
        return st == TA_OK ? TA_ERR_PARSE : st;
    }
    e->line = line;
    e->expires = date;
    a->n++;
    return TA_OK;
}

ta_status ta_allow_list_load_buffer(const char *text, size_t len, const char *source,
                                    int32_t today, ta_allow_list **out, ta_diags *diags)
{
    *out = NULL;
    if (!text && len) return TA_ERR_INVALID;
    ta_arena *arena = NULL;
    (void)ta_arena_create(&arena);
    ta_allow_list *a = arena ? ta_arena_zalloc(arena, sizeof *a) : NULL;
    const char *name = source ? source : "<string>";
    char *name_copy = a ? ta_arena_strndup(arena, name, strlen(name)) : NULL;
    if (!name_copy) {
        ta_arena_destroy(arena);
        return TA_ERR_NOMEM;
    }
    *a = (ta_allow_list){arena, name_copy, NULL, 0, 0};
    ta_status worst = TA_OK;
    uint32_t line = 0;
    for (size_t off = 0; off < len;) {
        const char *nl = memchr(text + off, '\n', len - off);
        size_t end = nl ? (size_t)(nl - text) : len;
        ta_status st = read_entry(a, text + off, end - off, ++line, today, diags);
        if (st == TA_ERR_NOMEM) {
            ta_allow_list_destroy(a);
            return st;
        }
        if (st != TA_OK) worst = st;
        off = end + 1;
    }
    *out = a;
    return worst;
}

ta_status ta_allow_list_load_path(const char *path, int32_t today, ta_allow_list **out,
                                  ta_diags *diags)
{
    *out = NULL;
    char *text = NULL;
    size_t len = 0;
    ta_status st = ta_read_file(path, &text, &len, diags);
    if (st == TA_OK) st = ta_allow_list_load_buffer(text, len, path, today, out, diags);
    free(text);
    return st;
}

void ta_allow_list_destroy(ta_allow_list *a)
{
    if (!a) return;
    for (size_t i = 0; i < a->n; i++) regfree(&a->v[i].re);
    free(a->v);
    ta_arena_destroy(a->arena);
}

size_t ta_allow_list_count(const ta_allow_list *a) { return a ? a->n : 0; }

bool ta_allow_list_match(const ta_allow_list *a, const char *text, uint32_t *line,
                         int32_t *expires, const char **source)
{
    for (size_t i = 0; a && i < a->n; i++) {
        if (regexec(&a->v[i].re, text, 0, NULL, 0)) continue;
        *line = a->v[i].line;
        *expires = a->v[i].expires;
        *source = a->source;
        return true;
    }
    return false;
}
