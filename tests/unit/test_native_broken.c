/* test_native_broken.c - every structural rule of the loader and its checks
 * fires where it should. Each .yaml file of tests/data/broken-yaml starts with
 * comment lines "# expect: RULE LINE [COL]" (or "# expect: clean"); the
 * diagnostics of load + check must be exactly those, at those lines (and
 * columns). More cases on in-memory yaml below: tags.yaml problems, YAML 1.1
 * scalar typing, byte columns after UTF-8, empty and deeply nested input,
 * name lookup. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tensoralias/native.h"

#define DIR_BROKEN "tests/data/broken-yaml"
#define MAIN_TAGS "tests/data/corpus/pytorch-main/tags.yaml"

/* Rule ids some broken-yaml file expects (the catalogue must be covered). */
static char covered[64][64];
static int ncovered;

static void cover(const char *rule)
{
    for (int i = 0; i < ncovered; i++)
        if (!strcmp(covered[i], rule)) return;
    if (ncovered < 64) snprintf(covered[ncovered++], sizeof covered[0], "%s", rule);
}

typedef struct expect {
    char rule[64];
    unsigned line, col; /* col 0: any */
    bool seen;
} expect;

static void dump(const ta_diags *d)
{
    for (size_t i = 0; i < ta_diags_count(d); i++) ta_diag_render(ta_diags_get(d, i), stderr);
}

/* Loads and checks one file; returns the number of problems found with it. */
static int check_file(const char *path)
{
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    expect ex[17];
    memset(ex, 0, sizeof ex);
    int nex = 0;
    bool clean = false;
    char line[256];
    while (fgets(line, sizeof line, fp) && line[0] == '#') {
        if (!strcmp(line, "# expect: clean\n")) clean = true;
        else if (nex < 16 && sscanf(line, "# expect: %63s %u %u", ex[nex].rule, &ex[nex].line,
                                    &ex[nex].col) >= 2) {
            cover(ex[nex].rule);
            nex++;
        }
    }
    fclose(fp);
    if (!clean && nex == 0) {
        fprintf(stderr, "%s: no '# expect:' line\n", path);
        return 1;
    }
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_native_file *f = NULL;
    ta_status st = ta_native_load_path(path, MAIN_TAGS, &f, d);
    assert_true(st == TA_OK || st == TA_ERR_PARSE);
    assert_non_null(f);
    ta_status cst = ta_native_check(f, d);
    int bad = 0;
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *g = ta_diags_get(d, i);
        bool ok = false;
        for (int k = 0; k < nex; k++)
            if (!strcmp(g->rule, ex[k].rule) && g->line == ex[k].line &&
                (!ex[k].col || g->col == ex[k].col)) {
                ok = ex[k].seen = true;
                break;
            }
        if (!ok) {
            fprintf(stderr, "%s: unexpected: ", path);
            ta_diag_render(g, stderr);
            bad++;
        }
    }
    for (int k = 0; k < nex; k++)
        if (!ex[k].seen) {
            fprintf(stderr, "%s: missing %s at line %u col %u\n", path, ex[k].rule,
                    ex[k].line, ex[k].col);
            bad++;
        }
    /* The status agrees with the diagnostics. */
    bool errors = ta_diags_count_severity(d, TA_SEV_ERROR) > 0;
    if (errors != (st == TA_ERR_PARSE || cst == TA_ERR_PARSE)) {
        fprintf(stderr, "%s: status %d/%d with %d errors\n", path, st, cst, errors);
        bad++;
    }
    ta_native_destroy(f);
    ta_diags_destroy(d);
    return bad;
}

static void broken_files(void **state)
{
    (void)state;
    DIR *dir = opendir(DIR_BROKEN);
    assert_non_null(dir);
    struct dirent *e;
    int files = 0, cleans = 0, bad = 0;
    while ((e = readdir(dir))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 5, ".yaml")) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", DIR_BROKEN, e->d_name);
        bad += check_file(path);
        files++;
        cleans += strstr(e->d_name, "clean") || strstr(e->d_name, "fixed");
    }
    closedir(dir);
    fprintf(stderr, "%d files, %d clean ones, %d problems\n", files, cleans, bad);
    assert_true(files >= 20);
    assert_true(cleans >= 2);
    assert_int_equal(bad, 0);
    /* Every rule of the catalogue has a file, but those tested below on
     * in-memory input (tags.yaml, nesting) and "io" (tests/cli). */
    size_t nrules;
    const ta_rule_info *rules = ta_native_rules(&nrules);
    static const char *const elsewhere[] = {"io", "yaml-too-deep", "tag-no-name", "tag-no-desc"};
    for (size_t i = 0; i < nrules; i++) {
        bool found = false;
        for (int k = 0; k < ncovered; k++) found |= !strcmp(covered[k], rules[i].id);
        for (size_t k = 0; k < 4; k++) found |= !strcmp(elsewhere[k], rules[i].id);
        if (!found) fprintf(stderr, "rule %s has no broken-yaml file\n", rules[i].id);
        assert_true(found);
    }
}

/* Loads text (with tags, when given) and checks it; returns the diagnostics. */
static ta_diags *run(const char *text, const char *tags, ta_native_file **out)
{
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_native_file *f = NULL;
    ta_status st = ta_native_load_buffer(text, strlen(text), "t.yaml", tags,
                                         tags ? strlen(tags) : 0, "tags.yaml", &f, d);
    assert_true(st == TA_OK || st == TA_ERR_PARSE);
    assert_non_null(f);
    ta_native_check(f, d);
    if (out) *out = f;
    else ta_native_destroy(f);
    return d;
}

static bool has(const ta_diags *d, const char *rule, unsigned line, unsigned col)
{
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *g = ta_diags_get(d, i);
        if (!strcmp(g->rule, rule) && g->line == line && (!col || g->col == col)) return true;
    }
    dump(d);
    return false;
}

static void tags_file_problems(void **state)
{
    (void)state;
    const char *tags = "- tag: core\n  desc: core op\n- tag: empty\n  desc: ''\n- desc: no name\n";
    ta_diags *d = run("- func: a(Tensor x) -> Tensor\n  tags: core, empty\n", tags, NULL);
    assert_true(has(d, "tag-no-desc", 4, 9));
    assert_true(has(d, "tag-no-name", 5, 3));
    assert_int_equal(ta_diags_count(d), 2); /* both tags are still declared */
    ta_diags_destroy(d);
    /* No tags.yaml: tags are not checked at all. */
    d = run("- func: a(Tensor x) -> Tensor\n  tags: whatever\n", NULL, NULL);
    assert_int_equal(ta_diags_count(d), 0);
    ta_diags_destroy(d);
}

static void scalar_types(void **state)
{
    (void)state;
    ta_native_file *f;
    /* YAML 1.1 as PyYAML reads it: yes/on are bools, a quoted "True" is a string. */
    ta_diags *d = run("- func: a(Tensor x) -> Tensor\n  structured: yes\n  device_guard: off\n"
                      "- func: b(Tensor x) -> Tensor\n  manual_cpp_binding: \"True\"\n"
                      "- func: c(Tensor x) -> Tensor\n  python_module: 12\n  category_override: 1.5\n",
                      NULL, &f);
    assert_int_equal(ta_native_count(f), 3);
    assert_true(ta_native_get(f, 0)->structured);
    assert_false(ta_native_get(f, 0)->device_guard);
    assert_true(has(d, "entry-wrong-type", 5, 23));
    assert_true(has(d, "entry-wrong-type", 7, 18));
    assert_true(has(d, "entry-wrong-type", 8, 22));
    /* (a is not an out= function and turns its device guard off: torchgen's
     * cross-field asserts, counted elsewhere) */
    size_t typing = 0;
    for (size_t i = 0; i < ta_diags_count(d); i++)
        typing += !strcmp(ta_diags_get(d, i)->rule, "entry-wrong-type");
    assert_int_equal(typing, 3);
    ta_native_destroy(f);
    ta_diags_destroy(d);
}

static void utf8_columns(void **state)
{
    (void)state;
    /* "é" is two bytes: the second tag starts at byte column 14. */
    ta_diags *d = run("- func: a(Tensor x) -> Tensor\n  tags: [\xc3\xa9, pointwize]\n",
                      "- tag: pointwise\n  desc: p\n", NULL);
    assert_true(has(d, "tag-unknown", 2, 10));
    assert_true(has(d, "tag-unknown", 2, 14));
    ta_diags_destroy(d);
}

static void empty_and_deep(void **state)
{
    (void)state;
    ta_native_file *f;
    ta_diags *d = run("", NULL, &f);
    assert_true(has(d, "yaml-not-sequence", 1, 1));
    assert_int_equal(ta_native_count(f), 0);
    ta_native_destroy(f);
    ta_diags_destroy(d);
    d = run("[]\n", NULL, &f);
    assert_int_equal(ta_diags_count(d), 0);
    assert_int_equal(ta_native_count(f), 0);
    ta_native_destroy(f);
    ta_diags_destroy(d);
    /* 5000 nested lists: reported once, no crash, no recursion blow-up. */
    char *deep = malloc(10010);
    assert_non_null(deep);
    memset(deep, '[', 5000);
    memset(deep + 5000, ']', 5000);
    strcpy(deep + 10000, "\n");
    d = run(deep, NULL, NULL);
    assert_true(has(d, "yaml-too-deep", 1, 0));
    free(deep);
    ta_diags_destroy(d);
}

static void lookup(void **state)
{
    (void)state;
    ta_native_file *f;
    ta_diags *d = run("- func: abs(Tensor self) -> Tensor\n"
                      "- func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
                      "- func: mylib::abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n",
                      NULL, &f);
    assert_int_equal(ta_diags_count(d), 0);
    assert_ptr_equal(ta_native_find(f, "abs"), ta_native_get(f, 0));
    assert_ptr_equal(ta_native_find(f, "abs.out"), ta_native_get(f, 1));
    assert_ptr_equal(ta_native_find(f, "aten::abs.out"), ta_native_get(f, 1));
    assert_ptr_equal(ta_native_find(f, "mylib::abs.out"), ta_native_get(f, 2));
    assert_null(ta_native_find(f, "abs.Tensor"));
    assert_null(ta_native_find(f, "other::abs"));
    assert_string_equal(ta_native_get(f, 2)->ns, "mylib");
    assert_string_equal(ta_native_get(f, 2)->name, "abs.out");
    ta_native_destroy(f);
    ta_diags_destroy(d);
}

static void fields(void **state)
{
    (void)state;
    ta_native_file *f;
    ta_diags *d = run("- func: add.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)\n"
                      "  structured: True\n"
                      "  ufunc_inner_loop:\n    Generic: add (All)\n    ScalarOnly: add (Bool)\n"
                      "  dispatch:\n    SparseCPU, SparseCUDA: add_out_sparse\n"
                      "    CompositeExplicitAutogradNonFunctional: add_out_nf\n",
                      NULL, &f);
    assert_int_equal(ta_diags_count(d), 0);
    const ta_native_func *fn = ta_native_get(f, 0);
    assert_int_equal(fn->ndispatch, 3);
    assert_string_equal(fn->dispatch[1].key.s, "SparseCUDA");
    assert_int_equal(fn->dispatch[1].key.pos.col, 16);
    assert_string_equal(fn->dispatch[1].kernel.s, "add_out_sparse");
    assert_int_equal(fn->extra->nufunc_inner_loop, 2);
    assert_string_equal(fn->extra->ufunc_inner_loop[1].key.s, "ScalarOnly");
    assert_false(fn->has_composite_implicit_autograd_kernel);
    assert_false(fn->has_composite_explicit_autograd_kernel);
    assert_true(fn->has_composite_explicit_autograd_non_functional_kernel);
    assert_true(fn->is_abstract);
    assert_int_equal(ta_native_key_pos(fn, TA_NK_STRUCTURED).line, 2);
    assert_int_equal(ta_native_val_pos(fn, TA_NK_STRUCTURED).col, 15);
    assert_int_equal(fn->func.pos.col, 9);
    ta_native_destroy(f);
    ta_diags_destroy(d);
}

/* Regression (fuzz_native): a key written twice replaces the first value. */
static void duplicate_tables(void **state)
{
    (void)state;
    ta_native_file *f;
    ta_diags *d = run("- func: a.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)\n"
                      "  dispatch:\n    CPU: a_out\n"
                      "  dispatch: {SparseCPU: s, SparseCUDA: s, SparseMeta: s}\n"
                      "  tags: [core, pointwise]\n  tags: core\n"
                      "  structured: True\n"
                      "  ufunc_inner_loop: {Generic: a (All), ScalarOnly: a (Bool)}\n"
                      "  ufunc_inner_loop: a (Bool)\n",
                      NULL, &f);
    assert_int_equal(ta_diags_count(d), 3); /* three duplicate-key warnings */
    const ta_native_func *fn = ta_native_get(f, 0);
    assert_int_equal(fn->ndispatch, 3);
    assert_string_equal(fn->dispatch[0].key.s, "SparseCPU");
    assert_int_equal(fn->ntags, 1);
    assert_int_equal(fn->extra->nufunc_inner_loop, 1);
    ta_native_destroy(f);
    ta_diags_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(broken_files),   cmocka_unit_test(tags_file_problems),
        cmocka_unit_test(scalar_types),   cmocka_unit_test(utf8_columns),
        cmocka_unit_test(empty_and_deep), cmocka_unit_test(lookup),
        cmocka_unit_test(fields),         cmocka_unit_test(duplicate_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
