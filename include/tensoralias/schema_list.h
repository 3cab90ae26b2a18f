/* tensoralias/schema_list.h - a plain list of operator schemas, one a line:
 * what every command's --schemas FILE reads (check, verify, diff,
 * graph-alias, functionalize), and the one reader of it.
 *
 * The simplest way to hand tensoralias a set of operators is a text file
 * with one schema a line:
 *
 *     # my extension's operators
 *     mylib::scale(Tensor(a!) x, float f) -> ()
 *     mylib::gather(Tensor src, Tensor idx) -> Tensor
 *     CONSERVATIVE	mylib::opaque(Tensor x) -> Tensor
 *
 * Blank lines and lines whose first non-blank byte is '#' are skipped, and
 * so are blanks around a schema. A schema may follow how TorchScript's
 * AliasDb treats the operator (c10::AliasAnalysisKind: FROM_SCHEMA,
 * CONSERVATIVE, PURE_FUNCTION or INTERNAL_SPECIAL_CASE) and a tab or spaces,
 * as torch's list of registered operators writes it. Each schema is parsed
 * at its line and column, so a diagnostic about it points into the file; a
 * line that does not parse is reported (rule "schema-syntax", under the
 * whole line as written) and left out of the list. A ta_schema_list owns
 * its text and its schemas in one arena.
 */
#ifndef TENSORALIAS_SCHEMA_LIST_H
#define TENSORALIAS_SCHEMA_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensoralias/diag.h"
#include "tensoralias/export.h"
#include "tensoralias/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ta_schema_list ta_schema_list;

/* Reads text[0..len) (copied), naming it source in diagnostics (NULL:
 * "<string>"). *out gets the list whenever it could be allocated, with the
 * lines that parsed. TA_OK; TA_ERR_PARSE when a line did not parse (see the
 * diagnostics); TA_ERR_NOMEM (*out NULL). */
TA_API ta_status ta_schema_list_load_buffer(const char *text, size_t len, const char *source,
                                            ta_schema_list **out, ta_diags *diags);
/* The same from a file; TA_ERR_IO with a diagnostic (rule "io") when it
 * cannot be read. */
TA_API ta_status ta_schema_list_load_path(const char *path, ta_schema_list **out,
                                          ta_diags *diags);
TA_API void ta_schema_list_destroy(ta_schema_list *l);

/* The schemas that parsed, in file order. */
TA_API size_t ta_schema_list_count(const ta_schema_list *l);
TA_API const ta_schema *ta_schema_list_get(const ta_schema_list *l, size_t i);
TA_API const char *ta_schema_list_source(const ta_schema_list *l);

/* The alias analysis kind line i named ("CONSERVATIVE"), or NULL when it
 * named none (or i is out of range). */
TA_API const char *ta_schema_list_kind(const ta_schema_list *l, size_t i);
/* How many lines held something other than a schema (each reported). */
TA_API size_t ta_schema_list_rejected(const ta_schema_list *l);

/* Where bytes [off, off + len) of schema i were written: the file name,
 * line, column, length and the whole source line (valid while l lives) for
 * a caret. false when i is out of range. */
TA_API bool ta_schema_list_locate(const ta_schema_list *l, size_t i, uint32_t off,
                                  uint32_t len, ta_loc *loc);

#ifdef __cplusplus
}
#endif
#endif
