/* test_alias_pass_fastpath.c - the yaml alias pass skips the query build for
 * schemas without any alias annotation (ta_alias_facts_unannotated): the
 * predicate on schemas that have annotations at every depth or too many
 * class types, and the pass's findings equal those of the full per-schema
 * check (ta_alias_check_schema) on schemas of both kinds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "alias/query_internal.h"
#include "tensoralias/alias.h"
#include "tensoralias/native.h"
#include "tensoralias/schema.h"

static ta_schema *parse(ta_arena *a, const char *text)
{
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_schema *s = NULL;
    if (ta_schema_parse(a, text, strlen(text), NULL, &s, d) != TA_OK) {
        printf("does not parse: %s\n", text);
        fail();
    }
    ta_diags_destroy(d);
    return s;
}

/* "many(Tensor self, __torch__...C0 c0, ...) -> Tensor": n class types */
static char *many_classes(int n, bool annotate)
{
    size_t cap = 64 + (size_t)n * 48;
    char *p = malloc(cap);
    assert_non_null(p);
    size_t len = (size_t)snprintf(p, cap, "many(Tensor%s self", annotate ? "(a!)" : "");
    for (int i = 0; i < n; i++) len += (size_t)snprintf(p + len, cap - len, ", __torch__.torch.classes.x.C%d c%d", i, i);
    snprintf(p + len, cap - len, ") -> Tensor");
    return p;
}

static void test_predicate(void **state)
{
    (void)state;
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    assert_true(ta_alias_facts_unannotated(parse(a, "add(Tensor self, Tensor other) -> Tensor")));
    assert_true(ta_alias_facts_unannotated(parse(a, "f(Tensor[] x, int[2] s) -> (Tensor, Tensor)")));
    assert_false(ta_alias_facts_unannotated(parse(a, "abs_(Tensor(a!) self) -> Tensor(a!)")));
    assert_false(ta_alias_facts_unannotated(parse(a, "f(Tensor x) -> Tensor(a)[]")));
    assert_false(ta_alias_facts_unannotated(parse(a, "f(Tensor(a)? x) -> Tensor")));
    assert_false(ta_alias_facts_unannotated(parse(a, "f(Dict(str, Tensor(a)) x) -> Tensor")));
    char *few = many_classes(10, false), *lots = many_classes(60, false);
    assert_true(ta_alias_facts_unannotated(parse(a, few)));
    assert_false(ta_alias_facts_unannotated(parse(a, lots)));
    free(few);
    free(lots);
    ta_arena_destroy(a);
}

/* The sorted rule ids of d, joined by spaces. */
static void rule_ids(const ta_diags *d, char *out, size_t cap)
{
    size_t n = ta_diags_count(d);
    const char **ids = calloc(n ? n : 1, sizeof *ids);
    assert_non_null(ids);
    for (size_t i = 0; i < n; i++) ids[i] = ta_diags_get(d, i)->rule;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(ids[j - 1], ids[j]) > 0; j--) {
            const char *t = ids[j];
            ids[j] = ids[j - 1];
            ids[j - 1] = t;
        }
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        strncat(out, ids[i], cap - strlen(out) - 1);
        strncat(out, " ", cap - strlen(out) - 1);
    }
    free(ids);
}

static void same_findings(const char *schema)
{
    char pass_ids[1024], check_ids[1024];
    size_t ylen = strlen(schema) + 64;
    char *yaml = malloc(ylen);
    assert_non_null(yaml);
    snprintf(yaml, ylen, "- func: %s\n  dispatch:\n    CPU: k\n", schema);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_native_file *f = NULL;
    assert_int_equal(ta_native_load_buffer(yaml, strlen(yaml), "t.yaml", NULL, 0, NULL, &f, d),
                     TA_OK);
    ta_diags_clear(d);
    assert_int_equal(ta_alias_native_pass(f, d), TA_OK);
    rule_ids(d, pass_ids, sizeof pass_ids);
    ta_native_destroy(f);
    ta_diags_destroy(d);

    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_status st = ta_alias_check_schema(parse(a, schema), d);
    assert_true(st == TA_OK || st == TA_ERR_UNSUPPORTED);
    rule_ids(d, check_ids, sizeof check_ids);
    ta_diags_destroy(d);
    ta_arena_destroy(a);
    if (getenv("SHOW") || strcmp(pass_ids, check_ids) != 0)
        printf("%s\n  pass:  %s\n  check: %s\n", schema, pass_ids, check_ids);
    assert_string_equal(pass_ids, check_ids);
    free(yaml);
}

static void test_same_findings(void **state)
{
    (void)state;
    static const char *const schemas[] = {
        /* no annotation: the fast path, which still finds these */
        "abs_(Tensor self) -> Tensor",
        "relu.out(Tensor self, *, Tensor out) -> Tensor",
        "neg(Tensor self) -> Tensor",
        "__iadd__(Tensor self, Tensor other) -> Tensor",
        "f(Tensor[] x, int[2] s, *, Tensor? out=None) -> (Tensor, Tensor)",
        /* annotated: the full build */
        "abs_(Tensor(a!) self) -> Tensor(a!)",
        "f.out(Tensor self, *, Tensor(a!) out, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))",
        "view(Tensor(a) self, int[] size) -> Tensor(a)",
        "g(Tensor(a) self, Tensor(b) x) -> Tensor",
        "h(Tensor(a -> *) self) -> Tensor[]",
        "k.functional(Tensor(a!) self) -> Tensor",
    };
    for (size_t i = 0; i < sizeof schemas / sizeof schemas[0]; i++) same_findings(schemas[i]);
    /* past the class limit: reported as alias-limits either way */
    char *lots = many_classes(60, false), *lots_ann = many_classes(60, true), *few = many_classes(40, false);
    same_findings(lots);
    same_findings(lots_ann);
    same_findings(few);
    free(lots);
    free(lots_ann);
    free(few);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_predicate),
        cmocka_unit_test(test_same_findings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
