#!/bin/sh
# The C examples of the documentation compile against the built library as
# written and print what the page says they print: the first C block of
# docs/library.md (schema queries), the one of its section "Diffs from C"
# (two versions of a schema list compared), the one of "A verification from
# C" (a verify session over the reference kernels), and the one of README.md's
# section "A graph optimizer calling the C library" (a graph built,
# analysed, asked whether nodes may move).
. "$(dirname "$0")/lib.sh"

# example TAG PAGE [shared]: the first C block of the text on standard input,
# and the `It prints `...`` after it; linked with the static library, or with
# "shared" the shared one (whose place tells where the bundled files are, and
# which kernel libraries bind to).
example() {
    cat >"$tmp/$1.md"
    awk '/^```c$/{code=1; next} code && /^```$/{exit} code{print}' "$tmp/$1.md" >"$tmp/$1.c"
    grep -q 'int main' "$tmp/$1.c" || fail "no C example in $2"
    expected=$(grep -o 'It prints `[^`]*`' "$tmp/$1.md" | head -n 1 | sed 's/^It prints `//; s/`$//')
    [ -n "$expected" ] || fail "$2 does not say what its example prints"
    lib="$BUILD/libtensoralias.a $(pkg-config --libs yaml-0.1 igraph jansson) -ldl -lm -lpthread"
    [ "${3:-}" = shared ] && lib="-L$BUILD -ltensoralias -Wl,-rpath,$(cd "$BUILD" && pwd)"
    # shellcheck disable=SC2086
    cc -std=c17 -Wall -Wextra -Werror -Iinclude -o "$tmp/$1" "$tmp/$1.c" $lib ${SAN:-} 2>"$tmp/cc.log" ||
        { cat "$tmp/cc.log"; fail "the example of $2 does not compile"; }
    got=$("$tmp/$1") || fail "the example of $2 exited $?"
    [ "$got" = "$expected" ] || fail "the example of $2 printed '$got', the page says '$expected'"
    echo "$2: $got"
}

# (Each section goes through a file: `fail` inside a pipeline would end only
# the pipeline's subshell, not the test.)
section() { # PAGE HEADING
    awk -v h="$2" '/^## /{in_sec = ($0 == h)} in_sec' "$1"
}
example library "docs/library.md" <docs/library.md
section docs/library.md "## Diffs from C" >"$tmp/diff.sec"
example diff "docs/library.md's diff example" <"$tmp/diff.sec"
section docs/library.md "## A verification from C" >"$tmp/session.sec"
example session "docs/library.md's verify session example" shared <"$tmp/session.sec"
section README.md "## A graph optimizer calling the C library" >"$tmp/readme.sec"
example readme "README.md's graph example" <"$tmp/readme.sec"
