/* extract_check.h - what both extraction fuzz targets hold of any input
 * (included by fuzz_extract_cpp.c and fuzz_extract_py.c): scanning never
 * crashes or leaks, and every position it produces is inside the input. A
 * schema's every byte maps to a line that exists, a column inside that line
 * (or just past its end), and a caret that stays on the line; every
 * diagnostic, the rules' included, points inside the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tensoralias/alias.h"
#include "tensoralias/extract.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static uint32_t count_lines(const uint8_t *data, size_t size)
{
    uint32_t n = 1;
    for (size_t i = 0; i < size; i++) n += data[i] == '\n';
    return n;
}

static void check_loc(const ta_loc *loc, uint32_t nlines)
{
    CHECK(loc->line >= 1 && loc->line <= nlines);
    CHECK(loc->col >= 1 && loc->length >= 1);
    if (loc->line_text) CHECK(loc->col + loc->length <= loc->line_len + 2);
}

/* defines: -D macros (NULL-terminated, or NULL). No header or build file
 * is read from disk: the input alone decides what happens. */
static void check_scan_with(const uint8_t *data, size_t size, ta_extract_lang lang, const char *const *defines)
{
    ta_extract *x;
    ta_diags *d;
    ta_extract_opts o = {.defines = defines, .no_git = true, .no_includes = true};
    CHECK(ta_extract_create(&o, &x) == TA_OK && ta_diags_create(&d) == TA_OK);
    CHECK(ta_extract_scan(x, "fuzz", lang, (const char *)data, size, d) == TA_OK);
    CHECK(ta_extract_finish(x, d) == TA_OK);
    CHECK(ta_alias_check_extracted(x, d) == TA_OK);
    uint32_t nlines = count_lines(data, size);
    for (size_t i = 0; i < ta_extract_count(x); i++) {
        const ta_extract_op *p = ta_extract_get(x, i);
        CHECK(p->name && p->file && p->line >= 1 && p->line <= nlines);
        if (!p->schema) continue;
        CHECK(strlen(p->schema) <= p->schema_len); /* a NUL in the source may cut it */
        for (uint32_t off = 0; off <= p->schema_len; off++) {
            ta_loc loc;
            CHECK(ta_extract_locate(x, i, off, 3, &loc));
            check_loc(&loc, nlines);
        }
    }
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *g = ta_diags_get(d, i);
        CHECK(g->line >= 1 && g->line <= nlines && g->col >= 1);
        if (g->source_line) CHECK(g->col - g->line_skipped <= strlen(g->source_line) + 2 || memchr(data, 0, size));
    }
    ta_diags_destroy(d);
    ta_extract_destroy(x);
}

static inline void check_scan(const uint8_t *data, size_t size, ta_extract_lang lang)
{
    check_scan_with(data, size, lang, NULL);
}
