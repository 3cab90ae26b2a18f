#!/bin/sh
# The C example in README.md's "A graph optimizer calling the C library"
# section (a graph built with the API, analysed, asked whether nodes may
# move) compiles against the built library as written and prints what the
# README says it prints.
. "$(dirname "$0")/lib.sh"

section() { awk '/^## /{in_sec = /^## A graph optimizer calling the C library/} in_sec' README.md; }
section | awk '/^```c$/{code=1; next} code && /^```$/{exit} code{print}' >"$tmp/example.c"
grep -q 'int main' "$tmp/example.c" || fail "no C example in README.md's 'A graph optimizer calling the C library' section"
expected=$(section | grep -o 'It prints `[^`]*`' | head -n 1 | sed 's/^It prints `//; s/`$//')
[ -n "$expected" ] || fail "README.md does not say what the graph example prints"
# shellcheck disable=SC2046
cc -std=c17 -Wall -Wextra -Werror -Iinclude -o "$tmp/example" "$tmp/example.c" "$BUILD/libtensoralias.a" \
    $(pkg-config --libs yaml-0.1 igraph jansson) -ldl -lm -lpthread ${SAN:-} 2>"$tmp/cc.log" ||
    { cat "$tmp/cc.log"; fail "the README graph example does not compile"; }
got=$("$tmp/example") || fail "the README graph example exited $?"
[ "$got" = "$expected" ] || fail "README graph example printed '$got', README says '$expected'"
echo "README graph example: $got"
