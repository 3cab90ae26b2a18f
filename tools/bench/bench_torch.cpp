/* bench_torch.cpp - observation overhead through the libtorch bridge.
 *
 * For a few ATen operators on 1 MB float32 tensors (512 x 512): an out=
 * (add.out), an in-place one (mul_.Tensor), a functional one that allocates
 * its result (abs), a reduction (sum.dim_IntList) and a view (transpose.int),
 * it times
 *   - the kernel called directly through libtorch (the at:: function, below
 *     autograd as the bridge calls it, on tensors ATen allocated, their
 *     values written before each call as the engine writes a case's);
 *   - one case verified through the bridge (build/libtensoralias_torch.so,
 *     loaded as `verify --kernels torch` loads it): the engine builds the
 *     arguments, snapshots the inputs (or makes them read-only, as verify's
 *     children do for large ones), calls the kernel through the dispatcher
 *     on its own storage, and compares;
 * and reports the observation overhead (the case's time minus building its
 * inputs, timed inside the case, minus the direct kernel) against the
 * direct kernel. Best of many
 * runs each, in this thread's CPU time (other processes on a shared machine
 * do not count; page faults and system calls do). Built where libtorch is (TORCH=1); run from the repository's
 * root, or with the bridge's path as its first argument (an operator's name
 * as the second runs that one alone). */
#include <ATen/ATen.h>
#include <ATen/core/LegacyTypeDispatch.h>
#include <ATen/Parallel.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>
#include <unistd.h>

/* The engine's internal headers are C11; _Noreturn is not C++. */
#define _Noreturn __attribute__((noreturn))
extern "C" {
#include "benchlib.h"
#include "exec/observe/observe.h"
#include "exec/synth/samples.h"
#include "tensoralias/exec.h"
}

namespace {

struct bench_op {
    const char *name;
    const char *schema;
    const char *sample;
    std::function<void(at::Tensor &, at::Tensor &, at::Tensor &)> direct;
};

const int64_t kSide = 512; /* 512 x 512 float32: 1 MB */

/* The kernel alone: best of reps calls on tensors made once, their values
 * written again before each call as the engine writes a case's (generated
 * into a host buffer, then copied into the tensor's storage), so that the
 * caches hold what they hold when the engine calls the kernel. */
double time_direct(const bench_op &b, int reps)
{
    at::AutoDispatchBelowADInplaceOrView below_autograd;
    at::Tensor t[3] = {at::empty({kSide, kSide}), at::empty({kSide, kSide}), at::empty({kSide, kSide})};
    std::vector<float> host((size_t)(kSide * kSide));
    double best = 1e9;
    for (int r = 0; r < reps; r++) {
        for (auto &x : t) {
            for (size_t i = 0; i < host.size(); i++) host[i] = (float)((i * 2654435761u + (size_t)r) % 61) / 10 - 3;
            std::memcpy(x.data_ptr<float>(), host.data(), host.size() * sizeof(float));
        }
        double t0 = bench_cpu_now();
        b.direct(t[0], t[1], t[2]);
        double dt = bench_cpu_now() - t0;
        if (dt < best) best = dt;
    }
    return best;
}

struct fixture {
    ta_registry *reg = nullptr;
    ta_samples *samples = nullptr;
};

/* The case's builder, timing itself: what the case costs without building
 * its arguments is measured in the same run as the case. */
struct timed_source {
    const ta_samples *samples;
    const char *op;
    double seconds;
};

ta_status sample_builder(void *ud, ta_exec *x, const ta_schema *s, const ta_decl *d, uint64_t seed,
                         ta_case *c)
{
    auto *src = static_cast<timed_source *>(ud);
    double t0 = bench_cpu_now();
    ta_status st = ta_samples_build(src->samples, src->op, (size_t)seed, x, s, d, c);
    src->seconds = bench_cpu_now() - t0;
    return st;
}

/* One verified case against the kernel called directly: best of reps each. */
void run(const fixture &f, const bench_op &b, size_t protect_min, int reps)
{
    const ta_registry_op *op = ta_registry_find(f.reg, b.name);
    void *ud = nullptr;
    ta_kernel_fn fn = op ? ta_registry_kernel_for(op, kDLCPU, &ud) : nullptr;
    if (!fn) {
        std::printf("%-22s no kernel through the bridge\n", b.name);
        return;
    }
    ta_arena *a;
    BENCH_OK(ta_arena_create(&a));
    ta_schema *s = nullptr;
    ta_decl *d = nullptr;
    ta_schema_parse(a, b.schema, std::strlen(b.schema), nullptr, &s, nullptr);
    ta_decl_build(a, s, &d);
    ta_exec *x;
    BENCH_OK(ta_exec_create(nullptr, &x));
    ta_observer *ck = ta_observer_create(x, s, d, fn, ud, 0, nullptr, nullptr);
    ta_observer_set_protect_min(ck, protect_min);
    timed_source src = {f.samples, b.name, 0};
    ta_case_source from = {sample_builder, &src, true, false};
    double t_bare = 1e9, t_case = 1e9;
    ta_case c;
    bool ran = true;
    for (int r = 0; r < reps; r++) {
        ta_exec_reset(x);
        ta_samples_build(f.samples, b.name, 0, x, s, d, &c);
        double t0 = bench_cpu_now();
        ta_exec_call(x, fn, ud, nullptr);
        double t = bench_cpu_now() - t0;
        if (t < t_bare) t_bare = t;
        ta_exec_reset(x); /* freeing the last case's storage is not observation */
        t0 = bench_cpu_now();
        ran = ta_observer_run(ck, 0, &from) == TA_CASE_RAN && ran;
        t = bench_cpu_now() - t0 - src.seconds;
        if (t < t_case) t_case = t;
    }
    double t_direct = time_direct(b, reps);
    double obs = t_case - t_direct;
    if (obs < 0) obs = 0;
    std::printf("%-22s %-20s direct %6.1f us, through the bridge %6.1f us, case without building %6.1f us: "
                "observation %6.1f us = %5.2fx the kernel%s\n",
                b.name, protect_min ? "read-only pages:" : "byte snapshots:", t_direct * 1e6, t_bare * 1e6,
                t_case * 1e6, obs * 1e6, obs / t_direct, ran ? "" : " (the case did not run)");
    ta_observer_destroy(ck);
    ta_exec_destroy(x);
    ta_arena_destroy(a);
}

const bench_op kOps[] = {
    {"aten::add.out", "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
     R"({"self": {"shape": [512, 512]}, "other": {"shape": [512, 512]}, "alpha": 1, "out": {"shape": [512, 512]}})",
     [](at::Tensor &x, at::Tensor &y, at::Tensor &out) { at::add_out(out, x, y); }},
    {"aten::mul_.Tensor", "aten::mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
     R"({"self": {"shape": [512, 512]}, "other": {"shape": [512, 512]}})",
     [](at::Tensor &x, at::Tensor &y, at::Tensor &) { x.mul_(y); }},
    {"aten::abs", "aten::abs(Tensor self) -> Tensor", R"({"self": {"shape": [512, 512]}})",
     [](at::Tensor &x, at::Tensor &, at::Tensor &) { (void)at::abs(x); }},
    {"aten::sum.dim_IntList",
     "aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
     R"({"self": {"shape": [512, 512]}, "dim": [1], "keepdim": false, "dtype": null})",
     [](at::Tensor &x, at::Tensor &, at::Tensor &) { (void)at::sum(x, {1}); }},
    {"aten::transpose.int", "aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
     R"({"self": {"shape": [512, 512]}, "dim0": 0, "dim1": 1})",
     [](at::Tensor &x, at::Tensor &, at::Tensor &) { (void)x.transpose(0, 1); }},
};

/* The registry: the operators' schemas, then the bridge's kernels for them. */
bool setup(fixture &f, const char *bridge)
{
    char path[] = "/tmp/bench_torch_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return false;
    std::string schemas, samples = "{";
    for (const auto &b : kOps) {
        schemas += std::string(b.schema) + "\n";
        samples += std::string(samples.size() > 1 ? ", " : "") + "\"" + b.name + "\": [" + b.sample + "]";
    }
    samples += "}";
    bool ok = write(fd, schemas.data(), schemas.size()) == (ssize_t)schemas.size();
    close(fd);
    BENCH_OK(ta_registry_create(&f.reg));
    ok = ok && ta_registry_load_schemas(f.reg, path, nullptr) == TA_OK;
    unlink(path);
    if (!ok || ta_registry_load_plugin(f.reg, bridge, nullptr) != TA_OK) {
        std::printf("bench_torch: cannot load the bridge %s (build it with make; run from the repository)\n", bridge);
        return false;
    }
    return ta_samples_load_buffer(samples.data(), samples.size(), "bench_torch", &f.samples, nullptr) == TA_OK;
}

} // namespace

int main(int argc, char **argv)
{
    fixture f;
    if (!setup(f, argc > 1 ? argv[1] : "build/libtensoralias_torch.so")) return 1;
    at::set_num_threads(1); /* as the bridge runs ATen */
    std::printf("1 MB float32 tensors (512 x 512), one intra-op thread; best of 200 runs each\n");
    for (const auto &b : kOps) {
        if (argc > 2 && std::strcmp(argv[2], b.name)) continue;
        run(f, b, 0, 200);
        run(f, b, 64 << 10, 200); /* what verify's children do */
    }
    ta_samples_destroy(f.samples);
    ta_registry_destroy(f.reg);
    return 0;
}
