/* child_state.c - what a verify child puts back between two operators.
 *
 * A child that runs several operators (--isolate=batch) must give each the
 * process a fresh child would: one forked from the parent, which runs no
 * kernel. The engine's own state is per operator already (an execution
 * context, an observer and a report sink each); what a kernel can leave
 * changed in the process is put back here: the floating-point environment
 * (a kernel that sets flush-to-zero or another rounding mode), the signal
 * mask and the dispositions of the signals that end or stop a process, and
 * whatever the kernel libraries registered a reset for (the libtorch
 * bridge: its random generator, thread-local state and global settings).
 * What cannot be put back ends the batch, and the next operator gets a
 * fresh child: a thread a kernel left running (it may go on writing), and
 * state a library's reset says it cannot put back. */
#include <dirent.h>
#include <string.h>

#include "exec/verify/child_state.h"

static const int saved_signals[TA_CHILD_SIGNALS] = {
    SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGPIPE,
    SIGALRM, SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGXCPU, SIGXFSZ, SIGUSR1,
};

/* The process's threads (entries of /proc/self/task); -1 when unknown. */
static int count_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

void ta_child_state_save(ta_child_state *s, const ta_registry *reg)
{
    memset(s, 0, sizeof *s);
    s->threads = count_threads();
    fegetenv(&s->fenv);
    sigprocmask(SIG_SETMASK, NULL, &s->mask);
    for (int i = 0; i < TA_CHILD_SIGNALS; i++) sigaction(saved_signals[i], NULL, &s->acts[i]);
    const ta_registry_ext *x = registry_ext_const(reg);
    for (int i = 0; i < x->nresets; i++) {
        s->resets[i] = x->resets[i].fn;
        s->reset_ud[i] = x->resets[i].ud;
    }
    s->nresets = x->nresets;
}

const char *ta_child_state_restore(const ta_child_state *s)
{
    if (fesetenv(&s->fenv) != 0) return "the floating-point environment";
    if (sigprocmask(SIG_SETMASK, &s->mask, NULL) != 0) return "the signal mask";
    for (int i = 0; i < TA_CHILD_SIGNALS; i++)
        if (sigaction(saved_signals[i], &s->acts[i], NULL) != 0) return "a signal's disposition";
    if (count_threads() != s->threads) return "the process's threads";
    for (int i = 0; i < s->nresets; i++)
        if (!s->resets[i](s->reset_ud[i])) return "a kernel library's process state";
    return NULL;
}
