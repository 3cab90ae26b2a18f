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

# The Python package's tests (tests/python): $PY is a Python that imports
# torch: $TA_PYTHON, else Debian's /usr/bin/python3 (python3-torch), else
# python3; the package comes from python/ and its library from $BUILD.
# need_python_torch skips a test (exit 77) when there is none, when the
# bridge is not built, and in a sanitizer build, whose library Python cannot
# load without preloading the sanitizer's runtime.
need_python_torch() {
    [ -z "${SAN:-}" ] || { echo "skipped: a sanitizer build's library cannot be loaded into Python"; exit 77; }
    PY=
    for p in ${TA_PYTHON:-} /usr/bin/python3 python3; do
        if "$p" -c 'import torch' >/dev/null 2>&1; then PY=$p; break; fi
    done
    [ -n "$PY" ] || { echo "skipped: no Python imports torch (apt-get install python3-torch, or set TA_PYTHON)"; exit 77; }
    need_bridge
    case $BUILD in /*) TENSORALIAS_BUILD=$BUILD ;; *) TENSORALIAS_BUILD=$(pwd)/$BUILD ;; esac
    PYTHONPATH=$(pwd)/python:$(pwd)/tests/python
    export PY TENSORALIAS_BUILD PYTHONPATH
}

# The discovery tests' plugins (tests/plugins/picky*.c): verify_plugin OUT
# PLUGIN GLOB options... verifies the operators GLOB names, 16 cases each,
# the JSON report into OUT and stderr into $tmp/err; op_field OP FIELD
# REPORT is the value of an integer field on OP's line of a report.
verify_plugin() {
    out=$1 plugin=$2 glob=$3; shift 3
    "$TA" verify --no-default-kernels --kernels "$plugin" --ops "$glob" --cases 16 --format json "$@" >"$out" 2>"$tmp/err"
}
op_field() {
    grep "\"op\":\"$1\"" "$3" | sed -n "s/.*\"$2\":\\([0-9]*\\).*/\\1/p"
}
