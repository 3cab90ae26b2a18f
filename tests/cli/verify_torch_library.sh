#!/bin/sh
# verify --torch-library: a TORCH_LIBRARY extension (tests/torchext/taext.cpp)
# loaded into libtorch, its operators found in the dispatcher and verified
# through the libtorch bridge: the correct ones clean, each wrong one with
# its verdict, the inferred schemas' writes caught.
. "$(dirname "$0")/lib.sh"
need_bridge
EXT=$TORCH_EXT

"$TA" verify $TORCH_ARGS --torch-library "$EXT" --cases 12 --timeout 5 --jobs 2 --format json \
    >"$tmp/r.json" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || { cat "$tmp/err"; fail "exit status $rc, expected 1"; }

expect() { # op verdict
    grep -q "^{\"op\":\"$1\",\"verdict\":\"$2\"" "$tmp/r.json" ||
        { grep "\"$1\"" "$tmp/r.json"; fail "$1: expected verdict $2"; }
}
expect 'taext::scale' ok
expect 'taext::scale_' ok
expect 'taext::scale.out' ok
expect 'taext::lead' ok
expect 'taext::fill_all_' ok
expect 'taext::pair' ok
expect 'taext::inferred_clean' ok
expect 'taext::writes_input' undeclared-mutation
expect 'taext::returns_alias' undeclared-alias
expect 'taext::view_copy' view-returned-copy
expect 'taext::out_unwritten.out' out-not-written
expect 'taext::out_new.out' out-not-returned
expect 'taext::inplace_new_' inplace-not-self
expect 'taext::same_twice' undeclared-output-alias
expect 'taext::restrides' undeclared-metadata-mutation
expect 'taext::past_end' out-of-bounds
expect 'taext::crashes' crash
expect 'taext::rejects' not-exercised
expect 'taext::inferred_writes' undeclared-mutation
expect 'taext::inferred_into' undeclared-mutation
grep '"taext::rejects"' "$tmp/r.json" | grep -q 'taext::rejects takes nothing' || fail "rejects: ATen's message"
grep '"taext::inferred_into"' "$tmp/r.json" | grep -q '"argument":"_0"' || fail "inferred_into: the written _0"
# Operators with a kernel are verified by default; a schema-only one when asked.
grep -q '"taext::schema_only"' "$tmp/r.json" && fail "schema_only verified without --ops"
"$TA" verify $TORCH_ARGS --torch-library "$EXT" --ops 'taext::schema_only' --format json >"$tmp/s.json" 2>&1
grep -q '"verdict":"no-kernel"' "$tmp/s.json" || { cat "$tmp/s.json"; fail "schema_only: no-kernel"; }

# --schemas-from: verified against the schemas the sources declare, each
# difference from what the library registered a schema-mismatch; the
# extension's own source agrees with what it registered.
cat >"$tmp/decl.cpp" <<'CPP'
TORCH_LIBRARY(taext, m) {
    m.def("writes_input(Tensor(a!) x) -> Tensor");
    m.def("scale(Tensor x, float f) -> Tensor");
}
CPP
"$TA" verify $TORCH_ARGS --torch-library "$EXT" --schemas-from "$tmp/decl.cpp" --ops 'taext::writes_input' \
    --ops 'taext::scale' --cases 5 --format json >"$tmp/d.json" 2>"$tmp/err"
grep '"taext::writes_input"' "$tmp/d.json" | grep -q '"verdict":"schema-mismatch"' ||
    { cat "$tmp/d.json" "$tmp/err"; fail "--schemas-from: schema-mismatch"; }
grep '"taext::writes_input"' "$tmp/d.json" | grep -q 'undeclared-mutation' &&
    fail "--schemas-from: verified against the source's schema, which declares the write"
grep -q '^{"op":"taext::scale","verdict":"ok"' "$tmp/d.json" || fail "--schemas-from: scale ok"
"$TA" verify $TORCH_ARGS --torch-library "$EXT" --schemas-from tests/torchext/taext.cpp --cases 5 --format json \
    >"$tmp/same.json" 2>"$tmp/err"
grep -q 'schema-mismatch' "$tmp/same.json" && { grep schema-mismatch "$tmp/same.json"; fail "own source: no mismatch"; }
grep -q '^{"op":"taext::writes_input","verdict":"undeclared-mutation"' "$tmp/same.json" ||
    fail "own source: writes_input"

# check on the sources and verify on the built library name an operator
# alike: a source that forgets scale_'s '!' is flagged by check as
# taext::scale_, and verify against that source reports taext::scale_.
cat >"$tmp/forgot.cpp" <<'CPP'
TORCH_LIBRARY(taext, m) {
    m.def("scale_(Tensor x, float f) -> Tensor");
}
CPP
"$TA" check --format json "$tmp/forgot.cpp" >"$tmp/c.json" 2>"$tmp/err"
checked=$(sed -n 's/.*"operator":"\([^"]*\)".*/\1/p' "$tmp/c.json" | sort -u)
[ "$checked" = "taext::scale_" ] || { cat "$tmp/c.json" "$tmp/err"; fail "check names the operator taext::scale_"; }
"$TA" check --format sarif "$tmp/forgot.cpp" 2>/dev/null |
    grep -q '"fullyQualifiedName": *"taext::scale_"' || fail "SARIF names the operator as a logical location"
"$TA" verify $TORCH_ARGS --torch-library "$EXT" --schemas-from "$tmp/forgot.cpp" --ops "$checked" --cases 5 \
    --format json >"$tmp/v.json" 2>"$tmp/err"
grep -q "^{\"op\":\"$checked\",\"verdict\":\"[a-z-]*\"" "$tmp/v.json" ||
    { cat "$tmp/v.json" "$tmp/err"; fail "verify reports check's operator under the same name"; }
grep -q '"verdict":"ok"' "$tmp/v.json" && fail "verify against the forgetful source finds the write"

# A library that is not one, and one without operators, are usage errors.
"$TA" verify $TORCH_ARGS --torch-library "$tmp/none.so" >"$tmp/o" 2>&1
[ $? -eq 2 ] || fail "a missing library: exit 2"
grep -q 'cannot load' "$tmp/o" || { cat "$tmp/o"; fail "a missing library: the reason"; }

# torchvision's _C (a real TORCH_LIBRARY extension), when installed: every
# operator exercised by the bundled samples and clean (without discovery:
# what it finds on inputs no sample has is tests/cli/verify_discovery_torch.sh's).
TV=$(ls /usr/lib/python3/dist-packages/torchvision/_C*.so 2>/dev/null | head -n 1)
[ -z "${TA_TORCH:-}" ] || TV="" # built for Debian's torch
if [ -n "$TV" ]; then
    "$TA" verify $TORCH_ARGS --torch-library "$TV" --samples tests/data/torchvision/samples.json --trap-writes --no-discovery \
        --format json >"$tmp/tv.json" 2>"$tmp/err" || { cat "$tmp/tv.json" "$tmp/err"; fail "torchvision"; }
    [ "$(grep -c '"verdict":"ok"' "$tmp/tv.json")" -eq 12 ] || { cat "$tmp/tv.json"; fail "torchvision: 12 ok"; }
    grep -q '"exercised":0,' "$tmp/tv.json" && fail "torchvision: an operator not exercised"
else
    echo "torchvision is not installed (python3-torchvision): its _C not verified"
fi
exit 0
