#!/bin/sh
# tensoralias extract and check on C++/Python sources: the text output is
# what `tensoralias parse -` reads back, the JSON output has the promised
# keys, check's exit statuses follow the yaml check (0 clean, 1 errors, 2
# unreadable), --schemas reads a plain list, SARIF places findings in the
# source files, -D names a macro namespace, and a directory walk skips what
# git ignores (when git is here) or hidden and build directories (--no-git,
# or outside a work tree).
. "$(dirname "$0")/lib.sh"
src=$tmp/lib
mkdir -p "$src/csrc" "$src/python/mylib" "$src/build" "$src/.hidden" "$src/ignored"
cat > "$src/csrc/bindings.cpp" <<'EOF'
#include <torch/library.h>
// m.def("in_a_comment(Tensor x) -> Tensor");
TORCH_LIBRARY(mylib, m) {
  m.def("scale(Tensor(a!) x, float f) -> ()");
  m.def("add(Tensor x, "
        "Tensor y) -> Tensor");
}
TORCH_LIBRARY_IMPL(mylib, CPU, m) { m.impl("scale", &scale_cpu); }
EOF
cat > "$src/python/mylib/ops.py" <<'EOF'
import torch
lib = torch.library.Library("mylib", "FRAGMENT")
lib.define("fill_(Tensor self, float v) -> ()")
torch.library.define("mylib::gather", "(Tensor src, Tensor idx) -> Tensor")
EOF
echo 'TORCH_LIBRARY(junk, m) { m.def("nope(Tensor out) -> ()"); }' > "$src/build/gen.cpp"
cp "$src/build/gen.cpp" "$src/.hidden/gen.cpp"
cp "$src/build/gen.cpp" "$src/ignored/gen.cpp"

# extract: text, one schema per line, read back by parse
"$TA" extract --no-git "$src/csrc" "$src/python" > "$tmp/out" 2> "$tmp/err" || fail "extract exited $?"
[ "$(wc -l < "$tmp/out")" -eq 4 ] || { cat "$tmp/out"; fail "4 schemas expected"; }
grep -qx 'mylib::add(Tensor x, Tensor y) -> Tensor' "$tmp/out" || fail "adjacent literals not joined"
grep -qx 'mylib::gather(Tensor src, Tensor idx) -> Tensor' "$tmp/out" || fail "define pair not joined"
"$TA" parse - < "$tmp/out" > "$tmp/parsed" || fail "parse - rejects extract's output"
cmp -s "$tmp/out" "$tmp/parsed" || fail "parse - does not print extract's output back"

# extract: JSON
"$TA" extract --format json --no-git "$src/csrc/bindings.cpp" > "$tmp/json" || fail "extract json"
grep -q '"schema":"mylib::scale(Tensor(a!) x, float f) -> ()","name":"mylib::scale","namespace":"mylib","file":"[^"]*bindings.cpp","line":4,"col":10,"how":"def","inferred":false,"has_kernel":true' "$tmp/json" \
    || { cat "$tmp/json"; fail "json row"; }

# check on sources: the inplace-named fill_ without '!' is an error, in the .py
"$TA" check --no-git "$src/csrc" "$src/python" > "$tmp/out" 2>&1; rc=$?
[ $rc -eq 1 ] || { cat "$tmp/out"; fail "check exited $rc, want 1"; }
grep -q 'ops.py:3:13: error: .*\[custom-mutating-name\]' "$tmp/out" || { cat "$tmp/out"; fail "no positioned finding"; }
grep -q '^1 error, 0 warnings in 4 operators from 2 files$' "$tmp/out" || { cat "$tmp/out"; fail "summary"; }
"$TA" check --no-git "$src/csrc" > /dev/null 2>&1 || fail "clean sources should exit 0"
"$TA" check "$tmp/does-not-exist.cpp" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "unreadable source exited $rc, want 2"

# SARIF: the finding in the source file, relative to the repository root
(cd "$src" && "$TA" check --no-git --format sarif python) > "$tmp/sarif"; rc=$?
[ $rc -eq 1 ] || fail "sarif check exited $rc"
grep -q '"uri": "python/mylib/ops.py"' "$tmp/sarif" || fail "sarif uri"
grep -q '"uriBaseId": "%SRCROOT%"' "$tmp/sarif" || fail "sarif base"
grep -q '"startLine": 3' "$tmp/sarif" || fail "sarif line"
grep -q '"id": "custom-dest-not-written"' "$tmp/sarif" || fail "catalogue lacks the custom rules"

# --schemas: one per line, positioned at its line
printf '# a comment\n\nmylib::copy(Tensor src, Tensor dst) -> ()\n' > "$tmp/list.txt"
"$TA" check --schemas "$tmp/list.txt" > "$tmp/out" 2>&1; rc=$?
[ $rc -eq 1 ] || fail "--schemas exited $rc"
grep -q 'list.txt:3:25: error: .*\[custom-dest-not-written\]' "$tmp/out" || { cat "$tmp/out"; fail "--schemas position"; }
"$TA" extract --no-git "$src/csrc" | "$TA" check --schemas - > /dev/null || fail "extract | check --schemas -"

# -D names the namespace a macro stands for
echo 'TORCH_LIBRARY(TORCH_EXTENSION_NAME, m) { m.def("f(Tensor x) -> Tensor"); }' > "$tmp/ext.cpp"
"$TA" extract "$tmp/ext.cpp" 2> "$tmp/err" | grep -qx 'f(Tensor x) -> Tensor' || fail "unresolved namespace"
grep -q 'extract-unresolved' "$tmp/err" || fail "no note for the macro namespace"
"$TA" extract -D TORCH_EXTENSION_NAME=_C "$tmp/ext.cpp" | grep -qx '_C::f(Tensor x) -> Tensor' || fail "-D"

# walking: --no-git skips hidden and build directories but not ignored/
n=$("$TA" extract --no-git "$src" | wc -l)
[ "$n" -eq 5 ] || fail "--no-git walk found $n schemas, want 5"
if command -v git > /dev/null 2>&1; then
    # git decides alone: what .gitignore lists is skipped, .hidden/ is not
    (cd "$src" && git init -q . && printf 'ignored/\nbuild/\n' > .gitignore) || fail "git init"
    n=$("$TA" extract "$src" | wc -l)
    [ "$n" -eq 5 ] || fail "git walk found $n schemas, want 5 (ignored/ and build/ skipped)"
fi

"$TA" extract > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "extract without sources exited $rc"
"$TA" extract --format yaml "$src" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "bad format exited $rc"
"$TA" extract --help | grep -q 'Exit status' || fail "--help"
echo ok
