/* test_torchgen_golden.c - the family model against torchgen 1.13.1 itself
 * (tests/data/golden/torch-1.13.1/torchgen-{functions,groups}.jsonl), on the
 * 1.13.1 yaml:
 *   - kind, is_view_op and signature of every yaml function;
 *   - the derived functions: the same 459, in the same order, schema string
 *     for schema string, and every field of every row (yaml or derived) that
 *     the model holds;
 *   - the groups: every kinds group whose members all come from the yaml,
 *     every view group, then every group row for row.
 * Mismatches are counted (the first few printed) and must be zero. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "tensoralias/native.h"
#include "tensoralias/torchgen.h"

static const char *build_dir(void)
{
    const char *b = getenv("BUILD");
    return b && *b ? b : "build";
}

static ta_native_file *nf;
static ta_torchgen *tg;
static json_t **frows, **grows;
static size_t nfrows, ngrows;
static int mismatches;

static json_t **read_jsonl(const char *name, size_t *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/data/golden/torch-1.13.1/%s", build_dir(), name);
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    json_t **rows = NULL;
    size_t cap = 0;
    *n = 0;
    char *line = NULL;
    size_t lcap = 0;
    while (getline(&line, &lcap, f) > 0) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 1024;
            rows = realloc(rows, cap * sizeof *rows);
        }
        json_error_t err;
        rows[(*n)++] = json_loads(line, 0, &err);
    }
    free(line);
    fclose(f);
    return rows;
}

static int setup(void **state)
{
    (void)state;
    char yaml[512], tags[512];
    snprintf(yaml, sizeof yaml, "%s/data/corpus/pytorch-1.13.1/native_functions.yaml", build_dir());
    snprintf(tags, sizeof tags, "tests/data/corpus/pytorch-1.13.1/tags.yaml");
    ta_diags *d = ta_diags_create();
    if (ta_native_load_path(yaml, tags, &nf, d) != TA_OK) return -1;
    ta_diags_clear(d);
    if (ta_torchgen_from_native(nf, &tg, d) != TA_OK) return -1;
    ta_diags_destroy(d);
    frows = read_jsonl("torchgen-functions.jsonl", &nfrows);
    grows = read_jsonl("torchgen-groups.jsonl", &ngrows);
    return frows && grows ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < nfrows; i++) json_decref(frows[i]);
    for (size_t i = 0; i < ngrows; i++) json_decref(grows[i]);
    free(frows);
    free(grows);
    ta_torchgen_destroy(tg);
    ta_native_destroy(nf);
    return 0;
}

static void mismatch(const json_t *row, const char *field, const char *want, const char *got)
{
    if (mismatches++ < 12)
        fprintf(stderr, "%s (line %lld): %s: torchgen %s, ours %s\n",
                json_string_value(json_object_get(row, "name")),
                (long long)json_integer_value(json_object_get(row, "line")), field, want, got);
}

static void check_str(const json_t *row, const char *field, const char *got)
{
    const json_t *v = json_object_get(row, field);
    const char *want = json_is_string(v) ? json_string_value(v) : NULL;
    if ((want == NULL) != (got == NULL) || (want && strcmp(want, got)))
        mismatch(row, field, want ? want : "null", got ? got : "null");
}

static void check_bool(const json_t *row, const char *field, bool got)
{
    const json_t *v = json_object_get(row, field);
    if (!json_is_boolean(v) || json_is_true(v) != got)
        mismatch(row, field, json_is_true(v) ? "true" : "false", got ? "true" : "false");
}

static void check_list(const json_t *row, const char *field, const char **got, uint32_t n)
{
    const json_t *v = json_object_get(row, field);
    bool same = json_is_array(v) && json_array_size(v) == n;
    for (uint32_t i = 0; same && i < n; i++)
        same = !strcmp(json_string_value(json_array_get(v, i)), got[i]);
    if (!same) {
        char *w = json_dumps(v, JSON_COMPACT);
        char ours[1024] = "";
        for (uint32_t i = 0; i < n; i++)
            snprintf(ours + strlen(ours), sizeof ours - strlen(ours), "%s%s", i ? "," : "", got[i]);
        mismatch(row, field, w ? w : "?", ours);
        free(w);
    }
}

/* Part 1: kind, is_view_op and signature of every function of the yaml. */
static void test_kinds_of_yaml_functions(void **state)
{
    (void)state;
    mismatches = 0;
    size_t nyaml = ta_torchgen_count(tg) - ta_torchgen_count_derived(tg);
    size_t seen = 0;
    for (size_t i = 0; i < nfrows; i++) {
        const json_t *row = frows[i];
        if (json_is_true(json_object_get(row, "generated"))) continue;
        if (seen >= nyaml) {
            mismatch(row, "presence", "a function", "none");
            continue;
        }
        const ta_tg_function *f = ta_torchgen_get(tg, seen++);
        check_str(row, "name", f->name);
        check_str(row, "kind", ta_schema_kind_str(f->kind));
        check_bool(row, "is_view_op", f->is_view_op);
        check_str(row, "signature", f->signature);
    }
    if (seen != nyaml) mismatch(frows[0], "count of yaml functions", "2493", "other");
    fprintf(stderr, "yaml functions: %zu, kind/is_view_op/signature mismatches: %d\n", seen,
            mismatches);
    assert_int_equal(seen, 2493);
    assert_int_equal(mismatches, 0);
}

/* Part 2: torchgen's whole list, derived functions included, field by field. */
static void test_every_function_every_field(void **state)
{
    (void)state;
    mismatches = 0;
    assert_int_equal(ta_torchgen_count(tg), nfrows);
    assert_int_equal(ta_torchgen_count_derived(tg), 459);
    for (size_t i = 0; i < nfrows; i++) {
        const json_t *row = frows[i];
        const ta_tg_function *f = ta_torchgen_get(tg, i);
        check_str(row, "func", f->func);
        check_str(row, "name", f->name);
        check_bool(row, "generated", f->generated);
        if ((uint32_t)json_integer_value(json_object_get(row, "line")) != f->line)
            mismatch(row, "line", "other", "ours");
        check_str(row, "kind", ta_schema_kind_str(f->kind));
        check_bool(row, "is_view_op", f->is_view_op);
        check_str(row, "signature", f->signature);
        check_list(row, "tags", f->tags, f->ntags);
        check_list(row, "autogen", f->autogen, f->nautogen);
        check_list(row, "variants", f->variants, f->nvariants);
        check_bool(row, "structured", f->structured);
        check_str(row, "structured_delegate", f->structured_delegate);
        check_bool(row, "manual_cpp_binding", f->manual_cpp_binding);
        check_bool(row, "has_composite_implicit_autograd_kernel",
                   f->has_composite_implicit_autograd_kernel);
        check_bool(row, "has_composite_explicit_autograd_kernel",
                   f->has_composite_explicit_autograd_kernel);
        /* a derived function carries a plan; a yaml one does not */
        if ((f->plan != NULL) != f->generated) mismatch(row, "plan", "present iff generated", "?");
        /* a derived schema is a whole model: the parser's canonical printer
         * spells it as torchgen does, and its text parses back to itself */
        if (f->generated) {
            char buf[4096];
            ta_schema_print_canonical(f->schema, buf, sizeof buf);
            check_str(row, "func", buf); /* the canonical print of the derived model */
            ta_arena *a = ta_arena_create();
            ta_schema *back = NULL;
            ta_diags *d = ta_diags_create();
            if (ta_schema_parse(a, f->schema->text, f->schema->text_len, NULL, &back, d) != TA_OK ||
                ta_schema_kind_of(back) != f->kind || back->nargs != f->schema->nargs ||
                back->nrets != f->schema->nrets)
                mismatch(row, "reparse", "same schema", "other");
            ta_diags_destroy(d);
            ta_arena_destroy(a);
        }
    }
    fprintf(stderr, "functions: %zu (derived %zu), field mismatches: %d\n", nfrows,
            ta_torchgen_count_derived(tg), mismatches);
    assert_int_equal(mismatches, 0);
}

static const char *member(int32_t i) { return i >= 0 ? ta_torchgen_get(tg, (size_t)i)->name : NULL; }

static bool from_yaml(int32_t i) { return i < 0 || !ta_torchgen_get(tg, (size_t)i)->generated; }

static void check_group(const json_t *row, const ta_tg_group *g)
{
    if (g->kind == TA_GROUP_KINDS) {
        check_str(row, "group", "kinds");
        check_str(row, "signature", g->signature);
        check_str(row, "functional", member(g->functional));
        check_str(row, "inplace", member(g->inplace));
        check_str(row, "mutable", member(g->mutable_fn));
        check_str(row, "out", member(g->out));
    } else {
        check_str(row, "group", "view");
        check_str(row, "view", member(g->view));
        check_str(row, "view_copy", member(g->view_copy));
        check_str(row, "view_inplace", member(g->view_inplace));
    }
}

static bool golden_all_yaml(const json_t *row)
{
    static const char *const keys[] = {"functional", "inplace", "mutable", "out",
                                       "view", "view_copy", "view_inplace"};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        const json_t *v = json_object_get(row, keys[k]);
        if (!json_is_string(v)) continue;
        int32_t i = ta_torchgen_find(tg, json_string_value(v));
        if (i < 0 || !from_yaml(i)) return false;
    }
    return true;
}

/* Part 1: the groups whose members all come from the yaml (in order). */
static void test_groups_of_yaml_functions(void **state)
{
    (void)state;
    mismatches = 0;
    size_t want = 0, j = 0, n = ta_torchgen_group_count(tg);
    for (size_t i = 0; i < ngrows; i++) {
        if (!golden_all_yaml(grows[i])) continue;
        want++;
        /* our next group made of yaml functions only */
        const ta_tg_group *g = NULL;
        while (j < n && !g) {
            const ta_tg_group *c = ta_torchgen_group_get(tg, j++);
            if (from_yaml(c->functional) && from_yaml(c->inplace) && from_yaml(c->mutable_fn) &&
                from_yaml(c->out) && from_yaml(c->view) && from_yaml(c->view_copy) &&
                from_yaml(c->view_inplace))
                g = c;
        }
        if (!g) {
            mismatch(grows[i], "group", "present", "missing");
            continue;
        }
        check_group(grows[i], g);
    }
    fprintf(stderr, "groups of yaml functions: %zu, mismatches: %d\n", want, mismatches);
    assert_true(want > 600);
    assert_int_equal(mismatches, 0);
}

/* Part 2: every group, row for row. */
static void test_all_groups(void **state)
{
    (void)state;
    mismatches = 0;
    assert_int_equal(ta_torchgen_group_count(tg), ngrows);
    for (size_t i = 0; i < ngrows; i++) check_group(grows[i], ta_torchgen_group_get(tg, i));
    fprintf(stderr, "groups: %zu, mismatches: %d\n", ngrows, mismatches);
    assert_int_equal(mismatches, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds_of_yaml_functions),
        cmocka_unit_test(test_groups_of_yaml_functions),
        cmocka_unit_test(test_every_function_every_field),
        cmocka_unit_test(test_all_groups),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
