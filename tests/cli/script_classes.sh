#!/bin/sh
# tools/torch/script_classes.py on torchvision models: the graph it writes is
# the one the ground truth was made from (resnet18 and mobilenet_v2, scripted
# in that order), its class file declares every class whole, and with it
# graph-alias answers every query of the truth as torch does, with no note.
# Needs /usr/bin/python3 with torch and torchvision (skipped otherwise).
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
"$PY" -c 'import torch, torchvision' 2> /dev/null ||
    { echo "skipped: $PY cannot import torch and torchvision (Debian's python3-torch, python3-torchvision)"; exit 77; }

"$PY" tools/torch/script_classes.py -o "$tmp" resnet18 mobilenet_v2 2> "$tmp/err" || { cat "$tmp/err"; fail "the script failed"; }
G="$BUILD/data/golden/aliasdb-1.13.1"
for m in resnet18 mobilenet_v2; do
    # the truth's graphs name torch's sources relative to its package
    sed 's|# /usr/lib/python3/dist-packages/|# |' "$tmp/$m.ir" | cmp -s - "$G/$m.ir" ||
        fail "$m: the scripted graph is not the one of the ground truth"
    [ "$(wc -l < "$tmp/$m.classes")" -gt 30 ] || fail "$m: too few classes declared"
    "$TA" graph-alias "$G/$m.ir" --classes "$tmp/$m.classes" --queries "$G/$m.truth.jsonl" --notes \
        > "$tmp/answers" 2> "$tmp/notes" || fail "$m: graph-alias exited $?"
    [ -s "$tmp/notes" ] && { cat "$tmp/notes"; fail "$m: a note with every class declared"; }
    cmp -s "$tmp/answers" "$G/$m.truth.jsonl" || fail "$m: the answers with the classes declared differ from torch's"
    "$TA" graph-alias "$G/$m.ir" --notes > /dev/null 2> "$tmp/notes" || fail "$m: graph-alias exited $?"
    grep -q 'class or unknown types are not declared whole' "$tmp/notes" || fail "$m: no note without the classes"
done
echo "script_classes.py: the truth's graphs, every class declared, torch's answers"
