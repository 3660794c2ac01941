#!/bin/bash
# g3-widths.sh: g3 (the default before boot 16) at the in-between widths of
# widths.sh, so that the two networks' full games pair at eight widths
# (g3's 30k, 60k, 100k, 120k are in docs/runs/roll/games/). Repository root.
set -euo pipefail
B=${HATETRIS:-target/release/hatetris}
D=docs/runs/boot/games
for w in 40000 50000 70000 80000; do
    /usr/bin/time -f "%e s %M KB" -o $D/g3-$w.time $B search --width $w --eval net=docs/runs/roll/g3.hnet --json --quiet --out $D/g3-$w.b2048 > $D/g3-$w.json
done
