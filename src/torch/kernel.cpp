/* kernel.cpp - the boxed kernel behind every operator the bridge registers:
 * the engine's stack becomes a torch::jit::Stack over the engine's bytes,
 * the dispatcher runs the operator's CPU kernel below autograd (the
 * tensors need no grad, and what is verified is the kernel itself), and the
 * results come back as engine tensors.
 *
 * What ATen raises (c10::Error from TORCH_CHECK and the rest) is a kernel
 * error with ATen's message: a rejected case. What the bridge cannot build
 * or hand back is one too, with the reason. A crash inside ATen stays a
 * crash: the engine's child process dies and the engine reports it. */
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/LegacyTypeDispatch.h>
#include <c10/util/Exception.h>

#include <typeinfo>

#include "torch/bridge.h"

namespace ta_torch {
namespace {

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
    if (!err.empty()) return ta_kernel_error(ctx, "%s", err.c_str());
    ta_stack_clear(st);
    for (const auto &v : stack) cs.value_out(v, st);
    return TA_OK;
}

/* Whether a screen's error is about the meta device (an operator that has
 * no Meta kernel under its composite one, a check of the bytes or of the
 * device), not about the arguments: the screen cannot tell then. */
bool about_meta(const std::string &m)
{
    static const char *const words[] = {"Meta", "meta", "fake", "Fake", "data-dependent", "data_ptr", "storage",
                                        "Storage", "item()", "FunctionalTensor", "is_cpu", "device", nullptr};
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
