/* fuzz_diff.c - libFuzzer target for the schema list and allow-list readers
 * and the diff over them.
 *
 * The input is up to three parts separated by a line "---": the OLD schema
 * list, the NEW one, an allow-list. Whatever the bytes: each reader returns
 * a list or a clean status; the diff of the two lists succeeds; a schema
 * is compatible with itself both ways, and a list diffed with itself has
 * no record; every record is consistent (schemas present as its change
 * says, breaks exactly when not compatible and not excused) and its items
 * name slots the schemas have. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tensoralias/diff.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

/* The next part of [*p, end): up to a "\n---\n" line. */
static size_t part(const char **p, const char *end, const char **start)
{
    *start = *p;
    const char *q = *p;
    while (q < end && !(end - q >= 5 && !memcmp(q, "\n---\n", 5))) q++;
    size_t n = (size_t)(q - *p);
    *p = q < end ? q + 5 : end;
    return n;
}

static void check_record(const ta_diff_record *r)
{
    CHECK(r->op && r->bc_why && r->fc_why);
    CHECK((r->old_schema != NULL) == (r->change != TA_DIFF_ADDED));
    CHECK((r->new_schema != NULL) == (r->change != TA_DIFF_REMOVED));
    CHECK(r->breaks == (r->bc != TA_COMPAT_YES && !r->allowed));
    for (uint32_t k = 0; k < r->nitems; k++) {
        const ta_diff_item *it = &r->items[k];
        CHECK(it->slot && it->detail && it->what < TA_DW_COUNT);
        if (it->old_index >= 0)
            CHECK((uint32_t)it->old_index < (it->is_return ? r->old_schema->nrets : r->old_schema->nargs));
        if (it->new_index >= 0)
            CHECK((uint32_t)it->new_index < (it->is_return ? r->new_schema->nrets : r->new_schema->nargs));
    }
}

/* A schema against itself: compatible both ways. */
static void check_self(const ta_schema_list *l)
{
    for (size_t i = 0; i < ta_schema_list_count(l); i++) {
        const ta_schema *s = ta_schema_list_get(l, i);
        CHECK(ta_schema_backward_compatible(s, s, NULL, 0) == TA_COMPAT_YES);
        CHECK(ta_schema_forward_compatible(s, s, NULL, 0) == TA_COMPAT_YES);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *end = p + size, *s[3];
    size_t n[3];
    for (int k = 0; k < 3; k++) n[k] = part(&p, end, &s[k]);
    ta_diags *d = NULL;
    (void)ta_diags_create(&d);
    ta_schema_list *o = NULL, *nw = NULL;
    ta_allow_list *al = NULL;
    ta_status st = ta_schema_list_load_buffer(s[0], n[0], "old", &o, d);
    CHECK((st == TA_OK || st == TA_ERR_PARSE) && o);
    st = ta_schema_list_load_buffer(s[1], n[1], "new", &nw, d);
    CHECK((st == TA_OK || st == TA_ERR_PARSE) && nw);
    st = ta_allow_list_load_buffer(s[2], n[2], "allow", 20261128, &al, d);
    CHECK((st == TA_OK || st == TA_ERR_PARSE) && al);
    check_self(o);
    ta_diff_input oi = {NULL, o, NULL}, ni = {NULL, nw, NULL};
    ta_diff_opts opts = {al};
    ta_diff *df = NULL;
    CHECK(ta_diff_create(&oi, &ni, &opts, &df, d) == TA_OK);
    for (size_t i = 0; i < ta_diff_count(df); i++) check_record(ta_diff_get(df, i));
    ta_diff_destroy(df);
    CHECK(ta_diff_create(&oi, &oi, NULL, &df, d) == TA_OK);
    CHECK(ta_diff_count(df) == 0);
    ta_diff_destroy(df);
    ta_allow_list_destroy(al);
    ta_schema_list_destroy(o);
    ta_schema_list_destroy(nw);
    ta_diags_destroy(d);
    return 0;
}
