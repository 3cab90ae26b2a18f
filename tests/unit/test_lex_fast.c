/* test_lex_fast.c - the parser's inline lexer fast path (ta_lex_next_fast)
 * hands out exactly the tokens of the general scanner (ta_lex_next): kind,
 * offset, length, skipped line break and resume position, token by token,
 *   - over the func text of every entry of both corpora (PyTorch 1.13.1 and
 *     main), and
 *   - over hand-written texts with what the fast path must leave alone:
 *     line breaks, tabs, several spaces, comments, line continuations,
 *     "->", "...", strings, a text that ends in a space or a bracket.
 * Mismatches are counted (the first few printed) and must be zero. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schema/lexer.h"
#include "support/testdata.h"
#include "tensoralias/native.h"

/* Lexes text[0..n) both ways; returns the tokens compared, counts misses. */
static size_t compare(const char *text, uint32_t n, int *bad)
{
    ta_lexer slow = {text, n, 0}, fast = {text, n, 0};
    size_t count = 0;
    for (;;) {
        ta_tok a, b;
        ta_lex_next(&slow, &a);
        ta_lex_next_fast(&fast, &b);
        count++;
        if (a.kind != b.kind || a.off != b.off || a.len != b.len || a.nl_off != b.nl_off ||
            slow.pos != fast.pos) {
            if ((*bad)++ < 5)
                fprintf(stderr, "token %zu of \"%.*s\": slow %d@%u+%u nl %u, fast %d@%u+%u nl %u\n",
                        count, (int)n, text, a.kind, a.off, a.len, a.nl_off, b.kind, b.off,
                        b.len, b.nl_off);
            return count;
        }
        if (a.kind == TK_EOF) return count;
    }
}

static void check_corpus(const char *corpus)
{
    char rel[256];
    snprintf(rel, sizeof rel, "corpus/%s/native_functions.yaml", corpus);
    size_t len;
    char *text = ta_test_read_data(rel, &len);
    assert_non_null(text);
    ta_native_file *f = NULL;
    ta_native_load_buffer(text, len, rel, NULL, 0, NULL, &f, NULL);
    free(text);
    assert_non_null(f);
    int bad = 0;
    size_t tokens = 0;
    for (size_t i = 0; i < ta_native_count(f); i++) {
        const ta_native_func *fn = ta_native_get(f, i);
        if (fn->func.s) tokens += compare(fn->func.s, fn->func.len, &bad);
    }
    fprintf(stderr, "%s: %zu tokens of %zu schemas compared\n", corpus, tokens,
            ta_native_count(f));
    assert_true(tokens > 50000);
    assert_int_equal(bad, 0);
    ta_native_destroy(f);
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

static void test_edge_texts(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        "f(Tensor(a!) self,\n  int[2] x) -> Tensor(a!)",
        "f(Tensor  self, \t int x)->(Tensor, Tensor)",
        "f( Tensor self ) # a comment (with brackets)\n-> Tensor",
        "f(Tensor self, \\\n int x) -> Tensor",
        "f(str s='a, b', str t=\"(\") -> ...",
        "f(Tensor?[] x, Tensor(a|b) y, Tensor(a -> *) z) -> Tensor[]",
        "f(int x=-1, float y=.5, float z=1e-3) -> bool",
        "f(Tensor self) -> Tensor ",
        "f(Tensor self) -> (",
        " ",
        "",
        "( ",
        "[\n]",
        "f(Tensor self) !=",
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        compare(texts[i], (uint32_t)strlen(texts[i]), &bad);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_1_13_1),
        cmocka_unit_test(test_corpus_main),
        cmocka_unit_test(test_edge_texts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
