#!/bin/bash
# dmx (docs/experiments.md): dm widened to more lineages. make.sh NAME
# TEACHER... fits boot 16 to the mean of the teachers (network files) over
# one set of wells (by default boot's cycle 17, g3's cycle, gd's cycle 23;
# DATA="FILE..." sets others; SEED=N the fit's seed, default 0; INIT=FILE the network the fit starts
# from, default boot 16), then
# measures it on both full-game yardsticks and the three suites against
# boot 16. Everything lands in /work/runs/dmx/NAME. The teachers and wells
# are the runs' own files: gd 23's network is kept in teachers/, the
# cycles' samples.htds are rebuilt by their runs' commands.
set -euo pipefail
N=$1; shift
B=/work/main/target/release/hatetris
S=/work/main/docs/runs
mkdir -p /work/runs/dmx/$N && cd /work/runs/dmx/$N
T=(); for t in "$@"; do T+=(--teacher "net=$t"); done
DATA=${DATA:-/work/runs/boot/r/cycle-017/samples.htds /work/runs/roll/g3/c/cycle-001/samples.htds /work/runs/open/gd/cycle-023/samples.htds}
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
