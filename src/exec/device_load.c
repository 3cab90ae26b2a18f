/* device_load.c - loading a device backend library (libtensoralias_cuda.so)
 * and checking that it can be used. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "exec/device.h"
#include "tensoralias/exec.h"

const struct ta_device_ops *ta_exec_device_load(const char *path, void **handle, char *err,
                                                size_t errcap)
{
    *handle = NULL;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        if (errcap) snprintf(err, errcap, "%s", dlerror());
        return NULL;
    }
    ta_device_entry_fn entry;
    void *sym = dlsym(h, TA_DEVICE_ENTRY);
    memcpy(&entry, &sym, sizeof entry); /* object to function pointer, as POSIX allows */
    const ta_device_ops *ops = sym ? entry() : NULL;
    if (!ops) {
        if (errcap) snprintf(err, errcap, "%s: no %s entry or it returned no device", path, TA_DEVICE_ENTRY);
        dlclose(h);
        return NULL;
    }
    if (ops->abi_version != TA_DEVICE_ABI_VERSION) {
        if (errcap)
            snprintf(err, errcap, "%s: device ABI version %u, expected %u", path, ops->abi_version,
                     TA_DEVICE_ABI_VERSION);
        dlclose(h);
        return NULL;
    }
    if (ops->available && ops->available(err, errcap) != 0) {
        dlclose(h);
        return NULL;
    }
    *handle = h;
    return ops;
}

void ta_exec_device_unload(void *handle)
{
    if (handle) dlclose(handle);
}
