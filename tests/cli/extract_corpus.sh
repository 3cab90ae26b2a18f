#!/bin/sh
# The recall of extract on real extension libraries, held to the facts in
# tests/data/extract/corpus-extract.tsv.xz (each operator's repository,
# file:line, namespace and name; see its header). Always: the facts are well
# formed and cover >= 17 libraries. With TA_EXTRACT_CORPUS=DIR (a folder of
# the repositories' trees at the recorded commits, one folder per owner+name):
# extract runs on each and the share of operators found, and found with the
# namespace they register under, is printed per library and held to >= 99%
# overall. An operator whose namespace is the build's TORCH_EXTENSION_NAME
# ($build) counts as right when extract lists it without one (and notes why):
# only -D or compile_commands.json can name it; the strict figure is printed too.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "skipped: no python3 to compare the lists"; exit 77; }
command -v xz >/dev/null || { echo "skipped: no xz to read the facts"; exit 77; }
xz -dc tests/data/extract/corpus-extract.tsv.xz >"$tmp/facts.tsv" || fail "cannot read the facts"
python3 - "$tmp/facts.tsv" <<'PY' || fail "the facts are not well formed"
import re, sys, collections
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if not l.startswith('#') and l.strip()]
bad = [r for r in rows if len(r) != 6 or not r[2].isdigit() or r[5] not in ('text', 'read', 'build')
       or not re.fullmatch(r'\$build|[A-Za-z_]\w*', r[3]) or (r[3] == '$build') != (r[5] == 'build')]
for r in bad[:5]: print('bad row:', r)
libs = collections.Counter(r[0] for r in rows)
print(f'{len(rows)} operators of {len(libs)} libraries')
sys.exit(1 if bad or len(libs) < 17 else 0)
PY
[ -n "${TA_EXTRACT_CORPUS:-}" ] || { echo "skipped: TA_EXTRACT_CORPUS is not set (a folder of the repositories at the recorded commits)"; exit 77; }
[ -d "$TA_EXTRACT_CORPUS" ] || fail "TA_EXTRACT_CORPUS=$TA_EXTRACT_CORPUS is not a directory"
for r in $(grep -v '^#' "$tmp/facts.tsv" | cut -f1 | sort -u); do
    [ -d "$TA_EXTRACT_CORPUS/$r" ] || fail "$r is not in $TA_EXTRACT_CORPUS"
    (cd "$TA_EXTRACT_CORPUS" && "$TA" extract --no-git --format json "$r") >"$tmp/$r.jsonl" 2>/dev/null
    [ $? -le 1 ] || fail "extract on $r exited $?"
done
python3 - "$tmp" <<'PY' || fail "recall below 99%"
import json, os, sys, collections
tmp = sys.argv[1]
facts = collections.defaultdict(list)
for l in open(os.path.join(tmp, 'facts.tsv')):
    if l.startswith('#') or not l.strip(): continue
    repo, f, line, ns, name, how = l.rstrip('\n').split('\t')
    facts[repo].append((f, name, ns))
tot = collections.Counter()
print(f"{'library':40} {'operators':>9} {'found':>7} {'right ns':>8} {'strict':>7}")
for repo in sorted(facts):
    got = collections.defaultdict(list)
    for l in open(os.path.join(tmp, repo + '.jsonl')):
        o = json.loads(l)
        got[(o['file'][len(repo) + 1:], o['name'].split('::', 1)[-1])].append(o['namespace'])
    n = found = right = strict = 0
    for f, name, ns in facts[repo]:
        n += 1
        have = got.get((f, name))
        if not have: continue
        found += 1
        if ns == '$build':
            hit = None in have
            right += hit
        elif ns in have:
            right += 1; strict += 1
        if have: have.remove(have[0] if ns == '$build' or ns not in have else ns)
    tot.update(n=n, found=found, right=right, strict=strict)
    print(f'{repo:40} {n:9} {100*found/n:6.1f}% {100*right/n:7.1f}% {100*strict/n:6.1f}%')
n = tot['n']
print(f"{'all':40} {n:9} {100*tot['found']/n:6.1f}% {100*tot['right']/n:7.1f}% {100*tot['strict']/n:6.1f}%")
sys.exit(0 if tot['found'] >= 0.99 * n and tot['right'] >= 0.99 * n else 1)
PY
