/* plugin.c - see plugin.h. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "plugin.h"
#include "testdata.h"

ta_plugin_register_fn ta_test_plugin_entry(const char *name, void **handle)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", ta_test_build_dir(), name);
    *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!*handle) {
        fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
        return NULL;
    }
    void *sym = dlsym(*handle, TA_PLUGIN_ENTRY);
    if (!sym) {
        fprintf(stderr, "%s has no %s\n", path, TA_PLUGIN_ENTRY);
        return NULL;
    }
    ta_plugin_register_fn entry;
    memcpy(&entry, &sym, sizeof entry); /* object to function pointer, as POSIX allows */
    return entry;
}
