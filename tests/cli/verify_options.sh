#!/bin/sh
# verify's inputs and outputs: --schemas, --samples (exact cases, a rejected
# sample is a kernel error), --ops selecting operators without kernels, -o,
# --device cuda without a CUDA library, and registration-rule breaches.
. "$(dirname "$0")/lib.sh"
PLUGIN=$BUILD/tests/plugins/libwrongkernels.so

# --schemas: schema-only operators, selected by --ops, give no-kernel (info); the
# report lists them, but with no kernel for any nothing was verified: exit 2.
cat >"$tmp/s.yaml" <<'YAML'
# custom operators without kernels, native_functions.yaml style
- func: extra::one(Tensor self) -> Tensor
  variants: function
- func: extra::two(Tensor(a!) self) -> Tensor(a!)
YAML
# a schema list (tensoralias/schema_list.h): one a line, '#' comments, blanks
# around a schema, an alias analysis kind before it
cat >"$tmp/list.txt" <<'TXT'
# two more
  extra::three(Tensor self) -> Tensor
CONSERVATIVE	extra::four(Tensor self) -> Tensor
TXT
"$TA" verify --no-default-kernels --schemas "$tmp/s.yaml" --schemas "$tmp/list.txt" --ops 'extra::*' \
    --format json -o "$tmp/r.json" 2>"$tmp/r.err"
[ $? -eq 2 ] || fail "schema-only operators alone verify nothing: exit 2"
grep -q 'nothing was verified: none of the 4 selected operators has a kernel' "$tmp/r.err" ||
    { cat "$tmp/r.err"; fail "the reason nothing was verified"; }
[ "$(wc -l <"$tmp/r.json")" -eq 4 ] || { cat "$tmp/r.json"; fail "four schema-only operators"; }
grep -q '"op":"extra::four","verdict":"no-kernel"' "$tmp/r.json" || fail "extra::four from a plain list"
grep -q '"op":"extra::one","verdict":"no-kernel","severity":"info"' "$tmp/r.json" || { cat "$tmp/r.json"; fail "extra::one no-kernel"; }
grep -q '"op":"extra::two","verdict":"no-kernel"' "$tmp/r.json" || fail "extra::two no-kernel"
# Without --ops, operators without a kernel are not run at all: nothing to do is exit 2.
"$TA" verify --no-default-kernels --schemas "$tmp/s.yaml" --format json >"$tmp/none.json" 2>"$tmp/none.err"
[ $? -eq 2 ] || fail "an empty run exits 2"
[ ! -s "$tmp/none.json" ] || fail "no operator should have been verified"
grep -q 'no operator has a kernel' "$tmp/none.err" || { cat "$tmp/none.err"; fail "empty run message"; }

# --samples: exact arguments; a sample the kernel rejects is a kernel error.
cat >"$tmp/samples.json" <<'JSON'
{"mylib::good": [{"self": {"shape": [2, 5], "dtype": "float64", "values": [1, -0.0, 2.5]}}],
 "mylib::rejects": [{"self": {"shape": [3]}}]}
JSON
"$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops 'mylib::good' --ops 'mylib::rejects' \
    --samples "$tmp/samples.json" --cases 2 --format json >"$tmp/s.json"
[ $? -eq 1 ] || fail "a rejected sample fails the run"
grep -q '"op":"mylib::good","verdict":"ok","severity":"none","cases":3,"exercised":3' "$tmp/s.json" ||
    { cat "$tmp/s.json"; fail "sample + 2 synthesized cases for mylib::good"; }
grep '"op":"mylib::rejects"' "$tmp/s.json" | grep -q '"kind":"kernel-error".*rejected a sample' ||
    fail "rejected sample reported"
echo '{"x": 1}' >"$tmp/bad.json"
"$TA" verify --no-default-kernels --samples "$tmp/bad.json" >/dev/null 2>"$tmp/bad.err"; [ $? -eq 2 ] || fail "malformed samples exit 2"
grep -q "bad.json:1:7: error: expected '\[' opening the samples of an operator \[samples\]" "$tmp/bad.err" ||
    { cat "$tmp/bad.err"; fail "a positioned error for a malformed samples file"; }

# --cases 0: the samples only; a finding's seed names its sample, and --case-seed replays it.
cat >"$tmp/two.json" <<'JSON'
{"mylib::writes_input": [{"self": {"shape": [3]}},
                         {"self": {"shape": [2, 6], "strides": [1, 2], "dtype": "float64"}}]}
JSON
"$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops 'mylib::writes_input' --samples "$tmp/two.json" \
    --cases 0 --format json >"$tmp/two.out"
grep -q '"cases":2,"exercised":2' "$tmp/two.out" || { cat "$tmp/two.out"; fail "--cases 0 runs the two samples"; }
grep -q '"seed":"0x0".*self=float32\[3\]' "$tmp/two.out" || { cat "$tmp/two.out"; fail "the first sample's seed is 0"; }
"$TA" verify --no-default-kernels --kernels "$PLUGIN" --ops 'mylib::writes_input' --samples "$tmp/two.json" \
    --case-seed 1 >"$tmp/replay.out"
grep -q 'self=float64\[2,6\] strides \[1,2\].*\[seed 0x1\]' "$tmp/replay.out" ||
    { cat "$tmp/replay.out"; fail "--case-seed 1 replays the second sample"; }

# --device cuda without the library (or without a GPU): exit 2 with the message.
if [ ! -f "$BUILD/libtensoralias_cuda.so" ]; then
    "$TA" verify --device cuda >/dev/null 2>"$tmp/cuda.err"
    [ $? -eq 2 ] || fail "--device cuda without the library exits 2"
    grep -q 'no CUDA device is available' "$tmp/cuda.err" || fail "the CUDA message"
fi

# A plugin whose schemas break the rules: exit 2 and a clear message.
printf 'mylib::good(Tensor self, int k=1) -> Tensor\n' >"$tmp/clash.txt"
"$TA" verify --no-default-kernels --schemas "$tmp/clash.txt" --kernels "$PLUGIN" >/dev/null 2>"$tmp/clash.err"
[ $? -eq 2 ] || fail "schema clash exits 2"
grep -q 'must carry exactly the same schema' "$tmp/clash.err" || { cat "$tmp/clash.err"; fail "schema clash message"; }
echo "verify_options: ok"
