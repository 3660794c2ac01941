#!/bin/bash
# Wells for dmx from the teachers' own searches (width 100,000, 2,048 a depth).
set -euo pipefail
B=/work/main/target/release/hatetris
S=/work/main/docs/runs
cd /work/runs/dmx/wells
for pair in boot16:$S/boot/boot16.hnet g3:$S/roll/g3.hnet gd23:$S/dmx/teachers/gd23.hnet g4:$S/roll/g4/g4.hnet; do
  n=${pair%%:*}; p=${pair#*:}
  [ -f $n.htds ] || $B sample --eval net=$p --width 100000 --samples 2048 --seed 1 --out $n.htds --quiet > $n.json
done
