#!/bin/bash
# ens-e: ens-b's step from ens-b with the search as it now is (no S/Z chains).
set -euo pipefail
cd /work/runs/ensq
B=/work/main/target/release/hatetris
[ -f c/cycle-001/net.hnet ] || $B cycle --dir c --init ens-b.hnet --cycles 1 --width 100000 --samples 2048 \
    --refine-width 50 --refine-depth 10 --suite-width 1000 --suite-pieces 250 --seed 26 --quiet
echo cycle done $(date +%T)
DATA=c/cycle-001/refined.htds
cp c/cycle-001/net.hnet e-c1.hnet
train() { [ -f e-rand$1.hnet ] || $B train --data $DATA --seed $1 --out e-rand$1.hnet --threads 1 --quiet > e-rand$1.log 2>&1; }
(train 1; train 3; train 5) & (train 2; train 4; train 6); wait
echo students done $(date +%T)
TEACH=(); for f in e-*.hnet; do TEACH+=(--teacher "net=$f"); done
[ -f lab7.htds ] || $B label "${TEACH[@]}" --data c/cycle-001/samples.htds --out lab7.htds > label.json
[ -f ens-e.hnet ] || $B train --data lab7.htds --init ens-b.hnet --out ens-e.hnet --quiet > train.log 2>&1
echo fit done $(date +%T)
S=/work/main/docs/runs
m() { $B strength --eval net=$1.hnet "${@:2}" --json --quiet --threads 1; }
(m ens-e > m-ens-e.json; m ens-e --suite $S/strength/other.htsu > m-ens-e-other.json) &
(m ens-e --suite $S/ens-a/dense2.htsu > m-ens-e-dense2.json); wait
(m e-c1 > m-c1.json) 
echo finished $(date +%T)
