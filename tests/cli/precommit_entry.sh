#!/bin/sh
# The pre-commit hook of .pre-commit-hooks.yaml without pre-commit: its
# `files` pattern selects exactly the sources `check` reads (the extensions
# of `check --help`), and its entry, run as pre-commit runs it (the command
# followed by the file names), fails on the fixture library's error, passes
# on its clean files and on files that declare no operator.
. "$(dirname "$0")/lib.sh"
hooks=.pre-commit-hooks.yaml
entry=$(sed -n 's/^  entry: //p' "$hooks")
files=$(sed -n 's/^  files: //p' "$hooks")
[ -n "$entry" ] && [ -n "$files" ] || fail "$hooks has no entry or files"
case $entry in tensoralias\ check*) ;; *) fail "the entry is not 'tensoralias check': $entry" ;; esac
args=${entry#tensoralias check}

# the pattern and check's extensions agree
exts=$("$TA" check --help | sed -n 's/^SRC is a C++ (\(.*\)) or Python$/\1/p')
exts="$exts $("$TA" check --help | sed -n 's/^(\(\.py .pyi\)) file.*/\1/p')"
[ "$(echo "$exts" | wc -w)" -ge 12 ] || fail "could not read the extensions from check --help: $exts"
for e in $exts; do
    echo "dir/file$e" | grep -Eq "$files" || fail "the hook skips $e, which check reads"
done
for name in notes.md ops.yaml native_functions.yaml kernel.c build.txt file.pyc src.cpp.orig; do
    echo "dir/$name" | grep -Eq "$files" && fail "the hook selects $name, which check does not read"
done

# the entry, as pre-commit runs it, on the fixture
cp -R tests/data/precommit "$tmp/repo"
cd "$tmp/repo" || fail "no fixture"
# shellcheck disable=SC2086
"$TA" check $args csrc/bindings.cpp csrc/util.cpp python/mylib/ops.py 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] || { cat "$tmp/err"; fail "the entry exited $rc on the mistake, not 1"; }
grep -q 'csrc/bindings.cpp:4:.*\[custom-dest-not-written\]' "$tmp/err" || { cat "$tmp/err"; fail "the finding is not reported"; }
"$TA" check $args csrc/util.cpp python/mylib/ops.py 2> "$tmp/err" || { cat "$tmp/err"; fail "the entry fails clean files"; }
"$TA" check $args csrc/util.cpp 2> "$tmp/err" || { cat "$tmp/err"; fail "the entry fails a file without operators"; }
sed 's/Tensor output/Tensor! output/' csrc/bindings.cpp > "$tmp/fixed" && cp "$tmp/fixed" csrc/bindings.cpp
"$TA" check $args csrc/bindings.cpp 2> "$tmp/err" || { cat "$tmp/err"; fail "the entry fails the corrected file"; }
exit 0
