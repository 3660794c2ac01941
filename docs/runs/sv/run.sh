#!/bin/bash
# sv (docs/experiments.md): six students from random weights (seeds 1-6, as
# roll.sh fits g4's) on the survival-ranked targets; their mean against the
# mean of g4's own six students, on three suites.
set -euo pipefail
mkdir -p /work/runs/sv && cd /work/runs/sv
B=/work/main/target/release/hatetris
S=/work/main/docs/runs
D=/work/main/target/release/examples/diagnose
G3=/work/runs/roll/g3/out.hnet
# The subset (58,880 wells of g4's cycle) and its width-128 rollouts of g3
# for up to 200 pieces (459 s on two threads); the held-out one (28,160
# wells of g5's cycle) for the within-depth diagnostic (1,278 s).
[ -f sub.htds ] || python3 $S/sv/subset.py /work/runs/roll/g4/c/cycle-001/samples.htds 4 sub
[ -f sub-T.htds ] || $D refine net=$G3 sub.htds sub-T.htds 128 200 1 1.0 survival
[ -f sub5.htds ] || python3 $S/sv/subset.py /work/runs/roll/g5/c/cycle-001/samples.htds 8 sub5
[ -f sub5-T.htds ] || $D refine net=$G3 sub5.htds sub5-T.htds 128 200 1 1.0 survival
[ -f sv.htds ] || python3 $S/sv/targets.py
train() { [ -f s$1.hnet ] || $B train --data sv.htds --seed $1 --out s$1.hnet --threads 1 --quiet > s$1.log 2>&1; }
(train 1; train 3; train 5) & (train 2; train 4; train 6); wait
SV=mean=$(for i in 1 2 3 4 5 6; do printf "net=s$i.hnet,"; done); SV=${SV%,}
G4=mean=$(for i in 1 2 3 4 5 6; do printf "net=/work/runs/roll/g4/t-rand$i.hnet,"; done); G4=${G4%,}
m() { [ -f m-$1$2.json ] || $B strength --eval "$3" ${4:+--suite $4} --json --quiet --threads 1 > m-$1$2.json; }
(m sv "" $SV; m sv -other $SV $S/strength/other.htsu; m g4s -dense2 $G4 $S/ens-a/dense2.htsu) &
(m g4s "" $G4; m g4s -other $G4 $S/strength/other.htsu; m sv -dense2 $SV $S/ens-a/dense2.htsu)
wait
bash $S/roll/cmp.sh . sv . g4s
# The diagnostic: each network's values on the held-out subset, within-depth
# Spearman with the pieces survived.
for n in g3:$G3 g4:/work/runs/roll/g4/out.hnet g5:/work/runs/roll/g5/out.hnet \
         c1:/work/runs/roll/g4/t-c1.hnet o1:/work/runs/roll/g4/t-rand1.hnet o2:/work/runs/roll/g4/t-rand2.hnet \
         s1:s1.hnet s2:s2.hnet a3:/work/runs/zd/a3.hnet; do
    [ -f w5-${n%%:*}.htds ] || $B label --teacher net=${n#*:} --data sub5.htds --out w5-${n%%:*}.htds --threads 1 > /dev/null
done
python3 $S/sv/within.py sub5 /work/runs/roll/g5/c/cycle-001/refined.htds w5-*.htds
