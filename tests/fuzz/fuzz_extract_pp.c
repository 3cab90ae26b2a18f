/* fuzz_extract_pp.c - libFuzzer target for the C++ preprocessor of the
 * extraction: the input's lines up to the first NUL byte are -D macros
 * (as the command line gives them), the rest is a C++ file read with no
 * header from disk. Any input preprocesses and scans without a crash, a
 * leak, a hang past the expansion bounds, or a position outside the file. */
#include "extract_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    if (!nul) {
        check_scan_with(data, size, TA_LANG_CPP, NULL);
        return 0;
    }
    size_t dlen = (size_t)(nul - data);
    char *defs = malloc(dlen + 1);
    const char **list = malloc((dlen + 2) * sizeof *list);
    CHECK(defs && list);
    memcpy(defs, data, dlen);
    defs[dlen] = '\0';
    size_t n = 0;
    for (char *p = defs, *e; p; p = e ? e + 1 : NULL) {
        if ((e = strchr(p, '\n'))) *e = '\0';
        if (*p) list[n++] = p;
    }
    list[n] = NULL;
    check_scan_with(nul + 1, size - dlen - 1, TA_LANG_CPP, list);
    free(list);
    free(defs);
    return 0;
}
