#!/bin/bash
# dmx (docs/experiments.md): dm widened to more lineages. make.sh NAME
# TEACHER... fits boot 16 to the mean of the teachers (network files) over
# a set of wells, then measures it on both full-game yardsticks and the
# three suites against boot 16. Everything lands in /work/runs/dmx/NAME.
# The wells: by default each teacher's own game at width 100,000 (`hatetris
# sample`, seed 1, 2,048 a depth; kept in /work/runs/dmx/wells and reused),
# so the repository's network files are all it needs (d4's teachers give
# d4r4, row dmx-r); DATA="FILE..." sets others (d4 itself was fitted on
# boot's cycle 17, g3's cycle and gd's cycle 23, files of those runs).
# SEED=N is the fit's seed (default 0), INIT=FILE the network the fit
# starts from (default boot 16).
set -euo pipefail
N=$1; shift
B=/work/main/target/release/hatetris
S=/work/main/docs/runs
mkdir -p /work/runs/dmx/$N && cd /work/runs/dmx/$N
T=(); for t in "$@"; do T+=(--teacher "net=$t"); done
if [ -z "${DATA:-}" ]; then
  mkdir -p /work/runs/dmx/wells
  for t in "$@"; do
    w=/work/runs/dmx/wells/$(basename "$t" .hnet)-$(cksum < "$t" | cut -d' ' -f1).htds
    [ -f "$w" ] || $B sample --eval "net=$t" --width 100000 --samples 2048 --seed 1 --out "$w" --quiet > "$w.json"
    DATA="${DATA:-} $w"
  done
fi
# shellcheck disable=SC2086 # DATA is a list of paths
$B label "${T[@]}" --data $DATA --out lab.htds
$B train --init "${INIT:-$S/boot/boot16.hnet}" --data lab.htds --out $N.hnet --seed "${SEED:-0}" --quiet > train.log
rm lab.htds
bash $S/ens-e/measure.sh $N
bash $S/roll/cmp.sh . $N $S/boot boot16 | tail -1 > cmp.txt
$B games --eval net=$N.hnet --json --quiet > g-$N.json
python3 $S/tall/gcmp.py g-$N.json $S/tall/games-boot16.json > gcmp.txt
$B games --eval net=$N.hnet --open 40 --json --quiet > g40-$N.json
python3 $S/tall/gcmp.py g40-$N.json $S/mcl/div-o40-n0.3.json > g40cmp.txt
