/* session_schemas.c - where a session's schemas come from: the yaml (the
 * configuration's, the torch's own, or the bundled one), schema files, and
 * the C++ and Python sources of a TORCH_LIBRARY extension; and the CUDA
 * device, opened before any kernel library registers for it. */
#include <stdio.h>
#include <string.h>

#include "exec/session/session_internal.h"
#include "tensoralias/bundled.h"
#include "tensoralias/extract.h"

/* The yaml verified against: the configuration's, none for extension
 * libraries alone (they bring their schemas), the torch's own, or the
 * bundled one. TA_OK with *yaml NULL for none. */
static ta_status choose_yaml(ta_verify_session *s, const char **yaml, ta_diags *d)
{
    static const char bundled[] = "native_functions.yaml";
    const ta_verify_config *c = &s->c;
    *yaml = c->yaml;
    if (c->yaml || c->ntorch_libraries) return TA_OK;
    if (c->torch_dir) {
        *yaml = s->torch.yaml[0] ? s->torch.yaml : NULL;
        if (*yaml) return TA_OK;
        return session_fail(d, TA_ERR_NOTFOUND, "verify",
                            "torch %s (%s) has no native_functions.yaml of its own (torchgen/packaged "
                            "beside it): name one", s->torch.version, c->torch_dir);
    }
    char path[PATH_MAX + 64];
    if (ta_bundled_file(c->data_dir, bundled, path, sizeof path) != TA_OK)
        return session_fail(d, TA_ERR_NOTFOUND, "verify", "the bundled native_functions.yaml is missing");
    *yaml = ta_arena_strndup(s->arena, path, strlen(path));
    return *yaml ? TA_OK : TA_ERR_NOMEM;
}

/* Only the loader's errors are kept: a yaml that yields no function at all
 * is not worth its warnings, and the entries a good one could not read are
 * check's business. */
static ta_status keep_errors(ta_diags *d, const ta_diags *from)
{
    for (size_t i = 0; i < ta_diags_count(from); i++)
        if (ta_diags_get(from, i)->severity == TA_SEV_ERROR && ta_diags_append(d, ta_diags_get(from, i)) != TA_OK)
            return TA_ERR_NOMEM;
    return TA_OK;
}

/* The yaml's schemas become the registry's schema source. A file that
 * holds no native function (not yaml, empty, another kind of document) is
 * an input error: verifying against it would check nothing. */
ta_status session_load_yaml(ta_verify_session *s, ta_diags *d)
{
    ta_status st = choose_yaml(s, &s->yaml, d);
    if (st != TA_OK || !s->yaml) return st;
    ta_diags *ld;
    if (ta_diags_create(&ld) != TA_OK) return TA_ERR_NOMEM;
    st = ta_native_load_path(s->yaml, NULL, &s->native, ld);
    bool bad = st == TA_ERR_IO || st == TA_ERR_NOMEM || !s->native || !ta_native_count(s->native);
    if (bad && st != TA_ERR_NOMEM && (st = keep_errors(d, ld)) == TA_OK)
        st = session_fail(d, TA_ERR_IO, "verify", "%s: %s", s->yaml,
                          s->native ? "no native functions in it (is it a native_functions.yaml?)"
                                    : "cannot load it");
    ta_diags_destroy(ld);
    if (bad) return st == TA_OK ? TA_ERR_IO : st;
    return ta_registry_use_native(s->reg, s->native);
}

ta_status session_open_cuda(ta_verify_session *s, ta_diags *d)
{
    s->opts.dev = NULL;
    ta_diags *ld;
    if (ta_diags_create(&ld) != TA_OK) return TA_ERR_NOMEM;
    ta_status st = ta_bundled_library(s->c.data_dir, "libtensoralias_cuda.so", s->cuda_lib, sizeof s->cuda_lib);
    if (st == TA_OK) st = ta_exec_device_load(s->cuda_lib, &s->opts.dev, &s->devlib, ld);
    else s->cuda_lib[0] = '\0';
    size_t n = ta_diags_count(ld);
    const char *err = n ? ta_diags_get(ld, n - 1)->message : "";
    if (st == TA_ERR_NOMEM) {
        /* nothing to say */
    } else if (st != TA_OK && !strncmp(err, "no CUDA device is available", 27)) {
        st = session_fail(d, TA_ERR_UNSUPPORTED, "verify", "%s", err);
    } else if (st != TA_OK) {
        st = session_fail(d, TA_ERR_UNSUPPORTED, "verify", "no CUDA device is available%s%s",
                          err[0] ? ": " : "", err);
    }
    ta_diags_destroy(ld);
    return st;
}

/* The schemas the sources declare, registered (without kernels) before the
 * bridge, which then verifies the library's kernels against them. */
static ta_status load_source_schemas(ta_verify_session *s, ta_diags *d)
{
    const ta_verify_config *c = &s->c;
    ta_extract *x;
    if (ta_extract_create(NULL, &x) != TA_OK) return TA_ERR_NOMEM;
    ta_status st = TA_OK;
    for (size_t i = 0; st == TA_OK && i < c->nschema_sources; i++) st = ta_extract_path(x, c->schema_sources[i], d);
    if (st == TA_OK) st = ta_extract_finish(x, d);
    if (st == TA_OK) st = ta_registry_set_origin(s->reg, "--schemas-from");
    for (size_t i = 0; st == TA_OK && i < ta_extract_count(x); i++) {
        const ta_extract_op *op = ta_extract_get(x, i);
        const ta_registry_op *known = op->parsed && op->ns ? ta_registry_find(s->reg, op->name) : NULL;
        /* The first declaration of an operator is the one verified against. */
        if (op->parsed && op->ns && (!known || !known->schema))
            ta_register_op(s->reg, op->schema, TA_KEY_CATCHALL, NULL, NULL);
    }
    ta_extract_destroy(x);
    if (st == TA_OK) st = ta_registry_take_diags(s->reg, d);
    ta_registry_set_origin(s->reg, NULL);
    return st;
}

/* The schema files, then the sources; what extraction notes (an unresolved
 * macro) stays in the list, and an error of either ends the set-up. */
ta_status session_load_schemas(ta_verify_session *s, ta_diags *d)
{
    const ta_verify_config *c = &s->c;
    for (size_t i = 0; i < c->nschema_files; i++) {
        ta_status st = ta_registry_load_schemas(s->reg, c->schema_files[i], d);
        if (st != TA_OK) return st;
    }
    if (!c->nschema_sources) return TA_OK;
    ta_status st = load_source_schemas(s, d);
    return st == TA_OK && session_has_errors(s, d) ? TA_ERR_PARSE : st;
}
