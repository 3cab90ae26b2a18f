/* search.c - input discovery for one operator (search.h): each case as
 * synthesized, then with the facts learned, then the depth-first search
 * over what each rejection says. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/alloc.h"
#include "exec/discover/hints.h"
#include "exec/discover/learn.h"
#include "exec/discover/search.h"

enum { MSG_MAX = 512 };

/* A build with -DTA_DISCOVERY_TRACE (for working on discovery, never in
 * the library as shipped, which prints nothing) traces each step to the
 * file $TA_DISCOVERY_TRACE names (appended to, a line at a time: verify's
 * children capture their stderr), else to stderr. */
#ifdef TA_DISCOVERY_TRACE
static FILE *trace_out(void)
{
    static FILE *f;
    if (!f) {
        const char *path = getenv("TA_DISCOVERY_TRACE");
        f = path && *path ? fopen(path, "a") : NULL;
        if (f) setvbuf(f, NULL, _IOLBF, 0);
        else f = stderr;
    }
    return f;
}
#define TRACE(...) fprintf(trace_out(), "discovery: " __VA_ARGS__)
#else
#define TRACE(...) ((void)0)
#endif

/* One step of the search: the message that led here, what it offers, the
 * next offer to try, and the facts on arrival (as a path). */
typedef struct frame {
    char msg[MSG_MAX];
    dsc_cands cands;
    int next;
    char facts[DSC_PATH_MAX];
} frame;

struct dsc_search {
    const ta_schema *s;
    const ta_decl *d;
    dsc_hints hints;
    dsc_model model; /* scratch for builds and learning */
    dsc_model last;  /* the last rejected case, read */
    dsc_model plain; /* the case as synthesized, read */
    dsc_model check; /* scratch for consistency */
    frame frames[DSC_MAX_FACTS + 1];
    bool replay;     /* a path given: its facts on every case, nothing else */
    char deepest[DSC_PATH_MAX]; /* the facts of the furthest step of a search */
    uint32_t cases, accepted;
    uint32_t searches; /* searches begun */
    uint32_t futile;   /* searches every call of which was refused as no input could run it */
    double started;  /* monotonic seconds of the first discovery call, or 0 */
    uint32_t charged_calls; /* spent in earlier processes (dsc_search_charge) */
    double charged_seconds;
    dsc_stats stats;
    dsc_attempt_fn on_attempt;
    void *ud;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

ta_status dsc_search_create(const ta_schema *s, const ta_decl *d, dsc_search **out)
{
    dsc_search *S = ta_calloc(1, sizeof *S);
    *out = S;
    if (!S) return TA_ERR_NOMEM;
    S->s = s;
    S->d = d;
    dsc_hints_init(&S->hints, d);
    return TA_OK;
}

void dsc_search_destroy(dsc_search *S) { free(S); }

const dsc_stats *dsc_search_stats(const dsc_search *S) { return &S->stats; }

bool dsc_search_replay(dsc_search *S, const char *path)
{
    S->replay = dsc_hints_parse(&S->hints, S->d, path);
    return S->replay;
}

static ta_status hinted_build(void *ud, ta_exec *x, const ta_schema *s, const ta_decl *d, uint64_t seed, ta_case *c)
{
    dsc_search *S = ud;
    return dsc_hints_build(&S->hints, &S->model, x, s, d, seed, c);
}

/* One discovery call: case seed with the hints as they are. */
static ta_case_outcome attempt(dsc_search *S, ta_observer *ck, uint64_t seed)
{
    if (S->on_attempt) S->on_attempt(S->ud);
    if (!S->started) S->started = now();
    double t0 = now();
    ta_case_source src = {hinted_build, S, false, true};
    ta_case_outcome oc = ta_observer_run(ck, seed, &src);
    S->stats.attempts++;
    S->stats.screened += ta_observer_screened(ck);
    S->stats.seconds += now() - t0;
    return oc;
}

static bool out_of_budget(const dsc_search *S)
{
    return S->stats.attempts + S->charged_calls >= DSC_OP_TRIES ||
           (S->started && now() - S->started + S->charged_seconds > DSC_OP_SECONDS) ||
           S->charged_seconds > DSC_OP_SECONDS;
}

void dsc_search_charge(dsc_search *S, uint32_t calls, double seconds)
{
    S->charged_calls = calls;
    S->charged_seconds = seconds;
}

/* An operator that runs some cases as synthesized, and whose searches
 * for the others found nothing: its rejections are of values no fact
 * avoids (a dtype it lacks, an out= of another dtype), and most of a run's
 * discovery time went to such operators for nothing (search.h). */
static bool hopeless(const dsc_search *S)
{
    return S->searches >= DSC_HOPELESS_SEARCHES && !S->stats.found && S->accepted;
}

/* "file.cpp:123" in a message: where its check is (line 0 when none). */
static long check_line(const char *msg, char *file, size_t cap)
{
    static const char *const exts[] = {".cpp:", ".cu:", ".h:", ".cc:", ".hpp:", NULL};
    for (int i = 0; exts[i]; i++) {
        const char *p = strstr(msg, exts[i]);
        if (!p || !isdigit((unsigned char)p[strlen(exts[i])])) continue;
        const char *s = p;
        while (s > msg && !isspace((unsigned char)s[-1]) && s[-1] != '/') s--;
        snprintf(file, cap, "%.*s", (int)(p - s), s);
        return strtol(p + strlen(exts[i]), NULL, 10);
    }
    return 0;
}

/* Whether the step that made the kernel say now (after it said was) goes
 * forward: a message not met on the way here; the same one again for a fact
 * the message itself asked for (the next tensor a kernel checks alike); for
 * a guess, not an earlier check of the same source file. */
/* The same check, another value quoted ('Long' for 'Int'). */
static bool same_but_quoted(const char *a, const char *b)
{
    while (*a && *b) {
        if (*a == '\'' && *b == '\'') {
            const char *ea = strchr(a + 1, '\''), *eb = strchr(b + 1, '\'');
            if (!ea || !eb) return false;
            a = ea + 1, b = eb + 1;
            continue;
        }
        if (*a++ != *b++) return false;
    }
    return !*a && !*b;
}

static bool forward(const dsc_search *S, int depth, const char *was, const char *now_msg, bool informed)
{
    if (!strcmp(was, now_msg)) return informed;
    if (same_but_quoted(was, now_msg)) return false;
    for (int i = 0; i < depth; i++)
        if (!strcmp(S->frames[i].msg, now_msg)) return false;
    char f1[128], f2[128];
    long l1 = check_line(was, f1, sizeof f1), l2 = check_line(now_msg, f2, sizeof f2);
    return informed || !l1 || !l2 || strcmp(f1, f2) || l2 > l1;
}

static void open_frame(dsc_search *S, int depth, ta_observer *ck, const char *msg)
{
    TRACE("depth %d: %.300s\n", depth, msg);
    frame *f = &S->frames[depth];
    snprintf(f->msg, sizeof f->msg, "%s", msg);
    f->next = 0;
    snprintf(f->facts, sizeof f->facts, "%s", S->hints.path);
    double t0 = now();
    dsc_model_read(&S->last, ta_observer_case(ck), S->d);
    dsc_learn(msg, &S->last, S->d, &f->cands);
    S->stats.seconds += now() - t0;
    for (int i = 0; i < f->cands.n; i++) TRACE("  offers %s%s\n", f->cands.text[i], f->cands.informed[i] ? "" : " (guess)");
}

/* The argument a candidate's atom belongs to ("x[i].dim()": x), into buf. */
static void atom_arg(const char *cand, char *buf, size_t cap)
{
    const char *at = strstr(cand, " @ ");
    at = at ? at + 3 : cand;
    snprintf(buf, cap, "%.*s", (int)strcspn(at, ".["), at);
}

/* A message met before on the way, after a fact the kernel asked for:
 * the same check (an accessor's rank, a dtype: messages that name no
 * tensor) failing for another tensor, when none of what the message now
 * offers is about the fact's argument. The step goes forward then (its
 * frame opened at depth); otherwise the fact was not what the check
 * wanted, and the search steps sideways as before. */
static bool about_another(dsc_search *S, int depth, ta_observer *ck, const char *msg, const char *fact)
{
    char arg[DSC_NAME_MAX], other[DSC_NAME_MAX];
    atom_arg(fact, arg, sizeof arg);
    open_frame(S, depth, ck, msg);
    const dsc_cands *c = &S->frames[depth].cands;
    int informed = 0;
    for (int i = 0; i < c->n; i++) {
        if (!c->informed[i]) continue;
        informed++;
        atom_arg(c->text[i], other, sizeof other);
        if (!strcmp(arg, other)) return false;
    }
    return informed > 0;
}

/* The hints of frame f with candidate k added: a fact on the same atom
 * that the candidate contradicts goes (what a later message says about an
 * atom overrides a step taken before it: the wrong one of several tensors
 * a message fits, found out). false when the facts cannot all hold. */
static bool with_candidate(dsc_search *S, const frame *f, int k)
{
    if (!dsc_hints_parse(&S->hints, S->d, f->facts) || !dsc_hints_push_text(&S->hints, f->cands.text[k])) return false;
    S->check = S->plain;
    if (dsc_hints_consistent(&S->hints, &S->check)) return true;
    dsc_hints_drop_same_atom(&S->hints);
    S->check = S->plain;
    return dsc_hints_consistent(&S->hints, &S->check);
}

/* The search from a rejection with message msg; the hints hold the facts
 * of the accepted case, or else those of the furthest step it made (the
 * checks passed there, which the next case's search starts after). */
static ta_case_outcome search(dsc_search *S, ta_observer *ck, uint64_t seed, const char *msg)
{
    int depth = 0, tries = 0, deepest = 0, cannot = 0;
    char base[DSC_PATH_MAX];
    snprintf(base, sizeof base, "%s", S->hints.path);
    open_frame(S, 0, ck, msg);
    while (tries < DSC_CASE_TRIES && !out_of_budget(S)) {
        frame *f = &S->frames[depth];
        if (f->next >= f->cands.n) { /* nothing more here: a step back */
            if (depth == 0) break;
            depth--;
            continue;
        }
        int k = f->next++;
        if (!with_candidate(S, f, k)) continue;
        tries++;
        ta_case_outcome oc = attempt(S, ck, seed);
        TRACE("tried [%s]: %d %.200s\n", S->hints.path, (int)oc, ta_observer_note(ck));
        if (oc == TA_CASE_RAN || oc == TA_CASE_DEVICE_LOST) return oc;
        cannot += oc == TA_CASE_REJECTED && ta_observer_cannot_run(ck);
        const char *now_msg = ta_observer_note(ck);
        bool ahead = oc == TA_CASE_REJECTED && depth + 1 < DSC_MAX_FACTS;
        if (ahead && forward(S, depth + 1, f->msg, now_msg, f->cands.informed[k])) open_frame(S, depth + 1, ck, now_msg);
        else ahead = ahead && f->cands.informed[k] && about_another(S, depth + 1, ck, now_msg, f->cands.text[k]);
        if (ahead) {
            depth++;
            if (depth > deepest) {
                deepest = depth;
                snprintf(S->deepest, sizeof S->deepest, "%s", S->hints.path);
            }
        }
    }
    dsc_hints_parse(&S->hints, S->d, deepest ? S->deepest : base);
    if (tries && cannot == tries) S->futile++;
    return TA_CASE_REJECTED;
}

ta_case_outcome dsc_search_run(dsc_search *S, ta_observer *ck, uint64_t seed, dsc_attempt_fn on_attempt, void *ud)
{
    S->on_attempt = on_attempt;
    S->ud = ud;
    if (S->replay) {
        ta_case_source src = {hinted_build, S, false, false};
        return ta_observer_run(ck, seed, &src);
    }
    ta_case_outcome oc = ta_observer_run(ck, seed, NULL);
    S->cases++;
    if (oc == TA_CASE_RAN) S->accepted++;
    /* Discovery while fewer than half of the cases were accepted. */
    if (oc != TA_CASE_REJECTED || S->accepted * 2 >= S->cases) return oc;
    /* Refused as no input could run it (the operator calls one with no
     * kernel here), after a whole search met only that refusal: searching
     * again changes nothing (ATen 2.15.0: ~44,000 calls a run otherwise). */
    if (S->futile && ta_observer_cannot_run(ck)) return oc;
    char msg[MSG_MAX];
    snprintf(msg, sizeof msg, "%s", ta_observer_note(ck));
    dsc_model_read(&S->plain, ta_observer_case(ck), S->d);
    if (S->hints.n) {
        oc = attempt(S, ck, seed);
        if (oc != TA_CASE_REJECTED) goto done;
        snprintf(msg, sizeof msg, "%s", ta_observer_note(ck));
    }
    if (out_of_budget(S) || hopeless(S)) return oc;
    S->searches++;
    oc = search(S, ck, seed, msg);
done:
    if (oc == TA_CASE_RAN) {
        S->accepted++;
        S->stats.found++;
    }
    return oc;
}
