#!/bin/sh
# Input discovery on real extension libraries, no samples (issue 28): every
# operator of Debian's torchvision 0.14.1 _C exercised (3 of its 11 tensor
# operators without discovery), and torchaudio 0.13.1's two core loops,
# whose schemas lack the '!' of the tensors they write, exercised and that
# write found. Each part skips, saying why, when its library is absent.
. "$(dirname "$0")/lib.sh"
need_bridge
[ -z "${TA_TORCH:-}" ] || { echo "skipped: torchvision and torchaudio are built for Debian's torch"; exit 77; }
exercised() { grep -c '"exercised":[1-9]' "$1"; }

TV=$(ls /usr/lib/python3/dist-packages/torchvision/_C*.so 2>/dev/null | head -n 1)
if [ -n "$TV" ]; then
    "$TA" verify --torch-library "$TV" --no-discovery --format json >"$tmp/tv0.json" 2>"$tmp/err"
    "$TA" verify --torch-library "$TV" --format json >"$tmp/tv.json" 2>"$tmp/err"
    [ "$(grep -c '"op"' "$tmp/tv.json")" -eq 12 ] || { cat "$tmp/tv.json" "$tmp/err"; fail "torchvision: 12 operators"; }
    [ "$(exercised "$tmp/tv.json")" -eq 12 ] || { grep '"exercised":0,' "$tmp/tv.json"; fail "torchvision: all exercised"; }
    [ "$(exercised "$tmp/tv0.json")" -lt 12 ] || fail "torchvision: discovery was needed"
    grep -q '"found":[1-9]' "$tmp/tv.json" || fail "torchvision: cases found by discovery"
else
    echo "torchvision is not installed (python3-torchvision): its _C not verified"
fi

AU=/usr/lib/python3/dist-packages/torchaudio/lib/libtorchaudio.so
if [ -f "$AU" ]; then
    "$TA" verify --torch-library "$AU" --ops 'torchaudio::_lfilter_core_loop' --ops 'torchaudio::_overdrive_core_loop' \
        --format json >"$tmp/au.json" 2>"$tmp/err"
    [ "$(exercised "$tmp/au.json")" -eq 2 ] || { cat "$tmp/au.json" "$tmp/err"; fail "torchaudio: both core loops exercised"; }
    # lfilter writes padded_output_waveform (its third argument), overdrive
    # last_in, last_out and output (its last three): none declared written.
    grep '"op":"torchaudio::_lfilter_core_loop"' "$tmp/au.json" |
        grep -q '"kind":"undeclared-mutation","severity":"error","argument":"_2"' || fail "lfilter: its write found"
    for a in _2 _3 _4; do
        grep '"op":"torchaudio::_overdrive_core_loop"' "$tmp/au.json" |
            grep -q "\"kind\":\"undeclared-mutation\",\"severity\":\"error\",\"argument\":\"$a\"" ||
            fail "overdrive: its write of $a found"
    done
else
    echo "torchaudio is not installed (python3-torchaudio): its core loops not verified"
fi
exit 0
