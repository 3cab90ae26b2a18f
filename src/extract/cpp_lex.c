/* cpp_lex.c - C++ source as tokens, and C++ string literals decoded.
 *
 * Enough of translation phases 1-3 to find string literals where a
 * compiler does: comments are skipped, a backslash at the end of a line
 * splices it to the next (inside literals too, but not inside raw strings,
 * where phase 2 is undone), a preprocessor directive is one token, and
 * literals take their prefixes (u8 u U L, R for raw) and user-defined
 * suffixes. Nothing is expanded here: that is the preprocessor's job
 * (cpp_pp.c), which lexes the inside of a directive with the same code. */
#include <string.h>

#include "extract/extract_internal.h"

static bool ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
           (unsigned char)c >= 0x80;
}

static bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

/* Length of a line splice at s[i] (a backslash, blanks, a line break), or 0. */
static uint32_t splice(const char *s, uint32_t n, uint32_t i)
{
    if (s[i] != '\\') return 0;
    uint32_t j = i + 1;
    while (j < n && (s[j] == ' ' || s[j] == '\t')) j++;
    if (j < n && s[j] == '\r') j++;
    return j < n && s[j] == '\n' ? j + 1 - i : 0;
}

/* Past a // comment: it ends at a line break that is not spliced. */
static uint32_t line_comment(const char *s, uint32_t n, uint32_t i)
{
    while (i < n && s[i] != '\n') {
        uint32_t k = splice(s, n, i);
        i += k ? k : 1;
    }
    return i;
}

static uint32_t block_comment(const char *s, uint32_t n, uint32_t i)
{
    const char *e = memmem(s + i + 2, n - i - 2, "*/", 2);
    return e ? (uint32_t)(e - s) + 2 : n;
}

/* Past a directive: to the first line break not spliced, comments skipped. */
static uint32_t directive(const char *s, uint32_t n, uint32_t i)
{
    while (i < n && s[i] != '\n') {
        uint32_t k = splice(s, n, i);
        if (k) i += k;
        else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') i = block_comment(s, n, i);
        else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') return line_comment(s, n, i);
        else i++;
    }
    return i;
}

/* Past a quoted literal whose opening quote is at s[i]; sets *open when it
 * meets the end of the line first. */
static uint32_t quoted(const char *s, uint32_t n, uint32_t i, char q, bool *open)
{
    for (i++; i < n; i++) {
        if (s[i] == '\\') {
            uint32_t k = splice(s, n, i);
            i += k ? k - 1 : 1;
        } else if (s[i] == q) {
            return i + 1;
        } else if (s[i] == '\n') {
            *open = true;
            return i;
        }
    }
    *open = true;
    return n;
}

/* Past R"d(...)d" whose quote is at s[i]. */
static uint32_t raw(const char *s, uint32_t n, uint32_t i, bool *open)
{
    uint32_t d = i + 1;
    while (d < n && d - i - 1 <= 16 && s[d] != '(' && s[d] != ')' && s[d] != '\\' && s[d] != ' ' &&
           s[d] != '"' && s[d] != '\n')
        d++;
    if (d >= n || s[d] != '(') {
        *open = true;
        return d;
    }
    uint32_t dlen = d - i - 1;
    for (uint32_t j = d + 1; j + dlen + 1 < n; j++)
        if (s[j] == ')' && !memcmp(s + j + 1, s + i + 1, dlen) && s[j + 1 + dlen] == '"')
            return j + dlen + 2;
    *open = true;
    return n;
}

static uint32_t suffix(const char *s, uint32_t n, uint32_t i)
{
    if (i < n && ident_start(s[i]))
        while (i < n && ident_char(s[i])) i++;
    return i;
}

/* A literal prefix: "u8", "u", "U", "L", each with an optional R. */
static bool literal_prefix(const char *p, uint32_t len, bool *is_raw, bool *wide)
{
    *is_raw = len > 0 && p[len - 1] == 'R';
    uint32_t k = len - (*is_raw ? 1 : 0);
    *wide = (k == 1 && (p[0] == 'u' || p[0] == 'U' || p[0] == 'L'));
    return k == 0 || *wide || (k == 2 && p[0] == 'u' && p[1] == '8');
}

static uint32_t number(const char *s, uint32_t n, uint32_t i)
{
    for (i++; i < n; i++) {
        char c = s[i];
        if ((c == '+' || c == '-') && strchr("eEpP", s[i - 1])) continue;
        if (c == '\'' && i + 1 < n && ident_char(s[i + 1])) continue;
        if (!ident_char(c) && c != '.') break;
    }
    return i;
}

/* A range of the text being lexed into a token array. */
typedef struct xlexer {
    xfile *f;
    xtoks *out;
    uint32_t n;  /* the end of the range */
    bool space;  /* blanks since the last token */
} xlexer;

static void push(xlexer *lx, xkind kind, uint32_t off, uint32_t len, uint8_t flags)
{
    if (xtoks_push(lx->f, lx->out, kind, off, len, flags) && lx->space)
        lx->out->v[lx->out->n - 1].pp |= XP_SPACE;
    lx->space = false;
}

/* One token starting with an identifier character at s[i]: a name, or a
 * literal whose prefix it is. */
static uint32_t word(xlexer *lx, uint32_t i)
{
    const char *s = lx->f->s;
    uint32_t n = lx->n, j = i;
    while (j < n && ident_char(s[j])) j++;
    bool is_raw, wide, open = false;
    if (j < n && (s[j] == '"' || s[j] == '\'') && j - i <= 3 &&
        literal_prefix(s + i, j - i, &is_raw, &wide)) {
        if (s[j] == '\'' && !is_raw) {
            uint32_t e = quoted(s, n, j, '\'', &open);
            push(lx, XT_CHAR, i, e - i, 0);
            return e;
        }
        if (s[j] == '"') {
            uint32_t e = is_raw ? raw(s, n, j, &open) : quoted(s, n, j, '"', &open);
            if (!open) e = suffix(s, n, e);
            uint8_t fl = (uint8_t)((open ? XS_UNTERMINATED : 0) | (is_raw ? XS_RAW : 0) |
                                   (wide ? XS_WIDE : 0));
            push(lx, XT_STRING, i, e - i, fl);
            return e;
        }
    }
    push(lx, XT_IDENT, i, j - i, 0);
    return j;
}

/* The operators of two characters the scanners and the preprocessor tell
 * apart: ::, ->, and ## (token pasting). */
static bool two_char_op(const char *s, uint32_t n, uint32_t i)
{
    char c = s[i];
    return i + 1 < n && ((c == ':' && s[i + 1] == ':') || (c == '-' && s[i + 1] == '>') ||
                         (c == '#' && s[i + 1] == '#'));
}

void ta_xcpp_lex_range(xfile *f, uint32_t lo, uint32_t hi, bool directives, xtoks *out)
{
    const char *s = f->s;
    xlexer lx = {f, out, hi, false};
    uint32_t n = hi, i = lo;
    bool bol = directives; /* nothing but blanks and comments since the line began */
    while (i < n && f->st == TA_OK) {
        char c = s[i];
        uint32_t k;
        if (c == '\n') {
            bol = directives;
            lx.space = true;
            i++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx.space = true;
            i++;
        } else if ((k = splice(s, n, i))) {
            i += k;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            i = line_comment(s, n, i);
            lx.space = true;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            i = block_comment(s, n, i);
            lx.space = true;
        } else if (c == '#' && bol) {
            uint32_t e = directive(s, n, i);
            push(&lx, XT_DIRECTIVE, i, e - i, 0);
            i = e;
        } else {
            bol = false;
            if (ident_start(c)) {
                i = word(&lx, i);
            } else if ((c >= '0' && c <= '9') || (c == '.' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')) {
                uint32_t e = number(s, n, i);
                push(&lx, XT_NUMBER, i, e - i, 0);
                i = e;
            } else if (c == '"' || c == '\'') {
                bool open = false;
                uint32_t e = quoted(s, n, i, c, &open);
                if (c == '"' && !open) e = suffix(s, n, e);
                push(&lx, c == '"' ? XT_STRING : XT_CHAR, i, e - i, open ? XS_UNTERMINATED : 0);
                i = e;
            } else {
                bool two = two_char_op(s, n, i);
                push(&lx, XT_PUNCT, i, two ? 2 : 1, 0);
                i += two ? 2 : 1;
            }
        }
    }
}

void ta_xcpp_lex(xfile *f)
{
    xtoks v = {f->tok, f->ntok, f->captok};
    ta_xcpp_lex_range(f, 0, f->n, true, &v);
    f->tok = v.v;
    f->ntok = v.n;
    f->captok = v.cap;
}

/* ---- decoding ------------------------------------------------------------ */

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* One escape sequence at s[i] (a backslash, not a splice) appended to out;
 * returns its length in the source. */
static uint32_t escape(const char *s, uint32_t end, uint32_t i, xtext *out)
{
    static const char simple[] = "n\nt\tr\rv\vf\fa\ab\b\\\\'\'\"\"??";
    char c = i + 1 < end ? s[i + 1] : '\\';
    for (const char *p = simple; *p; p += 2)
        if (c == p[0]) {
            xt_stand(out, &p[1], 1, i, 2);
            return 2;
        }
    if (c >= '0' && c <= '7') {
        uint32_t j = i + 1, v = 0;
        while (j < end && j < i + 4 && s[j] >= '0' && s[j] <= '7') v = v * 8 + (uint32_t)(s[j++] - '0');
        char b = (char)(v & 0xFF);
        xt_stand(out, &b, 1, i, j - i);
        return j - i;
    }
    if (c == 'x') {
        uint32_t j = i + 2, v = 0;
        while (j < end && hexval(s[j]) >= 0) v = (v << 4 | (uint32_t)hexval(s[j++])) & 0xFFFF;
        char b = (char)(v & 0xFF);
        xt_stand(out, &b, 1, i, j - i);
        return j - i;
    }
    if (c == 'u' || c == 'U') {
        uint32_t want = c == 'u' ? 4 : 8, j = i + 2, v = 0;
        while (j < end && j < i + 2 + want && hexval(s[j]) >= 0) v = v << 4 | (uint32_t)hexval(s[j++]);
        if (j - i - 2 == want && xt_codepoint(out, v, i, j - i)) return j - i;
    }
    /* conditionally supported: the character itself, as compilers do */
    xt_stand(out, &s[i + 1 < end ? i + 1 : i], 1, i, 2);
    return i + 1 < end ? 2 : 1;
}

static bool decode(xfile *f, const xtok *t, xtext *out);

bool ta_xcpp_decode(xfile *f, const xtok *t, xtext *out)
{
    uint32_t first = out->nseg;
    bool ok = decode(f, t, out);
    if (t->off >= f->n) /* made by the preprocessor: its bytes stand for where it came from */
        for (uint32_t k = first; k < out->nseg; k++) {
            out->seg[k].src = t->org;
            out->seg[k].src_len = t->orglen ? t->orglen : 1;
            out->seg[k].verbatim = false;
        }
    return ok;
}

static bool decode(xfile *f, const xtok *t, xtext *out)
{
    if (t->kind != XT_STRING || (t->flags & (XS_UNTERMINATED | XS_WIDE))) return false;
    const char *s = f->s;
    uint32_t i = t->off, end = t->off + t->len;
    while (s[i] != '"') i++; /* past the prefix */
    if (t->flags & XS_RAW) {
        const char *open = memchr(s + i, '(', end - i);
        uint32_t dlen = (uint32_t)(open - (s + i)) - 1;
        uint32_t body = (uint32_t)(open - s) + 1;
        uint32_t close = end; /* the ')' before the delimiter and quote */
        while (close > body && s[close - 1] != '"') close--; /* past a suffix */
        close -= dlen + 2;
        xt_copy(out, s, body, close - body);
        return !out->oom;
    }
    uint32_t close = end;
    while (close > i && s[close - 1] != '"') close--; /* past a suffix */
    close--;
    uint32_t run = ++i;
    while (i < close) {
        if (s[i] != '\\') {
            i++;
            continue;
        }
        xt_copy(out, s, run, i - run);
        uint32_t k = splice(s, close, i);
        i += k ? k : escape(s, close, i, out);
        run = i;
    }
    xt_copy(out, s, run, close - run);
    return !out->oom;
}
