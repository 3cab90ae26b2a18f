/* autogen_damage.c - see autogen_damage.h. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "autogen_damage.h"

char *ta_test_damage_autogen(const char *text, size_t len, size_t *outlen)
{
    char *out = malloc(len * 2 + 1);
    if (!out) return NULL;
    size_t o = 0, k = 0;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - text) + 1 : len;
        bool ag = end - i > 11 && memcmp(text + i, "  autogen: ", 11) == 0;
        if (ag && k % 3 == 0) {
            /* dropped */
        } else if (ag && k % 3 == 1) {
            memcpy(out + o, text + i, 11);
            o += 11;
            memcpy(out + o, "wrong_", 6);
            o += 6;
            memcpy(out + o, text + i + 11, end - i - 11);
            o += end - i - 11;
        } else {
            memcpy(out + o, text + i, end - i);
            o += end - i;
        }
        k += ag;
        i = end;
    }
    out[o] = '\0';
    *outlen = o;
    return out;
}

