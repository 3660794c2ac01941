#!/bin/bash
# ens-h: a cycle from ens-g (no chains), six students; the mean of the three
# cycles' 21 networks (ens-e's, ens-f's, this one's) labels the three cycles' wells,
# fitted from ens-g.
set -euo pipefail
cd /work/runs/ensh
B=/work/main/target/release/hatetris
[ -f c/cycle-001/net.hnet ] || $B cycle --dir c --init ens-g.hnet --cycles 1 --width 100000 --samples 2048 \
    --refine-width 50 --refine-depth 10 --suite-width 1000 --suite-pieces 250 --seed 28 --quiescence 0 --quiet
echo cycle done $(date +%T)
DATA=c/cycle-001/refined.htds
cp c/cycle-001/net.hnet h-c1.hnet
train() { [ -f h-rand$1.hnet ] || $B train --data $DATA --seed $1 --out h-rand$1.hnet --threads 1 --quiet > h-rand$1.log 2>&1; }
(train 1; train 3; train 5) & (train 2; train 4; train 6); wait
echo students done $(date +%T)
TEACH=(); for f in /work/runs/ensq/e-*.hnet /work/runs/ensf/f-*.hnet h-*.hnet; do TEACH+=(--teacher "net=$f"); done
[ -f lab21.htds ] || $B label "${TEACH[@]}" --data /work/runs/ensq/c/cycle-001/samples.htds /work/runs/ensf/c/cycle-001/samples.htds \
    c/cycle-001/samples.htds --out lab21.htds > label.json
[ -f ens-h.hnet ] || $B train --data lab21.htds --init ens-g.hnet --out ens-h.hnet --quiet > train.log 2>&1
echo fit done $(date +%T)
bash /work/main/docs/runs/ens-e/measure.sh ens-h
echo finished $(date +%T)
