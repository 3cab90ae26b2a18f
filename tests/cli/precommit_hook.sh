#!/bin/sh
# The pre-commit hook through pre-commit itself, offline, as a user runs
# it: a .pre-commit-config.yaml naming a hooks repository (a git repository
# holding this .pre-commit-hooks.yaml, committed, so uncommitted changes are
# tested too) and a rev, in a git repository made of the fixture library
# (tests/data/precommit); `pre-commit run --all-files` fails on its error and
# passes once it is fixed. pre-commit is found on PATH or as $PRE_COMMIT;
# without it the test skips.
. "$(dirname "$0")/lib.sh"
pc=${PRE_COMMIT:-$(command -v pre-commit || true)}
[ -n "$pc" ] && [ -x "$pc" ] || { echo "skipped: pre-commit is not installed (pip install pre-commit, or PRE_COMMIT=path)"; exit 77; }
command -v git >/dev/null || { echo "skipped: no git"; exit 77; }
root=$(pwd)
PATH=$(dirname "$TA"):$PATH          # the hook runs the tensoralias on PATH
PRE_COMMIT_HOME=$tmp/cache           # nothing of the user's cache is used or left
export PATH PRE_COMMIT_HOME
commit() { git -c user.name=t -c user.email=t@t -c commit.gpgsign=false commit -qm "$1" || fail "git commit"; }
mkdir "$tmp/hooks" && cp "$root/.pre-commit-hooks.yaml" "$tmp/hooks/"
(cd "$tmp/hooks" && git init -q . && git add -A && commit hooks) || exit 1
rev=$(git -C "$tmp/hooks" rev-parse HEAD)
cp -R tests/data/precommit "$tmp/repo"
cd "$tmp/repo" || fail "no fixture"
printf 'repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: tensoralias-check\n' "$tmp/hooks" "$rev" \
    > .pre-commit-config.yaml
git init -q . && git add -A && commit fixture

"$pc" run --all-files > "$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] || { cat "$tmp/out"; fail "pre-commit exited $rc on the mistake, not 1"; }
grep -q 'csrc/bindings.cpp:4:.*\[custom-dest-not-written\]' "$tmp/out" || { cat "$tmp/out"; fail "the finding is not in pre-commit's output"; }
grep -q 'tensoralias check (operator schemas).*Failed' "$tmp/out" || { cat "$tmp/out"; fail "the hook is not reported failed"; }

sed 's/Tensor output/Tensor! output/' csrc/bindings.cpp > "$tmp/fixed" && cp "$tmp/fixed" csrc/bindings.cpp
git add -A && commit fix
"$pc" run --all-files > "$tmp/out" 2>&1 || { cat "$tmp/out"; fail "pre-commit fails the corrected library"; }
grep -q 'tensoralias check (operator schemas).*Passed' "$tmp/out" || { cat "$tmp/out"; fail "the hook is not reported passed"; }
exit 0
