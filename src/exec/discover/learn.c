/* learn.c - the learner (learn.h): the message cleaned of what says nothing
 * about the inputs, the arguments it names, candidates added once each after
 * they are checked against the case, the template matcher, and the rule that
 * reads a check's own condition. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/discover/learn_internal.h"

/* ---- candidates -------------------------------------------------------- */

bool learn_add_parsed(learner *L, const dsc_cond *c, int atom, const int *binding)
{
    dsc_cands *o = L->out;
    if (o->n == DSC_MAX_CANDS) return false;
    if (dsc_cond_eval(c, L->m, binding) != 0 || !dsc_cond_solvable(c, atom, L->m, binding)) return false;
    char cond[DSC_CAND_TEXT], at[128];
    if (dsc_cond_print(c, c->root, L->d, binding, cond, sizeof cond) >= sizeof cond ||
        dsc_cond_print(c, atom, L->d, binding, at, sizeof at) >= sizeof at)
        return false;
    char text[DSC_CAND_TEXT];
    if ((size_t)snprintf(text, sizeof text, "%s @ %s", cond, at) >= sizeof text) return false;
    for (int i = 0; i < o->n; i++)
        if (!strcmp(o->text[i], text)) return false;
    memcpy(o->text[o->n], text, strlen(text) + 1);
    o->informed[o->n++] = L->informed;
    return true;
}

bool learn_add(learner *L, const char *cond, const char *atom)
{
    dsc_cond c, a;
    char canon[128];
    if (!dsc_cond_parse(&c, cond, strlen(cond), L->d) || c.nfree > 1) return false;
    if (c.nfree == 1 && strcmp(c.free[0], "i")) return false; /* only an item index may be free */
    if (!dsc_cond_parse(&a, atom, strlen(atom), L->d)) return false;
    dsc_cond_print(&a, a.root, L->d, NULL, canon, sizeof canon);
    for (int k = 0; k < c.nn; k++) {
        char buf[128];
        dsc_cond_print(&c, k, L->d, NULL, buf, sizeof buf);
        if (!strcmp(buf, canon) && dsc_cond_is_atom(&c, k, L->m, NULL)) return learn_add_parsed(L, &c, k, NULL);
    }
    return false;
}

bool learn_addf(learner *L, const char *atom, const char *fmt, ...)
{
    char cond[DSC_CAND_TEXT];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(cond, sizeof cond, fmt, ap);
    va_end(ap);
    return n > 0 && (size_t)n < sizeof cond && learn_add(L, cond, atom);
}

bool learn_is_tensor(const learner *L, int i)
{
    return i >= 0 && i < L->m->nargs && (L->m->args[i].kind == DSC_K_TENSOR || L->m->args[i].kind == DSC_K_LIST);
}

const char *learn_ref(const learner *L, int i, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s", L->d->args[i].name, L->m->args[i].kind == DSC_K_LIST ? "[i]" : "");
    return buf;
}

/* ---- names --------------------------------------------------------------- */

static bool word_char(char ch) { return isalnum((unsigned char)ch) || ch == '_'; }

/* How well name (a kernel's variable) stands for argument a: 0 not at all. */
static int name_score(const char *name, size_t len, const char *a)
{
    static const char *const suffixes[] = {"_contiguous", "_contig", "_tensor", "_accessor", "_data", "_ptr",
                                           "_cpu", "_acc", "_c", "_t", "_a", "_", NULL};
    static const char *const selfish[] = {"input", "x", "X", "in", "src", "t", "tensor", "self_", NULL};
    size_t alen = strlen(a);
    if (len == alen && !memcmp(name, a, len)) return 100;
    for (int i = 0; suffixes[i]; i++) {
        size_t sl = strlen(suffixes[i]);
        if (len > sl && !memcmp(name + len - sl, suffixes[i], sl) && len - sl == alen && !memcmp(name, a, alen))
            return 90;
    }
    if (!strcmp(a, "self"))
        for (int i = 0; selfish[i]; i++)
            if (strlen(selfish[i]) == len && !memcmp(selfish[i], name, len)) return 50;
    size_t m = len < alen ? len : alen;
    if (m >= 4 && !memcmp(name, a, m) && (len == m ? !word_char(a[m]) || a[m] == '_' : name[m] == '_'))
        return 60; /* grad vs grad_output, offsets vs offsets_list */
    return 0;
}

int learn_arg_named(const learner *L, const char *name, size_t len)
{
    int best = -1, score = 0;
    bool tie = false;
    for (int i = 0; i < L->d->nargs; i++) {
        int s = name_score(name, len, L->d->args[i].name);
        if (s > score) best = i, score = s, tie = false;
        else if (s && s == score) tie = true;
    }
    return score >= 50 && !tie ? best : -1;
}

/* The arguments the message names (as words), in order, each once. */
static void find_named(learner *L)
{
    const char *p = L->msg;
    L->nnamed = 0;
    while (*p && L->nnamed < LEARN_MAX_NAMED) {
        if (!word_char(*p) || (p > L->msg && word_char(p[-1]))) {
            p++;
            continue;
        }
        const char *s = p;
        while (word_char(*p)) p++;
        int a = learn_arg_named(L, s, (size_t)(p - s));
        bool seen = a < 0;
        for (int i = 0; i < L->nnamed && !seen; i++) seen = L->named[i] == a;
        if (!seen && (isalpha((unsigned char)*s) || *s == '_')) L->named[L->nnamed++] = a;
    }
}

/* ---- the message ---------------------------------------------------------- */

/* Cuts what says nothing about the inputs: c10's backtrace and its plea
 * for a better message, the stable ABI's "(originally from ...)", a dtype's
 * namespaces, and file paths (whose words would read as names). */
static void clean_message(char *dst, size_t cap, const char *msg)
{
    static const char *const cuts[] = {"Exception raised from", "(Could this error message be improved",
                                       "(originally from", "frame #0", NULL};
    snprintf(dst, cap, "%s", msg);
    for (int i = 0; cuts[i]; i++) {
        char *c = strstr(dst, cuts[i]);
        if (c) *c = '\0';
    }
    /* "torch::headeronly::ScalarType::Int" (the stable ABI's spelling) reads as "Int" */
    for (char *q; (q = strstr(dst, "ScalarType::"));) {
        char *s = q, *e = q + strlen("ScalarType::");
        while (s > dst && (isalnum((unsigned char)s[-1]) || s[-1] == '_' || s[-1] == ':')) s--;
        memmove(s, e, strlen(e) + 1);
    }
    for (char *p = dst; *p; p++) { /* a path: a word with a '/' in it, blanked */
        if (*p != '/') continue;
        char *s = p, *e = p;
        while (s > dst && !isspace((unsigned char)s[-1]) && s[-1] != '"') s--;
        while (*e && !isspace((unsigned char)*e) && *e != '"' && *e != ',') e++;
        if (e - s == 1) continue; /* "a / b": a division, not a path */
        /* keep "file.cpp:123" (a line number tells checks apart) only as spaces */
        memset(s, ' ', (size_t)(e - s));
        p = e - 1;
    }
}

/* ---- the matcher -------------------------------------------------------- */

static bool match_at(const char *s, const char *p, match_caps *c)
{
    while (*p) {
        if (p[0] == '%' && p[1] == '*') {
            for (const char *t = s;; t++) {
                match_caps save = *c;
                if (match_at(t, p + 2, c)) return true;
                *c = save;
                if (!*t) return false;
            }
        }
        if (p[0] == '%' && p[1] == 'd') {
            char *e;
            long long v = strtoll(s, &e, 10);
            if (e == s || c->nnum == MATCH_CAPS || isspace((unsigned char)*s) || *s == '+') return false;
            c->num[c->nnum++] = v;
            s = e;
            p += 2;
            continue;
        }
        if (p[0] == '%' && p[1] == 'w') {
            bool q = *s == '\'' || *s == '`' || *s == '"';
            const char *w = s + q, *e = w;
            while (word_char(*e)) e++;
            if (e == w || c->nword == MATCH_CAPS) return false;
            c->word[c->nword] = w;
            c->wlen[c->nword++] = (size_t)(e - w);
            s = e + (q && (*e == '\'' || *e == '`' || *e == '"'));
            p += 2;
            continue;
        }
        if (*p == ' ') {
            if (!isspace((unsigned char)*s)) return false;
            while (isspace((unsigned char)*s)) s++;
            p++;
            continue;
        }
        if (tolower((unsigned char)*s) != tolower((unsigned char)*p)) return false;
        s++, p++;
    }
    c->end = s;
    return true;
}

bool learn_match(const char *s, const char *pat, match_caps *c)
{
    for (const char *t = s; *t; t++) {
        memset(c, 0, sizeof *c);
        if (match_at(t, pat, c)) return true;
    }
    return false;
}

/* ---- a check's condition ------------------------------------------------- */

/* Where a message quotes the condition that failed: [*start, *end). */
static bool quoted_condition(const char *msg, const char **start, const char **end)
{
    const char *s, *e;
    if ((s = strstr(msg, "Expected ")) && (e = strstr(s, " to be true, but got false"))) {
        *start = s + 9;
        *end = e;
        return true;
    }
    if ((e = strstr(msg, " INTERNAL ASSERT FAILED"))) {
        *start = msg;
        *end = e;
        return true;
    }
    if ((s = strstr(msg, "Check failed: "))) {
        *start = s + 14;
        e = strstr(*start, " (");
        *end = e ? e : *start + strlen(*start);
        return true;
    }
    return false;
}

/* The kinds of argument free variable f may be bound to: what it is used as. */
static bool used_as_object(const dsc_cond *c, int f)
{
    for (int k = 0; k < c->nn; k++) {
        const dsc_node *n = &c->n[k];
        if (n->op == DSC_REF || n->op == DSC_NUM || n->op == DSC_DTYPEC || n->a < 0) continue;
        const dsc_node *a = &c->n[n->a];
        if (a->op == DSC_REF && a->v == -(f + 1) && n->op != DSC_ADD && n->op != DSC_SUB && n->op != DSC_MUL &&
            n->op != DSC_DIV && n->op != DSC_MOD && n->op < DSC_EQ && n->op != DSC_NEG && n->op != DSC_NOT)
            return true;
    }
    return false;
}

/* The arguments free variable f may stand for, into opts: its name's
 * argument when it names one, else every argument of its kind. */
static int binding_options(learner *L, const dsc_cond *c, int f, int *opts)
{
    const char *name = c->free[f];
    if (!strcmp(name, "i") || !strcmp(name, "j") || !strcmp(name, "k")) return 0; /* a loop index */
    int a = learn_arg_named(L, name, strlen(name));
    if (a >= 0) {
        opts[0] = a;
        return 1;
    }
    bool object = used_as_object(c, f), positional = false;
    for (int i = 0; i < L->d->nargs; i++) positional |= L->d->args[i].name[0] == '_';
    int n = 0;
    for (int i = 0; i < L->m->nargs; i++) {
        dsc_kind k = L->m->args[i].kind;
        bool fits = object ? (k == DSC_K_TENSOR || k == DSC_K_LIST || k == DSC_K_INTS)
                           : (k == DSC_K_INT || k == DSC_K_BOOL);
        /* A kernel's name that is none of the schema's: any argument of
         * its kind, the positional ones (_0, _1: an inferred schema's)
         * when there are. */
        if (fits && (!positional || L->d->args[i].name[0] == '_')) opts[n++] = i;
    }
    return n;
}

/* The candidates of one conjunct under every binding that fits. */
static void learn_conjunct(learner *L, const dsc_cond *c)
{
    int opts[DSC_MAX_FREE][TA_CASE_MAX_ARGS], nopt[DSC_MAX_FREE], idx[DSC_MAX_FREE] = {0};
    int binding[DSC_MAX_FREE];
    long combos = 1;
    for (int f = 0; f < c->nfree; f++) {
        nopt[f] = binding_options(L, c, f, opts[f]);
        if (nopt[f] == 0) nopt[f] = 1, opts[f][0] = -1; /* unbound: unknown */
        combos *= nopt[f];
    }
    if (combos > 512) return;
    for (long n = 0; n < combos; n++) {
        long r = n;
        bool distinct = true;
        for (int f = 0; f < c->nfree; f++) {
            idx[f] = (int)(r % nopt[f]);
            r /= nopt[f];
            binding[f] = opts[f][idx[f]];
            for (int g = 0; g < f; g++) distinct &= binding[f] < 0 || binding[g] != binding[f];
        }
        if (!distinct || dsc_cond_eval(c, L->m, binding) != 0) continue;
        int atoms[32];
        int na = dsc_cond_atoms(c, L->m, binding, atoms, 32);
        /* A tensor's atoms before an argument's value (use_mask in
         * "!use_mask || mask.dim() == 4": the mask is what is checked). */
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < na; i++)
                if ((c->n[atoms[i]].op == DSC_REF) == (pass == 1)) learn_add_parsed(L, c, atoms[i], binding);
    }
}

/* Splits the condition at its top-level && and learns each conjunct. */
static void split_conjuncts(learner *L, const dsc_cond *whole, int k)
{
    const dsc_node *n = &whole->n[k];
    if (n->op == DSC_AND) {
        split_conjuncts(L, whole, n->a);
        split_conjuncts(L, whole, n->b);
        return;
    }
    char text[512];
    int unbound[DSC_MAX_FREE];
    for (int f = 0; f < DSC_MAX_FREE; f++) unbound[f] = -1;
    if (dsc_cond_print(whole, k, L->d, unbound, text, sizeof text) >= sizeof text) return;
    dsc_cond c;
    if (dsc_cond_parse(&c, text, strlen(text), L->d)) learn_conjunct(L, &c);
}

void learn_condition_text(learner *L, const char *text, size_t len)
{
    dsc_cond whole;
    if (dsc_cond_parse(&whole, text, len, L->d)) split_conjuncts(L, &whole, whole.root);
}

void learn_condition(learner *L)
{
    const char *s, *e;
    if (quoted_condition(L->msg, &s, &e)) learn_condition_text(L, s, (size_t)(e - s));
}

/* ---- the driver ------------------------------------------------------------ */

void dsc_learn(const char *msg, const dsc_model *m, const ta_decl *d, dsc_cands *out)
{
    learner *L = calloc(1, sizeof *L);
    dsc_model *work = malloc(sizeof *work);
    out->n = 0;
    if (!L || !work) {
        free(L);
        free(work);
        return;
    }
    *work = *m;
    L->m = work;
    L->d = d;
    L->out = out;
    L->informed = true;
    clean_message(L->msg, sizeof L->msg, msg ? msg : "");
    find_named(L);
    learn_templates(L);
    learn_condition(L);
    learn_locals(L);
    learn_words(L);
    learn_settings(L);
    learn_aten(L);
    learn_numbers(L);
    learn_prior(L);
    L->informed = false;
    learn_blind(L);
    free(work);
    free(L);
}
