/* testdata.h - helpers the unit tests share: locating and reading test data
 * (decompressed by make under $BUILD/data) and splitting it into lines. */
#ifndef TA_TEST_TESTDATA_H
#define TA_TEST_TESTDATA_H

#include <stddef.h>

/* Reads $BUILD/data/<rel> (BUILD defaults to "build") into a NUL-terminated
 * malloc'd buffer; NULL if it cannot be read. */
char *ta_test_read_data(const char *rel, size_t *len);

/* Splits buf in place at '\n' (a final newline ends the last line rather
 * than starting an empty one). Returns a malloc'd array of line starts;
 * lens[i] gets each length when lens is not NULL (malloc'd too). */
char **ta_test_lines(char *buf, size_t len, size_t *nlines, size_t **lens);

#endif
