/* tensoralias/export.h - the one macro that marks the public API.
 *
 * The library is built with -fvisibility=hidden: a function is exported only
 * when its declaration in a public header carries TA_API, as libgit2 marks
 * its API with GIT_EXTERN. Everything else stays inside the .so.
 */
#ifndef TENSORALIAS_EXPORT_H
#define TENSORALIAS_EXPORT_H

#if defined(_WIN32)
#define TA_API __declspec(dllexport)
#elif defined(__GNUC__)
#define TA_API __attribute__((visibility("default")))
#else
#define TA_API
#endif

#endif
