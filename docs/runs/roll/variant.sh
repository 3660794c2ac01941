#!/bin/bash
# variant.sh NAME SEED CYCLE_ARGS...: roll.sh's step from g5 with the
# cycle's sampling and refine set by CYCLE_ARGS (docs/experiments.md):
#   gc6: variant.sh gc6 35 --samples 100 --sample-children --refine-depth 10
#   gd6: variant.sh gd6 36 --samples 2048 --refine-depth 20
# Six students on the cycle's targets; the window (g4's, g5's and this
# cycle's 21 networks) labels the three cycles' wells, fitted from g5;
# then the three suites. Work in /work/runs/NAME; resumable.
set -euo pipefail
B=${HATETRIS:-/work/main/target/release/hatetris}
R=/work/runs/roll
NAME=$1; SEED=$2; shift 2
mkdir -p /work/runs/$NAME && cd /work/runs/$NAME
[ -f c/cycle-001/net.hnet ] || $B cycle --dir c --init $R/g5/out.hnet --cycles 1 --width 100000 "$@" \
    --refine-width 50 --suite-width 1000 --suite-pieces 250 --seed $SEED --quiescence 0 --quiet
cp -n c/cycle-001/net.hnet t-c1.hnet
train() { [ -f t-rand$1.hnet ] || $B train --data c/cycle-001/refined.htds --seed $1 --out t-rand$1.hnet --threads 1 --quiet > t-rand$1.log 2>&1; }
(train 1; train 3; train 5) & (train 2; train 4; train 6); wait
TEACH=(); DATA=()
for d in $R/g4 $R/g5 $(pwd); do
    for f in $d/t-*.hnet; do TEACH+=(--teacher "net=$f"); done
    DATA+=($d/c/cycle-001/samples.htds)
done
[ -f lab.htds ] || $B label "${TEACH[@]}" --data "${DATA[@]}" --out lab.htds > label.json
[ -f out.hnet ] || $B train --data lab.htds --init $R/g5/out.hnet --out out.hnet --quiet > train.log 2>&1
cp -n out.hnet $NAME.hnet
[ -f m-$NAME-other.json ] || bash /work/main/docs/runs/ens-e/measure.sh $NAME
