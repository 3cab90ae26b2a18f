#!/bin/sh
# Input discovery on tests/plugins/pickyaten.c, kernels refusing with ATen's
# own words what no blind guess gives: a complex dtype ("Only supports
# complex dtypes", "expects a complex output tensor", a quoted
# self.is_complex()), an out= dtype spelled as its C++ element type ("short
# int"), and two int arguments whose order random_ refuses with its own
# names and their values ("from=1 >= to=1"). None is exercised without
# discovery; with it each is, in few calls and from what it read (blind
# guesses try no complex dtype, no int16 and no int argument); the run is
# the same twice.
. "$(dirname "$0")/lib.sh"
PLUGIN=$BUILD/tests/plugins/libpickyaten.so
run() { out=$1; shift; verify_plugin "$out" "$PLUGIN" 'pickyaten::*' "$@"; } # out-file options...

run "$tmp/off.json" --no-discovery
[ "$(grep -c '"verdict":"not-exercised"' "$tmp/off.json")" -eq 4 ] ||
    { cat "$tmp/off.json" "$tmp/err"; fail "without discovery: all 4 not exercised"; }

run "$tmp/on.json"
for op in spectrum counts draw realpart; do
    found=$(op_field "pickyaten::$op" found "$tmp/on.json")
    calls=$(op_field "pickyaten::$op" calls "$tmp/on.json")
    [ "${found:-0}" -ge 4 ] && [ "${calls:-999}" -le 32 ] ||
        { grep "pickyaten::$op\"" "$tmp/on.json"; cat "$tmp/err"; fail "pickyaten::$op: its demand read (found $found, $calls calls)"; }
done

run "$tmp/again.json"
cmp -s "$tmp/on.json" "$tmp/again.json" || { diff "$tmp/on.json" "$tmp/again.json"; fail "another report the second time"; }
exit 0
