#!/bin/bash
# ens-b: ens-a's step once more, from ens-a (a second generation).
set -euo pipefail
cd /work/runs/ensb
B=/work/main/target/release/hatetris
NET=/work/main/crates/eval/nets/default.hnet
cp -n $NET ens-a.hnet
$B cycle --dir c --init ens-a.hnet --cycles 1 --width 100000 --samples 2048 \
    --refine-width 50 --refine-depth 10 --suite-width 1000 --suite-pieces 250 --seed 24 --quiet
DATA=c/cycle-001/refined.htds
cp c/cycle-001/net.hnet s-c1.hnet
train() { [ -f s-rand$1.hnet ] || $B train --data $DATA --seed $1 --out s-rand$1.hnet --threads 1 --quiet > s-rand$1.log 2>&1; }
(train 1; train 3; train 5) & (train 2; train 4; train 6); wait
TEACH=(); for f in s-*.hnet; do TEACH+=(--teacher "net=$f"); done
W=/work/runs/ens
[ -f lab7.htds ] || $B label "${TEACH[@]}" --data c/cycle-001/samples.htds /work/runs/kjc-48/cycle-001/samples.htds \
    /work/runs/kjc-96/cycle-002/samples.htds $W/wells10k-*/cycle-001/samples.htds --out lab7.htds > label.json
[ -f ens-b.hnet ] || $B train --data lab7.htds --init ens-a.hnet --out ens-b.hnet --quiet > train.log 2>&1
S=/work/main/docs/runs/strength
($B strength --eval net=ens-b.hnet --json --quiet --threads 1 > m-ens-b.json; $B strength --eval net=ens-b.hnet --suite $S/other.htsu --json --quiet --threads 1 > m-ens-b-other.json) &
($B strength --eval net=ens-b.hnet --suite /work/main/docs/runs/ens-a/dense2.htsu --json --quiet --threads 1 > m-ens-b-dense2.json); wait
$B strength --eval net=ens-b.hnet --suite $S/dense.htsu --json --quiet > m-ens-b-dense.json
echo finished
