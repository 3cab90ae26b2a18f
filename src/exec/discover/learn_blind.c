/* learn_blind.c - guesses, for a message none of the readings understood
 * (a check without words, or words no rule knows): each tensor with one
 * dimension more or less, with another dtype, contiguous, not empty; an
 * absent optional tensor given; sizes of two tensors made equal; last,
 * ranks up to four away. The search
 * keeps a guess only when the kernel then fails at a later check (or
 * accepts the case). */
#include <stdio.h>

#include "exec/discover/learn_internal.h"

/* A rank `from` to `to` away (1 to 1 first; 2 to 4 after every other
 * guess): a check that names only its line ("STD_TORCH_CHECK(input.dim()
 * == 4)" in a stable-ABI library) says nothing until the rank is right, so
 * a rank two away is never reached one step at a time; tried last, the far
 * ones leave the near guesses the calls they had. */
static void guess_rank(learner *L, int arg, const dsc_tensor *t, int from, int to)
{
    char ref[80], atom[96];
    learn_ref(L, arg, ref, sizeof ref);
    snprintf(atom, sizeof atom, "%s.dim()", ref);
    for (int d = from; d <= to; d++) {
        if (t->ndim + d <= 5) learn_addf(L, atom, "%s.dim() == %d", ref, t->ndim + d);
        if (t->ndim - d >= 0) learn_addf(L, atom, "%s.dim() == %d", ref, t->ndim - d);
    }
}

static void guess_form(learner *L, int arg, const dsc_tensor *t)
{
    static const char *const dtypes[] = {"kLong", "kFloat", "kInt", "kDouble", NULL};
    char ref[80], atom[96];
    learn_ref(L, arg, ref, sizeof ref);
    snprintf(atom, sizeof atom, "%s.is_contiguous()", ref);
    if (!t->contig) learn_addf(L, atom, "%s.is_contiguous()", ref);
    snprintf(atom, sizeof atom, "%s.numel()", ref);
    learn_addf(L, atom, "%s.numel() > 0", ref);
    snprintf(atom, sizeof atom, "%s.dtype()", ref);
    for (int i = 0; dtypes[i]; i++) learn_addf(L, atom, "%s.dtype() == %s", ref, dtypes[i]);
}

/* Sizes of tensor j made tensor i's: at the same dimension (same_dim), or
 * at any other. */
static void guess_ties(learner *L, int i, int j, bool same_dim)
{
    const dsc_tensor *x = dsc_model_tensor_c(L->m, i, -1), *y = dsc_model_tensor_c(L->m, j, -1);
    if (i == j || !x || !y || !x->defined || !y->defined) return;
    for (int k = 0; k < x->ndim && k < 4; k++)
        for (int l = 0; l < y->ndim && l < 4; l++) {
            if (x->shape[k] == y->shape[l] || (k == l) != same_dim) continue;
            char atom[96];
            snprintf(atom, sizeof atom, "%s.size(%d)", L->d->args[j].name, l);
            learn_addf(L, atom, "%s.size(%d) == %s.size(%d)", L->d->args[j].name, l, L->d->args[i].name, k);
        }
}

static bool is_named(const learner *L, int i)
{
    for (int k = 0; k < L->nnamed; k++)
        if (L->named[k] == i) return true;
    return false;
}

/* Guesses in order: the named tensors' ranks, their sizes tied to others'
 * at the same dimension; then every tensor's rank, same-dimension ties,
 * contiguity, emptiness, dtype; an absent optional tensor given; ties
 * across dimensions; ranks further away. */
void learn_blind(learner *L)
{
    if (L->out->n) return; /* something was understood */
    int n = L->m->nargs;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            const dsc_tensor *t = dsc_model_tensor_c(L->m, i, L->m->args[i].kind == DSC_K_LIST ? 0 : -1);
            if (!t || !t->defined || is_named(L, i) != (pass == 0)) continue;
            guess_rank(L, i, t, 1, 1);
            for (int j = 0; j < n; j++) guess_ties(L, j, i, true);
        }
    for (int i = 0; i < n; i++) {
        const dsc_tensor *t = dsc_model_tensor_c(L->m, i, L->m->args[i].kind == DSC_K_LIST ? 0 : -1);
        if (t && t->defined) guess_form(L, i, t);
    }
    for (int i = 0; i < n; i++) {
        const dsc_tensor *t = dsc_model_tensor_c(L->m, i, -1);
        char atom[96];
        if (!t || t->defined || !L->d->args[i].optional) continue;
        snprintf(atom, sizeof atom, "%s.defined()", L->d->args[i].name);
        learn_addf(L, atom, "%s.defined()", L->d->args[i].name);
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) guess_ties(L, j, i, false);
    for (int i = 0; i < n; i++) {
        const dsc_tensor *t = dsc_model_tensor_c(L->m, i, L->m->args[i].kind == DSC_K_LIST ? 0 : -1);
        if (t && t->defined) guess_rank(L, i, t, 2, 4);
    }
}
