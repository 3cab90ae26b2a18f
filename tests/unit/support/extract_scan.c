/* extract_scan.c - see extract_scan.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "extract_scan.h"

static scanned scan_begin(const ta_extract_opts *o)
{
    scanned s;
    assert_int_equal(ta_extract_create(o, &s.x), TA_OK);
    assert_int_equal(ta_diags_create(&s.d), TA_OK);
    return s;
}

scanned ta_test_scan_text(const ta_extract_opts *o, const char *file, ta_extract_lang lang, const char *src)
{
    scanned s = scan_begin(o);
    assert_int_equal(ta_extract_scan(s.x, file, lang, src, strlen(src), s.d), TA_OK);
    assert_int_equal(ta_extract_finish(s.x, s.d), TA_OK);
    return s;
}

scanned ta_test_scan_dir(const ta_extract_opts *o, const char *dir)
{
    scanned s = scan_begin(o);
    assert_int_equal(ta_extract_path(s.x, dir, s.d), TA_OK);
    assert_int_equal(ta_extract_finish(s.x, s.d), TA_OK);
    return s;
}

void ta_test_scan_done(scanned *s)
{
    ta_extract_destroy(s->x);
    ta_diags_destroy(s->d);
}

const ta_extract_op *ta_test_scan_op(const scanned *s, size_t i)
{
    const ta_extract_op *p = ta_extract_get(s->x, i);
    assert_non_null(p);
    return p;
}

void ta_test_put_file(const char *dir, const char *rel, const char *text)
{
    char p[512];
    assert_true((size_t)snprintf(p, sizeof p, "%s/%s", dir, rel) < sizeof p);
    for (char *q = p + strlen(dir) + 1; *q; q++)
        if (*q == '/') {
            *q = '\0';
            mkdir(p, 0755);
            *q = '/';
        }
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}
