/* py_lex.c - Python source as tokens, and Python string literals decoded.
 *
 * Comments, the logical-line structure (a NEWLINE token where a statement
 * ends: not inside brackets, not after a backslash continuation), names,
 * numbers, operators, and string literals in every form: either quote,
 * triple quotes, and the prefixes r, u, b, f, t in any case and order
 * Python allows. Indentation is not tracked: no recognized shape needs it. */
#include <string.h>

#include "extract/extract_internal.h"

static bool ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (unsigned char)c >= 0x80;
}

static bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

/* Flags of a string prefix, or -1 when p[0..n) is not one. */
static int prefix_flags(const char *p, uint32_t n)
{
    int fl = 0, letters = 0;
    if (n > 2) return -1;
    for (uint32_t i = 0; i < n; i++) {
        char c = (char)(p[i] | 32);
        int bit = c == 'r' ? XS_RAW : c == 'b' ? XS_BYTES : (c == 'f' || c == 't') ? XS_FORMAT
                  : c == 'u' ? 64 : -1;
        if (bit < 0 || (fl & bit)) return -1;
        fl |= bit;
        letters++;
    }
    if ((fl & 64) && letters > 1) return -1;         /* u stands alone */
    if ((fl & XS_BYTES) && (fl & XS_FORMAT)) return -1; /* no bf */
    return fl & ~64;
}

/* Past a literal whose first quote is at s[i]. */
static uint32_t string_end(const char *s, uint32_t n, uint32_t i, bool *open)
{
    char q = s[i];
    bool triple = i + 2 < n && s[i + 1] == q && s[i + 2] == q;
    uint32_t j = i + (triple ? 3 : 1);
    while (j < n) {
        char c = s[j];
        if (c == '\\') {
            j += 2; /* escapes the quote even in raw strings */
        } else if (c == q && (!triple || (j + 2 < n && s[j + 1] == q && s[j + 2] == q))) {
            return j + (triple ? 3 : 1);
        } else if (c == '\n' && !triple) {
            break;
        } else {
            j++;
        }
    }
    *open = true;
    return j > n ? n : j;
}

static void string_tok(xfile *f, uint32_t start, uint32_t quote, int flags, uint32_t *i)
{
    bool open = false;
    uint32_t e = string_end(f->s, f->n, quote, &open);
    xf_push(f, XT_STRING, start, e - start, (uint8_t)(flags | (open ? XS_UNTERMINATED : 0)));
    *i = e;
}

static uint32_t number(const char *s, uint32_t n, uint32_t i)
{
    bool hex = i + 1 < n && s[i] == '0' && (s[i + 1] | 32) == 'x';
    for (i++; i < n; i++) {
        char c = s[i];
        if ((c == '+' || c == '-') && (s[i - 1] | 32) == 'e' && !hex) continue;
        if (!ident_char(c) && c != '.') break;
    }
    return i;
}

void ta_xpy_lex(xfile *f)
{
    const char *s = f->s;
    uint32_t n = f->n, i = 0;
    int depth = 0;
    while (i < n && f->st == TA_OK) {
        char c = s[i];
        if (c == '\n') {
            if (depth <= 0 && f->ntok && f->tok[f->ntok - 1].kind != XT_NEWLINE)
                xf_push(f, XT_NEWLINE, i, 1, 0);
            i++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            i++;
        } else if (c == '\\' && i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r')) {
            i += s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n' ? 3 : 2;
        } else if (c == '#') {
            const char *nl = memchr(s + i, '\n', n - i);
            i = nl ? (uint32_t)(nl - s) : n;
        } else if (ident_start(c)) {
            uint32_t j = i;
            while (j < n && ident_char(s[j])) j++;
            int fl;
            if (j < n && (s[j] == '"' || s[j] == '\'') && (fl = prefix_flags(s + i, j - i)) >= 0) {
                string_tok(f, i, j, fl, &i);
            } else {
                xf_push(f, XT_IDENT, i, j - i, 0);
                i = j;
            }
        } else if ((c >= '0' && c <= '9') || (c == '.' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')) {
            uint32_t e = number(s, n, i);
            xf_push(f, XT_NUMBER, i, e - i, 0);
            i = e;
        } else if (c == '"' || c == '\'') {
            string_tok(f, i, i, 0, &i);
        } else {
            bool two = i + 1 < n && ((c == '-' && s[i + 1] == '>') || (c == ':' && s[i + 1] == '=') ||
                                     (c == '*' && s[i + 1] == '*'));
            if (c == '(' || c == '[' || c == '{') depth++;
            else if (c == ')' || c == ']' || c == '}') depth--;
            xf_push(f, XT_PUNCT, i, two ? 2 : 1, 0);
            i += two ? 2 : 1;
        }
    }
}

/* ---- decoding ------------------------------------------------------------ */

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* One escape at s[i] appended to out; its length, or 0 when it cannot be
 * decoded here (\N{name}). */
static uint32_t escape(const char *s, uint32_t end, uint32_t i, xtext *out)
{
    static const char simple[] = "n\nt\tr\rv\vf\fa\ab\b\\\\'\'\"\"";
    char c = s[i + 1];
    if (c == '\n') return 2; /* a continuation inside the string */
    if (c == '\r') return i + 2 < end && s[i + 2] == '\n' ? 3 : 2;
    for (const char *p = simple; *p; p += 2)
        if (c == p[0]) {
            xt_stand(out, &p[1], 1, i, 2);
            return 2;
        }
    if (c >= '0' && c <= '7') {
        uint32_t j = i + 1, v = 0;
        while (j < end && j < i + 4 && s[j] >= '0' && s[j] <= '7') v = v * 8 + (uint32_t)(s[j++] - '0');
        return xt_codepoint(out, v, i, j - i) ? j - i : 0;
    }
    uint32_t want = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
    if (want) {
        uint32_t j = i + 2, v = 0;
        while (j < end && j < i + 2 + want && hexval(s[j]) >= 0) v = v << 4 | (uint32_t)hexval(s[j++]);
        return j - i - 2 == want && xt_codepoint(out, v, i, j - i) ? j - i : 0;
    }
    if (c == 'N') return 0;
    xt_copy(out, s, i, 2); /* Python keeps an unknown escape as written */
    return 2;
}

bool ta_xpy_decode(xfile *f, const xtok *t, xtext *out) { return ta_xpy_decode_f(f, t, out, NULL, NULL); }

/* The replacement field of an f-string whose "{" is at s[i]: a name,
 * optionally with !s (what str() gives, as without it); its name's
 * offset and length, and the index past "}". false for anything else. */
static bool simple_field(const char *s, uint32_t close, uint32_t i, uint32_t *name, uint32_t *len,
                         uint32_t *end)
{
    uint32_t j = i + 1;
    while (j < close && s[j] == ' ') j++;
    *name = j;
    while (j < close && (((s[j] | 32) >= 'a' && (s[j] | 32) <= 'z') || s[j] == '_' ||
                         (j > *name && s[j] >= '0' && s[j] <= '9')))
        j++;
    *len = j - *name;
    while (j < close && s[j] == ' ') j++;
    if (j + 1 < close && s[j] == '!' && s[j + 1] == 's') j += 2;
    if (!*len || (s[*name] >= '0' && s[*name] <= '9') || j >= close || s[j] != '}') return false;
    *end = j + 1;
    return true;
}

bool ta_xpy_decode_f(xfile *f, const xtok *t, xtext *out, xpy_field_fn *field, void *ctx)
{
    if (t->kind != XT_STRING || (t->flags & (XS_UNTERMINATED | XS_BYTES))) return false;
    const char *s = f->s;
    uint32_t i = t->off, end = t->off + t->len;
    while (s[i] != '"' && s[i] != '\'') i++;
    char q = s[i];
    uint32_t ql = i + 2 < end && s[i + 1] == q && s[i + 2] == q && t->len - (i - t->off) >= 6 ? 3 : 1;
    uint32_t body = i + ql, close = end - ql;
    bool raw = t->flags & XS_RAW, fmt = t->flags & XS_FORMAT;
    uint32_t run = body;
    for (i = body; i < close;) {
        char c = s[i];
        if (fmt && (c == '{' || c == '}')) {
            uint32_t name, len, end;
            if (i + 1 < close && s[i + 1] == c) {   /* a doubled brace: keep one */
                xt_copy(out, s, run, i + 1 - run);
                i += 2;
            } else if (c == '{' && field && simple_field(s, close, i, &name, &len, &end)) {
                xt_copy(out, s, run, i - run);
                if (!field(ctx, name, len, i, end - i, out)) return false;
                i = end;
            } else {
                return false; /* a replacement field the caller cannot fill */
            }
            run = i;
        } else if (c == '\\' && !raw && i + 1 < close) {
            xt_copy(out, s, run, i - run);
            uint32_t k = escape(s, close, i, out);
            if (!k) return false;
            i += k;
            run = i;
        } else {
            i += c == '\\' && i + 1 < close ? 2 : 1;
        }
    }
    xt_copy(out, s, run, close - run);
    return !out->oom;
}
