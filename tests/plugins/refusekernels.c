/* refusekernels.c - kernels whose refusals or crashes say more than a
 * rejected case: tests/cli/verify_refusals.sh.
 *   refuse::cuda_only   refuses every case with ta_kernel_cannot_run, as
 *                       the libtorch bridge does for a composite calling an
 *                       operator with no CPU kernel: not-runnable
 *   refuse::sometimes   refuses float32 cases so and the others as any
 *                       kernel does: some input might run, so not-exercised
 *   refuse::meta_crash  wants a 5-d x; its screen (a Meta kernel) crashes
 *                       on the candidates discovery asks it about: the
 *                       crash is the Meta kernel's, not the kernel's
 *   refuse::late_crash  refuses every case, discovery's guesses too, and
 *                       dies at every 300th call a process makes: the
 *                       children that go on after it share one discovery
 *                       budget (400 calls), not one each */
#include <signal.h>

#include <tensoralias/kernel.h>

static ta_status cuda_only(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)st;
    return ta_kernel_cannot_run(ctx, "calls refuse::_cuda_impl, which has no CPU kernel");
}

static ta_status sometimes(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *x = ta_stack_tensor(st, 0);
    if (x->dtype.code == kDLFloat && x->dtype.bits == 32)
        return ta_kernel_cannot_run(ctx, "calls refuse::_cuda_impl, which has no CPU kernel");
    return ta_kernel_error(ctx, "sometimes: refused");
}

static ta_status meta_crash(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *x = ta_stack_tensor(st, 0);
    if (x->ndim != 5) return ta_kernel_error(ctx, "Expected x.dim() == 5 to be true, but got false.");
    DLTensor *y;
    if (ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape, &y) != TA_OK) return ta_kernel_error(ctx, "out of memory");
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, y);
}

static ta_status late_crash(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)st;
    static unsigned calls;
    if (++calls % 300 == 0) raise(SIGSEGV);
    return ta_kernel_error(ctx, "late_crash: refused");
}

static ta_status meta_crash_screen(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)ctx;
    (void)st;
    raise(SIGSEGV);
    return TA_OK;
}

ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version);
ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version)
{
    static const struct {
        const char *schema;
        ta_kernel_fn fn;
    } ops[] = {
        {"refuse::cuda_only(Tensor x) -> Tensor", cuda_only},
        {"refuse::sometimes(Tensor x) -> Tensor", sometimes},
        {"refuse::meta_crash(Tensor x) -> Tensor", meta_crash},
        {"refuse::late_crash(Tensor x, Tensor y, int n) -> Tensor", late_crash},
    };
    if (abi_version != TA_KERNEL_ABI_VERSION) return TA_ERR_UNSUPPORTED;
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        ta_status s = ta_register_op(reg, ops[i].schema, TA_KEY_CPU, ops[i].fn, NULL);
        if (s != TA_OK) return s;
    }
    return ta_register_screen(reg, "refuse::meta_crash", meta_crash_screen, NULL);
}
