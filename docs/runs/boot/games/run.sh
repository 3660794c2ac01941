#!/bin/bash
# games/run.sh: the embedded default's full games (seed 0, both cores, nothing
# else running) at the README's widths, `play` at its default width, and the
# README's suite rows (the default against g3 and against the baseline).
# Wall time and peak memory from /usr/bin/time. Run from the repository root.
set -euo pipefail
B=${HATETRIS:-target/release/hatetris}
D=docs/runs/boot/games
bash $D/widths.sh g net 1000 10000 30000 60000 100000
# play's default was 120,000 when this ran (125 s, over two minutes), then 60,000
/usr/bin/time -f "%e s %M KB" -o $D/play120k.time $B play --width 120000 > $D/play120k.txt
/usr/bin/time -f "%e s %M KB" -o $D/play60k.time $B play --quiet > $D/play60k.txt
$B strength --eval net --vs net=docs/runs/roll/g3.hnet --json --quiet > $D/default-vs-g3.json
$B strength --eval net --vs baseline --json --quiet > $D/default-vs-baseline.json
