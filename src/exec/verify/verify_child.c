/* verify_child.c - what runs in a verify child: the operators it is given,
 * each one's cases under the observer, and the report of what it sees.
 *
 * Report lines (verify_internal.h) go into the child's mailbox and through
 * its pipe when the mailbox is full and when it is done. A fault handler
 * names what a faulting access hit (a read-only input: a trapped write; a
 * guard page: out of bounds), reports it and exits. The same loop runs an
 * operator's cases in this process (tests, benchmarks), into its result. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <ucontext.h>
#include <unistd.h>

#include "exec/discover/search.h"
#include "exec/observe/observe.h"
#include "exec/synth/samples.h"
#include "exec/verify/verify_internal.h"

enum { LINE_MAX_BYTES = 1400 };

/* What the fault handler needs. A signal handler can reach nothing else, so
 * these are process globals; they are set only in a child process, after
 * fork, and the child never returns to the parent's code. */
static int g_fd = -1;
static ta_exec *g_exec;
static ta_observer *g_checker;

static void write_line(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        s += w;
        n -= (size_t)w;
    }
}

static mailbox *g_box; /* this child's, or NULL (in-process runs) */

/* What a kernel prints goes to a file (verify_spare_main's errfd), not the
 * user's terminal: torchvision 0.29's stable ABI prints a backtrace for
 * every check that fails, and discovery makes thousands fail. The file is
 * emptied at each case, so that the parent can quote what a crashed case
 * printed last. */
static int g_errfd = -1;

static void restart_output(void)
{
    if (g_errfd < 0) return;
    fflush(stderr);
    if (ftruncate(g_errfd, 0) == 0) lseek(g_errfd, 0, SEEK_SET);
}


/* Sends what the mailbox holds through the pipe; then, unless it ended in
 * D (the parent, which reads no mailbox after a D, may give it to another
 * child at once), empties it. A child killed in between may have a line
 * counted twice, never lost. */
static void flush_box(int fd, bool last)
{
    if (!g_box || !g_box->len) return;
    write_line(fd, g_box->data, g_box->len);
    if (!last) g_box->len = 0;
}

/* One report line (ending in a newline): into the mailbox, or straight
 * through the pipe when there is none. */
static void put_line(int fd, const char *s, size_t n)
{
    mailbox *b = g_box;
    if (!b) {
        write_line(fd, s, n);
        return;
    }
    if (b->len + n > sizeof b->data) flush_box(fd, false);
    if (n > sizeof b->data) {
        write_line(fd, s, n);
        return;
    }
    memcpy(b->data + b->len, s, n);
    __atomic_store_n(&b->len, b->len + n, __ATOMIC_RELEASE);
}

static void clean(char *s)
{
    for (; *s; s++)
        if (*s == '\n' || *s == '\t' || *s == '\r') *s = ' ';
}

static void send_finding(int fd, const ta_finding *f)
{
    char line[LINE_MAX_BYTES], arg[sizeof f->argument], msg[sizeof f->message];
    snprintf(arg, sizeof arg, "%s", f->argument);
    snprintf(msg, sizeof msg, "%s", f->message);
    clean(arg);
    clean(msg);
    int n = snprintf(line, sizeof line, "F %s\t%s\t%" PRIx64 "\t%s\n", ta_verdict_kind_str(f->kind),
                     arg, f->seed, msg);
    if (n > (int)sizeof line - 1) {
        n = (int)sizeof line - 1;
        line[n - 1] = '\n';
    }
    put_line(fd, line, (size_t)n);
}

/* Findings are sent once per (kind, argument) per child. */
typedef struct child_sink {
    int fd;
    ta_finding seen[64];
    int nseen;
    op_job *inproc; /* in-process mode: straight into the result */
} child_sink;

static void sink_emit(void *ud, const ta_finding *f)
{
    child_sink *s = ud;
    if (s->inproc) {
        verify_add_finding(s->inproc, f);
        return;
    }
    for (int i = 0; i < s->nseen; i++)
        if (s->seen[i].kind == f->kind && !strcmp(s->seen[i].argument, f->argument)) return;
    if (s->nseen < 64) s->seen[s->nseen++] = *f;
    send_finding(s->fd, f);
}

/* The argument on storage id (the last one, as the case lists them), or NULL. */
static const char *storage_owner(const ta_case *c, const ta_decl *d, uint32_t id)
{
    const char *who = NULL;
    for (int i = 0; i < c->nslots; i++)
        if (c->slots[i].storage == id) who = d->args[c->slots[i].arg].name;
    return who;
}

/* A trapped write: addr lies in read-only storage id (base b). */
static void name_trapped_write(const ta_case *c, const ta_decl *d, uint32_t id, uintptr_t b,
                               uintptr_t addr, ta_finding *f)
{
    for (int i = 0; i < c->nslots; i++) {
        const ta_case_slot *sl = &c->slots[i];
        if (sl->storage != id) continue;
        int64_t el = ta_elem_at_offset(&sl->before, (int64_t)(addr - b));
        f->kind = TA_V_UNDECLARED_MUTATION;
        snprintf(f->argument, sizeof f->argument, "%s", d->args[sl->arg].name);
        if (el >= 0)
            snprintf(f->message, sizeof f->message,
                     "trapped write: argument '%s' is not declared written, but the kernel "
                     "wrote its element %lld (storage byte %zu)",
                     d->args[sl->arg].name, (long long)el, (size_t)(addr - b));
        else
            snprintf(f->message, sizeof f->message,
                     "trapped write: argument '%s' is not declared written, but the kernel "
                     "wrote byte %zu of its storage (outside its view)",
                     d->args[sl->arg].name, (size_t)(addr - b));
        return;
    }
}

/* An access on a guard page: `past` bytes after the end of storage id (of
 * `bytes`), or, when before, `past` bytes before its start. */
static void name_guard_hit(const char *who, bool is_write, bool before, size_t past, size_t bytes,
                           ta_finding *f)
{
    f->kind = TA_V_OUT_OF_BOUNDS;
    snprintf(f->argument, sizeof f->argument, "%s", who ? who : "");
    const char *what = who ? "argument '" : "a tensor the kernel allocated";
    if (before)
        snprintf(f->message, sizeof f->message,
                 "%s at byte %zu before the start of %s%s%s (storage of %zu bytes; byte 1 is the "
                 "last one before it)",
                 is_write ? "write" : "read", past, what, who ? who : "", who ? "'" : "", bytes);
    else
        snprintf(f->message, sizeof f->message,
                 "%s at byte %zu past the end of %s%s%s (storage of %zu bytes; byte 0 is the "
                 "first one after it)",
                 is_write ? "write" : "read", past, what, who ? who : "", who ? "'" : "", bytes);
}

/* Names what a faulting address hit: a read-only input (a trapped write),
 * the guard page after some storage, or (when nothing else matches) the
 * page before one that starts on a page (a guard) or that is read-only. */
static bool classify_fault(uintptr_t addr, bool is_write, ta_finding *f)
{
    if (!g_exec || !g_checker) return false;
    const ta_case *c = ta_observer_case(g_checker);
    const ta_decl *d = ta_observer_decl(g_checker);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t n = ta_exec_storage_count(g_exec);
    f->seed = c->seed;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t id = 1; id <= n; id++) {
            ta_storage_info si;
            if (!ta_exec_storage_get(g_exec, id, &si)) continue;
            uintptr_t b = (uintptr_t)si.base, e = b + si.bytes;
            uintptr_t guard = (e + page - 1) & ~(uintptr_t)(page - 1);
            bool front = (b & (page - 1)) == 0;
            if (pass == 0 && si.bytes && addr >= b && addr < e && si.readonly) {
                name_trapped_write(c, d, id, b, addr, f);
                return true;
            }
            if (pass == 0 && addr >= (e == guard ? e : guard) && addr < guard + page) {
                name_guard_hit(storage_owner(c, d, id), is_write, false, (size_t)(addr - e), si.bytes, f);
                return true;
            }
            bool below = addr < b && (front ? b - addr <= page
                                            : si.readonly && addr >= (b & ~(uintptr_t)(page - 1)));
            if (pass == 1 && below) {
                name_guard_hit(storage_owner(c, d, id), is_write, true, (size_t)(b - addr), si.bytes, f);
                return true;
            }
        }
    return false;
}

static void fault_handler(int sig, siginfo_t *si, void *uc)
{
    bool is_write = false;
#if defined(__x86_64__) && defined(REG_ERR)
    is_write = (((ucontext_t *)uc)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
    (void)uc;
#endif
    ta_finding f = {0};
    /* snprintf is not async-signal-safe in general; the process is about to
     * exit and does nothing else, which is the accepted risk here. */
    if (g_fd >= 0 && classify_fault((uintptr_t)si->si_addr, is_write, &f)) {
        f.severity = ta_verdict_kind_severity(f.kind);
        size_t k = strlen(f.message);
        if (k + 20 < sizeof f.message) {
            k += (size_t)snprintf(f.message + k, sizeof f.message - k, " [case: ");
            snprintf(f.message + k, sizeof f.message - k - 1, "%s", ta_observer_case_text(g_checker));
            k = strlen(f.message);
            if (k + 1 < sizeof f.message) strcpy(f.message + k, "]");
        }
        send_finding(g_fd, &f);
        put_line(g_fd, "T\n", 2);
        _exit(3);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_handlers(void)
{
    static char altstack[1 << 16];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fault_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

static ta_status sample_builder(void *ud, ta_exec *x, const ta_schema *s, const ta_decl *d,
                                uint64_t seed, ta_case *c)
{
    const op_job *j = ((void **)ud)[0];
    const ta_samples *sm = ((void **)ud)[1];
    return ta_samples_build(sm, j->name, (size_t)(seed & 0xffffffffu), x, s, d, c);
}

static void send_case(void *ud, const ta_case *c, const ta_decl *d)
{
    int fd = *(int *)ud;
    char line[700];
    line[0] = 'C';
    line[1] = ' ';
    ta_case_describe(c, d, line + 2, sizeof line - 4);
    clean(line + 2);
    size_t n = strlen(line);
    line[n++] = '\n';
    put_line(fd, line, n);
}

/* After a case run in this process: the result's counts and first note.
 * false to stop (the device faulted: no fresh process to go on in). */
static bool record_case(op_job *j, ta_case_outcome oc, const char *note, bool cannot_run)
{
    if (oc == TA_CASE_RAN) j->res->exercised++;
    else if (!j->res->note[0]) snprintf(j->res->note, sizeof j->res->note, "%.255s", note);
    if (oc == TA_CASE_REJECTED && cannot_run) verify_cannot_run(j, note);
    return oc != TA_CASE_DEVICE_LOST;
}

/* After a case run in a child: tells the parent. false to stop: after a
 * device fault every later allocation would fail in this process, so the
 * parent goes on at the next case in a fresh child. */
static bool send_outcome(int fd, uint32_t c, ta_case_outcome oc, const char *note, bool cannot_run)
{
    char line[LINE_MAX_BYTES], msg[512];
    snprintf(msg, sizeof msg, "%s", note);
    clean(msg);
    int n = oc == TA_CASE_RAN ? snprintf(line, sizeof line, "X %u\n", c)
                              : snprintf(line, sizeof line, "%c %u\t%.900s\n",
                                         oc == TA_CASE_REJECTED && cannot_run ? 'N' : 'R', c, msg);
    put_line(fd, line, (size_t)n);
    if (oc != TA_CASE_DEVICE_LOST) return true;
    n = snprintf(line, sizeof line, "L %u\n", c);
    put_line(fd, line, (size_t)n);
    return false;
}

/* A discovery call starts: in a child, its case's clock starts again (the
 * parent's timeout is per call). */
static void restart_clock(void *ud)
{
    (void)ud;
    if (g_box) g_box->case_start = verify_now();
}

/* Runs case c of j: from the samples file for the first nsamples (a
 * rejected one is a finding when the samples are strict), the others
 * synthesized, with discovery when there is a search. */
static ta_case_outcome run_case(ta_observer *ck, op_job *j, uint32_t c, const ta_verify_opts *o, dsc_search *S)
{
    bool sample;
    uint64_t seed = verify_seed_of_case(j, o, c, &sample);
    void *bud[2] = {j, (void *)o->samples};
    ta_case_source from = {sample ? sample_builder : NULL, bud, sample && ta_samples_strict(o->samples), false};
    if (!sample && S) return dsc_search_run(S, ck, seed, restart_clock, NULL);
    return ta_observer_run(ck, seed, &from);
}

/* The operator's discovery (NULL when off, or out of memory: the cases
 * then run as synthesized). */
static dsc_search *open_search(const op_job *j, const ta_verify_opts *o)
{
    dsc_search *S = NULL;
    if (o->no_discovery || dsc_search_create(j->schema, j->decl, &S) != TA_OK) return NULL;
    if (o->discovered && !dsc_search_replay(S, o->discovered)) {
        dsc_search_destroy(S);
        return NULL;
    }
    return S;
}

/* What discovery did for the operator since *was: into the result, or a Y
 * line (after each case, so that a child that dies loses none of it). */
static void report_search(op_job *j, const dsc_search *S, dsc_stats *was, int fd, run_mode mode)
{
    if (!S) return;
    const dsc_stats *st = dsc_search_stats(S);
    dsc_stats d = {st->attempts - was->attempts, st->found - was->found, st->screened - was->screened,
                   st->seconds - was->seconds};
    if (!d.attempts && !d.found) return;
    *was = *st;
    if (mode == RUN_IN_PROCESS) {
        j->res->discovery_calls += d.attempts;
        j->res->discovered += d.found;
        j->res->screened += d.screened;
        j->res->discovery_seconds += d.seconds;
        return;
    }
    char line[96];
    int n = snprintf(line, sizeof line, "Y %u %u %u %.6f\n", d.attempts, d.found, d.screened, d.seconds);
    put_line(fd, line, (size_t)n);
}

/* In a child, the observer also reports each case's arguments before the
 * call, trades copies of large read-only inputs for read-only pages, and
 * the fault handler learns what it needs to name a trapped write. */
static void watch_in_child(ta_observer *ck, ta_exec *x, int *fd, bool pages)
{
    ta_observer_set_hook(ck, send_case, fd);
    if (pages) ta_observer_set_protect_min(ck, 64 << 10);
    g_fd = *fd;
    g_exec = x;
    g_checker = ck;
    install_handlers();
}

bool verify_run_cases(op_job *j, uint32_t from, const assignment *spent, const ta_verify_opts *o, int fd,
                      run_mode mode)
{
    ta_exec *x;
    child_sink sink = {.fd = fd, .inproc = mode == RUN_IN_PROCESS ? j : NULL};
    unsigned flags = o->trap_writes && !j->pages_off ? TA_OBSERVE_TRAP_WRITES : 0;
    ta_observer *ck = ta_exec_create(o->dev, &x) == TA_OK
                          ? ta_observer_create(x, j->schema, j->decl, j->fn, j->ud, flags, sink_emit, &sink)
                          : NULL;
    if (!ck) {
        ta_exec_destroy(x);
        return false;
    }
    if (mode == RUN_IN_CHILD) watch_in_child(ck, x, &fd, !j->pages_off);
    ta_observer_set_screen(ck, j->screen, j->screen_ud);
    if (g_box) ta_observer_set_screen_flag(ck, &g_box->screening);
    dsc_search *S = open_search(j, o);
    if (S && spent) dsc_search_charge(S, spent->spent_calls, spent->spent_seconds);
    dsc_stats reported = {0};
    bool go_on = true;
    for (uint32_t c = from; c < j->total && go_on; c++) {
        char line[32];
        if (mode == RUN_IN_CHILD) {
            if (g_box) g_box->case_start = verify_now();
            restart_output();
            put_line(fd, line, (size_t)snprintf(line, sizeof line, "S %u\n", c));
        } else {
            j->res->cases++;
        }
        ta_case_outcome oc = run_case(ck, j, c, o, S);
        report_search(j, S, &reported, fd, mode);
        /* Released now, not when the next case starts: a kernel that broke
         * what releasing needs then fails in its own case. */
        ta_exec_reset(x);
        bool cannot_run = ta_observer_cannot_run(ck);
        go_on = mode == RUN_IN_CHILD ? send_outcome(fd, c, oc, ta_observer_note(ck), cannot_run)
                                     : record_case(j, oc, ta_observer_note(ck), cannot_run);
    }
    dsc_search_destroy(S);
    if (mode == RUN_IN_CHILD && go_on) put_line(fd, "D\n", 2);
    g_checker = NULL;
    g_exec = NULL;
    ta_observer_destroy(ck);
    ta_exec_destroy(x);
    return go_on;
}

/* In a child: runs the jobs given, [a->job, a->job + count), the first
 * from case a->from, each announced (O) and ended (D) in the report, the
 * process state put back before each but the first. It stops early when
 * that state cannot be put back (the parent goes on at the next job in a
 * fresh child), after a device fault and when a job could not be set up. */
static void run_given(const child_work *w, const assignment *a, int out)
{
    uint32_t end = a->job + a->count;
    bool all = true;
    for (uint32_t k = a->job; k < end && all; k++) {
        if (k > a->job && ta_child_state_restore(w->state)) {
            all = false;
            break;
        }
        op_job *j = &w->jobs[k];
        j->pages_off = k == a->job && a->pages_off;
        char line[32];
        put_line(out, line, (size_t)snprintf(line, sizeof line, "O %u\n", k));
        all = k == a->job ? verify_run_cases(j, a->from, a, w->o, out, RUN_IN_CHILD)
                          : verify_run_cases(j, 0, NULL, w->o, out, RUN_IN_CHILD);
    }
    /* After the last D the parent reads no mailbox and may give it to
     * another child: it is left as it is. */
    flush_box(out, all);
}

_Noreturn void verify_spare_main(const child_work *w, mailbox *box, int errfd, int ctl, int out, pid_t parent)
{
    g_box = box;
    signal(SIGPIPE, SIG_DFL);
    /* A parent that dies leaves no spare waiting for ever. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) ta_child_exit(0);
    /* What a kernel prints must not end up inside the report on stdout. */
    if (errfd >= 0 && dup2(errfd, STDERR_FILENO) >= 0) g_errfd = STDERR_FILENO;
    dup2(STDERR_FILENO, STDOUT_FILENO);
    /* glibc writes its fatal messages ("free(): invalid pointer") to
     * /dev/tty, past any redirection, unless this is set: then they land in
     * the child's output, which a crash's finding quotes. This process's
     * own environment only (a child, forked). */
    setenv("LIBC_FATAL_STDERR_", "1", 1);
    assignment a;
    ssize_t got;
    while ((got = read(ctl, &a, sizeof a)) < 0 && errno == EINTR) {}
    if (got != (ssize_t)sizeof a || a.job >= w->n || a.count > w->n - a.job) ta_child_exit(0); /* not needed */
    close(ctl);
    ta_child_state_save(w->state, w->reg);
    run_given(w, &a, out);
    ta_child_exit(0);
}
