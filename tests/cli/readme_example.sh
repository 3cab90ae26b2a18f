#!/bin/sh
# The C example in README.md's "The library" section compiles against the
# built library as written and prints what the README says it prints.
. "$(dirname "$0")/lib.sh"

awk '/^## The library/{in_sec=1} in_sec && /^```c$/{code=1; next} code && /^```$/{exit} code{print}' \
    README.md >"$tmp/example.c"
grep -q 'int main' "$tmp/example.c" || fail "no C example found in README.md's library section"
expected=$(sed -n '/^## The library/,/^## Architecture/p' README.md | grep -o 'It prints `[^`]*`' | head -n 1 | sed 's/^It prints `//; s/`$//')
[ -n "$expected" ] || fail "README.md does not say what the example prints"
# shellcheck disable=SC2046
cc -std=c17 -Wall -Wextra -Werror -Iinclude -o "$tmp/example" "$tmp/example.c" "$BUILD/libtensoralias.a" \
    $(pkg-config --libs yaml-0.1 igraph jansson) -ldl -lm -lpthread ${SAN:-} 2>"$tmp/cc.log" ||
    { cat "$tmp/cc.log"; fail "the README example does not compile"; }
got=$("$tmp/example") || fail "the README example exited $?"
[ "$got" = "$expected" ] || fail "README example printed '$got', README says '$expected'"
echo "README library example: $got"
