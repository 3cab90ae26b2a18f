/* learn_internal.h - what the learner's files share: the learner (the
 * message, the rejected case's model, the candidates so far), how a
 * candidate is added, the message's words and numbers, and the matcher
 * the templates are written in. */
#ifndef TA_EXEC_DISCOVER_LEARN_INTERNAL_H
#define TA_EXEC_DISCOVER_LEARN_INTERNAL_H

#include "exec/discover/cond.h"
#include "exec/discover/learn.h"

enum { LEARN_MAX_NAMED = 8, LEARN_MSG = 1024, MATCH_CAPS = 8 };

typedef struct learner {
    char msg[LEARN_MSG]; /* the message, its paths, backtraces and boilerplate cut */
    dsc_model *m;        /* the rejected case (solvability is tried on it, then undone) */
    const ta_decl *d;
    dsc_cands *out;
    bool informed;       /* what add() marks the candidates it adds */
    int named[LEARN_MAX_NAMED]; /* arguments the message names, in order */
    int nnamed;
} learner;

/* Adds "cond @ atom" (names are the schema's) when cond is false on the
 * case and adjusting atom makes it true; true when added. */
bool learn_add(learner *L, const char *cond, const char *atom);
/* The same for a parsed condition under a binding of its free names. */
bool learn_add_parsed(learner *L, const dsc_cond *c, int atom, const int *binding);
/* printf into a candidate's condition. */
bool learn_addf(learner *L, const char *atom, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The argument a name in a kernel stands for (input_c -> input), or -1. */
int learn_arg_named(const learner *L, const char *name, size_t len);

/* Whether argument i is a tensor (or a list of them) in the case. */
bool learn_is_tensor(const learner *L, int i);
/* The name of argument i, with "[i]" for a list ("x" or "x[i]"). */
const char *learn_ref(const learner *L, int i, char *buf, size_t cap);

/* Template matching: pat's literal text matches case-insensitively (a space
 * any run of white space), %d an integer, %w a word ([A-Za-z0-9_]+, quotes
 * around it skipped), %* the shortest run of anything. Searched for at
 * every position of s; the captures in order. */
typedef struct match_caps {
    int64_t num[MATCH_CAPS];
    const char *word[MATCH_CAPS];
    size_t wlen[MATCH_CAPS];
    int nnum, nword;
    const char *end; /* where the match ended */
} match_caps;
bool learn_match(const char *s, const char *pat, match_caps *c);

/* A condition in C++ (the kernel's names or the schema's) learned as a
 * quoted one is: each conjunct, under every binding of its free names. */
void learn_condition_text(learner *L, const char *text, size_t len);

/* The rules, in the order they are asked (learn_words.c, learn_locals.c,
 * learn_aten.c, learn_blind.c); learn_prior orders what they offered before the guesses. */
void learn_templates(learner *L);
void learn_condition(learner *L);
void learn_locals(learner *L);
void learn_words(learner *L);
void learn_aten(learner *L);
void learn_numbers(learner *L);
/* "only works with scale_bias_last=false": settings spelled name=value (learn_settings.c). */
void learn_settings(learner *L);
void learn_blind(learner *L);
/* Reorders the candidates by what their arguments' names say (learn_prior.c). */
void learn_prior(learner *L);

#endif
