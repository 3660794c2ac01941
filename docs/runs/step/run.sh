#!/bin/bash
# tl-a's control (docs/runs/tl-a) with another refine step: run.sh DIR STEP
# (s1 1.0, s025 0.25, s0 0: no refine, the students fit ens-b's own values).
# Needs ens-c's run in /work/runs/ensc/c (docs/runs/ens-c rebuilds it).
set -euo pipefail
DIR=$1; STEP=$2
mkdir -p /work/runs/$DIR && cd /work/runs/$DIR
B=/work/main/target/release/hatetris
D=/work/main/target/release/examples/diagnose
C=/work/runs/ensc/c
ENSB=$C/net-000.hnet
if [ ! -f targets.htds ]; then
  if [ "$STEP" = 0 ]; then
    $B label --teacher net=$ENSB --data $C/cycle-001/samples.htds --out targets.htds > label-own.json
  else
    # The cycle's own seed: at step 0.5 this reproduces its refined.htds bit for bit.
    $D refine net=$ENSB $C/cycle-001/samples.htds targets.tmp.htds 50 10 2654435794 $STEP > refine.log 2> refine.err
    mv targets.tmp.htds targets.htds
  fi
fi
WELLS="$C/cycle-001/samples.htds $C/cycle-002/samples.htds $C/cycle-003/samples.htds"
train() { [ -f st-$1.hnet ] || $B train --data targets.htds --seed $1 --out st-$1.hnet --threads 1 --quiet > st-$1.log 2>&1; }
(train 1; train 3; train 5) & (train 2; train 4; train 6); wait
TEACH=(); for k in 1 2 3 4 5 6; do TEACH+=(--teacher "net=st-$k.hnet"); done
[ -f lab-$DIR.htds ] || $B label "${TEACH[@]}" --data $WELLS --out lab-$DIR.htds > label-$DIR.json
[ -f $DIR.hnet ] || $B train --data lab-$DIR.htds --init $ENSB --out $DIR.hnet --quiet > train-$DIR.log 2>&1
S=/work/main/docs/runs/strength
m() { [ -f m-$1$2.json ] || $B strength --eval net=$1.hnet ${3:+--suite $3} --json --quiet --threads 1 > m-$1$2.json; }
(m $DIR "" ""; m $DIR -other $S/other.htsu) & (m $DIR -dense2 /work/main/docs/runs/ens-a/dense2.htsu; m $DIR -dense $S/dense.htsu); wait
echo finished
