#!/bin/sh
# tensoralias diff: exit statuses (0 nothing breaks, 1 something does, 2
# usage or I/O), diagnostics in NEW with a note at OLD, JSON records with the
# promised keys, SARIF, the allow-list and its expiry, the three kinds of
# input (yaml, schema list, sources; guessed or forced), standard input, and
# the bundled yaml as NEW when only OLD is given.
. "$(dirname "$0")/lib.sh"
cat > "$tmp/old.yaml" <<'EOF'
- func: rrelu_with_noise(Tensor self, Tensor noise, bool training=False) -> Tensor
  dispatch:
    CPU: rrelu_with_noise
- func: alias(Tensor(a) self) -> Tensor(a)
  dispatch:
    CPU: alias
- func: gone(Tensor self) -> Tensor
  dispatch:
    CPU: gone
EOF
cat > "$tmp/new.yaml" <<'EOF'
# the next version
- func: rrelu_with_noise(Tensor self, Tensor(b!) noise, bool training=False) -> Tensor
  dispatch:
    CPU: rrelu_with_noise
- func: alias(Tensor(a) self) -> Tensor(a)
  dispatch:
    CPU: alias
- func: fresh(Tensor self) -> Tensor
  dispatch:
    CPU: fresh
EOF

# text: the break in NEW (at noise), the note at OLD; exit 1
"$TA" diff --color=never "$tmp/old.yaml" "$tmp/new.yaml" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] || { cat "$tmp/err"; fail "diff exited $rc, want 1"; }
[ ! -s "$tmp/out" ] || fail "text goes to standard error"
grep -q "new.yaml:2:39: error: 'aten::rrelu_with_noise' is not backward compatible: argument 'noise' changed its alias annotation \[diff-not-backward-compatible\]" "$tmp/err" \
    || { cat "$tmp/err"; fail "no positioned break"; }
grep -q "new.yaml:2:39: warning: noise of 'aten::rrelu_with_noise': Tensor -> Tensor(b!) \[diff-write-added\]" "$tmp/err" \
    || { cat "$tmp/err"; fail "no write-added"; }
grep -q "old.yaml:1:9: note: 'aten::rrelu_with_noise' was this in the old version \[diff-old\]" "$tmp/err" \
    || { cat "$tmp/err"; fail "no note at OLD"; }
grep -q "old.yaml:7:9: error: 'aten::gone' was removed" "$tmp/err" || fail "removal"
grep -q "diff-added" "$tmp/err" && fail "notes shown without -v"
grep -q "2 overloads in both, 1 changed (1 not backward compatible, 1 not forward compatible, 1 with the alias contract changed), 1 added, 1 removed; 2 break backward compatibility" "$tmp/err" \
    || { cat "$tmp/err"; fail "summary"; }
"$TA" diff -v "$tmp/old.yaml" "$tmp/new.yaml" 2>&1 | grep -q "'aten::fresh' was added \[diff-added\]" || fail "-v shows additions"

# json: one record per overload added, removed or changed
"$TA" diff --format json "$tmp/old.yaml" "$tmp/new.yaml" > "$tmp/json"; rc=$?
[ $rc -eq 1 ] || fail "json exited $rc"
[ "$(wc -l < "$tmp/json")" -eq 3 ] || { cat "$tmp/json"; fail "3 records expected"; }
grep -q '^{"op":"aten::rrelu_with_noise","change":"changed","bc":false,"fc":false,"alias_changed":true,"breaks":true,"allowed":false,' "$tmp/json" \
    || { cat "$tmp/json"; fail "json record"; }
grep -q '"what":"write-added","slot":"noise","is_return":false,"old_index":1,"new_index":1,"detail":"Tensor -> Tensor(b!)"' "$tmp/json" \
    || fail "json change"
grep -q '"what":"kind-changed"' "$tmp/json" || fail "kind change"
grep -q '"op":"aten::gone","change":"removed"' "$tmp/json" || fail "json removed"
grep -q '"op":"aten::fresh","change":"added","bc":true' "$tmp/json" || fail "json added"
grep -q '"new_at":"[^"]*new.yaml:2"' "$tmp/json" || fail "json new_at"

# sarif
"$TA" diff --format sarif "$tmp/old.yaml" "$tmp/new.yaml" > "$tmp/sarif"; rc=$?
[ $rc -eq 1 ] || fail "sarif exited $rc"
grep -q '"ruleId": "diff-not-backward-compatible"' "$tmp/sarif" || fail "sarif result"
grep -q '"id": "diff-write-added"' "$tmp/sarif" || fail "sarif catalogue"

# the allow-list: both breaks excused, then one entry expired
printf '# excused\naten::rrelu_with_noise\\( 2026-12-31\naten::gone 2026-12-31\n' > "$tmp/allow"
"$TA" diff --allow "$tmp/allow" --today 2026-11-28 "$tmp/old.yaml" "$tmp/new.yaml" 2> "$tmp/err"; rc=$?
[ $rc -eq 0 ] || { cat "$tmp/err"; fail "allowed breaks exited $rc"; }
grep -q "(2 more allowed)" "$tmp/err" || { cat "$tmp/err"; fail "allowed count"; }
"$TA" diff -v --allow "$tmp/allow" --today 2027-01-01 "$tmp/old.yaml" "$tmp/new.yaml" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "expired entries exited $rc"
grep -q "allow:2:.*note: this entry expired on 2026-12-31 and is ignored \[diff-allow-expired\]" "$tmp/err" \
    || { cat "$tmp/err"; fail "expiry note"; }

# schema lists: guessed from the text, or forced
printf '# v1\nmylib::scale(Tensor x, float f) -> Tensor\n' > "$tmp/v1.txt"
printf 'mylib::scale(Tensor(a!) x, float f) -> Tensor(a!)\n' > "$tmp/v2.txt"
"$TA" diff --format json "$tmp/v1.txt" "$tmp/v2.txt" > "$tmp/json"; rc=$?
[ $rc -eq 1 ] || fail "lists exited $rc"
grep -q '"op":"mylib::scale"' "$tmp/json" || fail "list record"
"$TA" diff "$tmp/v1.txt" "$tmp/v1.txt" 2> /dev/null || fail "identical lists should exit 0"
"$TA" diff --format json "$tmp/v1.txt" "$tmp/v1.txt" > "$tmp/json" && [ ! -s "$tmp/json" ] || fail "no records when nothing changed"
"$TA" diff --as yaml "$tmp/v1.txt" "$tmp/v2.txt" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "a list read as yaml exited $rc, want 2"
"$TA" diff - "$tmp/v2.txt" < "$tmp/v1.txt" > /dev/null 2>&1; rc=$?
[ $rc -eq 1 ] || fail "stdin exited $rc"

# sources: custom operators extracted from C++
mkdir -p "$tmp/a" "$tmp/b"
echo 'TORCH_LIBRARY(mylib, m) { m.def("fill(Tensor x, float v) -> Tensor"); }' > "$tmp/a/ops.cpp"
echo 'TORCH_LIBRARY(mylib, m) { m.def("fill(Tensor(a!) x, float v) -> Tensor(a!)"); }' > "$tmp/b/ops.cpp"
"$TA" diff --no-git "$tmp/a" "$tmp/b" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] || { cat "$tmp/err"; fail "sources exited $rc"; }
grep -q "b/ops.cpp:1:.*diff-write-added" "$tmp/err" || { cat "$tmp/err"; fail "sources: not positioned in the C++"; }

# one input: compared with the bundled PyTorch main yaml
"$TA" diff "$BUILD/data/corpus/pytorch-1.13.1/native_functions.yaml" 2> "$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "1.13.1 against the bundled yaml exited $rc"
grep -q "noise of 'aten::rrelu_with_noise': Tensor -> Tensor(b!)" "$tmp/err" || fail "rrelu_with_noise's noise"
grep -q "native_functions.yaml: [0-9]* overloads in both" "$tmp/err" || fail "bundled summary"

# usage and I/O errors exit 2
for args in "" "--format xml a b" "a b c" "--today 2026-13-01 a" "--as nothing a" "- -" "$tmp/missing.txt $tmp/v1.txt"; do
    # shellcheck disable=SC2086
    "$TA" diff $args > /dev/null 2>&1; rc=$?
    [ $rc -eq 2 ] || fail "diff $args exited $rc, want 2"
done
"$TA" diff --help | grep -q "usage: tensoralias diff" || fail "help"
echo "ok"
