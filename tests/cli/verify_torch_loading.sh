#!/bin/sh
# verify --torch-library on libraries as PyPI ships them: several loaded in
# the order given, each one's dependencies found through its RUNPATH; CUDA
# libraries and Python C-API symbols replaced by stand-ins that abort if
# called; a library built for another torch refused with both versions
# named; and --torch given something that is not a torch.
. "$(dirname "$0")/lib.sh"
need_bridge
command -v cc >/dev/null || { echo "skipped: no C compiler (cc) to make the test libraries"; exit 77; }
cd "$tmp" || exit 1

# libuses.so needs libtorch_cuda.so (gone after the link, as on a machine
# with the CPU side only), a helper found through its RUNPATH ($ORIGIN/sub),
# and a Python C-API function no library it names defines.
printf 'int fake_cuda_count(void) { return 1; }\nint fake_cuda_table[4];\n' >cuda.c
cc -shared -fPIC -o libtorch_cuda.so -Wl,-soname,libtorch_cuda.so cuda.c
mkdir sub
printf 'int ta_helper(int x) { return x + 1; }\n' >helper.c
cc -shared -fPIC -o sub/libtahelper.so helper.c
cat >uses.c <<'C'
extern int fake_cuda_count(void);
extern int fake_cuda_table[4];
extern int ta_helper(int);
extern void *PyErr_Occurred(void);
int uses(int x) { return x ? fake_cuda_count() + fake_cuda_table[0] + (PyErr_Occurred() != 0) : ta_helper(x); }
C
cc -shared -fPIC -o libuses.so uses.c -L. -ltorch_cuda -Lsub -ltahelper -Wl,--enable-new-dtags,-rpath,'$ORIGIN/sub'
rm libtorch_cuda.so
"$TA" verify $TORCH_ARGS --torch-library "$tmp/libuses.so" >out 2>&1
[ $? -eq 2 ] || { cat out; fail "libuses: exit 2"; }
grep -q "libuses.so registered no operator" out || { cat out; fail "libuses loads (stand-ins, RUNPATH)"; }

# Repeatable: the test extension, then libuses.so; the extension's operators verified.
"$TA" verify $TORCH_ARGS --torch-library "$TORCH_EXT" --torch-library "$tmp/libuses.so" --ops 'taext::scale' \
    --ops 'taext::writes_input' --cases 4 --format json >r.json 2>err
[ $? -eq 1 ] || { cat r.json err; fail "two libraries: exit 1"; }
grep -q '^{"op":"taext::scale","verdict":"ok"' r.json || { cat r.json; fail "two libraries: scale ok"; }
grep -q '^{"op":"taext::writes_input","verdict":"undeclared-mutation"' r.json || fail "two libraries: writes_input"

refused() { # library what-the-message-says...: verify refuses it with exit 2, saying each
    lib=$1; shift
    "$TA" verify $TORCH_ARGS --torch-library "$lib" >out 2>&1
    [ $? -eq 2 ] || { cat out; fail "$lib: exit 2"; }
    for say in "$@"; do grep -q -- "$say" out || { cat out; fail "$lib: says '$say'"; }; done
    grep -q "undefined symbol" out && { cat out; fail "$lib: an undefined-symbol message"; }
    return 0
}
# Built for another torch: a libtorch_cpu of another version among its needs...
printf 'int x;\n' >x.c
cc -shared -fPIC -o libtorch_cpu.so.9.9 -Wl,-soname,libtorch_cpu.so.9.9 x.c
cc -shared -fPIC -o libold.so x.c -L. -Wl,--no-as-needed -l:libtorch_cpu.so.9.9
refused "$tmp/libold.so" "was built for torch 9.9 (it links libtorch_cpu.so.9.9), not for torch " \
    "pass --torch with a torch 9.9 folder (tools/install-torch.sh 9.9)"
# ... libtorch symbols this torch lacks ...
printf 'extern void f(void) __asm__("_ZN3c1015NotInAnyVersionEv");\nvoid g(void) { f(); }\n' >sym.c
cc -shared -fPIC -o libsym.so sym.c
refused "$tmp/libsym.so" "was built for another torch" "c10::NotInAnyVersion()"
# ... or a torch==X its package pins.
mkdir -p site/pkg site/pkg-1.0.dist-info
cp libuses.so site/pkg/libpinned.so
printf 'pkg/libpinned.so,,\n' >site/pkg-1.0.dist-info/RECORD
printf 'Name: pkg\nRequires-Dist: torch==9.8.1\n' >site/pkg-1.0.dist-info/METADATA
refused "$tmp/site/pkg/libpinned.so" "was built for torch 9.8.1 (its package requires torch==9.8.1)"
# A stand-in called aborts, loudly, naming the function.
grep -q "was called, but its library is a stand-in" "$TORCH_OUT/libtensoralias_torch.so" ||
    fail "the stand-ins' message is in the bridge"

# --torch given something else than a torch, or without torch kernels to run.
"$TA" verify --torch "$tmp" --kernels torch >out 2>&1
[ $? -eq 2 ] || fail "--torch DIR without a torch: exit 2"
grep -q "is not a torch folder (no lib/libtorch_cpu.so)" out || { cat out; fail "--torch: the reason"; }
"$TA" verify --torch "$tmp" >out 2>&1
[ $? -eq 2 ] || fail "--torch alone: exit 2"
grep -q -- "--torch needs --kernels torch or --torch-library" out || { cat out; fail "--torch alone: the reason"; }

# A torch whose bridge is not built yet: built on first use into the cache,
# saying so; a clear error when it cannot be (here no compiler; a folder
# without headers).
mkdir -p fake/torch/lib fake/torch/include/torch/csrc/api/include/torch
cp libuses.so fake/torch/lib/libtorch_cpu.so
cp libuses.so fake/torch/lib/libc10.so
echo "__version__ = '9.9.9+fake'" >fake/torch/version.py
XDG_CACHE_HOME=$tmp/cache "$TA" verify --torch "$tmp/fake/torch" --kernels torch >out 2>&1
[ $? -eq 2 ] || { cat out; fail "no headers: exit 2"; }
grep -q "has no C++ headers (include/torch/library.h): the bridge cannot be built for it" out ||
    { cat out; fail "no headers: the reason"; }
touch fake/torch/include/torch/library.h
printf '#define TORCH_VERSION_MAJOR 9\n#define TORCH_VERSION_MINOR 9\n' >fake/torch/include/torch/csrc/api/include/torch/version.h
CXX=false XDG_CACHE_HOME=$tmp/cache "$TA" verify --torch "$tmp/fake/torch" --kernels torch >out 2>&1
[ $? -eq 2 ] || { cat out; fail "no compiler: exit 2"; }
grep -q "building the libtorch bridge for torch 9.9.9+fake into $tmp/cache/tensoralias/torch-bridge/torch-9.9.9+fake-abi0" out ||
    { cat out; fail "first use: the build is announced"; }
grep -q "could not build the libtorch bridge for torch 9.9.9+fake" out || { cat out; fail "first use: the failure"; }
[ ! -e "$tmp/cache/tensoralias/torch-bridge/torch-9.9.9+fake-abi0/libtensoralias_torch.so" ] || fail "a failed build left a bridge"
exit 0
