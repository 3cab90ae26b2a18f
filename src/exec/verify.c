/* verify.c - running operators under verification, in child processes.
 *
 * The parent gives each child one operator (operator isolation) or a batch
 * of them, run one after another (not one per case: a child runs many
 * cases), and keeps up to `jobs` children at once. A child reports what it
 * sees as lines, one per event, into its mailbox (memory it shares with the
 * parent, so reporting wakes nobody), and sends them through a pipe when
 * the mailbox is full and when it is done; the parent reads a mailbox
 * itself only after its child died or was killed, so whatever the child
 * reported before is kept either way. The lines:
 *   O <job>                        an operator starts (every child, first)
 *   S <case>                       a case starts (its deadline starts now)
 *   C <arguments>                  its arguments, described, before the call
 *   F <kind>\t<arg>\t<seed>\t<msg> a finding
 *   X <case> / R <case>\t<msg>     the case ran / was rejected
 *   T                              a trapped write was reported; exiting
 *   L <case>                       the device faulted in the case (reported
 *                                  as a finding); exiting, since a CUDA
 *                                  context does not survive its fault
 *   D                              all the operator's cases done
 * A child that dies (signal, exit) before D has crashed in the last case it
 * started; one that stays in a case past the timeout is killed. Either way
 * the parent records the verdict, keeps everything received, and (after a
 * crash, a trapped write or a device fault) starts a new child at the next
 * case, so one bad case neither ends the run nor hides the others. Trapped
 * writes and device faults are reported by the child itself and do not
 * count as crashes (of which a child is restarted after MAX_RESTARTS only).
 * In a batch, what happens to an operator with a finding, a crash or a
 * timeout is decided by running it again alone (the parent's part, below). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "schema/alloc.h"
#include "exec/child_state.h"
#include "exec/observe.h"
#include "exec/registry_internal.h"
#include "exec/samples.h"

enum { MAX_RESTARTS = 2, LINE_MAX_BYTES = 1400 };

typedef struct op_job {
    const char *name;
    ta_arena *arena;
    ta_schema *schema;
    ta_decl *decl;
    ta_kernel_fn fn;
    void *ud;
    ta_op_result *res;
    size_t nprep; /* findings the parent made before any case (schema-mismatch) */
    uint32_t total, next_case, nsamples;
    uint32_t first_sample; /* the sample case 0 runs (a --case-seed naming a sample) */
    int restarts;
    bool done;
    bool strict; /* special-case writes are errors */
    /* what its child reported last */
    int64_t cur_case;
    bool got_done, trapped, device_lost;
    /* A child of this operator reported a trapped write or a guard page hit:
     * the later children run on snapshots alone (no read-only pages), so a
     * kernel that writes an input in every case is restarted once, not in
     * every case; the write is reported already. */
    bool pages_off;
    size_t capfindings;
} op_job;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* A synthesized case's seed: never below TA_SAMPLE_SEEDS, which name
 * samples; its low byte is the case's index (modulo 256), which
 * synthesis reads to give the first cases of every operator its covering
 * rows, special values and large shapes (synth.c). */
static uint64_t case_seed(const ta_verify_opts *o, const char *op, uint32_t c)
{
    if (o->has_case_seed) return o->case_seed;
    uint64_t s = ta_mix64(o->seed ^ fnv1a(op) ^ ((uint64_t)c * 0x9e3779b97f4a7c15ull));
    s = (s & ~0xffull) | (c & 0xff);
    return s < TA_SAMPLE_SEEDS ? s | TA_SAMPLE_SEEDS : s;
}

/* Case c of j: a sample (its index is its seed) or a synthesized case. */
static uint64_t seed_of_case(const op_job *j, const ta_verify_opts *o, uint32_t c, bool *sample)
{
    *sample = c < j->nsamples;
    return *sample ? (uint64_t)j->first_sample + c : case_seed(o, j->name, c - j->nsamples);
}

/* ---- results ----------------------------------------------------------- */

/* A write of an argument torch's SchemaInfo only special-cases as written
 * (training mode) is a finding of its own: the annotation debt stays
 * visible, as a warning (an error when strict). f is rewritten in place. */
static void special_case(const op_job *j, ta_finding *f)
{
    if (f->kind != TA_V_UNDECLARED_MUTATION || !j->decl) return;
    for (int i = 0; i < j->decl->nargs; i++) {
        const ta_decl_slot *a = &j->decl->args[i];
        if (!a->special_write || strcmp(a->name, f->argument)) continue;
        char was[720];
        snprintf(was, sizeof was, "%.*s", (int)sizeof was - 1, f->message);
        f->kind = TA_V_SPECIAL_CASE_WRITE;
        f->severity = j->strict ? TA_SEV_ERROR : ta_verdict_kind_severity(f->kind);
        snprintf(f->message, sizeof f->message,
                 "torch's SchemaInfo special-cases '%s' as written in training mode, but the schema "
                 "does not declare it written: %s", a->name, was);
        return;
    }
}

static void add_finding(op_job *j, const ta_finding *given)
{
    ta_op_result *r = j->res;
    ta_finding copy = *given, *f = &copy;
    special_case(j, f);
    for (size_t i = 0; i < r->nfindings; i++)
        if (r->findings[i].kind == f->kind && !strcmp(r->findings[i].argument, f->argument)) return;
    if (r->nfindings == j->capfindings) {
        size_t cap = j->capfindings ? j->capfindings * 2 : 4;
        ta_finding *n = ta_realloc(r->findings, cap * sizeof *n);
        if (!n) return;
        r->findings = n;
        j->capfindings = cap;
    }
    r->findings[r->nfindings++] = *f;
}

static void add_simple(op_job *j, ta_verdict_kind k, uint64_t seed, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add_simple(op_job *j, ta_verdict_kind k, uint64_t seed, const char *fmt, ...)
{
    ta_finding f = {.kind = k, .severity = ta_verdict_kind_severity(k), .seed = seed};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f.message, sizeof f.message, fmt, ap);
    va_end(ap);
    add_finding(j, &f);
}

/* Worst severity first, then most specific kind, else in the order found. */
static bool finding_before(const ta_finding *a, const ta_finding *b)
{
    if (a->severity != b->severity) return a->severity > b->severity;
    return ta_verdict_kind_rank(a->kind) < ta_verdict_kind_rank(b->kind);
}

static void sort_findings(ta_op_result *r)
{
    for (size_t i = 1; i < r->nfindings; i++) {
        ta_finding f = r->findings[i];
        size_t k = i;
        for (; k > 0 && finding_before(&f, &r->findings[k - 1]); k--) r->findings[k] = r->findings[k - 1];
        r->findings[k] = f;
    }
}

static void finish_result(op_job *j)
{
    ta_op_result *r = j->res;
    if (r->verdict != TA_V_NO_KERNEL) {
        bool serious = false;
        for (size_t i = 0; i < r->nfindings; i++)
            if (r->findings[i].severity == TA_SEV_ERROR) serious = true;
        if (r->exercised == 0 && !serious)
            add_simple(j, TA_V_NOT_EXERCISED, 0, "no case was accepted (%u tried)%s%s", r->cases,
                       r->note[0] ? ": " : "", r->note);
        r->verdict = TA_V_OK;
    }
    r->severity = ta_verdict_kind_severity(r->verdict);
    sort_findings(r);
    /* The first finding is the worst and, among the worst, the most
     * specific: it names the verdict (any finding is worse than ok). */
    if (r->nfindings && (r->verdict == TA_V_OK || r->findings[0].severity > r->severity)) {
        r->verdict = r->findings[0].kind;
        r->severity = r->findings[0].severity;
    }
}

/* ---- the child --------------------------------------------------------- */

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

/* A child's mailbox: its report lines not yet sent through the pipe, and
 * when its current case started (for the parent's timeout). */
enum { MAILBOX_BYTES = 64 << 10 };
typedef struct mailbox {
    volatile size_t len;        /* bytes of data holding whole lines */
    volatile double case_start; /* monotonic seconds; 0 before the first case */
    char data[MAILBOX_BYTES - 2 * sizeof(double)];
} mailbox;

static mailbox *g_box; /* this child's, or NULL (in-process runs) */

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
        add_finding(s->inproc, f);
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

/* Where the cases of an operator run: in a child process that reports
 * through a pipe, or (tests, benchmarks) in this process, straight into
 * the result. */
typedef enum run_mode { RUN_IN_CHILD, RUN_IN_PROCESS } run_mode;

/* After a case run in this process: the result's counts and first note.
 * false to stop (the device faulted: no fresh process to go on in). */
static bool record_case(op_job *j, ta_case_outcome oc, const char *note)
{
    if (oc == TA_CASE_RAN) j->res->exercised++;
    else if (!j->res->note[0]) snprintf(j->res->note, sizeof j->res->note, "%.255s", note);
    return oc != TA_CASE_DEVICE_LOST;
}

/* After a case run in a child: tells the parent. false to stop: after a
 * device fault every later allocation would fail in this process, so the
 * parent goes on at the next case in a fresh child. */
static bool send_outcome(int fd, uint32_t c, ta_case_outcome oc, const char *note)
{
    char line[LINE_MAX_BYTES], msg[512];
    snprintf(msg, sizeof msg, "%s", note);
    clean(msg);
    int n = oc == TA_CASE_RAN ? snprintf(line, sizeof line, "X %u\n", c)
                              : snprintf(line, sizeof line, "R %u\t%.900s\n", c, msg);
    put_line(fd, line, (size_t)n);
    if (oc != TA_CASE_DEVICE_LOST) return true;
    n = snprintf(line, sizeof line, "L %u\n", c);
    put_line(fd, line, (size_t)n);
    return false;
}

/* Runs case c of j: from the samples file for the first nsamples (a
 * rejected one is a finding when the samples are strict). */
static ta_case_outcome run_case(ta_observer *ck, op_job *j, uint32_t c, const ta_verify_opts *o)
{
    bool sample;
    uint64_t seed = seed_of_case(j, o, c, &sample);
    void *bud[2] = {j, (void *)o->samples};
    ta_case_source from = {sample ? sample_builder : NULL, bud, sample && ta_samples_strict(o->samples)};
    return ta_observer_run(ck, seed, &from);
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

/* Runs cases [from, total) of j, reporting through fd (in a child) or into
 * j (in process). In a child, false when it must end: the device faulted
 * (nothing more runs in this process) or the cases could not be set up;
 * else it has reported D. */
static bool run_cases(op_job *j, uint32_t from, const ta_verify_opts *o, int fd, run_mode mode)
{
    ta_exec *x = ta_exec_create(o->dev);
    child_sink sink = {.fd = fd, .inproc = mode == RUN_IN_PROCESS ? j : NULL};
    unsigned flags = o->trap_writes && !j->pages_off ? TA_OBSERVE_TRAP_WRITES : 0;
    ta_observer *ck = x ? ta_observer_create(x, j->schema, j->decl, j->fn, j->ud, flags, sink_emit, &sink)
                        : NULL;
    if (!ck) {
        ta_exec_destroy(x);
        return false;
    }
    if (mode == RUN_IN_CHILD) watch_in_child(ck, x, &fd, !j->pages_off);
    bool go_on = true;
    for (uint32_t c = from; c < j->total && go_on; c++) {
        char line[32];
        if (mode == RUN_IN_CHILD) {
            if (g_box) g_box->case_start = now_s();
            put_line(fd, line, (size_t)snprintf(line, sizeof line, "S %u\n", c));
        } else {
            j->res->cases++;
        }
        ta_case_outcome oc = run_case(ck, j, c, o);
        /* Released now, not when the next case starts: a kernel that broke
         * what releasing needs then fails in its own case. */
        ta_exec_reset(x);
        go_on = mode == RUN_IN_CHILD ? send_outcome(fd, c, oc, ta_observer_note(ck))
                                     : record_case(j, oc, ta_observer_note(ck));
    }
    if (mode == RUN_IN_CHILD && go_on) put_line(fd, "D\n", 2);
    g_checker = NULL;
    g_exec = NULL;
    ta_observer_destroy(ck);
    ta_exec_destroy(x);
    return go_on;
}

/* ---- the parent -------------------------------------------------------- */

/* Children are forked one ahead: a spare child, forked while the others
 * run, waits on its control pipe until it is given its operators (a range
 * of job indices and the case to start the first at, since those change
 * after the fork), so a process that has mapped libtorch (milliseconds to
 * fork) is ready when a slot frees. A spare is forked only when none is
 * pending, so no other child holds the write end of its control pipe:
 * closing it ends a spare that is not needed.
 *
 * Operator isolation (batch 1) gives each child one operator; a crash goes
 * on with the same operator at its next case in a fresh child. Batch
 * isolation gives a child up to `batch` operators, run one after another
 * through the same code, the process state put back between them
 * (child_state.c). An operator that ends in a batch child with a finding,
 * or during which the child dies or times out, is not reported from there:
 * it runs again alone, in operator isolation, and that result is the one
 * reported; the rest of the batch goes on in a fresh child. So every
 * finding is what operator isolation gives, and a batch child only ever
 * reports operators clean (ok, or not exercised) on its own. */

/* What the parent keeps for one running (or spare) child: its mailbox, the
 * report lines read so far, its current case's arguments. One per child
 * that can be alive at once, not one per operator, so the parent writes to
 * few pages while children share the others. */
typedef struct child_io {
    mailbox *box; /* NULL when no shared memory could be had */
    char buf[8192];
    size_t buflen;
    char cur_desc[600]; /* the current case's arguments */
    bool busy;
} child_io;

typedef struct spare_child {
    pid_t pid; /* 0: none pending */
    int ctl;   /* write end of its control pipe */
    int fd;    /* read end of its report pipe */
    child_io *io;
} spare_child;

/* The parent's children: the pending spare, and the child_io of each
 * running child and of the spare (their mailboxes in one shared mapping
 * made before the first fork). */
typedef struct children {
    spare_child spare;
    child_io *io;
    mailbox *boxes;
    uint32_t nio;
} children;

/* A running child: it was given jobs [first, end) and reports on one at a
 * time, announcing each (O); the jobs before `settled` have their results
 * (or wait to run alone). */
typedef struct runner {
    pid_t pid; /* 0: the slot is free */
    int fd;
    child_io *io;
    uint32_t first, end, settled;
    int64_t cur;       /* the job it announced last, -1 before any */
    bool alone;        /* operator isolation: a crash goes on with the same job */
    bool left;         /* free slot: [first, end) is what its last child left to do */
    double case_start; /* when its current case started, as far as the parent knows */
} runner;

/* One verify run in child processes. */
typedef struct run_ctx {
    op_job *jobs;
    size_t n;
    const ta_verify_opts *o;
    ta_child_state *state; /* what a child puts back between operators */
    const ta_registry *reg;
    uint32_t batch; /* operators a child is given (1: operator isolation) */
    double timeout;
    children ch;
    runner *slots; /* o->jobs of them */
    struct pollfd *pfd; /* one per slot */
    uint32_t nslots, running;
    uint32_t next;   /* the first job not handed out yet */
    uint32_t *queue; /* jobs to run alone, [qhead, qtail) */
    size_t qhead, qtail;
    size_t done;
    pid_t *exiting; /* children let go of, not collected yet */
    size_t nexiting;
    ta_verify_stats *stats;
} run_ctx;

static bool children_init(children *ch, uint32_t jobs)
{
    *ch = (children){.nio = jobs + 1};
    ch->io = ta_calloc(ch->nio, sizeof *ch->io);
    if (!ch->io) return false;
    void *m = mmap(NULL, ch->nio * sizeof(mailbox), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    ch->boxes = m == MAP_FAILED ? NULL : m;
    for (uint32_t i = 0; i < ch->nio; i++) ch->io[i].box = ch->boxes ? &ch->boxes[i] : NULL;
    return true;
}

static void children_free(children *ch)
{
    if (ch->boxes) munmap(ch->boxes, ch->nio * sizeof(mailbox));
    free(ch->io);
}

/* A free child_io, emptied (there is always one: at most jobs children run
 * and one is spare). */
static child_io *io_take(children *ch)
{
    for (uint32_t i = 0; i < ch->nio; i++) {
        child_io *io = &ch->io[i];
        if (io->busy) continue;
        io->busy = true;
        io->buflen = 0;
        io->cur_desc[0] = '\0';
        if (io->box) {
            io->box->len = 0;
            io->box->case_start = 0;
        }
        return io;
    }
    return NULL;
}

static void io_give_back(child_io *io)
{
    if (io) io->busy = false;
}

typedef struct assignment {
    uint32_t job, count, from;
    uint8_t pages_off;
} assignment;

/* In a child: runs the jobs given, [a->job, a->job + count), the first
 * from case a->from, each announced (O) and ended (D) in the report, the
 * process state put back before each but the first. It stops early when
 * that state cannot be put back (the parent goes on at the next job in a
 * fresh child), after a device fault and when a job could not be set up. */
static void run_given(const run_ctx *x, const assignment *a, int out)
{
    uint32_t end = a->job + a->count;
    bool all = true;
    for (uint32_t k = a->job; k < end && all; k++) {
        if (k > a->job && ta_child_state_restore(x->state)) {
            all = false;
            break;
        }
        op_job *j = &x->jobs[k];
        j->pages_off = k == a->job && a->pages_off;
        char line[32];
        put_line(out, line, (size_t)snprintf(line, sizeof line, "O %u\n", k));
        all = run_cases(j, k == a->job ? a->from : 0, x->o, out, RUN_IN_CHILD);
    }
    /* After the last D the parent reads no mailbox and may give it to
     * another child: it is left as it is. */
    flush_box(out, all);
}

/* In a spare child: waits for its jobs and runs them; exits. */
static _Noreturn void spare_main(run_ctx *x, int ctl, int out, pid_t parent)
{
    signal(SIGPIPE, SIG_DFL);
    /* A parent that dies leaves no spare waiting for ever. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) ta_child_exit(0);
    /* What a kernel prints must not end up inside the report on stdout. */
    dup2(STDERR_FILENO, STDOUT_FILENO);
    assignment a;
    ssize_t got;
    while ((got = read(ctl, &a, sizeof a)) < 0 && errno == EINTR) {}
    if (got != (ssize_t)sizeof a || a.job >= x->n || a.count > x->n - a.job) ta_child_exit(0); /* not needed */
    close(ctl);
    ta_child_state_save(x->state, x->reg);
    run_given(x, &a, out);
    ta_child_exit(0);
}

static bool fork_spare(run_ctx *x)
{
    int rep[2], ctl[2];
    if (pipe(rep) != 0) return false;
    /* A socket, so the assignment sent to a spare that died is EPIPE, not SIGPIPE. */
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, ctl) != 0) {
        close(rep[0]);
        close(rep[1]);
        return false;
    }
    child_io *io = io_take(&x->ch);
    if (!io) {
        close(rep[0]);
        close(rep[1]);
        close(ctl[0]);
        close(ctl[1]);
        return false;
    }
    fflush(NULL);
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        close(rep[0]);
        close(ctl[1]);
        g_box = io->box;
        spare_main(x, ctl[0], rep[1], parent);
    }
    close(rep[1]);
    close(ctl[0]);
    if (pid < 0) {
        close(rep[0]);
        close(ctl[1]);
        io_give_back(io);
        return false;
    }
    fcntl(rep[0], F_SETFL, O_NONBLOCK);
    x->ch.spare = (spare_child){.pid = pid, .ctl = ctl[1], .fd = rep[0], .io = io};
    if (x->stats) x->stats->children++;
    return true;
}

/* Ends a pending spare that is not needed (it exits when its control pipe
 * closes); its pid joins the exiting ones. */
static void drop_spare(run_ctx *x)
{
    spare_child *sp = &x->ch.spare;
    if (!sp->pid) return;
    close(sp->ctl);
    close(sp->fd);
    io_give_back(sp->io);
    x->exiting[x->nexiting++] = sp->pid;
    sp->pid = 0;
}

/* Jobs [first, end) in slot r, in the spare child (forked now if none is
 * pending), alone or as a batch; false when no child could be started. */
static bool start_runner(run_ctx *x, runner *r, uint32_t first, uint32_t end, bool alone)
{
    spare_child *sp = &x->ch.spare;
    if (!sp->pid && !fork_spare(x)) return false;
    op_job *j = &x->jobs[first];
    assignment a = {first, end - first, alone ? j->next_case : 0, alone && j->pages_off};
    ssize_t w;
    while ((w = send(sp->ctl, &a, sizeof a, MSG_NOSIGNAL)) < 0 && errno == EINTR) {}
    close(sp->ctl);
    *r = (runner){.pid = sp->pid, .fd = sp->fd, .io = sp->io, .first = first, .end = end,
                  .settled = first, .cur = -1, .alone = alone, .case_start = now_s()};
    sp->pid = 0;
    j->cur_case = -1;
    j->got_done = j->trapped = j->device_lost = false;
    x->running++;
    /* A spare that died before reading its assignment is reaped as a crash
     * before any case like any other. */
    (void)w;
    return true;
}

/* When the running case of r started, as far as the parent knows. */
static double case_started(const runner *r)
{
    double t = r->io && r->io->box ? r->io->box->case_start : 0;
    return t > r->case_start ? t : r->case_start;
}

static uint64_t seed_of(op_job *j, const ta_verify_opts *o, int64_t c)
{
    if (c < 0) return 0;
    bool sample;
    return seed_of_case(j, o, (uint32_t)c, &sample);
}

/* j's result is final. */
static void complete(run_ctx *x, op_job *j)
{
    j->done = true;
    finish_result(j);
    x->done++;
    if (x->o->progress) x->o->progress(x->o->progress_ud, x->done, x->n, j->name);
}

/* What a batch child reported of j is dropped and j queued to run alone:
 * its result starts again from what the parent knew before any case. */
static void run_alone_later(run_ctx *x, op_job *j)
{
    ta_op_result *r = j->res;
    r->nfindings = j->nprep;
    r->cases = r->exercised = 0;
    r->note[0] = '\0';
    j->next_case = 0;
    j->restarts = 0;
    j->pages_off = false;
    x->queue[x->qtail++] = (uint32_t)(j - x->jobs);
    if (x->stats) x->stats->reruns++;
}

/* j's child reported D: its cases are done. */
static void settle(run_ctx *x, runner *r, op_job *j)
{
    j->got_done = true;
    r->settled = (uint32_t)(j - x->jobs) + 1;
    if (r->alone || j->res->nfindings == j->nprep) complete(x, j);
    else run_alone_later(x, j);
}

/* O: the child starts job k. A line repeated from its mailbox for a job
 * settled already is ignored, as are the lines after it. */
static void announce(run_ctx *x, runner *r, const char *arg)
{
    uint64_t k = strtoull(arg, NULL, 10);
    if (k >= r->end) return;
    r->cur = (int64_t)k;
    if (k < r->settled) return;
    op_job *j = &x->jobs[k];
    j->cur_case = -1;
    j->got_done = j->trapped = j->device_lost = false;
    r->io->cur_desc[0] = '\0';
}

/* F: a finding, "kind\targument\tseed\tmessage". */
static void parse_finding(op_job *j, char *line)
{
    ta_finding f = {0};
    char *fields[4] = {line, NULL, NULL, NULL}, *tab;
    for (int i = 1; i < 4; i++) {
        if (!fields[i - 1] || !(tab = strchr(fields[i - 1], '\t'))) return;
        *tab = '\0';
        fields[i] = tab + 1;
    }
    if (!ta_verdict_kind_parse(fields[0], &f.kind)) return;
    f.severity = ta_verdict_kind_severity(f.kind);
    snprintf(f.argument, sizeof f.argument, "%s", fields[1]);
    f.seed = strtoull(fields[2], NULL, 16);
    snprintf(f.message, sizeof f.message, "%s", fields[3]);
    add_finding(j, &f);
}

static void handle_line(run_ctx *x, runner *r, char *line)
{
    if (line[0] == 'O') {
        announce(x, r, line + 2);
        return;
    }
    if (r->cur < (int64_t)r->settled) return; /* nothing announced, or a settled job's line */
    op_job *j = &x->jobs[r->cur];
    char *tab;
    switch (line[0]) {
    case 'S':
        j->cur_case = strtoll(line + 2, NULL, 10);
        r->io->cur_desc[0] = '\0';
        r->case_start = now_s();
        j->res->cases++;
        break;
    case 'X': j->res->exercised++; break;
    case 'R':
        if ((tab = strchr(line, '\t')) && !j->res->note[0])
            snprintf(j->res->note, sizeof j->res->note, "%.255s", tab + 1);
        break;
    case 'T': /* the kernel was running on the case: it was exercised */
        j->trapped = j->pages_off = true;
        j->res->exercised++;
        break;
    case 'L': j->device_lost = true; break;
    case 'C': snprintf(r->io->cur_desc, sizeof r->io->cur_desc, "%.590s", line + 2); break;
    case 'D': settle(x, r, j); break;
    case 'F': parse_finding(j, line + 2); break;
    default: break;
    }
}

/* Reads what the child sent; true at end of file. */
static bool drain(run_ctx *x, runner *r)
{
    for (;;) {
        child_io *io = r->io;
        ssize_t n = read(r->fd, io->buf + io->buflen, sizeof io->buf - 1 - io->buflen);
        if (n == 0) return true;
        if (n < 0) return errno != EAGAIN && errno != EINTR && errno != EWOULDBLOCK;
        io->buflen += (size_t)n;
        io->buf[io->buflen] = '\0';
        char *start = io->buf, *nl;
        while ((nl = memchr(start, '\n', io->buflen - (size_t)(start - io->buf)))) {
            *nl = '\0';
            handle_line(x, r, start);
            start = nl + 1;
        }
        size_t rest = io->buflen - (size_t)(start - io->buf);
        memmove(io->buf, start, rest);
        io->buflen = rest;
        if (io->buflen == sizeof io->buf - 1) io->buflen = 0; /* an overlong line: drop it */
    }
}

static const char *signame(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV (segmentation fault)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGABRT: return "SIGABRT (abort)";
    case SIGFPE: return "SIGFPE (arithmetic exception)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGKILL: return "SIGKILL";
    default: return strsignal(sig);
    }
}

/* The lines a dead child left in its mailbox. */
static void read_box(run_ctx *x, runner *r)
{
    mailbox *b = r->io->box;
    if (!b) return;
    size_t len = __atomic_load_n(&b->len, __ATOMIC_ACQUIRE);
    if (len > sizeof b->data) len = 0; /* a kernel scribbled over it */
    for (char *p = b->data, *end = b->data + len, *nl; p < end && (nl = memchr(p, '\n', (size_t)(end - p)));
         p = nl + 1) {
        *nl = '\0';
        handle_line(x, r, p);
    }
}

/* A child running j alone died (or was killed) in j's case c: the verdict,
 * and where j goes on (j->done when it does not). */
static void alone_died(run_ctx *x, op_job *j, int status, bool timed_out, const char *desc)
{
    const ta_verify_opts *o = x->o;
    int64_t c = j->cur_case;
    uint64_t seed = seed_of(j, o, c);
    if (timed_out) {
        add_simple(j, TA_V_TIMEOUT, seed,
                   "case %lld did not finish within %.3g s; the kernel was killed [case: %s]",
                   (long long)c, o->timeout, desc);
        j->done = true; /* a hang tends to repeat: the other cases are skipped */
        return;
    }
    if (!j->trapped && !j->device_lost) {
        if (WIFSIGNALED(status))
            add_simple(j, TA_V_CRASH, seed, "the kernel died of %s in case %lld [case: %s]",
                       signame(WTERMSIG(status)), (long long)c, desc);
        else
            add_simple(j, TA_V_CRASH, seed, "the process exited with status %d in case %lld [case: %s]",
                       WIFEXITED(status) ? WEXITSTATUS(status) : -1, (long long)c, desc);
        if (++j->restarts > MAX_RESTARTS) {
            j->done = true;
            return;
        }
    }
    j->next_case = (uint32_t)(c < 0 ? 0 : c + 1);
    if (j->next_case >= j->total) j->done = true;
}

/* A batch child died (or was killed) before it settled all its jobs: the
 * job it was running runs alone later (nothing it reported counts), and
 * the first job it did not reach is returned (r->end when none is left). */
static uint32_t batch_died(run_ctx *x, runner *r, bool timed_out)
{
    uint32_t next = r->settled;
    if (r->cur >= (int64_t)r->settled || r->cur < 0) {
        /* It died in the job it announced last, or before announcing any
         * (then the first is run alone, which settles it either way). */
        uint32_t k = r->cur < 0 ? r->first : (uint32_t)r->cur;
        run_alone_later(x, &x->jobs[k]);
        if (timed_out && x->stats) x->stats->timeouts_rerun++;
        next = k + 1;
    } else if (x->stats) {
        x->stats->cut++; /* it ended the batch itself: state it could not put back */
    }
    return next;
}

/* The child's pipe closed (or it timed out and was killed): collect it,
 * and what it reported (through the pipe, then in its mailbox). Returns
 * the job to go on at in this slot (r->end: none), *alone telling how. */
static uint32_t reap(run_ctx *x, runner *r, bool timed_out, bool *alone)
{
    int status = 0;
    while (waitpid(r->pid, &status, 0) < 0 && errno == EINTR) {}
    r->pid = 0;
    drain(x, r);
    close(r->fd);
    r->fd = -1;
    if (r->settled < r->end) read_box(x, r); /* after the last D it was sent through the pipe */
    char desc[sizeof r->io->cur_desc];
    snprintf(desc, sizeof desc, "%s", r->io->cur_desc);
    io_give_back(r->io);
    r->io = NULL;
    *alone = r->alone;
    if (r->settled == r->end) return r->end;
    if (!r->alone) return batch_died(x, r, timed_out);
    op_job *j = &x->jobs[r->first];
    alone_died(x, j, status, timed_out, desc);
    if (!j->done) return r->first;
    complete(x, j);
    return r->end;
}

/* A child that has settled all its jobs is done with: its slot goes to
 * the next job at once, while it exits (a process that mapped libtorch
 * takes milliseconds to tear down). Its pid waits in x->exiting until it
 * can be collected. true when r was such a child. */
static bool let_go(run_ctx *x, runner *r)
{
    if (r->settled < r->end) return false;
    drain(x, r);
    close(r->fd);
    r->fd = -1;
    io_give_back(r->io); /* its mailbox was emptied through the pipe with D */
    r->io = NULL;
    int status;
    if (waitpid(r->pid, &status, WNOHANG) == 0) x->exiting[x->nexiting++] = r->pid;
    r->pid = 0;
    return true;
}

/* Collects the children let go of that have exited (all of them when wait). */
static void collect_exited(run_ctx *x, bool wait)
{
    for (size_t i = 0; i < x->nexiting;) {
        int status;
        pid_t p;
        while ((p = waitpid(x->exiting[i], &status, wait ? 0 : WNOHANG)) < 0 && errno == EINTR) {}
        if (p == 0) {
            i++;
            continue;
        }
        x->exiting[i] = x->exiting[--x->nexiting];
    }
}

/* Before forking many children: the parent's private anonymous memory
 * (malloc's heap and large mappings; libtorch's dispatcher tables alone are
 * some 40 MB) collapsed into 2 MB pages, so that each fork copies one
 * page-table entry for 512 (MADV_COLLAPSE, Linux 6.1). It costs about 3 ms
 * per 1 MB collapsed, once, and saves about half a millisecond a fork with
 * libtorch mapped, hence only for long runs. Best effort: a range that
 * does not collapse stays as it was. Mappings keep their flags, so what
 * the children allocate later is not backed by huge pages. */
enum { HUGE_PAGES_FROM = 256 };
#if defined(__linux__) && !defined(MADV_COLLAPSE)
#define MADV_COLLAPSE 25 /* <linux/mman.h>; glibc's headers may lack it */
#endif

static void huge_pages_for_fork(void)
{
#ifdef MADV_COLLAPSE
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return;
    const uintptr_t huge = (uintptr_t)2 << 20;
    char line[512], perms[8], name[16];
    while (fgets(line, sizeof line, f)) {
        uintptr_t lo, hi;
        unsigned long inode;
        name[0] = '\0';
        if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %*s %*s %lu %15s", &lo, &hi, perms, &inode,
                   name) < 4)
            continue;
        /* Anonymous and private: no inode, and no name but the heap's. */
        if (strcmp(perms, "rw-p") || inode || (name[0] && strcmp(name, "[heap]"))) continue;
        uintptr_t from = (lo + huge - 1) & ~(huge - 1), to = hi & ~(huge - 1);
        if (from < to) madvise((void *)from, to - from, MADV_COLLAPSE);
    }
    fclose(f);
#endif
}


/* Gives free slot r its next work: what its last child left (the rest of
 * its batch, or its job from the next case), else a job queued to run
 * alone, else the next batch (in operator isolation, the next job). A job
 * no child can be started for is a crash. false when there is no work. */
static bool fill_slot(run_ctx *x, runner *r)
{
    for (;;) {
        uint32_t first = r->first, end = r->end;
        bool alone = r->alone;
        if (r->left) {
            r->left = false;
        } else if (x->qhead < x->qtail) {
            first = x->queue[x->qhead++];
            end = first + 1;
            alone = true;
        } else if (x->next < x->n) {
            first = x->next;
            end = x->n - first < x->batch ? (uint32_t)x->n : first + x->batch;
            alone = x->batch == 1;
            x->next = end;
        } else {
            return false;
        }
        if (start_runner(x, r, first, end, alone)) return true;
        op_job *j = &x->jobs[first];
        add_simple(j, TA_V_CRASH, 0, "could not start a child process: %s", strerror(errno));
        complete(x, j);
        if (first + 1 < end) *r = (runner){.first = first + 1, .end = end, .left = true};
    }
}

/* Waits for the running children to report, end or overrun their case's
 * time; a child that is done or dead leaves its slot free, with what is
 * left of its work (runner.left). */
static void poll_slots(run_ctx *x)
{
    struct pollfd *pfd = x->pfd;
    double now = now_s(), wait = x->timeout;
    int np = 0;
    for (uint32_t s = 0; s < x->nslots; s++) {
        runner *r = &x->slots[s];
        if (!r->pid) continue;
        double left = case_started(r) + x->timeout - now;
        if (left < wait) wait = left;
        pfd[np++] = (struct pollfd){.fd = r->fd, .events = POLLIN};
    }
    poll(pfd, (nfds_t)np, wait <= 0 ? 0 : (int)(wait * 1000) + 1);
    now = now_s();
    for (uint32_t s = 0; s < x->nslots; s++) {
        runner *r = &x->slots[s];
        if (!r->pid) continue;
        bool eof = drain(x, r), finished = r->settled == r->end;
        bool timed_out = !eof && !finished && now - case_started(r) > x->timeout;
        if (!eof && !timed_out && !finished) continue;
        if (timed_out) kill(r->pid, SIGKILL);
        x->running--;
        if (let_go(x, r)) continue;
        bool alone;
        uint32_t next = reap(x, r, timed_out, &alone);
        if (next < r->end) *r = (runner){.first = next, .end = r->end, .alone = alone, .left = true};
    }
}

static bool ctx_init(run_ctx *x, op_job *jobs, size_t n, const ta_verify_opts *o, const ta_registry *reg,
                     ta_verify_stats *stats)
{
    uint32_t slots = o->jobs ? o->jobs : 1;
    *x = (run_ctx){.jobs = jobs, .n = n, .o = o, .reg = reg, .stats = stats, .nslots = slots,
                   .batch = o->batch > 1 ? o->batch : 1, .timeout = o->timeout > 0 ? o->timeout : 10.0};
    x->slots = ta_calloc(slots, sizeof *x->slots);
    x->pfd = ta_calloc(slots, sizeof *x->pfd);
    x->queue = ta_calloc(n + 1, sizeof *x->queue);
    /* Each child let go of settled a job, and a job is settled at most twice. */
    x->exiting = ta_calloc(2 * n + 2, sizeof *x->exiting);
    x->state = ta_calloc(1, sizeof *x->state);
    if (x->slots && x->pfd && x->queue && x->exiting && x->state && children_init(&x->ch, slots)) return true;
    free(x->slots);
    free(x->pfd);
    free(x->queue);
    free(x->exiting);
    free(x->state);
    return false;
}

static void ctx_free(run_ctx *x)
{
    children_free(&x->ch);
    free(x->slots);
    free(x->pfd);
    free(x->queue);
    free(x->exiting);
    free(x->state);
}

/* Runs every job in children; false when out of memory before any ran. */
static bool run_parallel(op_job *jobs, size_t n, const ta_verify_opts *o, const ta_registry *reg,
                         ta_verify_stats *stats)
{
    if (n >= HUGE_PAGES_FROM) huge_pages_for_fork();
    run_ctx x;
    if (!ctx_init(&x, jobs, n, o, reg, stats)) return false;
    while (x.done < n) {
        collect_exited(&x, false);
        for (uint32_t s = 0; s < x.nslots; s++)
            if (!x.slots[s].pid) fill_slot(&x, &x.slots[s]);
        if (!x.running) break; /* no work is left (every job is done) */
        /* The next child, forked while these run. */
        if (!x.ch.spare.pid && (x.next < n || x.qhead < x.qtail)) fork_spare(&x);
        poll_slots(&x);
    }
    drop_spare(&x);
    collect_exited(&x, true);
    ctx_free(&x);
    return true;
}

/* ---- the entry point --------------------------------------------------- */

/* The kernel that runs op on the run's device; false (with a no-kernel
 * result) when there is none. */
static bool find_kernel(op_job *j, const ta_registry_op *op, const char *name,
                        const ta_verify_opts *o)
{
    if (!op || !ta_registry_has_kernel(op)) {
        j->res->verdict = TA_V_NO_KERNEL;
        add_simple(j, TA_V_NO_KERNEL, 0, "no kernel is registered for %s", name);
        return false;
    }
    j->fn = ta_registry_kernel_for(op, o->dev->type, &j->ud);
    j->res->derived = ta_registry_is_derived(op);
    if (j->fn) return true;
    j->res->verdict = TA_V_NO_KERNEL;
    add_simple(j, TA_V_NO_KERNEL, 0, "no kernel for device %s is registered for %s", o->dev->name,
               name);
    return false;
}

/* The parsed schema of op and its declaration, in the job's arena; false
 * (with a kernel-error result) when they cannot be had. */
static bool read_declaration(op_job *j, const ta_registry_op *op, const char *name)
{
    j->arena = ta_arena_create();
    ta_diags *pd = ta_diags_create();
    if (!op->schema) {
        add_simple(j, TA_V_KERNEL_ERROR, 0, "%s has a kernel but no schema", name);
    } else if (!j->arena || !pd ||
               ta_schema_parse(j->arena, op->schema, strlen(op->schema), NULL, &j->schema, pd) != TA_OK) {
        const ta_diag *g = pd && ta_diags_count(pd) ? ta_diags_get(pd, 0) : NULL;
        add_simple(j, TA_V_KERNEL_ERROR, 0, "the schema of %s does not parse: %s", name,
                   g ? g->message : "out of memory");
    } else if (ta_decl_build(j->arena, j->schema, &j->decl) != TA_OK) {
        add_simple(j, TA_V_KERNEL_ERROR, 0, "out of memory");
    }
    ta_diags_destroy(pd);
    if (j->decl) return true;
    ta_arena_destroy(j->arena);
    j->arena = NULL;
    return false;
}

/* How many cases j runs: its samples, then the synthesized ones; with a
 * case seed, the one case it names (a sample when below the count). */
static void plan_cases(op_job *j, const ta_verify_opts *o, size_t nsamples)
{
    if (o->has_case_seed) {
        j->nsamples = o->case_seed < nsamples ? 1 : 0;
        j->first_sample = j->nsamples ? (uint32_t)o->case_seed : 0;
        j->total = 1;
        return;
    }
    j->nsamples = (uint32_t)(nsamples < UINT32_MAX / 2 ? nsamples : UINT32_MAX / 2);
    j->total = j->nsamples + (o->samples_only ? 0 : o->cases);
}

/* A job for operator ops[i] into *j; false when its result is final
 * already (no kernel, no usable schema). */
static bool prepare_job(op_job *j, ta_op_result *r, const ta_registry *reg, const char *name,
                        const ta_verify_opts *o)
{
    snprintf(r->op, sizeof r->op, "%s", name);
    *j = (op_job){.name = r->op, .res = r, .strict = o->strict};
    const ta_registry_op *op = ta_registry_find(reg, name);
    if (!find_kernel(j, op, name, o) || !read_declaration(j, op, name)) {
        finish_result(j);
        return false;
    }
    const char *mismatch = ta_registry_mismatch_(reg, name);
    if (mismatch) add_simple(j, TA_V_SCHEMA_MISMATCH, 0, "%s", mismatch);
    j->nprep = r->nfindings;
    plan_cases(j, o, ta_samples_count(o->samples, name));
    return true;
}

/* Runs every job: in children, or one after the other in this process;
 * false when out of memory before any ran. */
static bool run_jobs(op_job *run, size_t nrun, const ta_verify_opts *o, const ta_registry *reg,
                     ta_verify_stats *stats)
{
    if (!o->in_process) return run_parallel(run, nrun, o, reg, stats);
    for (size_t i = 0; i < nrun; i++) {
        run_cases(&run[i], 0, o, -1, RUN_IN_PROCESS);
        finish_result(&run[i]);
        if (o->progress) o->progress(o->progress_ud, i + 1, nrun, run[i].name);
    }
    return true;
}

ta_status ta_verify(const ta_registry *reg, const char *const *ops, size_t nops,
                    const ta_verify_opts *opts, ta_verify_report **out, ta_diags *diags)
{
    (void)diags;
    ta_verify_opts o = *opts;
    if (!o.cases) o.cases = 40;
    if (o.timeout <= 0) o.timeout = 10.0;
    if (!o.dev) o.dev = ta_exec_device_cpu();
    ta_verify_report *rep = ta_calloc(1, sizeof *rep);
    op_job *jobs = ta_calloc(nops ? nops : 1, sizeof *jobs);
    if (rep) rep->ops = ta_calloc(nops ? nops : 1, sizeof *rep->ops);
    if (!rep || !jobs || !rep->ops) {
        if (rep) free(rep->ops);
        free(rep);
        free(jobs);
        return TA_ERR_NOMEM;
    }
    rep->nops = nops;
    /* Small runs trap writes to read-only inputs: only read-only pages see
     * a kernel that writes an input and puts the old bytes back. */
    if (!o.in_process && o.dev->type == kDLCPU && (uint64_t)nops * o.cases <= TA_VERIFY_TRAP_AUTO)
        o.trap_writes = true;
    double t0 = now_s();
    size_t nrun = 0; /* jobs that need cases run, packed at the front */
    for (size_t i = 0; i < nops; i++)
        if (prepare_job(&jobs[nrun], &rep->ops[i], reg, ops[i], &o)) nrun++;
    bool ran = run_jobs(jobs, nrun, &o, reg, &rep->stats);
    for (size_t i = 0; i < nrun; i++) {
        rep->total_cases += jobs[i].res->cases;
        ta_arena_destroy(jobs[i].arena);
    }
    free(jobs);
    rep->seconds = now_s() - t0;
    if (!ran) {
        ta_verify_report_destroy(rep);
        return TA_ERR_NOMEM;
    }
    *out = rep;
    return TA_OK;
}

void ta_verify_report_destroy(ta_verify_report *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->nops; i++) free(r->ops[i].findings);
    free(r->ops);
    free(r);
}
