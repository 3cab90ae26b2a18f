/* check_passes.c - the passes of `tensoralias check` (tensoralias/check.h):
 * as one list over a loaded file, and as the stages of a streaming check. */
#include <string.h>

#include "tensoralias/check.h"
#include "tensoralias/alias.h"
#include "tensoralias/torchgen.h"

size_t ta_check_passes(ta_native_pass *out, size_t cap)
{
    size_t nb, na, n = 0;
    const ta_native_pass *b = ta_native_builtin_passes(&nb);
    const ta_native_pass *a = ta_alias_native_passes(&na);
    for (size_t i = 0; i < nb; i++, n++)
        if (n < cap) out[n] = b[i];
    for (size_t i = 0; i < na; i++, n++)
        if (n < cap) out[n] = a[i];
    if (n < cap) out[n] = ta_torchgen_pass;
    return n + 1;
}

ta_status ta_check_all(const ta_native_file *f, ta_diags *diags)
{
    ta_native_pass passes[TA_CHECK_MAX_PASSES];
    size_t n = ta_check_passes(passes, TA_CHECK_MAX_PASSES);
    if (n > TA_CHECK_MAX_PASSES) return TA_ERR_INVALID;
    return ta_native_check_with(f, passes, n, diags);
}

/* ---- the stages ----------------------------------------------------- */

static ta_status alias_window(void *ctx, const ta_native_file *w, ta_diags *diags)
{
    (void)ctx;
    size_t n;
    const ta_native_pass *p = ta_alias_native_passes(&n);
    return ta_native_check_with(w, p, n, diags);
}

/* The torchgen stage's state: its stream, made on first use, or done when
 * the yaml fitted in one window and the pass ran on it. */
typedef struct tg_stage {
    ta_torchgen_stream *tg;
    bool done;
} tg_stage;

/* torchgen's derivation: every entry added while its window lives. A yaml
 * in one window (PyTorch's own: 2,500 entries) gets the whole-file pass,
 * which reports the same (test_torchgen_stream, test_check_stream) without
 * keeping summaries to rebuild its model from. */
static ta_status tg_window(void *ctx, const ta_native_file *w, ta_diags *diags)
{
    tg_stage *g = ctx;
    if (ta_native_is_whole(w)) {
        g->done = true;
        return ta_torchgen_check_pass(w, diags);
    }
    ta_status st = g->tg ? TA_OK : ta_torchgen_stream_create(w, &g->tg);
    for (size_t i = 0; i < ta_native_count(w) && st == TA_OK; i++)
        st = ta_torchgen_stream_add(g->tg, w, ta_native_get(w, i));
    return st;
}

static ta_status tg_finish(void *ctx, const ta_native_file *w, ta_diags *diags)
{
    tg_stage *g = ctx;
    if (g->done) return TA_OK;
    ta_status st = g->tg ? TA_OK : ta_torchgen_stream_create(w, &g->tg);
    return st == TA_OK ? ta_torchgen_stream_finish(g->tg, w, diags) : st;
}

/* The stages, over g (whose stream the caller destroys). */
static void check_stages(ta_native_stage out[3], tg_stage *g)
{
    out[0] = ta_native_builtin_stage();
    out[1] = (ta_native_stage){"alias", NULL, alias_window, NULL};
    out[2] = (ta_native_stage){ta_torchgen_pass.name, g, tg_window, tg_finish};
}

ta_status ta_check_stream_path(const char *path, const char *tags_path, size_t window,
                               size_t *count, ta_diags *diags)
{
    tg_stage g = {NULL, false};
    ta_native_stage stages[3];
    check_stages(stages, &g);
    ta_status st = ta_native_check_stream_path(path, tags_path, stages, 3, window, count, diags);
    ta_torchgen_stream_destroy(g.tg);
    return st;
}

ta_status ta_check_stream_buffer(const char *text, size_t len, const char *source,
                                 const char *tags_text, size_t tags_len, const char *tags_source,
                                 size_t window, size_t *count, ta_diags *diags)
{
    tg_stage g = {NULL, false};
    ta_native_stage stages[3];
    check_stages(stages, &g);
    ta_status st = ta_native_check_stream_buffer(text, len, source, tags_text, tags_len,
                                                 tags_source, stages, 3, window, count, diags);
    ta_torchgen_stream_destroy(g.tg);
    return st;
}
