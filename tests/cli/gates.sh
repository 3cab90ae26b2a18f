#!/bin/sh
# A gate never passes by accident (issue 15): every input that leaves
# nothing to check is an input error (exit 2, with a message), output that
# cannot be written is an I/O error, and a baseline is validated.
. "$(dirname "$0")/lib.sh"
PLUGIN=$BUILD/tests/plugins/libwrongkernels.so

# expect STATUS PATTERN CMD...: runs CMD, checks its exit status and that stderr matches.
expect() {
    want=$1 pat=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    [ "$got" -eq "$want" ] || { cat "$tmp/err"; fail "$* exited $got, not $want"; }
    grep -q -- "$pat" "$tmp/err" || { cat "$tmp/err"; fail "$*: no '$pat' on stderr"; }
}

# verify on inputs that hold nothing to verify.
head -c 4000 /dev/urandom >"$tmp/garbage.bin"
printf 'x\0y\n' >>"$tmp/garbage.bin"
: >"$tmp/empty.yaml"
printf 'a: 1\nb: [2]\n' >"$tmp/other.yaml"
expect 2 'no native functions in it' "$TA" verify "$tmp/garbage.bin"
expect 2 'no native functions in it' "$TA" verify "$tmp/empty.yaml"
expect 2 'no native functions in it' "$TA" verify "$tmp/other.yaml"
expect 2 "no operator matches --ops 'nomatch::\*'" "$TA" verify --ops 'nomatch::*'
expect 2 'no operator has a kernel.*--no-default-kernels without --kernels' \
    "$TA" verify --no-default-kernels
[ ! -s "$tmp/out" ] || fail "no report for an empty selection"

# --schemas: garbage, a malformed schema among good ones, a file without any.
printf 'garbage\n' >"$tmp/garbage.txt"
expect 2 'garbage.txt:1:8: error: .*\[schema-syntax\]' \
    "$TA" verify --no-default-kernels --schemas "$tmp/garbage.txt" --ops '*'
printf 'mylib::x(Tensor self) -> Tensor\n\tmylib::y(Tensor self -> Tensor\n' >"$tmp/mal.txt"
expect 2 "mal.txt:2:23: error: expected ',' or ')' after an argument" \
    "$TA" verify --no-default-kernels --schemas "$tmp/mal.txt" --ops 'mylib::*'
grep -q '^  	mylib::y(Tensor self -> Tensor$' "$tmp/err" || { cat "$tmp/err"; fail "the line as written"; }
grep -q '^  	'"$(printf '%21s' '')"'\^~$' "$tmp/err" || { cat "$tmp/err"; fail "the caret under '->'"; }
# One format for every --schemas: a yaml list of strings is not a schema list.
printf -- '- "mylib::x(Tensor self) -> Tensor"\n' >"$tmp/seq.yaml"
expect 2 "seq.yaml:1:1: error: expected an operator name, found '-'" \
    "$TA" verify --no-default-kernels --schemas "$tmp/seq.yaml" --ops 'mylib::*'
printf '# only a comment\n\n' >"$tmp/none.txt"
expect 2 'none.txt: error: no schema in it (one a line, or a native_functions.yaml)' \
    "$TA" verify --no-default-kernels --schemas "$tmp/none.txt" --ops '*'

# --samples: an unknown operator, a misspelled argument, an unknown dtype are
# errors at their place in the file, before anything runs.
cat >"$tmp/s.json" <<'JSON'
{"aten::nosuch": [{"self": {"shape": [3]}}],
 "aten::abs.out": [{"self": {"shape": [2]}}, {"slef": {"shape": [2]}}]}
JSON
expect 2 "s.json:1:2: error: no operator 'aten::nosuch' in the yaml" "$TA" verify --samples "$tmp/s.json" --cases 0
grep -q "s.json:2:46: error: sample 1 of 'aten::abs.out': 'aten::abs.out' has no argument 'slef' (its arguments: self, out)" \
    "$tmp/err" || { cat "$tmp/err"; fail "the misspelled argument"; }
printf '{"aten::abs.out": [{"self": {"shape": [2], "dtype": "floa32"}}]}\n' >"$tmp/d.json"
expect 2 'd.json:1:20: error: .*dtype: one of float32' "$TA" verify --samples "$tmp/d.json" --cases 0
# NaN, infinities and -0.0 are values (strings where JSON has no number for them).
cat >"$tmp/nf.json" <<'JSON'
{"aten::abs.out": [{"self": {"shape": [6], "values": ["nan", "NaN", "inf", "-Infinity", -0.0, "-0.0"]},
                    "out": {"shape": [6]}}],
 "aten::fill_.Scalar": [{"self": {"shape": [2]}, "value": "-inf"}]}
JSON
"$TA" verify --samples "$tmp/nf.json" --cases 0 --ops 'aten::abs.out' --ops 'aten::fill_.Scalar' -v \
    >"$tmp/nf.out" 2>&1 || { cat "$tmp/nf.out"; fail "non-finite values and -0.0 load and run"; }
grep -q '^aten::abs.out: ok (1 case, 1 exercised)' "$tmp/nf.out" || { cat "$tmp/nf.out"; fail "abs.out ran its sample"; }

# Output that cannot be written: every command, every format.
if [ -w /dev/full ]; then
    for f in text json sarif junit; do
        expect 2 'cannot write standard output' sh -c '"$0" verify --ops "aten::abs.out" --format '$f' >/dev/full' "$TA"
        expect 2 'cannot write /dev/full' "$TA" verify --ops 'aten::abs.out' --format $f -o /dev/full
    done
    for f in json sarif; do # (text goes to stderr)
        expect 2 'cannot write standard output' sh -c '"$0" check --format '$f' >/dev/full' "$TA"
    done
    expect 2 'cannot write standard output' sh -c '"$0" list >/dev/full' "$TA"
    expect 2 'cannot write standard output' sh -c '"$0" parse "a::b(Tensor x) -> Tensor" >/dev/full' "$TA"
    expect 2 'cannot write standard output' sh -c '"$0" groups >/dev/full' "$TA"
    expect 2 'cannot write standard output' sh -c '"$0" autogen >/dev/full' "$TA"
    expect 2 'cannot write standard output' sh -c '"$0" schema-graph abs >/dev/full' "$TA"
    expect 2 'cannot write /dev/full' "$TA" schema-graph abs -o /dev/full
    expect 2 'cannot write standard output' sh -c '"$0" --help >/dev/full' "$TA"
    mkdir "$tmp/src" && printf 'TORCH_LIBRARY(mylib, m) {\n  m.def("f(Tensor x) -> Tensor");\n}\n' >"$tmp/src/a.cpp"
    expect 2 'cannot write standard output' sh -c '"$0" extract --no-git "$1" >/dev/full' "$TA" "$tmp/src"
    printf 'graph(%%x : Tensor):\n  %%y : Tensor = aten::relu(%%x)\n  return (%%y)\n' >"$tmp/g.ir"
    expect 2 'cannot write standard output' sh -c '"$0" graph-alias "$1" >/dev/full' "$TA" "$tmp/g.ir"
fi
# A closed pipe: the reader is gone before the first write.
sh -c '"$0" list 2>"$1"; echo $? >"$1.rc"' "$TA" "$tmp/pipe.err" | true
[ "$(cat "$tmp/pipe.err.rc")" = 2 ] || fail "list into a closed pipe exits $(cat "$tmp/pipe.err.rc"), not 2"
grep -q 'cannot write standard output' "$tmp/pipe.err" || fail "list into a closed pipe says so"

# check on a yaml list without functions, or sources in which no operator is
# found, has checked nothing.
printf '[]\n' >"$tmp/emptylist.yaml"
expect 2 'emptylist.yaml: no native functions in it; nothing was checked' "$TA" check "$tmp/emptylist.yaml"
mkdir "$tmp/nosrc" "$tmp/noops"
printf 'int main() { return 0; }\n' >"$tmp/noops/main.cpp"
expect 2 'no operator schema found (no C++ or Python source file); nothing was checked' \
    "$TA" check --no-git "$tmp/nosrc"
expect 2 'no operator schema found (0 operators from 1 file); nothing was checked' \
    "$TA" check --no-git "$tmp/noops"

# check on several files, one unreadable: every readable file's findings in
# every format, and exit 2.
printf -- '- func: abs(Tensor self) -> Tensor\n  dispach: x\n' >"$tmp/one.yaml"
for f in json sarif; do
    "$TA" check --format $f "$tmp/one.yaml" "$tmp/nosuch.yaml" >"$tmp/multi.$f" 2>"$tmp/multi.err"
    [ $? -eq 2 ] || fail "check $f with an unreadable file exits 2"
    grep -q 'entry-unknown-key' "$tmp/multi.$f" || { cat "$tmp/multi.$f"; fail "check $f keeps the readable file's findings"; }
    grep -q 'cannot read .*nosuch.yaml' "$tmp/multi.err" || fail "check $f names the unreadable file"
done
grep -q '"rule":"io"' "$tmp/multi.json" || fail "the unreadable file is in the JSON report too"
"$TA" check "$tmp/nosuch.yaml" "$tmp/one.yaml" >/dev/null 2>"$tmp/multi.err"
[ $? -eq 2 ] || fail "check text with an unreadable file exits 2"
grep -q "unknown key 'dispach'" "$tmp/multi.err" || fail "check text goes on after the unreadable file"

# --baseline: what is not a JSON report is an error naming the problem.
echo '[1,2,3]' >"$tmp/nums.json"
expect 2 'nums.json:1: not a verify JSON report: element 1 is a number' \
    "$TA" verify --ops 'aten::abs.out' --baseline "$tmp/nums.json"
printf '{"version": "2.1.0", "runs": []}\n' >"$tmp/log.sarif"
expect 2 'not a verify JSON report: a SARIF log' "$TA" verify --ops 'aten::abs.out' --baseline "$tmp/log.sarif"
: >"$tmp/empty.json"
expect 2 'not a verify JSON report: the file is empty' "$TA" verify --ops 'aten::abs.out' --baseline "$tmp/empty.json"

# Baselined findings are marked in every format, and JUnit agrees with the exit status.
V="$TA verify --no-default-kernels --kernels $PLUGIN --ops mylib::writes_input --cases 4"
$V --format json >"$tmp/base.json"
[ $? -eq 1 ] || fail "the wrong kernel has findings"
$V --format json --baseline "$tmp/base.json" >"$tmp/again.json" || fail "baselined findings pass"
grep -q '"baseline":true' "$tmp/again.json" || { cat "$tmp/again.json"; fail "JSON marks baselined findings"; }
$V --baseline "$tmp/base.json" -v >"$tmp/again.txt" || fail "baselined findings pass (text)"
grep -q '(in baseline)' "$tmp/again.txt" || fail "text marks baselined findings"
$V --format sarif --baseline "$tmp/base.json" >"$tmp/again.sarif" || fail "baselined findings pass (sarif)"
grep -q '"baselineState": "unchanged"' "$tmp/again.sarif" || fail "SARIF marks baselined findings"
$V --format junit --baseline "$tmp/base.json" >"$tmp/again.xml" || fail "baselined findings pass (junit)"
! grep -q '<failure' "$tmp/again.xml" || { cat "$tmp/again.xml"; fail "a baselined finding is no <failure>"; }
grep -q '<testsuite [^>]*failures="0" errors="0"' "$tmp/again.xml" || { cat "$tmp/again.xml"; fail "testsuite counts"; }
grep -q 'in baseline: undeclared-mutation' "$tmp/again.xml" || fail "JUnit keeps the baselined finding visible"
$V --format junit >"$tmp/new.xml"
[ $? -eq 1 ] || fail "without the baseline the run fails"
grep -q '<testsuite [^>]*failures="1" errors="0"' "$tmp/new.xml" || { cat "$tmp/new.xml"; fail "one failure"; }
echo "gates: ok"
