/* device_load.c - loading a device backend library (libtensoralias_cuda.so)
 * and checking, in a child process, that it can be used. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tensoralias/device.h"
#include "exec/runtime/exec_internal.h"

/* ops->available() in a child; its message comes back through a pipe. */
static int probe_available(const ta_device_ops *ops, char *err, size_t errcap)
{
    int p[2];
    if (pipe(p) != 0) return ops->available(err, errcap);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return ops->available(err, errcap);
    }
    if (pid == 0) {
        char msg[512] = "";
        close(p[0]);
        int rc = ops->available(msg, sizeof msg);
        if (rc != 0) {
            ssize_t w = write(p[1], msg, strlen(msg));
            (void)w;
        }
        ta_child_exit(rc != 0);
    }
    close(p[1]);
    char msg[512];
    size_t n = 0;
    ssize_t r;
    while (n < sizeof msg - 1 && (r = read(p[0], msg + n, sizeof msg - 1 - n)) > 0) n += (size_t)r;
    msg[n] = '\0';
    close(p[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    if (errcap) snprintf(err, errcap, "%s", n ? msg : "the device library's availability check failed");
    return -1;
}

/* The device table a library exports, checked; NULL (with the reason in
 * err) when there is none or it is of another ABI version. */
static const ta_device_ops *device_table(void *h, const char *path, char *err, size_t errcap)
{
    ta_device_entry_fn entry;
    void *sym = dlsym(h, TA_DEVICE_ENTRY);
    memcpy(&entry, &sym, sizeof entry); /* object to function pointer, as POSIX allows */
    const ta_device_ops *ops = sym ? entry() : NULL;
    if (!ops) {
        snprintf(err, errcap, "%s: no %s entry or it returned no device", path, TA_DEVICE_ENTRY);
        return NULL;
    }
    if (ops->abi_version != TA_DEVICE_ABI_VERSION) {
        snprintf(err, errcap, "%s: device ABI version %u, expected %u", path, ops->abi_version,
                 TA_DEVICE_ABI_VERSION);
        return NULL;
    }
    return ops;
}

ta_status ta_exec_device_load(const char *path, const struct ta_device_ops **out, void **handle,
                              ta_diags *diags)
{
    *handle = NULL;
    char err[512] = "";
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const ta_device_ops *ops = NULL;
    if (!h)
        snprintf(err, sizeof err, "%s", dlerror());
    else if ((ops = device_table(h, path, err, sizeof err)) && ops->available &&
             probe_available(ops, err, sizeof err) != 0)
        ops = NULL;
    *out = ops;
    if (ops) {
        *handle = h;
        return TA_OK;
    }
    if (h) dlclose(h);
    ta_loc at = {.file = path};
    ta_diag_error(diags, &at, "device", "%s", err); /* TA_ERR_IO or _UNSUPPORTED either way */
    return h ? TA_ERR_UNSUPPORTED : TA_ERR_IO;
}

void ta_exec_device_unload(void *handle)
{
    if (handle) dlclose(handle);
}
