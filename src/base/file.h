/* file.h - reading a whole file, for the loaders that take a path. */
#ifndef TA_BASE_FILE_H
#define TA_BASE_FILE_H

#include <stddef.h>

#include "tensoralias/diag.h"

/* Reads path into *buf (malloc'd, NUL-terminated, *len bytes before the
 * NUL). TA_ERR_IO with a diagnostic (rule "io") when it cannot be read or
 * holds more than TA_MAX_INPUT_BYTES (reading stops there). */
ta_status ta_read_file(const char *path, char **buf, size_t *len, ta_diags *diags);

#endif
