#!/bin/sh
# tensoralias functionalize against torch 1.13.1 itself (Debian's python3-torch,
# or $TA_PYTHON): every regression graph the differential fuzzer kept
# (tests/data/functionalize: minimized graphs with the results torch's
# interpreter gives the originals) is functionalized by the command and its
# rewrite, run by the interpreter and under both executor settings, must give
# the recorded values bit for bit; then a short run of the fuzzer itself
# (tools/torch/functionalize_fuzz.py: 12 random graphs) must find no
# difference. Skipped, saying why, without torch.
. "$(dirname "$0")/lib.sh"
PY=${TA_PYTHON:-/usr/bin/python3}
"$PY" -c 'import torch' 2>/dev/null || { echo "skipped: no torch for $PY (install python3-torch or set TA_PYTHON)"; exit 77; }
"$PY" tools/torch/functionalize_regress.py --tensoralias "$TA" tests/data/functionalize > "$tmp/regress" 2>&1 ||
    { cat "$tmp/regress"; fail "a regression graph's rewrite computes something else"; }
grep -q ' 0 differ$' "$tmp/regress" || { cat "$tmp/regress"; fail "no regression graph was checked"; }
# The fuzzer loads the library into Python, which a sanitizer build's cannot be
# without preloading the sanitizer's runtime: there the regressions alone run.
[ -z "${SAN:-}" ] || { echo "the fuzzer's run skipped: a sanitizer build's library cannot be loaded into Python"; exit 0; }
"$PY" tools/torch/functionalize_fuzz.py --build "$BUILD" --graphs 12 --seed 0 --quiet > "$tmp/fuzz" 2>&1 ||
    { cat "$tmp/fuzz"; fail "the fuzzer found a rewrite that computes something else"; }
grep -q '^12 graphs, .*: 0 differ' "$tmp/fuzz" || { cat "$tmp/fuzz"; fail "the fuzzer's summary"; }
tail -n 1 "$tmp/fuzz"
exit 0
