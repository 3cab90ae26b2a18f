/* version.c - the library's version (tensoralias/version.h). */
#include "tensoralias/version.h"

const char *ta_version(void) { return TA_VERSION_STRING; }

int ta_version_number(void) { return TA_VERSION_NUMBER; }
