#!/bin/sh
# The C example in docs/library.md (its first C block) compiles against the
# built library as written and prints what the page says it prints.
. "$(dirname "$0")/lib.sh"

page=docs/library.md
awk '/^```c$/{code=1; next} code && /^```$/{exit} code{print}' "$page" >"$tmp/example.c"
grep -q 'int main' "$tmp/example.c" || fail "no C example found in $page"
expected=$(grep -o 'It prints `[^`]*`' "$page" | head -n 1 | sed 's/^It prints `//; s/`$//')
[ -n "$expected" ] || fail "$page does not say what the example prints"
# shellcheck disable=SC2046
cc -std=c17 -Wall -Wextra -Werror -Iinclude -o "$tmp/example" "$tmp/example.c" "$BUILD/libtensoralias.a" \
    $(pkg-config --libs yaml-0.1 igraph jansson) -ldl -lm -lpthread ${SAN:-} 2>"$tmp/cc.log" ||
    { cat "$tmp/cc.log"; fail "the example of $page does not compile"; }
got=$("$tmp/example") || fail "the example of $page exited $?"
[ "$got" = "$expected" ] || fail "the example of $page printed '$got', the page says '$expected'"
echo "docs/library.md example: $got"
