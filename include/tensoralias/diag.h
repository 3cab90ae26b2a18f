/* tensoralias/diag.h - status codes and diagnostics shared by every layer.
 *
 * A fallible call returns a ta_status and appends what went wrong to a
 * ta_diags list the caller owns. The library never prints; the caller renders
 * a diagnostic the way a compiler does:
 *
 *   file:line:col: error: message [rule-id]
 *     the source line
 *         ^
 */
#ifndef TENSORALIAS_DIAG_H
#define TENSORALIAS_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tensoralias/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ta_status {
    TA_OK = 0,
    TA_ERR_PARSE,   /* malformed input: see the diagnostics */
    TA_ERR_INVALID, /* an argument the call cannot accept */
    TA_ERR_IO,      /* a file could not be read or written */
    TA_ERR_NOMEM,   /* allocation failed */
    TA_ERR_NOTFOUND,
    TA_ERR_UNSUPPORTED,
    TA_ERR_KERNEL   /* a kernel reported an error */
} ta_status;

TA_API const char *ta_status_str(ta_status s);

/* The largest text the library's loaders read, from a file or a buffer:
 * 64 MiB (PyTorch's native_functions.yaml is 0.6 MB). A larger input is
 * refused with an "io" error before it is parsed, and reading an endless
 * stream (/dev/zero) stops there. A loaded and checked yaml takes about 13
 * times its size, so the limit also bounds `check` to about 850 MB. */
#define TA_MAX_INPUT_BYTES ((size_t)64 << 20)

typedef enum ta_severity {
    TA_SEV_NOTE = 0,
    TA_SEV_WARNING,
    TA_SEV_ERROR
} ta_severity;

TA_API const char *ta_severity_str(ta_severity s);

/* One diagnostic. Every string is owned by the ta_diags list it lives in. */
typedef struct ta_diag {
    ta_severity severity;
    const char *rule;    /* stable id such as "schema-syntax"; never NULL */
    const char *message; /* one line, no trailing newline, at most TA_DIAG_TEXT_MAX bytes */
    const char *source;  /* file name or "<string>"; never NULL */
    uint32_t line;       /* 1-based; 0 when unknown */
    uint32_t col;        /* 1-based, in bytes; 0 when unknown */
    uint32_t length;     /* bytes the caret underlines (at least 1 when shown) */
    const char *source_line; /* the text of that line, or NULL; of a long line,
                                an excerpt around the column (see below) */
    const char *hint;        /* fix-it hint, or NULL */
    const char *op;          /* the operator it is about, "ns::name.overload" as
                                verify names it, or NULL (ta_diag_operator) */
    /* A line longer than TA_DIAG_LINE_MAX bytes is kept as an excerpt of at
     * most that many bytes around the column: line_skipped bytes of the line
     * come before source_line (the caret goes under its byte col - 1 -
     * line_skipped), and line_cut says bytes were left out after it. */
    uint32_t line_skipped;
    bool line_cut;
} ta_diag;

/* The most bytes of a source line a diagnostic keeps, and of its message
 * and of its hint (a longer one is cut and ends in "..."). */
#define TA_DIAG_LINE_MAX 160
#define TA_DIAG_TEXT_MAX 1024

typedef struct ta_diags ta_diags;

/* Constructors here return a status and the object through *out (NULL
 * when they fail); every destroy takes NULL. */
TA_API ta_status ta_diags_create(ta_diags **out);
TA_API void ta_diags_destroy(ta_diags *d);
TA_API void ta_diags_clear(ta_diags *d);
/* Bytes of the valid UTF-8 character at s[0..n) (n > 0), or 0 when none
 * starts there: a stray continuation byte, an overlong or truncated
 * sequence, a surrogate or a code point past U+10FFFF. */
TA_API size_t ta_utf8_len(const unsigned char *s, size_t n);

/* Names the operator the last diagnostic is about (see ta_diag.op). */
TA_API ta_status ta_diag_operator(ta_diags *d, const char *op);
TA_API size_t ta_diags_count(const ta_diags *d);
TA_API const ta_diag *ta_diags_get(const ta_diags *d, size_t i);
TA_API size_t ta_diags_count_severity(const ta_diags *d, ta_severity s);

/* Where a diagnostic points. line_text is the source line the caret goes
 * under (line_len bytes, need not be NUL-terminated) or NULL; the list keeps
 * its own copy (of a long line, the excerpt ta_diag describes), so the text
 * may be freed after the call. A NULL ta_loc, or
 * a zero line, means the diagnostic has no position. */
typedef struct ta_loc {
    const char *file;      /* file name; NULL means "<string>" */
    uint32_t line;         /* 1-based; 0 when unknown */
    uint32_t col;          /* 1-based, in bytes; 0 when unknown */
    uint32_t length;       /* bytes the caret underlines */
    const char *line_text; /* or NULL */
    uint32_t line_len;
} ta_loc;

/* One printf-style call per severity: appends a diagnostic for rule at loc.
 * d may be NULL (a caller that wants no diagnostics). TA_ERR_NOMEM when the
 * diagnostic could not be stored. */
#if defined(__GNUC__)
#define TA_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TA_PRINTF(f, a)
#endif
TA_API ta_status ta_diag_error(ta_diags *d, const ta_loc *loc, const char *rule,
                        const char *fmt, ...) TA_PRINTF(4, 5);
TA_API ta_status ta_diag_warning(ta_diags *d, const ta_loc *loc, const char *rule,
                          const char *fmt, ...) TA_PRINTF(4, 5);
TA_API ta_status ta_diag_note(ta_diags *d, const ta_loc *loc, const char *rule,
                       const char *fmt, ...) TA_PRINTF(4, 5);
/* Any severity, for code that forwards one it was given. */
TA_API ta_status ta_diag_emit(ta_diags *d, ta_severity sev, const ta_loc *loc,
                       const char *rule, const char *fmt, ...) TA_PRINTF(5, 6);
TA_API ta_status ta_diag_vemit(ta_diags *d, ta_severity sev, const ta_loc *loc,
                        const char *rule, const char *fmt, va_list ap);
/* Sets the fix-it hint of the diagnostic added last (a no-op on an empty
 * or NULL list). */
TA_API ta_status ta_diag_hint(ta_diags *d, const char *fmt, ...) TA_PRINTF(2, 3);

/* Appends a copy of g (which may live in another list). */
TA_API ta_status ta_diags_append(ta_diags *d, const ta_diag *g);

/* Drops every diagnostic after the first n (none when there are n or fewer). */
TA_API void ta_diags_truncate(ta_diags *d, size_t n);

/* Moves every diagnostic of src to the end of dst, leaving src empty. */
TA_API ta_status ta_diags_move(ta_diags *dst, ta_diags *src);

/* What a rule id means, for reports (SARIF rules[], report.h). */
typedef struct ta_rule_info {
    const char *id;
    ta_severity severity;  /* default level */
    const char *summary;   /* one line */
} ta_rule_info;

/* Writes one diagnostic as a compiler would, with the source line and a
 * caret when they are known. Used by the command, never by the library.
 * The caret lands under the character at the diagnostic's byte column:
 * a UTF-8 sequence before it is one column, a tab stays a tab. */
TA_API void ta_diag_render(const ta_diag *g, FILE *out);

/* The same, in colour when color is set (ANSI: bold location, the severity
 * in red, magenta or cyan, a green caret), as compilers do on a terminal. */
TA_API void ta_diag_render_color(const ta_diag *g, FILE *out, bool color);

#ifdef __cplusplus
}
#endif
#endif
