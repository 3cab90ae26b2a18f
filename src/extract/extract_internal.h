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

typedef struct xtok {
    uint32_t off, len;
    uint8_t kind;
    uint8_t flags;
    uint16_t punct; /* XT_PUNCT: first byte, or first | second << 8 for two */
} xtok;

#define XP2(a, b) ((uint16_t)((unsigned char)(a) | (unsigned char)(b) << 8))

/* ---- a file being scanned ------------------------------------------------ */

typedef struct xfile {
    ta_extract *x;
    const char *name;   /* as given, owned by the set */
    const char *s;
    uint32_t n;
    uint32_t *lines;    /* offset of each line's first byte */
    uint32_t nlines;
    xtok *tok;
    uint32_t ntok;
    size_t captok;
    ta_diags *diags;
    ta_status st;       /* the first allocation failure */
} xfile;

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

/* Appends a token; false (and f->st set) when out of memory. */
bool xf_push(xfile *f, xkind kind, uint32_t off, uint32_t len, uint8_t flags);
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
} xdecl;

/* Qualifies, keeps and parses one declaration. */
void xf_add_op(xfile *f, const xdecl *d);
/* A kernel registered for ns::name (ns NULL: unknown, matched by name). */
void xf_add_kernel(xfile *f, const char *ns, uint32_t ns_len, const char *name,
                   uint32_t name_len);
/* The value of macro name given with -D or by an earlier "#define NAME
 * value" (a single identifier or string literal); NULL when unknown. */
const char *xf_macro(const xfile *f, const char *name, uint32_t len);
/* Remembers "#define NAME value" for xf_macro. */
void xf_define(xfile *f, const char *name, uint32_t len, const char *value, uint32_t vlen);
/* Library-block wrappers: "#define W(NS, M) TORCH_LIBRARY(NS, M)" teaches
 * the C++ scanner that W(x, y) { ... } is a block. kind: 0 def, 1 fragment,
 * 2 impl; ns_arg and var_arg are the parameter positions. */
void xf_define_block(xfile *f, const char *name, uint32_t len, int kind, int ns_arg, int var_arg,
                     int nparams);
bool xf_block_macro(const xfile *f, const char *name, uint32_t len, int *kind, int *ns_arg,
                    int *var_arg, int *nparams);

/* ---- the languages ------------------------------------------------------ */

/* Tokenize f->s into f->tok. */
void ta_xcpp_lex(xfile *f);
void ta_xpy_lex(xfile *f);
/* Decode string token t into out (appending). false when the literal is
 * not a plain narrow string (wide, bytes, f-string with fields,
 * unterminated). */
bool ta_xcpp_decode(xfile *f, const xtok *t, xtext *out);
bool ta_xpy_decode(xfile *f, const xtok *t, xtext *out);
/* Walk the tokens for declarations. */
void ta_xcpp_scan(xfile *f);
void ta_xpy_scan(xfile *f);

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

/* Whether directories are walked without asking git (ta_extract_opts). */
bool ta_extract_no_git(const ta_extract *x);

/* Rule ids. */
#define XR_SYNTAX "schema-syntax"
#define XR_UNRESOLVED "extract-unresolved"
#define XR_INFERRED "extract-inferred"
#define XR_NAMESPACE "extract-namespace-mismatch"
#define XR_LITERAL "extract-literal"
#define XR_DUPLICATE "extract-duplicate-def"

#endif
