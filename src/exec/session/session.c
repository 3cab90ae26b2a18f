/* session.c - a verify session: the configuration kept, the set-up's steps
 * in order, the run and its report (see tensoralias/verify.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "exec/session/session_internal.h"

ta_status session_fail(ta_diags *d, ta_status st, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ta_status r = ta_diag_vemit(d, TA_SEV_ERROR, NULL, rule, fmt, ap);
    va_end(ap);
    return r == TA_OK ? st : r;
}

bool session_has_errors(const ta_verify_session *s, const ta_diags *d)
{
    return ta_diags_count_severity(d, TA_SEV_ERROR) > s->errors0;
}

bool session_uses_aten(const ta_verify_config *c)
{
    for (size_t i = 0; i < c->nkernels; i++)
        if (!strcmp(c->kernels[i], "torch")) return true;
    return false;
}

bool session_uses_torch(const ta_verify_config *c)
{
    return c->ntorch_libraries > 0 || session_uses_aten(c);
}

/* ---- the configuration, copied ------------------------------------------ */

static bool copy_str(ta_arena *a, const char **s)
{
    if (!*s) return true;
    *s = ta_arena_strndup(a, *s, strlen(*s));
    return *s != NULL;
}

static bool copy_list(ta_arena *a, const char *const **list, size_t n)
{
    if (!n) {
        *list = NULL;
        return true;
    }
    const char **v = ta_arena_alloc(a, n * sizeof *v);
    if (!v || !*list) return false;
    for (size_t i = 0; i < n; i++) {
        v[i] = (*list)[i];
        if (!v[i] || !copy_str(a, &v[i])) return false;
    }
    *list = v;
    return true;
}

static bool copy_config(ta_verify_session *s, const ta_verify_config *from)
{
    ta_verify_config *c = &s->c;
    *c = *from;
    ta_arena *a = s->arena;
    return copy_str(a, &c->yaml) && copy_str(a, &c->torch_dir) && copy_str(a, &c->samples) &&
           copy_str(a, &c->baseline) && copy_str(a, &c->data_dir) &&
           copy_list(a, &c->schema_files, c->nschema_files) &&
           copy_list(a, &c->schema_sources, c->nschema_sources) && copy_list(a, &c->kernels, c->nkernels) &&
           copy_list(a, &c->torch_libraries, c->ntorch_libraries) && copy_list(a, &c->ops, c->nops);
}

/* ---- set-up --------------------------------------------------------------- */

/* What the configuration cannot mean, before anything is loaded. */
static ta_status check_config(const ta_verify_config *c, ta_diags *d)
{
    if (c->torch_dir && !session_uses_torch(c))
        return session_fail(d, TA_ERR_INVALID, "verify-config",
                            "--torch needs --kernels torch or --torch-library");
    if (c->nschema_sources && !c->ntorch_libraries)
        return session_fail(d, TA_ERR_INVALID, "verify-config", "--schemas-from needs --torch-library");
    return TA_OK;
}

/* Schemas, devices, kernels, derived operators, samples and baseline. */
static ta_status set_up(ta_verify_session *s, ta_diags *d)
{
    s->opts = s->c.run;
    ta_status st = check_config(&s->c, d);
    if (st == TA_OK && session_uses_torch(&s->c)) st = session_torch_setup(s, d);
    if (st == TA_OK) st = session_load_yaml(s, d);
    if (st == TA_OK && s->c.cuda) st = session_open_cuda(s, d);
    /* autogen's derived operators: schemas now, composed kernels after the libraries. */
    if (st == TA_OK && s->native) st = ta_registry_add_autogen_schemas(s->reg, s->native) == TA_ERR_NOMEM ? TA_ERR_NOMEM : TA_OK;
    if (st == TA_OK) st = session_load_schemas(s, d);
    if (st == TA_OK) st = session_load_kernels(s, d);
    if (st == TA_OK) st = ta_registry_add_autogen_kernels(s->reg, s->c.compose, NULL);
    if (st == TA_OK) st = session_load_samples(s, d);
    /* A process that has mapped libtorch takes a millisecond and more to
     * fork and to end, often more than an operator's cases: batches. */
    if (st == TA_OK && !s->opts.batch) s->opts.batch = session_uses_torch(&s->c) ? TA_VERIFY_BATCH : 1;
    if (st == TA_OK) st = session_load_baseline(s, d);
    return st;
}

ta_status ta_verify_session_create(const ta_verify_config *config, ta_verify_session **out,
                                   ta_diags *diags)
{
    *out = NULL;
    if (!config) return TA_ERR_INVALID;
    ta_verify_session *s = ta_calloc(1, sizeof *s);
    if (!s) return TA_ERR_NOMEM;
    s->errors0 = ta_diags_count_severity(diags, TA_SEV_ERROR);
    ta_status st = ta_arena_create(&s->arena);
    if (st == TA_OK) st = copy_config(s, config) ? TA_OK : TA_ERR_NOMEM;
    if (st == TA_OK) st = ta_registry_create(&s->reg);
    if (st == TA_OK) st = set_up(s, diags);
    if (st != TA_OK) {
        ta_verify_session_destroy(s);
        return st;
    }
    *out = s;
    return TA_OK;
}

void ta_verify_session_destroy(ta_verify_session *s)
{
    if (!s) return;
    ta_verify_report_destroy(s->report);
    ta_verify_baseline_destroy(s->baseline);
    ta_samples_destroy(s->samples);
    ta_registry_destroy(s->reg);
    ta_native_destroy(s->native);
    ta_exec_device_unload(s->devlib);
    ta_arena_destroy(s->arena);
    free(s);
}

/* ---- the run -------------------------------------------------------------- */

/* Why the selection is empty, as an input error: a gate that selected
 * nothing has checked nothing. */
static ta_status nothing_selected(const ta_verify_config *c, ta_diags *d)
{
    if (c->nops)
        return session_fail(d, TA_ERR_INVALID, "verify-config", "no operator matches --ops '%s'%s", c->ops[0],
                            c->nops > 1 ? " (nor the other --ops)" : "");
    return session_fail(d, TA_ERR_INVALID, "verify-config", "no operator has a kernel: nothing to verify%s",
                        c->no_default_kernels && !c->nkernels ? " (--no-default-kernels without --kernels)" : "");
}

/* True when some selected operator had a kernel to run. */
static bool ran_any(const ta_verify_report *rep)
{
    for (size_t i = 0; i < rep->nops; i++)
        if (rep->ops[i].verdict != TA_V_NO_KERNEL) return true;
    return false;
}

/* Runs the selection; what ta_verify says is kept only when it fails. */
static ta_status verify_selected(ta_verify_session *s, const char **sel, size_t nsel, ta_diags *d)
{
    ta_diags *vd;
    ta_status st = ta_diags_create(&vd);
    if (st == TA_OK) st = ta_verify(s->reg, sel, nsel, &s->opts, &s->report, vd);
    if (st != TA_OK && vd) {
        ta_status moved = ta_diags_move(d, vd);
        st = st == TA_OK ? moved : st;
    }
    ta_diags_destroy(vd);
    return st;
}

ta_status ta_verify_session_run(ta_verify_session *s, ta_diags *diags)
{
    if (!s || s->ran) return TA_ERR_INVALID;
    s->ran = true;
    const char **sel = NULL;
    size_t nsel = 0;
    ta_status st = ta_registry_select(s->reg, s->c.ops, s->c.nops, &sel, &nsel);
    if (st == TA_OK && !nsel) st = nothing_selected(&s->c, diags);
    if (st == TA_OK) st = verify_selected(s, sel, nsel, diags);
    free(sel);
    if (st == TA_OK && !ran_any(s->report))
        st = session_fail(diags, TA_ERR_INVALID, "verify-config",
                          "nothing was verified: none of the %zu selected operator%s has a kernel", nsel,
                          nsel == 1 ? "" : "s");
    return st;
}

const ta_verify_report *ta_verify_session_report(const ta_verify_session *s)
{
    return s ? s->report : NULL;
}

const ta_verify_opts *ta_verify_session_opts(const ta_verify_session *s) { return s ? &s->opts : NULL; }

bool ta_verify_session_failed(const ta_verify_session *s)
{
    return s && s->report && ta_verify_report_new_errors(s->report, s->baseline) > 0;
}

/* ---- the report ----------------------------------------------------------- */

/* An aten operator's line in the yaml it came from. */
static bool locate_op(void *ud, const char *op, const char **file, unsigned *line)
{
    const ta_verify_session *s = ud;
    if (!s->native || strncmp(op, "aten::", 6)) return false;
    const ta_native_func *fn = ta_native_find(s->native, op);
    if (!fn || !fn->pos.line) return false;
    *file = s->yaml;
    *line = fn->pos.line;
    return true;
}

ta_status ta_verify_session_write(const ta_verify_session *s, ta_verify_format format, bool verbose,
                                  ta_write_fn write, void *ud)
{
    if (!s || !s->report) return TA_ERR_INVALID;
    ta_verify_write_opts o = {format, verbose, s->baseline, locate_op, (void *)s};
    return ta_verify_report_write(s->report, &o, write, ud);
}
