/* verify_parent.c - the parent of a verify run: its children, forked one
 * ahead, given operators, read, timed out, reaped and restarted.
 *
 * A child that dies (signal, exit) before D has crashed in the last case it
 * started; one that stays in a case past the timeout is killed. Either way
 * the parent records the verdict, keeps everything received, and (after a
 * crash, a trapped write or a device fault) starts a new child at the next
 * case, so one bad case neither ends the run nor hides the others. Trapped
 * writes and device faults are reported by the child itself and do not
 * count as crashes (of which a child is restarted after MAX_RESTARTS only).
 *
 * Children are forked one ahead: a spare child, forked while the others
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
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/alloc.h"
#include "exec/verify/verify_internal.h"

enum { MAX_RESTARTS = 2 };

/* What the parent keeps for one running (or spare) child: its mailbox, the
 * report lines read so far, its current case's arguments. One per child
 * that can be alive at once, not one per operator, so the parent writes to
 * few pages while children share the others. */
typedef struct child_io {
    mailbox *box; /* NULL when no shared memory could be had */
    char buf[8192];
    size_t buflen;
    char cur_desc[600]; /* the current case's arguments */
    int errfd;          /* what its child prints (verify_spare_main), or -1 */
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
    child_work work; /* the jobs, and what a child needs to run them */
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
    for (uint32_t i = 0; i < ch->nio; i++) {
        ch->io[i].box = ch->boxes ? &ch->boxes[i] : NULL;
        /* TA_CHILD_OUTPUT=1 (working on a kernel or on discovery) leaves it on the terminal */
        ch->io[i].errfd = getenv("TA_CHILD_OUTPUT") ? -1 : memfd_create("tensoralias-child-output", MFD_CLOEXEC);
    }
    return true;
}

static void children_free(children *ch)
{
    if (ch->boxes) munmap(ch->boxes, ch->nio * sizeof(mailbox));
    for (uint32_t i = 0; ch->io && i < ch->nio; i++)
        if (ch->io[i].errfd >= 0) close(ch->io[i].errfd);
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
        if (io->errfd >= 0 && ftruncate(io->errfd, 0) != 0) {} /* a stale tail is only less exact */
        if (io->box) {
            io->box->len = 0;
            io->box->case_start = 0;
            io->box->screening = 0;
        }
        return io;
    }
    return NULL;
}

static void io_give_back(child_io *io)
{
    if (io) io->busy = false;
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
        verify_spare_main(&x->work, io->box, io->errfd, ctl[0], rep[1], parent);
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
    op_job *j = &x->work.jobs[first];
    /* Alone, j goes on from its next case: the calls its discovery made in
     * the children before count against its bounds. */
    assignment a = {first, end - first, alone ? j->next_case : 0, alone && j->pages_off,
                    alone && j->next_case ? j->res->discovery_calls : 0,
                    alone && j->next_case ? j->res->discovery_seconds : 0};
    ssize_t w;
    while ((w = send(sp->ctl, &a, sizeof a, MSG_NOSIGNAL)) < 0 && errno == EINTR) {}
    close(sp->ctl);
    *r = (runner){.pid = sp->pid, .fd = sp->fd, .io = sp->io, .first = first, .end = end,
                  .settled = first, .cur = -1, .alone = alone, .case_start = verify_now()};
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
    return verify_seed_of_case(j, o, (uint32_t)c, &sample);
}

/* j's result is final. */
static void complete(run_ctx *x, op_job *j)
{
    j->done = true;
    verify_finish_result(j);
    x->done++;
    if (x->work.o->progress) x->work.o->progress(x->work.o->progress_ud, x->done, x->work.n, j->name);
}

/* What a batch child reported of j is dropped and j queued to run alone:
 * its result starts again from what the parent knew before any case. */
static void run_alone_later(run_ctx *x, op_job *j)
{
    ta_op_result *r = j->res;
    r->nfindings = j->nprep;
    r->cases = r->exercised = 0;
    r->discovery_calls = r->discovered = r->screened = 0;
    r->discovery_seconds = 0;
    r->note[0] = '\0';
    j->next_case = 0;
    j->restarts = 0;
    j->pages_off = false;
    j->cannot_run = 0;
    x->queue[x->qtail++] = (uint32_t)(j - x->work.jobs);
    if (x->stats) x->stats->reruns++;
}

/* j's child reported D: its cases are done. */
static void settle(run_ctx *x, runner *r, op_job *j)
{
    j->got_done = true;
    r->settled = (uint32_t)(j - x->work.jobs) + 1;
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
    op_job *j = &x->work.jobs[k];
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
    verify_add_finding(j, &f);
}

/* Y: what discovery did, "calls found screened seconds". */
static void read_discovery(op_job *j, const char *line)
{
    unsigned calls = 0, found = 0, screened = 0;
    double secs = 0;
    if (sscanf(line, "%u %u %u %lf", &calls, &found, &screened, &secs) != 4) return;
    j->res->discovery_calls += calls;
    j->res->discovered += found;
    j->res->screened += screened;
    j->res->discovery_seconds += secs;
}

static void handle_line(run_ctx *x, runner *r, char *line)
{
    if (line[0] == 'O') {
        announce(x, r, line + 2);
        return;
    }
    if (r->cur < (int64_t)r->settled) return; /* nothing announced, or a settled job's line */
    op_job *j = &x->work.jobs[r->cur];
    char *tab;
    switch (line[0]) {
    case 'S':
        j->cur_case = strtoll(line + 2, NULL, 10);
        r->io->cur_desc[0] = '\0';
        r->case_start = verify_now();
        j->res->cases++;
        break;
    case 'X': j->res->exercised++; break;
    case 'R':
    case 'N': /* rejected; N: as no input could run it (ta_kernel_cannot_run) */
        if ((tab = strchr(line, '\t')) && !j->res->note[0])
            snprintf(j->res->note, sizeof j->res->note, "%.255s", tab + 1);
        if (line[0] == 'N') verify_cannot_run(j, tab ? tab + 1 : "");
        break;
    case 'T': /* the kernel was running on the case: it was exercised */
        j->trapped = j->pages_off = true;
        j->res->exercised++;
        break;
    case 'L': j->device_lost = true; break;
    case 'C': snprintf(r->io->cur_desc, sizeof r->io->cur_desc, "%.590s", line + 2); break;
    case 'D': settle(x, r, j); break;
    case 'Y': read_discovery(j, line + 2); break;
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

/* The last lines a dead child printed in its last case (a kernel's
 * message before it aborted: "free(): invalid pointer"), joined by " | "
 * into out (empty when it printed nothing). */
static void output_tail(int fd, char *out, size_t cap)
{
    char buf[1024];
    out[0] = '\0';
    off_t size = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
    if (size <= 0) return;
    off_t from = size > (off_t)sizeof buf - 1 ? size - (off_t)sizeof buf + 1 : 0;
    ssize_t n = pread(fd, buf, (size_t)(size - from), from);
    if (n <= 0) return;
    buf[n] = '\0';
    for (ssize_t i = 0; i < n; i++) /* control bytes (and a hole's zeros) read as blanks */
        if ((unsigned char)buf[i] < ' ' && buf[i] != '\n') buf[i] = ' ';
    /* the last three lines that are not blank, in order */
    const char *lines[3];
    size_t lens[3];
    int k = 0;
    for (char *end = buf + n; end > buf && k < 3;) {
        char *s = end;
        while (s > buf && s[-1] != '\n') s--;
        char *e = end;
        while (e > s && (e[-1] == ' ' || e[-1] == '\n')) e--;
        while (s < e && *s == ' ') s++;
        if (e > s) lines[k] = s, lens[k++] = (size_t)(e - s);
        end = s > buf ? s - 1 : buf;
    }
    size_t used = 0;
    for (int i = k - 1; i >= 0 && used + 4 < cap; i--) {
        int w = snprintf(out + used, cap - used, "%s%.*s", used ? " | " : "", (int)lens[i], lines[i]);
        used += w > 0 ? (size_t)w : 0;
    }
    if (used >= cap) used = cap - 1;
    out[used] = '\0';
}

/* A child running j alone died (or was killed) in j's case c: the verdict,
 * and where j goes on (j->done when it does not). printed: what it printed
 * last (output_tail); screening: it was in the operator's screen, its Meta
 * kernel, not the kernel verified. */
static void alone_died(run_ctx *x, op_job *j, int status, bool timed_out, const char *desc, const char *printed,
                       bool screening)
{
    const ta_verify_opts *o = x->work.o;
    int64_t c = j->cur_case;
    uint64_t seed = seed_of(j, o, c);
    char who[320];
    if (screening) snprintf(who, sizeof who, "the Meta kernel of %s (the screen run before its kernel)", j->name);
    else snprintf(who, sizeof who, "the kernel");
    if (timed_out) {
        verify_add_simple(j, TA_V_TIMEOUT, seed,
                   "case %lld did not finish within %.3g s; %s was killed [case: %s]",
                   (long long)c, o->timeout, who, desc);
        j->done = true; /* a hang tends to repeat: the other cases are skipped */
        return;
    }
    if (!j->trapped && !j->device_lost) {
        const char *said = printed[0] ? "; it printed last: " : "";
        if (WIFSIGNALED(status))
            verify_add_simple(j, TA_V_CRASH, seed, "%s died of %s in case %lld%s%s [case: %s]", who,
                       signame(WTERMSIG(status)), (long long)c, said, printed, desc);
        else
            verify_add_simple(j, TA_V_CRASH, seed, "the process exited with status %d in case %lld%s%s%s [case: %s]",
                       WIFEXITED(status) ? WEXITSTATUS(status) : -1, (long long)c,
                       screening ? " in the Meta kernel (the screen)" : "", said, printed, desc);
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
        run_alone_later(x, &x->work.jobs[k]);
        if (timed_out && x->stats) x->stats->timeouts_rerun++;
        next = k + 1;
    } else if (x->stats && !timed_out) {
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
    char desc[sizeof r->io->cur_desc], printed[200];
    snprintf(desc, sizeof desc, "%s", r->io->cur_desc);
    output_tail(r->io->errfd, printed, sizeof printed);
    bool screening = r->io->box && r->io->box->screening;
    io_give_back(r->io);
    r->io = NULL;
    *alone = r->alone;
    if (r->settled == r->end) return r->end;
    if (!r->alone) return batch_died(x, r, timed_out);
    op_job *j = &x->work.jobs[r->first];
    alone_died(x, j, status, timed_out, desc, printed, screening);
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
        } else if (x->next < x->work.n) {
            first = x->next;
            end = x->work.n - first < x->batch ? (uint32_t)x->work.n : first + x->batch;
            alone = x->batch == 1;
            x->next = end;
        } else {
            return false;
        }
        if (start_runner(x, r, first, end, alone)) return true;
        op_job *j = &x->work.jobs[first];
        verify_add_simple(j, TA_V_CRASH, 0, "could not start a child process: %s", strerror(errno));
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
    double now = verify_now(), wait = x->timeout;
    int np = 0;
    for (uint32_t s = 0; s < x->nslots; s++) {
        runner *r = &x->slots[s];
        if (!r->pid) continue;
        double left = case_started(r) + x->timeout - now;
        if (left < wait) wait = left;
        pfd[np++] = (struct pollfd){.fd = r->fd, .events = POLLIN};
    }
    poll(pfd, (nfds_t)np, wait <= 0 ? 0 : (int)(wait * 1000) + 1);
    now = verify_now();
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
    *x = (run_ctx){.work = {.jobs = jobs, .n = n, .o = o, .reg = reg}, .stats = stats, .nslots = slots,
                   .batch = o->batch > 1 ? o->batch : 1, .timeout = o->timeout > 0 ? o->timeout : 10.0};
    x->slots = ta_calloc(slots, sizeof *x->slots);
    x->pfd = ta_calloc(slots, sizeof *x->pfd);
    x->queue = ta_calloc(n + 1, sizeof *x->queue);
    /* Each child let go of settled a job, and a job is settled at most twice. */
    x->exiting = ta_calloc(2 * n + 2, sizeof *x->exiting);
    x->work.state = ta_calloc(1, sizeof *x->work.state);
    if (x->slots && x->pfd && x->queue && x->exiting && x->work.state && children_init(&x->ch, slots))
        return true;
    free(x->slots);
    free(x->pfd);
    free(x->queue);
    free(x->exiting);
    free(x->work.state);
    return false;
}

static void ctx_free(run_ctx *x)
{
    children_free(&x->ch);
    free(x->slots);
    free(x->pfd);
    free(x->queue);
    free(x->exiting);
    free(x->work.state);
}

bool verify_run_parallel(op_job *jobs, size_t n, const ta_verify_opts *o, const ta_registry *reg,
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
