/* writer.c - writing a report through a ta_write_fn (see writer.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/writer.h"

int ta_write_file(void *file, const char *bytes, size_t n)
{
    return fwrite(bytes, 1, n, file) == n ? 0 : -1;
}

void ta_writer_fail(ta_writer *w, ta_status st)
{
    if (w->status == TA_OK) w->status = st;
}

void ta_writer_put(ta_writer *w, const char *s, size_t n)
{
    if (w->status == TA_OK && n && w->fn(w->ud, s, n)) w->status = TA_ERR_IO;
}

void ta_writer_puts(ta_writer *w, const char *s) { ta_writer_put(w, s, strlen(s)); }

void ta_writer_printf(ta_writer *w, const char *fmt, ...)
{
    char small[512];
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n >= 0 && (size_t)n < sizeof small) {
        ta_writer_put(w, small, (size_t)n);
    } else if (n >= 0) { /* a long message: once more into a buffer of its size */
        char *big = ta_malloc((size_t)n + 1);
        if (big) {
            vsnprintf(big, (size_t)n + 1, fmt, again);
            ta_writer_put(w, big, (size_t)n);
            free(big);
        } else {
            ta_writer_fail(w, TA_ERR_NOMEM);
        }
    }
    va_end(again);
    va_end(ap);
}

/* jansson's dump callback: a chunk of the document. */
static int dump_chunk(const char *buffer, size_t size, void *data)
{
    ta_writer *w = data;
    ta_writer_put(w, buffer, size);
    return w->status == TA_OK ? 0 : -1;
}

void ta_writer_json(ta_writer *w, const json_t *j, size_t flags)
{
    if (!j) ta_writer_fail(w, TA_ERR_NOMEM);
    else if (w->status == TA_OK && json_dump_callback(j, dump_chunk, w, flags) && w->status == TA_OK)
        w->status = TA_ERR_NOMEM; /* the encoder failed, not the writes */
}
