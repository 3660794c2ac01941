#!/bin/bash
# s96: g3's step with three more teachers of another kind: students of 96
# hidden units from random weights on g3's cycle's targets; the 24
# networks label the three cycles' wells, fitted from g2 (as g3 was).
set -euo pipefail
cd /work/runs/s96
B=/work/main/target/release/hatetris
R=/work/runs/roll
train() { [ -f w96-$1.hnet ] || $B train --data $R/g3/c/cycle-001/refined.htds --hidden 96 --seed $1 --out w96-$1.hnet --threads 1 --quiet > w96-$1.log 2>&1; }
(train 1; train 3) & (train 2); wait
TEACH=(); DATA=()
for d in h g2 g3; do for f in $R/$d/t-*.hnet; do TEACH+=(--teacher "net=$f"); done; DATA+=($R/$d/c/cycle-001/samples.htds); done
for f in w96-*.hnet; do TEACH+=(--teacher "net=$f"); done
[ -f lab.htds ] || $B label "${TEACH[@]}" --data "${DATA[@]}" --out lab.htds > label.json
[ -f s96.hnet ] || $B train --data lab.htds --init $R/g2/out.hnet --out s96.hnet --quiet > train.log 2>&1
echo fit done $(date +%T)
bash /work/main/docs/runs/ens-e/measure.sh s96
echo finished $(date +%T)
