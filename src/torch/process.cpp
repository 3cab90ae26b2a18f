/* process.cpp - libtorch's process-wide state, as the engine's children
 * need it.
 *
 * prepare_process, before the bridge registers anything: one intra-op
 * thread (no OpenMP team is ever started, so no thread pool is copied
 * half-alive into a child) and warnings dropped; and the default CPU
 * generator seeded with a fixed seed (libtorch seeds it at random, once
 * per process), so operators given no generator (dropout, bernoulli,
 * randperm...) draw the same numbers from run to run, as every child of a
 * run does.
 *
 * record_process, after registration (an extension library loaded then may
 * have changed it), records what every child starts with: the generator's
 * state, the thread-local state (grad mode, inference mode, the dispatch
 * keys included and excluded) and the global settings a kernel could
 * change.
 *
 * reset_process, between two operators one child runs (verify
 * --isolate=batch): puts the generator and the thread-local state back as
 * recorded, so an operator draws the numbers it would draw in a fresh
 * child; and returns false when a global setting, the CPU allocator or the
 * warning handler is no longer what it was (none of them can be put back
 * for certain), so the engine gives the next operator a fresh child. */
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <ATen/ThreadLocalState.h>
#include <c10/core/DefaultDtype.h>
#include <c10/util/Exception.h>

#include <memory>
#include <mutex>

#include "torch/bridge.h"

namespace ta_torch {
namespace {

class SilentWarnings : public c10::WarningHandler {
  public:
#if TA_TORCH_AT_LEAST(2, 0)
    void process(const c10::Warning &) override {}
#else
    void process(const c10::SourceLocation &, const std::string &, const bool) override {}
#endif
};

SilentWarnings silent;

/* The warning settings moved from c10::Warning to c10::WarningUtils in 2.0. */
#if TA_TORCH_AT_LEAST(2, 0)
namespace warnings = c10::WarningUtils;
#else
namespace warnings {
inline bool get_warnAlways() { return c10::Warning::get_warnAlways(); }
inline c10::WarningHandler *get_warning_handler() { return c10::Warning::get_warning_handler(); }
inline void set_warning_handler(c10::WarningHandler *h) { c10::Warning::set_warning_handler(h); }
} // namespace warnings
#endif

/* What prepare_process found, compared between operators. */
struct Settings {
    int threads;
    caffe2::TypeMeta dtype;
    bool deterministic, warn_only, mkldnn, warn_always;
    at::Float32MatmulPrecision matmul;
    at::LinalgBackend linalg;
    c10::Allocator *allocator;
    c10::WarningHandler *warnings;

    static Settings now()
    {
        auto &c = at::globalContext();
        return {at::get_num_threads(),
                c10::get_default_dtype(),
                c.deterministicAlgorithms(),
                c.deterministicAlgorithmsWarnOnly(),
                c.userEnabledMkldnn(),
                warnings::get_warnAlways(),
                c.float32MatmulPrecision(),
                c.linalgPreferredBackend(),
                c10::GetAllocator(c10::DeviceType::CPU),
                warnings::get_warning_handler()};
    }
    bool operator==(const Settings &o) const
    {
        return threads == o.threads && dtype == o.dtype && deterministic == o.deterministic &&
               warn_only == o.warn_only && mkldnn == o.mkldnn && warn_always == o.warn_always &&
               matmul == o.matmul && linalg == o.linalg && allocator == o.allocator && warnings == o.warnings;
    }
};

struct Fresh {
    Settings settings;
    at::Tensor generator; /* the default CPU generator's state */
    at::ThreadLocalState tls;
};

std::unique_ptr<Fresh> fresh;

} // namespace

void prepare_process()
{
    at::set_num_threads(1);
    warnings::set_warning_handler(&silent);
    at::Generator g = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(g.mutex());
    g.set_current_seed(c10::default_rng_seed_val);
}

void record_process()
{
    at::Generator g = at::detail::getDefaultCPUGenerator();
    at::Tensor state;
    {
        std::lock_guard<std::mutex> lock(g.mutex());
        state = g.get_state();
    }
    fresh.reset(new Fresh{Settings::now(), state, at::ThreadLocalState()});
}

extern "C" bool reset_process(void *)
{
    if (!fresh) return false;
    try {
        at::Generator g = at::detail::getDefaultCPUGenerator();
        {
            std::lock_guard<std::mutex> lock(g.mutex());
            g.set_state(fresh->generator);
        }
        at::ThreadLocalState::setThreadLocalState(fresh->tls);
        return Settings::now() == fresh->settings;
    } catch (const std::exception &) {
        return false;
    }
}

} // namespace ta_torch
