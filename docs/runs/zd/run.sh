#!/bin/bash
# zd and a3 (docs/experiments.md): targets re-scaled within each depth, each
# fitted once from g3, then the three suites.
#   z05:  g3's labels (its 21 teachers' mean on 1,290,261 wells) standardised
#         per depth, tanh(0.5 z)
#   zr05: g4's cycle's refined targets, the same transform
#   a3:   g4's cycle's refined targets with the deviations from each depth's
#         mean tripled (clamped to +-0.99)
set -euo pipefail
B=${HATETRIS:-/work/main/target/release/hatetris}
S=/work/main/docs/runs/zd; R=/work/runs/roll
mkdir -p /work/runs/zd && cd /work/runs/zd
[ -f z05.htds ] || python3 $S/ztargets.py $R/g3/lab.htds z05.htds z 0.5
[ -f zr05.htds ] || python3 $S/ztargets.py $R/g4/c/cycle-001/refined.htds zr05.htds z 0.5
[ -f a3.htds ] || python3 $S/ztargets.py $R/g4/c/cycle-001/refined.htds a3.htds amp 3
for n in z05 zr05 a3; do
    [ -f $n.hnet ] || $B train --data $n.htds --init $R/g3/out.hnet --out $n.hnet --threads 1 --quiet > train-$n.log 2>&1
    [ -f m-$n-other.json ] || bash /work/main/docs/runs/ens-e/measure.sh $n
done
