/* writer.h - a report being written through the caller's ta_write_fn
 * (tensoralias/report.h): text pieces, printf and jansson documents. The
 * first failure sticks: later writes are skipped and ta_writer_status says
 * what went wrong. Not public. */
#ifndef TA_BASE_WRITER_H
#define TA_BASE_WRITER_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "tensoralias/diag.h"
#include "tensoralias/report.h"

typedef struct ta_writer {
    ta_write_fn fn;
    void *ud;
    ta_status status; /* TA_OK until a write fails (TA_ERR_IO) or memory runs out */
} ta_writer;

static inline ta_writer ta_writer_to(ta_write_fn fn, void *ud) { return (ta_writer){fn, ud, TA_OK}; }

void ta_writer_put(ta_writer *w, const char *s, size_t n);
void ta_writer_puts(ta_writer *w, const char *s);
void ta_writer_printf(ta_writer *w, const char *fmt, ...) TA_PRINTF(2, 3);
/* j as json_dumpf would write it with these flags (NULL j: out of memory). */
void ta_writer_json(ta_writer *w, const json_t *j, size_t flags);
/* Marks the report failed (TA_ERR_NOMEM: a piece could not be built). */
void ta_writer_fail(ta_writer *w, ta_status st);

#endif
