/* search.h - input discovery for one operator: when the kernel rejects a
 * synthesized case, learn from the rejection and try again.
 *
 * Each case runs as synthesized first, exactly as without discovery (so
 * every case and finding of a run without it is still there). When the
 * kernel rejects it and the operator has accepted fewer than half of its
 * cases so far, the same seed runs again with the facts learned so far
 * (hints.h); when that too is rejected, a depth-first search: the message
 * read into candidate facts (learn.h), each tried in turn on the same seed;
 * a fact is kept when the kernel then accepts the case or fails at another
 * check (a message not seen on the way there, and for a guess not an
 * earlier line of the same source file), and the search goes on from
 * there; a message that gives nothing to try sends it back a step. The
 * facts of an accepted case are what the operator's later cases start
 * from. Bounded per case (DSC_CASE_TRIES calls), per operator
 * (DSC_OP_TRIES calls and DSC_OP_SECONDS of its time), and given up for an
 * operator that runs some cases as synthesized when its first
 * DSC_HOPELESS_SEARCHES searches found no other case it accepts: past the
 * bounds the cases only run with the facts already learned.
 *
 * Deterministic: the same seed gives the same case, and the same kernel
 * the same messages, so the same facts. A case discovery made replays
 * from its seed and the facts it was made with (its discovery path,
 * ta_case.found, which every finding's case text carries as
 * "{found: ...}"): dsc_search_replay. */
#ifndef TA_EXEC_DISCOVER_SEARCH_H
#define TA_EXEC_DISCOVER_SEARCH_H

#include "exec/observe/observe.h"

enum { DSC_CASE_TRIES = 40, DSC_OP_TRIES = 400, DSC_HOPELESS_SEARCHES = 3 };
#define DSC_OP_SECONDS 5.0

typedef struct dsc_search dsc_search;

/* What discovery did for one operator. */
typedef struct dsc_stats {
    uint32_t attempts; /* calls made for discovery (beyond each case's first) */
    uint32_t found;    /* cases accepted only with discovered facts */
    uint32_t screened; /* of the attempts, rejected by a fake or Meta kernel alone */
    double seconds;    /* time spent in those calls and in learning */
} dsc_stats;

/* Called before each discovery call (the child restarts its case's clock). */
typedef void (*dsc_attempt_fn)(void *ud);

ta_status dsc_search_create(const ta_schema *s, const ta_decl *d, dsc_search **out);
void dsc_search_destroy(dsc_search *S);

/* Replays a discovery path: every case then runs with these facts alone,
 * without a first run as synthesized and without searching. false when the
 * path does not read against the operator's schema. */
bool dsc_search_replay(dsc_search *S, const char *path);

/* Runs case seed through ck as described above. */
ta_case_outcome dsc_search_run(dsc_search *S, ta_observer *ck, uint64_t seed, dsc_attempt_fn on_attempt,
                               void *ud);

const dsc_stats *dsc_search_stats(const dsc_search *S);

/* Counts calls and seconds the operator's discovery already spent in an
 * earlier process against its bounds (a child that goes on after the one
 * before it died in a case): the bounds are the operator's, not a process's.
 * The stats still count only this search's own calls. */
void dsc_search_charge(dsc_search *S, uint32_t calls, double seconds);

#endif
