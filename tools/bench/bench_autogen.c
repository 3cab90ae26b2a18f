/* bench_autogen.c - time of torchgen's family model over a whole
 * native_functions.yaml (PyTorch main's by default), next to the time of
 * loading it: load (yaml + schemas), then the model (kinds, signatures,
 * autogen derivation with plans, groups). Prints the best of N runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensoralias/native.h"
#include "tensoralias/torchgen.h"

#include "benchlib.h"

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "build/data/corpus/pytorch-main/native_functions.yaml";
    int runs = argc > 2 ? atoi(argv[2]) : 20;
    if (runs < 1) runs = 1;
    double best_load = 1e9, best_model = 1e9, best_derive = 1e9;
    size_t nfuncs = 0, nderived = 0, ngroups = 0, nerrors = 0;
    for (int r = 0; r < runs; r++) {
        ta_diags *d;
        BENCH_OK(ta_diags_create(&d));
        ta_native_file *nf = NULL;
        double t0 = bench_now();
        ta_status st = ta_native_load_path(path, NULL, &nf, d);
        double t1 = bench_now();
        if (st != TA_OK && !nf) {
            fprintf(stderr, "bench_autogen: cannot load %s (%s)\n", path, ta_status_str(st));
            return 1;
        }
        /* the whole model: describe every function, derive, group */
        ta_torchgen *tg = NULL;
        double t2 = bench_now();
        st = ta_torchgen_from_native(nf, &tg, d);
        double t3 = bench_now();
        if (st != TA_OK) {
            fprintf(stderr, "bench_autogen: %s\n", ta_status_str(st));
            return 1;
        }
        /* the derivation alone, on a model without it */
        ta_torchgen *bare;
        BENCH_OK(ta_torchgen_create(&bare));
        ta_torchgen_add_native(bare, nf);
        ta_diags *d2;
        BENCH_OK(ta_diags_create(&d2));
        double t4 = bench_now();
        ta_torchgen_derive(bare, d2);
        double t5 = bench_now();
        if (t1 - t0 < best_load) best_load = t1 - t0;
        if (t3 - t2 < best_model) best_model = t3 - t2;
        if (t5 - t4 < best_derive) best_derive = t5 - t4;
        nfuncs = ta_torchgen_count(tg);
        nderived = ta_torchgen_count_derived(tg);
        ngroups = ta_torchgen_group_count(tg);
        nerrors = ta_diags_count_severity(d2, TA_SEV_ERROR);
        ta_torchgen_destroy(bare);
        ta_torchgen_destroy(tg);
        ta_native_destroy(nf);
        ta_diags_destroy(d2);
        ta_diags_destroy(d);
    }
    printf("file: %s (best of %d runs)\n", path, runs);
    printf("load (yaml + schemas):                 %8.3f ms\n", best_load * 1e3);
    printf("family model (kinds+derive+groups):   %8.3f ms  (%zu functions, %zu derived, %zu groups)\n",
           best_model * 1e3, nfuncs, nderived, ngroups);
    printf("autogen derivation alone:              %8.3f ms  (%zu errors)\n", best_derive * 1e3,
           nerrors);
    printf("model / load:                          %8.2f\n", best_model / best_load);
    return 0;
}
