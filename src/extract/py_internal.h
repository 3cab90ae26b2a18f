/* py_internal.h - what the Python scanner's parts share (internal to
 * src/extract): the statements of a file and their scopes (py_eval.c), the
 * strings expressions evaluate to (py_eval.c), and the functions and
 * classes that make, wrap or fill a torch.library.Library (py_defs.c).
 *
 * Python has no preprocessor, but schemas are built all the same: from
 * module constants, f-strings, format and %, in loops over literal lists,
 * and through the project's own helpers (a register_op(schema) that calls
 * lib.define(schema), a TorchLibraryFragment("ns") that wraps a Library).
 * The file is read as statements; an expression is evaluated when every
 * name in it is bound, in the same function or at module level, to
 * something that evaluates in turn. */
#ifndef TA_EXTRACT_PY_INTERNAL_H
#define TA_EXTRACT_PY_INTERNAL_H

#include "base/map.h"
#include "extract/extract_internal.h"

/* A logical line: tokens [lo, hi) (its NEWLINE excluded), the column it
 * starts at, and the statement of the innermost def whose body holds it
 * (-1 at module level). */
typedef struct pystmt {
    uint32_t lo, hi, col;
    int32_t scope;
} pystmt;

typedef struct pyfile {
    xfile *f;
    pystmt *st;
    uint32_t nst;
    int depth; /* of the evaluation under way (names referring to names) */
} pyfile;

/* Splits the file into statements and finds each one's scope. */
bool xpy_structure(pyfile *pf);
void xpy_structure_free(pyfile *pf);
/* The statement holding token i (the last starting at or before it). */
uint32_t xpy_stmt_of(const pyfile *pf, uint32_t i);
/* Past the last statement of the block statement k heads (the first after
 * it that starts at its column or left of it). */
uint32_t xpy_block_end(const pyfile *pf, uint32_t k);
/* Whether statement k starts with word (a keyword). */
bool xpy_starts(const pyfile *pf, uint32_t k, const char *word);

/* The value of the assignment "NAME = value" (or "NAME: T = value") that
 * NAME (len bytes at f->s + off) refers to at token at: in the same
 * function before it, or at module level (before it, else anywhere). false
 * when there is none, or NAME is a parameter of the function. */
bool xpy_lookup(pyfile *pf, uint32_t off, uint32_t len, uint32_t at, xspan *value);

/* Appends the string expression e evaluates to: literals (implicitly
 * joined), f-strings whose fields are names, names bound to strings or
 * integers, "+", str.format and "%" (with %s and %d) over them, in
 * parentheses or not. false with *bad the first token that does not
 * evaluate. */
bool xpy_eval(pyfile *pf, xspan e, xtext *out, uint32_t *bad);

/* Appends the value of NAME's last module-level assignment in pf,
 * evaluated as xpy_eval does with depth names followed already. */
bool xpy_eval_module_value(pyfile *pf, const char *name, uint32_t len, int depth, xtext *out);

/* How many names an evaluation follows, across modules too. */
enum { XPY_MAX_NAME_DEPTH = 16 };

/* ---- constants of other modules (py_import.c) ---------------------------- */

/* The value of the name local (len bytes), or of local.attr, that pf
 * imports ("from M import NAME as local", "import M as local"), found in
 * M's file on disk; appended to out standing for the source bytes
 * [use_off, use_off + use_len). false when it is not such a name or does
 * not evaluate there. */
bool xpy_eval_import(pyfile *pf, const char *local, uint32_t len, const char *attr, uint32_t alen,
                     uint32_t use_off, uint32_t use_len, xtext *out);
/* The set's modules read for their constants (path -> module). */
void xpy_modules_init(ta_map *m);
ta_map *xpy_module_cache(ta_extract *x);

/* The elements of the literal list, tuple or set e (or of the name bound
 * to one): their spans, at most max; -1 when e is not one. */
int xpy_elements(pyfile *pf, xspan e, xspan *items, int max);

/* When name token i is the target (or one of the targets) of an enclosing
 * "for T in ITER:" whose ITER is a literal collection: the values the name
 * takes, one span per iteration (at most max), or -1. */
int xpy_loop_values(pyfile *pf, uint32_t i, xspan *values, int max);

/* ---- the scanner's state (py_scan.c), shared with py_defs.c ---------- */

enum { XPY_MAX_ARGS = 16, XPY_MAX_BINDINGS = 64 };

/* A name a Library was assigned to. */
typedef struct pbind {
    uint32_t lo, hi;  /* the target's tokens */
    char *ns;         /* NULL when not known here */
    uint32_t ns_len;
    uint32_t ns_off;  /* source offset of the namespace argument */
    bool impl;        /* an "IMPL" library: kernels only */
    char *defer;      /* when ns is NULL: the key ta_extract_finish resolves it by, or NULL */
} pbind;

typedef struct pscan {
    xfile *f;
    pyfile pf;
    pbind binds[XPY_MAX_BINDINGS];
    int nbinds;
    xtext text, part;
    bool noted_receiver; /* the unknown-receiver note, once a file */
} pscan;

/* Positional arguments, and keyword arguments by name. */
typedef struct pargs {
    xspan pos[XPY_MAX_ARGS];
    int npos;
    xspan kw[XPY_MAX_ARGS]; /* the value's tokens */
    uint32_t kwname[XPY_MAX_ARGS];
    int nkw;
} pargs;

void xpy_read_args(const xfile *f, uint32_t open, uint32_t close, pargs *a);
const xspan *xpy_kwarg(const xfile *f, const pargs *a, const char *name);
/* The Library bound to the tokens [lo, hi) (a name, self.x, ...) at token
 * at: one this file makes or aliases, or one imported by name; NULL. */
const pbind *xpy_binding(pscan *ps, uint32_t lo, uint32_t hi);
/* Adds a declaration of the schema in ps->text to library b (ns, or the
 * deferred key; neither: unknown). */
void xpy_declare(pscan *ps, const char *ns, uint32_t ns_len, uint32_t ns_off, const char *defer,
                 uint32_t anchor, bool inferred);
/* "def NAME(" anywhere in the file: the index of NAME, or 0. */
uint32_t xpy_def_named(const xfile *f, const xtok *name);
/* The signature of the def whose name is at fn. */
bool xpy_signature(const xfile *f, uint32_t fn, xpy_sig *sig);
/* The names in mutates_args=(...) (a list, tuple or set of strings, or
 * "unknown"; v NULL: none). */
bool xpy_read_mutates(pscan *ps, const xspan *v, xpy_sig *sig, const char **names, uint32_t *lens);

/* ---- helpers that make or fill a Library (py_defs.c) -------------------- */

typedef struct xpy_shared xpy_shared;
ta_status xpy_shared_create(ta_arena *a, xpy_shared **out);
void xpy_shared_free(xpy_shared *s);
xpy_shared *xs_py(ta_extract *x);
/* Reads the functions and classes of a file that make, wrap or define
 * into a Library, and its module-level Libraries, once per file name
 * (unless always, only a file that mentions define( or Library(). */
void xpy_summarize(pscan *ps, bool always);
/* Remembers which functions a file defines at module level, for one not
 * summarized (py_scan.c's prepass); reads and summarizes such a file when
 * a call needs it. */
ta_status xpy_index_defs(ta_extract *x, const char *file, const char *text, size_t len);
ta_status xpy_summarize_file(ta_extract *x, const char *path);
/* At a call of a function that defines schemas (name token i, "(" at
 * i + 1): declares them; the call's close, or i when it is not one. */
uint32_t xpy_helper_call(pscan *ps, uint32_t i);

#endif
