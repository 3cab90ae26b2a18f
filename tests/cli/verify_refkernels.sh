#!/bin/sh
# The reference kernels (build/libtensoralias_refkernels.so) verified on both
# PyTorch corpora, and with autogen's derived variants composed from them:
# every operator with a kernel is exercised and no verdict is an error.
# Skipped (77) when the library is not built.
. "$(dirname "$0")/lib.sh"
REF=$BUILD/libtensoralias_refkernels.so
if [ ! -f "$REF" ]; then
    echo "skipped: $REF is not built"
    exit 77
fi

for yaml in "" "$BUILD/data/corpus/pytorch-1.13.1/native_functions.yaml"; do
    # The reference kernels are loaded by default (found next to the command).
    # shellcheck disable=SC2086
    "$TA" verify $yaml --cases 24 --jobs 2 --timeout 20 --format json >"$tmp/r.json" 2>"$tmp/err"
    rc=$?
    n=$(wc -l <"$tmp/r.json")
    [ "$n" -gt 50 ] || { cat "$tmp/err"; fail "${yaml:-bundled yaml}: only $n operators verified"; }
    if grep -v '"verdict":"ok"' "$tmp/r.json" | grep -q .; then
        grep -v '"verdict":"ok"' "$tmp/r.json" | head -20
        fail "${yaml:-bundled yaml}: verdicts other than ok (exit $rc)"
    fi
    [ $rc -eq 0 ] || fail "${yaml:-bundled yaml}: exit $rc"
    echo "${yaml:-bundled yaml}: $n operators, all ok"
done

# autogen's derived variants composed from their base kernels (when the kinds
# module is built in): verified like the others, all ok.
"$TA" verify --compose-derived --cases 24 --jobs 2 --timeout 20 --format json >"$tmp/d.json" 2>"$tmp/err"
rc=$?
nd=$(grep -c '"derived":true' "$tmp/d.json")
if grep -v '"verdict":"ok"' "$tmp/d.json" | grep -q .; then
    grep -v '"verdict":"ok"' "$tmp/d.json" | head -20
    fail "--compose-derived: verdicts other than ok (exit $rc)"
fi
[ $rc -eq 0 ] || fail "--compose-derived: exit $rc"
echo "composed derived operators: $nd, all ok"
