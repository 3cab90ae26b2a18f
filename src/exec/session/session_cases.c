/* session_cases.c - what a run's cases come from besides synthesis, and
 * what it compares its findings with: the samples file (or, for ATen's own
 * kernels, PyTorch's OpInfo samples bundled with tensoralias) and the
 * baseline. */
#include <stdio.h>
#include <string.h>

#include "exec/session/session_internal.h"
#include "tensoralias/bundled.h"

/* ATen's own kernels come with PyTorch's OpInfo samples
 * (tools/torch/export_opinfo_samples.py): inputs its kernels accept. A
 * sample they reject is a rejected case there, not a finding: the corpus
 * was made with torch 1.13.1 and the yaml may be another version's. */
static bool wants_opinfo_samples(const ta_verify_config *c)
{
    return !c->samples && !c->no_default_samples && session_uses_aten(c);
}

ta_status session_load_samples(ta_verify_session *s, ta_diags *d)
{
    bool opinfo = wants_opinfo_samples(&s->c);
    char bundled[PATH_MAX + 64];
    const char *path = s->c.samples;
    if (opinfo) {
        path = ta_bundled_file(s->c.data_dir, "opinfo-samples.json", bundled, sizeof bundled) == TA_OK ? bundled : NULL;
        if (!path && ta_diag_warning(d, NULL, "verify", "the bundled opinfo-samples.json is missing; "
                                                       "synthesized cases only") != TA_OK)
            return TA_ERR_NOMEM;
    }
    ta_status st = path ? ta_samples_load(path, &s->samples, d) : TA_OK;
    if (st == TA_OK && session_has_errors(s, d)) st = TA_ERR_PARSE;
    /* A file written for this run names only operators and arguments that
     * exist; the OpInfo corpus may be another version's. */
    if (st == TA_OK && s->samples && !opinfo) st = ta_samples_check(s->samples, s->reg, path, d);
    if (st != TA_OK) return st;
    ta_samples_set_strict(s->samples, !opinfo);
    s->opts.samples = s->samples;
    return TA_OK;
}

/* A baseline that cannot be read says why in one line of its own. */
ta_status session_load_baseline(ta_verify_session *s, ta_diags *d)
{
    if (!s->c.baseline) return TA_OK;
    ta_diags *ld;
    if (ta_diags_create(&ld) != TA_OK) return TA_ERR_NOMEM;
    ta_status st = ta_verify_baseline_load(s->c.baseline, &s->baseline, ld);
    size_t n = ta_diags_count(ld);
    if (st != TA_OK && st != TA_ERR_NOMEM && n) st = session_fail(d, st, "verify", "%s", ta_diags_get(ld, n - 1)->message);
    ta_diags_destroy(ld);
    return st;
}
