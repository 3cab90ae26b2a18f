/* learn_prior.c - the order of the candidates a message offers for many
 * tensors alike. A check that names no argument ("expected scalar type Int
 * but found Float" from an accessor, "TensorAccessor expected 1 dims but
 * tensor has 2") offers the same demand for every tensor that could be the
 * one checked, in schema order; a kernel with a dozen tensor arguments
 * (FBGEMM's table-batched embeddings) then spends its calls on grad_output
 * and weights before it reaches D_offsets. The argument's name says which
 * is likelier: an integer dtype or a 1-D rank is what a name of a count,
 * an index or an offset holds (indices, D_offsets, hash_size_cumsum,
 * lengths, b_t_map, placements), a floating dtype what the others hold.
 * When the message names no tensor, the candidates that fit their names
 * are moved before the others (stably: among equals the order stays);
 * nothing is added or dropped, so every candidate is still tried. */
#include <stdbool.h>
#include <string.h>

#include "exec/discover/learn_internal.h"

/* Words in an argument's name that say it holds whole numbers used as
 * indices, offsets or counts. */
static bool index_named(const char *name, size_t len)
{
    static const char *const words[] = {"offset", "indic", "index", "idx", "cumsum", "length", "placement",
                                        "_map", "count", "location", "perm", "segment", "ids", "rows_per",
                                        "lengths", "bucket", "sizes", NULL};
    char buf[96];
    if (len >= sizeof buf) len = sizeof buf - 1;
    for (size_t i = 0; i < len; i++) buf[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
    buf[len] = '\0';
    for (int i = 0; words[i]; i++)
        if (strstr(buf, words[i])) return true;
    return false;
}

/* The tensor of the argument named name[0..len) (a list's first item), or NULL. */
static const dsc_tensor *tensor_named(const learner *L, const char *name, size_t len)
{
    for (int i = 0; i < L->d->nargs; i++) {
        if (strlen(L->d->args[i].name) != len || memcmp(L->d->args[i].name, name, len)) continue;
        const dsc_arg *a = &L->m->args[i];
        return a->kind == DSC_K_TENSOR ? &a->t : a->kind == DSC_K_LIST && a->n ? &a->items[0] : NULL;
    }
    return NULL;
}

/* Whether candidate text ("cond @ atom") is about a tensor the demand fits
 * by its name: for a dtype, one whose dtype now goes against its name (a
 * float D_offsets, an integer grad_output); for one dimension, one whose
 * name says indices or offsets. 1 it does, 0 it does not or nothing is said. */
static int fit(const learner *L, const char *text)
{
    const char *at = strstr(text, " @ ");
    if (!at) return 0;
    const char *atom = at + 3;
    size_t nlen = strcspn(atom, ".[");
    bool idx = index_named(atom, nlen);
    const char *dot = atom + nlen;
    if (*dot == '[') dot = strchr(dot, '.');
    if (!dot) return 0;
    if (!strcmp(dot, ".dtype()")) {
        const dsc_tensor *t = tensor_named(L, atom, nlen);
        if (!t || !t->defined) return 0;
        bool integral = t->dtype.code == kDLInt || t->dtype.code == kDLUInt;
        return integral != idx;
    }
    if (!strcmp(dot, ".dim()")) return strstr(text, ".dim() == 1 @") && idx;
    return 0;
}

void learn_prior(learner *L)
{
    dsc_cands *o = L->out;
    int score[DSC_MAX_CANDS] = {0};
    bool any = false;
    for (int k = 0; k < L->nnamed; k++)
        if (learn_is_tensor(L, L->named[k])) return; /* the message says which */
    for (int i = 0; i < o->n; i++) {
        score[i] = o->informed[i] ? fit(L, o->text[i]) : 0;
        any |= score[i] != 0;
    }
    if (!any) return;
    /* Insertion sort, stable, by score descending, among the informed
     * candidates (the guesses, added later, are not moved). */
    for (int i = 1; i < o->n; i++) {
        if (!o->informed[i]) continue;
        int j = i;
        while (j > 0 && o->informed[j - 1] && score[j - 1] < score[j]) {
            char tmp[DSC_CAND_TEXT];
            memcpy(tmp, o->text[j], DSC_CAND_TEXT);
            memcpy(o->text[j], o->text[j - 1], DSC_CAND_TEXT);
            memcpy(o->text[j - 1], tmp, DSC_CAND_TEXT);
            int s = score[j];
            score[j] = score[j - 1];
            score[j - 1] = s;
            j--;
        }
    }
}
