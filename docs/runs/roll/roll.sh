#!/bin/bash
# roll.sh RUNDIR GENERATIONS: the ensemble step as a rolling loop. Each
# generation runs one cycle (width 100,000, no chains) from the last
# generation's network, fits six students from random weights to its
# targets, and lets the mean of the last three cycles' networks (7 each)
# label those cycles' wells, fitted from the last generation's network:
# ens-h's recipe (docs/runs/ens-e/ens-h/run.sh) repeated. Resumable: every
# step is skipped when its output exists. RUNDIR/chain lists the generation
# directories in order (each holds t-*.hnet, c/cycle-001/samples.htds and
# out.hnet); seed it with the earlier cycles' directories.
set -euo pipefail
B=${HATETRIS:-/work/main/target/release/hatetris}
M=/work/main/docs/runs/ens-e/measure.sh
cd "$1"
for ((n = 0; n < $2; n++)); do
    mapfile -t CHAIN < chain
    PREV=${CHAIN[-1]}
    G=g$(( ${#CHAIN[@]} ))
    SEED=$(( 28 + ${#CHAIN[@]} ))
    mkdir -p $G && cd $G
    echo "$G from $PREV seed $SEED $(date +%T)"
    [ -f c/cycle-001/net.hnet ] || $B cycle --dir c --init $PREV/out.hnet --cycles 1 --width 100000 --samples 2048 \
        --refine-width 50 --refine-depth 10 --suite-width 1000 --suite-pieces 250 --seed $SEED --quiescence 0 --quiet
    cp -n c/cycle-001/net.hnet t-c1.hnet
    train() { [ -f t-rand$1.hnet ] || $B train --data c/cycle-001/refined.htds --seed $1 --out t-rand$1.hnet --threads 1 --quiet > t-rand$1.log 2>&1; }
    (train 1; train 3; train 5) & (train 2; train 4; train 6); wait
    TEACH=(); DATA=()
    for d in "${CHAIN[@]: -2}" "$(pwd)"; do
        for f in $d/t-*.hnet; do TEACH+=(--teacher "net=$f"); done
        DATA+=($d/c/cycle-001/samples.htds)
    done
    [ -f lab.htds ] || $B label "${TEACH[@]}" --data "${DATA[@]}" --out lab.htds > label.json
    [ -f out.hnet ] || $B train --data lab.htds --init $PREV/out.hnet --out out.hnet --quiet > train.log 2>&1
    cp -n out.hnet $G.hnet
    [ -f m-$G-other.json ] || bash $M $G
    [ -f m-c1-other.json ] || { cp -n t-c1.hnet c1.hnet; bash $M c1; }
    cd ..
    echo "$(pwd)/$G" >> chain
    echo "$G done $(date +%T)"
done
