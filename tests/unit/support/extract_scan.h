/* extract_scan.h - the extraction tests' set-up: a source text or a folder
 * scanned with given options, its operators looked up, and files written
 * into a scratch folder. Every step asserts its own success. */
#ifndef TA_TEST_EXTRACT_SCAN_H
#define TA_TEST_EXTRACT_SCAN_H

#include <stddef.h>

#include "tensoralias/diag.h"
#include "tensoralias/extract.h"

typedef struct scanned {
    ta_extract *x;
    ta_diags *d;
} scanned;

/* src scanned as the file `file` in language lang, then finished. */
scanned ta_test_scan_text(const ta_extract_opts *o, const char *file, ta_extract_lang lang, const char *src);

/* Every source under dir scanned, then finished. */
scanned ta_test_scan_dir(const ta_extract_opts *o, const char *dir);

void ta_test_scan_done(scanned *s);

/* Operator i (asserted to exist). */
const ta_extract_op *ta_test_scan_op(const scanned *s, size_t i);

/* dir/rel written with text, the folders between made as needed. */
void ta_test_put_file(const char *dir, const char *rel, const char *text);

#endif
