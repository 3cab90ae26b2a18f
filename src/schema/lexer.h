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

/* A short human name for a token kind ("identifier", "')'", "end of input"). */
const char *ta_tok_kind_name(int kind);

#endif
