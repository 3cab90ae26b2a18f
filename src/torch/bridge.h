/* bridge.h - what the libtorch bridge's files share (C++17, C++20 for torch
 * 2.14 on; the only headers of the project that include libtorch's).
 *
 * One source for every torch from 1.13 to the newest: where libtorch's API
 * moved, TA_TORCH_AT_LEAST(major, minor) chooses. It is built with the flags
 * tools/torch-config.sh gives for one torch, which carry that library's
 * version (TA_TORCH_LIB_MAJOR/MINOR): the headers compiled against must be
 * the same version's, checked below, so a header missing from a torch folder
 * cannot silently come from another torch installed in /usr/include.
 *
 * The bridge is a kernel library (include/tensoralias/kernel.h): every
 * operator it registers runs through PyTorch's dispatcher, boxed, on the
 * engine's own storage. Its parts:
 *   allocator.cpp  the c10::Allocator that serves ATen's CPU allocations
 *                  from engine storages while a call runs
 *   convert.cpp    ta_stack values to IValues and back; engine tensors as
 *                  at::Tensors over shared c10::Storages and back
 *   dump.cpp       with TA_TORCH_DUMP=FILE, every call's arguments and
 *                  storages, for a replay in torch (tools/torch/replay_case.py)
 *   elf.cpp        a library's needs read from its file (DT_NEEDED, RUNPATH,
 *                  undefined symbols)
 *   kernel.cpp     the one boxed kernel: convert, call, write back, report;
 *                  and the screen: the same call on meta tensors
 *   load.cpp       extension libraries loaded as the dynamic loader would,
 *                  built for this torch or refused, with stand-ins for the
 *                  CUDA and Python libraries the CPU side lacks
 *   process.cpp    libtorch's process-wide state: made safe to fork, and put
 *                  back between the operators one child runs
 *   python.cpp     the message of an exception a Python kernel raised
 *   register.cpp   the plugin entry: which operators, and their schemas */
#ifndef TA_TORCH_BRIDGE_H
#define TA_TORCH_BRIDGE_H

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/ivalue.h>
#include <ATen/core/stack.h>
#include <c10/core/Allocator.h>
#include <torch/version.h>

#if !defined(TA_TORCH_LIB_MAJOR) || !defined(TA_TORCH_LIB_MINOR)
#error "build the libtorch bridge with the flags tools/torch-config.sh gives (TA_TORCH_LIB_MAJOR/MINOR)"
#endif
static_assert(TORCH_VERSION_MAJOR == TA_TORCH_LIB_MAJOR && TORCH_VERSION_MINOR == TA_TORCH_LIB_MINOR,
              "the torch headers compiled against are not the version of the libtorch linked: "
              "headers of two torch installations are mixed");

#define TA_TORCH_AT_LEAST(major, minor) \
    (TORCH_VERSION_MAJOR > (major) || (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))
/* Named tensors (Dimname arguments) were removed in torch 2.13. */
#define TA_TORCH_NAMED_TENSORS (!TA_TORCH_AT_LEAST(2, 13))

#include "tensoralias/kernel.h"

namespace ta_torch {

/* An argument the bridge cannot build or a result it cannot hand back: the
 * call fails with this message (the case is rejected, never a crash). */
struct Unsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/* ATen left an argument viewing bytes past its storage's end: a finding
 * (ta_kernel_bad_geometry), not a rejected case. */
struct BadGeometry : Unsupported {
    BadGeometry(const DLTensor *tensor, const std::string &what) : Unsupported(what), t(tensor) {}
    const DLTensor *t;
};

/* One registered operator: the dispatcher's handle to call. */
struct OpEntry {
    c10::OperatorHandle op;
    std::string name; /* "aten::abs.out" */
    /* Why every call is refused without running (libtorch's schema takes
     * other arguments than the one verified against), or "". */
    std::string refusal;
};

/* ---- allocator.cpp ---- */

/* While it lives, ATen's CPU allocations on this thread are engine
 * storages of ctx (ta_kernel_storage_new, marker-filled), so the engine
 * knows every tensor a call makes. Not reentrant; one call at a time. */
class AllocatorScope {
  public:
    explicit AllocatorScope(ta_kernel_ctx *ctx);
    ~AllocatorScope();
    AllocatorScope(const AllocatorScope &) = delete;
    AllocatorScope &operator=(const AllocatorScope &) = delete;

  private:
    c10::Allocator *previous_;
};

/* The allocator an input's storage resizes through (out= arguments ATen
 * grows): the engine's while a call runs. */
c10::Allocator *engine_allocator();

/* ---- convert.cpp ---- */

/* The tensors of one call: each engine storage wrapped once, so views of
 * one storage share one c10::Storage as they would in PyTorch. */
class CallState {
  public:
    /* st: the call's arguments; a Dimname among them makes the input tensors named. */
    CallState(ta_kernel_ctx *ctx, const ta_stack *st) : ctx_(ctx), named_(names_dims(st)) {}
    /* Tensors on the meta device instead (sizes, strides, offsets and dtypes
     * of the engine's, no bytes): for a screen. */
    struct Meta {};
    CallState(ta_kernel_ctx *ctx, const ta_stack *st, Meta) : ctx_(ctx), named_(false), meta_(true) { (void)st; }
    /* v as the IValue the schema argument wants. Throws Unsupported. */
    c10::IValue value_in(const ta_value &v, const c10::Argument &arg);
    /* Pushes one result on st. Throws Unsupported. */
    void value_out(const c10::IValue &v, ta_stack *st);
    /* Writes back to the engine what the call did to its input tensors:
     * new geometry (in-place view ops, resize_) and new storage (a resize
     * that reallocated). */
    void sync_inputs();
    [[noreturn]] void throw_bad_geometry(const at::Tensor &t, const DLTensor *d);

  private:
    at::Tensor tensor_in(DLTensor *t);
    DLTensor *tensor_out(const at::Tensor &t);
    c10::Storage storage_for(const ta_kernel_storage &s);
    c10::IValue list_in(const ta_value &v, const c10::TypePtr &elem);
    static bool names_dims(const ta_stack *st);
    static void name_dims(at::Tensor &t);

    at::Tensor meta_tensor_in(DLTensor *t, const ta_kernel_storage &s);
    bool engine_storage(const c10::Storage &st, ta_kernel_storage &out);

    ta_kernel_ctx *ctx_;
    bool named_;          /* the call's input tensors have named dimensions */
    bool meta_ = false;   /* tensors on the meta device */
    bool naming_ = false; /* the argument being built is one of them */
    std::unordered_map<uint32_t, c10::Storage> storages_;
    std::vector<std::pair<at::Tensor, DLTensor *>> inputs_;
    /* storages ATen made without bytes (a null pointer) and the engine storage each stands for */
    std::vector<std::pair<c10::Storage, ta_kernel_storage>> empties_;
};

/* ---- dump.cpp ---- */

/* With TA_TORCH_DUMP=FILE set, appends the call's arguments (whole
 * storages included) to FILE as one JSON line; otherwise nothing. */
void dump_call(const std::string &op, const torch::jit::Stack &stack);

/* ---- elf.cpp ---- */

struct ElfSymbol {
    std::string name;
    bool object; /* data (STT_OBJECT), not code */
};

/* What a shared library needs from the loader. */
struct ElfDeps {
    std::vector<std::string> needed; /* DT_NEEDED, in order */
    std::string runpath;             /* DT_RUNPATH, else DT_RPATH; "" when none */
    std::vector<ElfSymbol> undefined; /* global (not weak) undefined symbols */
};

/* Reads path's dynamic section and symbols; false when it is not a 64-bit ELF file. */
bool read_elf_deps(const std::string &path, ElfDeps &out);

/* ---- load.cpp ---- */

/* Loads the extension library lib (RTLD_GLOBAL) and, before it, the
 * libraries it needs that are not loaded, each found as the dynamic loader
 * finds it; the CUDA and Python ones are replaced by stand-ins. "" when
 * loaded, else why not (a library built for another torch: both versions). */
std::string load_library(const std::string &lib);

/* ---- kernel.cpp ---- */

/* The boxed kernel of every operator the bridge registers (user data: an OpEntry). */
extern "C" ta_status ta_torch_kernel(ta_kernel_ctx *ctx, ta_stack *st);
/* The screen of an operator that has a Meta kernel (ta_register_screen):
 * the call on meta tensors of the arguments' sizes and dtypes. */
extern "C" ta_status ta_torch_screen(ta_kernel_ctx *ctx, ta_stack *st);

/* ---- python.cpp ---- */

/* The exception a Python kernel raised ("Python: ValueError: ..."), taken
 * from Python's error indicator, which it clears; "" when there is none or
 * the process has no Python. Call it for torch's python_error, whose what()
 * is empty. */
std::string python_error_message();

/* ---- process.cpp ---- */

/* Makes libtorch safe to fork into the engine's children and quiet:
 * one intra-op thread (no OpenMP team is ever started), warnings dropped;
 * its default generator seeded with a fixed seed. */
void prepare_process();
/* Records the state every child starts with; after registration. */
void record_process();
/* A ta_process_reset_fn: the generator and the thread-local state put back
 * as recorded; false when a global setting changed (or none was recorded). */
extern "C" bool reset_process(void *ud);

} // namespace ta_torch

#endif
