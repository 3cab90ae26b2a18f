#!/bin/sh
# tensoralias parse --json carries torch's alias answers (is_mutable,
# mutable_args, may_alias, may_contain_alias) in the golden format, equal to
# schema-alias.jsonl for every registered schema.
. "$(dirname "$0")/lib.sh"
G=$BUILD/data/golden/torch-1.13.1
"$TA" parse --json - < "$G/registered-schemas.txt" > "$tmp/out.jsonl" || { echo "parse --json failed"; exit 1; }
python3 - "$tmp/out.jsonl" "$G/schema-alias.jsonl" <<'PY'
import json, sys
ours = [json.loads(l) for l in open(sys.argv[1])]
gold = [json.loads(l) for l in open(sys.argv[2])]
assert len(ours) == len(gold) == 4165, (len(ours), len(gold))
bad = 0
for o, g in zip(ours, gold):
    assert o["schema"] == g["schema"], (o["schema"], g["schema"])
    for k in ("is_mutable", "mutable_args", "may_alias", "may_contain_alias"):
        if o.get(k) != g[k]:
            bad += 1
            if bad < 5: print("mismatch", k, g["schema"], o.get(k), g[k])
print("alias field mismatches:", bad)
sys.exit(1 if bad else 0)
PY
