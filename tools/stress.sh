#!/bin/sh
# tools/stress.sh - the hostile inputs of tests/unit/test_stress.c and
# tests/cli/stress.sh at full size, each run once through the command with
# its exit status, wall time and peak memory (GNU time's maximum RSS):
#   deep       100,000 levels of '[' and of '{a: '           check
#   entry      one 150 KB entry, 5,000 written args/returns  check
#   aliased    3,000 arguments in one alias set               parse --json (cap, then all pairs)
#   big        a 200 MB native_functions.yaml (copies of 1.13.1's, renamed),
#              past the 64 MiB input limit, and its first 60 MB             check
#              (and, when the benchmarks are built, bench_check_memory on the
#              60 MB: the whole-file check beside the streaming one, and the
#              stream's own parts without torchgen's)
#   zero       /dev/zero, endless                              check
#   strides    16 sample tensors with strides of 4,000,000    verify --samples
# usage: tools/stress.sh [SIZE_MB]   (BUILD=dir picks the build; SIZE_MB is
# the big yaml's size, default 200). Needs python3 and GNU time (/usr/bin/time).
set -u
BUILD=${BUILD:-build}
TA=$BUILD/tensoralias
MB=${1:-200}
[ -x "$TA" ] || { echo "no $TA: run make first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME INPUT_BYTES CMD...: one line of figures (output to /dev/null).
run() {
    name=$1 bytes=$2
    shift 2
    /usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err"
    rc=$?
    set -- $(tail -n 1 "$tmp/time")
    ratio=""
    [ "$bytes" -gt 1048576 ] && ratio=$(awk -v k="$2" -v b="$bytes" 'BEGIN { printf "%.1fx the input", k * 1024 / b }')
    printf '%-30s exit %-3s %8.2f s %9.1f MB  %s\n' "$name" "$rc" "$1" "$(awk -v k="$2" 'BEGIN { print k / 1024 }')" "$ratio"
}
size() { wc -c < "$1" | tr -d ' '; }

python3 - "$tmp" "$MB" "$BUILD/data/corpus/pytorch-1.13.1/native_functions.yaml" <<'PY'
import json, re, sys
tmp, mb, corpus = sys.argv[1], int(sys.argv[2]), sys.argv[3]
open(f"{tmp}/deep_seq.yaml", "w").write("[" * 100000 + "\n")
open(f"{tmp}/deep_map.yaml", "w").write("{a: " * 100000 + "\n")
args = ", ".join(f"Tensor(a!) argument_{i:04d}" for i in range(2500))
rets = ", ".join(f"Tensor(a!) returned_{i:04d}" for i in range(2500))
open(f"{tmp}/entry.yaml", "w").write(f"- func: big({args}) -> ({rets})\n")
open(f"{tmp}/aliased.txt", "w").write(
    "foo(" + ", ".join(f"Tensor(a) a{i}" for i in range(3000)) + ") -> Tensor(a)\n")
src = open(corpus).read()
def copy(k):
    p = f"c{k}_"
    s = re.sub(r"^- func: ([A-Za-z_])", lambda m: "- func: " + p + m.group(1), src, flags=re.M)
    s = re.sub(r"^(  structured_delegate: )(\w)", lambda m: m.group(1) + p + m.group(2), s, flags=re.M)
    return re.sub(r"^(  autogen: )(.*)$",
                  lambda m: m.group(1) + ", ".join(p + x.strip() for x in m.group(2).split(",")), s, flags=re.M)
with open(f"{tmp}/big.yaml", "w") as out, open(f"{tmp}/big60.yaml", "w") as out60:
    k = 0
    while out.tell() < mb << 20:
        c = copy(k)
        out.write(c)
        if out60.tell() < 60 << 20:
            out60.write(c)
        k += 1
t = {"shape": [2, 2, 2, 2], "strides": [4000000] * 4}
json.dump({"aten::cat": [{"tensors": [t] * 16, "dim": 0}]}, open(f"{tmp}/strides.json", "w"))
PY
[ $? -eq 0 ] || { echo "could not write the inputs" >&2; exit 2; }

echo "input                          status     time   peak RSS"
run "deep: 100,000 x '['" "$(size "$tmp/deep_seq.yaml")" "$TA" check "$tmp/deep_seq.yaml"
run "deep: 100,000 x '{a: '" "$(size "$tmp/deep_map.yaml")" "$TA" check "$tmp/deep_map.yaml"
run "entry: $(($(size "$tmp/entry.yaml") / 1024)) KB, 5,000 written" "$(size "$tmp/entry.yaml")" "$TA" check "$tmp/entry.yaml"
run "aliased: parse --json" 0 "$TA" parse --json - < "$tmp/aliased.txt"
run "aliased: --max-pairs 0" 0 "$TA" parse --json --max-pairs 0 - < "$tmp/aliased.txt"
run "big: $MB MB check" "$(size "$tmp/big.yaml")" "$TA" check "$tmp/big.yaml"
run "big: $(($(size "$tmp/big60.yaml") >> 20)) MB check" "$(size "$tmp/big60.yaml")" "$TA" check "$tmp/big60.yaml"
run "zero: check /dev/zero" 0 "$TA" check /dev/zero
run "zero: check - < /dev/zero" 0 sh -c "'$TA' check - < /dev/zero"
run "strides: verify --samples" 0 "$TA" verify --no-default-samples --samples "$tmp/strides.json" --ops 'aten::cat' --cases 0
if [ -x "$BUILD/bench/bench_check_memory" ]; then
    echo
    "$BUILD/bench/bench_check_memory" "$tmp/big60.yaml"
fi
