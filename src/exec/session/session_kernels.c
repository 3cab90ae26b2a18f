/* session_kernels.c - the kernel libraries of a run: the reference kernels
 * (CPU, and the CUDA ones inside the device library), the libtorch bridge
 * with its TORCH_LIBRARY extensions, and the configuration's libraries.
 * ATen's own kernels ("torch") come without the reference kernels, which
 * would only stand in for them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/strbuf.h"
#include "exec/session/session_internal.h"
#include "tensoralias/bundled.h"

/* dlopen searches the library path for names without a slash: "./name". */
static const char *local_prefix(const char *path) { return strchr(path, '/') ? "" : "./"; }

static ta_status load_reference(ta_verify_session *s, ta_diags *d)
{
    const ta_verify_config *c = &s->c;
    char path[PATH_MAX + 64];
    if (!c->no_default_kernels && !session_uses_torch(c) &&
        ta_bundled_library(c->data_dir, "libtensoralias_refkernels.so", path, sizeof path) == TA_OK) {
        ta_status st = ta_registry_load_plugin(s->reg, path, d);
        if (st != TA_OK) return st;
    }
    if (!c->no_default_kernels && s->cuda_lib[0]) return ta_registry_load_plugin(s->reg, s->cuda_lib, d);
    return TA_OK;
}

/* The torch libraries, one a line, as the bridge's option "torch.library"
 * wants them. */
static ta_status set_torch_libraries(ta_verify_session *s)
{
    const ta_verify_config *c = &s->c;
    ta_strbuf b;
    ta_strbuf_init(&b);
    for (size_t i = 0; i < c->ntorch_libraries; i++)
        ta_strbuf_printf(&b, "%s%s%s", i ? "\n" : "", local_prefix(c->torch_libraries[i]), c->torch_libraries[i]);
    ta_status st = b.failed ? TA_ERR_NOMEM : ta_registry_set_option(s->reg, "torch.library", b.p ? b.p : "");
    ta_strbuf_free(&b);
    return st;
}

ta_status session_load_kernels(ta_verify_session *s, ta_diags *d)
{
    const ta_verify_config *c = &s->c;
    ta_status st = load_reference(s, d);
    if (st == TA_OK && c->ntorch_libraries) {
        st = set_torch_libraries(s);
        if (st == TA_OK) st = ta_registry_load_plugin(s->reg, s->torch.bridge, d);
    }
    for (size_t i = 0; st == TA_OK && i < c->nkernels; i++) {
        if (!strcmp(c->kernels[i], "torch")) {
            st = ta_registry_load_plugin(s->reg, s->torch.bridge, d);
            continue;
        }
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s%s", local_prefix(c->kernels[i]), c->kernels[i]);
        st = ta_registry_load_plugin(s->reg, path, d);
    }
    /* What the plugins and the schema files broke is an error of the set-up. */
    return st == TA_OK && session_has_errors(s, d) ? TA_ERR_INVALID : st;
}
