/* extract_internal.h - what the source scanners share (internal to
 * src/extract).
 *
 * A file is lexed into an array of tokens (C++ or Python); a scanner walks
 * the tokens looking for the call shapes that declare schemas, decodes the
 * string literals it needs into an xtext (the decoded bytes plus segments
 * mapping them back to source offsets) and hands each declaration to the
 * set (xf_add_op), which qualifies it with its namespace, keeps the source
 * lines its segments point into, and parses it. */
#ifndef TA_SCHEMA_EXTRACT_INTERNAL_H
#define TA_SCHEMA_EXTRACT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "tensoralias/extract.h"

/* ---- decoded text and its map to the source ----------------------------- */

/* A run of decoded bytes and the source bytes it came from. A verbatim
 * segment is a copy (decoded byte k is source byte src + k) and never spans
 * a line break; any other stands as a whole for src_len source bytes (an
 * escape sequence, a token a schema was built from). */
typedef struct xseg {
    uint32_t dec;     /* offset of its first decoded byte */
    uint32_t src;     /* source offset of its first byte */
    uint32_t src_len; /* source bytes it stands for */
    bool verbatim;
} xseg;

typedef struct xtext {
    char *s;          /* decoded bytes, NUL-terminated (NULL before the first xt_reset) */
    uint32_t n, cap;
    xseg *seg;
    uint32_t nseg;
    size_t capseg;
    bool oom;
} xtext;

/* Empties t; afterwards t->s is a string (unless t->oom). */
void xt_reset(xtext *t);
void xt_free(xtext *t);
/* Appends source bytes [off, off + len) of src unchanged. */
void xt_copy(xtext *t, const char *src, uint32_t off, uint32_t len);
/* Appends n bytes standing for the source bytes [off, off + src_len). */
void xt_stand(xtext *t, const char *bytes, uint32_t n, uint32_t off, uint32_t src_len);
/* Appends the UTF-8 encoding of code point cp, standing for the source
 * bytes [off, off + src_len). false when cp is not a code point. */
bool xt_codepoint(xtext *t, uint32_t cp, uint32_t off, uint32_t src_len);
/* Appends all of src (its segments shifted). */
void xt_append(xtext *t, const xtext *src);
/* Appends bytes [lo, hi) of src with the segments that map them. */
void xt_append_range(xtext *t, const xtext *src, uint32_t lo, uint32_t hi);

/* ---- tokens ------------------------------------------------------------- */

typedef enum xkind {
    XT_EOF = 0,
    XT_IDENT,     /* a name (Python keywords included) */
    XT_NUMBER,
    XT_STRING,    /* a string literal, prefix and quotes included */
    XT_CHAR,      /* a C++ character literal */
    XT_PUNCT,     /* an operator or bracket; `punct` holds its bytes */
    XT_DIRECTIVE, /* a whole C++ preprocessor line, continuations included */
    XT_NEWLINE    /* the end of a Python logical line */
} xkind;

/* String flags. */
enum {
    XS_UNTERMINATED = 1, /* the literal runs into the end of the line or file */
    XS_RAW = 2,          /* C++ R"d(...)d" or Python r'...' */
    XS_FORMAT = 4,       /* Python f-string or t-string */
    XS_BYTES = 8,        /* Python b'...' */
    XS_WIDE = 16         /* C++ L/u/U prefix: not a narrow string */
};

/* What the C++ preprocessor knows of a token. */
enum {
    XP_SPACE = 1,   /* blanks (or a line break) before it */
    XP_PAINTED = 2, /* a macro's own name in its expansion: never expanded */
    XP_GUARD = 4,   /* (#ifndef) an include guard, not a condition */
    XP_TAINTED = 8  /* pasted from a name the sources do not define (TORCH_EXTENSION_NAME) */
};

typedef struct xtok {
    uint32_t off, len; /* its spelling: f->s[off .. off + len) */
    /* Where it stands in the file: the bytes a diagnostic about it points
     * at (org), and the outermost macro invocation it came from (site).
     * Both equal off for a token written in the file; a token of a macro's
     * replacement written in this file keeps its spelling there (off) and
     * its site at the invocation; one made by the preprocessor (#x, a##b,
     * a macro of a header) is spelled past the end of the source (off >=
     * f->n) and points at the invocation or argument it came from. */
    uint32_t org, orglen, site;
    uint16_t punct; /* XT_PUNCT: first byte, or first | second << 8 for two */
    uint8_t kind;
    uint8_t flags;  /* XS_* of a string */
    uint8_t pp;     /* XP_* */
} xtok;

typedef struct xtoks {
    xtok *v;
    uint32_t n;
    size_t cap;
} xtoks;

#define XP2(a, b) ((uint16_t)((unsigned char)(a) | (unsigned char)(b) << 8))

/* ---- a file being scanned ------------------------------------------------ */

typedef struct xfile {
    ta_extract *x;
    const char *name;   /* as given, owned by the set */
    const char *s;      /* the source, then (once the preprocessor makes
                         * tokens) a copy of it followed by their spellings */
    uint32_t n;         /* the source's length */
    char *buf;          /* that copy, owned (NULL until needed) */
    uint32_t nbuf;      /* bytes used in buf */
    size_t capbuf;
    /* what the C++ preprocessor reads besides the file: the root of the
     * directory walk (parents up to it are searched for quoted includes),
     * and the file's own -I and -D from compile_commands.json */
    const char *root;
    const char *const *include_dirs;
    const struct xmacro *const *defines;
    uint32_t ndefines;
    uint32_t *lines;    /* offset of each line's first byte */
    uint32_t nlines;
    xtok *tok;
    uint32_t ntok;
    size_t captok;
    ta_diags *diags;
    ta_status st;       /* the first allocation failure */
} xfile;

/* A copy of a file name that lives as long as the set. */
const char *xf_intern(ta_extract *x, const char *file);
/* Fills f->lines; false when out of memory. */
bool xf_index_lines(xfile *f);
/* 1-based line and column of a source offset. */
void xf_pos(const xfile *f, uint32_t off, uint32_t *line, uint32_t *col);
/* Reports rule at source bytes [off, off + len) (clipped to their line). */
void xf_report(xfile *f, ta_severity sev, uint32_t off, uint32_t len, const char *rule,
               const char *hint, const char *fmt, ...) TA_PRINTF(7, 8);
/* ---- walking the tokens (tokens.c) ---------------------------------------- */

/* Token indices [lo, hi). */
typedef struct xspan {
    uint32_t lo, hi;
} xspan;

/* Appends a token to f's tokens, or to v; false (and f->st set) when out
 * of memory. Its org and site are its offset. */
bool xf_push(xfile *f, xkind kind, uint32_t off, uint32_t len, uint8_t flags);
bool xtoks_push(xfile *f, xtoks *v, xkind kind, uint32_t off, uint32_t len, uint8_t flags);
bool xtoks_add(xfile *f, xtoks *v, const xtok *t);
/* Appends n bytes to the file's text past the source (for tokens the
 * preprocessor makes): their offset, or UINT32_MAX when out of memory
 * (f->st set) or past the limit (8 times the source and 1 MiB more). */
uint32_t xf_spell(xfile *f, const char *bytes, uint32_t n);
/* +1 for an opening bracket, -1 for a closing one, else 0. */
int xf_nesting(const xtok *t);
/* Token i, or an XT_EOF token past the end. */
const xtok *xf_tok(const xfile *f, uint32_t i);
/* Whether a token's text is word; whether token i is a name (word, or any
 * when word is NULL); whether a token is the operator p. */
bool xf_is(const xfile *f, const xtok *t, const char *word);
bool xf_ident(const xfile *f, uint32_t i, const char *word);
bool xf_punct(const xtok *t, uint16_t p);
/* The bracket closing the one at open (ntok when unbalanced). */
uint32_t xf_close(const xfile *f, uint32_t open);
/* The arguments between open and close split at top-level commas (a
 * trailing comma ends none): how many, the first max in args. */
int xf_split(const xfile *f, uint32_t open, uint32_t close, xspan *args, int max);
/* The first token of the dotted name (a.b.c) that ends just before end;
 * end itself when no name ends there. */
uint32_t xf_dotted_start(const xfile *f, uint32_t end);
/* Whether two token ranges spell the same tokens. */
bool xf_same_tokens(const xfile *f, uint32_t alo, uint32_t ahi, uint32_t blo, uint32_t bhi);

/* A declaration a scanner found. */
typedef struct xdecl {
    ta_extract_how how;
    const char *ns;       /* from the block or Library; NULL when unknown */
    uint32_t ns_len;
    uint32_t ns_off;      /* where that namespace was written (for notes) */
    const xtext *text;    /* the schema, or (name_only) the operator name */
    bool name_only;       /* the schema comes from the C++ kernel's signature */
    bool inferred;        /* built from Python type hints */
    bool has_kernel;      /* declared together with its kernel */
    uint32_t anchor;      /* source offset of the declaration, for notes */
    /* The preprocessor branches it sits in: pairs (conditional id, branch
     * index), outermost first. Two declarations in different branches of
     * one #if never both exist. */
    const uint32_t *cond;
    uint32_t ncond;
    /* The namespace comes from elsewhere in the tree (ns is NULL): what
     * supplies it, resolved by ta_extract_finish (see xf_add_link). */
    const char *defer;
    /* Written through a macro: the operator is placed at anchor (the
     * invocation) rather than at its text's first byte. */
    bool expanded;
} xdecl;

/* Qualifies, keeps and parses one declaration. */
void xf_add_op(xfile *f, const xdecl *d);
/* Where deferred namespaces come from: the library that key (as in
 * xdecl.defer) stands for is the namespace ns (from a block; NULL when the
 * block's own is unknown) or whatever key from stands for. */
void xf_add_link(xfile *f, const char *key, const char *ns, uint32_t ns_len, const char *from);
/* The same, counted only once the key requires has a source of its own
 * (a call's result is a Library only if the callee makes one). */
void xf_add_link_if(xfile *f, const char *key, const char *ns, uint32_t ns_len, const char *from,
                    const char *requires);
/* A kernel registered for ns::name (ns NULL: unknown, matched by name). */
void xf_add_kernel(xfile *f, const char *ns, uint32_t ns_len, const char *name,
                   uint32_t name_len);

/* ---- the languages ------------------------------------------------------ */

/* Tokenize f->s into f->tok. */
void ta_xcpp_lex(xfile *f);
/* Tokenize f->s[lo, hi) into out; directives: whether a '#' that starts a
 * line starts a directive (not inside one, nor in a pasted token). */
void ta_xcpp_lex_range(xfile *f, uint32_t lo, uint32_t hi, bool directives, xtoks *out);
void ta_xpy_lex(xfile *f);
/* Decode string token t into out (appending). false when the literal is
 * not a plain narrow string (wide, bytes, f-string with fields,
 * unterminated). */
bool ta_xcpp_decode(xfile *f, const xtok *t, xtext *out);
bool ta_xpy_decode(xfile *f, const xtok *t, xtext *out);
/* The same with an f-string's replacement fields {name} (and {name!s})
 * filled by field: the name at source offset off (len bytes), the field's
 * braces at [at, at + at_len); it appends the value to out, or returns
 * false when it has none. */
typedef bool xpy_field_fn(void *ctx, uint32_t off, uint32_t len, uint32_t at, uint32_t at_len, xtext *out);
bool ta_xpy_decode_f(xfile *f, const xtok *t, xtext *out, xpy_field_fn *field, void *ctx);
/* Walk the tokens for declarations. */
void ta_xcpp_scan(xfile *f);
void ta_xpy_scan(xfile *f);
/* Learns the Python helpers of a file before the files that call them
 * are scanned (a directory walk reads every Python file so first). */
ta_status ta_xpy_prepass(ta_extract *x, const char *file, const char *text, size_t len);

/* Python's custom_op: the schema from the decorated function's type hints
 * (torch.library.infer_schema). params/ret are token index ranges of the
 * def's parameter list (inside the parentheses) and return annotation;
 * mutates is the list of mutated argument names (NULL: "unknown", every
 * tensor written). Appends to out; false with a note when a hint cannot be
 * turned into a schema type exactly. */
typedef struct xpy_sig {
    uint32_t params_lo, params_hi; /* tokens between "(" and ")" */
    uint32_t ret_lo, ret_hi;       /* tokens of the return annotation; lo == hi when none */
    const char *const *mutates;    /* names; NULL with mutates_unknown */
    const uint32_t *mutates_len;
    uint32_t nmutates;
    bool mutates_unknown;
} xpy_sig;
bool ta_xpy_infer(xfile *f, const xpy_sig *sig, xtext *out);

/* The directory being walked (quoted includes are searched up to it). */
const char *xf_root(const ta_extract *x);
void xf_set_root(ta_extract *x, const char *root);
/* Reads compile_commands.json once: the one the options name, else the
 * one at dir's top or in dir/build (when dir is not NULL). */
ta_status xf_read_compile_db(ta_extract *x, const char *dir, ta_diags *diags);
/* Whether directories are walked without asking git (ta_extract_opts). */
bool ta_extract_no_git(const ta_extract *x);

/* Rule ids. */
#define XR_SYNTAX "schema-syntax"
#define XR_UNRESOLVED "extract-unresolved"
#define XR_INFERRED "extract-inferred"
#define XR_NAMESPACE "extract-namespace-mismatch"
#define XR_LITERAL "extract-literal"
#define XR_DUPLICATE "extract-duplicate-def"
#define XR_CONDITIONAL "extract-conditional"

#endif
