#!/bin/sh
# The C examples of the documentation compile against the built library as
# written and print what the page says they print: the first C block of
# docs/library.md (schema queries), and the one of README.md's section "A
# graph optimizer calling the C library" (a graph built, analysed, asked
# whether nodes may move).
. "$(dirname "$0")/lib.sh"

# example TAG PAGE: the first C block of the text on standard input, and the
# `It prints `...`` after it.
example() {
    cat >"$tmp/$1.md"
    awk '/^```c$/{code=1; next} code && /^```$/{exit} code{print}' "$tmp/$1.md" >"$tmp/$1.c"
    grep -q 'int main' "$tmp/$1.c" || fail "no C example in $2"
    expected=$(grep -o 'It prints `[^`]*`' "$tmp/$1.md" | head -n 1 | sed 's/^It prints `//; s/`$//')
    [ -n "$expected" ] || fail "$2 does not say what its example prints"
    # shellcheck disable=SC2046
    cc -std=c17 -Wall -Wextra -Werror -Iinclude -o "$tmp/$1" "$tmp/$1.c" "$BUILD/libtensoralias.a" \
        $(pkg-config --libs yaml-0.1 igraph jansson) -ldl -lm -lpthread ${SAN:-} 2>"$tmp/cc.log" ||
        { cat "$tmp/cc.log"; fail "the example of $2 does not compile"; }
    got=$("$tmp/$1") || fail "the example of $2 exited $?"
    [ "$got" = "$expected" ] || fail "the example of $2 printed '$got', the page says '$expected'"
    echo "$2: $got"
}

example library "docs/library.md" <docs/library.md
awk '/^## /{in_sec = /^## A graph optimizer calling the C library/} in_sec' README.md |
    example readme "README.md's graph example"
