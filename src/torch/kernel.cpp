/* kernel.cpp - the boxed kernel behind every operator the bridge registers:
 * the engine's stack becomes a torch::jit::Stack over the engine's bytes,
 * the dispatcher runs the operator's CPU kernel below autograd (the
 * tensors need no grad, and what is verified is the kernel itself), and the
 * results come back as engine tensors.
 *
 * What ATen raises (c10::Error from TORCH_CHECK and the rest) is a kernel
 * error with ATen's message: a rejected case. What the bridge cannot build
 * or hand back is one too, with the reason. A crash inside ATen stays a
 * crash: the engine's child process dies and the engine reports it.
 *
 * One refusal says more: the dispatcher's "Could not run 'Y' with
 * arguments from the 'CPU' backend" for another operator Y that the
 * operator's kernel called (a composite out= variant over a CUDA-only
 * operator). Whether Y has a kernel for some CPU layout the engine does
 * not make (sparse, quantized, MKLDNN, nested), or none at all, is asked of
 * the dispatcher: either way no input the engine makes can run the
 * operator, and the case is refused with ta_kernel_cannot_run. */
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/LegacyTypeDispatch.h>
#include <c10/util/Exception.h>

#include <typeinfo>

#include "torch/bridge.h"

namespace ta_torch {
namespace {

/* The dispatch keys of CPU tensors of a layout the engine does not make. */
const std::pair<c10::DispatchKey, const char *> other_cpu_layouts[] = {
    {c10::DispatchKey::SparseCPU, "sparse"},       {c10::DispatchKey::SparseCsrCPU, "sparse compressed"},
    {c10::DispatchKey::QuantizedCPU, "quantized"}, {c10::DispatchKey::MkldnnCPU, "MKLDNN"},
    {c10::DispatchKey::NestedTensorCPU, "nested"},
};

/* Why no input the engine makes can run e, when ATen's refusal m is the
 * dispatcher's for another operator with no kernel for dense CPU tensors;
 * "" when m proves nothing of the kind (the operator itself refused our
 * input, another backend, another message). */
std::string cannot_run_why(const OpEntry &e, const std::string &m)
{
    static const std::string head = "Could not run '", tail = "' with arguments from the 'CPU' backend";
    size_t at = m.find(head);
    if (at == std::string::npos) return "";
    size_t from = at + head.size(), end = m.find('\'', from);
    if (end == std::string::npos || m.compare(end, tail.size(), tail) != 0) return "";
    std::string y = m.substr(from, end - from);
    if (y == e.name) return "";
    size_t dot = y.find('.', y.find("::") == std::string::npos ? 0 : y.find("::"));
    c10::OperatorName name(y.substr(0, dot), dot == std::string::npos ? "" : y.substr(dot + 1));
    auto h = c10::Dispatcher::singleton().findOp(name);
    if (!h || h->hasKernelForDispatchKey(c10::DispatchKey::CPU)) return "";
    std::string layouts;
    for (const auto &k : other_cpu_layouts)
        if (h->hasKernelForDispatchKey(k.first)) layouts += std::string(layouts.empty() ? "" : ", ") + k.second;
    if (layouts.empty()) return "calls " + y + ", which has no CPU kernel";
    return "calls " + y + ", which has CPU kernels only for " + layouts + " tensors (the engine makes dense ones)";
}

/* Runs the call; "" on success, else ATen's message. */
std::string call(const OpEntry &e, torch::jit::Stack &stack)
{
    try {
        at::AutoDispatchBelowADInplaceOrView below_autograd;
        e.op.callBoxed(&stack);
        return "";
    } catch (const c10::Error &err) {
        std::string m = err.what_without_backtrace();
        return m.empty() ? "ATen raised an error without a message" : m;
    } catch (const std::exception &err) {
        /* A Python kernel's exception (torch's python_error): its message is Python's. */
        std::string py = std::string(typeid(err).name()).find("python_error") != std::string::npos
                             ? python_error_message()
                             : "";
        if (!py.empty()) return py;
        return err.what()[0] ? err.what() : "ATen raised an exception without a message";
    }
}

ta_status run(const OpEntry &e, ta_kernel_ctx *ctx, ta_stack *st)
{
    if (!e.refusal.empty()) return ta_kernel_error(ctx, "%s", e.refusal.c_str());
    const auto &args = e.op.schema().arguments();
    if (ta_stack_size(st) != args.size())
        return ta_kernel_error(ctx, "tensoralias: %zu arguments for %s, whose schema in libtorch has %zu",
                               ta_stack_size(st), e.name.c_str(), args.size());
    /* The engine's allocator stays ATen's until every tensor of the call is
     * gone: memory taken with raw_allocate (ideep's, for mkldnn tensors) is
     * given back through whatever allocator is current when it dies. */
    AllocatorScope scope(ctx);
    CallState cs(ctx, st);
    torch::jit::Stack stack;
    stack.reserve(args.size());
    for (size_t i = 0; i < args.size(); i++) stack.push_back(cs.value_in(*ta_stack_at(st, i), args[i]));
    dump_call(e.name, stack);
    std::string err = call(e, stack);
    /* A rejected call is observed too: it must not have changed what it may not. */
    cs.sync_inputs();
    std::string never = err.empty() ? "" : cannot_run_why(e, err);
    if (!never.empty()) return ta_kernel_cannot_run(ctx, "%s", never.c_str());
    if (!err.empty()) return ta_kernel_error(ctx, "%s", err.c_str());
    ta_stack_clear(st);
    for (const auto &v : stack) cs.value_out(v, st);
    return TA_OK;
}

/* Whether a screen's error is about the meta device (an operator that has
 * no Meta kernel under its composite one, a check of the bytes or of the
 * device), not about the arguments: the screen cannot tell then. c10's
 * "data is not allocated yet" is a composite reading a meta tensor's bytes
 * (_sobol_engine_scramble_, fbgemm_pack_gemm_matrix_fp16: every case was
 * refused so). */
bool about_meta(const std::string &m)
{
    static const char *const words[] = {"Meta", "meta", "fake", "Fake", "data-dependent", "data_ptr", "storage",
                                        "Storage", "item()", "FunctionalTensor", "is_cpu", "device",
                                        "data is not allocated", nullptr};
    for (int i = 0; words[i]; i++)
        if (m.find(words[i]) != std::string::npos) return true;
    return false;
}

ta_status screen(const OpEntry &e, ta_kernel_ctx *ctx, ta_stack *st)
{
    if (!e.refusal.empty()) return ta_kernel_error(ctx, "%s", e.refusal.c_str());
    const auto &args = e.op.schema().arguments();
    if (ta_stack_size(st) != args.size()) return TA_ERR_UNSUPPORTED;
    CallState cs(ctx, st, CallState::Meta{});
    torch::jit::Stack stack;
    stack.reserve(args.size());
    try {
        for (size_t i = 0; i < args.size(); i++) stack.push_back(cs.value_in(*ta_stack_at(st, i), args[i]));
        at::AutoDispatchBelowADInplaceOrView below_autograd;
        e.op.callBoxed(&stack);
        return TA_OK;
    } catch (const c10::Error &err) {
        std::string m = err.what_without_backtrace();
        if (m.empty() || about_meta(m)) return TA_ERR_UNSUPPORTED;
        return ta_kernel_error(ctx, "%s", m.c_str());
    } catch (const std::exception &) {
        return TA_ERR_UNSUPPORTED;
    }
}

} // namespace

extern "C" ta_status ta_torch_screen(ta_kernel_ctx *ctx, ta_stack *st)
{
    const auto *e = static_cast<const OpEntry *>(ta_kernel_user_data(ctx));
    try {
        return screen(*e, ctx, st);
    } catch (...) {
        return TA_ERR_UNSUPPORTED;
    }
}

extern "C" ta_status ta_torch_kernel(ta_kernel_ctx *ctx, ta_stack *st)
{
    const auto *e = static_cast<const OpEntry *>(ta_kernel_user_data(ctx));
    try {
        return run(*e, ctx, st);
    } catch (const BadGeometry &err) {
        return ta_kernel_bad_geometry(ctx, err.t, "%s", err.what());
    } catch (const std::exception &err) {
        return ta_kernel_error(ctx, "%s", err.what());
    }
}

} // namespace ta_torch
