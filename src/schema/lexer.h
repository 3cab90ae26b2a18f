/* lexer.h - tokens of the schema language (internal to src/schema).
 *
 * The lexer walks the bytes of one schema and hands out tokens as (kind,
 * offset, length) triples: no allocation, no copies. It follows the rules of
 * torch's JIT lexer where a schema can tell the difference: numbers are what
 * strtod reads (but never start with a sign or a letter), strings take either
 * quote (or three of them) with backslash escapes, '#' starts a comment, and
 * a handful of Python keywords are not identifiers. */
#ifndef TA_SCHEMA_LEXER_H
#define TA_SCHEMA_LEXER_H

#include <stdbool.h>
#include <stdint.h>

typedef enum ta_tok_kind {
    /* Single-character tokens are their own byte value: ( ) [ ] , = * ! ? | . : - and
     * the other punctuation torch knows. Multi-byte kinds start above 255. */
    TK_EOF = 256,
    TK_IDENT,
    TK_KEYWORD,   /* if, def, in, ... : never a name */
    TK_NONE,      /* None */
    TK_TRUE,      /* True */
    TK_FALSE,     /* False */
    TK_NONETYPE,  /* NoneType */
    TK_NUMBER,
    TK_STRING,
    TK_ARROW,     /* -> */
    TK_DOTS,      /* ... */
    TK_BAD_CHAR,  /* a byte no token starts with */
    TK_BAD_STRING, /* a quote that is never closed */
    TK_LINEBREAK   /* a line break outside brackets (set by the parser) */
} ta_tok_kind;

typedef struct ta_tok {
    int kind;
    uint32_t off;
    uint32_t len;
    uint32_t nl_off; /* offset + 1 of the last raw line break skipped before the token, or 0 */
} ta_tok;

typedef struct ta_lexer {
    const char *s;
    uint32_t n;
    uint32_t pos;
} ta_lexer;

/* Scans the token at lx->pos (after blanks and comments) and moves past it. */
void ta_lex_next(ta_lexer *lx, ta_tok *t);

/* ta_lex_next for the commonest tokens, inline: a bracket, comma, '=', '*',
 * '!', '?' or '|' right after the previous token or one space (about half of
 * a schema's tokens; the call and the general scan cost more than the
 * token). These bytes are always a token of their own, so the result is
 * ta_lex_next's; anything else goes to it. */
static inline void ta_lex_next_fast(ta_lexer *lx, ta_tok *t)
{
    /* bit c of lo (c < 64) or of hi (c - 64): ( ) * , = ! ? and [ ] | */
    const uint64_t lo = 1ull << '(' | 1ull << ')' | 1ull << '*' | 1ull << ',' | 1ull << '=' |
                        1ull << '!' | 1ull << '?';
    const uint64_t hi = 1ull << ('[' - 64) | 1ull << (']' - 64) | 1ull << ('|' - 64);
    uint32_t i = lx->pos;
    if (i < lx->n && lx->s[i] == ' ') i++;
    if (i < lx->n) {
        unsigned char c = (unsigned char)lx->s[i];
        if (c < 128 && ((c < 64 ? lo >> c : hi >> (c - 64)) & 1)) {
            t->kind = c;
            t->off = i;
            t->len = 1;
            t->nl_off = 0;
            lx->pos = i + 1;
            return;
        }
    }
    ta_lex_next(lx, t);
}

/* A short human name for a token kind ("identifier", "')'", "end of input"). */
const char *ta_tok_kind_name(int kind);

#endif
