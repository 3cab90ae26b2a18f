/* tensoralias/extract.h - operator schemas read straight from C++ and Python
 * sources, without building them and without torch.
 *
 * Custom operators are declared in code, not in native_functions.yaml:
 *
 *     TORCH_LIBRARY(mylib, m) { m.def("scale(Tensor(a!) x, float f) -> ()"); }
 *     lib = torch.library.Library("mylib", "DEF"); lib.define("scale(...) -> ()")
 *     torch.library.define("mylib::scale", "(Tensor(a!) x, float f) -> ()")
 *
 * A ta_extract set scans files (or whole directories) for the few call
 * shapes that declare a schema and keeps each schema with where it was
 * written: the string literals are decoded (escapes, adjacent literals, raw
 * strings, line continuations, Python's quotes and prefixes) and every byte
 * of the decoded text maps back to a line and column of the source, so a
 * diagnostic about the schema points into the literal. It is a scanner of
 * literals and call shapes, not a C++ or Python parser: what it cannot
 * resolve (a macro, an f-string, a variable) is a note naming the place,
 * never a guess.
 *
 * The operators found are listed in scan order with the file, line, column,
 * namespace and the way each was declared (ta_extract_how), and each schema
 * is parsed once (syntax errors reported at their source position).
 */
#ifndef TENSORALIAS_EXTRACT_H
#define TENSORALIAS_EXTRACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensoralias/diag.h"
#include "tensoralias/export.h"
#include "tensoralias/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How an operator was declared. */
typedef enum ta_extract_how {
    TA_HOW_DEF,            /* m.def(...) in a TORCH_LIBRARY block */
    TA_HOW_FRAGMENT,       /* m.def(...) in a TORCH_LIBRARY_FRAGMENT block */
    TA_HOW_DEF_FUNCTION,   /* X.def("schema") outside a block (a function given the library) */
    TA_HOW_REGISTER,       /* torch::RegisterOperators().op("ns::op(...) -> ...", ...) */
    TA_HOW_SELECTIVE,      /* TORCH_SELECTIVE_SCHEMA("...") anywhere else */
    TA_HOW_PY_LIBRARY,     /* Library("ns", "DEF").define("op(...) -> ...") */
    TA_HOW_PY_DEFINE,      /* torch.library.define("ns::op", "(...) -> ...") */
    TA_HOW_PY_CUSTOM_OP    /* @torch.library.custom_op("ns::op", ...) (schema= or type hints) */
} ta_extract_how;

/* "def", "fragment", "def-function", "register", "selective",
 * "python-library", "python-define", "custom-op". */
TA_API const char *ta_extract_how_name(ta_extract_how how);

/* Which scanner reads a file, by its name's extension: .cpp .cc .cu .cxx
 * .c++ .cuh .h .hh .hpp .hxx .mm are C++, .py and .pyi are Python. */
typedef enum ta_extract_lang { TA_LANG_NONE = 0, TA_LANG_CPP, TA_LANG_PYTHON } ta_extract_lang;
TA_API ta_extract_lang ta_extract_lang_of(const char *path);

/* One operator declaration. Every string lives as long as the set. */
typedef struct ta_extract_op {
    /* The schema as PyTorch registers it: the pieces joined (name and
     * arguments of torch.library.define), the namespace of the enclosing
     * block or Library applied. NULL when the declaration names the
     * operator only and the schema is inferred from the C++ kernel's
     * signature, which a scanner cannot see (m.def("op", &fn)). */
    const char *schema;
    uint32_t schema_len;
    const char *name;       /* "ns::op.overload" ("op.overload" when ns is unknown) */
    const char *ns;         /* namespace, or NULL when it could not be resolved */
    const char *file;
    uint32_t line, col;     /* of the schema's first byte in the source (1-based) */
    ta_extract_how how;
    bool inferred;          /* built from Python type hints (custom_op without schema=) */
    bool has_kernel;        /* a kernel is registered for it in the scanned sources
                             * (m.impl, TORCH_LIBRARY_IMPL, lib.impl, m.def with a
                             * function, a custom_op body); set by ta_extract_finish */
    const ta_schema *parsed; /* NULL when schema is NULL or does not parse */
} ta_extract_op;

typedef struct ta_extract ta_extract;

typedef struct ta_extract_opts {
    /* Macros the build defines ("TORCH_EXTENSION_NAME=_C", "F(x)=x", "NDEBUG"),
     * as -D does for a compiler: they take part in the preprocessing of
     * every C++ file (after compile_commands.json's, before the file's own).
     * NULL-terminated, or NULL. */
    const char *const *defines;
    /* Walk directories without asking git which files it ignores. */
    bool no_git;
    /* Directories searched for quoted #includes, as -I does (after the
     * includer's own directory). NULL-terminated, or NULL. */
    const char *const *include_dirs;
    /* A compile_commands.json whose -D and -I apply to the files it lists;
     * NULL: the one at the top of a directory walked (or in its build/),
     * if any. */
    const char *compile_commands;
    /* Read no header and no build file from disk (ta_extract_scan of text
     * that must be read alone, as the fuzz targets do). */
    bool no_includes;
} ta_extract_opts;

/* opts may be NULL (no defines, git used when available). TA_ERR_NOMEM
 * (and *out NULL) when memory runs out. */
TA_API ta_status ta_extract_create(const ta_extract_opts *opts, ta_extract **out);
TA_API void ta_extract_destroy(ta_extract *x);

/* Scans len bytes of source text as lang, naming it file in the operators
 * and diagnostics. Appends what it finds; notes what it cannot resolve.
 * TA_OK, TA_ERR_INVALID (lang is NONE), or TA_ERR_NOMEM. */
TA_API ta_status ta_extract_scan(ta_extract *x, const char *file, ta_extract_lang lang,
                                 const char *text, size_t len, ta_diags *diags);

/* Scans the file at path, or every C++ and Python file under a directory.
 * Inside a git work tree the files are those `git ls-files -co
 * --exclude-standard` lists (what git would not ignore); elsewhere, or with
 * opts.no_git or without git, every file under it except hidden
 * directories and build directories (build, _build, build-*, cmake-build*,
 * dist, node_modules, __pycache__). A file given by name is scanned whatever its extension
 * says (C++ unless it ends in .py/.pyi). TA_ERR_IO with a diagnostic when
 * path cannot be read. */
TA_API ta_status ta_extract_path(ta_extract *x, const char *path, ta_diags *diags);

/* After the last scan: matches kernels to operators (has_kernel) and
 * reports what only the whole set shows (an operator defined twice).
 * Calling it again is harmless. */
TA_API ta_status ta_extract_finish(ta_extract *x, ta_diags *diags);

TA_API size_t ta_extract_count(const ta_extract *x);
TA_API const ta_extract_op *ta_extract_get(const ta_extract *x, size_t i);
/* Files read and bytes scanned so far (files skipped by extension not counted). */
TA_API size_t ta_extract_nfiles(const ta_extract *x);
TA_API uint64_t ta_extract_nbytes(const ta_extract *x);

/* Where bytes [off, off + len) of operator i's schema text were written:
 * file, line, column, the source line for a caret and a length that stays
 * within that line. An escape sequence stands for the bytes it produces;
 * the namespace a block supplies maps to the start of the literal. false
 * when i is out of range or the operator has no schema. */
TA_API bool ta_extract_locate(const ta_extract *x, size_t i, uint32_t off, uint32_t len,
                              ta_loc *loc);

/* The diagnostics the scanners and the set report (for SARIF catalogues). */
typedef struct ta_extract_rule {
    const char *id;
    ta_severity severity;
    const char *summary;
} ta_extract_rule;
TA_API const ta_extract_rule *ta_extract_rules(size_t *n);

#ifdef __cplusplus
}
#endif
#endif
