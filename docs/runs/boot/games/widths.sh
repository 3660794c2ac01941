#!/bin/bash
# widths.sh: the embedded default's full games at the widths between those
# of run.sh (seed 0, both cores, nothing else running): is 60,000's game a
# spike? Run from the repository root.
set -euo pipefail
B=${HATETRIS:-target/release/hatetris}
D=docs/runs/boot/games
for w in 40000 50000 70000 80000; do
    /usr/bin/time -f "%e s %M KB" -o $D/g-$w.time $B search --width $w --json --quiet --out $D/g-$w.b2048 > $D/g-$w.json
done
