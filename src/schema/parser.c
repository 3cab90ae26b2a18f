/* parser.c - recursive-descent parser for operator schemas (ta_schema_parse).
 *
 *   schema   := name '(' [arg {',' arg}] ')' '->' returns
 *   name     := IDENT [':' ':' IDENT] ['.' IDENT]
 *   arg      := '*' | '...' | type [ '[' N ']' [alias] ['?'] ] IDENT ['=' default]
 *   returns  := '...' | '(' [ret {',' ret}] ')' | ret
 *   ret      := type [ '[' N ']' [alias] ['?'] ] [IDENT]
 *   type     := ( '(' [type {',' type}] ')' | Future '(' type ')' | ...
 *              | Dict '(' type ',' type ')' [alias] | base [alias] ) { '[' ']' [alias] | '?' }
 *   alias    := '(' sets ['!'] ['->' sets] ')' | '!'
 *
 * This is the grammar torch 1.13.1's schema parser accepts, with its quirks
 * (a fixed list size only at argument level, no annotation after a tuple or
 * Future, a wildcard ends an alias set list), plus what torch rejects only by
 * crashing (a positional argument without default after one with a default,
 * unbounded nesting), which we report as errors. Type nesting is capped at
 * TA_SCHEMA_MAX_DEPTH, so recursion is bounded whatever the input.
 *
 * Defaults are checked against their argument's type the way torch does
 * (defaults.c); everything else about meaning is left to src/alias. */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/grow.h"
#include "schema/lexer.h"
#include "schema/parser.h"

typedef struct parser {
    ta_lexer lx;
    ta_tok cur;
    uint32_t prev_end; /* end offset of the last token consumed */
    const char *s;
    uint32_t n;
    ta_arena *a;
    ta_arena *ta;      /* where types are built: a, or a type pool's scratch */
    ta_diags *diags;
    const ta_parse_opts *opts;
    ta_schema *sch;
    unsigned depth;
    int nest; /* brackets open at the current token */
    const char *hint; /* fix-it for the next fail_at, or NULL */
    bool failed;
    bool oom;
} parser;

static void next(parser *p)
{
    switch (p->cur.kind) {
    case '(':
    case '[': p->nest++; break;
    case ')':
    case ']': p->nest--; break;
    default: break;
    }
    bool first = p->cur.kind == 0;
    p->prev_end = p->cur.off + p->cur.len;
    ta_lex_next_fast(&p->lx, &p->cur);
    /* torch's lexer ignores line breaks only inside brackets (and at the
     * ends); anywhere else one ends the statement, so the schema is cut. */
    if (p->cur.nl_off && p->nest <= 0 && !first && p->cur.kind != TK_EOF) {
        p->cur.kind = TK_LINEBREAK;
        p->cur.off = p->cur.nl_off - 1;
        p->cur.len = 1;
    }
}

static int peek_kind(parser *p)
{
    ta_lexer save = p->lx;
    ta_tok t;
    ta_lex_next(&save, &t);
    return t.kind;
}

static ta_str view(parser *p, uint32_t off, uint32_t len)
{
    ta_str v = {len ? p->s + off : NULL, len};
    return v;
}

/* ---- diagnostics ------------------------------------------------------ */

void ta_schema_text_locate(const char *s, uint32_t n, uint32_t base_line,
                           uint32_t base_col, uint32_t off, uint32_t *line,
                           uint32_t *col, uint32_t *line_start,
                           uint32_t *line_len)
{
    if (off > n) off = n;
    /* memchr rather than a loop over bytes: thousands of diagnostics on a
     * 100 KB schema each locate themselves. */
    uint32_t ln = 0, start = 0;
    for (const char *q = s; (q = memchr(q, '\n', (size_t)(s + off - q))) != NULL; q++) {
        ln++;
        start = (uint32_t)(q - s) + 1;
    }
    if (line_len) {
        const char *nl = memchr(s + off, '\n', n - off);
        *line_len = (nl ? (uint32_t)(nl - s) : n) - start;
    }
    if (!base_line) base_line = 1;
    if (!base_col) base_col = 1;
    *line = base_line + ln;
    *col = (ln ? 1 : base_col) + (off - start);
    if (line_start) *line_start = start;
}

static void fail_at(parser *p, uint32_t off, uint32_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void fail_at(parser *p, uint32_t off, uint32_t len, const char *fmt, ...)
{
    if (p->failed) return;
    p->failed = true;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    uint32_t line, col, ls, ll;
    ta_schema_text_locate(p->s, p->n, p->opts ? p->opts->line : 1,
                          p->opts ? p->opts->col : 1, off, &line, &col, &ls, &ll);
    /* The list copies the source line up to a NUL, which would cut the
     * line short: a copy with NULs made spaces goes in. */
    char *src = ta_malloc((size_t)ll + 1);
    if (!src) {
        p->oom = true;
        return;
    }
    memcpy(src, p->s + ls, ll);
    for (uint32_t i = 0; i < ll; i++)
        if (src[i] == '\0') src[i] = ' ';
    ta_loc at = {p->opts ? p->opts->source : NULL, line, col, len ? len : 1, src, ll};
    ta_status st = ta_diag_error(p->diags, &at, "schema-syntax", "%s", msg);
    if (st == TA_OK && p->hint) st = ta_diag_hint(p->diags, "%s", p->hint);
    if (st != TA_OK) p->oom = true;
    free(src);
}

/* "'x'", "end of input", or the lexer's complaint, for "found ..." messages. */
static void describe(parser *p, const ta_tok *t, char *buf, size_t cap)
{
    if (t->kind == TK_EOF || t->kind == TK_LINEBREAK) {
        snprintf(buf, cap, t->kind == TK_EOF ? "end of input"
                                             : "a line break");
        return;
    }
    uint32_t len = t->len > 32 ? 32 : t->len;
    char text[32 * 4 + 1];
    size_t k = 0;
    for (uint32_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)p->s[t->off + i];
        if (c >= 0x20 && c < 0x7f) {
            text[k++] = (char)c;
        } else {
            snprintf(text + k, 5, "\\x%02x", c);
            k += 4;
        }
    }
    text[k] = '\0';
    snprintf(buf, cap, "'%s%s'", text, t->len > 32 ? "..." : "");
}

/* Reports "expected WHAT, found TOKEN" at the current token; the lexer's own
 * errors (a stray byte, an unclosed string) take precedence. */
static void expected(parser *p, const char *what)
{
    if (p->failed) return;
    char found[160];
    if (p->cur.kind == TK_BAD_CHAR) {
        describe(p, &p->cur, found, sizeof found);
        fail_at(p, p->cur.off, 1, "unexpected character %s", found);
    } else if (p->cur.kind == TK_BAD_STRING) {
        fail_at(p, p->cur.off, p->cur.len, "unterminated string literal");
    } else {
        describe(p, &p->cur, found, sizeof found);
        if (p->cur.kind == TK_KEYWORD) {
            p->hint = "torch's lexer reserves Python keywords; choose another name";
            fail_at(p, p->cur.off, p->cur.len, "expected %s, found keyword %s", what, found);
        } else {
            if (p->cur.kind == TK_LINEBREAK)
                p->hint = "outside parentheses a schema must stay on one line";
            fail_at(p, p->cur.off, p->cur.len, "expected %s, found %s", what, found);
        }
    }
}

static bool expect(parser *p, int kind, const char *what)
{
    if (p->cur.kind != kind) {
        expected(p, what);
        return false;
    }
    next(p);
    return true;
}

/* Arena memory; running out ends the parse with TA_ERR_NOMEM and no
 * diagnostic (the status says it all, and storing one would need memory). */
static void *alloc(parser *p, size_t size)
{
    void *m = ta_arena_zalloc(p->a, size);
    if (!m) p->failed = p->oom = true;
    return m;
}

/* The same for type nodes and their element arrays. */
static void *talloc(parser *p, size_t size)
{
    void *m = ta_arena_zalloc(p->ta, size);
    if (!m) p->failed = p->oom = true;
    return m;
}

/* Makes room for one more element in an arena array of *cap elements. */
static void *grow(parser *p, void *v, uint32_t n, uint32_t *cap, size_t elsz)
{
    if (n < *cap) return v;
    size_t c = n; /* the n elements so far, wherever they are, are copied */
    if (ta_grow(&v, &c, (size_t)n + 1, elsz, 4, p->a) != TA_OK || c > UINT32_MAX) {
        p->failed = p->oom = true;
        return NULL;
    }
    *cap = (uint32_t)c;
    return v;
}

/* Lists are collected in a caller's stack array (grow moves one that
 * outgrows it to the arena) and copied to the arena at their exact size
 * once complete: doubling arena arrays left most of a file's schema memory
 * unused, and every byte of it was cleared and paged in. Returns the final
 * array (NULL when empty, or on OOM, which sets p->failed). */
static void *settle(parser *p, ta_arena *into, void *v, const void *local, uint32_t n,
                    size_t elsz)
{
    if (v != local) return v; /* already in the arena */
    if (n == 0) return NULL;
    void *a = ta_arena_take(into, (size_t)n * elsz); /* every byte is copied */
    if (!a) p->failed = p->oom = true;
    else memcpy(a, local, (size_t)n * elsz);
    return a;
}

/* ---- alias annotations ------------------------------------------------ */

/* sets := ( '*' | IDENT ) { '|' ( '*' | IDENT ) }, stopping at a wildcard's
 * first follower the way torch does. */
static bool parse_sets(parser *p, ta_str **v, uint32_t *n)
{
    ta_str local[8], *sets = local;
    uint32_t cap = 8, count = 0;
    bool wildcard = false;
    do {
        if (p->cur.kind == '*') {
            wildcard = true;
        } else if (wildcard) {
            break; /* torch ignores what follows '*'; the ')' check reports it */
        } else if (p->cur.kind != TK_IDENT) {
            expected(p, "an alias set name or '*'");
            return false;
        }
        ta_str *nv = grow(p, sets, count, &cap, sizeof *sets);
        if (!nv) return false;
        sets = nv;
        sets[count++] = view(p, p->cur.off, p->cur.len);
        next(p);
    } while (p->cur.kind == '|' && (next(p), true));
    *v = settle(p, p->a, sets, local, count, sizeof *sets);
    *n = count;
    return !p->failed;
}

/* Parses an annotation if one starts here; *out stays NULL otherwise. */
static bool parse_alias(parser *p, ta_alias **out)
{
    *out = NULL;
    if (p->cur.kind != '(' && p->cur.kind != '!') return true;
    ta_alias *al = alloc(p, sizeof *al);
    if (!al) return false;
    uint32_t start = p->cur.off;
    if (p->cur.kind == '!') {
        al->write = true;
        al->bare_write = true;
        next(p);
    } else {
        next(p);
        if (!parse_sets(p, &al->before, &al->nbefore)) return false;
        if (p->cur.kind == '!') {
            al->write = true;
            next(p);
        }
        if (p->cur.kind == TK_ARROW) {
            al->has_arrow = true;
            next(p);
            if (!parse_sets(p, &al->after, &al->nafter)) return false;
        } else {
            al->after = al->before;
            al->nafter = al->nbefore;
        }
        if (p->cur.kind != ')') {
            if (p->cur.kind == TK_IDENT && p->s[p->prev_end - 1] == '|') {
                /* parse_sets stopped here: a name after the wildcard */
                p->hint = "torch ignores everything after '*' in a set list; put '*' last";
                fail_at(p, p->cur.off, p->cur.len, "alias set name after the wildcard '*'");
                return false;
            }
            expected(p, "')' to close the alias annotation");
            return false;
        }
        next(p);
    }
    al->span.off = start;
    al->span.len = p->prev_end - start;
    *out = al;
    return true;
}

/* ---- types ------------------------------------------------------------ */

static ta_type *new_type(parser *p, ta_type_kind kind, uint32_t start)
{
    ta_type *t = talloc(p, sizeof *t);
    if (!t) return NULL;
    t->kind = kind;
    t->fixed_size = -1;
    t->span.off = start;
    return t;
}

static void close_span(parser *p, ta_type *t)
{
    t->span.len = p->prev_end - t->span.off;
}

static ta_type *wrap(parser *p, ta_type_kind kind, ta_type *elem)
{
    ta_type *t = new_type(p, kind, elem->span.off);
    if (!t) return NULL;
    t->elems = talloc(p, sizeof *t->elems);
    if (!t->elems) return NULL;
    t->elems[0] = elem;
    t->nelems = 1;
    return t;
}

static bool known_base_type(const char *s, uint32_t n)
{
    static const char *const names[] = {
        "Tensor", "Generator", "Dimname", "ScalarType", "Layout", "MemoryFormat",
        "Storage", "QScheme", "Quantizer", "ConstQuantizerPtr", "Device", "Stream",
        "Scalar", "str", "float", "complex", "int", "SymInt", "bool", "None",
        "NoneType", "Capsule", "Any", "AnyClassType", "AnyEnumType",
        /* added after torch 1.13.1; used by PyTorch main's native_functions.yaml */
        "DeviceIndex", "SymBool", "SymFloat",
    };
    /* torch takes any lower-case name it does not know as a type variable
     * (t, t1, ...), so only capitalised names need the table. */
    if (s[0] >= 'a' && s[0] <= 'z') return true;
    /* Tensor is most of them: a constant-length compare the compiler inlines */
    if (n == 6 && !memcmp(s, "Tensor", 6)) return true;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        if (names[i][0] != s[0]) continue;
        uint32_t k = 1; /* names[i] vs s[0..n), inline: no strlen, no memcmp call */
        while (k < n && names[i][k] == s[k]) k++;
        if (k == n && names[i][n] == '\0') return true;
    }
    return false;
}

static ta_type *parse_type(parser *p);

/* The key types c10's DictType accepts (after torch maps the int-like
 * enums and Dimname to int and str). */
static bool valid_dict_key(const ta_type *t)
{
    static const char *const keys[] = {"str", "int", "float", "complex", "bool", "Tensor",
                                       "Device", "Any", "SymInt", "ScalarType", "Layout",
                                       "MemoryFormat", "Dimname", "DeviceIndex", NULL};
    if (t->kind != TA_TYPE_NAME) return false;
    for (int i = 0; keys[i]; i++)
        if (ta_str_eq(t->name, keys[i])) return true;
    return false;
}

/* '(' type {',' type} ')' into t->elems; an empty list is allowed when
 * allow_empty (a tuple "()"). */
static bool parse_type_list(parser *p, ta_type *t, bool allow_empty, const char *ctx)
{
    ta_type *local[8], **elems = local;
    uint32_t cap = 8, count = 0;
    if (!expect(p, '(', ctx)) return false;
    if (p->cur.kind == ')' && allow_empty) {
        next(p);
        return true;
    }
    for (;;) {
        ta_type *e = parse_type(p);
        if (!e) return false;
        ta_type **nv = grow(p, elems, count, &cap, sizeof *nv);
        if (!nv) return false;
        elems = nv;
        elems[count++] = e;
        if (p->cur.kind == ',') {
            next(p);
            continue;
        }
        if (p->cur.kind == ')') {
            next(p);
            t->elems = settle(p, p->ta, elems, local, count, sizeof *elems);
            t->nelems = count;
            return !p->failed;
        }
        expected(p, "',' or ')' in the type's parameter list");
        return false;
    }
}

/* The current token is the identifier lit. */
static bool at_word(const parser *p, const char *lit)
{
    size_t n = strlen(lit);
    return p->cur.kind == TK_IDENT && p->cur.len == n && !memcmp(p->s + p->cur.off, lit, n);
}

/* tuple_type ::= '(' [type {',' type}] ')' */
static ta_type *parse_tuple_type(parser *p, uint32_t start)
{
    ta_type *t = new_type(p, TA_TYPE_TUPLE, start);
    return t && parse_type_list(p, t, true, "'('") ? t : NULL;
}

/* future_type ::= ('Future' | 'RRef' | 'Await') '(' type ')' */
static ta_type *parse_future_type(parser *p, uint32_t start)
{
    ta_type *t = new_type(p, TA_TYPE_APPLY, start);
    if (!t) return NULL;
    t->name = view(p, p->cur.off, p->cur.len);
    next(p);
    if (!expect(p, '(', "'(' after the type constructor")) return NULL;
    ta_type *e = parse_type(p);
    if (!e) return NULL;
    t->elems = talloc(p, sizeof *t->elems);
    if (!t->elems) return NULL;
    t->elems[0] = e;
    t->nelems = 1;
    return expect(p, ')', "')' after the type parameter") ? t : NULL;
}

/* dict_type ::= 'Dict' '(' key_type ',' type ')' [alias] */
static ta_type *parse_dict_type(parser *p, uint32_t start)
{
    ta_type *t = new_type(p, TA_TYPE_APPLY, start);
    if (!t) return NULL;
    t->name = view(p, p->cur.off, p->cur.len);
    next(p);
    if (!expect(p, '(', "'(' after Dict")) return NULL;
    t->elems = talloc(p, 2 * sizeof *t->elems);
    if (!t->elems) return NULL;
    if (!(t->elems[0] = parse_type(p))) return NULL;
    if (!valid_dict_key(t->elems[0])) {
        fail_at(p, t->elems[0]->span.off, t->elems[0]->span.len,
                "a Dict key must be str, int, float, complex, bool, Tensor or Device "
                "(or an int-like enum such as ScalarType)");
        return NULL;
    }
    if (!expect(p, ',', "',' between Dict's key and value types")) return NULL;
    if (!(t->elems[1] = parse_type(p))) return NULL;
    t->nelems = 2;
    if (!expect(p, ')', "')' after Dict's value type")) return NULL;
    return parse_alias(p, &t->alias) ? t : NULL;
}

/* union_type ::= 'Union' '(' type {',' type} ')' [alias] */
static ta_type *parse_union_type(parser *p, uint32_t start)
{
    ta_type *t = new_type(p, TA_TYPE_APPLY, start);
    if (!t) return NULL;
    t->name = view(p, p->cur.off, p->cur.len);
    next(p);
    if (!parse_type_list(p, t, false, "'(' after Union")) return NULL;
    return parse_alias(p, &t->alias) ? t : NULL;
}

/* class_type ::= '__torch__' '.' 'torch' '.' 'classes' '.' NAME '.' NAME
 * (torch reads no annotation after it) */
static ta_type *parse_class_type(parser *p, uint32_t start)
{
    static const char *const parts[] = {"torch", "classes", NULL, NULL};
    next(p);
    for (int i = 0; i < 4; i++) {
        if (!expect(p, '.', "'.' in the custom class name")) return NULL;
        if (p->cur.kind != TK_IDENT) {
            expected(p, "a custom class name (__torch__.torch.classes.NS.Name)");
            return NULL;
        }
        if (parts[i] && !at_word(p, parts[i])) {
            expected(p, i == 0 ? "'torch' in the custom class name"
                               : "'classes' in the custom class name");
            return NULL;
        }
        next(p);
    }
    ta_type *t = new_type(p, TA_TYPE_NAME, start);
    if (t) t->name = view(p, start, p->prev_end - start);
    return t;
}

/* named_type ::= NAME [alias]    (a known type, or a lower-case variable) */
static ta_type *parse_named_type(parser *p, uint32_t start)
{
    const char *w = p->s + p->cur.off;
    uint32_t wl = p->cur.len;
    if (!known_base_type(w, wl)) {
        p->hint = "known types include Tensor, int, SymInt, float, bool, str, Scalar, "
                  "ScalarType, Layout, Device, MemoryFormat, Generator, Dimname, Storage, "
                  "Stream, Any; a lower-case name is a type variable";
        fail_at(p, start, wl, "unknown type '%.*s'", (int)(wl > 60 ? 60 : wl), w);
        return NULL;
    }
    ta_type *t = new_type(p, TA_TYPE_NAME, start);
    if (!t) return NULL;
    t->name = view(p, start, wl);
    next(p);
    return parse_alias(p, &t->alias) ? t : NULL;
}

/* base_type ::= tuple_type | future_type | dict_type | union_type
 *             | class_type | named_type */
static ta_type *parse_base_type(parser *p)
{
    uint32_t start = p->cur.off;
    if (p->cur.kind == '(') return parse_tuple_type(p, start);
    if (at_word(p, "Future") || at_word(p, "RRef") || at_word(p, "Await"))
        return parse_future_type(p, start);
    if (at_word(p, "Dict")) return parse_dict_type(p, start);
    if (at_word(p, "Union")) return parse_union_type(p, start);
    if (at_word(p, "__torch__")) return parse_class_type(p, start);
    if (p->cur.kind == TK_IDENT || p->cur.kind == TK_NONE || p->cur.kind == TK_NONETYPE)
        return parse_named_type(p, start);
    expected(p, "a type");
    return NULL;
}

/* suffixes ::= {'[' ']' [alias] | '?'}
 * Each wraps the type once more, so they count towards the nesting cap: the
 * printers and queries walk types recursively. */
static ta_type *parse_type_suffixes(parser *p, ta_type *t)
{
    for (unsigned level = p->depth;; level++) {
        bool list = p->cur.kind == '[' && peek_kind(p) == ']';
        if ((list || p->cur.kind == '?') && level >= TA_SCHEMA_MAX_DEPTH) {
            fail_at(p, p->cur.off, p->cur.len, "types nested deeper than %d levels",
                    TA_SCHEMA_MAX_DEPTH);
            return NULL;
        }
        if (list) {
            next(p);
            next(p);
            t = wrap(p, TA_TYPE_LIST, t);
            if (!t || !parse_alias(p, &t->alias)) return NULL;
        } else if (p->cur.kind == '?') {
            next(p);
            if (!(t = wrap(p, TA_TYPE_OPTIONAL, t))) return NULL;
        } else {
            return t;
        }
        close_span(p, t);
    }
}

/* type ::= base_type suffixes */
static ta_type *parse_type_inner(parser *p)
{
    ta_type *t = parse_base_type(p);
    if (!t) return NULL;
    close_span(p, t);
    return parse_type_suffixes(p, t);
}

static ta_type *parse_type(parser *p)
{
    if (p->depth >= TA_SCHEMA_MAX_DEPTH) {
        fail_at(p, p->cur.off, p->cur.len, "types nested deeper than %d levels",
                TA_SCHEMA_MAX_DEPTH);
        return NULL;
    }
    p->depth++;
    ta_type *t = parse_type_inner(p);
    p->depth--;
    return t;
}

/* The argument-level suffix '[N]' [alias] ['?'] that only a top-level type
 * may carry (int[2], SymInt[1]?, bool[3]). */
static ta_type *parse_fixed_size(parser *p, ta_type *t)
{
    if (p->cur.kind != '[') return t;
    next(p);
    if (p->cur.kind != TK_NUMBER) {
        expected(p, "a list size or ']'");
        return NULL;
    }
    /* torch reads the size with std::stoll: the leading decimal digits
     * ("2.5" is 2). Sizes beyond int32 torch silently wraps; we refuse them. */
    int64_t nsz = 0;
    uint32_t nd = 0;
    while (nd < p->cur.len && p->s[p->cur.off + nd] >= '0' && p->s[p->cur.off + nd] <= '9') {
        nsz = nsz * 10 + (p->s[p->cur.off + nd] - '0');
        if (nsz > INT32_MAX) break;
        nd++;
    }
    if (nd == 0 || nsz > INT32_MAX) {
        fail_at(p, p->cur.off, p->cur.len,
                "list size must be a non-negative integer below 2^31");
        return NULL;
    }
    next(p);
    if (!expect(p, ']', "']' after the list size")) return NULL;
    t = wrap(p, TA_TYPE_LIST, t);
    if (!t) return NULL;
    t->fixed_size = (int32_t)nsz;
    if (!parse_alias(p, &t->alias)) return NULL;
    close_span(p, t);
    if (p->cur.kind == '?') {
        next(p);
        if (!(t = wrap(p, TA_TYPE_OPTIONAL, t))) return NULL;
        close_span(p, t);
    }
    return t;
}

/* ---- defaults --------------------------------------------------------- */

static bool parse_single_default(parser *p, ta_default_kind *kind)
{
    switch (p->cur.kind) {
    case TK_TRUE:
    case TK_FALSE: *kind = TA_DEFAULT_BOOL; break;
    case TK_NONE: *kind = TA_DEFAULT_NONE; break;
    case TK_STRING: *kind = TA_DEFAULT_STRING; break;
    case TK_IDENT: *kind = TA_DEFAULT_IDENT; break;
    case '-':
        next(p);
        if (p->cur.kind != TK_NUMBER) {
            expected(p, "a number after '-'");
            return false;
        }
        /* fall through */
    case TK_NUMBER: {
        *kind = TA_DEFAULT_INT;
        for (uint32_t i = 0; i < p->cur.len; i++) {
            char c = p->s[p->cur.off + i];
            if (c == '.' || c == 'e' || c == 'E' || c == 'j' || c == 'p' || c == 'P')
                *kind = TA_DEFAULT_FLOAT;
        }
        break;
    }
    default:
        expected(p, "a default value");
        return false;
    }
    next(p);
    return true;
}

static bool parse_default(parser *p, ta_default *d)
{
    uint32_t start = p->cur.off;
    if (p->cur.kind == '[') {
        next(p);
        d->kind = TA_DEFAULT_LIST;
        if (p->cur.kind != ']') {
            for (;;) {
                ta_default_kind k;
                if (!parse_single_default(p, &k)) return false;
                if (p->cur.kind == ',') {
                    next(p);
                    continue;
                }
                break;
            }
        }
        if (!expect(p, ']', "',' or ']' in the default list")) return false;
    } else if (!parse_single_default(p, &d->kind)) {
        return false;
    }
    d->text = view(p, start, p->prev_end - start);
    return true;
}

/* ---- arguments, returns, schema -------------------------------------- */

/* Where a view of the schema text starts in it. */
static uint32_t text_off(const parser *p, ta_str v)
{
    return v.ptr ? (uint32_t)(v.ptr - p->s) : 0;
}

static bool is_name_token(int kind) { return kind == TK_IDENT; }

static bool parse_arg(parser *p, ta_arg *arg, bool kwarg_only)
{
    uint32_t start = p->cur.off;
    ta_type *t = parse_type(p);
    if (!t || !(t = parse_fixed_size(p, t))) return false;
    arg->type = t;
    if (!is_name_token(p->cur.kind)) {
        expected(p, "an argument name after its type");
        return false;
    }
    arg->name = view(p, p->cur.off, p->cur.len);
    next(p);
    if (p->cur.kind == '=') {
        next(p);
        if (!parse_default(p, &arg->def)) return false;
        char msg[200];
        uint32_t off = text_off(p, arg->def.text), len = arg->def.text.len;
        if (!ta_schema_check_default(t, &arg->def, msg, sizeof msg, &off, &len, &p->hint)) {
            fail_at(p, off, len, "%s", msg);
            return false;
        }
    }
    arg->kwarg_only = kwarg_only;
    arg->span.off = start;
    arg->span.len = p->prev_end - start;
    return true;
}

static bool parse_ret(parser *p, ta_ret *r)
{
    uint32_t start = p->cur.off;
    ta_type *t = parse_type(p);
    if (!t || !(t = parse_fixed_size(p, t))) return false;
    r->type = t;
    if (is_name_token(p->cur.kind)) {
        r->name = view(p, p->cur.off, p->cur.len);
        next(p);
    }
    r->span.off = start;
    r->span.len = p->prev_end - start;
    return true;
}

static bool parse_name(parser *p, ta_schema *s)
{
    uint32_t start = p->cur.off;
    if (p->cur.kind != TK_IDENT) {
        expected(p, "an operator name");
        return false;
    }
    s->name = view(p, p->cur.off, p->cur.len);
    next(p);
    if (p->cur.kind == ':') {
        next(p);
        if (!expect(p, ':', "'::' after the namespace")) return false;
        if (p->cur.kind != TK_IDENT) {
            expected(p, "an operator name after '::'");
            return false;
        }
        s->ns = s->name;
        s->name = view(p, p->cur.off, p->cur.len);
        next(p);
    }
    s->full_name = view(p, start, p->prev_end - start);
    if (p->cur.kind == '.') {
        next(p);
        if (p->cur.kind != TK_IDENT) {
            expected(p, "an overload name after '.'");
            return false;
        }
        s->overload = view(p, p->cur.off, p->cur.len);
        if (ta_str_eq(s->overload, "default") || ta_str_eq(s->overload, "__name__")) {
            fail_at(p, p->cur.off, p->cur.len, "'%.*s' is not a legal overload name",
                    (int)s->overload.len, s->overload.ptr);
            return false;
        }
        next(p);
    }
    s->name_span.off = start;
    s->name_span.len = p->prev_end - start;
    return true;
}

static bool parse_args(parser *p, ta_schema *s)
{
    ta_arg local[32], *args = local;
    uint32_t start = p->cur.off, cap = 32, nargs = 0;
    if (p->cur.kind != '(') {
        expected(p, "'(' after the operator name");
        return false;
    }
    next(p);
    bool kwarg_only = false;
    int32_t last_default = -1; /* a positional argument with a default */
    if (p->cur.kind != ')') {
        for (;;) {
            if (s->vararg) {
                fail_at(p, p->cur.off, p->cur.len,
                        "'...' must be the last element of the argument list");
                return false;
            }
            if (p->cur.kind == '*') {
                kwarg_only = true;
                if (s->kwarg_marker < 0) s->kwarg_marker = (int32_t)nargs;
                next(p);
            } else if (p->cur.kind == TK_DOTS) {
                s->vararg = true;
                next(p);
            } else {
                ta_arg *nv = grow(p, args, nargs, &cap, sizeof *nv);
                if (!nv) return false;
                args = nv;
                ta_arg *a = &args[nargs];
                memset(a, 0, sizeof *a);
                if (!parse_arg(p, a, kwarg_only)) return false;
                if (!kwarg_only) {
                    if (a->def.kind != TA_DEFAULT_NONE_GIVEN) {
                        last_default = (int32_t)nargs;
                    } else if (last_default >= 0 && a->type->kind != TA_TYPE_LIST) {
                        /* torch 1.13.1 crashes on this (a list-typed argument
                         * it happens to accept) */
                        ta_arg *d = &args[last_default];
                        p->hint = "give it a default, move it before the defaulted one, or "
                                  "make it keyword-only by putting it after '*'";
                        fail_at(p, a->span.off, a->span.len,
                                "argument '%.*s' without a default follows '%.*s', which has one",
                                (int)(a->name.len > 60 ? 60 : a->name.len), a->name.ptr,
                                (int)(d->name.len > 60 ? 60 : d->name.len), d->name.ptr);
                        return false;
                    }
                }
                nargs++;
            }
            if (p->cur.kind == ',') {
                next(p);
                continue;
            }
            if (p->cur.kind == ')') break;
            expected(p, "',' or ')' after an argument");
            return false;
        }
    }
    next(p);
    s->args = settle(p, p->a, args, local, nargs, sizeof *args);
    s->nargs = nargs;
    if (p->failed) return false;
    if (s->vararg)
        for (uint32_t i = 0; i < s->nargs; i++)
            if (s->args[i].def.kind != TA_DEFAULT_NONE_GIVEN) {
                fail_at(p, text_off(p, s->args[i].def.text), s->args[i].def.text.len,
                        "a schema with varargs ('...') cannot have default values");
                return false;
            }
    s->args_span.off = start;
    s->args_span.len = p->prev_end - start;
    return true;
}

static bool parse_rets(parser *p, ta_schema *s)
{
    ta_ret local[16], *rets = local;
    uint32_t start = p->cur.off, cap = 16, nrets = 0;
    if (p->cur.kind == TK_DOTS) {
        s->varret = true;
        next(p);
    } else if (p->cur.kind == '(') {
        s->rets_parenthesized = true;
        next(p);
        if (p->cur.kind != ')') {
            for (;;) {
                if (s->varret) {
                    fail_at(p, p->cur.off, p->cur.len,
                            "'...' must be the last element of the return list");
                    return false;
                }
                if (p->cur.kind == TK_DOTS) {
                    s->varret = true;
                    next(p);
                } else {
                    ta_ret *nv = grow(p, rets, nrets, &cap, sizeof *nv);
                    if (!nv) return false;
                    rets = nv;
                    memset(&rets[nrets], 0, sizeof *nv);
                    if (!parse_ret(p, &rets[nrets])) return false;
                    nrets++;
                }
                if (p->cur.kind == ',') {
                    next(p);
                    continue;
                }
                if (p->cur.kind == ')') break;
                expected(p, "',' or ')' after a return");
                return false;
            }
        }
        next(p);
        s->rets = settle(p, p->a, rets, local, nrets, sizeof *rets);
        s->nrets = nrets;
        if (p->failed) return false;
    } else {
        s->rets = alloc(p, sizeof *s->rets);
        if (!s->rets || !parse_ret(p, &s->rets[0])) return false;
        s->nrets = 1;
    }
    s->rets_span.off = start;
    s->rets_span.len = p->prev_end - start;
    return true;
}

static void mark_outs(ta_schema *s)
{
    for (uint32_t i = 0; i < s->nargs; i++) {
        ta_alias_view v;
        ta_type_alias_view(s->args[i].type, &v);
        s->args[i].is_out = s->args[i].kwarg_only && v.write;
    }
}

/* Moves every argument's and return's type to the schema's arena through
 * the pool (see ta_type_pool_commit). */
static ta_status share_types(ta_type_pool *pool, ta_arena *a, ta_schema *s)
{
    bool plain;
    for (uint32_t i = 0; i < s->nargs; i++)
        if (!(s->args[i].type = ta_type_pool_commit(pool, a, s->args[i].type, &plain)))
            return TA_ERR_NOMEM;
    for (uint32_t i = 0; i < s->nrets; i++)
        if (!(s->rets[i].type = ta_type_pool_commit(pool, a, s->rets[i].type, &plain)))
            return TA_ERR_NOMEM;
    return TA_OK;
}

/* ta_schema_parse; the source name kept rather than copied when
 * keep_source, and the types the pool's when pool is not NULL. */
static ta_status parse(ta_arena *arena, const char *text, size_t len, const ta_parse_opts *opts,
                       bool keep_source, ta_type_pool *pool, ta_schema **out, ta_diags *diags)
{
    if (out) *out = NULL;
    if (!arena || !out || (!text && len)) return TA_ERR_INVALID;
    parser p = {0};
    p.a = arena;
    p.ta = pool ? ta_type_pool_scratch(pool) : arena;
    p.diags = diags;
    p.opts = opts;
    if (len >= UINT32_MAX) {
        p.s = "";
        fail_at(&p, 0, 1, "schema longer than 4 GiB");
        return TA_ERR_PARSE;
    }
    ta_schema *s = alloc(&p, sizeof *s);
    char *copy = s ? ta_arena_strndup(arena, text ? text : "", len) : NULL;
    if (!copy) return TA_ERR_NOMEM;
    s->text = copy;
    s->text_len = (uint32_t)len;
    s->kwarg_marker = -1;
    const char *src = opts ? opts->source : NULL;
    s->source = !src ? "<string>" : keep_source ? src : ta_arena_strndup(arena, src, strlen(src));
    if (!s->source) return TA_ERR_NOMEM;
    s->base_line = opts && opts->line ? opts->line : 1;
    s->base_col = opts && opts->col ? opts->col : 1;
    p.s = copy;
    p.n = (uint32_t)len;
    p.sch = s;
    p.lx.s = copy;
    p.lx.n = p.n;
    next(&p);
    if (p.cur.kind == TK_EOF) {
        fail_at(&p, 0, 1, "empty schema");
    } else if (parse_name(&p, s) && parse_args(&p, s)) {
        if (p.cur.kind != TK_ARROW) {
            expected(&p, "'->' and the returns after the argument list");
        } else {
            next(&p);
            if (parse_rets(&p, s) && p.cur.kind != TK_EOF)
                expected(&p, "end of schema after the returns");
        }
    }
    if (p.failed) return p.oom ? TA_ERR_NOMEM : TA_ERR_PARSE;
    mark_outs(s);
    if (pool && share_types(pool, arena, s) != TA_OK) return TA_ERR_NOMEM;
    *out = s;
    return TA_OK;
}

ta_status ta_schema_parse(ta_arena *arena, const char *text, size_t len,
                          const ta_parse_opts *opts, ta_schema **out,
                          ta_diags *diags)
{
    return parse(arena, text, len, opts, false, NULL, out, diags);
}

ta_status ta_schema_parse_kept(ta_arena *arena, const char *text, size_t len,
                               const ta_parse_opts *opts, ta_type_pool *pool,
                               ta_schema **out, ta_diags *diags)
{
    return parse(arena, text, len, opts, true, pool, out, diags);
}
