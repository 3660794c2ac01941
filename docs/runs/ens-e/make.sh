#!/bin/bash
# Rebuilds ens-e from ens-b: ens-b's step (one cycle at width 100,000, six
# students of its targets from random weights, the seven networks' mean
# fitted from the start) with the search as it now is, without the S/Z
# chains, where the search step and refine's lookaheads value wells alike.
# About 0.4 core-hours on this machine (search 106 s, refine 615 s on two
# threads, students 2 minutes). Every step is seeded and does not depend on
# the thread count. Usage: bash docs/runs/ens-e/make.sh WORKDIR (from the
# repository's root, with hatetris on the PATH or in target/release).
set -euo pipefail
ROOT=$(pwd)
B=${HATETRIS:-$ROOT/target/release/hatetris}
START=$ROOT/${START:-docs/runs/ens-b/ens-b.hnet}
SEED=${SEED:-26}
OUT=${OUT:-ens-e.hnet}
mkdir -p "$1" && cd "$1"

[ -f c/cycle-001/net.hnet ] || $B cycle --dir c --init "$START" --cycles 1 --width 100000 --samples 2048 \
    --refine-width 50 --refine-depth 10 --suite-width 1000 --suite-pieces 250 --seed $SEED --quiescence 0 --quiet
DATA=c/cycle-001/refined.htds
cp c/cycle-001/net.hnet e-c1.hnet
for seed in 1 2 3 4 5 6; do
    [ -f e-rand$seed.hnet ] || $B train --data $DATA --seed $seed --out e-rand$seed.hnet --quiet
done
TEACH=()
for f in e-*.hnet; do TEACH+=(--teacher "net=$f"); done
$B label "${TEACH[@]}" --data c/cycle-001/samples.htds --out lab7.htds
$B train --data lab7.htds --init "$START" --out "$OUT"
