/* schema_list.c - a plain list of schemas, one a line (see
 * tensoralias/schema_list.h): the one reader of every command's --schemas.
 * The list keeps one arena: the text, the source name, the entries and
 * every parsed schema. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/file.h"
#include "schema/parser.h"
#include "tensoralias/schema_list.h"

typedef struct list_entry {
    const ta_schema *schema;
    uint32_t line_off, line_len; /* the whole line in the text */
    const char *kind;            /* the alias analysis kind the line names, or NULL */
} list_entry;

/* How TorchScript's AliasDb may treat an operator (c10::AliasAnalysisKind),
 * as a line may name it before its schema. */
static const char *const kinds[] = {"FROM_SCHEMA", "CONSERVATIVE", "PURE_FUNCTION",
                                    "INTERNAL_SPECIAL_CASE"};

struct ta_schema_list {
    ta_arena *arena;
    const char *text;
    const char *source;
    list_entry *entries; /* malloc'd, grown as schemas parse (a line of junk reserves none) */
    size_t n, cap;
    size_t rejected;     /* lines that hold no schema */
};

static ta_status append(ta_schema_list *l, list_entry e)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        list_entry *v = ta_realloc(l->entries, cap * sizeof *v);
        if (!v) return TA_ERR_NOMEM;
        l->entries = v;
        l->cap = cap;
    }
    l->entries[l->n++] = e;
    return TA_OK;
}

/* Where the schema of a line starts (past blanks) and ends (before
 * trailing blanks and a "\r"); *lead == *n for a blank line. */
static void trim(const char *p, uint32_t line_len, uint32_t *lead, uint32_t *n)
{
    *n = line_len;
    while (*n && (p[*n - 1] == '\r' || p[*n - 1] == ' ' || p[*n - 1] == '\t')) (*n)--;
    for (*lead = 0; *lead < *n && (p[*lead] == ' ' || p[*lead] == '\t');) (*lead)++;
}

/* A kind and the blanks after it at p[*lead..n): the kind, with *lead moved
 * past them; else NULL. */
static const char *take_kind(const char *p, uint32_t *lead, uint32_t n)
{
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        uint32_t k = (uint32_t)strlen(kinds[i]), at = *lead + k;
        if (at >= n || memcmp(p + *lead, kinds[i], k) || (p[at] != ' ' && p[at] != '\t')) continue;
        while (at < n && (p[at] == ' ' || p[at] == '\t')) at++;
        *lead = at;
        return kinds[i];
    }
    return NULL;
}

/* The diagnostic of a line that does not parse, under the whole line as
 * written (the parser sees only the schema after the blanks and kind). */
static ta_status report_line(const ta_schema_list *l, const char *p, uint32_t lead, uint32_t n,
                             uint32_t line, uint32_t line_len, ta_diags *diags)
{
    ta_arena *scratch = NULL;
    ta_diags *one = NULL;
    ta_status st = ta_arena_create(&scratch);
    if (st == TA_OK) st = ta_diags_create(&one);
    ta_parse_opts at = {l->source, line, lead + 1};
    ta_schema *s = NULL;
    if (st == TA_OK) st = ta_schema_parse(scratch, p + lead, n - lead, &at, &s, one);
    if (line_len && p[line_len - 1] == '\r') line_len--;
    for (size_t i = 0; st != TA_ERR_NOMEM && i < ta_diags_count(one); i++) {
        const ta_diag *g = ta_diags_get(one, i);
        ta_loc where = {l->source, g->line, g->col, g->length, p, line_len};
        if (ta_diag_emit(diags, g->severity, &where, g->rule, "%s", g->message) != TA_OK ||
            (g->hint && ta_diag_hint(diags, "%s", g->hint) != TA_OK))
            st = TA_ERR_NOMEM;
    }
    ta_diags_destroy(one);
    ta_arena_destroy(scratch);
    return st == TA_OK ? TA_ERR_PARSE : st;
}

/* Parses the schema on one line (line_len bytes at text + off, its line
 * break excluded), unless it is blank or a comment. The first parse passes
 * no diagnostics and, only when it fails, the line is parsed again for its
 * diagnostic, so a file of good lines costs one parse each. TA_ERR_PARSE
 * when it does not parse. */
static ta_status add_line(ta_schema_list *l, ta_type_pool *pool, uint32_t off, uint32_t line_len,
                          uint32_t line, ta_diags *diags)
{
    const char *p = l->text + off;
    uint32_t lead, n;
    trim(p, line_len, &lead, &n);
    if (lead == n || p[lead] == '#') return TA_OK;
    const char *kind = take_kind(p, &lead, n);
    ta_parse_opts at = {l->source, line, lead + 1};
    ta_schema *s = NULL;
    ta_status st = ta_schema_parse_kept(l->arena, p + lead, n - lead, &at, pool, &s, NULL);
    if (st == TA_OK) return append(l, (list_entry){s, off, line_len, kind});
    if (st != TA_ERR_PARSE) return st;
    l->rejected++;
    return report_line(l, p, lead, n, line, line_len, diags);
}

static ta_status parse_lines(ta_schema_list *l, size_t len, ta_diags *diags)
{
    ta_type_pool *pool = ta_type_pool_create();
    if (!pool) return TA_ERR_NOMEM;
    ta_status worst = TA_OK;
    uint32_t line = 0;
    for (size_t off = 0; off < len || (off == len && !line);) {
        const char *nl = memchr(l->text + off, '\n', len - off);
        size_t end = nl ? (size_t)(nl - l->text) : len;
        line++;
        ta_status st = add_line(l, pool, (uint32_t)off, (uint32_t)(end - off), line, diags);
        if (st == TA_ERR_NOMEM) {
            worst = st;
            break;
        }
        if (st != TA_OK) worst = TA_ERR_PARSE;
        off = end + 1;
    }
    ta_type_pool_destroy(pool);
    return worst;
}

ta_status ta_schema_list_load_buffer(const char *text, size_t len, const char *source,
                                     ta_schema_list **out, ta_diags *diags)
{
    *out = NULL;
    if (!text && len) return TA_ERR_INVALID;
    if (len > TA_MAX_INPUT_BYTES || len >= UINT32_MAX) {
        ta_loc at = {source, 0, 0, 0, NULL, 0};
        ta_diag_error(diags, &at, "io", "input larger than %zu bytes", (size_t)TA_MAX_INPUT_BYTES);
        return TA_ERR_IO;
    }
    const char *name = source ? source : "<string>";
    ta_arena *a = NULL;
    (void)ta_arena_create(&a);
    ta_schema_list *l = a ? ta_arena_zalloc(a, sizeof *l) : NULL;
    char *copy = l ? ta_arena_take(a, len + 1) : NULL;
    char *name_copy = copy ? ta_arena_strndup(a, name, strlen(name)) : NULL;
    if (!name_copy) {
        ta_arena_destroy(a);
        return TA_ERR_NOMEM;
    }
    if (len) memcpy(copy, text, len);
    copy[len] = '\0';
    *l = (ta_schema_list){a, copy, name_copy, NULL, 0, 0, 0};
    ta_status st = parse_lines(l, len, diags);
    if (st == TA_ERR_NOMEM) {
        ta_schema_list_destroy(l);
        return st;
    }
    *out = l;
    return st;
}

ta_status ta_schema_list_load_path(const char *path, ta_schema_list **out, ta_diags *diags)
{
    *out = NULL;
    char *text = NULL;
    size_t len = 0;
    ta_status st = ta_read_file(path, &text, &len, diags);
    if (st == TA_OK) st = ta_schema_list_load_buffer(text, len, path, out, diags);
    free(text);
    return st;
}

void ta_schema_list_destroy(ta_schema_list *l)
{
    if (!l) return;
    free(l->entries);
    ta_arena_destroy(l->arena);
}

size_t ta_schema_list_count(const ta_schema_list *l) { return l ? l->n : 0; }

const ta_schema *ta_schema_list_get(const ta_schema_list *l, size_t i)
{
    return l && i < l->n ? l->entries[i].schema : NULL;
}

const char *ta_schema_list_source(const ta_schema_list *l) { return l ? l->source : NULL; }

bool ta_schema_list_locate(const ta_schema_list *l, size_t i, uint32_t off, uint32_t len,
                           ta_loc *loc)
{
    if (!l || i >= l->n) return false;
    const list_entry *e = &l->entries[i];
    const ta_schema *s = e->schema;
    if (off > s->text_len) off = s->text_len;
    uint32_t line_len = e->line_len;
    if (line_len && l->text[e->line_off + line_len - 1] == '\r') line_len--;
    *loc = (ta_loc){l->source, s->base_line, s->base_col + off, len, l->text + e->line_off, line_len};
    return true;
}

const char *ta_schema_list_kind(const ta_schema_list *l, size_t i)
{
    return l && i < l->n ? l->entries[i].kind : NULL;
}

size_t ta_schema_list_rejected(const ta_schema_list *l) { return l ? l->rejected : 0; }
