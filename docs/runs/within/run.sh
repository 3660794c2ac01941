#!/usr/bin/env bash
# Does a within-depth term in the learn step's loss fit the refine
# targets better where the beam's cut compares them (one depth's wells)?
# Trains from generation 25's network on generation 26's training wells
# (gen-b run r25, cycle 2) with the cycle's settings and the within-depth
# weight 0, 1 and 4 (within.patch, a scratch build), plus two networks
# from random weights (48 and 192 hidden units, batch 1,024, patience 10),
# and measures every network with ../online/proto's depthfit.
#   usage: run.sh [RUN]   (RUN: gen-b's run folder, default /work/runs/gen-b/r25)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$HERE/../../..
R=${1:-/work/runs/gen-b/r25}
W=${WORK:-/work/exp/within}
S=$W/scratch
mkdir -p "$W"
[ -d "$S" ] || { git -C "$ROOT" worktree add -q --detach "$S" 764cfce && git -C "$S" apply "$HERE/within.patch"; }
(cd "$S" && CARGO_TARGET_DIR=$W/target cargo build --release --offline -p hatetris-cli)
(cd "$ROOT/docs/runs/online/proto" && CARGO_TARGET_DIR=$W/proto-target cargo build --release --offline)
B=$W/target/release/hatetris
cd "$W"
for l in 0 1 4; do
  HATETRIS_WITHIN=$l "$B" train --data "$R/cycle-002/refined.htds" --init "$R/cycle-001/net.hnet" --out w$l.hnet \
    --hidden 48 --seed 0 --batch 8192 --lr 0.001 --max-epochs 100 --patience 3 --validation 0.1 --loss mse --threads 1 > "$HERE/train-w$l.txt" 2>&1
done
for h in 48 192; do
  "$B" train --data "$R/cycle-002/refined.htds" --out r$h.hnet --hidden $h --seed 0 --batch 1024 --lr 0.001 \
    --max-epochs 300 --patience 10 --validation 0.1 --loss mse --threads 1 > "$HERE/train-r$h.txt" 2>&1
done
for c in cycle-002 cycle-001; do
  echo "# data: r25/$c"
  "$W/proto-target/release/depthfit" --cycle "$R/$c" \
    --nets "$R/cycle-001/net.hnet,$R/cycle-002/net.hnet,w0.hnet,w1.hnet,w4.hnet,r48.hnet,r192.hnet" 2>&1 | sed "s#$R/##g"
done > "$HERE/depthfit.tsv"
