#!/bin/sh
# PyTorch 1.13.1's OpInfo samples (tests/data/opinfo/samples.json.xz, installed
# as share/tensoralias/opinfo-samples.json): the file loads, every sample of an
# operator the reference kernels implement is accepted by them (strict: a
# rejected sample would be a kernel-error) and verifies clean, and with the
# libtorch bridge, --kernels torch uses them by default.
. "$(dirname "$0")/lib.sh"
SAMPLES=$BUILD/share/tensoralias/opinfo-samples.json
[ -f "$SAMPLES" ] || fail "$SAMPLES is not built"

Y113=$BUILD/data/corpus/pytorch-1.13.1/native_functions.yaml
# The samples are 1.13.1's: against that yaml every operator and argument exists.
"$TA" verify "$Y113" --samples "$SAMPLES" --cases 0 --jobs 2 --format json -o "$tmp/ref.json" ||
    { grep -v '"verdict":"ok"' "$tmp/ref.json" | grep -v not-exercised | head -5; fail "the reference kernels on OpInfo samples"; }
ok=$(grep -c '"verdict":"ok"' "$tmp/ref.json")
[ "$ok" -ge 230 ] || fail "only $ok operators verified on OpInfo samples (expected at least 230)"
# Every sample ran: cases equal exercised on every line.
awk -F'"cases":' 'NF > 1 { split($2, a, ","); split($2, b, "\"exercised\":"); split(b[2], e, ",");
    if (a[1] != e[1]) { print; bad = 1 } } END { exit bad }' "$tmp/ref.json" ||
    fail "a reference kernel rejected an OpInfo sample"

# Against the bundled main yaml, what main renamed or removed is an error at
# its place in the file, before anything runs.
"$TA" verify --samples "$SAMPLES" --cases 0 >/dev/null 2>"$tmp/main.err"
[ $? -eq 2 ] || fail "1.13.1's samples against main's yaml: exit 2"
grep -q "opinfo-samples.json:[0-9]*:[0-9]*: error: sample 0 of 'aten::can_cast': 'aten::can_cast' has no argument 'from' (its arguments: from_, to)" \
    "$tmp/main.err" || { cat "$tmp/main.err"; fail "can_cast's renamed argument"; }
grep -q "error: no operator 'aten::symeig' in the yaml" "$tmp/main.err" || fail "symeig, removed in main"

# --kernels torch takes them by default (when the libtorch bridge is built).
if [ ! -f "$BUILD/libtensoralias_torch.so" ]; then
    echo "verify_opinfo_samples: ok ($ok operators; --kernels torch not checked: no libtorch bridge built)"
    exit 0
fi
"$TA" verify --kernels torch --no-default-kernels --ops 'aten::abs' --cases 0 --format json >"$tmp/torch.json"
grep -q '"op":"aten::abs","verdict":"ok","severity":"none","cases":[1-9]' "$tmp/torch.json" ||
    { cat "$tmp/torch.json"; fail "--kernels torch runs the OpInfo samples of aten::abs"; }
"$TA" verify --kernels torch --no-default-kernels --no-default-samples --ops 'aten::abs' --cases 0 \
    --format json >"$tmp/none.json"
grep -q '"cases":0' "$tmp/none.json" || { cat "$tmp/none.json"; fail "--no-default-samples"; }
echo "verify_opinfo_samples: ok ($ok operators)"
