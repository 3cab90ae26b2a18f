/* bundled.c - where tensoralias's own data and libraries are (see
 * tensoralias/bundled.h). "This library's file" is the object whose code
 * holds this function: libtensoralias.so, or the program linked with the
 * archive (whose name dl_iterate_phdr leaves empty: /proc/self/exe). */
#include <link.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tensoralias/bundled.h"

typedef struct self_search {
    uintptr_t addr;
    char *dir; /* PATH_MAX bytes: the holding file's folder */
    bool found;
} self_search;

static bool holds(const struct dl_phdr_info *info, uintptr_t addr)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && addr >= lo && addr - lo < ph->p_memsz) return true;
    }
    return false;
}

static int find_self(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    self_search *s = data;
    if (!holds(info, s->addr)) return 0;
    if (info->dlpi_name && info->dlpi_name[0]) {
        snprintf(s->dir, PATH_MAX, "%s", info->dlpi_name);
    } else {
        ssize_t n = readlink("/proc/self/exe", s->dir, PATH_MAX - 1);
        if (n <= 0) return 1;
        s->dir[n] = '\0';
    }
    char *slash = strrchr(s->dir, '/');
    if (slash) *slash = '\0';
    s->found = slash != NULL;
    return 1;
}

/* The folder of this library's file, in dir[PATH_MAX]; false when unknown. */
static bool self_dir(char *dir)
{
    self_search s = {(uintptr_t)self_dir, dir, false};
    dl_iterate_phdr(find_self, &s);
    return s.found;
}

/* buf = the first of the formats (each taking a folder and a name, NULL
 * ending the list) that names a readable file. */
static ta_status first_readable(const char *const *formats, const char *dir, const char *name,
                                char *buf, size_t cap)
{
    bool cut = false;
    for (size_t i = 0; formats[i]; i++) {
        int n = snprintf(buf, cap, formats[i], dir, name);
        if (n < 0 || (size_t)n >= cap) cut = true;
        else if (access(buf, R_OK) == 0) return TA_OK;
    }
    if (cap) buf[0] = '\0';
    return cut ? TA_ERR_INVALID : TA_ERR_NOTFOUND;
}

/* Tries each place in turn: the caller's, this library's, the prefix's. */
static ta_status search(const char *data_dir, const char *const *given, const char *const *self,
                        const char *const *prefix, const char *name, char *buf, size_t cap)
{
    if (!buf || !name) return TA_ERR_INVALID;
    ta_status st = TA_ERR_NOTFOUND, r;
    char dir[PATH_MAX];
    if (data_dir && *data_dir && (r = first_readable(given, data_dir, name, buf, cap)) != TA_ERR_NOTFOUND) {
        if (r == TA_OK) return r;
        st = r;
    }
    if (self_dir(dir) && (r = first_readable(self, dir, name, buf, cap)) != TA_ERR_NOTFOUND) {
        if (r == TA_OK) return r;
        st = r;
    }
    r = first_readable(prefix, TA_DATADIR, name, buf, cap);
    return r == TA_ERR_NOTFOUND ? st : r;
}

ta_status ta_bundled_file(const char *data_dir, const char *name, char *buf, size_t cap)
{
    static const char *const given[] = {"%s/%s", NULL};
    static const char *const self[] = {"%s/share/tensoralias/%s", "%s/../share/tensoralias/%s", NULL};
    return search(data_dir, given, self, given, name, buf, cap);
}

ta_status ta_bundled_library(const char *data_dir, const char *name, char *buf, size_t cap)
{
    static const char *const given[] = {"%s/../../lib/%s", "%s/../../%s", NULL};
    static const char *const self[] = {"%s/%s", "%s/../lib/%s", NULL};
    static const char *const prefix[] = {"%s/../../lib/%s", NULL};
    return search(data_dir, given, self, prefix, name, buf, cap);
}
