/* learn_words.c - what a message says in templates, words and numbers
 * (learn.h): c10's and ATen's messages by their templates, a named
 * argument's rank, size, dtype, contiguity or presence in words, and the
 * value expected beside the value got. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/discover/learn_internal.h"

/* ---- helpers -------------------------------------------------------------- */

/* Calls fn for every tensor of the case (list items as x[i], once per list)
 * in argument order, the message's named ones first. */
typedef void (*tensor_fn)(learner *L, int arg, const dsc_tensor *t, void *ud);

static void each_tensor(learner *L, tensor_fn fn, void *ud)
{
    bool done[TA_CASE_MAX_ARGS] = {false};
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < (pass ? L->m->nargs : L->nnamed); k++) {
            int i = pass ? k : L->named[k];
            if (done[i] || !learn_is_tensor(L, i)) continue;
            done[i] = true;
            const dsc_arg *a = &L->m->args[i];
            if (a->kind == DSC_K_TENSOR) fn(L, i, &a->t, ud);
            else if (a->n > 0) fn(L, i, &a->items[0], ud);
        }
}

/* Calls fn for the named tensors, or every tensor when none is named. */
static void named_or_all(learner *L, tensor_fn fn, void *ud)
{
    bool any = false;
    for (int k = 0; k < L->nnamed; k++) any |= learn_is_tensor(L, L->named[k]);
    if (!any) {
        each_tensor(L, fn, ud);
        return;
    }
    for (int k = 0; k < L->nnamed; k++) {
        int i = L->named[k];
        if (!learn_is_tensor(L, i)) continue;
        const dsc_arg *a = &L->m->args[i];
        if (a->kind == DSC_K_TENSOR) fn(L, i, &a->t, ud);
        else if (a->n > 0) fn(L, i, &a->items[0], ud);
    }
}

static int arg_of_word(const learner *L, const match_caps *c, int w)
{
    return learn_arg_named(L, c->word[w], c->wlen[w]);
}

static bool word_dtype(const match_caps *c, int w, DLDataType *dt)
{
    size_t len = c->wlen[w];
    const char *s = c->word[w];
    /* CPUFloatType, CPULongType */
    if (len > 7 && !memcmp(s, "CPU", 3) && !memcmp(s + len - 4, "Type", 4)) s += 3, len -= 7;
    return dsc_dtype_by_name(s, len, dt);
}

/* ---- templates -------------------------------------------------------------- */

typedef struct rank_need {
    int64_t have, need; /* a tensor of rank have (-1: any) needs need */
    bool at_least;
} rank_need;

static void add_rank(learner *L, int arg, const dsc_tensor *t, void *ud)
{
    const rank_need *r = ud;
    char ref[80];
    if (r->have >= 0 && t->ndim != r->have) return;
    learn_ref(L, arg, ref, sizeof ref);
    char atom[96];
    snprintf(atom, sizeof atom, "%s.dim()", ref);
    learn_addf(L, atom, "%s.dim() %s %lld", ref, r->at_least ? ">=" : "==", (long long)r->need);
}

static void dtype_of_found(learner *L, int arg, const dsc_tensor *t, void *ud)
{
    const DLDataType *want = ud; /* [0] found, [1] wanted */
    char ref[80], atom[96];
    if (!ta_dtype_eq(t->dtype, want[0])) return;
    learn_ref(L, arg, ref, sizeof ref);
    snprintf(atom, sizeof atom, "%s.dtype()", ref);
    learn_addf(L, atom, "%s.dtype() == %s", ref, dsc_dtype_spelling(want[1]));
}

static void numel_one(learner *L, int arg, const dsc_tensor *t, void *ud)
{
    char ref[80], atom[96];
    if (dsc_tensor_numel(t) != *(const int64_t *)ud) return;
    learn_ref(L, arg, ref, sizeof ref);
    snprintf(atom, sizeof atom, "%s.numel()", ref);
    learn_addf(L, atom, "%s.numel() == 1", ref);
}

/* Whether a name says its tensor holds one number (learning_rate_tensor,
 * a scalar_ argument): what .item() is called on. */
static bool scalar_named(const char *name)
{
    size_t n = strlen(name);
    return strstr(name, "scalar") || (n > 7 && !strcmp(name + n - 7, "_tensor"));
}

/* "a Tensor with 7 elements cannot be converted to Scalar": a tensor of
 * that many made of one, those whose name says they hold one number first
 * (a kernel's many tensors of one size are told apart by nothing else). */
static void scalar_tensors(learner *L, int64_t numel)
{
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < L->m->nargs; i++) {
            const dsc_tensor *t = dsc_model_tensor_c(L->m, i, -1);
            if (t && t->defined && scalar_named(L->d->args[i].name) == (pass == 0)) numel_one(L, i, t, &numel);
        }
}

/* An integer tensor's values below bound (index within range), as the
 * size of a tensor that has it there when one does, and not negative. */
typedef struct index_bound {
    int64_t bound, dim;
} index_bound;

static void index_in_range(learner *L, int arg, const dsc_tensor *t, void *ud)
{
    const index_bound *b = ud;
    char ref[80], atom[96], other[80];
    bool integral = t->dtype.code == kDLInt || t->dtype.code == kDLUInt;
    if (!integral) return;
    learn_ref(L, arg, ref, sizeof ref);
    snprintf(atom, sizeof atom, "%s.max()", ref);
    for (int j = 0; j < L->m->nargs; j++) {
        const dsc_tensor *u = dsc_model_tensor_c(L->m, j, -1);
        if (!u || j == arg || !u->defined) continue;
        for (int k = 0; k < u->ndim; k++)
            if ((b->dim < 0 || k == b->dim) && (b->bound < 0 ? u->shape[k] > 0 : u->shape[k] == b->bound))
                learn_addf(L, atom, "%s.max() < %s.size(%d)", ref, learn_ref(L, j, other, sizeof other), k);
    }
    if (b->bound > 0) learn_addf(L, atom, "%s.max() < %lld", ref, (long long)b->bound);
    snprintf(atom, sizeof atom, "%s.min()", ref);
    learn_addf(L, atom, "%s.min() >= 0", ref);
}

/* Broadcasting: a size of one tensor made another's at the same place from the end. */
static void broadcast_pair(learner *L, int64_t sa, int64_t sb)
{
    for (int i = 0; i < L->m->nargs; i++)
        for (int j = 0; j < L->m->nargs; j++) {
            const dsc_tensor *x = dsc_model_tensor_c(L->m, i, -1), *y = dsc_model_tensor_c(L->m, j, -1);
            if (i == j || !x || !y || !x->defined || !y->defined) continue;
            for (int k = 1; k <= x->ndim && k <= y->ndim; k++) {
                if (x->shape[x->ndim - k] != sa || y->shape[y->ndim - k] != sb) continue;
                char atom[96];
                snprintf(atom, sizeof atom, "%s.size(%d)", L->d->args[j].name, y->ndim - k);
                learn_addf(L, atom, "%s.size(%d) == %s.size(%d)", L->d->args[j].name, y->ndim - k,
                           L->d->args[i].name, x->ndim - k);
            }
        }
}

/* "not implemented for 'Float'": a tensor of that dtype made another, of
 * the other kind first (an integer kernel given floats wants integers). */
static void other_dtypes(learner *L, DLDataType have)
{
    static const DLDataType ints[] = {{kDLInt, 64, 1}, {kDLInt, 32, 1}, {kDLUInt, 8, 1}, {TA_DL_BOOL, 8, 1}};
    static const DLDataType floats[] = {{kDLFloat, 32, 1}, {kDLFloat, 64, 1}, {kDLFloat, 16, 1}, {kDLBfloat, 16, 1}};
    bool floating = have.code == kDLFloat || have.code == kDLBfloat;
    for (int pass = 0; pass < 2; pass++) {
        const DLDataType *order = (pass == 0) == floating ? ints : floats;
        for (size_t k = 0; k < 4; k++) {
            if (ta_dtype_eq(order[k], have)) continue;
            DLDataType want[2] = {have, order[k]};
            each_tensor(L, dtype_of_found, want);
        }
    }
}

static void same_dtypes(learner *L)
{
    const dsc_tensor *first = NULL;
    int fa = -1;
    for (int i = 0; i < L->m->nargs && !first; i++) {
        const dsc_tensor *t = dsc_model_tensor_c(L->m, i, -1);
        if (t && t->defined) first = t, fa = i;
    }
    for (int i = 0; first && i < L->m->nargs; i++) {
        const dsc_tensor *t = dsc_model_tensor_c(L->m, i, -1);
        if (i == fa || !t || !t->defined || ta_dtype_eq(t->dtype, first->dtype)) continue;
        char atom[96];
        snprintf(atom, sizeof atom, "%s.dtype()", L->d->args[i].name);
        learn_addf(L, atom, "%s.dtype() == %s.dtype()", L->d->args[i].name, L->d->args[fa].name);
    }
}

/* "shape '[1, 2, 1, 1]' is invalid for input of size 3": a view of a
 * tensor of 3 elements; one of that many made as many as the shape holds. */
static void view_numel(learner *L, int64_t have)
{
    const char *p = strstr(L->msg, "shape '[");
    int64_t want = 1;
    bool any = false;
    for (p = p ? p + 8 : NULL; p && *p && *p != ']'; p++) {
        if (*p == '-') return; /* an inferred size: any multiple */
        if (isdigit((unsigned char)*p)) {
            want *= strtoll(p, (char **)&p, 10);
            any = true;
            p--;
        }
    }
    if (!any) return;
    for (int i = 0; i < L->m->nargs; i++) {
        const dsc_tensor *t = dsc_model_tensor_c(L->m, i, -1);
        char atom[96];
        if (!t || !t->defined || dsc_tensor_numel(t) != have) continue;
        snprintf(atom, sizeof atom, "%s.numel()", L->d->args[i].name);
        learn_addf(L, atom, "%s.numel() == %lld", L->d->args[i].name, (long long)want);
    }
}

/* A size of some tensor too small for an index at dimension dim. */
static void size_above(learner *L, int arg, const dsc_tensor *t, void *ud)
{
    const int64_t *v = ud; /* index, dim */
    char ref[80], atom[96];
    if (t->ndim <= v[1] || t->shape[v[1]] > v[0]) return;
    learn_ref(L, arg, ref, sizeof ref);
    snprintf(atom, sizeof atom, "%s.size(%lld)", ref, (long long)v[1]);
    learn_addf(L, atom, "%s.size(%lld) > %lld", ref, (long long)v[1], (long long)v[0]);
}

void learn_templates(learner *L)
{
    match_caps c;
    const char *m = L->msg;
    if (learn_match(m, "Dimension out of range (expected to be in range of [%d, %d], but got %d)", &c)) {
        int64_t got = c.num[2];
        rank_need r = {c.num[1] + 1, got >= 0 ? got + 1 : -got, true};
        each_tensor(L, add_rank, &r);
        if (r.have == 1) { /* a 0-dim tensor is indexed as if it had one dimension */
            r.have = 0;
            each_tensor(L, add_rank, &r);
        }
    }
    if (learn_match(m, "Dimension specified as %d but tensor has no dimensions", &c)) {
        rank_need r = {0, c.num[0] >= 0 ? c.num[0] + 1 : -c.num[0], true};
        each_tensor(L, add_rank, &r);
    }
    if (learn_match(m, "TensorAccessor expected %d dims but tensor has %d", &c)) {
        rank_need r = {c.num[1], c.num[0], false};
        each_tensor(L, add_rank, &r);
    }
    if (learn_match(m, "Expected %d-dimensional tensor, but got %d-dimensional tensor for argument #%d %w", &c)) {
        int a = arg_of_word(L, &c, 0);
        rank_need r = {-1, c.num[0], false};
        if (learn_is_tensor(L, a)) add_rank(L, a, dsc_model_tensor_c(L->m, a, L->m->args[a].kind == DSC_K_LIST ? 0 : -1), &r);
    }
    DLDataType dt[2];
    if ((learn_match(m, "argument #%d %w to have scalar type %w", &c) ||
         learn_match(m, "argument #%d %w to have one of the following scalar types: %w", &c)) &&
        word_dtype(&c, 1, &dt[1])) {
        int a = arg_of_word(L, &c, 0);
        char atom[96];
        if (learn_is_tensor(L, a)) {
            snprintf(atom, sizeof atom, "%s.dtype()", L->d->args[a].name);
            learn_addf(L, atom, "%s.dtype() == %s", L->d->args[a].name, dsc_dtype_spelling(dt[1]));
        }
    }
    if ((learn_match(m, "expected scalar type %w but found %w", &c) ||
         learn_match(m, "Expected object of scalar type %w but got scalar type %w", &c) ||
         learn_match(m, "expected dtype %w for %w but got dtype %w", &c)) &&
        c.nword >= 2) {
        int got = c.nword == 3 ? 2 : 1;
        if (word_dtype(&c, 0, &dt[1]) && word_dtype(&c, got, &dt[0])) named_or_all(L, dtype_of_found, dt);
    }
    if (learn_match(m, "\"%w\" not implemented for %w", &c) && word_dtype(&c, 1, &dt[0])) other_dtypes(L, dt[0]);
    if (learn_match(m, "scalar types (%*) are not one and the same", &c) || strstr(m, "same dtype") ||
        strstr(m, "same type"))
        same_dtypes(L);
    if (learn_match(m, "The size of tensor a (%d) must match the size of tensor b (%d)", &c)) {
        broadcast_pair(L, c.num[0], c.num[1]);
        broadcast_pair(L, c.num[1], c.num[0]);
    }
    if (learn_match(m, "a Tensor with %d elements cannot be converted to Scalar", &c)) scalar_tensors(L, c.num[0]);
    if (learn_match(m, "shape '[%*]' is invalid for input of size %d", &c)) view_numel(L, c.num[0]);
    if (learn_match(m, "index %d is out of bounds for dimension %d with size %d", &c)) {
        index_bound b = {c.num[2], c.num[1]};
        each_tensor(L, index_in_range, &b);
    }
    if (strstr(m, "index out of range in self") || strstr(m, "out of range") || strstr(m, "out of bounds")) {
        index_bound b = {-1, 0};
        each_tensor(L, index_in_range, &b);
    }
    if (learn_match(m, "index %d out of range for tensor of size [%*] at dimension %d", &c)) {
        int64_t v[2] = {c.num[0], c.num[1]};
        each_tensor(L, size_above, v);
    }
}

/* ---- words ------------------------------------------------------------------ */

/* A number the message mentions as a rank ("3D", "3-D", "3d", "3-dimensional",
 * "3 dimensions", "3 dims"), and whether it is what the kernel got (it
 * follows "got", "found", "has", "but") rather than what it wants. */
typedef struct mention {
    int64_t v;
    bool got, at_least;
} mention;

static bool got_before(const char *start, const char *p)
{
    static const char *const words[] = {"got", "found", "has ", "but ", "instead", "is a", NULL};
    const char *from = p - 24 > start ? p - 24 : start;
    for (int i = 0; words[i]; i++) {
        size_t n = strlen(words[i]);
        for (const char *q = from; q + n <= p; q++)
            if (!strncasecmp(q, words[i], n)) return true;
    }
    return false;
}

static int rank_mentions(const char *msg, mention *out, int cap)
{
    static const char *const units[] = {"D ", "D\n", "D,", "D)", "D.", "-D", "d ", "d,", "d)", "d.", "-dimensional",
                                        " dimensions", " dimension(s)", " dims", "-dim", " dim ", NULL};
    int n = 0;
    for (const char *p = msg; *p && n < cap; p++) {
        if (!isdigit((unsigned char)*p) || (p > msg && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))) continue;
        char *e;
        long v = strtol(p, &e, 10);
        if (v > 8) continue;
        bool unit = false;
        for (int i = 0; units[i] && !unit; i++) unit = !strncmp(e, units[i], strlen(units[i]));
        if (!unit && (*e == 'D' || *e == 'd') && !e[1]) unit = true;
        if (!unit) continue;
        const char *from = p - 12 > msg ? p - 12 : msg;
        bool at_least = false;
        for (const char *q = from; q < p && !at_least; q++) at_least = !strncmp(q, "least", 5) || !strncmp(q, ">=", 2);
        out[n++] = (mention){v, got_before(msg, p), at_least};
        p = e - 1;
    }
    return n;
}

static void wanted_ranks(learner *L, int arg, const dsc_tensor *t, void *ud)
{
    const mention *ms = ud;
    for (int i = 0; ms[i].v >= 0; i++) {
        if (ms[i].got || ms[i].v == t->ndim) continue;
        rank_need r = {-1, ms[i].v, ms[i].at_least};
        add_rank(L, arg, t, &r);
    }
}

/* A size a shape spells as a word ("[K, channels, pooled_height,
 * pooled_width]"): an int argument of that name is the size; another word
 * first (K, N, B: the count of boxes, of a batch) is a count the tensors
 * share, each other tensor's first size. */
static void size_word(learner *L, int arg, int dim, const char *w, size_t len)
{
    const char *nm = L->d->args[arg].name;
    char atom[96];
    snprintf(atom, sizeof atom, "%s.size(%d)", nm, dim);
    int a = learn_arg_named(L, w, len);
    if (a >= 0 && a != arg && L->m->args[a].kind == DSC_K_INT) {
        learn_addf(L, atom, "%s.size(%d) == %s", nm, dim, L->d->args[a].name);
        return;
    }
    if (a >= 0 || dim != 0) return;
    for (int j = 0; j < L->m->nargs; j++) {
        const dsc_tensor *u = dsc_model_tensor_c(L->m, j, -1);
        if (j != arg && u && u->defined && u->ndim > 0)
            learn_addf(L, atom, "%s.size(0) == %s.size(0)", nm, L->d->args[j].name);
    }
}

/* The end of one size in a shape's brackets: the ',' or closing bracket at
 * its own depth (a size may be an expression with brackets of its own). */
static const char *size_term_end(const char *q)
{
    int depth = 0;
    for (; *q; q++) {
        if (*q == '(' || *q == '[') depth++;
        else if ((*q == ')' || *q == ']') && depth-- == 0) return q;
        else if (*q == ',' && depth == 0) return q;
    }
    return q;
}

/* "[num_rows(weight), 2]": a size of another tensor, its rows (its first
 * size) or its columns (its last). */
static void size_of_other(learner *L, int arg, int dim, const char *w, size_t len, const char *o, size_t olen)
{
    int b = learn_arg_named(L, o, olen);
    const dsc_tensor *u = b >= 0 && b != arg ? dsc_model_tensor_c(L->m, b, -1) : NULL;
    if (!u || !u->defined || !u->ndim) return;
    char word[64], atom[96];
    snprintf(word, sizeof word, "%.*s", (int)len, w);
    int k = strstr(word, "row") ? 0 : strstr(word, "col") ? -1 : -2;
    if (k == -2) return;
    snprintf(atom, sizeof atom, "%s.size(%d)", L->d->args[arg].name, dim);
    learn_addf(L, atom, "%s.size(%d) == %s.size(%d)", L->d->args[arg].name, dim, L->d->args[b].name, k);
}

/* "Tensor[K, 5]", "shape [N, 4]", "of shape (B, 5)": a rank, and the sizes
 * spelled as numbers or words (size_word), or as expressions of the
 * schema's ints ("[K, channels / (pooled_height * pooled_width), ...]":
 * the condition kept when every name in it is an argument). */
static void bracket_shapes(learner *L)
{
    for (const char *p = L->msg; *p; p++) {
        if (*p != '[' && *p != '(') continue;
        const char *before = p - 10 > L->msg ? p - 10 : L->msg;
        bool shape = false;
        for (const char *q = before; q < p && !shape; q++)
            shape = !strncasecmp(q, "Tensor", 6) || !strncasecmp(q, "shape", 5);
        /* x.shape[1] indexes: only "Tensor[" itself is a shape right after a word */
        if (p > L->msg && (isalnum((unsigned char)p[-1]) || p[-1] == '_') &&
            (p - L->msg < 6 || strncmp(p - 6, "Tensor", 6)))
            shape = false;
        if (!shape || got_before(L->msg, p)) continue;
        int64_t sizes[TA_CASE_MAX_DIM];
        const char *word[TA_CASE_MAX_DIM];
        size_t wlen[TA_CASE_MAX_DIM], oflen[TA_CASE_MAX_DIM];
        const char *of[TA_CASE_MAX_DIM];
        bool expr[TA_CASE_MAX_DIM];
        int n = 0;
        const char *q = p + 1;
        bool ok = true;
        while (*q && *q != ']' && *q != ')' && ok && n < TA_CASE_MAX_DIM) {
            while (*q == ' ' || *q == ',') q++;
            const char *start = q;
            expr[n] = false;
            of[n] = NULL;
            if (isdigit((unsigned char)*q)) {
                sizes[n] = strtoll(q, (char **)&q, 10);
            } else if (isalpha((unsigned char)*q) || *q == '_') {
                word[n] = q;
                while (isalnum((unsigned char)*q) || *q == '_' || *q == '*') q++;
                wlen[n] = (size_t)(q - word[n]);
                sizes[n] = -1;
                const char *o = q + 1, *e = o;
                while (*q == '(' && (isalnum((unsigned char)*e) || *e == '_')) e++;
                if (*q == '(' && e > o && *e == ')') { /* num_rows(weight): a size of another tensor */
                    of[n] = o, oflen[n] = (size_t)(e - o);
                    q = e + 1;
                }
            } else {
                ok = false;
            }
            while (*q == ' ') q++;
            if (ok && *q != ',' && *q != ']' && *q != ')') { /* more follows: an expression */
                const char *end = size_term_end(start);
                bool named = false;
                for (const char *e = start; e < end; e++) named |= isalpha((unsigned char)*e) != 0;
                ok = named && *end;
                word[n] = start, wlen[n] = (size_t)(end - start), sizes[n] = -1, expr[n] = true;
                q = end;
            }
            n += ok;
        }
        if (!ok || !n || (*q != ']' && *q != ')')) continue;
        for (int k = 0; k < L->nnamed; k++) {
            int a = L->named[k];
            if (!learn_is_tensor(L, a) || L->m->args[a].kind == DSC_K_LIST) continue;
            const char *nm = L->d->args[a].name;
            char atom[96];
            snprintf(atom, sizeof atom, "%s.dim()", nm);
            learn_addf(L, atom, "%s.dim() == %d", nm, n);
            for (int i = 0; i < n; i++) {
                if (of[i]) {
                    size_of_other(L, a, i, word[i], wlen[i], of[i], oflen[i]);
                    continue;
                }
                if (expr[i]) {
                    snprintf(atom, sizeof atom, "%s.size(%d)", nm, i);
                    learn_addf(L, atom, "%s.size(%d) == (%.*s)", nm, i, (int)wlen[i], word[i]);
                    continue;
                }
                if (sizes[i] < 0) {
                    size_word(L, a, i, word[i], wlen[i]);
                    continue;
                }
                snprintf(atom, sizeof atom, "%s.size(%d)", nm, i);
                learn_addf(L, atom, "%s.size(%d) == %lld", nm, i, (long long)sizes[i]);
            }
        }
    }
}

static void sizes_in_dims(learner *L)
{
    match_caps c;
    int64_t size = -1, dim = 0;
    if (learn_match(L->msg, "%d elements in dimension %d", &c)) size = c.num[0], dim = c.num[1];
    else if (learn_match(L->msg, "size %d in the last dimension", &c) || learn_match(L->msg, "size %d in last dimension", &c))
        size = c.num[0], dim = -1;
    else if (learn_match(L->msg, "a last dimension of size %d", &c)) size = c.num[0], dim = -1;
    else if (learn_match(L->msg, "size %d at dimension %d", &c) || learn_match(L->msg, "size %d in dimension %d", &c))
        size = c.num[0], dim = c.num[1];
    if (size < 0) return;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < (pass ? L->m->nargs : L->nnamed); i++) {
            int a = pass ? i : L->named[i];
            if (!learn_is_tensor(L, a) || L->m->args[a].kind == DSC_K_LIST || (pass && L->nnamed)) continue;
            char atom[96];
            snprintf(atom, sizeof atom, "%s.size(%lld)", L->d->args[a].name, (long long)dim);
            learn_addf(L, atom, "%s.size(%lld) == %lld", L->d->args[a].name, (long long)dim, (long long)size);
        }
}

static void want_contiguous(learner *L, int arg, const dsc_tensor *t, void *ud)
{
    (void)ud;
    char ref[80], atom[96];
    if (t->contig) return;
    learn_ref(L, arg, ref, sizeof ref);
    snprintf(atom, sizeof atom, "%s.is_contiguous()", ref);
    learn_addf(L, atom, "%s.is_contiguous()", ref);
}

static void want_nonempty(learner *L, int arg, const dsc_tensor *t, void *ud)
{
    (void)ud;
    char ref[80], atom[96];
    if (dsc_tensor_numel(t) != 0) return;
    learn_ref(L, arg, ref, sizeof ref);
    snprintf(atom, sizeof atom, "%s.numel()", ref);
    learn_addf(L, atom, "%s.numel() > 0", ref);
}

/* dtype names in the message that are not what a tensor got. */
static void wanted_dtypes(learner *L)
{
    static const char *const names[] = {"int64", "long", "Long", "int32", "Int", "float32", "Float", "float64",
                                        "double", "Double", "float16", "Half", "bfloat16", "BFloat16", "bool",
                                        "Bool", "uint8", "Byte", "I64", "I32", NULL};
    for (int i = 0; names[i]; i++) {
        size_t n = strlen(names[i]);
        for (const char *p = strstr(L->msg, names[i]); p; p = strstr(p + n, names[i])) {
            bool word = (p == L->msg || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[n]);
            DLDataType dt;
            if (!word || got_before(L->msg, p) || !dsc_dtype_by_name(names[i], n, &dt)) continue;
            for (int k = 0; k < L->nnamed; k++) {
                int a = L->named[k];
                const dsc_tensor *t = dsc_model_tensor_c(L->m, a, L->m->args[a].kind == DSC_K_LIST ? 0 : -1);
                char ref[80], atom[96];
                if (!t || ta_dtype_eq(t->dtype, dt)) continue;
                learn_ref(L, a, ref, sizeof ref);
                snprintf(atom, sizeof atom, "%s.dtype()", ref);
                learn_addf(L, atom, "%s.dtype() == %s", ref, dsc_dtype_spelling(dt));
            }
        }
    }
}

/* Optional arguments that are None, given: named ones, then the others. */
static void want_defined(learner *L)
{
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < (pass ? L->m->nargs : L->nnamed); i++) {
            int a = pass ? i : L->named[i];
            if (!L->d->args[a].optional || L->m->args[a].kind == DSC_K_OTHER) continue;
            char atom[96];
            snprintf(atom, sizeof atom, "%s.defined()", L->d->args[a].name);
            learn_addf(L, atom, "%s.defined()", L->d->args[a].name);
        }
}

/* "batch": a named tensor's first size, the others' first. */
static void batch_sizes(learner *L)
{
    for (int k = 0; k < L->nnamed; k++) {
        int i = L->named[k];
        const dsc_tensor *t = dsc_model_tensor_c(L->m, i, -1);
        if (!t || !t->defined || !t->ndim) continue;
        for (int j = 0; j < L->m->nargs; j++) {
            const dsc_tensor *u = dsc_model_tensor_c(L->m, j, -1);
            char atom[96];
            if (j == i || !u || !u->defined || !u->ndim || u->shape[0] == t->shape[0]) continue;
            snprintf(atom, sizeof atom, "%s.size(0)", L->d->args[i].name);
            learn_addf(L, atom, "%s.size(0) == %s.size(0)", L->d->args[i].name, L->d->args[j].name);
        }
    }
}

/* A bound of "must be in [0, batch_size)": a number, or an int argument's name. */
static bool bound_text(learner *L, const char *w, size_t len, char *out, size_t cap)
{
    if (len && (isdigit((unsigned char)w[0]) || (w[0] == '-' && len > 1))) {
        snprintf(out, cap, "%.*s", (int)len, w);
        return true;
    }
    int a = learn_arg_named(L, w, len);
    if (a < 0 || L->m->args[a].kind != DSC_K_INT) return false;
    snprintf(out, cap, "%s", L->d->args[a].name);
    return true;
}

/* "rois batch index must be in [0, batch_size)", "values in [0, 5]": the
 * named tensors' values within the range (whole numbers); an argument
 * bound made larger than their largest value. */
static void value_range(learner *L)
{
    const char *p = strstr(L->msg, " in [");
    if (!p) return;
    p += 5;
    const char *lo = p;
    while (*p == '-' || isalnum((unsigned char)*p) || *p == '_') p++;
    size_t llen = (size_t)(p - lo);
    if (*p != ',') return;
    for (p++; *p == ' '; p++) {}
    const char *hi = p;
    while (*p == '-' || isalnum((unsigned char)*p) || *p == '_') p++;
    size_t hlen = (size_t)(p - hi);
    bool open = *p == ')';
    char lt[64], ht[64];
    if ((!open && *p != ']') || !bound_text(L, lo, llen, lt, sizeof lt) || !bound_text(L, hi, hlen, ht, sizeof ht))
        return;
    for (int k = 0; k < L->nnamed; k++) {
        int a = L->named[k];
        if (L->m->args[a].kind != DSC_K_TENSOR) continue;
        const char *nm = L->d->args[a].name;
        char atom[96];
        snprintf(atom, sizeof atom, "%s.max()", nm);
        learn_addf(L, atom, "%s.max() %s %s", nm, open ? "<" : "<=", ht);
        snprintf(atom, sizeof atom, "%s.min()", nm);
        learn_addf(L, atom, "%s.min() >= %s", nm, lt);
        if (!isdigit((unsigned char)ht[0])) learn_addf(L, ht, "%s %s %s.max()", ht, open ? ">" : ">=", nm);
    }
}

/* "argmax should have the same shape as grad": the first named tensor's
 * rank, then each of its sizes, the second's. */
static void same_shape(learner *L)
{
    if (!strstr(L->msg, "same shape") && !strstr(L->msg, "same size")) return;
    int x = -1, y = -1;
    for (int k = 0; k < L->nnamed && y < 0; k++) {
        int a = L->named[k];
        if (L->m->args[a].kind != DSC_K_TENSOR) continue;
        if (x < 0) x = a;
        else y = a;
    }
    if (y < 0) return;
    const dsc_tensor *u = &L->m->args[y].t;
    const char *xn = L->d->args[x].name, *yn = L->d->args[y].name;
    char atom[96];
    snprintf(atom, sizeof atom, "%s.dim()", xn);
    learn_addf(L, atom, "%s.dim() == %s.dim()", xn, yn);
    for (int i = 0; u->defined && i < u->ndim && i < L->m->args[x].t.ndim; i++) {
        snprintf(atom, sizeof atom, "%s.size(%d)", xn, i);
        learn_addf(L, atom, "%s.size(%d) == %s.size(%d)", xn, i, yn, i);
    }
}

void learn_words(learner *L)
{
    value_range(L);
    same_shape(L);
    if (strstr(L->msg, "batch")) batch_sizes(L);
    mention ms[16];
    int n = rank_mentions(L->msg, ms, 15);
    ms[n].v = -1;
    if (n) named_or_all(L, wanted_ranks, ms);
    bracket_shapes(L);
    sizes_in_dims(L);
    if (strstr(L->msg, "contiguous")) named_or_all(L, want_contiguous, NULL);
    if (strstr(L->msg, "empty") || strstr(L->msg, "numel() > 0")) named_or_all(L, want_nonempty, NULL);
    wanted_dtypes(L);
    if (strstr(L->msg, "defined") || strstr(L->msg, "None") || strstr(L->msg, "Either") ||
        strstr(L->msg, "must be provided") || strstr(L->msg, "must be given"))
        want_defined(L);
}

/* ---- numbers ------------------------------------------------------------------ */

/* A number or a list of them ("[2, 3]", "(2, 3)") at p: its values. */
static int read_values(const char *p, int64_t *v, int cap, const char **end)
{
    char close = *p == '[' ? ']' : *p == '(' ? ')' : 0;
    const char *q = close ? p + 1 : p;
    int n = 0;
    for (;;) {
        while (close && (*q == ' ' || *q == ',')) q++;
        if (!(isdigit((unsigned char)*q) || (*q == '-' && isdigit((unsigned char)q[1]))) || n == cap) break;
        v[n++] = strtoll(q, (char **)&q, 10);
        if (!close) break;
    }
    if (close && *q != close) return 0;
    *end = close ? q + 1 : q;
    return n;
}

/* Atoms of the case that have value got, set to want: sizes, ranks,
 * element counts and list lengths of tensors (named first), int arguments. */
static void echo(learner *L, int64_t want, int64_t got)
{
    if (want == got || want < 0 || want > 4096) return;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < (pass ? L->m->nargs : L->nnamed); i++) {
            int a = pass ? i : L->named[i];
            const dsc_arg *arg = &L->m->args[a];
            const char *nm = L->d->args[a].name;
            char atom[96];
            if (arg->kind == DSC_K_INT && arg->i == got) {
                learn_addf(L, nm, "%s == %lld", nm, (long long)want);
            } else if (arg->kind == DSC_K_LIST && arg->n == got) {
                snprintf(atom, sizeof atom, "%s.size()", nm);
                learn_addf(L, atom, "%s.size() == %lld", nm, (long long)want);
            } else if (arg->kind == DSC_K_TENSOR && arg->t.defined) {
                for (int k = 0; k < arg->t.ndim; k++)
                    if (arg->t.shape[k] == got) {
                        snprintf(atom, sizeof atom, "%s.size(%d)", nm, k);
                        learn_addf(L, atom, "%s.size(%d) == %lld", nm, k, (long long)want);
                    }
                snprintf(atom, sizeof atom, "%s.numel()", nm);
                if (dsc_tensor_numel(&arg->t) == got && arg->t.ndim != 1)
                    learn_addf(L, atom, "%s.numel() == %lld", nm, (long long)want);
            }
        }
}

static bool keyword_at(const char *p, const char *const *words, size_t *len)
{
    for (int i = 0; words[i]; i++) {
        *len = strlen(words[i]);
        if (!strncasecmp(p, words[i], *len)) return true;
    }
    return false;
}

/* "offset.shape[1] is not valid: got: 2 expected: 6": an atom the message
 * spells, whose value is the one got, set to the one expected. */
static void spelled_atoms(learner *L, int64_t want, int64_t got)
{
    for (const char *p = L->msg; *p; p++) {
        if (!(isalpha((unsigned char)*p) || *p == '_') || (p > L->msg && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.')))
            continue;
        const char *e = p;
        while (isalnum((unsigned char)*e) || *e == '_') e++;
        if (*e != '.') continue;
        const char *m = e + 1;
        size_t len = 0;
        if (!strncmp(m, "shape[", 6) || !strncmp(m, "sizes()[", 8)) len = (size_t)(strchr(m, ']') ? strchr(m, ']') + 1 - p : 0);
        else if (!strncmp(m, "size(", 5)) len = (size_t)(strchr(m, ')') ? strchr(m, ')') + 1 - p : 0);
        else if (!strncmp(m, "dim()", 5) || !strncmp(m, "numel()", 7) || !strncmp(m, "ndim", 4))
            len = (size_t)(m + (m[0] == 'd' ? 5 : m[0] == 'n' && m[1] == 'u' ? 7 : 4) - p);
        if (!len || len > 80) continue;
        char expr[96];
        snprintf(expr, sizeof expr, "%.*s", (int)len, p);
        int arg = learn_arg_named(L, p, (size_t)(e - p));
        if (arg < 0) continue;
        /* the kernel's name for the argument made the schema's */
        char fixed[128];
        snprintf(fixed, sizeof fixed, "%s%s", L->d->args[arg].name, expr + (e - p));
        dsc_cond c;
        int64_t v;
        if (!dsc_cond_parse(&c, fixed, strlen(fixed), L->d) || !dsc_cond_value(&c, c.root, L->m, NULL, &v) || v != got)
            continue;
        char canon[128];
        dsc_cond_print(&c, c.root, L->d, NULL, canon, sizeof canon);
        learn_addf(L, canon, "%s == %lld", canon, (long long)want);
    }
}

/* Two lists of one length in the message ("output dims: (1, 3) - computed
 * output dims: (3, 3)", "[2, 3] but got: [2, 4]"): where one is a run of
 * a named tensor's sizes, each size that differs made the other's. */
static void tuple_echo(learner *L)
{
    int64_t v[6][TA_CASE_MAX_DIM];
    int len[6], n = 0;
    for (const char *p = L->msg; *p && n < 6; p++) {
        const char *e;
        if ((*p == '[' || *p == '(') && (len[n] = read_values(p, v[n], TA_CASE_MAX_DIM, &e)) >= 2) {
            n++;
            p = e - 1;
        }
    }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            if (a == b || len[a] != len[b] || !memcmp(v[a], v[b], (size_t)len[a] * sizeof **v)) continue;
            for (int k = 0; k < L->nnamed; k++) {
                int i = L->named[k];
                const dsc_tensor *t = dsc_model_tensor_c(L->m, i, -1);
                if (!t || !t->defined) continue;
                for (int s = 0; s + len[a] <= t->ndim; s++) {
                    if (memcmp(t->shape + s, v[a], (size_t)len[a] * sizeof **v)) continue;
                    for (int d = 0; d < len[a]; d++) {
                        char atom[96];
                        if (v[a][d] == v[b][d]) continue;
                        snprintf(atom, sizeof atom, "%s.size(%d)", L->d->args[i].name, s + d);
                        learn_addf(L, atom, "%s.size(%d) == %lld", L->d->args[i].name, s + d, (long long)v[b][d]);
                    }
                }
            }
        }
}

/* "aux_tensor_bwd must contain AUX_TENSOR_BWD_SIZE tensor(s), got 3": a
 * count the message names by a constant, not a number; the lists (and int
 * lists) of the length got, each a few items longer or shorter. */
static void constant_count(learner *L)
{
    match_caps c;
    if (!learn_match(L->msg, "must contain %w %*got %d", &c) && !learn_match(L->msg, "must have %w %*got %d", &c))
        return;
    bool constant = c.wlen[0] > 1;
    for (size_t i = 0; i < c.wlen[0]; i++) constant &= isupper((unsigned char)c.word[0][i]) || c.word[0][i] == '_';
    if (!constant) return;
    static const int steps[] = {1, -1, 2, 3, -2, 4};
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < (pass ? L->m->nargs : L->nnamed); k++) {
            int a = pass ? k : L->named[k];
            const dsc_arg *arg = &L->m->args[a];
            if ((arg->kind != DSC_K_LIST && arg->kind != DSC_K_INTS) || arg->n != c.num[0]) continue;
            char atom[96];
            snprintf(atom, sizeof atom, "%s.size()", L->d->args[a].name);
            for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
                if (c.num[0] + steps[i] >= 0)
                    learn_addf(L, atom, "%s.size() == %lld", L->d->args[a].name, (long long)(c.num[0] + steps[i]));
        }
}

void learn_numbers(learner *L)
{
    constant_count(L);
    tuple_echo(L);
    static const char *const want_words[] = {"expected", "expect", "should", "must", "needs", "need to", "wants", "to be", NULL};
    static const char *const got_words[] = {"got", "found", "but is", "but has", "instead", "actual", "is ", NULL};
    const char *m = L->msg;
    /* want ... got, or got ... want: the first value after each keyword */
    for (const char *p = m; *p; p++) {
        size_t klen;
        bool want_first = keyword_at(p, want_words, &klen);
        if (!want_first && !keyword_at(p, got_words, &klen)) continue;
        const char *q = p + klen, *e;
        int64_t a[TA_CASE_MAX_DIM], b[TA_CASE_MAX_DIM];
        int na = 0, nb = 0;
        for (int skip = 0; *q && skip < 48 && !na; skip++, q++)
            if (isdigit((unsigned char)*q) || *q == '[' || (*q == '(' && isdigit((unsigned char)q[1])))
                na = read_values(q, a, TA_CASE_MAX_DIM, &e);
        if (!na) continue;
        q = e;
        /* What the kernel wants may be spelled out at length before what it
         * got ("must be size 3 [host, placements, offsets] or 5 [...], got
         * 2"), with alternatives ("or 5"), each tried. */
        int64_t alt[4];
        int nalt = 0;
        for (int skip = 0; *q && skip < (want_first ? 160 : 48) && !nb; skip++, q++) {
            size_t k2;
            if (want_first && na == 1 && nalt < 4 && !strncmp(q, " or ", 4) && isdigit((unsigned char)q[4]))
                alt[nalt++] = strtoll(q + 4, NULL, 10);
            if (keyword_at(q, want_first ? got_words : want_words, &k2)) {
                const char *r = q + k2;
                for (int s2 = 0; *r && s2 < 24 && !nb; s2++, r++)
                    if (isdigit((unsigned char)*r) || *r == '[' || (*r == '(' && isdigit((unsigned char)r[1])))
                        nb = read_values(r, b, TA_CASE_MAX_DIM, &e);
            }
        }
        if (!nb || na != nb) continue;
        for (int i = 0; i < na; i++)
            if (a[i] != b[i]) {
                spelled_atoms(L, want_first ? a[i] : b[i], want_first ? b[i] : a[i]);
                echo(L, want_first ? a[i] : b[i], want_first ? b[i] : a[i]);
            }
        for (int i = 0; i < nalt; i++) echo(L, alt[i], b[0]);
    }
    match_caps c;
    if (learn_match(m, "(%d vs. %d)", &c)) { /* TORCH_CHECK_EQ(a, b): which one is wanted is not said */
        echo(L, c.num[1], c.num[0]);
        echo(L, c.num[0], c.num[1]);
    }
}
