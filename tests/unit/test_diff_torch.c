/* test_diff_torch.c - torch's own compatibility verdicts against ours.
 *
 * tests/data/diff/torch-verdicts.tsv.xz holds pairs of schemas with what
 * torch 1.13.1 answered for them (tools/torch/diff_truth.py): "bc fc OLD
 * NEW" a line, bc and fc each yes, no or raises, in sections ("# yaml
 * 1.13.1 -> main", mutated copies of every schema of the 1.13.1 yaml and of
 * torch's registered operators, a matrix of types). Every pair parses, and
 * ta_schema_backward_compatible and ta_schema_forward_compatible answer
 * as torch did, for every pair: the count of disagreements is zero.
 *
 * Then the whole diff of the bundled 1.13.1 yaml and main yaml (autogen's
 * derived functions included): every changed overload's pair is in the
 * golden's "records yaml 1.13.1 -> main" section (unless torch 1.13.1
 * cannot parse it: main's newer types), and the record's bc and fc are
 * torch's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/testdata.h"
#include "tensoralias/torchgen.h"
#include "tensoralias/diff.h"

typedef struct section {
    char name[160];
    size_t pairs, bc_no, fc_no, raises, wrong;
} section;

static ta_compat parse_compat(const char *s)
{
    return !strcmp(s, "yes") ? TA_COMPAT_YES : !strcmp(s, "no") ? TA_COMPAT_NO : TA_COMPAT_RAISES;
}

static void report(const section *s)
{
    if (s->pairs)
        fprintf(stderr, "%-64s %6zu pairs (%zu not BC, %zu not FC, %zu raise): %zu disagree\n", s->name,
                s->pairs, s->bc_no, s->fc_no, s->raises, s->wrong);
}

/* Splits a "bc fc old new" line in place into f; false when it has fewer fields. */
static bool fields(char *line, char *f[4])
{
    for (int k = 0; k < 4; k++) {
        f[k] = line;
        char *tab = k < 3 ? strchr(line, '\t') : NULL;
        if (k < 3 && !tab) return false;
        if (tab) {
            *tab = '\0';
            line = tab + 1;
        }
    }
    return true;
}

/* One "bc fc old new" line (split in place); 1 when we disagree. */
static int check_line(char *line, section *sec, ta_arena *a)
{
    char *f[4];
    if (!fields(line, f)) return 1;
    ta_schema *o = NULL, *n = NULL;
    ta_arena_reset(a);
    if (ta_schema_parse(a, f[2], strlen(f[2]), NULL, &o, NULL) != TA_OK ||
        ta_schema_parse(a, f[3], strlen(f[3]), NULL, &n, NULL) != TA_OK) {
        if (sec->wrong < 5) fprintf(stderr, "  does not parse: %s | %s\n", f[2], f[3]);
        return 1;
    }
    ta_compat bc = ta_schema_backward_compatible(n, o, NULL, 0);
    ta_compat fc = ta_schema_forward_compatible(n, o, NULL, 0);
    ta_compat want_bc = parse_compat(f[0]), want_fc = parse_compat(f[1]);
    sec->pairs++;
    sec->bc_no += want_bc != TA_COMPAT_YES;
    sec->fc_no += want_fc != TA_COMPAT_YES;
    sec->raises += want_bc == TA_COMPAT_RAISES || want_fc == TA_COMPAT_RAISES;
    if (bc == want_bc && fc == want_fc) return 0;
    if (sec->wrong < 5)
        fprintf(stderr, "  torch bc=%s fc=%s, ours bc=%s fc=%s:\n    old %s\n    new %s\n", f[0], f[1],
                ta_compat_str(bc), ta_compat_str(fc), f[2], f[3]);
    return 1;
}

static void test_torch_verdicts(void **state)
{
    (void)state;
    size_t len;
    char *buf = ta_test_read_data("diff/torch-verdicts.tsv", &len);
    assert_non_null(buf);
    size_t nlines;
    char **lines = ta_test_lines(buf, len, &nlines, NULL);
    ta_arena *a = NULL;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    section sec = {"(no section)", 0, 0, 0, 0, 0};
    size_t pairs = 0, wrong = 0;
    for (size_t i = 0; i < nlines; i++) {
        if (lines[i][0] == '#') {
            report(&sec);
            memset(&sec, 0, sizeof sec);
            snprintf(sec.name, sizeof sec.name, "%s", lines[i] + 2);
            continue;
        }
        if (!lines[i][0]) continue;
        int bad = check_line(lines[i], &sec, a);
        sec.wrong += (size_t)bad;
        wrong += (size_t)bad;
        pairs++;
    }
    report(&sec);
    fprintf(stderr, "%zu pairs, %zu disagreements with torch 1.13.1\n", pairs, wrong);
    assert_true(pairs > 10000);
    assert_int_equal(wrong, 0);
    ta_arena_destroy(a);
    free(lines);
    free(buf);
}

/* "aten::" + the schema as written, unless it names a namespace. */
static void with_ns(const ta_schema *s, char *buf, size_t cap)
{
    char text[8192];
    ta_schema_print(s, text, sizeof text);
    snprintf(buf, cap, "%s%s", s->ns.len ? "" : "aten::", text);
}

/* The fields of the golden line of section sec for the pair (old, new), or
 * NULL (the lines of that section are split in place on the way). */
static char **find_pair(char **lines, size_t n, const char *sec, const char *old, const char *new)
{
    static char *f[4];
    bool in = false;
    for (size_t i = 0; i < n; i++) {
        if (lines[i][0] == '#') {
            in = !strcmp(lines[i] + 2, sec);
            continue;
        }
        if (!in || !lines[i][0]) continue;
        if (strchr(lines[i], '\t') && !fields(lines[i], f)) continue;
        f[0] = lines[i];
        f[1] = f[0] + strlen(f[0]) + 1;
        f[2] = f[1] + strlen(f[1]) + 1;
        f[3] = f[2] + strlen(f[2]) + 1;
        if (!strcmp(f[2], old) && !strcmp(f[3], new)) return f;
    }
    return NULL;
}

static void test_yaml_records(void **state)
{
    (void)state;
    size_t len, nlines;
    char *buf = ta_test_read_data("diff/torch-verdicts.tsv", &len);
    assert_non_null(buf);
    char **lines = ta_test_lines(buf, len, &nlines, NULL);
    ta_diags *d = NULL;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_native_file *o = NULL, *n = NULL;
    assert_int_equal(ta_test_load_corpus("pytorch-1.13.1", &o, d), TA_OK);
    assert_true(ta_test_load_corpus("pytorch-main", &n, d) <= TA_ERR_PARSE);
    ta_diff_input oi = {o, NULL, NULL}, ni = {n, NULL, NULL};
    ta_diff *df = NULL;
    assert_int_equal(ta_diff_create(&oi, &ni, NULL, &df, d), TA_OK);
    size_t changed = 0, judged = 0, agree = 0;
    char *old_text = malloc(9000), *new_text = malloc(9000);
    for (size_t i = 0; i < ta_diff_count(df); i++) {
        const ta_diff_record *r = ta_diff_get(df, i);
        if (r->change != TA_DIFF_CHANGED) continue;
        changed++;
        with_ns(r->old_schema, old_text, 9000);
        with_ns(r->new_schema, new_text, 9000);
        char **f = find_pair(lines, nlines, "records yaml 1.13.1 -> main (bundled)", old_text, new_text);
        if (!f) continue;
        judged++;
        bool ok = !strcmp(f[0], ta_compat_str(r->bc)) && !strcmp(f[1], ta_compat_str(r->fc));
        agree += ok;
        if (!ok) fprintf(stderr, "  %s: torch %s %s, ours %s %s\n", r->op, f[0], f[1], ta_compat_str(r->bc), ta_compat_str(r->fc));
    }
    fprintf(stderr, "1.13.1 -> main: %zu overloads changed, %zu of them judged by torch 1.13.1, %zu agree\n",
            changed, judged, agree);
    assert_true(changed > 300);
    assert_true(changed - judged <= 4); /* main's types 1.13.1 cannot parse */
    assert_int_equal(agree, judged);
    free(old_text);
    free(new_text);
    ta_diff_destroy(df);
    ta_native_destroy(o);
    ta_native_destroy(n);
    ta_diags_destroy(d);
    free(lines);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_torch_verdicts),
        cmocka_unit_test(test_yaml_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
