#!/bin/bash
# ctl (docs/runs/tl-a) with another loss: run.sh DIR TARGETS LOSS [FIT_LOSS]
# Students from random weights (seeds 1-6) on TARGETS with --loss LOSS, their
# mean labelling ens-c's 1.25M wells, fitted from ens-b with FIT_LOSS (LOSS).
set -euo pipefail
DIR=$1; TARGETS=$2; LOSS=$3; FIT=${4:-$3}
mkdir -p /work/runs/$DIR && cd /work/runs/$DIR
B=/work/main/target/release/hatetris
C=/work/runs/ensc/c
ENSB=$C/net-000.hnet
WELLS="$C/cycle-001/samples.htds $C/cycle-002/samples.htds $C/cycle-003/samples.htds"
train() { [ -f st-$1.hnet ] || $B train --data $TARGETS --seed $1 --loss $LOSS --out st-$1.hnet --threads 1 --quiet > st-$1.log 2>&1; }
(train 1; train 3; train 5) & (train 2; train 4; train 6); wait
TEACH=(); for k in 1 2 3 4 5 6; do TEACH+=(--teacher "net=st-$k.hnet"); done
[ -f lab-$DIR.htds ] || $B label "${TEACH[@]}" --data $WELLS --out lab-$DIR.htds > label-$DIR.json
[ -f $DIR.hnet ] || $B train --data lab-$DIR.htds --init $ENSB --loss $FIT --out $DIR.hnet --quiet > train-$DIR.log 2>&1
S=/work/main/docs/runs/strength
m() { [ -f m-$1$2.json ] || $B strength --eval net=$1.hnet ${3:+--suite $3} --json --quiet --threads 1 > m-$1$2.json; }
(m $DIR "" ""; m $DIR -other $S/other.htsu) & (m $DIR -dense2 /work/main/docs/runs/ens-a/dense2.htsu; m $DIR -dense $S/dense.htsu); wait
echo finished
