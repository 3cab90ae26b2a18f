/* file.h - reading a whole file: the one reader of the library, the
 * extractor and the command. */
#ifndef TA_BASE_FILE_H
#define TA_BASE_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "tensoralias/diag.h"

/* What a reader accepts. */
typedef struct ta_file_rules {
    size_t max_bytes;  /* a longer file is EFBIG (reading stops just past it); 0: no limit */
    bool dash_stdin;   /* "-" is standard input */
    bool regular_only; /* anything but a regular file is EISDIR (a directory) or EINVAL */
} ta_file_rules;

/* Reads the whole file at path into *buf, NUL-terminated, *len bytes before
 * the NUL. *buf holds *cap bytes (NULL and 0 for none): a buffer left by an
 * earlier read is reused and grown (ta_realloc, so `make fault` can fail it);
 * free() it when done. Returns 0 or an errno value: the open or read error,
 * ENOMEM, EFBIG or EISDIR / EINVAL as the rules say; *buf and *cap stay
 * valid either way. */
int ta_file_read(const char *path, const ta_file_rules *rules, char **buf, size_t *cap, size_t *len);

/* The loaders' reader: path into *buf (malloc'd, NUL-terminated, *len bytes
 * before the NUL). TA_ERR_IO with a diagnostic (rule "io") when it cannot be
 * read or holds more than TA_MAX_INPUT_BYTES; TA_ERR_NOMEM. */
ta_status ta_read_file(const char *path, char **buf, size_t *len, ta_diags *diags);

#endif
