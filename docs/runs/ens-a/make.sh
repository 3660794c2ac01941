#!/bin/bash
# Rebuilds the embedded default (run ens-a) from the one before it (wide-a),
# in a work directory: about 2.9 core-hours on this machine, most of it the
# two runs of the cycle. Every step is seeded and does not depend on the
# thread count. Usage: bash docs/runs/ens-a/make.sh WORKDIR (from the
# repository's root, with hatetris on the PATH or in target/release).
set -euo pipefail
ROOT=$(pwd)
B=${HATETRIS:-$ROOT/target/release/hatetris}
WIDE=$ROOT/docs/runs/wide-a/wide-a.hnet
T=$ROOT/docs/runs/distill-a/teachers
mkdir -p "$1" && cd "$1"

# 1. Targets: one cycle of knewjade's loop from wide-a (its lookahead on
#    352,785 wells of a width-100,000 search), and two of the same loop
#    with the network widened to 96 units.
$B cycle --dir kjc-48 --init "$WIDE" --cycles 1 --width 100000 --samples 2048 \
    --refine-width 50 --refine-depth 10 --suite-width 1000 --suite-pieces 250 --seed 23 --quiescence 1
$B cycle --dir kjc-96 --init "$WIDE" --hidden 96 --cycles 2 --width 100000 --samples 2048 \
    --refine-width 50 --refine-depth 10 --suite-width 1000 --suite-pieces 250 --seed 23 --quiescence 1

# 2. Eleven more students of kjc-48's targets, from other starting weights:
#    five networks of older runs and six random initialisations.
DATA=kjc-48/cycle-001/refined.htds
cp kjc-48/cycle-001/net.hnet s-default.hnet
for s in run-a-6 look-c-5 look-h11-7 own-a-1; do
    [ -f s-$s.hnet ] || $B train --data $DATA --init $T/$s.hnet --out s-$s.hnet --quiet
done
[ -f s-look-h11b-2.hnet ] || $B train --data $DATA --init "$ROOT/docs/runs/look-h11b/cycle-002-net.hnet" \
    --out s-look-h11b-2.hnet --quiet
for seed in 1 2 3 4 5 6; do
    [ -f s-rand$seed.hnet ] || $B train --data $DATA --seed $seed --out s-rand$seed.hnet --quiet
done

# 3. More varied wells to label: the search step of the cycle from the
#    embedded bootstrap at width 10,000, children sampled, six seeds
#    (stopped when the samples are written, before refine).
for s in 31 32 33 34 35 36; do
    d=wells10k-$s
    [ -f $d/cycle-001/search.json ] && continue
    rm -rf $d
    $B cycle --dir $d --cycles 1 --width 10000 --samples 48 --sample-children --seed $s --quiescence 1 --quiet &
    pid=$!
    while [ ! -f $d/cycle-001/search.json ]; do sleep 1; done
    kill $pid; wait $pid || true
done

# 4. The mean of the fourteen networks as targets, fitted from wide-a.
TEACH=()
for f in s-*.hnet kjc-96/cycle-001/net.hnet kjc-96/cycle-002/net.hnet; do TEACH+=(--teacher "net=$f"); done
$B label "${TEACH[@]}" --data kjc-48/cycle-001/samples.htds kjc-96/cycle-002/samples.htds \
    wells10k-*/cycle-001/samples.htds --out lab14.htds
$B train --data lab14.htds --init "$WIDE" --out ens-a.hnet
