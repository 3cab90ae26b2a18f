/* register.cpp - the bridge's plugin entry: which operators it registers.
 *
 * Two modes, by the host's option "torch.library":
 *   - unset (`verify --kernels torch`): every aten operator the registry
 *     knows (the yaml's, and autogen's derived ones) that libtorch's
 *     dispatcher can run on CPU (its computed CPU kernel: a CPU kernel or a
 *     composite one), registered by name, so it is verified against the
 *     yaml's schema. Where libtorch's schema takes other arguments (a yaml
 *     of another version), every call is refused with libtorch's schema as
 *     the reason.
 *   - a path (`verify --torch-library LIB.so`): LIB is loaded into libtorch
 *     and the operators it adds to the dispatcher are registered with the
 *     schemas the dispatcher holds (inferred ones included), those with a
 *     CPU kernel with the bridge's kernel, the others as schemas only.
 * Both first make the process safe to fork (kernel.cpp's prepare_process). */
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <set>
#include <sstream>

#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/csrc/jit/frontend/function_schema_parser.h>

#include "tensoralias/exec.h"
#include "torch/bridge.h"

namespace ta_torch {
namespace {

/* The entries live as long as the plugin: the registry keeps pointers. */
std::vector<std::unique_ptr<OpEntry>> entries;

std::string full_name(const c10::OperatorName &n)
{
    return n.overload_name.empty() ? n.name : n.name + "." + n.overload_name;
}

std::string schema_text(const c10::FunctionSchema &s)
{
    std::ostringstream o;
    o << s;
    return o.str();
}

/* Why libtorch's schema cannot run the stack the engine builds from `ours`
 * (another argument list), or "". */
std::string refusal_for(const c10::FunctionSchema &theirs, const char *ours)
{
    std::string why = "libtorch's schema takes other arguments: " + schema_text(theirs);
    if (!ours) return "";
    try {
        auto mine = torch::jit::parseSchema(ours);
        const auto &a = mine.arguments(), &b = theirs.arguments();
        if (a.size() != b.size()) return why;
        for (size_t i = 0; i < a.size(); i++)
            if (a[i].name() != b[i].name() || a[i].type()->str() != b[i].type()->str()) return why;
        return "";
    } catch (const std::exception &) {
        return "libtorch cannot parse the schema verified against; its own is " + schema_text(theirs);
    }
}

ta_status add(ta_registry *reg, const c10::OperatorHandle &h, const std::string &name, const char *op,
              bool kernel)
{
    entries.push_back(std::unique_ptr<OpEntry>(new OpEntry{h, name, ""}));
    OpEntry *e = entries.back().get();
    return kernel ? ta_register_op(reg, op, TA_KEY_CPU, ta_torch_kernel, e)
                  : ta_register_op(reg, op, TA_KEY_CATCHALL, nullptr, nullptr);
}

ta_status register_aten(ta_registry *reg)
{
    const char *glob = "aten::*";
    const char **names = nullptr;
    size_t n = 0;
    ta_status s = ta_registry_select(reg, &glob, 1, &names, &n);
    auto &d = c10::Dispatcher::singleton();
    for (size_t i = 0; s == TA_OK && i < n; i++) {
        std::string name = names[i];
        size_t dot = name.find('.');
        c10::OperatorName on(name.substr(0, dot), dot == std::string::npos ? "" : name.substr(dot + 1));
        auto h = d.findSchema(on);
        if (!h || !h->hasComputedKernelForDispatchKey(c10::DispatchKey::CPU)) continue;
        s = add(reg, *h, name, name.c_str(), true);
        const ta_registry_op *op = ta_registry_find(reg, name.c_str());
        if (s == TA_OK && op) entries.back()->refusal = refusal_for(h->schema(), op->schema);
    }
    free(names);
    return s;
}

std::set<std::string> all_op_names()
{
    std::set<std::string> out;
    for (const auto &n : c10::Dispatcher::singleton().getAllOpNames()) out.insert(full_name(n));
    return out;
}

ta_status register_library(ta_registry *reg, const char *lib)
{
    std::set<std::string> before = all_op_names();
    if (!dlopen(lib, RTLD_NOW | RTLD_GLOBAL))
        return ta_registry_plugin_error(reg, "cannot load %s into libtorch: %s", lib, dlerror());
    std::set<std::string> after = all_op_names();
    auto &d = c10::Dispatcher::singleton();
    size_t added = 0;
    for (const auto &name : after) {
        if (before.count(name)) continue;
        size_t dot = name.find('.');
        c10::OperatorName on(name.substr(0, dot), dot == std::string::npos ? "" : name.substr(dot + 1));
        auto h = d.findSchema(on);
        if (!h) continue; /* kernels for an operator defined elsewhere */
        std::string text = schema_text(h->schema());
        ta_status s = add(reg, *h, name, text.c_str(), h->hasComputedKernelForDispatchKey(c10::DispatchKey::CPU));
        if (s != TA_OK) return s;
        added++;
    }
    if (!added) return ta_registry_plugin_error(reg, "%s registered no operator with libtorch", lib);
    return TA_OK;
}

} // namespace
} // namespace ta_torch

extern "C" TA_API ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version)
{
    if (abi_version != TA_KERNEL_ABI_VERSION) return TA_ERR_UNSUPPORTED;
    try {
        ta_torch::prepare_process();
        const char *lib = ta_registry_option(reg, "torch.library");
        return lib ? ta_torch::register_library(reg, lib) : ta_torch::register_aten(reg);
    } catch (const std::exception &e) {
        return ta_registry_plugin_error(reg, "libtorch: %s", e.what());
    }
}
