#!/bin/sh
# verify --torch on every other torch installed: those tools/install-torch.sh
# keeps in its cache ($XDG_CACHE_HOME/tensoralias/torch) and $TA_TORCH, whose
# bridge `make TORCH=DIR` built: a few ATen operators (a view, in-place,
# out=) clean and exercised over that torch's own yaml, whose schemas are
# libtorch's (no schema-mismatch). The bridge's whole suite runs on one
# torch with `make TORCH=DIR test-torch` (CI: 2.12.1 and 2.15.0).
. "$(dirname "$0")/lib.sh"
cache=${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/tensoralias/torch
n=0
for dir in "$cache"/*/torch ${TA_TORCH:-}; do
    [ -d "$dir" ] || continue
    key=$(sh tools/torch-config.sh "$dir" key) || continue
    if [ ! -f "$BUILD/torch/$key/libtensoralias_torch.so" ]; then
        echo "$dir: no bridge built for it (make TORCH=$dir)"; continue
    fi
    "$TA" verify --torch "$dir" --kernels torch --ops aten::transpose.int --ops aten::abs_ --ops aten::add.out \
        --cases 8 --format json >"$tmp/r.json" 2>"$tmp/err" || { cat "$tmp/r.json" "$tmp/err"; fail "$dir: exit $?"; }
    [ "$(grep -c '"verdict":"ok"' "$tmp/r.json")" -eq 3 ] || { cat "$tmp/r.json"; fail "$dir: 3 operators ok"; }
    grep -q '"exercised":0,' "$tmp/r.json" && fail "$dir: an operator not exercised"
    echo "$dir ($key): ok"
    n=$((n + 1))
done
if [ $n -eq 0 ]; then
    echo "skipped: no other torch with a bridge built (tools/install-torch.sh 2.15.0, then make TORCH=DIR)"; exit 77
fi
exit 0
