#!/bin/sh
# verify_fbgemm.sh TORCH_DIR WHEEL_DIR [VERIFY OPTIONS...]
#
# Runs `tensoralias verify` on the CPU kernels of an unpacked fbgemm-gpu-cpu wheel (1.9.0 here:
# `pip download --no-deps fbgemm-gpu-cpu==1.9.0` then unzip it into WHEEL_DIR), against the torch
# it was built for (TORCH_DIR: the `torch` folder of `tools/install-torch.sh 2.14.1 DIR`).
# The wheel's 19 libraries are loaded with repeated --torch-library in dependency order (each
# one's DT_NEEDED and the undefined symbols it takes from the others, read with readelf -d / nm):
#   asmjit <- fbgemm <- fbgemm_gpu_config, fbgemm_gpu_sparse_async_cumsum <- fbgemm_gpu_tbe_common
#   <- the fbgemm_gpu_tbe_* libraries <- fbgemm_gpu_embedding_inplace_ops, fbgemm_gpu_py.
# Extra options go to verify as given (--jobs 2, --format json, -v, --ops 'fbgemm::NAME', ...).
# TENSORALIAS (default build/tensoralias beside this script's repo) picks the binary. Set
# XDG_CACHE_HOME to a folder of your own: the bridge for TORCH_DIR is built there on first use.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 TORCH_DIR WHEEL_DIR [VERIFY OPTIONS...]" >&2
    exit 2
fi
torch_dir=$1
wheel=$2
shift 2
here=$(CDPATH= cd -- "$(dirname -- "$0")/../.." && pwd)
bin=${TENSORALIAS:-$here/build/tensoralias}
lib=$wheel/fbgemm_gpu
if [ ! -f "$lib/fbgemm_gpu_py.so" ]; then
    echo "$0: no $lib/fbgemm_gpu_py.so: WHEEL_DIR is the folder the wheel was unzipped into" >&2
    exit 2
fi
set --  --torch "$torch_dir" "$@"
for name in asmjit fbgemm fbgemm_gpu_config fbgemm_gpu_sparse_async_cumsum fbgemm_gpu_tbe_common \
        fbgemm_gpu_tbe_utils fbgemm_gpu_tbe_cache fbgemm_gpu_tbe_index_select \
        fbgemm_gpu_tbe_inference fbgemm_gpu_tbe_optimizers fbgemm_gpu_tbe_training_forward \
        fbgemm_gpu_tbe_training_backward fbgemm_gpu_tbe_training_backward_dense \
        fbgemm_gpu_tbe_training_backward_gwd fbgemm_gpu_tbe_training_backward_pt2 \
        fbgemm_gpu_tbe_training_backward_split_host fbgemm_gpu_tbe_training_backward_vbe \
        fbgemm_gpu_embedding_inplace_ops fbgemm_gpu_py; do
    if [ ! -f "$lib/$name.so" ]; then
        echo "$0: $lib/$name.so is missing (another fbgemm-gpu-cpu version?)" >&2
        exit 2
    fi
    set -- "$@" --torch-library "$lib/$name.so"
done
exec "$bin" verify "$@"
