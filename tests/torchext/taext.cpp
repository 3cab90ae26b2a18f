// taext.cpp - a TORCH_LIBRARY extension for the libtorch bridge's tests
// (tests/cli/verify_torch_library.sh): operators registered with libtorch the
// way any extension registers them (m.def / m.impl, and schemas inferred
// from C++ signatures), built against libtorch alone.
//
// Correct ones, one per annotation form, must verify clean; each buggy one
// does one wrong thing to memory and must get that verdict; the inferred
// ones (no annotations possible) write an input. Every kernel takes float
// tensors of any shape. And for --isolate=batch (tests/cli/verify_isolate.sh),
// kernels that change libtorch's process state before kernels that look at
// it (operators run in name order): draws / fresh_generator (the default
// generator, which the bridge puts back between operators) and
// sets_threads / threads_one (a global setting, which it cannot: the batch
// ends there). A looking kernel rejects every case that does not find a
// fresh child's state, so a leak turns its ok into not-exercised.
#include <csignal>
#include <cstdlib>
#include <tuple>
#include <vector>

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <torch/library.h>
#include <torch/version.h>

namespace {

// ---- correct ----

at::Tensor scale(const at::Tensor &x, double f) { return x * f; }

at::Tensor &scale_(at::Tensor &x, double f) { return x.mul_(f); }

at::Tensor &scale_out(const at::Tensor &x, double f, at::Tensor &out)
{
    return at::mul_out(out, x, at::scalar_tensor(f, x.options()));
}

at::Tensor lead(const at::Tensor &x) { return x.unsqueeze(0); } // a view

void fill_all_(at::TensorList xs, double v)
{
    for (at::Tensor x : xs) x.fill_(v);
}

std::tuple<at::Tensor, at::Tensor> pair(const at::Tensor &x) { return {x + 1, x - 1}; }

// ---- wrong, one verdict each ----

at::Tensor writes_input(const at::Tensor &x) // undeclared-mutation
{
    at::Tensor y = x;
    y.add_(1);
    return x * 2;
}

at::Tensor returns_alias(const at::Tensor &x) { return x.view(x.sizes()); } // undeclared-alias

at::Tensor view_copy(const at::Tensor &x) { return x.clone(); } // view-returned-copy

at::Tensor &out_unwritten(const at::Tensor &x, at::Tensor &out) // out-not-written
{
    out.resize_(x.sizes());
    return out;
}

at::Tensor out_new(const at::Tensor &x, at::Tensor &out) // out-not-returned
{
    out.resize_(x.sizes());
    out.copy_(x);
    return x * 3;
}

at::Tensor inplace_new_(at::Tensor &x) // inplace-not-self
{
    x.add_(1);
    return x * 1;
}

std::tuple<at::Tensor, at::Tensor> same_twice(const at::Tensor &x) // undeclared-output-alias
{
    at::Tensor y = x + 1;
    return {y, y.view(y.sizes())};
}

at::Tensor restrides(const at::Tensor &x) // undeclared-metadata-mutation
{
    at::Tensor y = x;
    y.unsqueeze_(0);
    return y + 1;
}

at::Tensor past_end(const at::Tensor &x) // out-of-bounds
{
    TORCH_CHECK(x.scalar_type() == at::kFloat, "past_end: float32 only");
    float *base = static_cast<float *>(const_cast<void *>(static_cast<const void *>(x.storage().data())));
    base[x.storage().nbytes() / sizeof(float)] = 1.0f;
    return x + 1;
}

at::Tensor crashes(const at::Tensor &) // crash
{
    std::raise(SIGSEGV);
    return at::Tensor();
}

at::Tensor rejects(const at::Tensor &) // not-exercised
{
    TORCH_CHECK(false, "taext::rejects takes nothing");
    return at::Tensor();
}

// ---- inferred schemas: no annotation can say what these write ----

at::Tensor inferred_writes(at::Tensor x)
{
    x.zero_();
    return x + 1;
}

void inferred_into(at::Tensor out, at::Tensor x) { out.copy_(x); }

at::Tensor inferred_clean(at::Tensor x) { return x.abs(); }

// ---- process state (--isolate=batch) ----

at::Tensor draws(const at::Tensor &x) { return at::rand_like(x); }

// Its first case draws what the default generator draws first after its
// seeding (libtorch seeds it at random, once per process: the engine's
// children inherit the parent's); the later cases draw further (the
// generator is not reset between cases).
at::Tensor fresh_generator(const at::Tensor &x)
{
    at::Generator fresh = at::make_generator<at::CPUGeneratorImpl>(at::detail::getDefaultCPUGenerator().current_seed());
    double want = at::rand({1}, fresh, at::kDouble).item<double>();
    double got = at::rand({1}, at::kDouble).item<double>();
    TORCH_CHECK(got == want, "taext::fresh_generator: not a fresh child's generator");
    return x + 1;
}

at::Tensor sets_threads(const at::Tensor &x)
{
    at::set_num_threads(2);
    return x + 1;
}

at::Tensor threads_one(const at::Tensor &x)
{
    TORCH_CHECK(at::get_num_threads() == 1, "taext::threads_one: libtorch runs ", at::get_num_threads(),
                " threads");
    return x + 1;
}

} // namespace

TORCH_LIBRARY(taext, m)
{
    m.def("scale(Tensor x, float f) -> Tensor");
    m.def("scale_(Tensor(a!) x, float f) -> Tensor(a!)");
    m.def("scale.out(Tensor x, float f, *, Tensor(a!) out) -> Tensor(a!)");
    m.def("lead(Tensor(a) x) -> Tensor(a)");
    m.def("fill_all_(Tensor(a!)[] xs, float v) -> ()");
    m.def("pair(Tensor x) -> (Tensor, Tensor)");
    m.def("writes_input(Tensor x) -> Tensor");
    m.def("returns_alias(Tensor x) -> Tensor");
    m.def("view_copy(Tensor(a) x) -> Tensor(a)");
    m.def("out_unwritten.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)");
    m.def("out_new.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)");
    m.def("inplace_new_(Tensor(a!) self) -> Tensor(a!)");
    m.def("same_twice(Tensor x) -> (Tensor, Tensor)");
    m.def("restrides(Tensor x) -> Tensor");
    m.def("past_end(Tensor x) -> Tensor");
    m.def("crashes(Tensor x) -> Tensor");
    m.def("rejects(Tensor x) -> Tensor");
#if TORCH_VERSION_MAJOR < 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR < 13) // named tensors, gone in 2.13
    m.def("named(Tensor x, Dimname d) -> Tensor");
#endif
    m.def("schema_only(Tensor x) -> Tensor");
    m.def("draws(Tensor x) -> Tensor");
    m.def("fresh_generator(Tensor x) -> Tensor");
    m.def("sets_threads(Tensor x) -> Tensor");
    m.def("threads_one(Tensor x) -> Tensor");
    m.def("inferred_writes", &inferred_writes);
    m.def("inferred_into", &inferred_into);
    m.def("inferred_clean", &inferred_clean);
}

TORCH_LIBRARY_IMPL(taext, CPU, m)
{
    m.impl("scale", &scale);
    m.impl("scale_", &scale_);
    m.impl("scale.out", &scale_out);
    m.impl("lead", &lead);
    m.impl("fill_all_", &fill_all_);
    m.impl("pair", &pair);
    m.impl("writes_input", &writes_input);
    m.impl("returns_alias", &returns_alias);
    m.impl("view_copy", &view_copy);
    m.impl("out_unwritten.out", &out_unwritten);
    m.impl("out_new.out", &out_new);
    m.impl("inplace_new_", &inplace_new_);
    m.impl("same_twice", &same_twice);
    m.impl("restrides", &restrides);
    m.impl("past_end", &past_end);
    m.impl("crashes", &crashes);
    m.impl("rejects", &rejects);
    m.impl("draws", &draws);
    m.impl("fresh_generator", &fresh_generator);
    m.impl("sets_threads", &sets_threads);
    m.impl("threads_one", &threads_one);
#if TORCH_VERSION_MAJOR < 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR < 13)
    m.impl("named", [](const at::Tensor &x, at::Dimname) { return x + 1; });
#endif
}
