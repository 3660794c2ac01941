#!/bin/bash
# tl-a: refine targets from an ensemble's lookahead (the mean of ens-a, ens-b, ens-d) against the single network's (ens-b), on ens-c cycle 1's wells.
# ctl: ens-c cycle 1's students (ens-b's targets) -> mean labels ens-c's wells -> fit from ens-b.
# tl:  six students on the ensemble's targets     -> mean labels the same wells -> fit from ens-b.
set -euo pipefail
cd /work/runs/tla
B=/work/main/target/release/hatetris
D=/work/main/target/release/examples/diagnose
C=/work/runs/ensc/c
ENSB=$C/net-000.hnet
# The teacher: the mean of the three strongest single networks (seven members
# ran at 10.8 ms a well, an hour for these wells).
T7="mean=ens-a.hnet,$ENSB,ens-d.hnet"
[ -f refined-t7.htds ] || { $D refine "$T7" $C/cycle-001/samples.htds refined-t7.tmp.htds 50 10 2654435794 > refine.log 2> refine.err && mv refined-t7.tmp.htds refined-t7.htds; }
WELLS="$C/cycle-001/samples.htds $C/cycle-002/samples.htds $C/cycle-003/samples.htds"
# control
TEACH=(); for k in 1 2 3 4 5 6; do TEACH+=(--teacher "net=$C/cycle-001/student-0$k.hnet"); done
[ -f lab-ctl.htds ] || $B label "${TEACH[@]}" --data $WELLS --out lab-ctl.htds > label-ctl.json
[ -f ctl.hnet ] || $B train --data lab-ctl.htds --init $ENSB --out ctl.hnet --quiet > train-ctl.log 2>&1
# treatment
train() { [ -f st-$1.hnet ] || $B train --data refined-t7.htds --seed $1 --out st-$1.hnet --threads 1 --quiet > st-$1.log 2>&1; }
(train 1; train 3; train 5) & (train 2; train 4; train 6); wait
TEACH=(); for k in 1 2 3 4 5 6; do TEACH+=(--teacher "net=st-$k.hnet"); done
[ -f lab-tl.htds ] || $B label "${TEACH[@]}" --data $WELLS --out lab-tl.htds > label-tl.json
[ -f tl.hnet ] || $B train --data lab-tl.htds --init $ENSB --out tl.hnet --quiet > train-tl.log 2>&1
S=/work/main/docs/runs/strength
m() { [ -f m-$1$2.json ] || $B strength --eval net=$1.hnet ${3:+--suite $3} --json --quiet --threads 1 > m-$1$2.json; }
for n in tl ctl; do
  (m $n "" ""; m $n -other $S/other.htsu) & (m $n -dense2 /work/main/docs/runs/ens-a/dense2.htsu; m $n -dense $S/dense.htsu); wait
done
echo finished
