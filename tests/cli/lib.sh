# tests/cli/lib.sh - the preamble the command-line tests share, sourced first
# by each (`. "$(dirname "$0")/lib.sh"`); tests/run.sh does not run it as a
# test. Unset variables are errors, $TA (the command) and $BUILD must be set,
# $tmp is a scratch directory removed on exit, and fail ends the test.
set -u
: "${TA:?}" "${BUILD:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
