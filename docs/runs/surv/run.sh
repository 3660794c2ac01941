#!/bin/bash
# surv-rank: targets from targets.py, then (ft) ens-b fine-tuned on them and
# (st) ctl's pipeline on them (six students, their mean, the fit from ens-b).
set -euo pipefail
cd /work/runs/surv
B=/work/main/target/release/hatetris
ENSB=/work/runs/ensc/c/net-000.hnet
S=/work/main/docs/runs/strength
W=${1:-0.5}; TAG=${2:-sr}
[ -f $TAG.htds ] || python3 targets.py $W 1024 $TAG.htds
[ -f ft-$TAG.hnet ] || $B train --data $TAG.htds --init $ENSB --out ft-$TAG.hnet --quiet > train-ft-$TAG.log 2>&1
m() { [ -f m-$1$2.json ] || $B strength --eval net=$1.hnet ${3:+--suite $3} --json --quiet --threads 1 > m-$1$2.json; }
(m ft-$TAG "" ""; m ft-$TAG -other $S/other.htsu) & (m ft-$TAG -dense2 /work/main/docs/runs/ens-a/dense2.htsu; m ft-$TAG -dense $S/dense.htsu); wait
echo ft finished
