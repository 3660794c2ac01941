#!/bin/bash
# widths.sh PREFIX EVAL WIDTH...: one full game of EVAL at each width (seed 0,
# both cores, nothing else running), timed: PREFIX-W.json, .b2048, .time
# (wall time and peak memory from /usr/bin/time) in $GAMES_DIR (default
# docs/runs/boot/games). Run from the repository root.
# Session 23 ran `widths.sh g net 40000 50000 70000 80000` (is 60,000's game a
# spike?) and `widths.sh g3 net=docs/runs/roll/g3.hnet 40000 50000 70000 80000`
# (g3's other widths are in docs/runs/roll/games/), so that the two pair at
# eight widths.
set -euo pipefail
B=${HATETRIS:-target/release/hatetris}
D=${GAMES_DIR:-docs/runs/boot/games}
for w in "${@:3}"; do
    /usr/bin/time -f "%e s %M KB" -o $D/$1-$w.time $B search --width $w --eval "$2" --json --quiet --out $D/$1-$w.b2048 > $D/$1-$w.json
done
