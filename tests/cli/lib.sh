# tests/cli/lib.sh - the preamble the command-line tests share, sourced first
# by each (`. "$(dirname "$0")/lib.sh"`); tests/run.sh does not run it as a
# test. Unset variables are errors, $TA (the command) and $BUILD must be set,
# $tmp is a scratch directory removed on exit, and fail ends the test.
set -u
: "${TA:?}" "${BUILD:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# The torch the libtorch bridge's tests run on: $TA_TORCH, a torch folder
# (`make TORCH=DIR test-torch` sets it, and TA_TORCH_OUT where that torch's
# bridge and test extension were built), else Debian's libtorch-dev, whose
# bridge is in $BUILD. need_bridge skips a test (exit 77) when it is not built.
TORCH_OUT=${TA_TORCH_OUT:-$BUILD}
case $TORCH_OUT in /*) ;; *) TORCH_OUT=$(pwd)/$TORCH_OUT ;; esac
TORCH_EXT=$TORCH_OUT/tests/torchext/libtaext.so
TORCH_ARGS=${TA_TORCH:+--torch $TA_TORCH}
need_bridge() {
    [ -f "$TORCH_OUT/libtensoralias_torch.so" ] && [ -f "$TORCH_EXT" ] && return 0
    echo "skipped: the libtorch bridge is not built (${TA_TORCH:-no libtorch-dev})"; exit 77
}
