#!/bin/sh
# func_identical.sh - does a build's `tensoralias functionalize` print exactly
# what a reference build's does? A speed change must not change one byte: the
# differential fuzzer's verdict (tools/torch/functionalize_fuzz.py, run on one
# build) holds for another only if their output is identical.
#
# Usage: tools/bench/func_identical.sh REF_TENSORALIAS NEW_TENSORALIAS [N] [DIR]
#   N    fuzzer graphs to add (default 2000: seeds 3000000..3000000+N-1,
#        random_ir.fuzz_graph, the graphs the fuzzer runs)
#   DIR  where the corpus and the outputs go (default build/func-identical)
#
# The corpus: every *.ir / *.ir.xz under tests/data (the shared exec graphs,
# the models, synth_*, speed/, the functionalize regressions) and the N
# fuzzer graphs. Each graph is run three ways by both binaries (the rewritten
# IR, --format json, --no-copy-back) and standard output, standard error and
# the exit status compared. The corpus and the reference's outputs are kept
# in DIR and made again only when the reference binary or N changes. Prints
# each differing run and the count; exits 1 when any differ.
set -eu
usage="usage: func_identical.sh REF_TENSORALIAS NEW_TENSORALIAS [N] [DIR]"
ref=$(realpath "${1:?$usage}")
new=$(realpath "${2:?$usage}")
n=${3:-2000}
dir=${4:-build/func-identical}
py=/usr/bin/python3 # the Python the fuzzer runs under: the same random stream
here=$(cd "$(dirname "$0")/../.." && pwd)

# DIR/graphs/*.ir, then a list of the runs: "GRAPH MODE" a line.
make_corpus() {
    rm -rf "$dir" && mkdir -p "$dir/graphs" "$dir/ref" "$dir/new"
    find "$here/tests/data" -name '*.ir' -o -name '*.ir.xz' | sort | while read -r f; do
        name=$(echo "${f#"$here"/tests/data/}" | sed 's/\.xz$//; s|/|_|g')
        case $f in *.xz) xz -dc "$f" >"$dir/graphs/$name" ;; *) cp "$f" "$dir/graphs/$name" ;; esac
    done
    PYTHONPATH="$here/tools/torch" "$py" - "$dir/graphs" "$n" <<'EOF'
import sys, random_ir
d, n = sys.argv[1], int(sys.argv[2])
for s in range(3000000, 3000000 + n):
    with open("%s/fuzz_%d.ir" % (d, s), "w") as f:
        f.write(random_ir.fuzz_graph(s))
EOF
    for g in "$dir"/graphs/*.ir; do
        for m in ir json nocb; do echo "$(basename "$g") $m"; done
    done >"$dir/runs"
}

# run_all BIN OUT: every run of DIR/runs by BIN, two at a time, into OUT/.
run_all() {
    rm -rf "$2" && mkdir -p "$2"
    # shellcheck disable=SC2016 # expanded by the inner shell
    xargs -P2 -L1 sh -c '
        bin=$1 graphs=$2 out=$3 g=$4 m=$5
        case $m in ir) set -- ;; json) set -- --format json ;; nocb) set -- --no-copy-back ;; esac
        o="$out/$g.$m"
        st=0
        (cd "$graphs" && "$bin" functionalize "$g" "$@") >"$o.out" 2>"$o.err" || st=$?
        echo "$st" >"$o.st"' run "$1" "$dir/graphs" "$2" <"$dir/runs"
}

key="$(sha256sum "$ref" | cut -d' ' -f1) $n"
if [ "$(cat "$dir/key" 2>/dev/null)" != "$key" ]; then
    make_corpus
    run_all "$ref" "$dir/ref"
    echo "$key" >"$dir/key"
fi
run_all "$new" "$dir/new"

# one diff over the two trees: a run differs when any of its three files does
diffs=$(diff -rq "$dir/ref" "$dir/new" | sed -n 's|^Files .*/ref/\(.*\)\.[a-z]* and .* differ$|\1|p; s|^Only in .*: \(.*\)\.[a-z]*$|\1|p' |
    sort -u | tee "$dir/differing" | wc -l)
sed 's/^/differs: /' "$dir/differing"
echo "$(find "$dir/graphs" -name "*.ir" | wc -l) graphs, $(wc -l <"$dir/runs") runs a build, $diffs differing"
[ "$diffs" -eq 0 ]
