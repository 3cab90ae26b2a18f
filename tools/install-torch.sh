#!/bin/sh
# install-torch.sh VERSION [CACHE] - a torch from PyPI, as much of it as
# `tensoralias verify --torch` needs, in CACHE/VERSION laid out as pip lays a
# site-packages folder out:
#   torch/lib/        libtorch_cpu.so, libc10.so and the libraries of the wheel
#                     they need (libgomp...)
#   torch/include/, torch/share/cmake/, torch/version.py
#   torchgen/packaged/ATen/native/native_functions.yaml, tags.yaml
#   nvidia/.../lib/   the CUDA runtime libraries libtorch_cpu.so needs at load
#                     time (PyPI's torch 2.x is a CUDA build: libcudart and
#                     libcupti, from the small nvidia-cuda-runtime and
#                     nvidia-cuda-cupti wheels), where its RPATH looks
# Nothing else of the wheel (libtorch_cuda.so alone is 500 MB) is kept.
# Idempotent: a finished folder is not fetched again. The last line printed
# is the torch package folder (CACHE/VERSION/torch), for --torch and
# `make TORCH=`. CACHE defaults to $XDG_CACHE_HOME/tensoralias/torch
# ($HOME/.cache/...). Needs pip, unzip and readelf (binutils).
set -eu
usage() { echo "usage: $0 VERSION [CACHE]   (e.g. $0 2.15.0)" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
VERSION=$1
case $VERSION in *[!0-9.]* | "") usage ;; esac
CACHE=${2:-${XDG_CACHE_HOME:-$HOME/.cache}/tensoralias/torch}
DEST=$CACHE/$VERSION
PIP=${PIP:-$(command -v pip3 || command -v pip || echo "python3 -m pip")}
say() { echo "install-torch: $*" >&2; }
die() { say "$*"; exit 1; }

if [ -f "$DEST/.complete" ]; then
    echo "$DEST/torch"
    exit 0
fi
for tool in unzip readelf; do
    command -v $tool >/dev/null || die "$tool is needed (apt-get install unzip binutils)"
done
mkdir -p "$CACHE"
WORK=$(mktemp -d "$CACHE/.install-$VERSION.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
STAGE=$WORK/stage
mkdir -p "$WORK/wheels" "$STAGE"

# pip download SPEC...: into $WORK/wheels; wheels only. A torch too old for
# this Python (1.13 has no cp311 wheel) is fetched for Python 3.10: the C++
# libraries inside do not depend on it.
fetch() {
    # shellcheck disable=SC2086
    $PIP download --no-deps --only-binary=:all: --progress-bar off -d "$WORK/wheels" "$@" >"$WORK/pip.log" 2>&1 ||
        $PIP download --no-deps --only-binary=:all: --progress-bar off -d "$WORK/wheels" \
            --python-version 3.10 --platform manylinux_2_28_x86_64 --platform manylinux2014_x86_64 \
            --platform manylinux1_x86_64 "$@" >>"$WORK/pip.log" 2>&1 ||
        { cat "$WORK/pip.log" >&2; die "pip cannot download $* (is PyPI reachable?)"; }
}

start=$(date +%s)
say "downloading torch $VERSION from PyPI (about 550 MB; only its CPU libraries and headers are kept)"
fetch "torch==$VERSION"
WHEEL=$(ls "$WORK"/wheels/torch-*.whl)
unzip -q -o "$WHEEL" 'torch/lib/libtorch_cpu.so' 'torch/lib/libc10.so' 'torch/include/*' \
    'torch/share/cmake/*' 'torch/version.py' 'torchgen/packaged/ATen/native/*.yaml' \
    '*.dist-info/METADATA' -d "$STAGE"
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
# The wheel's own libraries that those two need (libgomp.so.1 ...).
for lib in $(needed "$STAGE/torch/lib/libtorch_cpu.so") $(needed "$STAGE/torch/lib/libc10.so"); do
    if unzip -l "$WHEEL" "torch/lib/$lib" >/dev/null 2>&1; then
        unzip -q -o "$WHEEL" "torch/lib/$lib" -d "$STAGE"
    fi
done

# The pin torch's METADATA gives a CUDA wheel: directly (nvidia-cuda-runtime-cu12==12.8.90)
# or through the cuda-toolkit meta-package's extras (cuda-toolkit[cudart,...]==13.2.2).
META=$(ls "$STAGE"/torch-*.dist-info/METADATA)
pin_of() { # package-name
    spec=$(sed -n "s/^Requires-Dist: \($1\) *(\{0,1\}\(==[^ ;)]*\).*/\1\2/p" "$META" | head -n 1)
    if [ -z "$spec" ]; then
        toolkit=$(sed -n 's/^Requires-Dist: cuda-toolkit\[[^]]*\]==\([^ ;]*\).*/\1/p' "$META" | head -n 1)
        if [ -n "$toolkit" ]; then
            [ -f "$WORK/toolkit.meta" ] || {
                fetch "cuda-toolkit==$toolkit"
                unzip -p "$WORK"/wheels/cuda_toolkit-*.whl '*.dist-info/METADATA' >"$WORK/toolkit.meta"
            }
            spec=$(sed -n "s/^Requires-Dist: \($1==[^ ;]*\).*/\1/p" "$WORK/toolkit.meta" | head -n 1)
        fi
    fi
    echo "${spec:-$1}"
}
# libcudart.so.13 -> nvidia-cuda-runtime (CUDA 13 wheels drop the -cuN suffix), .12 -> nvidia-cuda-runtime-cu12.
package_of() { # soname
    major=${1##*.so.}
    case $1 in
    libcudart.so.*) base=nvidia-cuda-runtime ;;
    libcupti.so.*) base=nvidia-cuda-cupti ;;
    libnvToolsExt.so.*) base=nvidia-nvtx ;;
    *) return 1 ;;
    esac
    if [ "$major" -ge 13 ] 2>/dev/null; then echo $base; else echo "$base-cu$major"; fi
}
for lib in $(needed "$STAGE/torch/lib/libtorch_cpu.so"); do
    pkg=$(package_of "$lib") || continue
    spec=$(pin_of "$pkg")
    say "libtorch_cpu.so needs $lib: $spec"
    rm -f "$WORK"/wheels/nvidia_*.whl
    fetch "$spec"
    unzip -q -o "$WORK"/wheels/nvidia_*.whl "*/$lib" -d "$STAGE"
done
rm -rf "$STAGE"/torch-*.dist-info

# Every library libtorch_cpu.so needs is found from where it now lies.
missing=$(ldd "$STAGE/torch/lib/libtorch_cpu.so" 2>/dev/null | sed -n 's/^[[:space:]]*\([^ ]*\) => not found/\1/p')
[ -z "$missing" ] || die "libtorch_cpu.so of torch $VERSION needs what no wheel here provides: $missing"
[ -f "$STAGE/torchgen/packaged/ATen/native/native_functions.yaml" ] ||
    say "warning: the wheel has no torchgen/packaged native_functions.yaml; pass a yaml to verify --torch"

rm -rf "$DEST"
mv "$STAGE" "$DEST"
touch "$DEST/.complete"
say "torch $VERSION: $(du -sh "$DEST" | cut -f1) in $DEST, in $(($(date +%s) - start)) s"
echo "$DEST/torch"
