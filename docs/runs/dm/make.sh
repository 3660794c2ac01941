#!/bin/bash
# dm (docs/experiments.md): boot 16 fitted to the mean of boot 16 and g3
# over boot's cycle-17 wells and g3's cycle's wells (1,001,868 distinct),
# then measured on both full-game yardsticks and the three suites.
set -euo pipefail
mkdir -p /work/runs/dm && cd /work/runs/dm
B=/work/main/target/release/hatetris
S=/work/main/docs/runs
cp /work/main/crates/eval/nets/default.hnet boot16.hnet
cp $S/roll/g3.hnet g3.hnet
$B label --teacher net=boot16.hnet --teacher net=g3.hnet \
    --data /work/runs/boot/r/cycle-017/samples.htds /work/runs/roll/g3/c/cycle-001/samples.htds --out lab.htds
$B train --init boot16.hnet --data lab.htds --out dm.hnet --quiet > dm.log
$B games --eval net=dm.hnet --json --quiet > g-dm.json
$B games --eval net=dm.hnet --open 40 --json --quiet > g40-dm.json
bash $S/ens-e/measure.sh dm
bash $S/roll/cmp.sh . dm $S/boot boot16
python3 $S/tall/gcmp.py g-dm.json $S/tall/games-boot16.json
python3 $S/tall/gcmp.py g40-dm.json $S/mcl/div-o40-n0.3.json
