/* elf.cpp - what a shared library asks of the dynamic loader, read from
 * its file before it is loaded: the libraries it needs (DT_NEEDED), where
 * it looks for them (DT_RUNPATH, else DT_RPATH), and the symbols it leaves
 * undefined. 64-bit ELF only (what libtorch runs on). */
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "torch/bridge.h"

namespace ta_torch {
namespace {

/* The file mapped read-only, unmapped when it goes. */
class Mapped {
  public:
    explicit Mapped(const std::string &path)
    {
        int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
        struct stat st;
        if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0) {
            void *p = mmap(nullptr, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
            if (p != MAP_FAILED) base_ = static_cast<const char *>(p), size_ = (size_t)st.st_size;
        }
        if (fd >= 0) close(fd);
    }
    ~Mapped()
    {
        if (base_) munmap(const_cast<char *>(base_), size_);
    }
    Mapped(const Mapped &) = delete;
    Mapped &operator=(const Mapped &) = delete;
    /* n bytes at off, or nullptr when they are not all in the file. */
    const char *at(uint64_t off, uint64_t n) const
    {
        return base_ && off <= size_ && n <= size_ - off ? base_ + off : nullptr;
    }

  private:
    const char *base_ = nullptr;
    size_t size_ = 0;
};

/* A NUL-terminated string at off of the string table sh, or "". */
std::string str_at(const Mapped &m, const Elf64_Shdr &sh, uint64_t off)
{
    const char *s = off < sh.sh_size ? m.at(sh.sh_offset + off, 1) : nullptr;
    if (!s) return "";
    size_t n = strnlen(s, sh.sh_size - off);
    return n < sh.sh_size - off ? std::string(s, n) : "";
}

void read_dynamic(const Mapped &m, const Elf64_Shdr &dyn, const Elf64_Shdr &strtab, ElfDeps &out)
{
    const char *p = m.at(dyn.sh_offset, dyn.sh_size);
    for (size_t i = 0; p && i < dyn.sh_size / sizeof(Elf64_Dyn); i++) {
        Elf64_Dyn d;
        std::memcpy(&d, p + i * sizeof d, sizeof d);
        if (d.d_tag == DT_NEEDED) out.needed.push_back(str_at(m, strtab, d.d_un.d_val));
        else if (d.d_tag == DT_RUNPATH) out.runpath = str_at(m, strtab, d.d_un.d_val);
        else if (d.d_tag == DT_RPATH && out.runpath.empty()) out.runpath = str_at(m, strtab, d.d_un.d_val);
    }
}

void read_undefined(const Mapped &m, const Elf64_Shdr &syms, const Elf64_Shdr &strtab, ElfDeps &out)
{
    const char *p = m.at(syms.sh_offset, syms.sh_size);
    for (size_t i = 1; p && i < syms.sh_size / sizeof(Elf64_Sym); i++) {
        Elf64_Sym s;
        std::memcpy(&s, p + i * sizeof s, sizeof s);
        /* Weak references may stay unresolved; the loader requires the others. */
        if (s.st_shndx != SHN_UNDEF || ELF64_ST_BIND(s.st_info) != STB_GLOBAL) continue;
        std::string name = str_at(m, strtab, s.st_name);
        if (!name.empty()) out.undefined.push_back({name, ELF64_ST_TYPE(s.st_info) == STT_OBJECT});
    }
}

} // namespace

bool read_elf_deps(const std::string &path, ElfDeps &out)
{
    Mapped m(path);
    const char *h = m.at(0, sizeof(Elf64_Ehdr));
    if (!h || std::memcmp(h, ELFMAG, SELFMAG) || h[EI_CLASS] != ELFCLASS64) return false;
    Elf64_Ehdr eh;
    std::memcpy(&eh, h, sizeof eh);
    if (eh.e_shentsize != sizeof(Elf64_Shdr)) return false;
    const char *shs = m.at(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr));
    if (!shs) return false;
    std::vector<Elf64_Shdr> sh(eh.e_shnum);
    std::memcpy(sh.data(), shs, sh.size() * sizeof(Elf64_Shdr));
    for (const auto &s : sh) {
        if ((s.sh_type != SHT_DYNAMIC && s.sh_type != SHT_DYNSYM) || s.sh_link >= sh.size()) continue;
        if (s.sh_type == SHT_DYNAMIC) read_dynamic(m, s, sh[s.sh_link], out);
        else read_undefined(m, s, sh[s.sh_link], out);
    }
    return true;
}

} // namespace ta_torch
