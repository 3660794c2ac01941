#!/bin/bash
# d4o (docs/experiments.md): d4r4's wells (the teachers' own games, as run.sh
# writes them) plus two noisy-opening games of each teacher (40 pieces,
# noise 0.3, width 30,000; 512 wells a depth). `--width 1` keeps the game
# from the empty well to a few dozen wells: only the opened games count.
set -euo pipefail
W=/work/runs/dmx/wells; S=/work/main/docs/runs
for t in /work/main/docs/runs/boot/boot16.hnet /work/main/docs/runs/roll/g3.hnet /work/main/docs/runs/dmx/teachers/gd23.hnet /work/main/docs/runs/roll/g4/g4.hnet; do
  n=$(basename $t .hnet)
  o=$W/$n-open40.htds
  [ -f $o ] || /work/main/target/release/hatetris sample --eval net=$t --width 1 --openings 2 --opening-pieces 40 --opening-noise 0.3 --opening-width 30000 --samples 512 --seed 1 --out $o --quiet > $W/$n-open40.json
done
DATA="$W/boot16.htds $W/g3.htds $W/gd23.htds $W/g4.htds $W/boot16-open40.htds $W/g3-open40.htds $W/gd23-open40.htds $W/g4-open40.htds" bash $S/dmx/make.sh d4o $S/boot/boot16.hnet $S/roll/g3.hnet $S/dmx/teachers/gd23.hnet $S/roll/g4/g4.hnet
