/* lexer.c - byte-level scanner for schema tokens (see lexer.h).
 *
 * One pass over the bytes, a table lookup per byte, no allocation: the
 * parser's speed target (a million schemas a second) is mostly decided here. */
#include <string.h>

#include "schema/lexer.h"

enum { C_BLANK = 1, C_IDSTART = 2, C_DIGIT = 4, C_PUNCT = 8, C_HEX = 16 };

/* Character classes, indexed by byte. */
static const unsigned char cls[256] = {
    [' '] = C_BLANK, ['\t'] = C_BLANK, ['\n'] = C_BLANK, ['\r'] = C_BLANK,
    ['\f'] = C_BLANK, ['\v'] = C_BLANK,
    ['_'] = C_IDSTART,
    ['a'] = C_IDSTART | C_HEX, ['b'] = C_IDSTART | C_HEX, ['c'] = C_IDSTART | C_HEX,
    ['d'] = C_IDSTART | C_HEX, ['e'] = C_IDSTART | C_HEX, ['f'] = C_IDSTART | C_HEX,
    ['g'] = C_IDSTART, ['h'] = C_IDSTART, ['i'] = C_IDSTART, ['j'] = C_IDSTART,
    ['k'] = C_IDSTART, ['l'] = C_IDSTART, ['m'] = C_IDSTART, ['n'] = C_IDSTART,
    ['o'] = C_IDSTART, ['p'] = C_IDSTART, ['q'] = C_IDSTART, ['r'] = C_IDSTART,
    ['s'] = C_IDSTART, ['t'] = C_IDSTART, ['u'] = C_IDSTART, ['v'] = C_IDSTART,
    ['w'] = C_IDSTART, ['x'] = C_IDSTART, ['y'] = C_IDSTART, ['z'] = C_IDSTART,
    ['A'] = C_IDSTART | C_HEX, ['B'] = C_IDSTART | C_HEX, ['C'] = C_IDSTART | C_HEX,
    ['D'] = C_IDSTART | C_HEX, ['E'] = C_IDSTART | C_HEX, ['F'] = C_IDSTART | C_HEX,
    ['G'] = C_IDSTART, ['H'] = C_IDSTART, ['I'] = C_IDSTART, ['J'] = C_IDSTART,
    ['K'] = C_IDSTART, ['L'] = C_IDSTART, ['M'] = C_IDSTART, ['N'] = C_IDSTART,
    ['O'] = C_IDSTART, ['P'] = C_IDSTART, ['Q'] = C_IDSTART, ['R'] = C_IDSTART,
    ['S'] = C_IDSTART, ['T'] = C_IDSTART, ['U'] = C_IDSTART, ['V'] = C_IDSTART,
    ['W'] = C_IDSTART, ['X'] = C_IDSTART, ['Y'] = C_IDSTART, ['Z'] = C_IDSTART,
    ['0'] = C_DIGIT | C_HEX, ['1'] = C_DIGIT | C_HEX, ['2'] = C_DIGIT | C_HEX,
    ['3'] = C_DIGIT | C_HEX, ['4'] = C_DIGIT | C_HEX, ['5'] = C_DIGIT | C_HEX,
    ['6'] = C_DIGIT | C_HEX, ['7'] = C_DIGIT | C_HEX, ['8'] = C_DIGIT | C_HEX,
    ['9'] = C_DIGIT | C_HEX,
    /* torch's single-character tokens */
    ['+'] = C_PUNCT, ['-'] = C_PUNCT, ['*'] = C_PUNCT, ['/'] = C_PUNCT,
    ['%'] = C_PUNCT, ['@'] = C_PUNCT, ['('] = C_PUNCT, [')'] = C_PUNCT,
    ['['] = C_PUNCT, [']'] = C_PUNCT, [':'] = C_PUNCT, [','] = C_PUNCT,
    ['='] = C_PUNCT, ['{'] = C_PUNCT, ['}'] = C_PUNCT, ['>'] = C_PUNCT,
    ['<'] = C_PUNCT, ['.'] = C_PUNCT, ['?'] = C_PUNCT, ['!'] = C_PUNCT,
    ['&'] = C_PUNCT, ['^'] = C_PUNCT, ['|'] = C_PUNCT, ['~'] = C_PUNCT,
};

#define IS(c, k) (cls[(unsigned char)(c)] & (k))

/* Python keywords that torch's lexer turns into their own tokens, so they
 * can never be a name. */
static int keyword(const char *p, uint32_t n)
{
#define KW(s, k) if (n == sizeof(s) - 1 && !memcmp(p, s, n)) return k
    switch (p[0]) {
    case 'N':
        KW("None", TK_NONE);
        KW("NoneType", TK_NONETYPE);
        break;
    case 'T': KW("True", TK_TRUE); break;
    case 'F': KW("False", TK_FALSE); break;
    case 'E': KW("Ellipsis", TK_KEYWORD); break;
    case 'a':
        KW("and", TK_KEYWORD);
        KW("as", TK_KEYWORD);
        KW("assert", TK_KEYWORD);
        break;
    case 'b': KW("break", TK_KEYWORD); break;
    case 'c':
        KW("class", TK_KEYWORD);
        KW("continue", TK_KEYWORD);
        break;
    case 'd':
        KW("def", TK_KEYWORD);
        KW("del", TK_KEYWORD);
        break;
    case 'e':
        KW("else", TK_KEYWORD);
        KW("elif", TK_KEYWORD);
        break;
    case 'f': KW("for", TK_KEYWORD); break;
    case 'g': KW("global", TK_KEYWORD); break;
    case 'i':
        KW("if", TK_KEYWORD);
        KW("in", TK_KEYWORD);
        KW("is", TK_KEYWORD);
        KW("import", TK_KEYWORD);
        break;
    case 'n': KW("not", TK_KEYWORD); break;
    case 'o': KW("or", TK_KEYWORD); break;
    case 'p': KW("pass", TK_KEYWORD); break;
    case 'r':
        KW("return", TK_KEYWORD);
        KW("raise", TK_KEYWORD);
        break;
    case 'w':
        KW("while", TK_KEYWORD);
        KW("with", TK_KEYWORD);
        break;
    default: break;
    }
#undef KW
    return TK_IDENT;
}

/* Length of the number strtod would read at p (0 if none): decimal
 * digits with an optional fraction and exponent, or a hexadecimal number,
 * plus torch's complex suffix 'j'. */
static uint32_t number_len(const char *p, uint32_t n)
{
    uint32_t i = 0, digits = 0;
    if (n >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        i = 2;
        while (i < n && IS(p[i], C_HEX)) i++, digits++;
        if (i < n && p[i] == '.') {
            i++;
            while (i < n && IS(p[i], C_HEX)) i++, digits++;
        }
        if (!digits) return 1; /* strtod reads the "0" */
        if (i < n && (p[i] == 'p' || p[i] == 'P')) {
            uint32_t j = i + 1;
            if (j < n && (p[j] == '+' || p[j] == '-')) j++;
            if (j < n && IS(p[j], C_DIGIT)) {
                while (j < n && IS(p[j], C_DIGIT)) j++;
                i = j;
            }
        }
    } else {
        while (i < n && IS(p[i], C_DIGIT)) i++, digits++;
        if (i < n && p[i] == '.') {
            i++;
            while (i < n && IS(p[i], C_DIGIT)) i++, digits++;
        }
        if (!digits) return 0;
        if (i < n && (p[i] == 'e' || p[i] == 'E')) {
            uint32_t j = i + 1;
            if (j < n && (p[j] == '+' || p[j] == '-')) j++;
            if (j < n && IS(p[j], C_DIGIT)) {
                while (j < n && IS(p[j], C_DIGIT)) j++;
                i = j;
            }
        }
    }
    if (i < n && p[i] == 'j') i++;
    return i;
}

/* A string literal at p: one or three quotes of either kind, backslash
 * escapes, no raw newline unless triple-quoted. Returns its length, or 0 if
 * it never closes. */
static uint32_t string_len(const char *p, uint32_t n)
{
    char q = p[0];
    uint32_t ql = (n >= 3 && p[1] == q && p[2] == q) ? 3 : 1;
    uint32_t i = ql;
    while (i < n) {
        if (p[i] == q && (ql == 1 || (i + 2 < n && p[i + 1] == q && p[i + 2] == q)))
            return i + ql;
        if (p[i] == '\n' && ql == 1) return 0;
        if (p[i] == '\\') i++;
        i++;
    }
    return 0;
}

void ta_lex_next(ta_lexer *lx, ta_tok *t)
{
    const char *s = lx->s;
    uint32_t n = lx->n, i = lx->pos;
    t->nl_off = 0;
    for (;;) {
        while (i < n && IS(s[i], C_BLANK)) {
            if (s[i] == '\n') t->nl_off = i + 1;
            i++;
        }
        if (i < n && s[i] == '#') { /* a comment runs to the end of the line */
            while (i < n && s[i] != '\n') i++;
            continue;
        }
        if (i + 1 < n && s[i] == '\\' && s[i + 1] == '\n') { /* line continuation */
            i += 2;
            continue;
        }
        break;
    }
    t->off = i;
    if (i >= n) {
        t->kind = TK_EOF;
        t->len = 0;
        lx->pos = i;
        return;
    }
    unsigned char c = (unsigned char)s[i];
    uint32_t len = 1;
    if (IS(c, C_IDSTART)) {
        uint32_t j = i + 1;
        while (j < n && IS(s[j], C_IDSTART | C_DIGIT)) j++;
        len = j - i;
        t->kind = keyword(s + i, len);
    } else if (IS(c, C_DIGIT) || (c == '.' && i + 1 < n && IS(s[i + 1], C_DIGIT))) {
        len = number_len(s + i, n - i);
        t->kind = TK_NUMBER;
    } else if (c == '"' || c == '\'') {
        len = string_len(s + i, n - i);
        if (len) {
            t->kind = TK_STRING;
        } else { /* the rest of the line is the unclosed string */
            uint32_t j = i + 1;
            while (j < n && s[j] != '\n') j++;
            len = j - i;
            t->kind = TK_BAD_STRING;
        }
    } else if (c == '-' && i + 1 < n && s[i + 1] == '>') {
        len = 2;
        t->kind = TK_ARROW;
    } else if (c == '.' && i + 2 < n && s[i + 1] == '.' && s[i + 2] == '.') {
        len = 3;
        t->kind = TK_DOTS;
    } else if (IS(c, C_PUNCT)) {
        t->kind = c;
    } else {
        t->kind = TK_BAD_CHAR;
    }
    t->len = len;
    lx->pos = i + len;
}

const char *ta_tok_kind_name(int kind)
{
    switch (kind) {
    case TK_EOF: return "end of input";
    case TK_IDENT: return "identifier";
    case TK_KEYWORD: return "keyword";
    case TK_NONE: return "'None'";
    case TK_TRUE: return "'True'";
    case TK_FALSE: return "'False'";
    case TK_NONETYPE: return "'NoneType'";
    case TK_NUMBER: return "number";
    case TK_STRING: return "string";
    case TK_ARROW: return "'->'";
    case TK_DOTS: return "'...'";
    case TK_BAD_CHAR: return "character";
    case TK_BAD_STRING: return "unterminated string";
    case TK_LINEBREAK: return "line break";
    default: break;
    }
    return "punctuation";
}
