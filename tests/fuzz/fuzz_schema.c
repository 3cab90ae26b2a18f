/* fuzz_schema.c - libFuzzer target for the schema parser and printers.
 *
 * Whatever the bytes: parsing returns a schema or exactly one positioned
 * diagnostic; a parsed schema prints back byte for byte; its canonical
 * print parses again and is a fixed point of canonical printing; the model
 * queries (alias view, type printing, locate) run on every node. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tensoralias/schema.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static void walk(const ta_schema *s, const ta_type *t)
{
    ta_alias_view v;
    ta_type_alias_view(t, &v);
    char buf[64];
    size_t need = ta_type_print_plain(t, buf, sizeof buf);
    CHECK(strlen(buf) == (need < sizeof buf ? need : sizeof buf - 1));
    ta_type_print(t, NULL, 0);
    uint32_t line, col;
    ta_schema_locate(s, t->span.off, &line, &col);
    CHECK(t->span.off + t->span.len <= s->text_len);
    for (uint32_t i = 0; i < t->nelems; i++) walk(s, t->elems[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ta_arena *a;
    CHECK(ta_arena_create(&a) == TA_OK);
    ta_diags *d;
    CHECK(ta_diags_create(&d) == TA_OK);
    ta_schema *s = NULL;
    ta_parse_opts o = {"fuzz", 3, 5};
    ta_status st = ta_schema_parse(a, (const char *)data, size, &o, &s, d);
    if (st == TA_OK) {
        CHECK(s && ta_diags_count(d) == 0);
        char *out = malloc(size + 1);
        CHECK(ta_schema_print(s, out, size + 1) == size);
        CHECK(memcmp(out, data, size) == 0);
        free(out);
        for (uint32_t i = 0; i < s->nargs; i++) walk(s, s->args[i].type);
        for (uint32_t i = 0; i < s->nrets; i++) walk(s, s->rets[i].type);
        size_t n = ta_schema_print_canonical(s, NULL, 0);
        char *c1 = malloc(n + 1), *c2 = malloc(n + 1);
        CHECK(ta_schema_print_canonical(s, c1, n + 1) == n);
        ta_schema *s2 = NULL;
        CHECK(ta_schema_parse(a, c1, n, NULL, &s2, d) == TA_OK);
        CHECK(s2->nargs == s->nargs && s2->nrets == s->nrets);
        for (uint32_t i = 0; i < s->nargs; i++)
            CHECK(s2->args[i].is_out == s->args[i].is_out &&
                  s2->args[i].kwarg_only == s->args[i].kwarg_only);
        CHECK(ta_schema_print_canonical(s2, c2, n + 1) == n);
        CHECK(memcmp(c1, c2, n) == 0);
        free(c1);
        free(c2);
    } else {
        CHECK(st == TA_ERR_PARSE && s == NULL);
        CHECK(ta_diags_count(d) == 1);
        const ta_diag *g = ta_diags_get(d, 0);
        CHECK(g->line >= 3 && g->col >= 1 && g->length >= 1 && g->source_line);
        CHECK(g->col - g->line_skipped <= (g->line == 3 ? 5 : 1) + strlen(g->source_line));
    }
    ta_diags_destroy(d);
    ta_arena_destroy(a);
    return 0;
}
