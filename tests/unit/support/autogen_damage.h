/* autogen_damage.h - a native_functions.yaml with its autogen: lists
 * damaged, so that torchgen's autogen checks report by the hundred. */
#ifndef TA_TEST_AUTOGEN_DAMAGE_H
#define TA_TEST_AUTOGEN_DAMAGE_H

#include <stddef.h>

/* A malloc'd copy of text[0..len) (NUL-terminated, *outlen bytes) in which,
 * of its "  autogen: " lines, every third is dropped, every third (from the
 * second) has "wrong_" put before its first name, and the rest are kept. */
char *ta_test_damage_autogen(const char *text, size_t len, size_t *outlen);

#endif
