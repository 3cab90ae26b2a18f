/* verify_torch.h - which libtorch bridge `verify` loads, and for which torch.
 *
 * Without --torch: the bridge built with the command against Debian's
 * libtorch-dev. With --torch DIR: the bridge built for the torch in DIR
 * (tools/torch-config.sh, bundled as share/tensoralias/torch-bridge/, says
 * what that takes): the one `make TORCH=DIR` prebuilt beside the command,
 * else the one cached in $XDG_CACHE_HOME/tensoralias/torch-bridge/KEY (KEY:
 * the torch's version and C++ ABI), built there on first use; DIR's libtorch
 * is loaded first, so the bridge and every extension bind to it. */
#ifndef TA_VERIFY_TORCH_H
#define TA_VERIFY_TORCH_H

#include <limits.h>

typedef struct ta_torch_setup {
    char bridge[PATH_MAX + 64]; /* the bridge library to load */
    char version[128];          /* the torch's version ("" without --torch) */
    char yaml[PATH_MAX];        /* that torch's own native_functions.yaml, or "" */
} ta_torch_setup;

/* Fills out for the torch in dir (NULL: Debian's) and loads that torch's
 * libtorch; messages go to standard error. Returns -1 when ready, else the
 * exit status to end with. */
int ta_verify_torch_setup(const char *dir, ta_torch_setup *out);

#endif
