/* fuzz_autogen.c - libFuzzer target for torchgen's family model: any bytes
 * are loaded as a native_functions.yaml, then every function is described
 * (kind, view, signature), autogen variants are derived with their plans,
 * and the groups formed. Every derived function must print and, when its
 * text parses, parse back to the same kind; its plan's indices must stay
 * inside the schemas. The streaming check (ta_torchgen_stream_*) must report what
 * the check pass reports, diagnostic for diagnostic. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tensoralias/native.h"
#include "tensoralias/torchgen.h"

static void check_plan(const ta_torchgen *tg, const ta_tg_function *f)
{
    const ta_autogen_plan *p = f->plan;
    if (!p) return;
    const ta_tg_function *callee = ta_torchgen_get(tg, p->callee);
    if (!callee || p->ncallee_args != callee->schema->nargs) abort();
    for (uint32_t j = 0; j < p->ncallee_args; j++)
        if (p->arg_from[j] >= (int32_t)f->schema->nargs) abort();
    for (uint32_t k = 0; k < p->nclone; k++)
        if (p->clone[k] >= callee->schema->nargs) abort();
    for (uint32_t k = 0; k < p->nouts; k++)
        if (p->out_args[k] >= f->schema->nargs) abort();
    for (uint32_t k = 0; k < p->nwritten; k++)
        if (p->written_args[k] >= f->schema->nargs) abort();
    for (uint32_t i = 0; i < p->nrets; i++) {
        const ta_ag_src *r = &p->ret_src[i];
        uint32_t lim = r->kind == TA_AG_CALLEE_RETURN ? callee->schema->nrets
                       : r->kind == TA_AG_CLONED_ARG  ? callee->schema->nargs
                                                      : f->schema->nargs;
        if (r->index >= lim) abort();
    }
}

static bool same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The stream's diagnostics against the pass's. */
static void check_stream(const ta_native_file *f)
{
    ta_diags *want, *got;
    ta_torchgen_stream *s = NULL;
    if (ta_diags_create(&want) != TA_OK || ta_diags_create(&got) != TA_OK ||
        ta_torchgen_check_pass(f, want) != TA_OK ||
        ta_torchgen_stream_create(f, &s) != TA_OK)
        abort();
    for (size_t i = 0; i < ta_native_count(f); i++)
        if (ta_torchgen_stream_add(s, f, ta_native_get(f, i)) != TA_OK) abort();
    if (ta_torchgen_stream_finish(s, f, got) != TA_OK) abort();
    if (ta_diags_count(want) != ta_diags_count(got)) abort();
    for (size_t i = 0; i < ta_diags_count(want); i++) {
        const ta_diag *a = ta_diags_get(want, i), *b = ta_diags_get(got, i);
        if (a->severity != b->severity || a->line != b->line || a->col != b->col ||
            a->length != b->length || !same(a->rule, b->rule) || !same(a->message, b->message) ||
            !same(a->hint, b->hint) || !same(a->source_line, b->source_line))
            abort();
    }
    ta_torchgen_stream_destroy(s);
    ta_diags_destroy(want);
    ta_diags_destroy(got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ta_diags *d;
    if (ta_diags_create(&d) != TA_OK) abort();
    ta_native_file *f = NULL;
    ta_native_load_buffer((const char *)data, size, "fuzz.yaml", NULL, 0, NULL, &f, d);
    if (f) {
        ta_torchgen *tg = NULL;
        if (ta_torchgen_from_native(f, &tg, d) == TA_OK) {
            for (size_t i = 0; i < ta_torchgen_count(tg); i++) {
                const ta_tg_function *fn = ta_torchgen_get(tg, i);
                if (!fn->func || !fn->name || !fn->signature) abort();
                if (!fn->generated) continue;
                ta_arena *a;
                if (ta_arena_create(&a) != TA_OK) abort();
                ta_schema *back = NULL;
                /* a derived name may be a keyword ("for" from "for_"): torchgen
                 * derives it all the same, the schema parser refuses it */
                if (ta_schema_kind_of(fn->schema) != fn->kind) abort();
                if (ta_schema_parse(a, fn->schema->text, fn->schema->text_len, NULL, &back, d) ==
                        TA_OK &&
                    ta_schema_kind_of(back) != fn->kind)
                    abort();
                ta_arena_destroy(a);
                check_plan(tg, fn);
            }
            for (size_t i = 0; i < ta_torchgen_group_count(tg); i++) {
                const ta_tg_group *g = ta_torchgen_group_get(tg, i);
                int32_t m[7] = {g->functional, g->inplace, g->mutable_fn, g->out,
                                g->view, g->view_copy, g->view_inplace};
                for (int k = 0; k < 7; k++)
                    if (m[k] >= (int32_t)ta_torchgen_count(tg)) abort();
            }
        }
        ta_torchgen_destroy(tg);
        ta_native_check_with(f, &ta_torchgen_pass, 1, d);
        check_stream(f);
        ta_native_destroy(f);
    }
    ta_diags_destroy(d);
    return 0;
}
