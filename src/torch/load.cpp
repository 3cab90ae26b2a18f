/* load.cpp - extension libraries loaded into libtorch as the dynamic loader
 * would load them, refused when built for another torch, and loadable
 * though they link CUDA and Python libraries.
 *
 * An extension from PyPI is built for one torch and links what that torch's
 * CUDA build has: libtorch.so, libtorch_cuda.so, libc10_cuda.so, sometimes
 * libtorch_python.so and the Python C API. Its CPU kernels need none of
 * them, but the loader needs every library and every symbol. So, before the
 * library itself, each library it needs that is not loaded yet is loaded
 * (found in its RUNPATH as the loader would find it, its own needs first),
 * except the CUDA and Python ones: those get a stand-in, a library made
 * with the C compiler under the needed name, which defines every symbol the
 * loaded libraries still lack as a function that aborts loudly if ever
 * called (or as zeroed data); symbols a library needs without naming their
 * library (the Python C API of a module) get one of their own. Nothing is
 * made when nothing is missing.
 *
 * Before any of that, the library's file is read for the torch it was
 * built for: a libtorch_cpu/libc10 of another version among its needs
 * (Debian's libtorch_cpu.so.1.13), a `torch==X` its package's METADATA pins,
 * or libtorch symbols this torch lacks. Each is an error naming both
 * versions instead of a crash or a list of undefined symbols. */
#include <cxxabi.h>
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include <ATen/Context.h>

#include "torch/bridge.h"

extern char **environ;

namespace ta_torch {
namespace {

bool starts(const std::string &s, const char *prefix) { return s.compare(0, std::strlen(prefix), prefix) == 0; }

bool exists(const std::string &path) { return access(path.c_str(), R_OK) == 0; }

std::string dir_of(const std::string &path)
{
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash ? slash : 1);
}

/* Libraries of the CUDA and Python side: stand-ins, never the real ones
 * (they would bring cuDNN, NCCL and the rest, or a second Python). */
bool cuda_or_python(const std::string &n)
{
    static const char *const prefixes[] = {
        "libtorch_cuda", "libc10_cuda", "libtorch_python", "libtorch_hip", "libc10_hip", "libcuda.", "libcudart",
        "libcublas", "libcudnn", "libcufft", "libcufile", "libcurand", "libcusolver", "libcusparse", "libcupti",
        "libnccl", "libnvrtc", "libnvToolsExt", "libnvJitLink", "libnvshmem", "libpython", "libamdhip"};
    for (const char *p : prefixes)
        if (starts(n, p)) return true;
    return false;
}

/* libtorch_cpu and libc10: the torch in use's, or the library is not for it. */
bool torch_core(const std::string &n) { return starts(n, "libtorch_cpu.so") || starts(n, "libc10.so"); }

bool loaded(const std::string &name) { return dlopen(name.c_str(), RTLD_NOW | RTLD_NOLOAD) != nullptr; }

std::string demangled(const std::string &sym)
{
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> d(abi::__cxa_demangle(sym.c_str(), nullptr, nullptr, &status),
                                                  &std::free);
    return status == 0 && d ? d.get() : sym;
}

/* A symbol of libtorch's CPU side (c10, ATen, torch, caffe2), not of its CUDA or Python side. */
bool cpu_torch_symbol(const std::string &s)
{
    static const char *const prefixes[] = {"_ZN3c10", "_ZNK3c10", "_ZN2at", "_ZNK2at", "_ZN5torch", "_ZNK5torch",
                                           "_ZN6caffe2", "_ZNK6caffe2"};
    bool torch = false;
    for (const char *p : prefixes) torch = torch || starts(s, p);
    static const char *const other_side[] = {"cuda", "Cuda", "CUDA", "hip", "HIP", "python", "Python", "THP",
                                             "pybind", "_object", "PyObject"};
    for (const char *o : other_side)
        if (torch && s.find(o) != std::string::npos) return false;
    return torch;
}

/* The major.minor of a version ("2.15.0+cu132" -> "2.15"). */
std::string major_minor(const std::string &v)
{
    size_t dot = v.find('.');
    size_t end = dot == std::string::npos ? v.size() : v.find_first_not_of("0123456789", dot + 1);
    return v.substr(0, end == std::string::npos ? v.size() : end);
}

/* The torch==X the METADATA of lib's package pins (the *.dist-info, up to
 * two folders up from lib, whose RECORD lists it), or "". */
std::string pinned_torch(const std::string &lib)
{
    std::string base = lib.substr(lib.rfind('/') + 1), dir = dir_of(lib);
    for (int up = 0; up < 3; up++, dir = dir_of(dir)) {
        std::unique_ptr<DIR, int (*)(DIR *)> d(opendir(dir.c_str()), &closedir);
        for (struct dirent *e; d && (e = readdir(d.get()));) {
            std::string name = e->d_name, info = dir + "/" + name;
            if (name.size() < 10 || name.compare(name.size() - 10, 10, ".dist-info")) continue;
            std::ifstream record(info + "/RECORD");
            std::stringstream all;
            all << record.rdbuf();
            if (all.str().find(base) == std::string::npos) continue;
            std::ifstream meta(info + "/METADATA");
            for (std::string line; std::getline(meta, line);) {
                /* "torch==2.14.1" or "torch (==2.14.1)"; not torchvision, not "torch>=2.14" */
                size_t eq = line.find("==");
                if (!starts(line, "Requires-Dist: torch") || line.find_first_not_of(" (", 20) != eq) continue;
                return line.substr(eq + 2, line.find_first_of(" ;)", eq) - eq - 2);
            }
        }
    }
    return "";
}

std::string another_torch(const std::string &lib, const std::string &built_for, const std::string &evidence)
{
    std::string v = built_for.empty() ? "another torch" : "torch " + built_for;
    std::string fix = built_for.empty() ? "the torch it was built for"
                                        : "a torch " + built_for + " folder (tools/install-torch.sh " + built_for + ")";
    return lib + " was built for " + v + " (" + evidence + "), not for torch " TORCH_VERSION
           " in use: pass --torch with " + fix;
}

/* Why lib is not for this torch, as its file tells before it is loaded; "" when nothing says so. */
std::string check_built_for(const std::string &lib, const ElfDeps &d)
{
    for (const auto &n : d.needed) {
        if (!torch_core(n) || loaded(n)) continue;
        size_t so = n.find(".so.");
        return another_torch(lib, so == std::string::npos ? "" : n.substr(so + 4), "it links " + n);
    }
    std::string pin = pinned_torch(lib);
    if (!pin.empty() && major_minor(pin) != major_minor(TORCH_VERSION))
        return another_torch(lib, pin, "its package requires torch==" + pin);
    return "";
}

/* One library of stand-ins, compiled from C with cc ($CC). */
class Standins {
  public:
    Standins() = default;
    ~Standins()
    {
        for (const auto &f : files_) unlink(f.c_str());
        if (!dir_.empty()) rmdir(dir_.c_str());
    }
    Standins(const Standins &) = delete;
    Standins &operator=(const Standins &) = delete;

    /* Makes and loads (global) a library named soname defining syms; "" or why not. */
    std::string make(const std::string &soname, const std::vector<ElfSymbol> &syms)
    {
        if (dir_.empty() && !make_dir()) return "cannot make a temporary folder for stand-in libraries";
        std::string src = dir_ + "/" + soname + ".c", out = dir_ + "/" + soname, log = dir_ + "/" + soname + ".log";
        files_.insert(files_.end(), {src, out, log});
        if (!write_source(src, soname, syms)) return "cannot write " + src;
        const char *cc = std::getenv("CC");
        std::string compiler = cc && *cc ? cc : "cc", so = "-Wl,-soname," + soname;
        std::vector<std::string> args = {compiler, "-shared", "-fPIC", "-w", "-o", out, so, src};
        if (!run(args, log)) return "cannot make a stand-in for " + soname + " with " + compiler + ": " + tail(log);
        if (!dlopen(out.c_str(), RTLD_NOW | RTLD_GLOBAL)) return dlerror();
        return "";
    }

  private:
    bool make_dir()
    {
        const char *tmp = std::getenv("TMPDIR");
        std::string t = std::string(tmp && *tmp ? tmp : "/tmp") + "/tensoralias-standin-XXXXXX";
        if (!mkdtemp(&t[0])) return false;
        dir_ = t;
        return true;
    }

    static bool write_source(const std::string &path, const std::string &soname, const std::vector<ElfSymbol> &syms)
    {
        std::ofstream o(path);
        o << "#include <stdio.h>\n#include <stdlib.h>\n"
             "static void called(const char *s) {\n"
             "    fprintf(stderr, \"tensoralias: %s was called, but its library is a stand-in (" << soname
          << "): the CUDA and Python side of an extension is not loaded\\n\", s);\n"
             "    abort();\n}\n";
        for (size_t i = 0; i < syms.size(); i++) {
            const std::string &n = syms[i].name;
            if (syms[i].object) o << "char d" << i << "[256] __asm__(\"" << n << "\");\n";
            else o << "void f" << i << "(void) __asm__(\"" << n << "\");\nvoid f" << i << "(void) { called(\"" << n << "\"); }\n";
        }
        return o.good();
    }

    static bool run(const std::vector<std::string> &args, const std::string &log)
    {
        std::vector<char *> argv;
        for (const auto &a : args) argv.push_back(const_cast<char *>(a.c_str()));
        argv.push_back(nullptr);
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        posix_spawn_file_actions_adddup2(&fa, 1, 2);
        pid_t pid;
        int rc = posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&fa);
        int status = 0;
        return rc == 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }

    static std::string tail(const std::string &log)
    {
        std::ifstream in(log);
        std::string line, last = "it failed";
        while (std::getline(in, line))
            if (!line.empty()) last = line;
        return last;
    }

    std::string dir_;
    std::vector<std::string> files_;
};

class Loader {
  public:
    std::string load(const std::string &lib, int depth)
    {
        ElfDeps d;
        if (!read_elf_deps(lib, d)) return lib + ": not a 64-bit ELF shared library";
        std::string why = check_built_for(lib, d);
        std::vector<std::string> replaced;
        for (size_t i = 0; why.empty() && i < d.needed.size(); i++) {
            const std::string &n = d.needed[i];
            if (loaded(n)) continue;
            std::string path = find(n, lib, d.runpath);
            if (cuda_or_python(n) || (n == "libtorch.so" && path.empty())) replaced.push_back(n);
            else if (!path.empty()) why = depth > 8 ? "libraries needed too deep" : load(path, depth + 1);
            else if (!dlopen(n.c_str(), RTLD_NOW | RTLD_GLOBAL)) why = lib + " needs " + n + ", which is not found";
        }
        if (why.empty()) why = stand_in(lib, d, replaced);
        if (why.empty() && !dlopen(lib.c_str(), RTLD_NOW | RTLD_GLOBAL)) why = dlerror();
        return why;
    }

  private:
    /* n in the RUNPATH of the library that needs it ($ORIGIN its folder), or
     * libtorch.so beside the torch in use's libtorch_cpu.so; "" when not there. */
    static std::string find(const std::string &n, const std::string &lib, const std::string &runpath)
    {
        std::stringstream dirs(runpath);
        for (std::string dir; std::getline(dirs, dir, ':');) {
            for (const char *o : {"$ORIGIN", "${ORIGIN}"})
                for (size_t at; (at = dir.find(o)) != std::string::npos;) dir.replace(at, std::strlen(o), dir_of(lib));
            if (!dir.empty() && exists(dir + "/" + n)) return dir + "/" + n;
        }
        Dl_info info;
        if (starts(n, "libtorch.so") && dladdr(reinterpret_cast<void *>(&at::globalContext), &info) && info.dli_fname &&
            exists(dir_of(info.dli_fname) + "/" + n))
            return dir_of(info.dli_fname) + "/" + n;
        return "";
    }

    /* The stand-ins lib needs: one under each name in names, the first (or
     * one of its own) defining every symbol of lib nothing loaded defines. */
    std::string stand_in(const std::string &lib, const ElfDeps &d, std::vector<std::string> names)
    {
        std::vector<ElfSymbol> missing;
        std::string torch_syms;
        for (const auto &s : d.undefined) {
            if (dlsym(RTLD_DEFAULT, s.name.c_str())) continue;
            missing.push_back(s);
            if (cpu_torch_symbol(s.name) && torch_syms.size() < 300) torch_syms += (torch_syms.empty() ? "" : "; ") + demangled(s.name);
        }
        if (!torch_syms.empty())
            return another_torch(lib, "", "it needs libtorch symbols torch " TORCH_VERSION " does not have: " + torch_syms);
        /* The Python C API of a module, which links no libpython. */
        if (names.empty() && !missing.empty()) names.push_back("libtensoralias-standin-" + std::to_string(++made_) + ".so");
        for (size_t i = 0; i < names.size(); i++) {
            std::string why = standins_.make(names[i], i ? std::vector<ElfSymbol>() : missing);
            if (!why.empty()) return why;
        }
        return "";
    }

    Standins standins_;
    int made_ = 0;
};

/* Makes libtorch's own libraries global, so symbols are looked up in them
 * as the loader will when it binds an extension (the bridge may have been
 * loaded local, its libtorch with it). */
void make_libtorch_global()
{
    Dl_info info;
    void *syms[] = {reinterpret_cast<void *>(&at::globalContext), reinterpret_cast<void *>(&c10::GetAllocator)};
    for (void *s : syms)
        if (dladdr(s, &info) && info.dli_fname) dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
}

} // namespace

std::string load_library(const std::string &lib)
{
    make_libtorch_global();
    if (!exists(lib)) return "cannot load " + lib + ": no such file";
    Loader l;
    std::string why = l.load(lib, 0);
    return why.empty() ? "" : "cannot load " + lib + " into libtorch " TORCH_VERSION ": " + why;
}

} // namespace ta_torch
