#!/bin/bash
# train.sh: six students of g3's cycle's targets, each warm-started from the
# student of the same seed in g2's cycle (w-K) instead of random weights.
B=/work/main/target/release/hatetris
D=/work/runs/roll/g3/c/cycle-001/refined.htds
for k in 1 2 3 4 5 6; do
  [ -f w-$k.hnet ] || $B train --data $D --seed $k --init /work/runs/roll/g2/t-rand$k.hnet --out w-$k.hnet --threads 1 --quiet > w-$k.log 2>&1
done
