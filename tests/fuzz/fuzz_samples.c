/* fuzz_samples.c - samples files (JSON) and the cases built from them: any
 * input loads or is refused with a diagnostic, and building every sample of
 * mylib::f against a schema with every kind of argument (shared storages,
 * generated values, lists of every kind) never crashes; a refused sample
 * says why. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "exec/synth/samples.h"

static const char SCHEMA[] =
    "mylib::f(Tensor self, Tensor? other, int[] size, int dim, Scalar alpha, float eps, bool flag, "
    "str mode, ScalarType? dtype, Tensor[] list, Tensor?[] indices, float[] scales, bool[3] mask, "
    "MemoryFormat? memory_format=None, Generator? generator=None, Device? device=None, *, "
    "Tensor(a!) out, Tensor(b!) out2) -> (Tensor(a!), Tensor(b!))";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ta_diags *d;
    if (ta_diags_create(&d) != TA_OK) abort();
    ta_samples *sm = NULL;
    if (ta_samples_load_buffer((const char *)data, size, "fuzz", &sm, d) == TA_OK) {
        ta_arena *a;
        if (ta_arena_create(&a) != TA_OK) abort();
        ta_schema *s;
        ta_decl *decl;
        if (ta_schema_parse(a, SCHEMA, strlen(SCHEMA), NULL, &s, NULL) == TA_OK &&
            ta_decl_build(a, s, &decl) == TA_OK) {
            ta_exec *x;
            if (ta_exec_create(NULL, &x) != TA_OK) abort();
            size_t n = ta_samples_count(sm, "mylib::f");
            for (size_t k = 0; k < n && k < 16; k++) {
                ta_case c;
                ta_exec_reset(x);
                ta_status st = ta_samples_build(sm, "mylib::f", k, x, s, decl, &c);
                if (st == TA_ERR_INVALID && !c.note[0]) __builtin_trap(); /* a refusal says why */
                char buf[512];
                ta_case_describe(&c, decl, buf, sizeof buf);
            }
            ta_exec_destroy(x);
        }
        ta_arena_destroy(a);
        ta_samples_destroy(sm);
    }
    ta_diags_destroy(d);
    return 0;
}
