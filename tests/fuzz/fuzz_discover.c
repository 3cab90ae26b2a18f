/* fuzz_discover.c - what input discovery reads from text it does not
 * control: a kernel's rejection message (read into candidate facts, each
 * then kept as a hint and made true on a model) and a discovery path given
 * with --found (read into hints). Any input is read or refused, and every
 * fact a message gives prints back as a fact that reads again. */
#include <stdlib.h>
#include <string.h>

#include "exec/discover/hints.h"
#include "exec/discover/learn.h"

static const char SCHEMA[] = "t::op(Tensor self, Tensor? weight, Tensor[] lst, int dim, int[] size, bool flag, "
                             "*, Tensor(a!) out) -> Tensor(a!)";

/* A model of one case: tensors of ranks 0 to 3, a list of two, numbers. */
static void fill(dsc_model *m, const ta_decl *d)
{
    memset(m, 0, sizeof *m);
    m->d = d;
    m->nargs = d->nargs;
    static const dsc_kind kinds[] = {DSC_K_TENSOR, DSC_K_TENSOR, DSC_K_LIST, DSC_K_INT, DSC_K_INTS, DSC_K_BOOL,
                                     DSC_K_TENSOR};
    for (int i = 0; i < d->nargs && i < (int)(sizeof kinds / sizeof *kinds); i++) {
        dsc_arg *a = &m->args[i];
        a->kind = kinds[i];
        a->present = true;
        dsc_tensor *t = a->kind == DSC_K_LIST ? &a->items[0] : &a->t;
        t->defined = i != 1;
        t->ndim = i % 4;
        for (int k = 0; k < t->ndim; k++) t->shape[k] = k + 2;
        t->dtype = (DLDataType){kDLFloat, 32, 1};
        t->contig = true;
        if (a->kind == DSC_K_LIST) a->items[1] = a->items[0], a->n = 2;
        if (a->kind == DSC_K_INTS) a->ints[0] = 3, a->n = 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    ta_arena *a;
    if (!text || ta_arena_create(&a) != TA_OK) abort();
    memcpy(text, data, size);
    text[size] = '\0';
    ta_schema *s;
    ta_decl *d;
    dsc_model *m = malloc(sizeof *m);
    dsc_cands *c = malloc(sizeof *c);
    dsc_hints *h = malloc(sizeof *h);
    if (!m || !c || !h || ta_schema_parse(a, SCHEMA, strlen(SCHEMA), NULL, &s, NULL) != TA_OK ||
        ta_decl_build(a, s, &d) != TA_OK)
        abort();
    fill(m, d);
    dsc_learn(text, m, d, c);
    dsc_hints_init(h, d);
    for (int i = 0; i < c->n; i++)
        if (!dsc_hints_push_text(h, c->text[i]) && h->n < DSC_MAX_FACTS) __builtin_trap(); /* a fact reads */
    dsc_hints_apply(h, m);
    if (dsc_hints_parse(h, d, text)) {
        fill(m, d);
        dsc_hints_apply(h, m);
    }
    free(h);
    free(c);
    free(m);
    ta_arena_destroy(a);
    free(text);
    return 0;
}
