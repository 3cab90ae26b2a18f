/* fuzz_native.c - libFuzzer target for the native_functions.yaml loader:
 * any bytes are loaded (with a small tags.yaml), checked, looked up by name,
 * and every field is read. Nothing may crash, leak or read out of bounds. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensoralias/native.h"

static const char tags[] = "- tag: core\n  desc: c\n- tag: pointwise\n  desc: p\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ta_diags *d = ta_diags_create();
    ta_native_file *f = NULL;
    ta_native_load_buffer((const char *)data, size, "fuzz.yaml", tags, sizeof tags - 1,
                          "tags.yaml", &f, d);
    if (f) {
        ta_native_check(f, d);
        volatile size_t sink = 0;
        for (size_t i = 0; i < ta_native_count(f); i++) {
            const ta_native_func *fn = ta_native_get(f, i);
            sink += strlen(fn->func.s) + strlen(fn->name) + strlen(fn->ns);
            char full[512];
            snprintf(full, sizeof full, "%s::%s", fn->ns, fn->name);
            /* every entry is found by its full name (the first of that name) */
            const ta_native_func *found = ta_native_find(f, full);
            bool plain = !strchr(fn->name, ':') && !strchr(fn->ns, ':');
            if (plain && strlen(full) < sizeof full - 1 &&
                (!found || strcmp(found->name, fn->name)))
                abort();
            for (uint32_t k = 0; k < fn->ndispatch; k++)
                sink += strlen(fn->dispatch[k].key.s) + strlen(fn->dispatch[k].kernel.s);
            for (uint32_t k = 0; k < fn->ntags; k++) sink += strlen(fn->tags[k].s);
            for (uint32_t k = 0; k < fn->nautogen; k++) sink += strlen(fn->autogen[k].s);
            for (uint32_t k = 0; k < fn->nufunc_inner_loop; k++)
                sink += strlen(fn->ufunc_inner_loop[k].value.s);
        }
        (void)sink;
    }
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *g = ta_diags_get(d, i);
        /* Positions stay inside the input. */
        if (g->line > size + 1) abort();
        if (g->source_line && strlen(g->source_line) > size) abort();
    }
    ta_native_destroy(f);
    ta_diags_destroy(d);
    return 0;
}
