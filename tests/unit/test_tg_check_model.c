/* test_tg_check_model.c - the check-only family model (the one `check`
 * builds: no func strings, no derived schema text, out= plans reduced to
 * their head, derived out= variants without their schema) is the full model
 * as far as anything reads it:
 *   - the same functions in the same order: name, kind, view flag,
 *     generated flag, signature, and for derived ones the plan's kind, base
 *     and callee (all the autogen checks read of a plan);
 *   - the same diagnostics (rule, severity, position, message, hint), notes
 *     included;
 *   - ta_torchgen_check_pass reports exactly the full model's non-notes.
 * Inputs: both corpora as they are; both corpora with their autogen: lists
 * damaged (every third dropped, every third given a wrong first name), so
 * that name-mismatch, missing and underivable errors occur by the hundred;
 * and a small yaml of refusals. Mismatches are counted (the first few
 * printed) and must be zero. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "alias/torchgen/internal.h"
#include "support/autogen_damage.h"
#include "support/testdata.h"
#include "tensoralias/native.h"
#include "tensoralias/torchgen.h"

static int bad;

static void mismatch(const char *what, const char *want, const char *got)
{
    if (bad++ < 8) fprintf(stderr, "%s:\n  full  %s\n  check %s\n", what, want, got);
}

static void same_str(const char *what, const char *a, const char *b)
{
    if ((a == NULL) != (b == NULL) || (a && strcmp(a, b)))
        mismatch(what, a ? a : "(null)", b ? b : "(null)");
}

static void same_int(const char *what, long a, long b)
{
    if (a == b) return;
    char x[32], y[32];
    snprintf(x, sizeof x, "%ld", a);
    snprintf(y, sizeof y, "%ld", b);
    mismatch(what, x, y);
}

/* want: every diagnostic of full (notes only when with_notes), in order. */
static void same_diags(const ta_diags *full, const ta_diags *got, bool with_notes)
{
    size_t j = 0, ng = ta_diags_count(got);
    for (size_t i = 0; i < ta_diags_count(full); i++) {
        const ta_diag *a = ta_diags_get(full, i);
        if (!with_notes && a->severity == TA_SEV_NOTE) continue;
        if (j >= ng) {
            mismatch("diagnostic missing", a->message, "(none)");
            continue;
        }
        const ta_diag *b = ta_diags_get(got, j++);
        same_str("rule", a->rule, b->rule);
        same_int("severity", a->severity, b->severity);
        same_str("message", a->message, b->message);
        same_str("hint", a->hint, b->hint);
        same_int("line", a->line, b->line);
        same_int("col", a->col, b->col);
    }
    if (j < ng) mismatch("extra diagnostic", "(none)", ta_diags_get(got, j)->message);
}

/* Returns how many errors and warnings the full model reported. */
static size_t compare(const char *yaml, size_t len, const char *name)
{
    ta_native_file *f = NULL;
    ta_native_load_buffer(yaml, len, name, NULL, 0, NULL, &f, NULL);
    assert_non_null(f);
    ta_diags *dfull, *dcheck, *dpass;
    assert_int_equal(ta_diags_create(&dfull), TA_OK);
    assert_int_equal(ta_diags_create(&dcheck), TA_OK);
    assert_int_equal(ta_diags_create(&dpass), TA_OK);
    ta_torchgen *full = NULL, *chk = NULL;
    assert_int_equal(tg_from_native(f, &full, dfull, TG_FULL_MODEL), TA_OK);
    assert_int_equal(tg_from_native(f, &chk, dcheck, TG_CHECK_MODEL), TA_OK);
    assert_int_equal(ta_torchgen_check_pass(f, dpass), TA_OK);

    same_int("function count", (long)ta_torchgen_count(full), (long)ta_torchgen_count(chk));
    size_t n = ta_torchgen_count(full) < ta_torchgen_count(chk) ? ta_torchgen_count(full)
                                                                 : ta_torchgen_count(chk);
    for (size_t i = 0; i < n; i++) {
        const ta_tg_function *a = ta_torchgen_get(full, i), *b = ta_torchgen_get(chk, i);
        same_str("name", a->name, b->name);
        same_str("signature", a->signature, b->signature);
        same_int("kind", a->kind, b->kind);
        same_int("is_view_op", a->is_view_op, b->is_view_op);
        same_int("generated", a->generated, b->generated);
        same_int("has plan", a->plan != NULL, b->plan != NULL);
        if (a->plan && b->plan) {
            same_int("plan kind", a->plan->kind, b->plan->kind);
            same_int("plan base", a->plan->base, b->plan->base);
            same_int("plan base kind", a->plan->base_kind, b->plan->base_kind);
            same_int("plan callee", a->plan->callee, b->plan->callee);
        }
        /* the check model leaves the func strings out: that is its point */
        assert_null(b->func);
    }
    same_diags(dfull, dcheck, true);
    same_diags(dfull, dpass, false);
    size_t findings = ta_diags_count(dfull) - ta_diags_count_severity(dfull, TA_SEV_NOTE);

    ta_torchgen_destroy(full);
    ta_torchgen_destroy(chk);
    ta_diags_destroy(dfull);
    ta_diags_destroy(dcheck);
    ta_diags_destroy(dpass);
    ta_native_destroy(f);
    return findings;
}

static void check_corpus(const char *corpus)
{
    char rel[256];
    snprintf(rel, sizeof rel, "corpus/%s/native_functions.yaml", corpus);
    size_t len;
    char *text = ta_test_read_data(rel, &len);
    assert_non_null(text);
    bad = 0;
    compare(text, len, rel);
    size_t dlen;
    char *dmg = ta_test_damage_autogen(text, len, &dlen);
    assert_non_null(dmg);
    size_t findings = compare(dmg, dlen, rel);
    fprintf(stderr, "%s: damaged autogen lists give %zu findings; %d mismatches\n", corpus,
            findings, bad);
    assert_true(findings > 100); /* the damage is seen */
    assert_int_equal(bad, 0);
    free(dmg);
    free(text);
}

static void test_corpus_1_13_1(void **state)
{
    (void)state;
    check_corpus("pytorch-1.13.1");
}

static void test_corpus_main(void **state)
{
    (void)state;
    check_corpus("pytorch-main");
}

static void test_refusals(void **state)
{
    (void)state;
    const char *yaml = "- func: count(Tensor self) -> int\n"
                       "  dispatch:\n    CPU: count\n"
                       "  autogen: count.out\n"
                       "- func: comp(Tensor self) -> Tensor\n"
                       "  autogen: comp.out\n"
                       "- func: look(Tensor(a) self) -> Tensor(a)\n"
                       "  dispatch:\n    CPU: look\n"
                       "  autogen: look.out\n"
                       "- func: lone.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
                       "  dispatch:\n    CPU: lone_out\n"
                       "  autogen: lone\n"
                       "- func: wrong_(Tensor(a!) self) -> Tensor(a!)\n"
                       "  dispatch:\n    CPU: wrong_\n"
                       "  autogen: wrong.other_out\n"
                       "- func: dup(Tensor self) -> Tensor\n"
                       "  dispatch:\n    CPU: dup\n"
                       "  autogen: dup.out\n"
                       "- func: dup.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
                       "  dispatch:\n    CPU: dup_out\n"
                       "- func: unasked_(Tensor(a!) self) -> Tensor(a!)\n"
                       "  dispatch:\n    CPU: unasked_\n"
                       "- func: unasked.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
                       "  dispatch:\n    CPU: unasked_out\n"
                       "- func: mut(Tensor self, Tensor(a!) buf) -> (Tensor, Tensor)\n"
                       "  dispatch:\n    CPU: mut\n"
                       "  autogen: mut_functional, mut.out\n"
                       "- func: pair(Tensor self, str mode) -> (Tensor, int)\n"
                       "  dispatch:\n    CPU: pair\n"
                       "  autogen: pair.out\n";
    bad = 0;
    size_t findings = compare(yaml, strlen(yaml), "r.yaml");
    assert_true(findings >= 4);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_1_13_1),
        cmocka_unit_test(test_corpus_main),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
