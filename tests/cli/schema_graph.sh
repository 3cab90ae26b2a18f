#!/bin/sh
# tensoralias schema-graph: dot renders with Graphviz (when installed), GraphML is
# well-formed XML, JSON has the vertices and edges a known schema implies,
# and bad usage exits 2.
. "$(dirname "$0")/lib.sh"

CHUNK='aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]'
MAXO='aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)'
SETI='aten::_set_item.str(Dict(str, t)(a!) l, str(b -> *) idx, t(c -> *) v) -> ()'

for s in "$CHUNK" "$MAXO" "$SETI"; do
    "$TA" schema-graph --schema "$s" > "$tmp/g.dot" || fail "schema-graph --schema '$s' exited $?"
    grep -q '^digraph' "$tmp/g.dot" || fail "no digraph for '$s'"
    "$TA" schema-graph --schema "$s" --format graphml > "$tmp/g.graphml" || fail "graphml exited $?"
    python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$tmp/g.graphml" \
        || fail "graphml not well-formed for '$s'"
    grep -q '<graphml' "$tmp/g.graphml" || fail "no <graphml> root"
done

if command -v dot >/dev/null 2>&1; then
    for s in "$CHUNK" "$MAXO" "$SETI"; do
        "$TA" schema-graph --schema "$s" | dot -Tsvg > "$tmp/g.svg" 2> "$tmp/dot.err" || { cat "$tmp/dot.err"; fail "dot rejected the graph of '$s'"; }
        [ -s "$tmp/dot.err" ] && { cat "$tmp/dot.err"; fail "dot warned on '$s'"; }
        grep -q '<svg' "$tmp/g.svg" || fail "no svg"
    done
else
    echo "note: Graphviz 'dot' not installed; skipped rendering the dot output"
fi

# chunk: 3 inputs + 1 output + the list's elements + set a + wildcard = 7
# vertices; self->a (before), self->* (after), out0->elements, elements->a = 4 edges
"$TA" schema-graph --schema "$CHUNK" --format json > "$tmp/g.json" || fail "json exited $?"
python3 - "$tmp/g.json" <<'PY' || fail "json content of chunk"
import json, sys
g = json.load(open(sys.argv[1]))
assert len(g["vertices"]) == 7, len(g["vertices"])
assert len(g["edges"]) == 4, len(g["edges"])
kinds = sorted(v["kind"] for v in g["vertices"])
assert kinds == ["contents", "input", "input", "input", "output", "set", "wildcard"], kinds
wild = [v["id"] for v in g["vertices"] if v["kind"] == "wildcard"][0]
assert any(e["from"] == 0 and e["to"] == wild and e["after"] and not e["before"] for e in g["edges"])
PY
# max.dim_max: 5 inputs + 2 outputs + sets a, b + wildcard = 10; 4 written memberships
"$TA" schema-graph --schema "$MAXO" --format=json > "$tmp/m.json" || fail "json exited $?"
python3 - "$tmp/m.json" <<'PY' || fail "json content of max.dim_max"
import json, sys
g = json.load(open(sys.argv[1]))
assert len(g["vertices"]) == 10, len(g["vertices"])
assert len(g["edges"]) == 4 and all(e["write"] for e in g["edges"]), g["edges"]
PY

# by operator name: from a yaml file, and from the bundled yaml
Y=$BUILD/data/corpus/pytorch-1.13.1/native_functions.yaml
"$TA" schema-graph "$Y" max.dim_max --format json > "$tmp/y.json" || fail "schema-graph FILE OPNAME exited $?"
python3 -c 'import json,sys; g=json.load(open(sys.argv[1])); assert len(g["vertices"]) == 10, len(g["vertices"])' "$tmp/y.json" \
    || fail "yaml max.dim_max vertex count"
"$TA" schema-graph aten::chunk --format json > "$tmp/b.json" || fail "schema-graph OPNAME (bundled) exited $?"
python3 -c 'import json,sys; g=json.load(open(sys.argv[1])); assert len(g["vertices"]) == 7' "$tmp/b.json" || fail "bundled chunk"
"$TA" schema-graph "$Y" no_such_operator > /dev/null 2>&1; [ $? -eq 2 ] || fail "unknown operator should exit 2"

"$TA" schema-graph --help > /dev/null || fail "--help"
"$TA" schema-graph > /dev/null 2>&1; [ $? -eq 2 ] || fail "no schema should exit 2"
"$TA" schema-graph --schema "$CHUNK" --format png > /dev/null 2>&1; [ $? -eq 2 ] || fail "bad format should exit 2"
# A schema that does not parse exits as it does in parse (1).
"$TA" schema-graph --schema 'aten::bad(Tensor(a' > /dev/null 2>&1; g=$?
"$TA" parse 'aten::bad(Tensor(a' > /dev/null 2>&1; p=$?
[ $g -eq 1 ] && [ $p -eq 1 ] || fail "a bad schema exits 1 in schema-graph ($g) and parse ($p)"
# An operator name without its overload: the overloads that exist are suggested.
"$TA" schema-graph add > /dev/null 2>"$tmp/add.err"; [ $? -eq 2 ] || fail "schema-graph add exits 2"
grep -q "no operator 'add' in .*; its overloads: add.Tensor, add.out, add.Scalar" "$tmp/add.err" ||
    { cat "$tmp/add.err"; fail "schema-graph add suggests the overloads"; }
# A file that is not yaml says so, without printing its bytes.
printf 'x\0\001\377y\n' > "$tmp/garbage.bin"
"$TA" schema-graph "$tmp/garbage.bin" abs > /dev/null 2>"$tmp/bin.err"; [ $? -eq 2 ] || fail "schema-graph garbage.bin exits 2"
grep -q "garbage.bin: error: a binary file, not yaml \[yaml-binary\]" "$tmp/bin.err" || { cat "$tmp/bin.err"; fail "binary"; }
[ "$(wc -l < "$tmp/bin.err")" -eq 2 ] || { cat "$tmp/bin.err"; fail "no bytes of the binary file printed"; }
# The command's old name, graph, is still accepted (not listed) and does the same.
"$TA" graph --schema "$CHUNK" --format json > "$tmp/old.json" || fail "graph (the old name) exited $?"
cmp -s "$tmp/old.json" "$tmp/g.json" || fail "graph (the old name) wrote another graph than schema-graph"
"$TA" graph add > /dev/null 2>"$tmp/old.err"; [ $? -eq 2 ] || fail "graph add exits 2"
cmp -s "$tmp/old.err" "$tmp/add.err" || fail "graph (the old name) reported otherwise than schema-graph"
"$TA" --help | grep -q '^  graph ' && fail "the old name graph is listed by --help"
"$TA" --help | grep -q '^  schema-graph ' || fail "schema-graph is not listed by --help"
echo ok
