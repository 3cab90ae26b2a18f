/* testdata.h - helpers the unit tests share: locating and reading test data
 * (decompressed by make under $BUILD/data, or checked in under tests/data),
 * splitting it into lines, and reading JSON-lines files into rows. */
#ifndef TA_TEST_TESTDATA_H
#define TA_TEST_TESTDATA_H

#include <stddef.h>

#include <jansson.h>

#include "tensoralias/native.h"

/* The build directory under test: $BUILD, or "build" when unset or empty. */
const char *ta_test_build_dir(void);

/* Writes "$BUILD/data/<rel>" into buf (cap bytes) and returns buf. */
char *ta_test_data_path(char *buf, size_t cap, const char *rel);

/* Writes text into a new temporary file made from the mkstemp template
 * path (which becomes its name); the caller unlinks it. Returns path, or
 * NULL (and a message on stderr) when it cannot be written. */
char *ta_test_temp_file(char *path, const char *text);

/* Reads a whole file (any path) into a NUL-terminated malloc'd buffer; its
 * length goes to *len when len is not NULL. NULL (and a message on stderr)
 * if it cannot be read. */
char *ta_test_read_file(const char *path, size_t *len);

/* Calls fn(path, ctx) for each file of dir whose name ends in suffix (""
 * for every one; names starting with '.' are skipped), in readdir order.
 * Returns how many; 0 (and a message on stderr) when dir cannot be opened. */
size_t ta_test_each_file(const char *dir, const char *suffix,
                         void (*fn)(const char *path, void *ctx), void *ctx);

/* ta_test_read_file of $BUILD/data/<rel>. */
char *ta_test_read_data(const char *rel, size_t *len);

/* Splits buf in place at '\n' (a final newline ends the last line rather
 * than starting an empty one). Returns a malloc'd array of line starts;
 * lens[i] gets each length when lens is not NULL (malloc'd too). */
char **ta_test_lines(char *buf, size_t len, size_t *nlines, size_t **lens);

/* Reads $BUILD/data/<rel>, one JSON value a line, into a malloc'd array of
 * *n rows (free with ta_test_free_jsonl). NULL (and a message on stderr)
 * if the file cannot be read or a line is not JSON. */
json_t **ta_test_read_jsonl(const char *rel, size_t *n);
void ta_test_free_jsonl(json_t **rows, size_t n);

/* Loads a bundled PyTorch corpus ("pytorch-1.13.1", "pytorch-main"): its
 * native_functions.yaml (decompressed under $BUILD/data) with its tags.yaml
 * (checked in under tests/data). */
ta_status ta_test_load_corpus(const char *version, ta_native_file **out, ta_diags *d);

#endif
