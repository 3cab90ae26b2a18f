#!/bin/sh
# tests/cli/parse.sh - "tensoralias parse": text round trip of every
# registered schema, JSON shape, error lines and exit codes, --help, usage
# errors. Needs $TA (the command) and $BUILD.
. "$(dirname "$0")/lib.sh"
REG=$BUILD/data/golden/torch-1.13.1/registered-schemas.txt

# 1. Text mode reproduces all 4,165 registered schemas byte for byte, exit 0.
"$TA" parse - < "$REG" > "$tmp/out" 2> "$tmp/err" || fail "parse - exited $? on registered-schemas.txt"
cmp -s "$tmp/out" "$REG" || fail "text output differs from registered-schemas.txt"
[ -s "$tmp/err" ] && fail "diagnostics on valid input: $(head -3 "$tmp/err")"

# 2. --json: one object per line, same order, the fields the brief names.
"$TA" parse --json - < "$REG" > "$tmp/json" || fail "parse --json exited $?"
[ "$(wc -l < "$tmp/json")" -eq 4165 ] || fail "expected 4165 JSON lines"
line=$(grep -F '"schema":"aten::split.Tensor(' "$tmp/json")
case $line in
    '{"schema":"aten::split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]","name":"aten::split","overload":"Tensor","args":[{"name":"self","type":"Tensor","alias":{"before":["a"],"after":["*"],"write":false},"kwarg_only":false,"is_out":false},{"name":"split_size","type":"int","alias":null,"kwarg_only":false,"is_out":false},{"name":"dim","type":"int","alias":null,"kwarg_only":false,"is_out":false,"default":"0"}],"returns":[{"name":"","type":"Tensor[]","alias":{"before":[],"after":[],"write":false},"elem_alias":{"before":["a"],"after":["a"],"write":false}}]'*) ;; # other modules add keys after "returns"
    *) fail "unexpected JSON for aten::split.Tensor: $line" ;;
esac
grep -qF '"name":"out","type":"Tensor","alias":{"before":["a"],"after":["a"],"write":true},"kwarg_only":true,"is_out":true}' "$tmp/json" \
    || fail "no kwarg-only out argument reported as is_out"

# 3. Arguments: several schemas, output in order; a bad one is an empty line
#    in text mode, a diagnostic on stderr, and exit 1.
"$TA" parse 'a::b(int x) -> ()' 'bad(int x' 'c(Tensor(a!) self) -> Tensor(a!)' > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] || fail "expected exit 1 with a bad schema, got $rc"
printf 'a::b(int x) -> ()\n\nc(Tensor(a!) self) -> Tensor(a!)\n' | cmp -s - "$tmp/out" || fail "text output with an error: $(cat "$tmp/out")"
grep -q "^<arg 2>:1:10: error: expected ',' or ')' after an argument, found end of input \[schema-syntax\]$" "$tmp/err" \
    || fail "diagnostic format: $(cat "$tmp/err")"
[ "$(sed -n 3p "$tmp/err")" = "           ^" ] || fail "caret line: $(sed -n 3p "$tmp/err")"

# 4. JSON error object, line numbers from stdin, empty lines are errors.
printf 'f() -> ()\n\nf(int x int y) -> ()\n' | "$TA" parse --json - > "$tmp/out" 2> "$tmp/err"
[ $? -eq 1 ] || fail "expected exit 1 on stdin with errors"
[ "$(wc -l < "$tmp/out")" -eq 3 ] || fail "expected 3 output lines"
[ "$(sed -n 2p "$tmp/out")" = '{"schema":"","error":{"line":2,"col":1,"message":"empty schema"}}' ] \
    || fail "empty line: $(sed -n 2p "$tmp/out")"
[ "$(sed -n 3p "$tmp/out")" = '{"schema":"f(int x int y) -> ()","error":{"line":3,"col":9,"message":"expected '"','"' or '"')'"' after an argument, found '"'int'"'"}}' ] \
    || fail "error object: $(sed -n 3p "$tmp/out")"
grep -q '^<stdin>:3:9: error:' "$tmp/err" || fail "stdin diagnostic: $(cat "$tmp/err")"

# 5. Every line of the malformed corpus fails, each with one diagnostic.
grep -v '^#' tests/data/malformed-schemas.txt | grep -v '^$' | cut -d' ' -f2- > "$tmp/bad"
n=$(wc -l < "$tmp/bad")
"$TA" parse - < "$tmp/bad" > "$tmp/out" 2> "$tmp/err"
[ $? -eq 1 ] || fail "malformed corpus: expected exit 1"
[ "$(grep -c 'error: .* \[schema-syntax\]$' "$tmp/err")" -eq "$n" ] || fail "malformed corpus: expected $n diagnostics"
[ "$(grep -c . "$tmp/out")" -eq 0 ] || fail "malformed corpus: some schema was accepted"

# 6. --help, usage errors.
"$TA" parse --help > "$tmp/out" || fail "--help exited $?"
grep -q '^usage: tensoralias parse' "$tmp/out" || fail "--help text"
grep -q 'example' "$tmp/out" || fail "--help has no examples"
"$TA" parse --bogus 'f() -> ()' > /dev/null 2>&1; [ $? -eq 2 ] || fail "unknown option: expected exit 2"
"$TA" parse > /dev/null 2>&1; [ $? -eq 2 ] || fail "no input: expected exit 2"
"$TA" parse - 'f() -> ()' < /dev/null > /dev/null 2>&1; [ $? -eq 2 ] || fail "both - and schemas: expected exit 2"
"$TA" parse -- 'f() -> ()' > "$tmp/out" || fail "-- then a schema"
# --json: every line carries "schema" and its keys, whatever bytes the input
# holds; bytes that are not UTF-8 are escaped as \xNN, not dropped.
printf 'a::b(Tensor x, str s="\377") -> Tensor\na::c(Tensor \377) -> Tensor\nab\000c\n' |
    "$TA" parse --json - > "$tmp/bytes.json" 2>/dev/null
[ $? -eq 1 ] || fail "two bad schemas: exit 1"
[ "$(wc -l < "$tmp/bytes.json")" -eq 3 ] || { cat "$tmp/bytes.json"; fail "one line per input"; }
[ "$(grep -c '"schema":' "$tmp/bytes.json")" -eq 3 ] || { cat "$tmp/bytes.json"; fail "schema on every line"; }
grep -q '"default":"\\"\\\\xff\\""' "$tmp/bytes.json" || { cat "$tmp/bytes.json"; fail "non-UTF-8 default escaped"; }
grep -q '"is_mutable":false' "$tmp/bytes.json" || fail "the SchemaInfo keys of the good schema"
grep -q '"schema":"a::c(Tensor \\\\xff) -> Tensor","error"' "$tmp/bytes.json" || { cat "$tmp/bytes.json"; fail "a bad schema keeps its text"; }
echo "parse.sh: ok"
