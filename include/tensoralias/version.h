/* tensoralias/version.h - which tensoralias this is.
 *
 * The macros say which headers a program was compiled against; ta_version
 * says which library it runs with. The shared library's SONAME carries the
 * major version (libtensoralias.so.0): a program runs with any library of
 * its major version at least as new as its headers.
 */
#ifndef TENSORALIAS_VERSION_H
#define TENSORALIAS_VERSION_H

#include "tensoralias/export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TA_VERSION_MAJOR 0
#define TA_VERSION_MINOR 1
#define TA_VERSION_PATCH 0
#define TA_VERSION_STRING "0.1.0"
/* MAJOR * 10000 + MINOR * 100 + PATCH, for comparisons. */
#define TA_VERSION_NUMBER (TA_VERSION_MAJOR * 10000 + TA_VERSION_MINOR * 100 + TA_VERSION_PATCH)

/* The library's TA_VERSION_STRING and TA_VERSION_NUMBER. */
TA_API const char *ta_version(void);
TA_API int ta_version_number(void);

#ifdef __cplusplus
}
#endif
#endif
