#!/bin/sh
# tensoralias functionalize: --help states the exit statuses; a small graph
# comes back without mutation but its copy-back (exit 0), the summary goes
# to stderr, --no-copy-back returns the new value instead, --format json is
# the report, a write that must stay is a note with its reason (exit 1), the
# rewrite reads back (graph-alias accepts it), and malformed input exits 2
# with a positioned diagnostic.
. "$(dirname "$0")/lib.sh"

"$TA" functionalize --help > "$tmp/help" || fail "--help exited $?"
grep -q 'Exit status: 0' "$tmp/help" || fail "--help does not state the exit statuses"
"$TA" --help | grep -q 'functionalize' || fail "functionalize is not listed by tensoralias --help"

cat > "$tmp/g.ir" <<'IR'
graph(%x : Tensor,
      %c : bool):
  %one : int = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %t : Tensor = aten::transpose(%x, %zero, %one)
  %r : Tensor = prim::If(%c)
    block0():
      %s : Tensor = aten::select(%t, %zero, %one)
      %w : Tensor = aten::relu_(%s)
      -> (%w)
    block1():
      %a : Tensor = aten::add_(%x, %x, %one)
      -> (%a)
  %y : Tensor = aten::mul(%t, %x)
  return (%y)
IR

"$TA" functionalize "$tmp/g.ir" > "$tmp/out.ir" 2> "$tmp/err" || { cat "$tmp/err"; fail "exited $?"; }
grep -q '2 mutating nodes before, 1 after (1 copy-backs, 0 kept)' "$tmp/err" || { cat "$tmp/err"; fail "summary"; }
grep -q 'aten::select_scatter' "$tmp/out.ir" || fail "no scatter for the write through the views"
[ "$(grep -c 'aten::copy_(%x' "$tmp/out.ir")" -eq 1 ] || fail "not exactly one copy-back of %x"
grep -q 'relu_\|add_' "$tmp/out.ir" && fail "an in-place operator is left"
"$TA" graph-alias "$tmp/out.ir" > /dev/null || fail "the rewrite does not read back"

"$TA" functionalize --no-copy-back "$tmp/g.ir" > "$tmp/nc.ir" 2> "$tmp/err" || fail "--no-copy-back exited $?"
grep -q 'copy_' "$tmp/nc.ir" && fail "--no-copy-back still copies back"
grep -q '^  return (%y, %' "$tmp/nc.ir" || fail "--no-copy-back does not return the new value"

"$TA" functionalize --format json "$tmp/g.ir" > "$tmp/r.json" 2>/dev/null || fail "--format json exited $?"
python3 - "$tmp/r.json" <<'PY' || fail "the JSON report is wrong"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["mutating_before"] == 2 and r["mutating_after"] == 1 and r["copy_backs"] == 1, r
assert r["rewritten"] == 2 and r["kept"] == [], r
PY

cat > "$tmp/s.txt" <<'S'
mylib::scale_(Tensor(a!) self, float f) -> Tensor(a!)
S
cat > "$tmp/k.ir" <<'IR'
graph(%x : Tensor):
  %f : float = prim::Constant[value=2.]()
  %a : Tensor = mylib::scale_(%x, %f)
  return (%a)
IR
"$TA" functionalize "$tmp/k.ir" --schemas "$tmp/s.txt" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] || fail "a kept write should exit 1"
grep -q 'k.ir:3: note: mylib::scale_ (%a) stays: no functional counterpart' "$tmp/err" || { cat "$tmp/err"; fail "no note"; }

printf 'graph(%%x : Tensor):\n  %%y : Tensor = aten::relu_(%%z)\n  return (%%y)\n' > "$tmp/bad.ir"
"$TA" functionalize "$tmp/bad.ir" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "a malformed graph should exit 2"
grep -q 'bad.ir:2:.*ir-undefined' "$tmp/err" || { cat "$tmp/err"; fail "no positioned diagnostic"; }
# a node that uses its own output is refused by the reader (it once looped the pass)
printf 'graph(%%x : Tensor):\n  %%zero : int = prim::Constant[value=0]()\n  %%y : Tensor = aten::transpose(%%y, %%zero, %%zero)\n  return (%%y)\n' > "$tmp/self.ir"
"$TA" functionalize "$tmp/self.ir" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "a node using its own output should exit 2"
grep -q "self.ir:3:.*'%y' is used before it is defined" "$tmp/err" || { cat "$tmp/err"; fail "no positioned diagnostic for the self-use"; }
"$TA" functionalize > /dev/null 2>&1
[ $? -eq 2 ] || fail "no graph should exit 2"
exit 0
