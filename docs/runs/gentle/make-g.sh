#!/usr/bin/env bash
# make arm G from arm U's first cycle: the same search and refined wells,
# the network trained from the same start at lr 1e-4 (at most 40 epochs),
# then the run goes on at that step. From the repository's root, beside
# run.sh's arm u.
set -euo pipefail
U=/work/runs/gl/u G=/work/runs/gl/g
while [ ! -s $U/metrics.jsonl ]; do sleep 10; done
mkdir -p $G
cp -a $U/config.json $U/net-000.hnet $U/suite-000.json $U/metrics.jsonl $G/
cp -a $U/cycle-001 $G/
rm -f $G/cycle-001/net.hnet
nice -n 10 ${BIN:-target/release/hatetris} train --data $G/cycle-001/refined.htds --init $G/net-000.hnet --out $G/cycle-001/net.hnet \
  --hidden 48 --seed 0 --batch 8192 --lr 0.0001 --max-epochs 40 --patience 3 --validation 0.1 --loss mse --threads 1 > $G/cycle-001/train-gentle.log 2>&1
EPOCHS=40 exec bash docs/runs/gentle/run.sh $G --retune --lr 0.0001
