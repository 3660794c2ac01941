#!/bin/bash
# Second wells: each teacher's own game at width 60,000 (another game than at 100,000).
set -euo pipefail
B=/work/main/target/release/hatetris
S=/work/main/docs/runs
cd /work/runs/dmx/wells
for pair in boot16:$S/boot/boot16.hnet g3:$S/roll/g3.hnet gd23:$S/dmx/teachers/gd23.hnet g4:$S/roll/g4/g4.hnet; do
  n=${pair%%:*}-60k; p=${pair#*:}
  [ -f $n.htds ] || $B sample --eval net=$p --width 60000 --samples 2048 --seed 2 --out $n.htds --quiet > $n.json
done
W=/work/runs/dmx/wells
while pgrep -f "bash chain2.sh" >/dev/null; do sleep 10; done
DATA="$W/boot16.htds $W/g3.htds $W/gd23.htds $W/g4.htds $W/boot16-60k.htds $W/g3-60k.htds $W/gd23-60k.htds $W/g4-60k.htds" bash $S/dmx/make.sh d4r8 $S/boot/boot16.hnet $S/roll/g3.hnet $S/dmx/teachers/gd23.hnet $S/roll/g4/g4.hnet
