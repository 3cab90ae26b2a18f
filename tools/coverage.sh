#!/bin/sh
# Prints line coverage per source directory after a coverage build has run
# the suite (`make coverage` does both): for every object with coverage data
# under BUILD/obj, gcov's count of executable and executed lines of its
# source, summed by directory, then in all.
#   usage: tools/coverage.sh [BUILD]   (default build-cov)
# Forked children (verify's) write their counts before they _exit in such a
# build (TA_COVERAGE), so code that runs only there counts too.
set -eu
BUILD=${1:-build-cov}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find "$BUILD/obj" -name '*.gcda' | sort | while read -r gcda; do
    obj=${gcda%.gcda}.o
    src=${gcda#"$BUILD"/obj/}
    src=${src%.gcda}
    for ext in c cu; do
        [ -f "$src.$ext" ] || continue
        # gcov prints "File '<path>'" then "Lines executed:P% of N" per file;
        # keep the lines of the source itself, not of headers it inlines.
        gcov -n -o "$(dirname "$obj")" "$src.$ext" 2>/dev/null |
            awk -v want="$src.$ext" '/^File /{f=$2; gsub(/\047/, "", f)}
                 /^Lines executed:/ && f == want {split($2, a, ":"); sub(/%/, "", a[2]); print want, a[2], $4}'
    done
done | grep -E '^(src|tools)/' >"$tmp/files"
awk '{ n = split($1, p, "/"); dir = p[1]; for (i = 2; i < n; i++) dir = dir "/" p[i];
       lines[dir] += $3; hit[dir] += $3 * $2 / 100; tl += $3; th += $3 * $2 / 100 }
     END { for (d in lines) printf "%-28s %6.1f%%  of %6d lines\n", d, 100 * hit[d] / lines[d], lines[d] | "sort";
           close("sort"); printf "%-28s %6.1f%%  of %6d lines\n", "all", 100 * th / tl, tl }' "$tmp/files"
