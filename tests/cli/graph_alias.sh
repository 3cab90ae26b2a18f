#!/bin/sh
# tensoralias graph-alias: --help states the exit statuses; the text, JSON
# and dot dumps say what a small graph's values alias and who writes them;
# --queries answers the ground truth's own lines exactly (same bytes);
# malformed graphs, queries and class files exit 2 with a positioned
# diagnostic; an operator without a schema is a note, not a failure;
# --schemas and --classes are honoured; classes not declared are assumed to
# hold anything, with a note.
. "$(dirname "$0")/lib.sh"

"$TA" graph-alias --help > "$tmp/help" || fail "--help exited $?"
grep -q 'Exit status: 0' "$tmp/help" || fail "--help does not state the exit statuses"
grep -q '2 usage or I/O' "$tmp/help" || fail "--help does not say what 2 means"
"$TA" --help | grep -q 'graph-alias' || fail "graph-alias is not listed by tensoralias --help"

cat > "$tmp/g.ir" <<'EOF'
graph(%x : Tensor):
  %one : int = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %a : Tensor = aten::add(%x, %x, %one)
  %t : Tensor = aten::transpose(%a, %zero, %one)
  %w : Tensor = aten::relu_(%t)
  %l : Tensor[] = prim::ListConstruct(%a)
  return (%w, %l)
EOF

"$TA" graph-alias "$tmp/g.ir" > "$tmp/out.txt" 2> "$tmp/err" || fail "text dump exited $?"
[ -s "$tmp/err" ] && { cat "$tmp/err"; fail "unexpected stderr"; }
grep -q '^%t : Tensor points-to {%a} contains {%a, %t} written-by aten::relu_@6$' "$tmp/out.txt" ||
    { cat "$tmp/out.txt"; fail "the text dump of %t is not as expected"; }
grep -q '^%one : int immutable$' "$tmp/out.txt" || fail "ints are immutable"
grep -q '^%x : Tensor points-to {\*Tensor, %x} .* wildcard$' "$tmp/out.txt" || fail "a graph input is a wildcard"
[ "$(wc -l < "$tmp/out.txt")" -eq 7 ] || fail "one line per value expected"

"$TA" graph-alias "$tmp/g.ir" --format json > "$tmp/out.json" || fail "json dump exited $?"
python3 - "$tmp/out.json" <<'EOF' || fail "the JSON dump is wrong"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
t = next(r for r in rows if r["value"] == "%t")
assert t["type"] == "Tensor" and t["points_to"] == ["%a"] and not t["wildcard"], t
assert t["writers"] == [{"kind": "aten::relu_", "line": 6}], t
assert len(rows) == 7
EOF

"$TA" graph-alias "$tmp/g.ir" --format dot > "$tmp/g.dot" || fail "dot dump exited $?"
grep -q '^digraph aliasing' "$tmp/g.dot" || fail "no digraph"
grep -q 'color=red' "$tmp/g.dot" || fail "writes are not drawn in red"
if command -v dot >/dev/null 2>&1; then
    dot -Tsvg "$tmp/g.dot" > "$tmp/g.svg" 2> "$tmp/dot.err" || { cat "$tmp/dot.err"; fail "dot rejected it"; }
fi

"$TA" graph-alias "$tmp/g.ir" --format graphml > "$tmp/g.graphml" || fail "graphml exited $?"
python3 -c 'import sys, xml.dom.minidom; d = xml.dom.minidom.parse(sys.argv[1]); assert len(d.getElementsByTagName("node")) == 6' \
    "$tmp/g.graphml" || fail "the GraphML is not a document with a vertex per location"

# the ground truth's lines come back as they are, answers included
G="$BUILD/data/golden/aliasdb-1.13.1"
"$TA" graph-alias "$G/synth_1_40.ir" --queries "$G/synth_1_40.truth.jsonl" > "$tmp/answers" ||
    fail "--queries exited $?"
cmp -s "$tmp/answers" "$G/synth_1_40.truth.jsonl" || fail "the answers differ from torch's"
T="$G/tensoralias/model_efficientnet_b0"
"$TA" graph-alias "$T.ir" --classes "$T.classes" --queries "$T.truth.jsonl" > "$tmp/answers" ||
    fail "--classes exited $?"
cmp -s "$tmp/answers" "$T.truth.jsonl" || fail "the answers with --classes differ from torch's"

# without --classes a module may hold anything: never "no" where torch says
# "yes" (sound_convnext_tiny asks where a Conv2d object was once said not to
# hold an int[] of another module), one note saying so with --notes
T="$G/tensoralias/sound_convnext_tiny"
"$TA" graph-alias "$T.ir" --queries "$T.truth.jsonl" --notes > "$tmp/answers" 2> "$tmp/err" ||
    fail "undeclared classes exited $?"
[ "$(grep -c 'ir-class-undeclared' "$tmp/err")" -eq 1 ] || { cat "$tmp/err"; fail "one note on the undeclared classes expected"; }
grep -q 'note: 49 class or unknown types are not declared whole' "$tmp/err" || { cat "$tmp/err"; fail "the note does not count them"; }
python3 - "$T.truth.jsonl" "$tmp/answers" <<'EOF' || fail "an answer says no where torch says yes"
import json, sys
want = [json.loads(l)["answer"] for l in open(sys.argv[1])]
got = [json.loads(l)["answer"] for l in open(sys.argv[2])]
assert len(want) == len(got) and not any(w and not g for w, g in zip(want, got))
assert sum(g and not w for w, g in zip(want, got)) > 0  # the note is not idle
EOF
"$TA" graph-alias "$T.ir" --classes "$T.classes" --queries "$T.truth.jsonl" --notes > "$tmp/answers" 2> "$tmp/err" ||
    fail "declared classes exited $?"
[ -s "$tmp/err" ] && { cat "$tmp/err"; fail "no note expected with the classes declared"; }
cmp -s "$tmp/answers" "$T.truth.jsonl" || fail "with the classes declared the answers differ from torch's"

# queries: each answered on its line; a bad one is an error at its position
cat > "$tmp/q.jsonl" <<'EOF'
{"q": "may_alias", "a": "%t", "b": "%a"}
{"q": "may_alias", "a": "%t", "b": ["%x", "%one"]}
{"q": "has_writers", "a": "%a"}
{"q": "move_after", "n": 3, "m": 4}
{"q": "schema", "n": 2}
{"q": "may_alias", "a": "%nope", "b": "%a"}
{"q": "may_alias", "a": "%t",
EOF
"$TA" graph-alias "$tmp/g.ir" --queries "$tmp/q.jsonl" > "$tmp/answers" 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "bad queries should exit 2, not $rc"
cat > "$tmp/want" <<'EOF'
{"q": "may_alias", "a": "%t", "b": "%a", "answer": true}
{"q": "may_alias", "a": "%t", "b": ["%x", "%one"], "answer": false}
{"q": "has_writers", "a": "%a", "answer": true}
{"q": "move_after", "n": 3, "m": 4, "answer": false}
{"q": "schema", "n": 2, "answer": "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"}
EOF
diff "$tmp/want" "$tmp/answers" || fail "query answers differ"
grep -q "q.jsonl:6:1: error: no value '%nope' in the graph \[query\]" "$tmp/err" || { cat "$tmp/err"; fail "unknown value not reported"; }
grep -q "q.jsonl:7:[0-9]*: error: .*\[query\]" "$tmp/err" || { cat "$tmp/err"; fail "bad JSON not reported"; }

# a malformed graph: exit 2, positioned
printf 'graph(%%x : Tensor):\n  %%y : Tensor = aten::relu(%%z)\n  return (%%y)\n' > "$tmp/bad.ir"
"$TA" graph-alias "$tmp/bad.ir" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "a malformed graph should exit 2"
grep -q 'bad.ir:2:28: error: value .%z. is used before it is defined \[ir-undefined\]' "$tmp/err" ||
    { cat "$tmp/err"; fail "no positioned diagnostic"; }

# an unknown operator: analysed conservatively, exit 0; a note with --notes only
printf 'graph(%%x : Tensor):\n  %%y : Tensor = mylib::op(%%x)\n  return (%%y)\n' > "$tmp/unknown.ir"
"$TA" graph-alias "$tmp/unknown.ir" > "$tmp/out.txt" 2> "$tmp/err" || fail "an unknown operator should not fail"
[ ! -s "$tmp/err" ] || { cat "$tmp/err"; fail "quiet without --notes"; }
"$TA" graph-alias --notes "$tmp/unknown.ir" > "$tmp/out.txt" 2> "$tmp/err" || fail "an unknown operator should not fail"
grep -q 'unknown.ir:2:3: note: no schema for mylib::op; analysed conservatively \[ir-no-schema\]' "$tmp/err" ||
    { cat "$tmp/err"; fail "no note for the unknown operator"; }
grep -q '^%y : Tensor .* wildcard' "$tmp/out.txt" || fail "its output should be a wildcard"

# --schemas: the same graph with the operator's schema
printf 'mylib::op(Tensor(a) x) -> Tensor(a)\n' > "$tmp/ops.txt"
"$TA" graph-alias "$tmp/unknown.ir" --schemas "$tmp/ops.txt" > "$tmp/out.txt" 2> "$tmp/err" || fail "--schemas exited $?"
[ -s "$tmp/err" ] && { cat "$tmp/err"; fail "no note expected with the schema given"; }
grep -q '^%y : Tensor points-to {\*Tensor, %x}' "$tmp/out.txt" || { cat "$tmp/out.txt"; fail "%y should alias %x"; }
printf 'mylib::op(Tensor(a x) -> Tensor(a)\n' > "$tmp/badops.txt"
"$TA" graph-alias "$tmp/unknown.ir" --schemas "$tmp/badops.txt" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "a malformed schema file should exit 2"
grep -q 'badops.txt:1:[0-9]*: error:' "$tmp/err" || { cat "$tmp/err"; fail "no positioned schema error"; }

# a malformed class file
printf '__torch__.M(Tensor,\n' > "$tmp/bad.classes"
"$TA" graph-alias "$tmp/g.ir" --classes "$tmp/bad.classes" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "a malformed class file should exit 2"
grep -q 'bad.classes:1:[0-9]*: error: .*\[ir-syntax\]' "$tmp/err" || { cat "$tmp/err"; fail "no positioned class error"; }

# usage and I/O
"$TA" graph-alias > /dev/null 2>&1
[ $? -eq 2 ] || fail "no file should exit 2"
"$TA" graph-alias "$tmp/none.ir" > /dev/null 2>&1
[ $? -eq 2 ] || fail "a missing file should exit 2"
"$TA" graph-alias "$tmp/g.ir" --format svg > /dev/null 2>&1
[ $? -eq 2 ] || fail "an unknown format should exit 2"

# A graph file truncated by another process while it is mapped: a message
# naming it and exit 2, not SIGBUS. The truncation is made deterministic by a
# driver that maps the file with the command's own ta_cli_map_file, truncates
# it, then reads its last byte.
cat > "$tmp/trunc.c" <<'EOF'
#include <unistd.h>
#include "cli.h"
int main(int argc, char **argv)
{
    const char *text;
    size_t len, mapped;
    if (argc != 2 || ta_cli_map_file(argv[1], &text, &len, &mapped) || !mapped) return 3;
    if (truncate(argv[1], 0)) return 4;
    return text[len - 1] == '\n' ? 5 : 6; /* not reached: the page is gone */
}
EOF
head -c 20000 /dev/zero | tr '\0' '\n' > "$tmp/big.ir"
${CC:-cc} ${SAN:-} -Iinclude -Isrc -Itools/tensoralias -o "$tmp/trunc" "$tmp/trunc.c" \
    "$BUILD/obj/tools/tensoralias/cli.o" "$BUILD/libtensoralias.a" \
    $(pkg-config --libs yaml-0.1 igraph jansson) -ldl -lm -lpthread 2> "$tmp/cc.err" ||
    { cat "$tmp/cc.err"; fail "the truncation driver does not build"; }
"$tmp/trunc" "$tmp/big.ir" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] || { cat "$tmp/err"; fail "a file truncated while mapped should exit 2, not $rc"; }
grep -q "big.ir changed while it was read" "$tmp/err" || { cat "$tmp/err"; fail "no message for a truncated file"; }
echo "graph-alias: dumps, queries, errors and options as documented"
