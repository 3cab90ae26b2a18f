/* statekernels.c - kernels that change the process they run in, and
 * kernels that see it: with --isolate=batch a child runs several operators
 * one after another, and each must find the process as a fresh child would
 * (tests/cli/verify_isolate.sh). Operators run in name order, so each
 * changer (a_, c_, e_, g_) runs before the kernel that looks (b_, d_, f_, h_):
 *   state::a_rounds_down / b_needs_nearest   the floating-point rounding mode
 *   state::c_blocks_usr1 / d_needs_usr1      the signal mask
 *   state::e_dirties / f_needs_clean         state of this library's own,
 *       which its process reset cannot put back: the batch ends there
 *   state::g_starts_thread / h_one_thread    a thread left running, which
 *       cannot be put back either: the batch ends there too.
 * A looking kernel rejects its case when the state is not a fresh child's,
 * so a batch that leaks it reports it not-exercised instead of ok. */
#include <dirent.h>
#include <fenv.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <tensoralias/kernel.h>

static bool dirty;

/* The process reset: what this library changed cannot be put back. */
static bool reset(void *ud)
{
    (void)ud;
    return !dirty;
}

static ta_status copy_back(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *x = ta_stack_tensor(st, 0);
    DLTensor *y;
    if (!x || ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape, &y) != TA_OK)
        return ta_kernel_error(ctx, "out of memory");
    size_t es = ta_dtype_size(x->dtype);
    for (int64_t i = 0, n = ta_numel(x); i < n; i++) memcpy(ta_elem_ptr(y, i), ta_elem_ptr(x, i), es);
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, y);
}

static ta_status rounds_down(ta_kernel_ctx *ctx, ta_stack *st)
{
    fesetround(FE_DOWNWARD);
    return copy_back(ctx, st);
}

static ta_status needs_nearest(ta_kernel_ctx *ctx, ta_stack *st)
{
    if (fegetround() != FE_TONEAREST) return ta_kernel_error(ctx, "the rounding mode was changed");
    return copy_back(ctx, st);
}

static ta_status blocks_usr1(ta_kernel_ctx *ctx, ta_stack *st)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR1);
    sigprocmask(SIG_BLOCK, &s, NULL);
    return copy_back(ctx, st);
}

static ta_status needs_usr1(ta_kernel_ctx *ctx, ta_stack *st)
{
    sigset_t s;
    sigprocmask(SIG_BLOCK, NULL, &s);
    if (sigismember(&s, SIGUSR1)) return ta_kernel_error(ctx, "SIGUSR1 was blocked");
    return copy_back(ctx, st);
}

static ta_status dirties(ta_kernel_ctx *ctx, ta_stack *st)
{
    dirty = true;
    return copy_back(ctx, st);
}

static ta_status needs_clean(ta_kernel_ctx *ctx, ta_stack *st)
{
    if (dirty) return ta_kernel_error(ctx, "a kernel before this one dirtied the library");
    return copy_back(ctx, st);
}

static void *sleeper(void *arg)
{
    (void)arg;
    for (;;) pause();
    return NULL;
}

static ta_status starts_thread(ta_kernel_ctx *ctx, ta_stack *st)
{
    static bool started;
    pthread_t t;
    if (!started && pthread_create(&t, NULL, sleeper, NULL) == 0) {
        pthread_detach(t);
        started = true;
    }
    return copy_back(ctx, st);
}

static ta_status one_thread(ta_kernel_ctx *ctx, ta_stack *st)
{
    DIR *d = opendir("/proc/self/task");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += e->d_name[0] != '.';
    if (d) closedir(d);
    if (n != 1) return ta_kernel_error(ctx, "%d threads run", n);
    return copy_back(ctx, st);
}

TA_API ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version)
{
    if (abi_version != TA_KERNEL_ABI_VERSION) return TA_ERR_UNSUPPORTED;
    static const struct {
        const char *schema;
        ta_kernel_fn fn;
    } ops[] = {
        {"state::a_rounds_down(Tensor self) -> Tensor", rounds_down},
        {"state::b_needs_nearest(Tensor self) -> Tensor", needs_nearest},
        {"state::c_blocks_usr1(Tensor self) -> Tensor", blocks_usr1},
        {"state::d_needs_usr1(Tensor self) -> Tensor", needs_usr1},
        {"state::e_dirties(Tensor self) -> Tensor", dirties},
        {"state::f_needs_clean(Tensor self) -> Tensor", needs_clean},
        {"state::g_starts_thread(Tensor self) -> Tensor", starts_thread},
        {"state::h_one_thread(Tensor self) -> Tensor", one_thread},
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        ta_status s = ta_register_op(reg, ops[i].schema, TA_KEY_CPU, ops[i].fn, NULL);
        if (s != TA_OK) return s;
    }
    return ta_registry_on_process_reset(reg, reset, NULL);
}
