#!/bin/sh
# torch-config.sh - what building the libtorch bridge against one torch takes,
# the one place that knows (the Makefile's `make TORCH=DIR` and
# `tensoralias verify --torch DIR` both ask it), and the build itself.
#
#   torch-config.sh DIR            every fact below, one name=value a line
#   torch-config.sh DIR NAME       one of them (for make)
#   torch-config.sh --check-deps DIR FILE.d...
#                                  fails when a compiled file read another
#                                  torch's headers (see below)
#   torch-config.sh --build DIR OUTDIR
#                                  builds OUTDIR/libtensoralias_torch.so from the
#                                  bridge's sources next to this script
#
# DIR is a torch package folder as pip lays it out (what
# `python3 -c 'import torch, os; print(os.path.dirname(torch.__file__))'`
# prints, or tools/install-torch.sh), a libtorch folder (lib/, include/), or
# Debian's libtorch-dev: /usr (or its package folder
# /usr/lib/python3/dist-packages/torch, whose headers are in /usr/include).
# The facts:
#   kind     debian | folder
#   root     the folder (/usr for Debian's)
#   libdir   where libtorch_cpu.so and libc10.so are
#   version  the library's version (version.py, build-version, or Debian's package)
#   abi      1 when libtorch was built with the C++11 std::string (c10::Error's
#            constructor takes a std::__cxx11::basic_string), else 0 (PyPI's
#            wheels before 2.7); the bridge must be built the same way
#   std      c++20 from torch 2.14 on (its headers require it), else c++17
#   key      torch-VERSION-abiN: the bridge built for one torch serves every
#            folder holding that build
#   cxxflags flags for the bridge and extensions (headers as system headers)
#   libs     libtorch_cpu and libc10 only: never -ltorch, which needs
#            libtorch_cuda.so (then cuDNN, NCCL, ...) in PyPI's CUDA builds
#   yaml     that torch's own native_functions.yaml (torchgen/packaged), or ""
#
# Mixing guard: a header missing from DIR would silently be found in
# /usr/include, where Debian's libtorch-dev keeps torch 1.13's. The flags
# never name /usr/include/torch for a folder, --check-deps fails a build whose
# dependency files name a system torch header, and the bridge checks at
# compile time that the headers' TORCH_VERSION_MAJOR/MINOR are the library's
# (TA_TORCH_LIB_MAJOR/MINOR, from the flags).
set -eu

die() { echo "torch-config: $*" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
# The bridge's sources: src/torch and include/tensoralias beside this script
# (an installed kit) or one folder up (the source tree's tools/).
if [ -d "$here/src/torch" ]; then kit=$here; else kit=$(dirname "$here"); fi

# ---- the facts ------------------------------------------------------------
describe() {
    dir=$1
    [ -d "$dir" ] || die "$dir: no such folder"
    dir=$(cd "$dir" && pwd -P)
    # Debian's package folder links its lib/ and include/ into /usr.
    if [ "$dir" = /usr ] || case $(readlink -f "$dir/lib/libtorch_cpu.so" 2>/dev/null) in
        /usr/lib/*-linux-gnu*/*) true ;; *) false ;; esac; then
        kind=debian root=/usr
        libdir=$(dirname "$(readlink -f "$(ls /usr/lib/*/libtorch_cpu.so /usr/lib/libtorch_cpu.so 2>/dev/null | head -n 1)")")
        [ -f "$libdir/libtorch_cpu.so" ] || die "/usr: no libtorch_cpu.so (apt-get install libtorch-dev)"
        inc=/usr/include
        version=$(dpkg-query -W -f '${Version}' libtorch-dev 2>/dev/null | sed 's/[+~-].*//')
        yaml=/usr/lib/python3/dist-packages/torchgen/packaged/ATen/native/native_functions.yaml
    else
        kind=folder root=$dir libdir=$dir/lib inc=$dir/include
        [ -f "$libdir/libtorch_cpu.so" ] ||
            die "$dir is not a torch folder (no lib/libtorch_cpu.so): pass the folder that
  python3 -c 'import torch, os; print(os.path.dirname(torch.__file__))'
prints, a libtorch folder, or what tools/install-torch.sh VERSION prints"
        [ -f "$inc/torch/library.h" ] || die "$dir has no C++ headers (include/torch/library.h): the bridge cannot be built for it"
        version=$(sed -n "s/^__version__ = '\(.*\)'.*/\1/p" "$dir/version.py" 2>/dev/null || true)
        [ -n "$version" ] || version=$(cat "$dir/build-version" 2>/dev/null || true)
        yaml=$(dirname "$dir")/torchgen/packaged/ATen/native/native_functions.yaml
    fi
    if [ -z "$version" ]; then # the headers' (2.15 keeps it in torch/headeronly)
        vh=$(ls "$inc"/torch/headeronly/version.h "$inc"/torch/csrc/api/include/torch/version.h 2>/dev/null | head -n 1)
        version=$(sed -n 's/^#define TORCH_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' "$vh" | paste -sd.)
        [ -n "$version" ] || die "$root: no version.py and no torch/version.h: which torch is it?"
    fi
    major=${version%%.*}
    minor=${version#*.}
    minor=${minor%%[!0-9]*}
    # c10::Error(SourceLocation, std::string): its mangled name tells which std::string.
    if nm -D --defined-only "$libdir/libc10.so" 2>/dev/null |
        grep -q '_ZN3c105ErrorC[12]ENS_14SourceLocationENSt7__cxx11'; then abi=1; else abi=0; fi
    if [ "$major" -gt 2 ] || { [ "$major" -eq 2 ] && [ "$minor" -ge 14 ]; }; then std=c++20; else std=c++17; fi
    key=torch-$version-abi$abi
    [ -f "$yaml" ] || yaml=
    cxxflags="-std=$std -D_GLIBCXX_USE_CXX11_ABI=$abi -DTA_TORCH_LIB_MAJOR=$major -DTA_TORCH_LIB_MINOR=$minor"
    if [ $kind = debian ]; then
        cxxflags="$cxxflags -isystem /usr/include/torch/csrc/api/include"
        libs="-ltorch_cpu -lc10"
    else
        cxxflags="$cxxflags -isystem $inc -isystem $inc/torch/csrc/api/include"
        libs="-L$libdir -ltorch_cpu -lc10"
    fi
}

print_facts() {
    for n in kind root libdir version abi std key cxxflags libs yaml; do
        eval "echo \"$n=\$$n\""
    done
}

# ---- the mixing guard -----------------------------------------------------
check_deps() {
    describe "$1"
    shift
    [ $kind = folder ] || return 0
    bad=$(sed 's/[\\ ]/\n/g' "$@" | grep -E '^/usr(/local)?/include/(torch|ATen|c10|caffe2)/' | sort -u | head -n 5 || true)
    [ -z "$bad" ] || die "the build for $root read headers of the system's torch instead of its own:
$bad
(a header missing from $root/include: that torch's headers are incomplete)"
}

# ---- the build ------------------------------------------------------------
build() {
    describe "$1"
    out=$2
    CXX=${CXX:-$(command -v c++ || command -v g++ || command -v clang++ || true)}
    [ -n "$CXX" ] || die "no C++ compiler (install g++, or set CXX) to build the libtorch bridge"
    ls "$kit"/src/torch/*.cpp >/dev/null 2>&1 || die "the bridge's sources are not in $kit/src/torch"
    mkdir -p "$out"
    tmp=$(mktemp -d "$out/.build.XXXXXX")
    jobs=${TA_TORCH_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}
    n=0
    # shellcheck disable=SC2086
    for src in "$kit"/src/torch/*.cpp; do
        obj=$tmp/$(basename "$src" .cpp).o
        $CXX $cxxflags -O2 -g -fPIC -fvisibility=hidden -I"$kit/include" -I"$kit/src" -MMD -c "$src" -o "$obj" &
        n=$((n + 1))
        [ $((n % jobs)) -ne 0 ] || wait
    done
    wait
    for src in "$kit"/src/torch/*.cpp; do
        [ -f "$tmp/$(basename "$src" .cpp).o" ] || { rm -rf "$tmp"; die "compiling $src for torch $version failed"; }
    done
    check_deps "$root" "$tmp"/*.d || { rm -rf "$tmp"; exit 1; }
    # shellcheck disable=SC2086
    $CXX -shared -o "$tmp/libtensoralias_torch.so" "$tmp"/*.o $libs || { rm -rf "$tmp"; die "linking the bridge failed"; }
    mv "$tmp/libtensoralias_torch.so" "$out/libtensoralias_torch.so"
    rm -rf "$tmp"
}

case ${1:-} in
--check-deps) [ $# -ge 2 ] || die "usage: $0 --check-deps DIR FILE.d..."; shift; check_deps "$@" ;;
--build) [ $# -eq 3 ] || die "usage: $0 --build DIR OUTDIR"; build "$2" "$3" ;;
"" | -*) die "usage: $0 DIR [NAME] | --check-deps DIR FILE.d... | --build DIR OUTDIR" ;;
*)
    describe "$1"
    if [ $# -ge 2 ]; then eval "echo \"\$$2\""; else print_facts; fi
    ;;
esac
