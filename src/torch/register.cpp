/* register.cpp - the bridge's plugin entry: which operators it registers.
 *
 * Three modes, by the host's options "torch.library" and "torch.ops":
 *   - neither (`verify --kernels torch`): every aten operator the registry
 *     knows (the yaml's, and autogen's derived ones) that libtorch's
 *     dispatcher can run on CPU (its computed CPU kernel: a CPU kernel or a
 *     composite one), registered by name, so it is verified against the
 *     yaml's schema. Where libtorch's schema takes other arguments (a yaml
 *     of another version), every call is refused with libtorch's schema as
 *     the reason.
 *   - paths, one a line (`verify --torch-library LIB.so...`): each LIB is
 *     loaded into libtorch in turn (load.cpp) and the operators they add to the dispatcher are registered with the
 *     schemas the dispatcher holds (inferred ones included), those with a
 *     CPU kernel with the bridge's kernel, the others as schemas only; an
 *     operator the registry knows already (declared in the sources of
 *     --schemas-from) keeps that schema, compared as in the first mode.
 *   - "torch.ops", patterns one a line (the Python package, loaded into a
 *     process whose Python code registered operators with torch.library):
 *     every operator the dispatcher holds whose name ("ns::op.overload",
 *     "ns::op" for the default overload) one of them matches (fnmatch),
 *     registered as in the second mode. Their kernels may be Python
 *     functions: libtorch calls them holding the GIL, which the process's
 *     thread that forks the engine's children must not hold.
 * Both first make the process safe to fork (process.cpp's prepare_process),
 * and last record libtorch's state as every child starts with it, which the
 * engine has put back between the operators one child runs (reset_process). */
#include <algorithm>
#include <cstdlib>
#include <fnmatch.h>
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

bool same_alias(const c10::AliasInfo *a, const c10::AliasInfo *b)
{
    if (!a || !b) return !a && !b;
    return *a == *b;
}

/* The first slot whose alias annotation differs between the two schemas
 * ("argument 'self'", "return 0"), or "". */
std::string alias_difference(const c10::FunctionSchema &a, const c10::FunctionSchema &b)
{
    for (size_t i = 0; i < a.arguments().size(); i++)
        if (!same_alias(a.arguments()[i].alias_info(), b.arguments()[i].alias_info()))
            return "argument '" + a.arguments()[i].name() + "'";
    if (a.returns().size() != b.returns().size()) return "the returns";
    for (size_t i = 0; i < a.returns().size(); i++)
        if (!same_alias(a.returns()[i].alias_info(), b.returns()[i].alias_info()))
            return "return " + std::to_string(i);
    return "";
}

/* Compares libtorch's schema of the operator e runs with the one verified
 * against (ours): other arguments make every call refused (the engine's
 * stack would not fit), other alias annotations a schema-mismatch finding. */
ta_status compare_schemas(ta_registry *reg, OpEntry &e, const char *ours)
{
    const c10::FunctionSchema &theirs = e.op.schema();
    if (!ours) return TA_OK;
    c10::FunctionSchema mine("", "", {}, {});
    try {
        mine = torch::jit::parseSchema(ours);
    } catch (const std::exception &) {
        e.refusal = "libtorch cannot parse the schema verified against; its own is " + schema_text(theirs);
        return TA_OK;
    }
    const auto &a = mine.arguments(), &b = theirs.arguments();
    bool same_args = a.size() == b.size();
    for (size_t i = 0; same_args && i < a.size(); i++)
        same_args = a[i].name() == b[i].name() && a[i].type()->str() == b[i].type()->str();
    if (!same_args) {
        e.refusal = "libtorch's schema takes other arguments: " + schema_text(theirs);
        return TA_OK;
    }
    std::string where = alias_difference(mine, theirs);
    if (where.empty()) return TA_OK;
    std::string msg = "libtorch's schema annotates " + where + " otherwise than the schema verified against: " +
                      schema_text(theirs);
    return ta_registry_schema_mismatch(reg, e.name.c_str(), msg.c_str());
}

/* Whether the operator can run on meta tensors to screen the cases input
 * discovery tries: a Meta kernel of its own, or, in ATen, a composite one
 * (written for every device, it calls operators that have Meta kernels).
 * Outside ATen a composite kernel is what m.def(schema, fn) registers: the
 * CPU code itself, which would read the meta tensors' missing bytes. */
bool has_meta_kernel(const c10::OperatorHandle &h, const std::string &name)
{
    if (h.hasKernelForDispatchKey(c10::DispatchKey::Meta)) return true;
    return name.rfind("aten::", 0) == 0 && !h.hasKernelForDispatchKey(c10::DispatchKey::CPU) &&
           h.hasComputedKernelForDispatchKey(c10::DispatchKey::Meta);
}

ta_status add(ta_registry *reg, const c10::OperatorHandle &h, const std::string &name, const char *op,
              bool kernel)
{
    entries.push_back(std::unique_ptr<OpEntry>(new OpEntry{h, name, ""}));
    OpEntry *e = entries.back().get();
    /* from_file and the like would read and write files named by the case. */
    for (const auto &a : h.schema().arguments())
        if (a.name() == "filename") e->refusal = "tensoralias: an operator that opens files is not run";
    if (!kernel) return ta_register_op(reg, op, TA_KEY_CATCHALL, nullptr, nullptr);
    ta_status s = ta_register_op(reg, op, TA_KEY_CPU, ta_torch_kernel, e);
    if (s == TA_OK && has_meta_kernel(h, name)) s = ta_register_screen(reg, name.c_str(), ta_torch_screen, e);
    return s;
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
        if (s == TA_OK && op) s = compare_schemas(reg, *entries.back(), op->schema);
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

/* Registers the operators of names that the dispatcher holds, as the
 * second and third modes do; `what` names their source in the error when
 * there is none. */
ta_status register_found(ta_registry *reg, const std::set<std::string> &names, const std::string &what)
{
    auto &d = c10::Dispatcher::singleton();
    size_t added = 0;
    for (const auto &name : names) {
        size_t dot = name.find('.');
        c10::OperatorName on(name.substr(0, dot), dot == std::string::npos ? "" : name.substr(dot + 1));
        auto h = d.findSchema(on);
        if (!h) continue; /* kernels for an operator defined elsewhere */
        bool kernel = h->hasComputedKernelForDispatchKey(c10::DispatchKey::CPU);
        /* Declared in the sources verified against (--schemas-from): that schema, compared. */
        const ta_registry_op *known = ta_registry_find(reg, name.c_str());
        const char *ours = known ? known->schema : nullptr;
        std::string text = schema_text(h->schema());
        ta_status s = add(reg, *h, name, ours && kernel ? name.c_str() : text.c_str(), kernel);
        if (s == TA_OK && ours) s = compare_schemas(reg, *entries.back(), ours);
        if (s != TA_OK) return s;
        added++;
    }
    if (!added) return ta_registry_plugin_error(reg, "%s", what.c_str());
    return TA_OK;
}

/* libs: the --torch-library paths, one a line, loaded in that order. */
ta_status register_library(ta_registry *reg, const char *libs)
{
    std::set<std::string> before = all_op_names();
    std::stringstream list(libs);
    for (std::string lib; std::getline(list, lib);) {
        std::string why = load_library(lib);
        if (!why.empty()) return ta_registry_plugin_error(reg, "%s", why.c_str());
    }
    std::set<std::string> added;
    for (const auto &name : all_op_names())
        if (!before.count(name)) added.insert(name);
    return register_found(reg, added, std::string(libs) + " registered no operator with libtorch");
}

/* patterns: fnmatch patterns one a line; the operators the dispatcher holds that one matches. */
ta_status register_matching(ta_registry *reg, const char *patterns)
{
    std::vector<std::string> globs;
    std::stringstream list(patterns);
    for (std::string g; std::getline(list, g);)
        if (!g.empty()) globs.push_back(g);
    std::set<std::string> found;
    for (const auto &name : all_op_names())
        for (const auto &g : globs)
            if (fnmatch(g.c_str(), name.c_str(), 0) == 0) found.insert(name);
    std::string shown = patterns;
    std::replace(shown.begin(), shown.end(), '\n', ' ');
    return register_found(reg, found, "libtorch's dispatcher holds no operator matching " + shown);
}

} // namespace
} // namespace ta_torch

extern "C" TA_API ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version)
{
    if (abi_version != TA_KERNEL_ABI_VERSION) return TA_ERR_UNSUPPORTED;
    try {
        ta_torch::prepare_process();
        const char *lib = ta_registry_option(reg, "torch.library");
        const char *ops = ta_registry_option(reg, "torch.ops");
        ta_status s = lib   ? ta_torch::register_library(reg, lib)
                      : ops ? ta_torch::register_matching(reg, ops)
                            : ta_torch::register_aten(reg);
        if (s != TA_OK) return s;
        ta_torch::record_process();
        return ta_registry_on_process_reset(reg, ta_torch::reset_process, nullptr);
    } catch (const std::exception &e) {
        return ta_registry_plugin_error(reg, "libtorch: %s", e.what());
    }
}
